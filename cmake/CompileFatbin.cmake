# cmake -DNVCC=... -DSOURCE=x.cu -DOUTPUT=x.fatbin -DGENCODE="-gencode;..." [-DINCLUDE_DIR=dir]
#       [-DEXTRA_FLAGS="flag;..."]
#       [-DMAX_SPILL_BYTES=n] [-DSPILLS_FAIL=ON] -P CompileFatbin.cmake
# Builds one generated kernel with --fmad=false (SPEC §3), prints ptxas's
# resource report (registers, spills, stack per kernel and architecture) and
# says when a kernel spills more than MAX_SPILL_BYTES (default 0) stores or
# loads: the allowance is spec/generator.json's cuda.max_spill_bytes, set
# from a measurement (docs/PERFORMANCE.md, "Launch bounds"). With
# SPILLS_FAIL the build stops there, otherwise it warns (Note [Spills:
# errors for the shipped kernels only] in cmake/BtforgeGenerated.cmake).
get_filename_component(output_dir ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${output_dir})
# The generated kernels include their neighbours only; a hand-written kernel
# includes from the source root.
set(includes "")
if(INCLUDE_DIR)
  set(includes -I${INCLUDE_DIR})
endif()
execute_process(
  COMMAND ${NVCC} -fatbin --fmad=false -std=c++17 ${includes} ${EXTRA_FLAGS} ${GENCODE} -Xptxas -v -o ${OUTPUT} ${SOURCE}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
string(REGEX MATCHALL "[^\n]*(Compiling entry|Used [0-9]+ registers|bytes stack frame)[^\n]*" report "${out}${err}")
get_filename_component(name ${SOURCE} NAME)
get_filename_component(output_name ${OUTPUT} NAME)
# A kernel variant's fatbin is named after it (Note [Kernel variants]).
set(name "${name} (${output_name})")
message(STATUS "ptxas resource report for ${name}:")
foreach(line IN LISTS report)
  message(STATUS "  ${line}")
endforeach()
if(NOT result EQUAL 0)
  message(FATAL_ERROR "nvcc failed on ${SOURCE}:\n${out}${err}")
endif()
if(NOT DEFINED MAX_SPILL_BYTES)
  set(MAX_SPILL_BYTES 0)
endif()
# Note [Spills of the validation kernels]
# Each spill is charged to the entry ptxas was compiling. The _periods
# entries (period statistics and equity marks: Note [Two kernels per
# strategy]) run only when a sweep is validated; their pointers to per-
# combination outputs stay live through the bar loop, and on sm_80 the
# narrow default kernel's spilled 12 bytes once the equity marks came (0 on
# sm_86, sm_89 and sm_90, the machines the speed figures are measured on).
# Their spills are warned about, never fatal; the plain sweep entries, whose
# speed the guard holds, stay under SPILLS_FAIL.
set(entry "")
string(REGEX MATCHALL "[^\n]*(Compiling entry function '[^']+'|[0-9]+ bytes spill (stores|loads))[^\n]*" lines
       "${out}${err}")
foreach(line IN LISTS lines)
  if(line MATCHES "Compiling entry function '([^']+)' for '([^']+)'")
    set(entry "${CMAKE_MATCH_1} (${CMAKE_MATCH_2})")
    continue()
  endif()
  string(REGEX MATCHALL "[0-9]+ bytes spill (stores|loads)" spills "${line}")
  foreach(spill IN LISTS spills)
    string(REGEX MATCH "^[0-9]+" bytes "${spill}")
    if(bytes GREATER MAX_SPILL_BYTES)
      set(what "${name}: ${entry} spills registers to local memory (${spill}, more than the ${MAX_SPILL_BYTES} "
               "bytes spec/generator.json allows); see the report above")
      if(SPILLS_FAIL AND NOT entry MATCHES "_sweep_periods")
        file(REMOVE ${OUTPUT})
        message(FATAL_ERROR "${what}")
      endif()
      message(WARNING "${what}. The kernel is right but slower; a shipped strategy's sweep kernel spilling fails CI "
                      "(BTFORGE_STRICT_SPILLS; Note [Spills of the validation kernels]).")
    endif()
  endforeach()
endforeach()
