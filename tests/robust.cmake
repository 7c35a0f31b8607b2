# Issue 12: hostile input — no crash, no hang, nothing silently lost. Bash
# scripts in tests/robust/, driven like the e2e tests (tests/e2e/lib.sh).
set(_robust_tests archives nonutf8 fix_faults verify_lost)
foreach(_t ${_robust_tests})
  add_test(NAME robust/${_t} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/robust/${_t}.sh $<TARGET_FILE:purist>)
  set_tests_properties(robust/${_t} PROPERTIES LABELS robust TIMEOUT 300)
endforeach()
