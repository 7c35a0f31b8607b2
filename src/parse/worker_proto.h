/* worker_proto.h — what a pipeline thread and its worker process say to
 * each other over their socket (parse/worker.h): frames of an 8-byte
 * little-endian length and a payload. A request is a job; a reply is the
 * job's status, summary (a summary record, docs/summary-format.md),
 * messages and, if asked, the files the TU read. */
#ifndef PURIST_WORKER_PROTO_H
#define PURIST_WORKER_PROTO_H
#include <stdbool.h>
#include "frontend/fe.h"
#include "util/bytes.h"

void wproto_job_encode(bytes *b, const fe_job *job, bool want_deps);
/* Fills job (free with wproto_job_free); -1 if buf is malformed. */
int wproto_job_decode(const unsigned char *buf, size_t len, fe_job *job, bool *want_deps);
void wproto_job_free(fe_job *job);

void wproto_reply_encode(bytes *b, fe_status st, const sum_tu *sum, const fe_msgs *msgs, const fe_deps *deps);
/* -1 if buf is malformed (then nothing is left to free). */
int wproto_reply_decode(const unsigned char *buf, size_t len, fe_status *st, sum_tu **sum, fe_msgs *msgs,
                        fe_deps *deps);

/* Sends one frame; 0, or -1 (the peer is gone: no SIGPIPE). */
int wproto_send(int fd, const bytes *payload);
/* Reads exactly n bytes; 0, or -1 at end of file or on an error. */
int wproto_read_full(int fd, void *buf, size_t n);

#endif
