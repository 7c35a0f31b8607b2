/* worker_proto.c — see worker_proto.h. Every read is bounds-checked
 * (util/bytes.h): a reply cut short by a dying worker is refused. */
#include "parse/worker_proto.h"
#include <string.h>

static void wp_put_str(bytes *b, const char *s)
{
  size_t n = strlen(s);
  bytes_uleb(b, n);
  bytes_raw(b, s, n);
}

/* A fresh copy of a length-prefixed string, or NULL (r->bad set). */
static char *wp_get_str(bytes_reader *r)
{
  uint64_t n = bytes_get_uleb(r);
  if (r->bad || (uint64_t)(r->end - r->p) < n) { r->bad = 1; return NULL; }
  char *s = xstrndup((const char *)r->p, (size_t)n);
  r->p += n;
  return s;
}

void wproto_job_encode(bytes *b, const fe_job *job, bool want_deps)
{
  wp_put_str(b, job->dir);
  wp_put_str(b, job->file);
  bytes_uleb(b, (uint64_t)job->argc);
  for (int i = 0; i < job->argc; i++) wp_put_str(b, job->argv[i]);
  bytes_uleb(b, want_deps);
  bytes_uleb(b, (uint64_t)job->cmdc);   /* the compiler: the worker's view of the preprocessor (ccview.c) */
  for (int i = 0; i < job->cmdc; i++) wp_put_str(b, job->cmd[i]);
  size_t vlen = 0;
  const char *view = fe_ccview_text_for(job, &vlen);   /* asked here once, not again in each worker */
  bytes_uleb(b, view != NULL);
  wp_put_str(b, view ? view : "");
}

int wproto_job_decode(const unsigned char *buf, size_t len, fe_job *job, bool *want_deps)
{
  bytes_reader r = { buf, buf + len, 0 };
  memset(job, 0, sizeof *job);
  job->dir = wp_get_str(&r);
  job->file = wp_get_str(&r);
  uint64_t argc = bytes_get_uleb(&r);
  if (!r.bad && argc <= len) {   /* each argument takes a byte at least */
    job->argv = xcalloc((size_t)argc + 1, sizeof *job->argv);
    for (; (uint64_t)job->argc < argc && !r.bad; job->argc++) job->argv[job->argc] = wp_get_str(&r);
  } else {
    r.bad = 1;
  }
  *want_deps = bytes_get_uleb(&r) != 0;
  uint64_t cmdc = bytes_get_uleb(&r);
  if (!r.bad && cmdc <= len) {
    job->cmd = xcalloc((size_t)cmdc + 1, sizeof *job->cmd);
    for (; (uint64_t)job->cmdc < cmdc && !r.bad; job->cmdc++) job->cmd[job->cmdc] = wp_get_str(&r);
  } else {
    r.bad = 1;
  }
  bool has_view = bytes_get_uleb(&r) != 0;
  char *view = wp_get_str(&r);
  if (!r.bad) fe_ccview_preset(job, has_view ? view : NULL, view ? strlen(view) : 0);
  free(view);
  if (r.bad || r.p != r.end) { wproto_job_free(job); return -1; }
  return 0;
}

void wproto_job_free(fe_job *job)
{
  for (int i = 0; i < job->argc; i++) free(job->argv[i]);
  free(job->argv);
  for (int i = 0; i < job->cmdc; i++) free(job->cmd[i]);
  free(job->cmd);
  free(job->dir);
  free(job->file);
  memset(job, 0, sizeof *job);
}

void wproto_reply_encode(bytes *b, fe_status st, const sum_tu *sum, const fe_msgs *msgs, const fe_deps *deps)
{
  bytes_uleb(b, (uint64_t)st);
  size_t slen = 0;
  unsigned char *enc = sum ? summary_encode(sum, &slen) : NULL;
  bytes_uleb(b, sum != NULL);
  bytes_uleb(b, slen);
  bytes_raw(b, enc, slen);
  free(enc);
  bytes_uleb(b, msgs->n);
  for (size_t i = 0; i < msgs->n; i++) wp_put_str(b, msgs->v[i]);
  bytes_uleb(b, deps ? deps->n : 0);
  for (size_t i = 0; deps && i < deps->n; i++) {
    wp_put_str(b, deps->v[i].path);
    bytes_le(b, deps->v[i].size, 8);
    bytes_le(b, deps->v[i].hash, 8);
    bytes_uleb(b, deps->v[i].main);
  }
}

/* The summary part of a reply: *sum, or NULL if the worker had none. */
static int wp_get_summary(bytes_reader *r, sum_tu **sum)
{
  uint64_t has = bytes_get_uleb(r), slen = bytes_get_uleb(r);
  if (r->bad || (uint64_t)(r->end - r->p) < slen) return -1;
  if (has) {
    size_t pos = 0;
    char *err = NULL;
    *sum = summary_decode(r->p, (size_t)slen, &pos, &err);
    free(err);
    if (!*sum || pos != slen) return -1;
  }
  r->p += slen;
  return 0;
}

int wproto_reply_decode(const unsigned char *buf, size_t len, fe_status *st, sum_tu **sum, fe_msgs *msgs,
                        fe_deps *deps)
{
  bytes_reader r = { buf, buf + len, 0 };
  *sum = NULL;
  *st = (fe_status)bytes_get_uleb(&r);
  if (r.bad || *st > FE_FAILED || wp_get_summary(&r, sum) < 0) goto bad;
  fe_msgs m = {0};
  fe_deps d = {0};
  uint64_t n = bytes_get_uleb(&r);
  for (uint64_t i = 0; i < n && !r.bad; i++) {
    char *s = wp_get_str(&r);
    if (s) vec_push(&m, s);
  }
  n = bytes_get_uleb(&r);
  for (uint64_t i = 0; i < n && !r.bad; i++) {
    fe_dep e = { wp_get_str(&r), 0, 0, false };
    e.size = bytes_get_le(&r, 8);
    e.hash = bytes_get_le(&r, 8);
    e.main = bytes_get_uleb(&r) != 0;
    if (e.path) vec_push(&d, e);
  }
  if (r.bad || r.p != r.end) {
    fe_msgs_free(&m);
    fe_deps_free(&d);
    goto bad;
  }
  for (size_t i = 0; i < m.n; i++) vec_push(msgs, m.v[i]);
  vec_free(&m);
  if (deps) for (size_t i = 0; i < d.n; i++) vec_push(deps, d.v[i]);
  else for (size_t i = 0; i < d.n; i++) free(d.v[i].path);
  vec_free(&d);
  return 0;
bad:
  summary_free(*sum);
  *sum = NULL;
  return -1;
}
