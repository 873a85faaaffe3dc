# generated/ is checked in (reviewers diff it). Where btforge-gen is built,
# the build regenerates it whenever the reference, a spec or a template
# changes; elsewhere it compiles the checked-in files as they are. With nvcc
# on the machine, the generated kernels are also built into fatbins.

# The generated file names follow from spec/generator.json.
file(READ ${PROJECT_SOURCE_DIR}/spec/generator.json generator_json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/spec/generator.json)
string(JSON n_strategies LENGTH "${generator_json}" strategies)
math(EXPR last_strategy "${n_strategies} - 1")
set(BTFORGE_STRATEGY_NAMES "")
set(BTFORGE_STRATEGY_SPECS "")
foreach(i RANGE ${last_strategy})
  string(JSON spec_file GET "${generator_json}" strategies ${i} spec)
  file(READ ${PROJECT_SOURCE_DIR}/${spec_file} spec_json)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${spec_file})
  string(JSON strategy_name GET "${spec_json}" strategy)
  list(APPEND BTFORGE_STRATEGY_NAMES ${strategy_name})
  list(APPEND BTFORGE_STRATEGY_SPECS ${PROJECT_SOURCE_DIR}/${spec_file})
endforeach()

set(BTFORGE_GENERATED_DIR ${PROJECT_SOURCE_DIR}/generated)
set(BTFORGE_GENERATED_FILES
  ${BTFORGE_GENERATED_DIR}/btforge_layout.h
  ${BTFORGE_GENERATED_DIR}/btforge_device.cuh
  ${BTFORGE_GENERATED_DIR}/btforge_entry_points.h)
set(BTFORGE_GENERATED_KERNELS "")
foreach(name IN LISTS BTFORGE_STRATEGY_NAMES)
  list(APPEND BTFORGE_GENERATED_KERNELS ${BTFORGE_GENERATED_DIR}/${name}_sweep.cu)
endforeach()
# The indicator kernels (Note [Indicator launches]), one module beside the
# strategies' sweep kernels.
set(BTFORGE_GENERATED_INDICATOR_KERNELS ${BTFORGE_GENERATED_DIR}/indicator_series.cu)
list(APPEND BTFORGE_GENERATED_FILES ${BTFORGE_GENERATED_KERNELS} ${BTFORGE_GENERATED_INDICATOR_KERNELS})

if(BTFORGE_HAVE_GENERATOR)
  file(GLOB_RECURSE reference_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/reference/*.h)
  list(FILTER reference_headers EXCLUDE REGEX "/tests/")
  file(GLOB template_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/templates/*)
  # btforge-gen rewrites only the files whose content changes, so the stamp,
  # not the outputs, tells make that generation is up to date.
  set(stamp ${CMAKE_BINARY_DIR}/generated.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND btforge-gen --root ${PROJECT_SOURCE_DIR}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS btforge-gen ${reference_headers} ${template_files} ${BTFORGE_STRATEGY_SPECS}
            ${PROJECT_SOURCE_DIR}/spec/generator.json
    COMMENT "btforge-gen: regenerating generated/ from reference/, spec/ and templates/"
    VERBATIM)
  add_custom_target(btforge_generate ALL DEPENDS ${stamp})
else()
  add_custom_target(btforge_generate)
endif()

# ---- CUDA: fatbins of the generated kernels, when nvcc is here.
find_program(BTFORGE_NVCC nvcc PATHS /usr/local/cuda/bin)
if(NOT BTFORGE_NVCC)
  message(STATUS "nvcc not found: skipping the CUDA part (the generated kernels are still built for the host by the emu backend)")
  return()
endif()
string(JSON n_archs LENGTH "${generator_json}" cuda architectures)
string(JSON ptx_arch GET "${generator_json}" cuda ptx)
math(EXPR last_arch "${n_archs} - 1")
set(gencode "")
set(cuda_archs "")
foreach(i RANGE ${last_arch})
  string(JSON arch GET "${generator_json}" cuda architectures ${i})
  string(APPEND cuda_archs " ${arch}")
  string(REPLACE "sm_" "compute_" virtual_arch ${arch})
  list(APPEND gencode -gencode arch=${virtual_arch},code=${arch})
endforeach()
list(APPEND gencode -gencode arch=${ptx_arch},code=${ptx_arch})
string(JSON max_spill_bytes ERROR_VARIABLE no_spill_allowance GET "${generator_json}" cuda max_spill_bytes)
if(no_spill_allowance)
  set(max_spill_bytes 0)
endif()

# Every kernel module the binary embeds: one per strategy (named after it)
# and "indicators"; BTFORGE_KERNEL_MODULES and BTFORGE_KERNEL_FATBINS pair up.
set(BTFORGE_KERNEL_MODULES ${BTFORGE_STRATEGY_NAMES} indicators)
set(BTFORGE_KERNEL_FATBINS "")
set(kernel_sources ${BTFORGE_GENERATED_KERNELS} ${BTFORGE_GENERATED_INDICATOR_KERNELS})
foreach(source IN LISTS kernel_sources)
  get_filename_component(stem ${source} NAME_WE)
  set(fatbin ${CMAKE_BINARY_DIR}/kernels/${stem}.fatbin)
  add_custom_command(
    OUTPUT ${fatbin}
    COMMAND ${CMAKE_COMMAND} -DNVCC=${BTFORGE_NVCC} -DSOURCE=${source}
            -DOUTPUT=${fatbin} "-DGENCODE=${gencode}" -DMAX_SPILL_BYTES=${max_spill_bytes}
            -P ${PROJECT_SOURCE_DIR}/cmake/CompileFatbin.cmake
    DEPENDS ${source} ${BTFORGE_GENERATED_DIR}/btforge_device.cuh
            ${BTFORGE_GENERATED_DIR}/btforge_layout.h btforge_generate ${PROJECT_SOURCE_DIR}/cmake/CompileFatbin.cmake
    COMMENT "nvcc: ${stem}.cu -> fatbin (cubins${cuda_archs}, PTX ${ptx_arch}, --fmad=false)"
    VERBATIM)
  list(APPEND BTFORGE_KERNEL_FATBINS ${fatbin})
endforeach()
add_custom_target(btforge_fatbins ALL DEPENDS ${BTFORGE_KERNEL_FATBINS})
