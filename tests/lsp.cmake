# The language server (purist lsp, src/lsp/): driven by a scripted client
# of its own (tests/lsp/lsp_client.c, framing written apart from the
# server's), as an editor drives it.
add_executable(lsp_client lsp/lsp_client.c)
target_link_libraries(lsp_client PRIVATE PkgConfig::JANSSON)
set(_lsp_tests session malformed robust neovim)
foreach(_t ${_lsp_tests})
  add_test(NAME lsp/${_t}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lsp/${_t}.sh $<TARGET_FILE:purist> $<TARGET_FILE:lsp_client>)
  set_tests_properties(lsp/${_t} PROPERTIES LABELS lsp TIMEOUT 300)
endforeach()
