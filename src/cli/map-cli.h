/* map-cli.h - litmus-check --lower and --check-mapping (map-cli.c).
 * SPDX-License-Identifier: MIT
 */
#ifndef MAP_CLI_H
#define MAP_CLI_H

#include <stdbool.h>

#include "map/check_mapping.h"

/* Does the command line ask for --lower or --check-mapping? */
bool map_cli_wanted(int argc, char **argv);
/* The whole run for those modes; returns the exit status. */
int map_cli_main(int argc, char **argv);
/* --shard K/N and --merge: a part of the search, or the report of parts. */
typedef struct map_shards {
  size_t shard, shards;     /* shards > 0: check programs shard, shard + shards, ...
                               and write their results as JSON lines */
  char *const *merge;       /* nmerge > 0: the report of these shard files */
  size_t nmerge;
} map_shards;

/* --exhaustive (map-exhaustive.c): every program within bound spec (NULL:
 * the default) against m, with `jobs` threads (0: only count them); `models` names the models
 * and options for the report; sh (or NULL) a shard to check or shards to
 * merge.  Returns the exit status. */
int map_exhaustive(const map_table *m, const map_check_options *o, const char *spec, int jobs,
                   const char *models, const map_shards *sh);

#endif
