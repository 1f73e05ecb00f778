# intent_add_executable(): build a program whose sources contain
# [[intent::kernel]] functions. Shared by the build tree (included from
# cmake/IntentPackage.cmake) and by an installed IntentConfig.cmake.
#
# Reads:
#   INTENT_CLANGXX       clang++ 19, which runs the plugin (phase 1)
#   INTENT_PLUGIN        libIntentPlugin.so (a path or a generator expression)
#   INTENT_DEFAULT_ARCH  the GPU architecture, e.g. sm_90a
# and links the target with Intent::runtime.
include_guard(GLOBAL)

# intent_add_executable(<target> <source>... [ARCH sm_XX]
#                       [GENERATED_FROM <dir>] [PLUGIN_ARGS <arg>...])
#
# For each source S (file name <tu>.<ext>), one custom command runs phase 1,
#   clang++ -fsyntax-only -fplugin=libIntentPlugin.so
#           -fplugin-arg-intent-out=<bindir>/<target>.intent <flags> S
# producing <tu>.intent.cpp (the TU with call sites rewritten) and
# <tu>.kernels.cu (kernels and launch wrappers). The target is built from
# the generated files: .intent.cpp by the C++ compiler, .kernels.cu by nvcc
# (the CUDA language must be enabled; IntentConfig.cmake enables it), and is
# linked with Intent::runtime. Include directories, compile definitions and
# the C++ standard set on <target> afterwards reach phase 1 too.
#
# GENERATED_FROM <dir> replaces phase 1 by copying <dir>/<tu>.intent.cpp and
# <dir>/<tu>.kernels.cu (files written by hand or by an earlier phase 1).
# PLUGIN_ARGS are passed as -fplugin-arg-intent-<arg>.
function(intent_add_executable target)
  cmake_parse_arguments(ARG "" "ARCH;GENERATED_FROM" "PLUGIN_ARGS" ${ARGN})
  set(sources ${ARG_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "intent_add_executable(${target}): no sources")
  endif()
  set(arch ${ARG_ARCH})
  if(NOT arch)
    set(arch ${INTENT_DEFAULT_ARCH})
  endif()
  string(REGEX REPLACE "^sm_" "" cuda_arch "${arch}")

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

  set(generated)
  set(source_dirs)
  set(stems)
  foreach(src ${sources})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    get_filename_component(stem ${abs} NAME_WLE)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "intent_add_executable(${target}): two sources "
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
        COMMAND ${CMAKE_COMMAND} -E copy ${from}/${stem}.intent.cpp
                ${from}/${stem}.kernels.cu ${gen_dir}
        DEPENDS ${abs} ${from}/${stem}.intent.cpp ${from}/${stem}.kernels.cu
        COMMENT "Intent phase 1 (pre-generated): ${src}"
        VERBATIM)
    else()
      if(NOT INTENT_PLUGIN)
        message(FATAL_ERROR "intent_add_executable(${target}): this Intent "
                            "has no plugin or no clang++ 19 to run it "
                            "(INTENT_PLUGIN is empty); phase 1 cannot run "
                            "here, only GENERATED_FROM <dir> works")
      endif()
      set(depfile_args)
      if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
        set(depfile_args DEPFILE ${gen_dir}/${stem}.d)
      endif()
      add_custom_command(
        OUTPUT ${out_cpp} ${out_cu}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${gen_dir}
        # Stale outputs must not survive a phase 1 that writes nothing.
        COMMAND ${CMAKE_COMMAND} -E rm -f ${out_cpp} ${out_cu}
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
    list(APPEND generated ${out_cpp} ${out_cu})
  endforeach()

  add_executable(${target} ${generated})
  list(REMOVE_DUPLICATES source_dirs)
  # The rewritten TU lives in the build tree: its "..." includes must still
  # find the user's headers next to the original source.
  target_include_directories(${target} PRIVATE ${source_dirs})
  target_link_libraries(${target} PRIVATE Intent::runtime)
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES ${cuda_arch})
  # Line info makes cuda-gdb, compute-sanitizer and ncu report the user's
  # lines (the generated code carries #line directives).
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
endfunction()
