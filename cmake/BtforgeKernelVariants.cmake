# Note [Kernel variants] (reference/market/symbol_capacity.h), for the
# configure step: the variants of spec/generator.json's symbol_capacity, in
# its order (smallest capacity first), as parallel lists:
#   BTFORGE_KERNEL_VARIANT_NAMES       single;narrow;wide
#   BTFORGE_KERNEL_VARIANT_CAPACITIES  1;16;512
#   BTFORGE_KERNEL_VARIANT_SUFFIXES    the entry points' suffixes: "" for the
#                                      first, _<name> for the others (as a
#                                      list element, "" is written "-")
#   BTFORGE_KERNEL_VARIANT_SPILLS_CHECKED  ON where the variant's
#                                      "spills_checked" is true, else OFF
#                                      (Note [Spills: errors for the shipped
#                                      kernels only])
# btforge-gen validates the block; this only reads it.
file(READ ${PROJECT_SOURCE_DIR}/spec/generator.json btforge_generator_json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/spec/generator.json)
string(JSON btforge_n_variants LENGTH "${btforge_generator_json}" symbol_capacity kernel_variants)
math(EXPR btforge_last_variant "${btforge_n_variants} - 1")
set(BTFORGE_KERNEL_VARIANT_NAMES "")
set(BTFORGE_KERNEL_VARIANT_CAPACITIES "")
set(BTFORGE_KERNEL_VARIANT_SUFFIXES "")
set(BTFORGE_KERNEL_VARIANT_SPILLS_CHECKED "")
foreach(i RANGE ${btforge_last_variant})
  string(JSON name GET "${btforge_generator_json}" symbol_capacity kernel_variants ${i} name)
  string(JSON capacity GET "${btforge_generator_json}" symbol_capacity kernel_variants ${i} max_symbols)
  list(APPEND BTFORGE_KERNEL_VARIANT_NAMES ${name})
  list(APPEND BTFORGE_KERNEL_VARIANT_CAPACITIES ${capacity})
  string(JSON checked ERROR_VARIABLE not_checked GET "${btforge_generator_json}" symbol_capacity kernel_variants ${i}
         spills_checked)
  if(NOT not_checked AND checked)
    list(APPEND BTFORGE_KERNEL_VARIANT_SPILLS_CHECKED ON)
  else()
    list(APPEND BTFORGE_KERNEL_VARIANT_SPILLS_CHECKED OFF)
  endif()
  if(i EQUAL 0)
    list(APPEND BTFORGE_KERNEL_VARIANT_SUFFIXES "-")
  else()
    list(APPEND BTFORGE_KERNEL_VARIANT_SUFFIXES "_${name}")
  endif()
endforeach()
message(STATUS "Kernel variants: ${BTFORGE_KERNEL_VARIANT_NAMES} (up to ${BTFORGE_KERNEL_VARIANT_CAPACITIES} symbols)")
