# Installs the runtime component of BUILD_DIR into WORK_DIR/prefix, builds EMBED_SOURCE
# against it (find_package(dlc_runtime) only) and runs it on the toy artifact.
file(REMOVE_RECURSE ${WORK_DIR})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix --component dlc_runtime)
step(${CMAKE_COMMAND} -S ${EMBED_SOURCE} -B ${WORK_DIR}/build -G ${GENERATOR}
     -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
     "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${WRITER} ${WORK_DIR}/toy.dlcm ${KERNELS})
step(${WORK_DIR}/build/embed ${WORK_DIR}/toy.dlcm)
message("${out}")
if(NOT out MATCHES "out: 11 26 45 68 95 126")
  message(FATAL_ERROR "unexpected output of embed")
endif()
