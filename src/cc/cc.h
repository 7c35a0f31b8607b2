/* cc.h — the contract of src/cc/: `purist cc COMPILER ARGS…`, the compiler
 * launcher that puts each TU's summary into its object (section .purist)
 * and, on a link, into the sidecar beside the output.
 *
 * What the folder owns: reading a compiler command line (ccargs.c), running
 * the compile with its streams, status and signals (ccrun.c), the summary
 * server that keeps libclang loaded across a build's compiles and its
 * client (ccserver.c, ccclient.c), and making the summaries of a compile
 * (launcher.c). What it may call: the parse workers (parse/worker.h), the
 * front end, the ELF sections (elf/), util/. Nothing here is called by the
 * analysis; main.c and the light front (src/front/) call what is below.
 * ccrun.c, ccargs.c and ccclient.c link no libclang: the front runs them
 * for every compile. */
#ifndef PURIST_CC_H
#define PURIST_CC_H

/* Runs the compile argv[0..argc) unchanged (same arguments, standard
 * streams, exit status; signals to purist are passed on to it), then, if
 * it compiled C sources to objects, embeds each TU's summary in its object
 * (section .purist). A failure to summarise warns once on stderr and
 * leaves the object as the compiler wrote it; it never changes the exit
 * status. Returns the compiler's exit status (or re-raises its signal). */
int launcher_main(int argc, char **argv);

/* The same with the knowledge base read now: what a launcher does when no
 * summary server answers (`purist __cc-summarize COMPILER ARGS...` is this,
 * for the front, which cannot). */
void launcher_summaries_here(int argc, char **argv);
#define LAUNCHER_SUMMARIZE_ARGV1 "__cc-summarize"

/* The server process: `purist __cc-server NAME`. Returns once it listens
 * (exit status 0, also when another server already has NAME); the
 * listening process lives on, detached. */
int ccserver_main(int argc, char **argv);
#define CCSERVER_ARGV1 "__cc-server"

/* The compile argv[0..argc) as launcher_main documents it (same
 * arguments, streams, exit status, signals passed on). engine: the
 * executable that serves summaries (NULL: this one); here(argc, argv)
 * summarises the units when no server does. */
int ccrun_main(int argc, char **argv, const char *engine, void (*here)(int, char **));

#endif
