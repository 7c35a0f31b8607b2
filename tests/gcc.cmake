# GCC agreement: purist's verdicts against GCC's own purity analysis
# (-Wsuggest-attribute=pure/const and the pure-const/modref pass dumps) on
# the example project and every fixture.  Differences that are by design
# are listed, with their reasons, in gcc/differences.txt; the script and
# its figures are described in gcc/agree.sh and docs/gcc-agreement.md.
# The timeout is sized for a loaded 2-core machine under ASan (it compiles
# every fixture with gcc several times): 120 s was too short there.
find_program(PURIST_GCC_FOR_AGREE gcc)
if(PURIST_GCC_FOR_AGREE)
  add_test(NAME gcc/agree
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gcc/agree.sh $<TARGET_FILE:purist> ${CMAKE_SOURCE_DIR})
  set_tests_properties(gcc/agree PROPERTIES LABELS gcc TIMEOUT 400
                       ENVIRONMENT "GCC=${PURIST_GCC_FOR_AGREE}")
endif()
