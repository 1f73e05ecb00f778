# cmake -DBUILD=<build dir> -DSRC=<test/runtime> -DWORK=<scratch dir>
#       -DGENERATOR=<generator> -P consumer_test.cmake
# Installs the build into WORK/prefix, checks the installed tree, builds the
# consumer project against it with find_package(Intent) +
# intent_add_executable (phase 1 through the installed plugin), and runs the
# result and the installed intentc.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(PREFIX ${WORK}/prefix)

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "FAILED (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(STEP_OUTPUT "${out}${err}" PARENT_SCOPE)
endfunction()

step(${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX})
foreach(f include/intent/intent.hpp include/intent/view.hpp
          include/intent/array.hpp include/intent/runtime.hpp
          include/intent/runtime/kernel.hpp include/intent/runtime/device.hpp
          include/intent/runtime/coop.hpp
          lib/libintent_runtime.a bin/intentc share/intent/intentc.json
          lib/cmake/Intent/IntentConfig.cmake
          lib/cmake/Intent/IntentFunctions.cmake
          lib/cmake/Intent/IntentTargets.cmake)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

# Phase 1 runs the installed plugin (no hand-written files).
step(${CMAKE_COMMAND} -G ${GENERATOR} -S ${SRC}/consumer -B ${WORK}/build
     -DCMAKE_PREFIX_PATH=${PREFIX})
step(${CMAKE_COMMAND} --build ${WORK}/build)
foreach(mode cpu reference auto)
  step(${CMAKE_COMMAND} -E env INTENT_DEVICE=${mode} ${WORK}/build/consumer_saxpy)
  message(STATUS "consumer_saxpy: ${STEP_OUTPUT}")
endforeach()

# The installed driver finds its runtime and headers relative to itself.
step(${PREFIX}/bin/intentc -O2 ${SRC}/saxpy.cpp -o ${WORK}/saxpy_installed)
step(${CMAKE_COMMAND} -E env INTENT_DEVICE=cpu ${WORK}/saxpy_installed)
message(STATUS "installed intentc: ${STEP_OUTPUT}")
step(${PREFIX}/bin/intentc --print-config)
if(NOT STEP_OUTPUT MATCHES "share/intent/intentc.json")
  message(FATAL_ERROR "installed intentc used another configuration:\n${STEP_OUTPUT}")
endif()
message(STATUS "package consumer test passed")
