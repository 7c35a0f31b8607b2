# Tests of `purist verify`, `purist rt-flags` and libpurist-rt (issue 6):
# bash scripts in tests/verify/ that build the fixture programs there with
# the runtime flags (never sanitized: they stand for the user's program)
# and run them under purist verify. Each takes purist as its argument.
set(_verify_tests verify_fixture verify_threads verify_bad_input verify_signals verify_title verify_busy verify_c23 verify_sysio verify_race)
foreach(_v ${_verify_tests})
  add_test(NAME verify/${_v}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/verify/${_v}.sh $<TARGET_FILE:purist>)
  set_tests_properties(verify/${_v} PROPERTIES LABELS verify TIMEOUT 300)
endforeach()
