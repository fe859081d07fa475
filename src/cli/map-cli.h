/* map-cli.h - litmus-check --lower and --check-mapping (map-cli.c).
 * SPDX-License-Identifier: MIT
 */
#ifndef MAP_CLI_H
#define MAP_CLI_H

#include <stdbool.h>

/* Does the command line ask for --lower or --check-mapping? */
bool map_cli_wanted(int argc, char **argv);
/* The whole run for those modes; returns the exit status. */
int map_cli_main(int argc, char **argv);

#endif
