/* cleanup.h — a temporary directory that goes away on every way out.
 *
 * purist impact builds a copy of the user's tree under $TMPDIR. It must not
 * stay behind: not after a normal run, not after an error, not after
 * Ctrl-C or a kill. The normal paths call cleanup_rmtree themselves; for
 * SIGINT, SIGTERM and SIGHUP a handler kills the compilers still running
 * (each in a process group of its own), removes the directory and dies of
 * the same signal, so the shell sees the usual exit status.
 *
 * A signal handler can only reach process-wide state, so this module keeps
 * the one registered directory and the running children in static storage
 * (the exception DESIGN.md §5 allows a runtime facility; everything here is
 * async-signal-safe). One directory at a time. */
#ifndef PURIST_CLEANUP_H
#define PURIST_CLEANUP_H
#include <stdbool.h>
#include <sys/types.h>

/* Removes path and everything under it without following symlinks.
 * Async-signal-safe (no allocation, no stdio). Returns 0 or -1 with errno;
 * a path that does not exist counts as removed. */
int cleanup_rmtree(const char *path);
/* The same for name relative to the open directory dirfd (name itself is
 * never followed if a symlink). */
int cleanup_rmtree_at(int dirfd, const char *name);

/* Registers dir (copied; absolute, shorter than 4096 bytes) for removal on
 * SIGINT, SIGTERM and SIGHUP, and installs the handlers. Returns 0, or -1
 * if the path is too long. */
int cleanup_install(const char *dir);
/* Restores the previous handlers and forgets the directory (call it before
 * removing the directory yourself). */
void cleanup_uninstall(void);

/* A child started in its own process group: killed (the whole group) if a
 * signal arrives before cleanup_child_done. Returns a slot for
 * cleanup_child_done, or -1 if the table is full (the child is then not
 * tracked, only waited for). Kills the child at once if a signal already
 * arrived. */
int cleanup_child_add(pid_t pid);
void cleanup_child_done(int slot);
/* True once a signal started the cleanup: start no more work. */
bool cleanup_dying(void);

/* Removes the scratch directories that runs killed by SIGKILL left in tmp
 * (issue 23 item 16): "purist-verify.PID-*" and "purist-impact-PID-*"
 * whose process PID is gone, that belong to this user and have not
 * changed for a minute (a run of another PID namespace sharing tmp is
 * still writing to its own). Called by verify and impact at start. */
void cleanup_sweep_stale(const char *tmp);

#endif
