/* libcalls.c — library calls whose meaning the walk itself needs.
 *
 * The knowledge base says what a library function does to memory; two
 * facts it cannot carry are about the pointer a call returns:
 *  - alloca and its builtins return storage in the caller's own frame,
 *    local like a VLA (DESIGN.md §2), so writes into it are local; macros
 *    built on them (glibc's strndupa, strdupa) come out the same;
 *  - memcpy and its kin return their first argument, so the result points
 *    where the destination does (strndupa's value is memcpy's). */
#include "frontend/walk.h"
#include <string.h>

int fw_is_alloca(CXCursor callee, const char *name)
{
  if (!strncmp(name, "__builtin_alloca", 16)) return 1;   /* reserved: the compiler's own */
  if (strcmp(name, "alloca") != 0) return 0;
  /* The C library's (a macro for __builtin_alloca, or its prototype in
   * <alloca.h>), not a function of the project's own. */
  return clang_Cursor_isNull(clang_getCursorDefinition(callee));
}

/* Searches return a pointer into the object one argument points to (or
 * NULL): strchr(s, c) into s, bsearch(key, base, …) into base. The result
 * points where that argument does, so a search of a local buffer or a
 * const table reads local or read-only memory (issue 13: GCC sees this
 * once it inlines glibc's bsearch). Returns 1 + that argument, or 0. */
int fw_returns_into_arg(const char *name)
{
  static const struct { const char *name; int arg; } into[] = {
    { "strchr", 0 }, { "strrchr", 0 }, { "strchrnul", 0 }, { "memchr", 0 }, { "memrchr", 0 },
    { "rawmemchr", 0 }, { "strstr", 0 }, { "strcasestr", 0 }, { "strpbrk", 0 }, { "memmem", 0 },
    { "index", 0 }, { "rindex", 0 }, { "wcschr", 0 }, { "wcsrchr", 0 }, { "wcsstr", 0 },
    { "wmemchr", 0 }, { "wcspbrk", 0 }, { "bsearch", 1 }, { "lfind", 1 }, { "lsearch", 1 }, { NULL, 0 } };
  if (!strncmp(name, "__builtin_", 10)) name += 10;
  while (*name == '_') name++;
  for (int i = 0; into[i].name; i++)
    if (!strcmp(name, into[i].name)) return into[i].arg + 1;
  return 0;
}

int fw_returns_arg0(const char *name)
{
  static const char *const same[] = {
    "memcpy", "memmove", "memset", "mempcpy", "strcpy", "strncpy", "stpcpy", "stpncpy", "strcat",
    "strncat", "wmemcpy", "wmemmove", "wmemset", "wmempcpy", "wcscpy", "wcsncpy", "wcscat", "wcsncat",
    "memcpy_inline", NULL };
  /* __builtin_memcpy, __builtin___memcpy_chk, __memcpy_chk, __mempcpy … */
  if (!strncmp(name, "__builtin_", 10)) name += 10;
  while (*name == '_') name++;
  size_t len = strlen(name);
  if (len > 4 && !strcmp(name + len - 4, "_chk")) len -= 4;
  for (int i = 0; same[i]; i++)
    if (strlen(same[i]) == len && !strncmp(name, same[i], len)) return 1;
  return 0;
}
