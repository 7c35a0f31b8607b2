# libpurist-rt: the runtime `purist verify` loads into the user's program
# (src/rt, see src/rt/rt.h). A shared library of its own: it must not link
# libclang or purist_core, and it is built without sanitizers even in the
# ASan+UBSan configuration, because it is linked into programs that are not
# sanitized (an ASan-instrumented library cannot be loaded there), it
# replaces malloc (as ASan does) and it owns SIGSEGV during const frames
# (as ASan does). xxhash is compiled in (header-only), libelf is linked.
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
file(GLOB PURIST_RT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/rt/*.c)
add_library(purist-rt SHARED ${PURIST_RT_SOURCES})
target_include_directories(purist-rt PRIVATE ${CMAKE_SOURCE_DIR}/src)
target_compile_options(purist-rt PRIVATE -fno-sanitize=all -fvisibility=hidden -O2)
target_link_options(purist-rt PRIVATE -fno-sanitize=all -Wl,-z,defs)
target_link_libraries(purist-rt PRIVATE PkgConfig::LIBELF Threads::Threads ${CMAKE_DL_LIBS})
set_target_properties(purist-rt PROPERTIES OUTPUT_NAME purist-rt
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
install(TARGETS purist-rt LIBRARY)
