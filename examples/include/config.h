/*
** config.h - settings from built-in defaults and the environment.
*/
#ifndef EX_CONFIG_H
#define EX_CONFIG_H

#include "compiler.h"

/* Built-in default for KEY ("width", "gap", "column"), or -1 if unknown. */
int config_find(const char *key) EX_PURE;

/* Number of config_find() calls so far (reported with -v). */
unsigned long config_lookup_count(void);

/* $HOME, or "." when it is unset.  The string lives until exit. */
const char *config_home(void);

/* Tab width from $EX_TABWIDTH (1..16), 8 by default. */
int config_tab_width(void) EX_CONST;

/* Screen width from a "COLSxROWS" geometry, clamped to 20..200; 80 if
** GEOMETRY is malformed. */
int config_screen_width(const char *geometry);

/* After a failed open: whether it failed because the file does not exist. */
int config_missing_file(void);

#endif /* EX_CONFIG_H */
