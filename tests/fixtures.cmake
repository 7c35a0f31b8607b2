# Fixture tests: each tests/fixtures/NAME.c or tests/fixtures/NAME/ is run
# through `purist infer --format=json` by fixture_check, which holds the
# report against the `// expect:` comments in the fixture (see the header
# of fixture_check.c for the directives).  Names starting with "_" are not
# fixtures: they are the checker's own self-tests, registered below.

add_executable(fixture_check fixture_check.c support/fxutil.c)
target_include_directories(fixture_check PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(fixture_check PRIVATE PkgConfig::JANSSON)

# A stand-in for purist that prints a canned report, so the checker can be
# tested without depending on the analyzer.
add_executable(fixture_fake_purist fixtures/_fake_purist.c)

set(_fx_dir ${CMAKE_CURRENT_SOURCE_DIR}/fixtures)
file(GLOB _fx_entries LIST_DIRECTORIES true CONFIGURE_DEPENDS ${_fx_dir}/*)
list(SORT _fx_entries)
foreach(_fx ${_fx_entries})
  get_filename_component(_fx_name ${_fx} NAME)
  if(_fx_name MATCHES "^_")
    continue()
  endif()
  if(IS_DIRECTORY ${_fx})
    set(_fx_test ${_fx_name})
  elseif(_fx_name MATCHES "\\.c$")
    string(REGEX REPLACE "\\.c$" "" _fx_test ${_fx_name})
  else()
    continue()
  endif()
  add_test(NAME fixture/${_fx_test}
           COMMAND fixture_check $<TARGET_FILE:purist> ${_fx})
  set_tests_properties(fixture/${_fx_test} PROPERTIES LABELS fixture TIMEOUT 120)
endforeach()

# --- self-tests of the checker ------------------------------------------

# Against the real purist: deliberately wrong expectations must fail ...
add_test(NAME fixture/_selftest_fail
         COMMAND fixture_check $<TARGET_FILE:purist> ${_fx_dir}/_selftest_fail)
set_tests_properties(fixture/_selftest_fail PROPERTIES WILL_FAIL TRUE
                     LABELS "fixture;selftest" TIMEOUT 120)
# ... and fail for the right reason (purist ran and its report was read).
add_test(NAME fixture/_selftest_fail_reason
         COMMAND fixture_check $<TARGET_FILE:purist> ${_fx_dir}/_selftest_fail)
set_tests_properties(fixture/_selftest_fail_reason PROPERTIES
  PASS_REGULAR_EXPRESSION "_selftest_fail: ghost_not_defined: expected listed 1 time\\(s\\), got 0"
  LABELS "fixture;selftest" TIMEOUT 120)

# Against the fake purist: a report that meets every expectation passes.
add_test(NAME fixture/_selftest_ok
         COMMAND fixture_check $<TARGET_FILE:fixture_fake_purist> ${_fx_dir}/_selftest_ok)
set_tests_properties(fixture/_selftest_ok PROPERTIES
  PASS_REGULAR_EXPRESSION "^ok _selftest_ok \\(6 functions\\)"
  LABELS "fixture;selftest")

# Each kind of mismatch is reported (one test per message), and the
# checker's exit status says so.
function(_fx_selftest_expects fixture)
  set(i 0)
  foreach(re ${ARGN})
    math(EXPR i "${i} + 1")
    add_test(NAME fixture/${fixture}_${i}
             COMMAND fixture_check $<TARGET_FILE:fixture_fake_purist> ${_fx_dir}/${fixture})
    set_tests_properties(fixture/${fixture}_${i} PROPERTIES
      PASS_REGULAR_EXPRESSION "${fixture}: ${re}" LABELS "fixture;selftest")
  endforeach()
  add_test(NAME fixture/${fixture}
           COMMAND fixture_check $<TARGET_FILE:fixture_fake_purist> ${_fx_dir}/${fixture})
  set_tests_properties(fixture/${fixture} PROPERTIES WILL_FAIL TRUE LABELS "fixture;selftest")
endfunction()

_fx_selftest_expects(_selftest_wrong
  "f1: expected class const, got pure"
  "f2: expected may_not_return true, got false"
  "f3: expected declared pure, got none"
  "f4: expected linkage internal, got external"
  "f5: expected reason containing \"zork\", got \"calls bar\""
  "f6: expected line 8, got 99"
  "f7: expected listed 1 time\\(s\\), got 2"
  "f8: expected listed 1 time\\(s\\), got 0"
  "f9: expected absent, got listed"
  "f10: expected no entry"
  "f11: expected listed 3 time\\(s\\), got 2"
  "exit status: expected 0, got 1")
_fx_selftest_expects(_selftest_badkey
  "report: expected \"version\": 1"
  "functions\\[0\\] \\(g1\\): expected string \"reason\", got no such key"
  "functions\\[1\\] \\(g2\\): expected boolean \"may_not_return\""
  "functions\\[2\\] \\(g3\\): expected \"class\" one of const\\|pure\\|normal, got impure"
  "functions\\[3\\] \\(g4\\): expected positive integer \"line\"")
_fx_selftest_expects(_selftest_badjson
  "report: expected JSON, got a parse error")
