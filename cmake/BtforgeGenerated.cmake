# generated/ is checked in (reviewers diff it). Where btforge-gen is built,
# the build regenerates it whenever the reference, a spec or a template
# changes; elsewhere it compiles the checked-in files as they are. With nvcc
# on the machine, the generated kernels are also built into fatbins.

# The generated file names follow from the strategies (cmake/
# BtforgeStrategies.cmake) and spec/generator.json.
file(READ ${PROJECT_SOURCE_DIR}/spec/generator.json generator_json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/spec/generator.json)

set(BTFORGE_GENERATED_DIR ${PROJECT_SOURCE_DIR}/generated)
set(BTFORGE_GENERATED_FILES
  ${BTFORGE_GENERATED_DIR}/btforge_layout.h
  ${BTFORGE_GENERATED_DIR}/btforge_device.cuh
  ${BTFORGE_GENERATED_DIR}/btforge_entry_points.h
  ${BTFORGE_GENERATED_DIR}/strategy_catalog.cpp)
set(BTFORGE_GENERATED_KERNELS "")
foreach(name IN LISTS BTFORGE_STRATEGY_NAMES)
  list(APPEND BTFORGE_GENERATED_KERNELS ${BTFORGE_GENERATED_DIR}/${name}_sweep.cu)
  list(APPEND BTFORGE_GENERATED_FILES ${BTFORGE_GENERATED_DIR}/${name}_binding.cpp)
endforeach()
# The indicator kernels (Note [Indicator launches]), one module beside the
# strategies' sweep kernels.
set(BTFORGE_GENERATED_INDICATOR_KERNELS ${BTFORGE_GENERATED_DIR}/indicator_series.cu)
list(APPEND BTFORGE_GENERATED_FILES ${BTFORGE_GENERATED_KERNELS} ${BTFORGE_GENERATED_INDICATOR_KERNELS})

if(BTFORGE_HAVE_GENERATOR)
  file(GLOB_RECURSE reference_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/reference/*.h)
  list(FILTER reference_headers EXCLUDE REGEX "/tests/")
  file(GLOB template_files CONFIGURE_DEPENDS LIST_DIRECTORIES false ${PROJECT_SOURCE_DIR}/templates/*)
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
  # Without btforge-gen, generated/ must already hold every strategy's files.
  foreach(file IN LISTS BTFORGE_GENERATED_FILES)
    if(NOT EXISTS ${file})
      message(FATAL_ERROR "${file} does not exist and btforge-gen cannot be built here (it needs libclang and "
        "kainjow mustache: scripts/install-deps --test). A new strategy needs the generator once; "
        "commit generated/ afterwards and any machine builds it.")
    endif()
  endforeach()
  add_custom_target(btforge_generate)
endif()
# Note [Generated code waits for its generation]
# Every target that compiles generated/ runs after btforge-gen: the emu
# kernels, the launch tables, the strategy catalog and its bindings, the
# embedded sources of --jit (and below, the fatbins). Otherwise the first
# build after a change to the reference or a new strategy compiles the old
# files (or misses the new ones) and only the second is right.
list(TRANSFORM BTFORGE_KERNEL_VARIANT_NAMES PREPEND btforge_emu_ OUTPUT_VARIABLE emu_variant_targets)
foreach(target btforge_emu ${emu_variant_targets} btforge_launch_tables btforge_strategies btforge_cuda)
  if(TARGET ${target})
    add_dependencies(${target} btforge_generate)
  endif()
endforeach()

# ---- CUDA: fatbins of the generated kernels, when nvcc is here.
# (BTFORGE_NVCC: the root CMakeLists.txt looks it up.)
if(NOT BTFORGE_NVCC)
  message(STATUS "nvcc not found or BTFORGE_CUDA=OFF: skipping the CUDA part (the generated kernels are still built for the host by the emu backend)")
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
# For the other nvcc builds (parity-tests/math): the same architectures.
set(BTFORGE_CUDA_GENCODE ${gencode})
string(JSON max_spill_bytes ERROR_VARIABLE no_spill_allowance GET "${generator_json}" cuda max_spill_bytes)
if(no_spill_allowance)
  set(max_spill_bytes 0)
endif()
# Note [Spills: errors for the shipped kernels only]
# A kernel that spills registers to local memory beyond max_spill_bytes is
# slower; for the strategies this repository ships ("spill_checked") that is
# a regression its CI (BTFORGE_STRICT_SPILLS=ON: the device preset, scripts/
# gpu-check) must fail on. For a strategy a user is writing it is a warning:
# the kernel is still right, and someone who only wants the CPU should not be
# stopped by a GPU register budget.
option(BTFORGE_STRICT_SPILLS "Fail the build when a shipped strategy's kernel spills (CI on a CUDA machine)" OFF)
set(spill_checked "")
string(JSON n_checked ERROR_VARIABLE no_checked LENGTH "${generator_json}" cuda spill_checked)
if(NOT no_checked AND n_checked GREATER 0)
  math(EXPR last_checked "${n_checked} - 1")
  foreach(i RANGE ${last_checked})
    string(JSON checked GET "${generator_json}" cuda spill_checked ${i})
    list(APPEND spill_checked ${checked})
  endforeach()
endif()

# One fatbin: `source` compiled with the flags that follow the arguments into
# ${CMAKE_BINARY_DIR}/kernels/<fatbin_name>, embedded as module `module`
# (appended to BTFORGE_KERNEL_MODULES and BTFORGE_KERNEL_FATBINS, which pair
# up).
function(btforge_add_fatbin source module fatbin_name spills_fail)
  set(fatbin ${CMAKE_BINARY_DIR}/kernels/${fatbin_name})
  get_filename_component(source_name ${source} NAME)
  add_custom_command(
    OUTPUT ${fatbin}
    COMMAND ${CMAKE_COMMAND} -DNVCC=${BTFORGE_NVCC} -DSOURCE=${source}
            -DOUTPUT=${fatbin} "-DGENCODE=${gencode}" "-DEXTRA_FLAGS=${ARGN}" -DMAX_SPILL_BYTES=${max_spill_bytes}
            -DSPILLS_FAIL=${spills_fail}
            -P ${PROJECT_SOURCE_DIR}/cmake/CompileFatbin.cmake
    DEPENDS ${source} ${BTFORGE_GENERATED_DIR}/btforge_device.cuh
            ${BTFORGE_GENERATED_DIR}/btforge_layout.h btforge_generate ${PROJECT_SOURCE_DIR}/cmake/CompileFatbin.cmake
    COMMENT "nvcc: ${source_name} -> ${fatbin_name} (cubins${cuda_archs}, PTX ${ptx_arch}, --fmad=false)"
    VERBATIM)
  set(BTFORGE_KERNEL_MODULES ${BTFORGE_KERNEL_MODULES} ${module} PARENT_SCOPE)
  set(BTFORGE_KERNEL_FATBINS ${BTFORGE_KERNEL_FATBINS} ${fatbin} PARENT_SCOPE)
endfunction()

# Every kernel module the binary embeds: one per strategy and kernel variant
# (Note [Kernel variants]: "<strategy><suffix>", the first variant's without
# a suffix), each the same generated source compiled with the variant's
# capacity and entry points' suffix; and "indicators".
set(BTFORGE_KERNEL_MODULES "")
set(BTFORGE_KERNEL_FATBINS "")
foreach(source IN LISTS BTFORGE_GENERATED_KERNELS)
  get_filename_component(stem ${source} NAME_WE)
  string(REGEX REPLACE "_sweep$" "" strategy ${stem})
  foreach(capacity suffix checked IN ZIP_LISTS BTFORGE_KERNEL_VARIANT_CAPACITIES BTFORGE_KERNEL_VARIANT_SUFFIXES
          BTFORGE_KERNEL_VARIANT_SPILLS_CHECKED)
    if(suffix STREQUAL "-")
      set(suffix "")
    endif()
    # The variants marked "spills_checked" only (the narrow register kernels):
    # a wide variant keeps its per-symbol state in local memory by design,
    # and the few bytes ptxas spills beside 70 KB of it are not the
    # regression this check is for; the single variant holds all of its one
    # symbol's state in registers and spills a few of them at 5 blocks per
    # SM, measured faster than its spill-free build at 4 (docs/
    # PERFORMANCE.md, "Run shape"). Both are reported as a warning.
    set(spills_fail OFF)
    if(BTFORGE_STRICT_SPILLS AND checked AND strategy IN_LIST spill_checked)
      set(spills_fail ON)
    endif()
    btforge_add_fatbin(${source} ${strategy}${suffix} ${stem}${suffix}.fatbin ${spills_fail}
      -DBTFORGE_SYMBOL_CAPACITY=${capacity} -DBTFORGE_KERNEL_SUFFIX=${suffix})
  endforeach()
endforeach()
set(spills_fail OFF)
if(BTFORGE_STRICT_SPILLS)
  set(spills_fail ON)
endif()
btforge_add_fatbin(${BTFORGE_GENERATED_INDICATOR_KERNELS} indicators indicator_series.fatbin ${spills_fail})
add_custom_target(btforge_fatbins ALL DEPENDS ${BTFORGE_KERNEL_FATBINS})
