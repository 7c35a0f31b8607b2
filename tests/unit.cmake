# Unit tests (cmocka): one executable per core module, each linked against
# purist_core and registered as unit/<module>.  Modules whose tests need a
# scratch directory also link tmpdir.c (mkdtemp under /tmp, removed after).

pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

set(_unit_dir ${CMAKE_CURRENT_SOURCE_DIR}/unit)

# unit_add(<module> [extra sources...]) builds unit/test_<module>.c.
function(unit_add module)
  add_executable(unit_${module} ${_unit_dir}/test_${module}.c ${ARGN})
  target_link_libraries(unit_${module} PRIVATE purist_core PkgConfig::CMOCKA)
  set_target_properties(unit_${module} PROPERTIES BUILD_RPATH ${LLVM_LIBDIR})
  add_test(NAME unit/${module} COMMAND unit_${module})
  set_tests_properties(unit/${module} PROPERTIES LABELS unit TIMEOUT 120)
endfunction()

unit_add(strtab)
unit_add(bytes)
unit_add(ptrmap)
unit_add(strbuf)
unit_add(textenc)
unit_add(vec)
unit_add(glob)
unit_add(summary)
unit_add(cdb ${_unit_dir}/tmpdir.c)
unit_add(kb ${_unit_dir}/tmpdir.c)
unit_add(asmscan)
unit_add(fix_apply ${_unit_dir}/tmpdir.c)
unit_add(cache ${_unit_dir}/tmpdir.c)
unit_add(kb_headers)
unit_add(cache_lex)
