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
/* --exhaustive (map-exhaustive.c): every program within bound spec (NULL:
 * the default) against m, with `jobs` threads (0: only count them); `models` names the models
 * and options for the report.  Returns the exit status. */
int map_exhaustive(const map_table *m, const map_check_options *o, const char *spec, int jobs,
                   const char *models);

#endif
