/* replace.h — replacing a file's contents so that it is always whole.
 *
 * The new contents are written to an unnamed file (O_TMPFILE) in the
 * target's directory, synced, given a name beside the target
 * (".NAME.purist-PID") and renamed over it. A reader — or a `kill -9` at
 * any moment — sees the old file or the new one, never a part; only
 * between the link and the rename does a named temporary file exist, and
 * file_replace_clean_dir (called by the next fix) removes one whose
 * process is gone.
 * Where O_TMPFILE is not supported the named file is created first. */
#ifndef PURIST_REPLACE_H
#define PURIST_REPLACE_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Replaces dst by buf[0..len) with the owner, group and permissions of
 * like (the original's stat). Returns 0, or -1 with errno set and dst
 * untouched (EPERM: the owner could not be kept). If unchanged, like is
 * dst's own stat from before its contents were read: just before the
 * rename dst must still be that file with that size, modification and
 * change time, else -1 with errno ECANCELED (a user's edit meanwhile, an
 * editor's save by rename, is kept, not overwritten). */
int file_replace(const char *dst, const char *buf, size_t len, const struct stat *like, bool unchanged);

/* Removes the temporary files in dir that a replace left when its process
 * was killed between link and rename (".NAME.purist-PID" of a process
 * that is gone). `fix` calls it once for each directory of the files it
 * analysed, so one left beside a file it no longer edits goes too. */
void file_replace_clean_dir(const char *dir);

#endif
