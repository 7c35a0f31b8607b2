# Tests of `purist cc` (summaries inside objects) and of reading them back:
# bash scripts in tests/cc/, driven like the e2e tests (tests/e2e/lib.sh).
# The distcc test runs a real distcc farm on loopback (label distcc).
set(_cc_tests cc_passthrough cc_build cc_bad_input cc_preprocessed cc_lto cc_prune cc_sidecar cc_ccview_cache cc_server)
foreach(_t ${_cc_tests})
  add_test(NAME cc/${_t} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cc/${_t}.sh $<TARGET_FILE:purist>)
  set_tests_properties(cc/${_t} PROPERTIES LABELS "cc;e2e" TIMEOUT 300)
endforeach()
add_test(NAME cc/distcc COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cc/distcc.sh $<TARGET_FILE:purist>)
set_tests_properties(cc/distcc PROPERTIES LABELS distcc TIMEOUT 300 SKIP_RETURN_CODE 77)
