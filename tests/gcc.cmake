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

# Never more optimistic than GCC (issue 38): small programs of our own
# generator (gen_effects.c: array and pointer parameters, locals derived
# from them, globals, statics, fields, unions, casts, library calls, calls
# between the functions, loops) and csmith's random programs, each
# compiled by GCC with inlining and IPA cloning off; on every function GCC
# analysed, purist's class is at most GCC's. A fixed seed set here (about
# a minute); bench/differential.sh runs thousands.
add_executable(gen_effects gcc/gen_effects.c)
find_program(PURIST_CSMITH csmith)
if(PURIST_GCC_FOR_AGREE)
  if(PURIST_CSMITH)
    set(_diff_csmith --csmith 1-8)
  else()
    set(_diff_csmith)
    message(STATUS "csmith not found: gcc/differential runs the generated programs only (scripts/deps.sh --test installs csmith)")
  endif()
  add_test(NAME gcc/differential
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gcc/differential.sh $<TARGET_FILE:purist>
                   $<TARGET_FILE:gen_effects> ${CMAKE_SOURCE_DIR} --seeds 1-60 ${_diff_csmith})
  set_tests_properties(gcc/differential PROPERTIES LABELS gcc TIMEOUT 300
                       ENVIRONMENT "GCC=${PURIST_GCC_FOR_AGREE}")
endif()
