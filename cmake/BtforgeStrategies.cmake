# Note [Strategy discovery] (generator/strategy_discovery.h), for the
# configure step: the strategy specs are the files spec/*.json with a
# top-level "strategy" key; a strategy NAME's spec is spec/NAME.json. The glob
# is re-checked by every build (CONFIGURE_DEPENDS), so a new spec reconfigures
# on the next `cmake --build` by itself; btforge-gen then checks the rest of
# the convention (the kernel header, the quickstart grid) with clear errors.
#   BTFORGE_STRATEGY_NAMES  the names, sorted like btforge-gen sorts them
#   BTFORGE_STRATEGY_SPECS  their spec files (absolute)
file(GLOB btforge_spec_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/spec/*.json)
list(SORT btforge_spec_files)
set(BTFORGE_STRATEGY_NAMES "")
set(BTFORGE_STRATEGY_SPECS "")
foreach(spec_file IN LISTS btforge_spec_files)
  file(READ ${spec_file} spec_json)
  string(JSON strategy_name ERROR_VARIABLE not_a_strategy GET "${spec_json}" strategy)
  if(not_a_strategy)
    continue()
  endif()
  # Its name may change without the glob changing.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${spec_file})
  get_filename_component(stem ${spec_file} NAME_WE)
  if(NOT stem STREQUAL strategy_name)
    message(FATAL_ERROR "${spec_file}: /strategy: '${strategy_name}', but a strategy's spec is "
      "spec/${strategy_name}.json (Note [Strategy discovery]): rename the file or the strategy")
  endif()
  list(APPEND BTFORGE_STRATEGY_NAMES ${strategy_name})
  list(APPEND BTFORGE_STRATEGY_SPECS ${spec_file})
endforeach()
message(STATUS "Strategies: ${BTFORGE_STRATEGY_NAMES}")
