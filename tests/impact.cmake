# Tests of `purist impact` (issue 4): bash scripts in tests/impact/ on top
# of the end-to-end helpers; they compile with the real gcc-12.
foreach(_imp figures errors signals select)
  add_test(NAME impact/${_imp}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/impact/${_imp}.sh $<TARGET_FILE:purist>)
  set_tests_properties(impact/${_imp} PROPERTIES LABELS impact TIMEOUT 120)
endforeach()
