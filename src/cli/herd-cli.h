/* herd-cli.h - herd7's command line as litmus-check reads it: its
 * single-dash options (`-model x.cat`, `-conf ci.cfg`, `-show prop -o
 * DIR`, ...), configuration files and @index files, rewritten to
 * litmus-check's own options before getopt sees them (litmus-check(1),
 * "herd7's options").
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_HERD_CLI_H
#define LC_HERD_CLI_H

#include "lc.h"

typedef LC_VEC(char *) herd_strs;

/* argv with herd7's options rewritten; NULL after a message on stderr
 * (an option refused, a file unreadable).  Every string made, and the
 * array returned, go into `owned` (free each, then the vector). */
char **herd_argv(int argc, char **argv, int *nargc, herd_strs *owned);

/* herd7's -skipcheck and -through invalid: the model text[0..n) with the
 * checks named in `skip` (comma-separated; "*": every check) blanked
 * out, lines and columns kept (new, NUL-terminated).  The names asked
 * for that the text holds no check of are appended to `missing`. */
char *herd_skip_checks(const char *text, size_t n, const char *skip, lc_buf *missing);

#endif
