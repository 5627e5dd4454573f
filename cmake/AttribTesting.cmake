# SPDX-License-Identifier: GPL-3.0-or-later
# attrib_add_test(NAME tst_x SOURCES ... LIBS ... LABELS ... [GUI])
# Builds one Qt Test executable and registers it with ctest. GUI tests run on the offscreen platform.

# Sanitizer builds run several times slower (ASan+UBSan at -O0: 3-10x on a loaded machine; TSan more): their tests
# get longer limits, both ctest's TIMEOUT and Qt Test's per-function watchdog (QTEST_FUNCTION_TIMEOUT, 300 s).
set(ATTRIB_TIMEOUT_SCALE 1)
if(ATTRIB_SANITIZE OR ATTRIB_TSAN)
  set(ATTRIB_TIMEOUT_SCALE 4)
endif()
# attrib_test_timeout(<seconds> <out-var>): a test's time limit in this build.
function(attrib_test_timeout seconds out)
  math(EXPR scaled "${seconds} * ${ATTRIB_TIMEOUT_SCALE}")
  set(${out} ${scaled} PARENT_SCOPE)
endfunction()

# attrib_test_limit(<test> <seconds>): a slow test's time limit in this build, for ctest and for Qt Test's
# per-function watchdog alike (the watchdog's 300 s would otherwise abort a long function first).
function(attrib_test_limit test seconds)
  attrib_test_timeout(${seconds} scaled)
  math(EXPR function_ms "${scaled} * 1000")
  set_tests_properties(${test} PROPERTIES TIMEOUT ${scaled})
  set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "QTEST_FUNCTION_TIMEOUT=${function_ms}")
endfunction()

function(attrib_add_test)
  cmake_parse_arguments(T "GUI" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES} ${CMAKE_SOURCE_DIR}/tests/common/run_from_exe_dir.cpp)
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC ON RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests
    QT_TESTCASE_BUILDDIR ".")
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} Qt6::Test attrib_warnings)
  # The source paths (and Qt Test's build dir, used by QTEST_MAIN) are relative to the test executable's folder
  # (run_from_exe_dir.cpp makes it the working directory), so test objects are identical in every checkout and
  # ccache shares them.
  file(RELATIVE_PATH rel_source "${CMAKE_BINARY_DIR}/tests" "${CMAKE_SOURCE_DIR}")
  target_compile_definitions(${T_NAME} PRIVATE
    ATTRIB_SOURCE_DIR="${rel_source}" ATTRIB_SOURCE_RULES_DIR="${rel_source}/rules")
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} WORKING_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  set(env "XDG_RUNTIME_DIR=${CMAKE_BINARY_DIR}/xdg-runtime" "XDG_DATA_HOME=${CMAKE_BINARY_DIR}/xdg-data"
    "QT_QPA_PLATFORM=offscreen")
  attrib_test_timeout(300 timeout)
  if(ATTRIB_TIMEOUT_SCALE GREATER 1)
    math(EXPR function_ms "${timeout} * 1000")
    list(APPEND env "QTEST_FUNCTION_TIMEOUT=${function_ms}")
  endif()
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" LABELS "${T_LABELS}" TIMEOUT ${timeout})
endfunction()
