# Tests of `purist check`, `suggest` and `explain` (issue 3), all under
# tests/checks/ and registered as checks/...:
#   checks/<command>/<name>  each fixture in checks/fixtures/ (NAME.c or a
#                            directory NAME/), run by diag_check once per
#                            command its `// expect-command:` lines name
#                            (see the header of checks/diag_check.c);
#   checks/_selftest_*       the checker's own tests, against a fake purist;
#   checks/golden            text, JSON and SARIF of the three commands on
#                            examples/, held against checks/golden/
#                            (rewrite with checks/golden.sh PURIST SRCDIR --update);
#   checks/color             --color=always colours, NO_COLOR and never do not;
#   checks/mutation          wrong attributes added to examples/ are all caught.

add_executable(diag_check checks/diag_check.c support/fxutil.c)
target_include_directories(diag_check PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/support)
target_link_libraries(diag_check PRIVATE PkgConfig::JANSSON)
add_executable(diag_check_fake_purist checks/_fake_purist.c)

set(_ck_dir ${CMAKE_CURRENT_SOURCE_DIR}/checks)

# The commands a fixture names in its `// expect-command:` lines.
function(_ck_commands fixture out)
  if(IS_DIRECTORY ${fixture})
    file(GLOB _files CONFIGURE_DEPENDS ${fixture}/*.c ${fixture}/*.h)
  else()
    set(_files ${fixture})
  endif()
  set(_cmds "")
  foreach(_f ${_files})
    file(STRINGS ${_f} _lines REGEX "//[ \t]*expect-command:")
    foreach(_l ${_lines})
      string(REGEX REPLACE ".*//[ \t]*expect-command:" "" _l "${_l}")
      string(REGEX REPLACE "//.*" "" _l "${_l}")
      separate_arguments(_words UNIX_COMMAND "${_l}")
      list(APPEND _cmds ${_words})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES _cmds)
  set(${out} ${_cmds} PARENT_SCOPE)
endfunction()

file(GLOB _ck_entries LIST_DIRECTORIES true CONFIGURE_DEPENDS ${_ck_dir}/fixtures/*)
list(SORT _ck_entries)
foreach(_fx ${_ck_entries})
  get_filename_component(_name ${_fx} NAME)
  if(_name MATCHES "^_")
    continue()
  endif()
  if(NOT IS_DIRECTORY ${_fx})
    if(NOT _name MATCHES "\\.c$")
      continue()
    endif()
    string(REGEX REPLACE "\\.c$" "" _name ${_name})
  endif()
  _ck_commands(${_fx} _cmds)
  if(NOT _cmds)
    message(SEND_ERROR "tests/checks/fixtures/${_name}: no // expect-command: line")
  endif()
  foreach(_cmd ${_cmds})
    add_test(NAME checks/${_cmd}/${_name}
             COMMAND diag_check $<TARGET_FILE:purist> ${_cmd} ${_fx})
    set_tests_properties(checks/${_cmd}/${_name} PROPERTIES LABELS "checks;checks-${_cmd}" TIMEOUT 120)
  endforeach()
endforeach()

# --- self-tests of the checker ------------------------------------------
set(_ck_self ${_ck_dir}/selftest)

# A report that meets every expectation passes (both commands of the fixture).
foreach(_cmd check suggest)
  add_test(NAME checks/_selftest_ok_${_cmd}
           COMMAND diag_check $<TARGET_FILE:diag_check_fake_purist> ${_cmd} ${_ck_self}/_selftest_ok)
  set_tests_properties(checks/_selftest_ok_${_cmd} PROPERTIES
    PASS_REGULAR_EXPRESSION "^ok ${_cmd}/_selftest_ok \\([23] diagnostics\\)" LABELS "checks;selftest")
endforeach()

# Each kind of mismatch is reported (one test per message), and the
# checker's exit status says so.
function(_ck_selftest_expects fixture cmd)
  set(i 0)
  foreach(re ${ARGN})
    math(EXPR i "${i} + 1")
    add_test(NAME checks/${fixture}_${i}
             COMMAND diag_check $<TARGET_FILE:diag_check_fake_purist> ${cmd} ${_ck_self}/${fixture})
    set_tests_properties(checks/${fixture}_${i} PROPERTIES
      PASS_REGULAR_EXPRESSION "${cmd}/${fixture}: ${re}" LABELS "checks;selftest")
  endforeach()
  add_test(NAME checks/${fixture}
           COMMAND diag_check $<TARGET_FILE:diag_check_fake_purist> ${cmd} ${_ck_self}/${fixture})
  set_tests_properties(checks/${fixture} PROPERTIES WILL_FAIL TRUE LABELS "checks;selftest")
endfunction()

_ck_selftest_expects(_selftest_wrong check
  "exit status: expected 0, got 1"
  "t.c:5: expected warning misuse for w_severity at t.c:5, got none"
  "t.c:6: expected misuse for w_function at t.c:6, got none"
  "t.c:7: expected misuse for w_msg at t.c:7, got none"
  "t.c:8: expected misuse for w_msg_not at t.c:8, got none"
  "t.c:9: expected misuse for w_line at t.c:9, got none"
  "t.c:10: expected misuse for w_column at t.c:10, got none"
  "t.c:11: expected misuse for w_related at t.c:11, got none"
  "t.c:12: expected misuse for w_check at t.c:12, got none"
  "t.c:15: expected misuse for w_missing at t.c:15, got none"
  "unexpected error misuse-void at t.c:12:5 \\(function w_check\\)"
  "unexpected note cheat at t.c:15:5 \\(function w_extra\\)"
  "t.c:4: expected w_order_a after w_order_b")
_ck_selftest_expects(_selftest_badkey suggest
  "report: expected \"version\": 1"
  "diagnostics\\[0\\]: expected string \"message\", got no such key"
  "diagnostics\\[1\\]: expected \"severity\" one of error\\|warning\\|note, got fatal"
  "diagnostics\\[2\\]: expected positive integer \"line\""
  "diagnostics\\[3\\]: expected a check of `suggest`, got misuse"
  "diagnostics\\[4\\].related\\[0\\]: expected an object")
_ck_selftest_expects(_selftest_badjson explain
  "report: expected JSON, got a parse error")

# Against the real purist: a wrong expectation fails, for the right reason
# (purist ran, its report was read, the mismatch is named with the command
# that reproduces it).
add_test(NAME checks/_selftest_fail
         COMMAND diag_check $<TARGET_FILE:purist> check ${_ck_self}/_selftest_fail)
set_tests_properties(checks/_selftest_fail PROPERTIES WILL_FAIL TRUE LABELS "checks;selftest" TIMEOUT 120)
add_test(NAME checks/_selftest_fail_reason
         COMMAND diag_check $<TARGET_FILE:purist> check ${_ck_self}/_selftest_fail)
set_tests_properties(checks/_selftest_fail_reason PROPERTIES
  PASS_REGULAR_EXPRESSION "t.c:8: expected misuse for read_level at t.c:8, got none that fits.*unexpected error misuse at t.c:8:28 \\(function read_level\\).*reproduce: \\(cd "
  LABELS "checks;selftest" TIMEOUT 120)
# A command the fixture does not name is refused (exit 2).
add_test(NAME checks/_selftest_command
         COMMAND diag_check $<TARGET_FILE:purist> explain ${_ck_self}/_selftest_fail)
set_tests_properties(checks/_selftest_command PROPERTIES WILL_FAIL TRUE LABELS "checks;selftest")

# --- whole-program tests on examples/ ------------------------------------
add_test(NAME checks/golden
         COMMAND bash ${_ck_dir}/golden.sh $<TARGET_FILE:purist> ${PROJECT_SOURCE_DIR})
add_test(NAME checks/color
         COMMAND bash ${_ck_dir}/color.sh $<TARGET_FILE:purist> ${PROJECT_SOURCE_DIR})
add_test(NAME checks/mutation
         COMMAND bash ${_ck_dir}/mutation.sh $<TARGET_FILE:purist> ${PROJECT_SOURCE_DIR})
set_tests_properties(checks/golden checks/color PROPERTIES LABELS checks TIMEOUT 300)
set_tests_properties(checks/mutation PROPERTIES LABELS checks TIMEOUT 600)

# The golden SARIF logs (which checks/golden holds the output to) are valid
# SARIF 2.1.0, by the schema and validator that diag.cmake installs from npm.
if(DEFINED _diag_node)
  file(GLOB _ck_sarif CONFIGURE_DEPENDS ${_ck_dir}/golden/*.sarif)
  add_test(NAME checks/golden_sarif_schema
           COMMAND node ${CMAKE_CURRENT_SOURCE_DIR}/diag/validate_sarif.mjs ${_diag_node} ${_ck_sarif})
  set_tests_properties(checks/golden_sarif_schema PROPERTIES
                       FIXTURES_REQUIRED diag_npm LABELS checks TIMEOUT 120)
endif()

# Every check has a page in docs/checks/ (the SARIF rules' helpUri).
add_test(NAME checks/doc_pages
         COMMAND bash ${_ck_dir}/doc_pages.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR} $<TARGET_FILE:purist>)
set_tests_properties(checks/doc_pages PROPERTIES LABELS checks TIMEOUT 60)
