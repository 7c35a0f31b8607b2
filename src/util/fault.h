/* fault.h — fault injection for the writers of files that must stay whole.
 *
 * Each step of replacing a file (temporary file made, half written, all
 * written, synced, linked, renamed) calls fault_write_step. With the
 * environment variable PURIST_FAULT_AFTER_WRITE_STEP=N the process kills
 * itself with SIGKILL right after the Nth step, as `kill -9` would at that
 * moment: tests walk N over every step (tests/robust/fix_faults.sh) and
 * check that every file is old or new. With PURIST_FAULT_STOP=1 too, it
 * stops (SIGSTOP) there instead, so a test can edit a file in the middle
 * of a write and let it go on. Unset, a step costs one branch. */
#ifndef PURIST_FAULT_H
#define PURIST_FAULT_H

void fault_write_step(const char *what);

#endif
