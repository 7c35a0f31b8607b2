/* progmemo.c — check's findings of a whole program, kept (progmemo.h). */
#include "cli/progmemo.h"
#include "cli/cmd.h"
#include "cli/inputs.h"
#include "link/c23.h"
#include "util/bytes.h"
#include <string.h>
#include <xxhash.h>

/* Files that hold summaries (built by purist cc: objects, archives,
 * binaries) are linked, not parsed (cmd_analyze): no cache, nothing kept.
 * Going through the parse for them said "not a C file" (cc/cc_build). */
bool progmemo_applies(const cli_opts *o)
{
  if (o->cmd != CMD_CHECK || o->with_suggest || o->with_explain || o->output || o->write_baseline || o->no_cache)
    return false;
  for (size_t i = 0; i < o->files.n; i++)
    if (inputs_is_summary_file(o->files.v[i])) return false;
  return true;
}

static void pm_str(XXH3_state_t *st, const char *s)
{
  uint64_t n = s ? strlen(s) + 1 : 0;   /* NULL and "" differ */
  XXH3_128bits_update(st, &n, sizeof n);
  if (s) XXH3_128bits_update(st, s, n);
}

static void pm_u64(XXH3_state_t *st, uint64_t v)
{
  XXH3_128bits_update(st, &v, sizeof v);
}

/* Everything the link, the solve (cmd_solve) and checks_misuse read
 * besides the summaries: the options of cmd_solve and checks_opts. */
void progmemo_key(const cli_opts *o, const char *root, const pipeline_result *res, size_t njobs,
                  uint64_t key[2])
{
  XXH3_state_t *st = XXH3_createState();
  XXH3_128bits_reset(st);
  pm_str(st, "purist check findings 1");
  pm_str(st, root);
  pm_u64(st, (uint64_t)o->strict | (uint64_t)o->whole_program << 1 | (uint64_t)o->cheats_as_errors << 2 |
                 (uint64_t)cli_std_attrs(o) << 3 | (uint64_t)o->all << 4 | (uint64_t)o->verbose << 5 |
                 (uint64_t)o->quiet << 6);
  pm_u64(st, o->libraries.n);
  for (size_t i = 0; i < o->libraries.n; i++) pm_str(st, o->libraries.v[i]);
  pm_u64(st, (uint64_t)res->failed);
  pm_u64(st, (uint64_t)res->skipped);
  pm_u64(st, njobs);
  for (size_t i = 0; i < njobs; i++) {
    const cache_lazy *z = &res->lazy[i];
    pm_u64(st, z->digest[0]);
    pm_u64(st, z->digest[1]);
  }
  XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  key[0] = h.high64;
  key[1] = h.low64;
}

/* A string or NULL: 0, else its length + 1 and its bytes. */
static void pm_put(bytes *b, const char *s)
{
  size_t n = s ? strlen(s) : 0;
  bytes_uleb(b, s ? n + 1 : 0);
  if (s) bytes_raw(b, s, n);
}

static char *pm_get(bytes_reader *r)
{
  uint64_t n = bytes_get_uleb(r);
  if (r->bad || !n) return NULL;
  if ((uint64_t)(r->end - r->p) < n - 1) { r->bad = 1; return NULL; }
  char *s = xstrndup((const char *)r->p, (size_t)(n - 1));
  r->p += n - 1;
  return s;
}

/* d->c23 is one of c23_class_name's static strings (or NULL). */
static uint64_t pm_c23_code(const char *c23)
{
  for (int c = C23_UNSEQUENCED; c <= C23_NONE; c++)
    if (c23 && !strcmp(c23, c23_class_name((c23_class)c))) return (uint64_t)c + 1;
  return 0;
}

unsigned char *progmemo_encode(const char *said, const diag_list *l, size_t *n)
{
  bytes b = {0};
  pm_put(&b, said);
  bytes_uleb(&b, l->n);
  for (size_t i = 0; i < l->n; i++) {
    const diag *d = &l->v[i];
    pm_put(&b, d->check);
    bytes_uleb(&b, (uint64_t)d->severity);
    pm_put(&b, d->file);
    pm_put(&b, d->abs_file);
    bytes_uleb(&b, d->line);
    bytes_uleb(&b, d->column);
    pm_put(&b, d->function);
    pm_put(&b, d->message);
    bytes_uleb(&b, d->related.n);
    for (size_t k = 0; k < d->related.n; k++) {
      const diag_related *r = &d->related.v[k];
      pm_put(&b, r->file);
      pm_put(&b, r->abs_file);
      bytes_uleb(&b, r->line);
      bytes_uleb(&b, r->column);
      pm_put(&b, r->message);
    }
    pm_put(&b, d->decl_abs_file);
    bytes_uleb(&b, d->decl_line);
    bytes_uleb(&b, pm_c23_code(d->c23));
    bytes_uleb(&b, (uint64_t)(int64_t)d->gain + 1);   /* gain >= -1 */
    bytes_uleb(&b, d->public_api);
  }
  *n = b.n;
  return b.v;
}

/* One diagnostic from r into d (zeroed); r->bad on a malformed one. */
static void pm_get_diag(bytes_reader *r, diag *d)
{
  d->check = pm_get(r);
  uint64_t sev = bytes_get_uleb(r);
  if (sev > DIAG_ERROR) r->bad = 1;
  d->severity = (diag_severity)sev;
  d->file = pm_get(r);
  d->abs_file = pm_get(r);
  d->line = (unsigned)bytes_get_uleb(r);
  d->column = (unsigned)bytes_get_uleb(r);
  d->function = pm_get(r);
  d->message = pm_get(r);
  uint64_t nr = bytes_get_uleb(r);
  for (uint64_t k = 0; !r->bad && k < nr; k++) {
    diag_related x = {0};
    x.file = pm_get(r);
    x.abs_file = pm_get(r);
    x.line = (unsigned)bytes_get_uleb(r);
    x.column = (unsigned)bytes_get_uleb(r);
    x.message = pm_get(r);
    vec_push(&d->related, x);
  }
  d->decl_abs_file = pm_get(r);
  d->decl_line = (unsigned)bytes_get_uleb(r);
  uint64_t c = bytes_get_uleb(r);
  if (c > (uint64_t)C23_NONE + 1) r->bad = 1;
  d->c23 = c ? c23_class_name((c23_class)(c - 1)) : NULL;
  d->gain = (int)((int64_t)bytes_get_uleb(r) - 1);
  d->public_api = bytes_get_uleb(r) != 0;
}

int progmemo_decode(const unsigned char *blob, size_t n, char **said, diag_list *l)
{
  bytes_reader r = { blob, blob + n, 0 };
  diag_list got = {0};
  char *s = pm_get(&r);
  uint64_t nd = bytes_get_uleb(&r);
  if (nd > n) r.bad = 1;   /* each takes bytes: a count past that is malformed */
  for (uint64_t i = 0; !r.bad && i < nd; i++) {
    diag d = {0};
    pm_get_diag(&r, &d);
    vec_push(&got, d);   /* freed with the list if malformed */
  }
  if (r.bad || r.p != r.end) {
    free(s);
    diag_list_free(&got);
    return -1;
  }
  *said = s;
  *l = got;
  return 0;
}
