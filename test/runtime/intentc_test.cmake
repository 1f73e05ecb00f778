# cmake -DINTENTC=<build>/tools/intentc -DSRC=<test/runtime> -DWORK=<dir>
#       -P intentc_test.cmake
# The driver's phase 2, link, -c, --keep-dir, -v, .cu inputs, --version,
# -arch=native and error handling, with the hand-written phase-1 output in
# SRC/gen (--from-generated). test/lit/driver covers the other options.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "FAILED (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(STEP_OUTPUT "${out}${err}" PARENT_SCOPE)
endfunction()

# Expects the driver to fail with Pattern in its message.
function(step_fails pattern)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "${pattern}")
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "expected failure '${pattern}': ${cmd}\n${out}\n${err}")
  endif()
endfunction()

function(expect_output pattern)
  if(NOT STEP_OUTPUT MATCHES "${pattern}")
    message(FATAL_ERROR "output lacks '${pattern}':\n${STEP_OUTPUT}")
  endif()
endfunction()

# Compile and link in one go; -v shows the commands.
step(${INTENTC} -v -O2 --keep-dir ${WORK}/keep --from-generated ${SRC}/gen
     ${SRC}/saxpy.cpp -o ${WORK}/saxpy)
expect_output("nvcc.* -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_80,code=compute_80 -lineinfo")
expect_output("-c [^ ]*/gen/saxpy.kernels.cu -o [^ ]*/keep/saxpy.kernels.o")
expect_output("-c [^ ]*/gen/saxpy.intent.cpp -o [^ ]*/keep/saxpy.intent.o")
expect_output("libintent_runtime.a")
foreach(f saxpy.kernels.o saxpy.intent.o)
  if(NOT EXISTS ${WORK}/keep/${f})
    message(FATAL_ERROR "--keep-dir lacks ${f}")
  endif()
endforeach()
foreach(mode cpu reference)
  step(${CMAKE_COMMAND} -E env INTENT_DEVICE=${mode} ${WORK}/saxpy)
  expect_output("0 failed")
endforeach()

# -c makes one object holding host and kernel code; a second call links it.
step(${INTENTC} -c -O1 -arch=sm_90a --from-generated ${SRC}/gen
     ${SRC}/two_outputs.cpp -o ${WORK}/two.o)
step(${INTENTC} ${WORK}/two.o -o ${WORK}/two)
step(${CMAKE_COMMAND} -E env INTENT_DEVICE=cpu ${WORK}/two)
expect_output("two_outputs \\[cpu\\]: [0-9]+ checks, 0 failed")
# auto: the GPU where there is one (the merged object keeps the fatbinary).
step(${CMAKE_COMMAND} -E env INTENT_DEVICE=auto ${WORK}/two)
expect_output("two_outputs \\[(gpu|cpu)\\]: [0-9]+ checks, 0 failed")

# A plain CUDA source next to the program: nvcc compiles it, it is linked
# in; alone with -c it becomes an object.
file(WRITE ${WORK}/extra.cu "__global__ void extraKernel(int *Out) { *Out = 42; }\n"
     "int extraValue() { return 42; }\n")
step(${INTENTC} -O1 -pthread --from-generated ${SRC}/gen ${SRC}/saxpy.cpp
     ${WORK}/extra.cu -o ${WORK}/saxpy_cu)
step(${CMAKE_COMMAND} -E env INTENT_DEVICE=cpu ${WORK}/saxpy_cu)
expect_output("0 failed")
step(${INTENTC} -c -MD ${WORK}/extra.cu -o ${WORK}/extra.o)
if(NOT EXISTS ${WORK}/extra.o OR NOT EXISTS ${WORK}/extra.d)
  message(FATAL_ERROR "intentc -c -MD extra.cu made no extra.o / extra.d")
endif()
file(READ ${WORK}/extra.d deps)
if(NOT deps MATCHES "^[^\n]*extra.o: .*extra.cu")
  message(FATAL_ERROR "extra.d is not a rule for extra.o:\n${deps}")
endif()

# --version: the project's version and the generated-code ABI version.
step(${INTENTC} --version)
expect_output("intentc \\(Intent\\) [0-9]+\\.[0-9]+\\.[0-9]+")
expect_output("generated-code ABI version [0-9]+")

# -arch=native: nvcc's native architecture where there is a GPU, else the
# default with a warning.
step(${INTENTC} -v -arch=native -c --from-generated ${SRC}/gen ${SRC}/saxpy.cpp
     -o ${WORK}/native.o)
expect_output("(-arch=native -lineinfo|warning: -arch=native: no GPU found)")

# User errors.
step_fails("unknown option '--frobnicate'" ${INTENTC} --frobnicate ${SRC}/saxpy.cpp)
step_fails("-arch=sm_9: expected sm_XX" ${INTENTC} -arch=sm_9
           --from-generated ${SRC}/gen ${SRC}/saxpy.cpp -o ${WORK}/x)
step_fails("two sources named saxpy" ${INTENTC} --from-generated ${SRC}/gen
           ${SRC}/saxpy.cpp ${SRC}/saxpy.cpp -o ${WORK}/x)
file(WRITE ${WORK}/helper.cpp "int helper() { return 1; }\n")
step_fails("phase 1 did not produce .*/helper.intent.cpp" ${INTENTC}
           --from-generated ${SRC}/gen ${SRC}/saxpy.cpp ${WORK}/helper.cpp
           -o ${WORK}/x)
step_fails("no input files" ${INTENTC} -O2)
message(STATUS "intentc test passed")
