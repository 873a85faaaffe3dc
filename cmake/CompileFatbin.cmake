# cmake -DNVCC=... -DSOURCE=x.cu -DOUTPUT=x.fatbin -DGENCODE="-gencode;..." [-DINCLUDE_DIR=dir] -P CompileFatbin.cmake
# Builds one generated kernel with --fmad=false (SPEC §3), prints ptxas's
# resource report (registers, spills, stack per kernel and architecture) and
# fails when any kernel spills.
get_filename_component(output_dir ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${output_dir})
# The generated kernels include their neighbours only; a hand-written kernel
# includes from the source root.
set(includes "")
if(INCLUDE_DIR)
  set(includes -I${INCLUDE_DIR})
endif()
execute_process(
  COMMAND ${NVCC} -fatbin --fmad=false -std=c++17 ${includes} ${GENCODE} -Xptxas -v -o ${OUTPUT} ${SOURCE}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
string(REGEX MATCHALL "[^\n]*(Compiling entry|Used [0-9]+ registers|bytes stack frame)[^\n]*" report "${out}${err}")
get_filename_component(name ${SOURCE} NAME)
message(STATUS "ptxas resource report for ${name}:")
foreach(line IN LISTS report)
  message(STATUS "  ${line}")
endforeach()
if(NOT result EQUAL 0)
  message(FATAL_ERROR "nvcc failed on ${SOURCE}:\n${out}${err}")
endif()
string(REGEX MATCHALL "([1-9][0-9]*) bytes spill (stores|loads)" spills "${out}${err}")
if(spills)
  file(REMOVE ${OUTPUT})
  message(FATAL_ERROR "${name}: a kernel spills registers to local memory (${spills}); see the report above")
endif()
