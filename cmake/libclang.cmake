# libclang is loaded, not linked (src/libclang/lc.h, issue 32 item 3): only
# the process that parses maps it. Sets PURIST_LIBCLANG_VERSION, what
# clang_getClangVersion of LIBCLANG says, asked once here so that
# --version and the summary cache's key never load the library.
set(_lc_src ${CMAKE_BINARY_DIR}/lc_version.c)
file(WRITE ${_lc_src} [=[
#include <clang-c/Index.h>
#include <stdio.h>
int main(void)
{
  CXString v = clang_getClangVersion();
  fputs(clang_getCString(v), stdout);
  clang_disposeString(v);
  return 0;
}
]=])
try_run(_lc_run _lc_compiled SOURCES ${_lc_src}
        CMAKE_FLAGS -DINCLUDE_DIRECTORIES=${LLVM_INCLUDE}
        LINK_LIBRARIES ${LIBCLANG}
        LINK_OPTIONS -Wl,-rpath,${LLVM_LIBDIR}
        COMPILE_OUTPUT_VARIABLE _lc_out
        RUN_OUTPUT_VARIABLE PURIST_LIBCLANG_VERSION)
if(NOT _lc_compiled OR NOT _lc_run EQUAL 0 OR NOT PURIST_LIBCLANG_VERSION MATCHES "clang version")
  message(FATAL_ERROR "cannot ask ${LIBCLANG} its version (clang_getClangVersion): ${_lc_out}")
endif()
message(STATUS "libclang: ${LIBCLANG}: ${PURIST_LIBCLANG_VERSION}")
