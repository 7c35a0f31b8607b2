# Diagnostic output tests (src/report/diag*.c): cmocka tests with golden
# outputs for text, JSON and SARIF, suppression and baselines, registered
# as diag/<name>; and the SARIF schema test, which validates purist's
# SARIF against the official SARIF 2.1.0 JSON schema with ajv from npm.
# PURIST_UPDATE_GOLDEN=1 ctest -R diag/ rewrites tests/diag/golden/.

if(NOT TARGET PkgConfig::CMOCKA)
  pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)
endif()

set(_diag_dir ${CMAKE_CURRENT_SOURCE_DIR}/diag)
add_library(diag_sample STATIC ${_diag_dir}/sample.c ${CMAKE_CURRENT_SOURCE_DIR}/unit/tmpdir.c)
target_include_directories(diag_sample PUBLIC ${_diag_dir} ${CMAKE_CURRENT_SOURCE_DIR}/unit)
target_compile_definitions(diag_sample PRIVATE DIAG_GOLDEN_DIR="${_diag_dir}/golden")
target_link_libraries(diag_sample PUBLIC purist_core PkgConfig::CMOCKA)

# diag_add(<name>) builds diag/test_<name>.c as test diag/<name>.
function(diag_add name)
  add_executable(diag_${name} ${_diag_dir}/test_${name}.c)
  target_link_libraries(diag_${name} PRIVATE diag_sample)
  set_target_properties(diag_${name} PROPERTIES BUILD_RPATH ${LLVM_LIBDIR})
  add_test(NAME diag/${name} COMMAND diag_${name})
  set_tests_properties(diag/${name} PROPERTIES LABELS diag TIMEOUT 120)
endfunction()

diag_add(diag)
diag_add(diag_text)
diag_add(diag_json)
diag_add(diag_sarif)
diag_add(diag_filter)

# --- SARIF schema validation -------------------------------------------
# The schema comes from npm (@microsoft/jest-sarif ships it), installed
# with ajv into the build tree by a fixture test; nothing is downloaded at
# configure time and nothing outside the build tree is touched.
add_executable(diag_emit_sarif ${_diag_dir}/emit_sarif.c)
target_link_libraries(diag_emit_sarif PRIVATE diag_sample)
set_target_properties(diag_emit_sarif PROPERTIES BUILD_RPATH ${LLVM_LIBDIR})

set(_diag_node ${CMAKE_CURRENT_BINARY_DIR}/diag-node)
add_test(NAME diag/sarif_npm_setup
         COMMAND sh ${_diag_dir}/npm_setup.sh ${_diag_dir} ${_diag_node})
set_tests_properties(diag/sarif_npm_setup PROPERTIES
                     FIXTURES_SETUP diag_npm LABELS diag TIMEOUT 600)

add_test(NAME diag/sarif_schema
         COMMAND sh ${_diag_dir}/sarif_schema.sh $<TARGET_FILE:diag_emit_sarif>
                 ${_diag_dir}/validate_sarif.mjs ${_diag_node})
set_tests_properties(diag/sarif_schema PROPERTIES
                     FIXTURES_REQUIRED diag_npm LABELS diag TIMEOUT 120)

# The validator must reject a log that breaks the schema: proof that a pass
# above means something.
add_test(NAME diag/sarif_schema_rejects_invalid
         COMMAND node ${_diag_dir}/validate_sarif.mjs ${_diag_node} --expect-invalid
                 ${_diag_dir}/bad.sarif)
set_tests_properties(diag/sarif_schema_rejects_invalid PROPERTIES
                     FIXTURES_REQUIRED diag_npm LABELS diag TIMEOUT 120)

# Every JSON output of purist against its JSON Schema in docs/schema/
# (issue 20 item 4), with the same ajv.
add_test(NAME schema/json_outputs
         COMMAND bash ${_diag_dir}/json_schema.sh $<TARGET_FILE:purist> ${PROJECT_SOURCE_DIR} ${_diag_node})
set_tests_properties(schema/json_outputs PROPERTIES
                     FIXTURES_REQUIRED diag_npm LABELS diag TIMEOUT 300)
