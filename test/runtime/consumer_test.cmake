# cmake -DBUILD=<build dir> -DSRC=<test/runtime> -DWORK=<scratch dir>
#       -DGENERATOR=<generator> [-DCXX=<c++>] [-DNVCC=<nvcc>]
#       [-DCUDA_ARCH=<90a>] -P consumer_test.cmake
# Installs the build into WORK/prefix, checks the installed tree, builds the
# consumer project against it with find_package(Intent) +
# intent_add_executable, and runs the result and the installed intentc.
# Phase 1 runs through the installed plugin when the install has one; an
# install without a plugin (a runtime-only build: no clang 19 on the
# machine) is a runtime-only consumer: phase 1's output comes from the
# hand-written SRC/gen (GENERATED_FROM, intentc --from-generated).
# The consumer is configured with the build's C++ compiler, nvcc and GPU
# architecture, so that nothing depends on what the PATH or CMake's default
# CUDA architecture happen to be. Every step's full output is kept in
# WORK/<n>-<name>.log; a failing configure also prints the consumer's
# CMake configure log. A missing prerequisite (no CUDA compiler) prints
# "package consumer test skipped: ..." (SKIP_REGULAR_EXPRESSION).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(PREFIX ${WORK}/prefix)
set(STEP_NUMBER 0)

# The CMake configure logs of a build directory (CMake >= 3.26 writes
# CMakeConfigureLog.yaml, older ones CMakeOutput.log and CMakeError.log).
function(configure_logs dir out)
  set(text "")
  foreach(f CMakeFiles/CMakeConfigureLog.yaml CMakeFiles/CMakeError.log
            CMakeFiles/CMakeOutput.log)
    if(EXISTS ${dir}/${f})
      file(READ ${dir}/${f} content)
      string(APPEND text "\n===== ${dir}/${f} =====\n${content}")
    endif()
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# step(<name> [LOGS_OF <dir>] COMMAND <command>...): runs it; on failure
# prints the command, its whole output and, with LOGS_OF, that build
# directory's configure logs.
function(step name)
  cmake_parse_arguments(ARG "" "LOGS_OF" "COMMAND" ${ARGN})
  math(EXPR n "${STEP_NUMBER} + 1")
  set(STEP_NUMBER ${n} PARENT_SCOPE)
  execute_process(COMMAND ${ARG_COMMAND} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REPLACE ";" " " cmd "${ARG_COMMAND}")
  set(log ${WORK}/${n}-${name}.log)
  file(WRITE ${log} "$ ${cmd}\nexit: ${rc}\n--- stdout ---\n${out}\n--- stderr ---\n${err}\n")
  if(NOT rc EQUAL 0)
    set(extra "")
    if(ARG_LOGS_OF)
      configure_logs(${ARG_LOGS_OF} extra)
    endif()
    message(FATAL_ERROR "FAILED (${rc}): ${cmd}\n--- stdout ---\n${out}\n"
                        "--- stderr ---\n${err}\n(also in ${log})${extra}")
  endif()
  set(STEP_OUTPUT "${out}${err}" PARENT_SCOPE)
endfunction()

if(NVCC AND NOT EXISTS "${NVCC}")
  message("package consumer test skipped: the build's nvcc ${NVCC} does not exist")
  return()
endif()

step(install COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX})
foreach(f include/intent/intent.hpp include/intent/view.hpp
          include/intent/array.hpp include/intent/runtime.hpp
          include/intent/runtime/kernel.hpp include/intent/runtime/device.hpp
          include/intent/runtime/coop.hpp
          lib/libintent_runtime.a bin/intentc share/intent/intentc.json
          lib/cmake/Intent/IntentConfig.cmake
          lib/cmake/Intent/IntentConfigVersion.cmake
          lib/cmake/Intent/IntentFunctions.cmake
          lib/cmake/Intent/IntentTargets.cmake)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# The version file accepts 0.2 and refuses another minor or major version.
# (as find_package runs it: the requested version and its components set).
foreach(request 0.2 0.2.0 9.9 0.1)
  set(PACKAGE_FIND_VERSION ${request})
  string(REPLACE "." ";" parts ${request})
  list(LENGTH parts PACKAGE_FIND_VERSION_COUNT)
  list(APPEND parts 0 0)
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
  list(GET parts 2 PACKAGE_FIND_VERSION_PATCH)
  set(PACKAGE_VERSION_COMPATIBLE)
  include(${PREFIX}/lib/cmake/Intent/IntentConfigVersion.cmake)
  if(request MATCHES "^0\\.2" AND NOT PACKAGE_VERSION_COMPATIBLE)
    message(FATAL_ERROR "Intent ${PACKAGE_VERSION} refuses find_package(Intent ${request})")
  elseif(NOT request MATCHES "^0\\.2" AND PACKAGE_VERSION_COMPATIBLE)
    message(FATAL_ERROR "Intent ${PACKAGE_VERSION} accepts find_package(Intent ${request})")
  endif()
endforeach()

# Phase 1 through the installed plugin, or the hand-written phase 1 output
# for a runtime-only install.
set(consumer_args -G ${GENERATOR} -S ${SRC}/consumer -B ${WORK}/build
    -DCMAKE_PREFIX_PATH=${PREFIX})
if(CXX)
  list(APPEND consumer_args -DCMAKE_CXX_COMPILER=${CXX})
endif()
if(NVCC)
  list(APPEND consumer_args -DCMAKE_CUDA_COMPILER=${NVCC})
endif()
if(CUDA_ARCH)
  list(APPEND consumer_args -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH})
endif()
file(READ ${PREFIX}/share/intent/intentc.json driver_config)
set(clangxx "")
if(driver_config MATCHES "\"clangxx\": \"([^\"]*)\"")
  set(clangxx "${CMAKE_MATCH_1}")
endif()
if(EXISTS ${PREFIX}/lib/libIntentPlugin.so AND clangxx AND EXISTS "${clangxx}")
  set(with_plugin ON)
  message(STATUS "the install has the plugin: phase 1 runs through it")
else()
  set(with_plugin OFF)
  message(STATUS "the install has no plugin or no clang++ ('${clangxx}'): "
                 "the consumer takes phase 1's output from ${SRC}/gen")
  list(APPEND consumer_args -DINTENT_TEST_GENERATED_DIR=${SRC}/gen)
endif()
step(configure LOGS_OF ${WORK}/build COMMAND ${CMAKE_COMMAND} ${consumer_args})
step(build COMMAND ${CMAKE_COMMAND} --build ${WORK}/build)
foreach(mode cpu reference auto)
  step(run-${mode} COMMAND ${CMAKE_COMMAND} -E env INTENT_DEVICE=${mode}
       ${WORK}/build/consumer_saxpy)
  message(STATUS "consumer_saxpy: ${STEP_OUTPUT}")
endforeach()

# A source edit that leaves the kernels as they were reruns phase 1 but not
# nvcc: the plugin keeps the unchanged .kernels.cu (its mtime too) and ninja
# restats it.
if(with_plugin AND GENERATOR STREQUAL "Ninja")
  file(TOUCH ${SRC}/consumer/lib_kernels.cpp)
  step(rebuild COMMAND ${CMAKE_COMMAND} --build ${WORK}/build)
  if(NOT STEP_OUTPUT MATCHES "Intent phase 1: .*lib_kernels.cpp")
    message(FATAL_ERROR "touching lib_kernels.cpp did not rerun phase 1:\n${STEP_OUTPUT}")
  endif()
  if(STEP_OUTPUT MATCHES "Building CUDA object")
    message(FATAL_ERROR "an unchanged .kernels.cu was recompiled:\n${STEP_OUTPUT}")
  endif()
endif()

# The kernel library (intent_target_sources on add_library), built with
# FP_CONTRACT_OFF: its kernels' nvcc command has --fmad=false.
if(with_plugin)
  foreach(mode cpu reference)
    step(run-lib-${mode} COMMAND ${CMAKE_COMMAND} -E env INTENT_DEVICE=${mode}
         ${WORK}/build/consumer_lib)
    message(STATUS "consumer_lib: ${STEP_OUTPUT}")
  endforeach()
  file(GLOB_RECURSE ninja_files ${WORK}/build/build.ninja ${WORK}/build/*.make
       ${WORK}/build/*/flags.make)
  set(found_fmad OFF)
  foreach(f ${ninja_files})
    file(STRINGS ${f} fmad REGEX "lib_kernels.kernels.cu|--fmad=false")
    if(fmad MATCHES "--fmad=false")
      set(found_fmad ON)
    endif()
  endforeach()
  if(NOT found_fmad)
    message(FATAL_ERROR "FP_CONTRACT_OFF: no --fmad=false in the build files")
  endif()
endif()

# The installed driver finds its runtime and headers relative to itself.
if(with_plugin)
  step(intentc COMMAND ${PREFIX}/bin/intentc -O2 ${SRC}/saxpy.cpp
       -o ${WORK}/saxpy_installed)
else()
  step(intentc COMMAND ${PREFIX}/bin/intentc -O2 --from-generated ${SRC}/gen
       ${SRC}/saxpy.cpp -o ${WORK}/saxpy_installed)
endif()
step(intentc-run COMMAND ${CMAKE_COMMAND} -E env INTENT_DEVICE=cpu
     ${WORK}/saxpy_installed)
message(STATUS "installed intentc: ${STEP_OUTPUT}")
step(intentc-config COMMAND ${PREFIX}/bin/intentc --print-config)
if(NOT STEP_OUTPUT MATCHES "share/intent/intentc.json")
  message(FATAL_ERROR "installed intentc used another configuration:\n${STEP_OUTPUT}")
endif()
message(STATUS "package consumer test passed")
