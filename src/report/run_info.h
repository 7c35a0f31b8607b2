/* run_info.h — what a run says about itself besides its findings, for the
 * outputs machines read (CI): the command that produced them (SARIF
 * automationDetails.id, "purist/check/") and every translation unit it
 * could not analyse, with the reason (SARIF invocations[0]
 * .toolExecutionNotifications, JSON "not_analysed"). A log that looks
 * complete while a file was skipped would let CI pass code nobody checked;
 * the exit status alone (2) is lost once a log is uploaded. */
#ifndef PURIST_RUN_INFO_H
#define PURIST_RUN_INFO_H
#include <stdbool.h>
#include <stdio.h>
#include "util/strbuf.h"
#include "util/vec.h"

/* Why a TU was not analysed; the names are the JSON and SARIF vocabulary. */
typedef enum {
  RUN_NA_ERRORS,      /* "errors": the code has errors (libclang's, printed) */
  RUN_NA_TIMED_OUT,   /* "timed-out": the parse outlasted --tu-timeout */
  RUN_NA_CRASHED,     /* "crashed": the process parsing it died */
  RUN_NA_FAILED,      /* "failed": libclang could not parse it at all */
  RUN_NA_BAD_ENTRY,   /* "bad-entry": a compile-database entry purist cannot read */
  RUN_NA_SKIPPED      /* "skipped": left out on purpose (a configure or CMake probe, --skip):
                         not a failure (SARIF: a note; the run still succeeds) */
} run_na_reason;

typedef struct {
  char *file;         /* as printed: relative to the root when inside it */
  run_na_reason reason;
  char *message;      /* the error line said on stderr */
} run_na;

typedef struct {
  const char *command;   /* "check", "check+suggest+explain": automationDetails.id purist/COMMAND/ */
  VEC(run_na) not_analysed;
} run_info;

const char *run_na_reason_name(run_na_reason r);
/* Records one TU not analysed. file is made relative to root (absolute,
 * may be NULL) when inside it; both strings are copied. */
void run_info_add(run_info *ri, const char *file, const char *root, run_na_reason r, const char *message);
void run_info_free(run_info *ri);
/* Was a TU not analysed for a reason other than being skipped on purpose? */
bool run_info_failed(const run_info *ri);
/* "purist/COMMAND/" into b: SARIF's automationDetails.id, whose part
 * before the last '/' is the category GitHub code scanning keys results
 * on, so each command's log replaces only its own earlier upload. */
void run_info_automation_id(strbuf *b, const run_info *ri);
/* Writes `,\n  "not_analysed": [{"file","reason","message"}…]` when a TU
 * was not analysed, nothing otherwise (the key is absent in a complete
 * run, so the output of a clean run is unchanged); ri may be NULL. For the
 * streamed JSON objects of diag_json.c and infer_out.c, before the
 * closing brace. Returns 0, or -1 if writing failed. */
int run_info_print_json(FILE *out, const run_info *ri);

#endif
