/* safefs.h — directories and files another local user cannot steer.
 *
 * The threat model (docs/decisions.md, "Another local user"): purist run
 * by user A never follows, trusts or writes through anything another user
 * B can change. A directory is trusted when it and every directory on the
 * way to it (symbolic links resolved one at a time, each checked where it
 * lies) is owned by root or A and is not writable by group or others —
 * except a sticky directory such as /tmp, where B cannot rename what A
 * owns. This is OpenSSH's StrictModes and git's safe.directory rule. A
 * group write bit counts only if the group is not A's private one (user
 * private groups and umask 002: the group named as A, with no other
 * member). */
#ifndef PURIST_SAFEFS_H
#define PURIST_SAFEFS_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* Opens directory path (O_DIRECTORY, close-on-exec), walking it from the
 * root one component at a time without following a symbolic link that an
 * untrusted directory holds. Every directory on the way must be trusted
 * (see above); the last one must belong to the user (geteuid) and not be
 * writable by group or others. With create, missing directories are made
 * (mode 0700). Returns the descriptor, or -1 with *why (caller frees) a
 * sentence naming the directory at fault ("/tmp/c is owned by user bob
 * (uid 1001), not by you"), and errno (ENOENT: it does not exist). */
int safefs_dir_open(const char *path, bool create, char **why);

/* Is the file st describes one that user A may trust: owned by A or root
 * and not writable by group or others? If not, *why (caller frees) says
 * which ("is owned by user bob (uid 1001)", "is writable by others"). */
bool safefs_trusted(const struct stat *st, char **why);

/* A user's name for messages: "bob (uid 1001)", or "uid 1001". Caller frees. */
char *safefs_owner_name(unsigned uid);

/* Creates a fresh file name.XXXXXX (random suffix) in directory dfd with
 * O_CREAT|O_EXCL|O_NOFOLLOW and mode; *tmp (caller frees) gets its name.
 * Returns the descriptor, or -1 with errno. */
int safefs_tmp_open(int dfd, const char *name, int mode, char **tmp);

#endif
