# intent_add_executable() and intent_target_sources(): build programs and
# libraries whose sources contain [[intent::kernel]] functions. Shared by the
# build tree (included from cmake/IntentPackage.cmake) and by an installed
# IntentConfig.cmake.
#
# Reads:
#   INTENT_CLANGXX       clang++ 19, which runs the plugin (phase 1)
#   INTENT_PLUGIN        libIntentPlugin.so (a path or a generator expression)
#   INTENT_DEFAULT_ARCH  the default GPU architectures in intentc's syntax,
#                        e.g. sm_90a,compute_80 (used only where neither ARCH
#                        nor CMAKE_CUDA_ARCHITECTURES names any)
#   INTENT_FP_CONTRACT_OFF  ON: as if every call passed FP_CONTRACT_OFF
# and links the target with Intent::runtime.
include_guard(GLOBAL)

# intent_cuda_architectures(<out> <arch>): intentc's architecture list
# (sm_90a,compute_80; commas or semicolons) as a CUDA_ARCHITECTURES value
# (90a-real;80-virtual).
function(intent_cuda_architectures out arch)
  string(REPLACE "," ";" archs "${arch}")
  set(result)
  foreach(a ${archs})
    if(a MATCHES "^sm_([0-9]+[af]?)$")
      list(APPEND result "${CMAKE_MATCH_1}-real")
    elseif(a MATCHES "^compute_([0-9]+[af]?)$")
      list(APPEND result "${CMAKE_MATCH_1}-virtual")
    elseif(a MATCHES "^([0-9]+[af]?)(-real|-virtual)?$" OR a STREQUAL "native"
           OR a MATCHES "^all")
      list(APPEND result "${a}")
    else()
      message(FATAL_ERROR "Intent: GPU architecture '${a}' is not sm_XX, "
                          "compute_XX or a CUDA_ARCHITECTURES entry")
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# intent_target_sources(<target> <source>... [ARCH <arch>]
#                       [GENERATED_FROM <dir>] [PLUGIN_ARGS <arg>...]
#                       [FP_CONTRACT_OFF])
#
# Adds kernel sources to an existing target (an executable or a library).
# For each source S (file name <tu>.<ext>), one custom command runs phase 1,
#   clang++ -fsyntax-only -fplugin=libIntentPlugin.so
#           -fplugin-arg-intent-out=<bindir>/<target>.intent <flags> S
# producing <tu>.intent.cpp (the TU with call sites rewritten) and
# <tu>.kernels.cu (kernels and launch wrappers); the plugin rewrites them
# only when their content changes, so a host-only edit does not recompile
# the kernels. The target gets the generated files: .intent.cpp for the C++
# compiler, .kernels.cu for nvcc (the CUDA language must be enabled;
# IntentConfig.cmake enables it), and is linked with Intent::runtime
# (PRIVATE). Include directories, compile definitions and the C++ standard
# set on <target> afterwards reach phase 1 too.
#
# GPU architectures: ARCH (intentc's syntax, e.g. "sm_80,sm_90a" or
# "sm_90a,compute_80") sets the target's CUDA_ARCHITECTURES. Without it the
# target keeps its own CUDA_ARCHITECTURES (initialized by CMake from
# CMAKE_CUDA_ARCHITECTURES; a value set on the target later wins), and only a
# target with none gets INTENT_DEFAULT_ARCH.
#
# GENERATED_FROM <dir> replaces phase 1 by copying <dir>/<tu>.intent.cpp and
# <dir>/<tu>.kernels.cu (files written by hand or by an earlier phase 1).
# PLUGIN_ARGS are passed as -fplugin-arg-intent-<arg>. FP_CONTRACT_OFF
# compiles the generated files with -ffp-contract=off (host) and
# --fmad=false (nvcc): no a*b+c -> FMA contraction, GPU results bitwise equal
# to the host's on plain arithmetic.
function(intent_target_sources target)
  cmake_parse_arguments(ARG "FP_CONTRACT_OFF" "ARCH;GENERATED_FROM"
                        "PLUGIN_ARGS" ${ARGN})
  set(sources ${ARG_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "intent_target_sources(${target}): no sources")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "intent_target_sources(${target}): no such target")
  endif()

  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.intent)
  # Flags of the target, evaluated at generate time (so later
  # target_include_directories/target_compile_definitions count).
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(std "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(plugin_args)
  foreach(a ${ARG_PLUGIN_ARGS})
    list(APPEND plugin_args "-fplugin-arg-intent-${a}")
  endforeach()

  get_property(stems TARGET ${target} PROPERTY INTENT_STEMS)
  set(generated)
  set(source_dirs)
  foreach(src ${sources})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    get_filename_component(stem ${abs} NAME_WLE)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "intent_target_sources(${target}): two sources "
                          "named ${stem}.*; generated names derive from it")
    endif()
    list(APPEND stems ${stem})
    list(APPEND source_dirs ${dir})
    set(out_cpp ${gen_dir}/${stem}.intent.cpp)
    set(out_cu ${gen_dir}/${stem}.kernels.cu)
    if(ARG_GENERATED_FROM)
      get_filename_component(from ${ARG_GENERATED_FROM} ABSOLUTE)
      add_custom_command(
        OUTPUT ${out_cpp} ${out_cu}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${gen_dir}
        COMMAND ${CMAKE_COMMAND} -E copy_if_different ${from}/${stem}.intent.cpp
                ${from}/${stem}.kernels.cu ${gen_dir}
        DEPENDS ${abs} ${from}/${stem}.intent.cpp ${from}/${stem}.kernels.cu
        COMMENT "Intent phase 1 (pre-generated): ${src}"
        VERBATIM)
    else()
      if(NOT INTENT_PLUGIN)
        message(FATAL_ERROR "intent_target_sources(${target}): this Intent "
                            "has no plugin or no clang++ 19 to run it "
                            "(INTENT_PLUGIN is empty); phase 1 cannot run "
                            "here, only GENERATED_FROM <dir> works")
      endif()
      set(depfile_args)
      if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
        set(depfile_args DEPFILE ${gen_dir}/${stem}.d)
      endif()
      # The plugin leaves an output whose content is unchanged untouched
      # (its mtime too): ninja then skips nvcc after a host-only edit
      # (restat). A phase 1 that writes nothing fails at the sha1sum below.
      add_custom_command(
        OUTPUT ${out_cpp} ${out_cu}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${gen_dir}
        COMMAND ${INTENT_CLANGXX} -fsyntax-only
                "-std=c++$<IF:$<BOOL:${std}>,${std},17>"
                "-fplugin=${INTENT_PLUGIN}"
                "-fplugin-arg-intent-out=${gen_dir}" ${plugin_args}
                "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
                "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
                -MD -MF ${gen_dir}/${stem}.d -MT ${out_cpp}
                ${abs}
        # Fails (naming the file) when the plugin did not write an output.
        COMMAND ${CMAKE_COMMAND} -E sha1sum ${out_cpp} ${out_cu}
        DEPENDS ${abs} ${INTENT_PLUGIN}
        ${depfile_args}
        COMMENT "Intent phase 1: ${src}"
        COMMAND_EXPAND_LISTS
        VERBATIM)
    endif()
    # Line info makes cuda-gdb, compute-sanitizer and ncu report the user's
    # lines (the generated code carries #line directives).
    set(cu_options -lineinfo)
    set(cpp_options)
    if(ARG_FP_CONTRACT_OFF OR INTENT_FP_CONTRACT_OFF)
      list(APPEND cu_options --fmad=false)
      list(APPEND cpp_options -ffp-contract=off)
    endif()
    set_source_files_properties(${out_cu} PROPERTIES
      COMPILE_OPTIONS "${cu_options}")
    if(cpp_options)
      set_source_files_properties(${out_cpp} PROPERTIES
        COMPILE_OPTIONS "${cpp_options}")
    endif()
    list(APPEND generated ${out_cpp} ${out_cu})
  endforeach()
  set_property(TARGET ${target} PROPERTY INTENT_STEMS ${stems})

  target_sources(${target} PRIVATE ${generated})
  list(REMOVE_DUPLICATES source_dirs)
  # The rewritten TU lives in the build tree: its "..." includes must still
  # find the user's headers next to the original source.
  target_include_directories(${target} PRIVATE ${source_dirs})
  target_link_libraries(${target} PRIVATE Intent::runtime)

  if(ARG_ARCH)
    intent_cuda_architectures(cuda_archs "${ARG_ARCH}")
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${cuda_archs}")
  else()
    get_target_property(cuda_archs ${target} CUDA_ARCHITECTURES)
    if(NOT cuda_archs)
      intent_cuda_architectures(cuda_archs "${INTENT_DEFAULT_ARCH}")
      set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${cuda_archs}")
    endif()
  endif()
  # Generated kernels need sm_80 or newer (cp.async, bf16 atomics).
  foreach(a ${cuda_archs})
    if(a MATCHES "^([0-9]+)" AND CMAKE_MATCH_1 LESS 80)
      message(WARNING "intent_target_sources(${target}): CUDA architecture "
              "${a} is older than sm_80, which Intent's generated code needs; "
              "set CMAKE_CUDA_ARCHITECTURES (e.g. 90a-real;80-virtual) or ARCH")
    endif()
  endforeach()
endfunction()

# intent_add_executable(<target> <source>... [ARCH <arch>]
#                       [GENERATED_FROM <dir>] [PLUGIN_ARGS <arg>...]
#                       [FP_CONTRACT_OFF])
#
# add_executable(<target>) plus intent_target_sources(<target> ...): a
# program built from the generated files of its sources.
function(intent_add_executable target)
  add_executable(${target})
  intent_target_sources(${target} ${ARGN})
endfunction()
