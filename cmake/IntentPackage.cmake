# Packaging of Intent, included from runtime/CMakeLists.txt after the
# intent_runtime target exists:
#  - the driver in the build tree: <build>/tools/intentc (a link to the
#    source script) and <build>/tools/intentc.json (this build's paths);
#  - intent_add_executable() for in-tree use (cmake/IntentFunctions.cmake);
#  - install rules: headers, libintent_runtime.a, libIntentPlugin.so,
#    bin/intentc with share/intent/intentc.json (paths relative to it), and
#    lib/cmake/Intent/IntentConfig.cmake for find_package(Intent).
# The plugin target (IntentPlugin, plugin/) may be defined before or after
# this file runs: everything that refers to it is deferred to the end of the
# top-level CMakeLists.txt. Without it, INTENT_PLUGIN_PATH may name a
# prebuilt plugin; otherwise intentc can only run phase 2 (--from-generated).
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Cache variables: _intent_finish_package runs in the top-level directory's
# scope, where normal variables of runtime/ are not visible.
get_filename_component(_intent_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(INTENT_PACKAGE_ROOT ${_intent_root} CACHE INTERNAL "The Intent source tree")

find_program(INTENT_CLANGXX NAMES clang++-19 clang++
  PATHS /usr/lib/llvm-19/bin NO_DEFAULT_PATH)
find_program(INTENT_CLANGXX NAMES clang++-19 clang++)
# Machine code for Hopper plus PTX for sm_80: runs on every GPU from sm_80 up
# (the CUDA driver compiles the PTX for newer ones). A build tree configured
# when the default was sm_90a alone (recognized by the old help string, which
# a value given with -D does not have) gets the new default.
get_property(_intent_arch_help CACHE INTENT_DEFAULT_ARCH PROPERTY HELPSTRING)
if(INTENT_DEFAULT_ARCH STREQUAL "sm_90a" AND _intent_arch_help STREQUAL
   "GPU architecture intentc and intent_add_executable compile for")
  unset(INTENT_DEFAULT_ARCH CACHE)
endif()
set(INTENT_DEFAULT_ARCH "sm_90a,compute_80" CACHE STRING
  "GPU architectures (intentc syntax) intentc and intent_add_executable compile for by default")
option(INTENT_FP_CONTRACT_OFF
  "intent_add_executable: compile generated code without FMA contraction (--fmad=false)" OFF)
# The version: the Intent project's (the top-level CMakeLists.txt), or the
# standalone runtime's.
set(INTENT_VERSION ${PROJECT_VERSION} CACHE INTERNAL "The Intent version")
# The generated-code ABI version, defined by the runtime header; intentc
# --version prints it.
file(STRINGS ${_intent_root}/runtime/include/intent/runtime/api.hpp _intent_abi
     REGEX "^#define INTENT_ABI_VERSION [0-9]+")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" _intent_abi "${_intent_abi}")
set(INTENT_ABI_VERSION ${_intent_abi} CACHE INTERNAL "The generated-code ABI version")
# Code for the programs of this build (test/runtime, the examples) unless the
# caller chose: CMake's own default (sm_52 or sm_75) is too old for Intent.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  include(${CMAKE_CURRENT_LIST_DIR}/IntentFunctions.cmake)
  intent_cuda_architectures(CMAKE_CUDA_ARCHITECTURES "${INTENT_DEFAULT_ARCH}")
endif()
set(INTENT_PLUGIN_PATH "" CACHE FILEPATH
  "A prebuilt libIntentPlugin.so, used when the plugin is not built here")
get_filename_component(INTENT_CUDA_ROOT ${CUDAToolkit_BIN_DIR}/.. ABSOLUTE)

include(${CMAKE_CURRENT_LIST_DIR}/IntentFunctions.cmake)

#===--- Install rules that need no plugin --------------------------------===#

set(INTENT_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Intent)
set(INTENT_PLUGIN_INSTALL_PATH ${CMAKE_INSTALL_LIBDIR}/libIntentPlugin.so)

install(TARGETS intent_runtime EXPORT IntentTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${INTENT_PACKAGE_ROOT}/include/intent
                  ${INTENT_PACKAGE_ROOT}/runtime/include/intent
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(PROGRAMS ${INTENT_PACKAGE_ROOT}/tools/intentc
  DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT IntentTargets NAMESPACE Intent::
  DESTINATION ${INTENT_CMAKE_INSTALL_DIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/IntentConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/IntentConfig.cmake
  INSTALL_DESTINATION ${INTENT_CMAKE_INSTALL_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR
            INTENT_PLUGIN_INSTALL_PATH)
# find_package(Intent 0.2): 0.2.x satisfies 0.2 (before 1.0, a minor
# version may break compatibility).
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/IntentConfigVersion.cmake
  VERSION ${INTENT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/IntentConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/IntentConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/IntentFunctions.cmake
  DESTINATION ${INTENT_CMAKE_INSTALL_DIR})

#===--- The driver's configuration ---------------------------------------===#

# A JSON list of quoted strings.
function(_intent_json_list out)
  set(items)
  foreach(v ${ARGN})
    list(APPEND items "\"${v}\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

# Writes intentc's configuration to File. Paths may be relative to File's
# directory. Plugin may be empty.
function(_intent_write_driver_config file plugin runtime_lib)
  _intent_json_list(includes ${ARGN})
  _intent_json_list(system_libs ${CMAKE_DL_LIBS} rt pthread)
  file(GENERATE OUTPUT ${file} CONTENT "{
  \"clangxx\": \"${INTENT_CLANGXX}\",
  \"plugin\": \"${plugin}\",
  \"include_dirs\": ${includes},
  \"runtime_lib\": \"${runtime_lib}\",
  \"nvcc\": \"${CUDAToolkit_NVCC_EXECUTABLE}\",
  \"host_cxx\": \"${CMAKE_CXX_COMPILER}\",
  \"cudart\": \"${CUDA_cudart_static_LIBRARY}\",
  \"system_libs\": ${system_libs},
  \"default_arch\": \"${INTENT_DEFAULT_ARCH}\",
  \"version\": \"${INTENT_VERSION}\",
  \"abi_version\": \"${INTENT_ABI_VERSION}\"
}
")
endfunction()

# Runs at the end of the top-level CMakeLists.txt, when every target exists.
function(_intent_finish_package)
  # GNUInstallDirs sets some directories as normal variables: set them here.
  include(GNUInstallDirs)
  get_property(bin GLOBAL PROPERTY INTENT_PACKAGE_BINARY_DIR)
  if(TARGET IntentPlugin)
    set(plugin_build "$<TARGET_FILE:IntentPlugin>")
    install(TARGETS IntentPlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
    set(plugin_deps IntentPlugin)
  elseif(INTENT_PLUGIN_PATH)
    set(plugin_build "${INTENT_PLUGIN_PATH}")
    install(FILES ${INTENT_PLUGIN_PATH} DESTINATION ${CMAKE_INSTALL_LIBDIR})
    set(plugin_deps)
  else()
    message(STATUS "Intent: no plugin in this build; intentc and "
                   "intent_add_executable need GENERATED_FROM / --from-generated")
    set(plugin_build "")
    set(plugin_deps)
  endif()
  # For intent_add_executable in this project.
  set_property(GLOBAL PROPERTY INTENT_PLUGIN_BUILD "${plugin_build}")

  # Build tree: <build>/tools/intentc next to its configuration.
  _intent_write_driver_config(${CMAKE_BINARY_DIR}/tools/intentc.json
    "${plugin_build}" "$<TARGET_FILE:intent_runtime>"
    ${INTENT_PACKAGE_ROOT}/runtime/include ${INTENT_PACKAGE_ROOT}/include)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/tools)
  file(CREATE_LINK ${INTENT_PACKAGE_ROOT}/tools/intentc
       ${CMAKE_BINARY_DIR}/tools/intentc SYMBOLIC)
  add_custom_target(intentc_deps DEPENDS intent_runtime ${plugin_deps})

  # Install tree: share/intent/intentc.json, paths relative to it.
  set(root /intent-install-root)
  set(json_dir ${root}/${CMAKE_INSTALL_DATADIR}/intent)
  file(RELATIVE_PATH rel_inc ${json_dir} ${root}/${CMAKE_INSTALL_INCLUDEDIR})
  file(RELATIVE_PATH rel_lib ${json_dir} ${root}/${CMAKE_INSTALL_LIBDIR})
  set(plugin_install "")
  if(plugin_build)
    set(plugin_install ${rel_lib}/libIntentPlugin.so)
  endif()
  _intent_write_driver_config(${bin}/intentc.install.json
    "${plugin_install}" "${rel_lib}/$<TARGET_FILE_NAME:intent_runtime>"
    ${rel_inc})
  install(FILES ${bin}/intentc.install.json
    DESTINATION ${CMAKE_INSTALL_DATADIR}/intent RENAME intentc.json)
endfunction()

set_property(GLOBAL PROPERTY INTENT_PACKAGE_BINARY_DIR ${CMAKE_CURRENT_BINARY_DIR})
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _intent_finish_package)

# For intent_add_executable inside this project: the plugin as a generator
# expression, resolved once the plugin target is known (else the prebuilt
# INTENT_PLUGIN_PATH).
set(INTENT_PLUGIN
  "$<$<TARGET_EXISTS:IntentPlugin>:$<TARGET_FILE:IntentPlugin>>$<$<NOT:$<TARGET_EXISTS:IntentPlugin>>:${INTENT_PLUGIN_PATH}>"
  CACHE INTERNAL "")
