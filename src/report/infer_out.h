/* infer_out.h — `purist infer` output: one entry per function defined in
 * the analysed code, in text (GCC-like lines) or JSON (DESIGN.md §4). */
#ifndef PURIST_INFER_OUT_H
#define PURIST_INFER_OUT_H
#include <stdio.h>
#include "link/link.h"
#include "report/run_info.h"

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF } out_format;

/* The functions to list, in a deterministic order (file, line, name). The
 * caller frees the array. */
uint32_t *infer_listed(const link_prog *p, const char *root, size_t *n);
/* Returns 0, or -1 if writing failed. The JSON ends with "not_analysed"
 * when ri (may be NULL) lists TUs that were not analysed. */
int infer_print(FILE *out, const link_prog *p, const char *root, out_format fmt, const run_info *ri);
/* The same for the functions defined in files want(ctx, absolute path)
 * accepts (the report's scope: -p DIR FILE..., --include, --exclude). */
typedef bool (*infer_want_fn)(const void *ctx, const char *file);
int infer_print_some(FILE *out, const link_prog *p, const char *root, out_format fmt, infer_want_fn want,
                     const void *ctx, const run_info *ri);

#endif
