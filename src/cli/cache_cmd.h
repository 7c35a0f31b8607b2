/* cache_cmd.h — the summary cache on the command line. */
#ifndef PURIST_CACHE_CMD_H
#define PURIST_CACHE_CMD_H
#include "cache/cache.h"
#include "cli/options.h"

/* The cache the options ask for (none with --no-cache): see
 * project_cache_dir for where it lives. Never NULL; cache_free it. */
cache *cache_cmd_open(const cli_opts *o, const kb *k);
/* Prunes the cache to --cache-max-size if this run wrote to it, then
 * frees it (c may be NULL). */
void cache_cmd_close(const cli_opts *o, cache *c);
/* `purist cache stats|clean`: returns the exit status. */
int cache_cmd_run(const cli_opts *o);

#endif
