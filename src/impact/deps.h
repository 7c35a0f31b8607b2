/* deps.h — which TUs `purist impact` must compile: only a TU that reads a
 * file the plan edits can compile to other code (the attributes are all
 * that changes), so the others are neither compiled nor compared.
 *
 *   impact_edited ed;  impact_edited_init(&ed);
 *   impact_edited_add(&ed, copy_path);            // every edited file, in the copy
 *   impact_edited_seal(&ed);                      // then lookups, from any thread
 *   bool reads = impact_deps_read_any(rule_text, dir, &ed);
 *   impact_edited_fini(&ed);
 */
#ifndef PURIST_IMPACT_DEPS_H
#define PURIST_IMPACT_DEPS_H
#include <stdbool.h>
#include "util/vec.h"

typedef struct {
  VEC(char *) paths;   /* real paths, sorted by impact_edited_seal */
} impact_edited;

void impact_edited_init(impact_edited *e);
/* Adds a file (resolved to its real path; one that does not exist is
 * kept as given). */
void impact_edited_add(impact_edited *e, const char *path);
/* Sorts the files for lookups; after it, e is only read (threads may
 * share it). */
void impact_edited_seal(impact_edited *e);
void impact_edited_fini(impact_edited *e);

/* Is path (resolved to its real path) a file of e? */
bool impact_edited_has(const impact_edited *e, const char *path);

/* Does the make rule `target: dep dep \ ...` (what `cc -M` prints) list
 * a file of e? Relative dependencies are taken from dir. */
bool impact_deps_read_any(const char *rule, const char *dir, const impact_edited *e);

#endif
