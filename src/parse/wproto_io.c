/* wproto_io.c — the frames of worker_proto.h on a socket: apart from the
 * encodings so that the launcher's front (src/front/), which links no
 * libclang, can send them too (cc/ccserver.h). */
#include "parse/worker_proto.h"
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

int wproto_send(int fd, const bytes *payload)
{
  unsigned char head[8];
  for (int i = 0; i < 8; i++) head[i] = (unsigned char)((uint64_t)payload->n >> (8 * i));
  struct iovec iov[2] = { { head, 8 }, { payload->v, payload->n } };
  struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
  size_t left = 8 + payload->n;
  while (left) {
    ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL);   /* a dead peer: EPIPE, not a signal */
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    left -= (size_t)w;
    while (w > 0 && mh.msg_iovlen) {   /* skip what was sent */
      size_t take = (size_t)w < mh.msg_iov->iov_len ? (size_t)w : mh.msg_iov->iov_len;
      mh.msg_iov->iov_base = (char *)mh.msg_iov->iov_base + take;
      mh.msg_iov->iov_len -= take;
      w -= (ssize_t)take;
      if (!mh.msg_iov->iov_len) { mh.msg_iov++; mh.msg_iovlen--; }
    }
  }
  return 0;
}

int wproto_read_full(int fd, void *buf, size_t n)
{
  char *p = buf;
  while (n) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}
