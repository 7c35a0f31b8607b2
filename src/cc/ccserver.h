/* ccserver.h — the summary server of `purist cc` (issue 24 item 3).
 *
 * `purist cc` runs once per compile. Loading libclang and LLVM (dynamic
 * relocation, static constructors, the page faults of both) and forking a
 * parse worker from that fresh process cost about as much CPU as the
 * parse of a small TU itself. So the launcher hands the summaries to a
 * server that has all this done once: `purist __cc-server NAME`, started
 * on demand by the first compile, listening on an abstract unix socket
 * (no file to leave behind), ending after PURIST_CC_SERVER_IDLE seconds
 * (default 30) without a request. For each request it forks a child that
 * takes the compile's directory, environment, umask and standard error (the
 * descriptor is passed over the socket), makes the summaries exactly as the
 * launcher would (launcher_summaries: a parse worker per compile, the
 * same time limit, warnings to the build log), then answers one byte.
 *
 * The socket's name covers the user, the purist executable (path, inode,
 * size, times: a rebuilt purist gets a new server), PURIST_KB's files and
 * the server's own settings, so a server never answers with another
 * knowledge base. Both ends check the peer's uid. When no server answers,
 * the launcher summarises by itself as before: a server can make a compile
 * cheaper, never fail or change it. PURIST_CC_SERVER=0 turns it off.
 * PURIST_CC_SERVER_STATS=FILE (read when the server starts): at its end
 * the server appends "USER SYS" (CPU seconds of itself and its children)
 * to FILE, for bench/launcher.sh — that CPU is not a child of the build. */
#ifndef PURIST_CCSERVER_H
#define PURIST_CCSERVER_H
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

/* The reply: the summaries are made (warnings, if any, were written). */
#define CCSERVER_DONE 'k'

/* Asks the server (starting engine, NULL: this executable, if none
 * answers) to summarise the units of the compile argv[0..argc), which has
 * succeeded; waits for it. 0 when the server has done it; -1 when the
 * caller must do it itself. */
int ccclient_summaries(int argc, char **argv, size_t nunits, const char *engine);


#endif
