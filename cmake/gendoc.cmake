# gendoc.cmake — the man page purist(1) and the bash completion, written at
# build time by purist-gendoc (src/doc/gendoc.c) from the same option and
# command tables as --help (src/cli/cli_table.c), so they cannot drift
# apart; installed by `cmake --install`.
add_executable(purist-gendoc src/doc/gendoc.c src/cli/cli_table.c src/cli/cli_help.c)
target_link_libraries(purist-gendoc PRIVATE purist_core)
target_include_directories(purist-gendoc PRIVATE ${CMAKE_BINARY_DIR}/gen)
add_dependencies(purist-gendoc purist_commit)
set_target_properties(purist-gendoc PROPERTIES BUILD_RPATH ${LLVM_LIBDIR})

set(PURIST_MAN ${CMAKE_BINARY_DIR}/doc/purist.1)
set(PURIST_BASH ${CMAKE_BINARY_DIR}/doc/purist.bash)
add_custom_command(
  OUTPUT ${PURIST_MAN} ${PURIST_BASH}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/doc
  COMMAND purist-gendoc man > ${PURIST_MAN}
  COMMAND purist-gendoc bash > ${PURIST_BASH}
  DEPENDS purist-gendoc
  COMMENT "Writing the man page and bash completion from the option table")
add_custom_target(purist_docs ALL DEPENDS ${PURIST_MAN} ${PURIST_BASH})

install(FILES ${PURIST_MAN} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PURIST_BASH} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME purist)
