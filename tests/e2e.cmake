# End-to-end tests: bash scripts in tests/e2e/ that drive the purist binary
# the way a user does (compile databases, paths, errors, output formats,
# determinism, summaries).  Each takes the binary as its only argument,
# works in its own temporary directory and prints one "check:" line per
# thing it checks.  tests/e2e/lib.sh holds their shared helpers.

set(_e2e_tests
  suggest_order
  suggest_file_scope
  suggest_plugin_entry
  library_api
  cdb_cmake
  cdb_meson
  cdb_arguments
  cdb_command
  cdb_depfile_wp
  cdb_kbuild_flags
  cdb_discovery
  paths
  paths_symlink
  errors_usage
  errors_cdb
  errors_missing_source
  errors_syntax
  output_formats
  output_file_on_error
  output_write_error
  why_chain
  determinism
  summary_roundtrip
  summary_halves
  summary_corrupt
  summary_empty
  summary_errors
  header_inline
  duplicate_definition
  conflict_reason_paths
  strict
  cache_incremental
  cache_robust
  cache_comment_edit
  cmdline_macros
  compiler_view
  cli_forms
  help_docs
  ci_outputs
  config_file
  cache_shared
  progress
  cdb_skip
  pch_prefix
  warm_one_file
  cache_failed_tu
  cache_clean_midrun
  check_findings_kept
  check_nothing_declared
  cache_stamps
)
foreach(_e2e ${_e2e_tests})
  add_test(NAME e2e/${_e2e}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/${_e2e}.sh $<TARGET_FILE:purist>)
  set_tests_properties(e2e/${_e2e} PROPERTIES LABELS e2e TIMEOUT 600)
endforeach()
