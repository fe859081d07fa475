/* diff-cli.h - litmus-check --diff-models A B (diff-cli.c;
 * docs/diff-models.md).
 * SPDX-License-Identifier: MIT
 */
#ifndef DIFF_CLI_H
#define DIFF_CLI_H

#include <stdbool.h>

/* Does the command line ask for --diff-models? */
bool diff_cli_wanted(int argc, char **argv);
/* The whole run of that mode; returns the exit status. */
int diff_cli_main(int argc, char **argv);

#endif
