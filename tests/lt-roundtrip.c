/* lt-roundtrip.c - for each file: parse, print, parse the print, print
 * again; the two ASTs must be equal (lt_test_equal) and the two prints
 * identical.  Used by tests/corpus-roundtrip.sh.  Exit 0 when every file
 * passes, 1 when one does not round-trip, 2 when one does not parse.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "roundtrip.h"

/* 0 when path round-trips, else the exit status to report. */
static int check(const char *path) {
  lc_source src;
  if (lc_source_read(&src, path) < 0) {
    perror(path);
    return 2;
  }
  lc_diag d;
  lc_diag_init(&d, &src, NULL);   /* warnings are not this program's business */
  lt_test *t = lt_parse(&src, &d);
  int status = 0;
  if (!t) {
    fprintf(stderr, "%s\n", lc_diag_first_error(&d));
    status = 2;
  } else {
    char *why = rt_check(t);
    if (why) {
      fprintf(stderr, "%s: %s", path, why);
      status = 1;
    }
    free(why);
  }
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return status;
}

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) {
    int s = check(argv[i]);
    if (s > status) status = s;
  }
  return status;
}
