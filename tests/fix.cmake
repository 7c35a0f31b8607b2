# Tests of `purist fix` (issue 4): bash scripts in tests/fix/ on top of the
# end-to-end helpers (tests/e2e/lib.sh, tests/fix/lib.sh). Each checks that
# the fixed code still compiles with gcc-12 and clang-19 at -Wall -Werror.
set(_fix_tests example forms spelling safety misuse config excl loopdep std generated guarded check_build declared
               other_platform template_names macro_text)
foreach(_fix ${_fix_tests})
  add_test(NAME fix/${_fix}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fix/${_fix}.sh $<TARGET_FILE:purist>)
  set_tests_properties(fix/${_fix} PROPERTIES LABELS fix TIMEOUT 300)
endforeach()
