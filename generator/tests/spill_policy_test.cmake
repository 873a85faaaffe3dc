# cmake -DSOURCE_DIR=<root> -DWORK_DIR=<scratch> -P spill_policy_test.cmake
# Note [Spills: errors for the shipped kernels only]: cmake/CompileFatbin.cmake
# run with a stand-in nvcc that reports a spill (no CUDA needed): it warns and
# keeps the fatbin without SPILLS_FAIL, stops and removes it with it, and a
# report within the allowance passes either way.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
function(fake_nvcc path spill_bytes)
  # Writes its -o argument and prints ptxas's report as nvcc -Xptxas -v does.
  file(WRITE ${path} "#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then echo fatbin > \"$2\"; fi; shift; done\n"
    "echo 'ptxas info    : Compiling entry function btforge_x_sweep for sm_90' >&2\n"
    "echo 'ptxas info    : Used 72 registers, ${spill_bytes} bytes spill stores, ${spill_bytes} bytes spill loads' >&2\n")
  file(CHMOD ${path} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endfunction()
fake_nvcc(${WORK_DIR}/nvcc_spills 24)
fake_nvcc(${WORK_DIR}/nvcc_clean 0)
file(WRITE ${WORK_DIR}/x_sweep.cu "")

set(failures "")
function(expect label nvcc spills_fail want_rc want_fatbin want_text)
  file(REMOVE ${WORK_DIR}/x.fatbin)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -DNVCC=${nvcc} -DSOURCE=${WORK_DIR}/x_sweep.cu -DOUTPUT=${WORK_DIR}/x.fatbin
            -DGENCODE=-arch=sm_90 -DMAX_SPILL_BYTES=0 -DSPILLS_FAIL=${spills_fail}
            -P ${SOURCE_DIR}/cmake/CompileFatbin.cmake
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(ok TRUE)
  if((want_rc EQUAL 0 AND NOT rc EQUAL 0) OR (NOT want_rc EQUAL 0 AND rc EQUAL 0))
    set(ok FALSE)
  endif()
  if(EXISTS ${WORK_DIR}/x.fatbin)
    set(has_fatbin TRUE)
  else()
    set(has_fatbin FALSE)
  endif()
  if(NOT has_fatbin STREQUAL want_fatbin)
    set(ok FALSE)
  endif()
  if(want_text AND NOT "${out}${err}" MATCHES "${want_text}")
    set(ok FALSE)
  endif()
  if(NOT ok)
    set(failures "${failures}\n${label}: rc=${rc} fatbin=${has_fatbin}\n${out}${err}" PARENT_SCOPE)
  endif()
endfunction()

expect("a user's kernel that spills: a warning" ${WORK_DIR}/nvcc_spills OFF 0 TRUE "CMake Warning.*spills registers")
expect("a shipped kernel that spills in CI: an error" ${WORK_DIR}/nvcc_spills ON 1 FALSE "CMake Error.*spills registers")
expect("no spill, strict" ${WORK_DIR}/nvcc_clean ON 0 TRUE "")
expect("no spill, lenient" ${WORK_DIR}/nvcc_clean OFF 0 TRUE "")
if(failures)
  message(FATAL_ERROR "spill policy:${failures}")
endif()
message(STATUS "spill policy: 4 cases as expected")
