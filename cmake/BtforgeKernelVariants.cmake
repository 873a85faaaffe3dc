# Note [Kernel variants] (reference/market/symbol_capacity.h), for the
# configure step: the variants of spec/generator.json's symbol_capacity, in
# its order (smallest capacity first), as parallel lists:
#   BTFORGE_KERNEL_VARIANT_NAMES       narrow;wide
#   BTFORGE_KERNEL_VARIANT_CAPACITIES  16;512
#   BTFORGE_KERNEL_VARIANT_SUFFIXES    the entry points' suffixes: "" for the
#                                      first, _<name> for the others (as a
#                                      list element, "" is written "-")
# btforge-gen validates the block; this only reads it.
file(READ ${PROJECT_SOURCE_DIR}/spec/generator.json btforge_generator_json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/spec/generator.json)
string(JSON btforge_n_variants LENGTH "${btforge_generator_json}" symbol_capacity kernel_variants)
math(EXPR btforge_last_variant "${btforge_n_variants} - 1")
set(BTFORGE_KERNEL_VARIANT_NAMES "")
set(BTFORGE_KERNEL_VARIANT_CAPACITIES "")
set(BTFORGE_KERNEL_VARIANT_SUFFIXES "")
foreach(i RANGE ${btforge_last_variant})
  string(JSON name GET "${btforge_generator_json}" symbol_capacity kernel_variants ${i} name)
  string(JSON capacity GET "${btforge_generator_json}" symbol_capacity kernel_variants ${i} max_symbols)
  list(APPEND BTFORGE_KERNEL_VARIANT_NAMES ${name})
  list(APPEND BTFORGE_KERNEL_VARIANT_CAPACITIES ${capacity})
  if(i EQUAL 0)
    list(APPEND BTFORGE_KERNEL_VARIANT_SUFFIXES "-")
  else()
    list(APPEND BTFORGE_KERNEL_VARIANT_SUFFIXES "_${name}")
  endif()
endforeach()
message(STATUS "Kernel variants: ${BTFORGE_KERNEL_VARIANT_NAMES} (up to ${BTFORGE_KERNEL_VARIANT_CAPACITIES} symbols)")
