# btforge_add_doctest(<name> SOURCES <files...> [LIBS <targets...>] [LABELS <labels...>])
# Builds one doctest executable (doctest supplies main) and registers it with
# CTest; the test runs from the build tree, with the source root in
# BTFORGE_SOURCE_DIR for tests that read checked-in fixtures.
if(BTFORGE_BUILD_TESTS)
  add_library(btforge_doctest_main OBJECT ${CMAKE_CURRENT_LIST_DIR}/doctest_main.cpp)
  target_link_libraries(btforge_doctest_main PRIVATE doctest::doctest)
endif()

function(btforge_add_doctest name)
  if(NOT BTFORGE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE btforge_doctest_main btforge_options doctest::doctest ${ARG_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "BTFORGE_SOURCE_DIR=${PROJECT_SOURCE_DIR};BTFORGE_BINARY_DIR=${PROJECT_BINARY_DIR}"
    LABELS "${ARG_LABELS}")
endfunction()

# btforge_add_python_test(<name> MISSING <what to install> COMMAND <script> <args...>)
# Registers `python3 <script> <args...>` as a CTest test. Where CMake found no
# Python 3 the test still exists and fails saying what to install: a test that
# cannot run is a failure, never a silent skip (cmake/FailWithoutPython.cmake).
function(btforge_add_python_test name)
  cmake_parse_arguments(ARG "" "MISSING" "COMMAND" ${ARGN})
  if(Python3_Interpreter_FOUND)
    add_test(NAME ${name} COMMAND ${Python3_EXECUTABLE} ${ARG_COMMAND})
  else()
    add_test(NAME ${name}
      COMMAND ${CMAKE_COMMAND} -E env "BTFORGE_MESSAGE=Python 3 not found: ${ARG_MISSING}"
        ${CMAKE_COMMAND} -P ${PROJECT_SOURCE_DIR}/cmake/FailWithoutPython.cmake)
  endif()
endfunction()
