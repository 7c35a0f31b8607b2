# libFuzzer targets (issue 12, docs/fuzzing.md): -DPURIST_FUZZ=ON with
# CC=clang-19 builds purist_core with coverage instrumentation and ASan +
# UBSan, and one fuzz_<name> executable per reader or writer. Build them
# with the target `fuzz`; scripts/fuzz.sh runs them.
if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "PURIST_FUZZ needs clang (libFuzzer): configure with CC=clang-19")
endif()
set(PURIST_FUZZ_TARGETS summary elfsec cdb kb writers cachelex)
add_custom_target(fuzz)
foreach(_t ${PURIST_FUZZ_TARGETS})
  add_executable(fuzz_${_t} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${_t}.c
                 ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_util.c)
  target_link_libraries(fuzz_${_t} PRIVATE purist_core)
  target_link_options(fuzz_${_t} PRIVATE -fsanitize=fuzzer)
  set_target_properties(fuzz_${_t} PROPERTIES BUILD_RPATH ${LLVM_LIBDIR}
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  add_dependencies(fuzz fuzz_${_t})
endforeach()
# The .purist reader lives in the command line's sources (src/cli/): the
# target takes them all but main.c (libFuzzer brings its own main).
set(_cli_for_fuzz ${PURIST_CLI_SOURCES})
list(FILTER _cli_for_fuzz EXCLUDE REGEX "/main\\.c$")
add_executable(fuzz_config ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_config.c
               ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_util.c ${_cli_for_fuzz})
target_link_libraries(fuzz_config PRIVATE purist_core PkgConfig::YAML)
target_include_directories(fuzz_config PRIVATE ${CMAKE_BINARY_DIR}/gen ${CMAKE_SOURCE_DIR}/src)
target_link_options(fuzz_config PRIVATE -fsanitize=fuzzer)
add_dependencies(fuzz_config purist_commit)
set_target_properties(fuzz_config PROPERTIES BUILD_RPATH ${LLVM_LIBDIR} RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
add_dependencies(fuzz fuzz_config)
