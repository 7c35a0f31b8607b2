# Install check: every tool and library the project uses comes from a
# package scripts/deps.sh installs (or its Depends, or the base image), so a
# package installed by hand cannot hide a missing install step from CI.
add_test(NAME deps/installed COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/deps/deps_check.sh)
set_tests_properties(deps/installed PROPERTIES LABELS deps TIMEOUT 300)
