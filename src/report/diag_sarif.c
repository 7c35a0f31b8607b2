/* diag_sarif.c — diagnostics as a SARIF 2.1.0 log, the format code-scanning
 * services (GitHub, GitLab, Azure DevOps) and SARIF viewers import.
 *
 * One run; one rule per check that occurs, with the help text a reviewer
 * sees next to the finding; one result per diagnostic, its related
 * locations being the witness chain. Paths inside the project are relative
 * to the uriBaseId SRCROOT (originalUriBaseIds gives its absolute URI), so
 * the log stays valid when the checkout moves. partialFingerprints hash
 * check, function and message (diag_key: without line numbers), so a
 * service keeps recognising a finding after edits above it. */
#include "report/diag_out.h"
#include "report/run_info.h"
#include "util/strbuf.h"
#include "util/strtab.h"
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

/* Each rule's helpUri is PURIST_DOCS_URL + "checks/CHECK.md": the page of
 * docs/checks/ installed with purist (cmake sets the installed docs'
 * file: URL, or the cache variable PURIST_DOCS_URL a published copy). */
#ifndef PURIST_DOCS_URL
#define PURIST_DOCS_URL "file:///usr/local/share/doc/purist/"
#endif
/* tool.driver.informationUri: the README installed beside those pages
 * (purist has no published home; the build can set PURIST_HOMEPAGE). */
#ifndef PURIST_HOMEPAGE
#define PURIST_HOMEPAGE PURIST_DOCS_URL "README.md"
#endif
#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SARIF_FINGERPRINT "puristFingerprint/v1"

/* What a rule says about one check. */
typedef struct {
  const char *check, *name, *short_text, *full_text, *help;
} sarif_rule_text;

static const sarif_rule_text sarif_rule_texts[] = {
  {"misuse", "AttributeMisuse",
   "A function declared pure or const does something the attribute forbids.",
   "The function is declared __attribute__((const)) or __attribute__((pure)), but its body, or "
   "a function it calls, has an effect the attribute rules out; or the attribute is on a "
   "function returning void, is declared both ways, or differs between declarations.",
   "GCC and Clang trust pure and const without checking them: they delete calls whose value is "
   "unused, merge repeated calls with equal arguments and hoist calls out of loops. When the "
   "attribute is wrong, these optimisations change what the program does, typically only at "
   "-O2 and only in some builds, which makes the resulting bugs hard to trace. A const "
   "function may depend only on the values of its arguments: it must not read global memory "
   "or memory through pointers. A pure function may also read memory, but neither kind may "
   "write memory, do I/O, or call a function that does, and neither makes sense on a function "
   "that returns void. The message names the first offending effect and the chain of calls "
   "that reaches it. Fix the function, weaken the attribute (const to pure), or remove it."},
  {"misuse-noreturn", "AttributeMisuseNoreturn",
   "A function declared pure or const may not return: a path calls abort, exit, longjmp or "
   "another noreturn function.",
   "The function is declared __attribute__((pure)) or __attribute__((const)) but some path "
   "ends in a call that never returns (directly or through the functions it calls), typically "
   "an error check that logs and aborts.",
   "GCC's manual does not count a function that may not return as pure or const. Once the "
   "attribute is declared, the compiler deletes a call whose value is unused, and the abort or "
   "exit on its error path with it, so a bad argument goes unnoticed in optimised builds. The "
   "message names the call that does not return and the chain that reaches it; related notes "
   "show what the path does before it ends. A path that only fails an assert() is reported as "
   "a note: it disappears under NDEBUG. Drop the attribute, or move the check to the callers. "
   "With --strict the effects on such paths count in full and the finding is a misuse."},
  {"cheat", "AttributeCheat",
   "A pure or const attribute that holds only while cached or write-once data stays as it is.",
   "The function is declared pure or const but writes a private cache guarded by an \"already "
   "computed?\" test (a static, a thread-local, or an atomic once-guard such as GLib's "
   "g_once_init_enter), a pthread_once/call_once initialiser, or calls a function that does "
   "(memoisation); or it reads global data that nothing in the program writes after "
   "initialisation (a static, or any global in a whole program).",
   "This idiom is common and usually deliberate (a cached getenv, GObject's *_get_type(), CPU "
   "feature detection), so purist reports it as a note, not an error. The compiler will "
   "assume the call has no side effects: it may delete a first call whose value is unused, so "
   "the initialisation happens later than written, or reuse a value across a point where the "
   "environment or the global data changed. Under threads the cache is only safe if it is "
   "filled atomically or through pthread_once/call_once. Keep the attribute if these risks are "
   "understood and documented; otherwise remove it."},
  {"misuse-precondition", "AttributeMisusePrecondition",
   "A function declared pure or const whose only effect is a precondition check's message.",
   "The function is declared __attribute__((pure)) or __attribute__((const)) and does nothing "
   "beyond the attribute except in a precondition guard (GLib's g_return_val_if_fail, "
   "g_warn_if_fail, a project's *_if_fail or assert_return macro): a message logged when the "
   "caller broke the contract.",
   "Such a message reports a programmer error, and projects declare these functions pure or "
   "const on purpose (G_DISABLE_CHECKS removes GLib's guards). What the attribute costs is the "
   "message: the compiler may delete a call whose value is unused, or merge two calls, together "
   "with the check. The note names the guard and the chain of calls that reaches it. Anything "
   "else beyond the attribute is a misuse error; --strict counts the guard in full."},
  {"misuse-c23", "AttributeMisuseC23",
   "A function declared [[unsequenced]] or [[reproducible]] breaks the C23 standard's rules.",
   "The function is declared with C23's standard attribute [[unsequenced]] or [[reproducible]] "
   "(C23 6.7.13.8), but its body, or a function it calls, is not effectless, idempotent, or, "
   "for unsequenced, stateless and independent.",
   "A reproducible function may store only to objects local to the call or through a unique "
   "pointer parameter, and a second call right after the first must change nothing. An "
   "unsequenced function must in addition define no non-const static or thread-local object and "
   "read nothing but its arguments, what its pointer parameters point to, and data that never "
   "changes. Calling a function whose attribute is wrong is undefined behaviour, and compilers "
   "are starting to act on these attributes. The message names the first offending effect, the "
   "chain of calls that reaches it and the condition it breaks. Fix the function, weaken the "
   "attribute (unsequenced to reproducible), or remove it."},
  {"cheat-c23", "AttributeCheatC23",
   "A [[reproducible]] function keeps a private cache: allowed, with conditions.",
   "The function is declared [[reproducible]] and writes a private static or thread-local cache "
   "under an \"already computed?\" test.",
   "C23 allows a reproducible function stores that no caller can observe, so a private memo is "
   "within the rules (an unsequenced function may not keep it: it must be stateless). The memo "
   "stays unobservable only while no two threads fill it at once and what the first call "
   "computed from does not change."},
  {"allowed-c23", "AllowedC23",
   "A C23-attributed function writes through a pointer parameter: allowed.",
   "The function is declared [[unsequenced]] or [[reproducible]] and stores through a pointer "
   "parameter, which C23 allows (an effectless function may store through a unique pointer "
   "parameter) and GNU const or pure never do.",
   "The attribute is correct on the condition that every caller passes a pointer through which "
   "alone the written object is reached; the note says which parameter is written."},
  {"cheat-discarded", "CheatDiscarded",
   "A call of a memoising pure or const function whose value is unused: the compiler deletes it, "
   "and the first call's work with it.",
   "The callee is declared pure or const but caches its result (memoisation, reported as a "
   "cheat note on the function); this call's value is discarded or stored only into a local "
   "that is never read.",
   "Memoisation under a pure or const attribute is safe only while every call's value is used. "
   "A call made for its side effect, such as calling a GObject *_get_type() function to "
   "register the type, is deleted by the compiler, so the registration or initialisation "
   "silently never happens in optimised builds. Use the value (pass it on, as GLib's "
   "g_type_ensure() does with a type), or drop the attribute."},
  {"cheat-argument", "CheatArgument",
   "A memoising pure or const function caches a value computed from its arguments.",
   "The function is declared pure or const and caches its result in one object under an "
   "\"already computed?\" test, but the value it stores depends on the arguments of the call "
   "that fills the cache.",
   "Every later call returns what the first call's arguments computed, whatever its own "
   "arguments are: this is a wrong result, not memoisation, with or without the attribute. Key "
   "the cache by the arguments (one entry per value), or drop the attribute and the cache."},
  {"suggest-const", "SuggestConst",
   "A function that could be declared __attribute__((const)).",
   "purist inferred that this function returns a value that depends only on the values of its "
   "arguments: it reads no global memory and nothing through pointers, and writes nothing.",
   "Declaring the function __attribute__((const)) on the declaration its callers see (the "
   "prototype in the header, or the definition of a static function) lets the compiler delete "
   "calls whose value is unused, merge calls with equal arguments and hoist calls out of loops "
   "in every translation unit, not only where the body is visible. The message counts the call "
   "sites in the program where that applies. If the function may not return (a loop or "
   "recursion purist cannot bound), the attribute is only correct if the function is known to "
   "return normally. Once the attribute is declared, purist check verifies it as the code "
   "changes."},
  {"suggest-pure", "SuggestPure",
   "A function that could be declared __attribute__((pure)).",
   "purist inferred that this function returns a value and has no effect other than reading "
   "memory: it writes no global memory and nothing through pointers, and does no I/O.",
   "Declaring the function __attribute__((pure)) on the declaration its callers see (the "
   "prototype in the header, or the definition of a static function) lets the compiler delete "
   "calls whose value is unused, and merge or hoist calls with equal arguments as long as no "
   "memory is written in between, in every translation unit, not only where the body is "
   "visible. The message counts the call sites in the program where that applies. If the "
   "function may not return (a loop or recursion purist cannot bound), the attribute is only "
   "correct if the function is known to return normally. Once the attribute is declared, "
   "purist check verifies it as the code changes."},
  {"suggest-unsequenced", "SuggestUnsequenced",
   "A function that could be declared [[unsequenced]] (C23).",
   "purist inferred that this function keeps C23's unsequenced promise (C23 6.7.13.8): it is "
   "stateless, effectless, idempotent and independent; it may read and write through its "
   "pointer parameters.",
   "Write [[unsequenced]] right after the declarator of the declaration its callers see, "
   "before the ';' or the body. Unlike GNU const it also describes functions that store "
   "through a pointer parameter (an out-parameter). Compilers are starting to act on it; once "
   "it is declared, purist check verifies it as the code changes."},
  {"suggest-reproducible", "SuggestReproducible",
   "A function that could be declared [[reproducible]] (C23).",
   "purist inferred that this function keeps C23's reproducible promise (C23 6.7.13.8): it is "
   "effectless and idempotent; it may read global state, store through its pointer parameters "
   "and keep a private memo no caller can observe.",
   "Write [[reproducible]] right after the declarator of the declaration its callers see, "
   "before the ';' or the body. Once it is declared, purist check verifies it as the code "
   "changes."},
  {"dead-call", "DeadCall",
   "The value of a call to a pure or const function is not used, so the call does nothing.",
   "A call to a function that is pure or const (declared, or inferred by purist) whose value "
   "is discarded or only stored in a local that is never read.",
   "Such a call has no observable effect. The compiler deletes it when the attribute is "
   "declared or the body is visible in the translation unit, and could delete it once the "
   "attribute is declared; the message says which. Usually this is a mistake: the value was "
   "meant to be checked or used, or the call is a leftover that can go. If the call is there "
   "for a side effect, the function is not really pure or const, and its attribute (or "
   "purist's knowledge of it) is what needs fixing."},
  {"redundant-call", "RedundantCall",
   "The same pure or const call is evaluated twice with the same arguments.",
   "The second call repeats the first with the same argument expressions, the first is always "
   "evaluated before the second, and the arguments do not change in between.",
   "The compiler can reuse the first value instead of calling again, provided nothing in "
   "between invalidates it: for a pure callee, no write to memory and no impure call; for a "
   "const callee, nothing. The message says whether the calls merge today and, if not, what "
   "blocks it (such as a store through a pointer, which a pure callee might read but a const "
   "one cannot). Keeping the value in a local makes the saving explicit and independent of "
   "what the optimiser can prove."},
  {"loop-invariant-call", "LoopInvariantCall",
   "A pure or const call in a loop has arguments that do not change in the loop.",
   "A call in a loop condition or body whose arguments are loop-invariant returns the same "
   "value on every iteration, the classic `i < strlen(s)`.",
   "The compiler can hoist such a call out of the loop when the callee is const, or when it is "
   "pure and the loop writes no memory the callee might read; the message says whether the "
   "call is hoistable or which store blocks it. Computing the value once before the loop turns "
   "a loop that is quadratic in the length of the data into a linear one, whatever the "
   "optimiser manages to prove."},
};

/* The texts for check: its own entry, or that of the longest check it
 * refines (`misuse-void` → `misuse`), or NULL for a check purist does not
 * document. */
static const sarif_rule_text *sarif_rule_text_for(const char *check)
{
  const sarif_rule_text *best = NULL;
  size_t best_len = 0;
  size_t n = sizeof sarif_rule_texts / sizeof *sarif_rule_texts;
  for (size_t i = 0; i < n; i++) {
    const char *c = sarif_rule_texts[i].check;
    size_t len = strlen(c);
    if (strcmp(check, c) == 0) return &sarif_rule_texts[i];
    if (strncmp(check, c, len) == 0 && check[len] == '-' && len > best_len) {
      best = &sarif_rule_texts[i];
      best_len = len;
    }
  }
  return best;
}

/* Appends s in PascalCase, dropping '-': "misuse-void" → "MisuseVoid". */
static void sarif_pascal(strbuf *b, const char *s)
{
  bool up = true;
  for (; *s; s++) {
    if (*s == '-' || *s == '_') { up = true; continue; }
    char c[2] = {up ? (char)toupper((unsigned char)*s) : *s, '\0'};
    sb_puts(b, c);
    up = false;
  }
}

/* A SARIF message or multiformatMessageString: {"text": s}. */
static json_t *sarif_text(const char *s)
{
  json_t *o = json_object();
  json_object_set_new(o, "text", diag_json_str(s));
  return o;
}

/* The SARIF level of a severity. */
static const char *sarif_level(diag_severity s)
{
  return diag_severity_name(s);   /* SARIF's levels share GCC's names */
}

/* The reportingDescriptor for check; `level` is its default level, the
 * severity its findings have in this log. */
static json_t *sarif_rule(const char *check, diag_severity level)
{
  const sarif_rule_text *t = sarif_rule_text_for(check);
  strbuf id = {0}, name = {0}, generic = {0};
  sb_printf(&id, "purist-%s", check);
  if (t) {
    sb_puts(&name, t->name);
    if (strcmp(check, t->check) != 0) sarif_pascal(&name, check + strlen(t->check));
  } else {
    sarif_pascal(&name, check);
    sb_printf(&generic, "purist finding of kind '%s'.", check);
  }
  json_t *r = json_object();
  json_object_set_new(r, "id", json_string(sb_str(&id)));
  json_object_set_new(r, "name", json_string(sb_str(&name)));
  json_object_set_new(r, "shortDescription", sarif_text(t ? t->short_text : sb_str(&generic)));
  json_object_set_new(r, "fullDescription", sarif_text(t ? t->full_text : sb_str(&generic)));
  json_object_set_new(r, "help", sarif_text(t ? t->help : sb_str(&generic)));
  char *uri = xasprintf("%schecks/%s.md", PURIST_DOCS_URL, check);   /* every check has a page */
  json_object_set_new(r, "helpUri", json_string(uri));
  free(uri);
  json_t *conf = json_object();
  json_object_set_new(conf, "level", json_string(sarif_level(level)));
  json_object_set_new(r, "defaultConfiguration", conf);
  sb_free(&id);
  sb_free(&name);
  sb_free(&generic);
  return r;
}

/* Appends path percent-encoded for a URI: RFC 3986 unreserved characters
 * and '/' stay, every other byte becomes %XX. */
static void sarif_uri_escape(strbuf *b, const char *path)
{
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (isalnum(*p) || strchr("-._~/", *p)) {
      char c[2] = {(char)*p, '\0'};
      sb_puts(b, c);
    } else {
      sb_printf(b, "%%%02X", *p);
    }
  }
}

/* The artifactLocation of a printed path: relative to SRCROOT, or a file:
 * URI when absolute. */
static json_t *sarif_artifact(const char *file)
{
  strbuf uri = {0};
  if (file[0] == '/') sb_puts(&uri, "file://");
  sarif_uri_escape(&uri, file);
  json_t *a = json_object();
  json_object_set_new(a, "uri", json_string(sb_str(&uri)));
  if (file[0] != '/') json_object_set_new(a, "uriBaseId", json_string("SRCROOT"));
  sb_free(&uri);
  return a;
}

/* A physicalLocation, its region left out when the line is unknown (SARIF
 * lines and columns start at 1). */
static json_t *sarif_physical(const char *file, unsigned line, unsigned col)
{
  json_t *p = json_object();
  json_object_set_new(p, "artifactLocation", sarif_artifact(file));
  if (line) {
    json_t *r = json_object();
    json_object_set_new(r, "startLine", json_integer(line));
    if (col) json_object_set_new(r, "startColumn", json_integer(col));
    json_object_set_new(p, "region", r);
  }
  return p;
}

/* The result's location: the place, and the function as a logical
 * location so viewers can group by function. */
static json_t *sarif_location(const diag *d)
{
  json_t *loc = json_object();
  if (d->file[0]) json_object_set_new(loc, "physicalLocation", sarif_physical(d->file, d->line, d->column));
  if (d->function[0]) {
    json_t *ll = json_object();
    json_object_set_new(ll, "name", diag_json_str(d->function));
    json_object_set_new(ll, "kind", json_string("function"));
    json_object_set_new(loc, "logicalLocations", json_pack("[o]", ll));
  }
  return loc;
}

/* relatedLocations, numbered from 1 in the order of the witness chain. */
static json_t *sarif_related(const diag *d)
{
  json_t *a = json_array();
  for (size_t i = 0; i < d->related.n; i++) {
    const diag_related *r = &d->related.v[i];
    json_t *loc = json_object();
    json_object_set_new(loc, "id", json_integer((json_int_t)i + 1));
    if (r->file[0]) json_object_set_new(loc, "physicalLocation", sarif_physical(r->file, r->line, r->column));
    json_object_set_new(loc, "message", sarif_text(r->message));
    json_array_append_new(a, loc);
  }
  return a;
}

/* XXH64 of the finding's identity and its ordinal among findings with the
 * same identity (so two equal findings in one function stay distinct), as
 * 16 hex digits. */
static char *sarif_fingerprint(const char *key, unsigned ordinal)
{
  char *s = xasprintf("%s\x1f%u", key, ordinal);
  char *hex = xasprintf("%016llx", (unsigned long long)XXH64(s, strlen(s), 0));
  free(s);
  return hex;
}

/* The result for d: rule, level, message, location, witness chain and
 * fingerprint; key is diag_key of d, ordinal its rank among equal keys. */
static json_t *sarif_result(const diag *d, size_t rule_index, const char *key, unsigned ordinal)
{
  json_t *r = json_object();
  char *id = xasprintf("purist-%s", d->check);
  json_object_set_new(r, "ruleId", json_string(id));
  free(id);
  json_object_set_new(r, "ruleIndex", json_integer((json_int_t)rule_index));
  json_object_set_new(r, "level", json_string(sarif_level(d->severity)));
  json_object_set_new(r, "message", sarif_text(d->message));
  json_object_set_new(r, "locations", json_pack("[o]", sarif_location(d)));
  if (d->related.n) json_object_set_new(r, "relatedLocations", sarif_related(d));
  char *fp = sarif_fingerprint(key, ordinal);
  json_object_set_new(r, "partialFingerprints", json_pack("{ss}", SARIF_FINGERPRINT, fp));
  free(fp);
  /* The function's C23 class (issue 15): which of [[unsequenced]] /
   * [[reproducible]] its body keeps, beside the GNU class in the message. */
  json_t *props = json_object();
  if (d->c23) json_object_set_new(props, "c23", json_string(d->c23));
  if (d->gain >= 0) {   /* what a suggestion buys (issue 19): code-scanning UIs sort by it */
    json_object_set_new(props, "gain", json_integer(d->gain));
    json_object_set_new(props, "publicApi", json_boolean(d->public_api));
  }
  if (json_object_size(props)) json_object_set_new(r, "properties", props);
  else json_decref(props);
  return r;
}

/* The distinct checks of the list, sorted, each with the severity of its
 * first finding; rule i of the log is checks[i]. */
typedef struct { const char *check; diag_severity level; } sarif_check;
typedef VEC(sarif_check) sarif_checks;

/* Orders checks by name. */
static int sarif_check_cmp(const void *a, const void *b)
{
  return strcmp(((const sarif_check *)a)->check, ((const sarif_check *)b)->check);
}

/* The distinct checks of l, sorted by name; the caller frees the vector
 * (the names belong to l). */
static sarif_checks sarif_collect_checks(const diag_list *l)
{
  sarif_checks c = {0};
  for (size_t i = 0; i < l->n; i++) {
    sarif_check k = {l->v[i].check, l->v[i].severity};
    if (!c.n || !bsearch(&k, c.v, c.n, sizeof k, sarif_check_cmp)) {
      vec_push(&c, k);
      qsort(c.v, c.n, sizeof k, sarif_check_cmp);   /* few checks: cheap */
    }
  }
  return c;
}

/* The index of check, which must be in c, among the rules. */
static size_t sarif_rule_index(const sarif_checks *c, const char *check)
{
  sarif_check k = {check, DIAG_NOTE};
  const sarif_check *hit = bsearch(&k, c->v, c->n, sizeof k, sarif_check_cmp);
  return (size_t)(hit - c->v);
}

/* originalUriBaseIds: SRCROOT is the root as a file: URI ending in '/'. */
static json_t *sarif_base_ids(const char *root)
{
  strbuf uri = {0};
  if (strncmp(root, "file:", 5) == 0) {
    sb_puts(&uri, root);
  } else {
    sb_puts(&uri, "file://");
    sarif_uri_escape(&uri, root);
  }
  if (uri.n == 0 || sb_str(&uri)[uri.n - 1] != '/') sb_puts(&uri, "/");
  json_t *ids = json_pack("{s{ss}}", "SRCROOT", "uri", sb_str(&uri));
  sb_free(&uri);
  return ids;
}

/* tool.driver: purist, its version and home, and one rule per check. */
static json_t *sarif_driver(const sarif_checks *c, const char *tool_version)
{
  json_t *rules = json_array();
  for (size_t i = 0; i < c->n; i++) json_array_append_new(rules, sarif_rule(c->v[i].check, c->v[i].level));
  json_t *drv = json_object();
  json_object_set_new(drv, "name", json_string("purist"));
  if (tool_version) json_object_set_new(drv, "version", json_string(tool_version));
  json_object_set_new(drv, "informationUri", json_string(PURIST_HOMEPAGE));
  json_object_set_new(drv, "rules", rules);
  return drv;
}

/* The results, each with its ordinal among findings of equal identity. */
static json_t *sarif_results(const diag_list *l, const sarif_checks *c)
{
  json_t *results = json_array();
  strtab *keys = strtab_new();
  VEC(unsigned) seen = {0};
  for (size_t i = 0; i < l->n; i++) {
    const diag *d = &l->v[i];
    char *key = diag_key(d->check, d->function, d->message);
    uint32_t id = strtab_intern(keys, key);
    while (seen.n <= id) vec_push(&seen, 0u);
    json_array_append_new(results, sarif_result(d, sarif_rule_index(c, d->check), key, seen.v[id]++));
    free(key);
  }
  vec_free(&seen);
  strtab_free(keys);
  return results;
}

/* One toolExecutionNotification: a TU purist could not analyse, at its
 * file, with the reason as a property a script can switch on. */
static json_t *sarif_not_analysed(const run_na *na)
{
  json_t *n = json_object();
  json_object_set_new(n, "level", json_string(na->reason == RUN_NA_SKIPPED ? "note" : "error"));
  json_object_set_new(n, "message", sarif_text(na->message));
  json_t *loc = json_object();
  if (na->file[0]) json_object_set_new(loc, "physicalLocation", sarif_physical(na->file, 0, 0));
  json_object_set_new(n, "locations", json_pack("[o]", loc));
  json_object_set_new(n, "descriptor", json_pack("{ss}", "id", "purist-not-analysed"));
  json_object_set_new(n, "properties", json_pack("{ss}", "reason", run_na_reason_name(na->reason)));
  return n;
}

/* invocations: one, successful unless a TU was not analysed (one left
 * out on purpose, a probe or --skip, is a note and no failure); one
 * notification per such TU, so a code-scanning service shows the run as
 * incomplete instead of clean. */
static json_t *sarif_invocations(const run_info *ri)
{
  json_t *inv = json_object();
  size_t n = ri ? ri->not_analysed.n : 0;
  json_object_set_new(inv, "executionSuccessful", json_boolean(!run_info_failed(ri)));
  if (n) {
    json_t *notes = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(notes, sarif_not_analysed(&ri->not_analysed.v[i]));
    json_object_set_new(inv, "toolExecutionNotifications", notes);
  }
  return json_pack("[o]", inv);
}

int diag_print_sarif(FILE *out, const diag_list *l, const char *root_uri,
                     const char *tool_version, const run_info *ri)
{
  sarif_checks checks = sarif_collect_checks(l);
  json_t *run = json_object();
  json_object_set_new(run, "tool", json_pack("{so}", "driver", sarif_driver(&checks, tool_version)));
  if (ri && ri->command) {
    strbuf id = {0};
    run_info_automation_id(&id, ri);
    json_object_set_new(run, "automationDetails", json_pack("{ss}", "id", sb_str(&id)));
    sb_free(&id);
  }
  json_object_set_new(run, "invocations", sarif_invocations(ri));
  if (root_uri) json_object_set_new(run, "originalUriBaseIds", sarif_base_ids(root_uri));
  json_object_set_new(run, "results", sarif_results(l, &checks));
  json_t *log = json_object();
  json_object_set_new(log, "$schema", json_string(SARIF_SCHEMA));
  json_object_set_new(log, "version", json_string("2.1.0"));
  json_object_set_new(log, "runs", json_pack("[o]", run));
  int rc = json_dumpf(log, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 ? -1 : 0;
  fputc('\n', out);
  json_decref(log);
  vec_free(&checks);
  return ferror(out) ? -1 : rc;
}
