# Install checks: every tool and library the project uses comes from a
# package scripts/deps.sh installs (or their Depends, or the minbase set,
# tests/deps/minbase.txt), so a package installed by hand cannot hide a
# missing install step from CI. deps/installed checks the known tools and
# libraries; deps/scan reads every test script for the commands it runs;
# deps/scan_rejects proves deps/scan fails on an unlisted command.
add_test(NAME deps/installed COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/deps/deps_check.sh)
add_test(NAME deps/scan COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/deps/scan.sh ${PROJECT_SOURCE_DIR})
add_test(NAME deps/scan_rejects COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/deps/scan_rejects.sh)
set_tests_properties(deps/installed deps/scan deps/scan_rejects PROPERTIES LABELS deps TIMEOUT 300)
