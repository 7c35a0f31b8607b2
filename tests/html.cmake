# HTML report tests (src/report/html*.c, data/report/): node scripts in
# tests/html/ that run purist and open its pages in Debian's chromium
# (/usr/bin/chromium, headless) through playwright-core from npm, installed
# by `npm ci` into the build tree by a fixture test; no browser is
# downloaded. html/cli needs node only.

set(_html_dir ${CMAKE_CURRENT_SOURCE_DIR}/html)
set(_html_node ${CMAKE_CURRENT_BINARY_DIR}/html-node)

add_test(NAME html/npm_setup
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/diag/npm_setup.sh ${_html_dir} ${_html_node})
set_tests_properties(html/npm_setup PROPERTIES FIXTURES_SETUP html_npm LABELS browser TIMEOUT 600
                     ENVIRONMENT PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1)

foreach(_t examples escaping limits scale)
  add_test(NAME html/${_t}
           COMMAND node ${_html_dir}/${_t}.mjs ${_html_node} $<TARGET_FILE:purist> ${PROJECT_SOURCE_DIR})
  set_tests_properties(html/${_t} PROPERTIES FIXTURES_REQUIRED html_npm LABELS browser TIMEOUT 300
                       ENVIRONMENT PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1)
endforeach()

add_test(NAME html/cli COMMAND node ${_html_dir}/cli.mjs $<TARGET_FILE:purist> ${PROJECT_SOURCE_DIR})
set_tests_properties(html/cli PROPERTIES LABELS html TIMEOUT 300)
