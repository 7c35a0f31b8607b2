/* launcher.h — `purist cc COMPILER ARGS…`: the compiler launcher. */
#ifndef PURIST_LAUNCHER_H
#define PURIST_LAUNCHER_H

/* Runs the compile argv[0..argc) unchanged (same arguments, standard
 * streams, exit status; signals to purist are passed on to it), then, if
 * it compiled C sources to objects, embeds each TU's summary in its object
 * (section .purist). A failure to summarise warns once on stderr and
 * leaves the object as the compiler wrote it; it never changes the exit
 * status. Returns the compiler's exit status (or re-raises its signal). */
int launcher_main(int argc, char **argv);

#endif
