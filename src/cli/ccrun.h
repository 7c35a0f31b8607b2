/* ccrun.h — the process side of `purist cc`, shared by the launcher's
 * front (src/front/: no libclang, what `purist cc` runs for every compile)
 * and the engine (cli/launcher.h): runs the compile, has its units
 * summarised (by the summary server, cli/ccserver.h, else by here()), and
 * on a link step moves the summaries to the sidecar. */
#ifndef PURIST_CCRUN_H
#define PURIST_CCRUN_H

/* The compile argv[0..argc) as launcher_main documents it (same
 * arguments, streams, exit status, signals passed on). engine: the
 * executable that serves summaries (NULL: this one); here(argc, argv)
 * summarises the units when no server does. */
int ccrun_main(int argc, char **argv, const char *engine, void (*here)(int, char **));

#endif
