# btforge_import_library(<target> HEADER <header> NAME <library name>)
# Finds a C library of Debian's -dev packages and makes it the imported
# <target>; with BTFORGE_STATIC_RUNTIME the static archive (lib<name>.a) is
# preferred, so the binary runs on machines that lack the package.
function(btforge_import_library target)
  cmake_parse_arguments(ARG "" "HEADER;NAME" "" ${ARGN})
  string(MAKE_C_IDENTIFIER "${ARG_NAME}" id)
  string(TOUPPER "${id}" id)
  find_path(${id}_INCLUDE_DIR ${ARG_HEADER} REQUIRED)
  if(BTFORGE_STATIC_RUNTIME)
    find_library(${id}_LIBRARY NAMES lib${ARG_NAME}.a ${ARG_NAME} REQUIRED)
  else()
    find_library(${id}_LIBRARY NAMES ${ARG_NAME} REQUIRED)
  endif()
  add_library(${target} UNKNOWN IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION ${${id}_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${${id}_INCLUDE_DIR})
endfunction()
