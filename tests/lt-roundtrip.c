/* lt-roundtrip.c - for each file: parse, print, parse the print, print
 * again; the two ASTs must be equal (lt_test_equal) and the two prints
 * identical.  Used by tests/corpus-roundtrip.sh.  Exit 0 when every file
 * passes, 1 when one does not, 2 when one does not parse.
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"
#include "litmus/ast.h"

static char *print(const lt_test *t) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print(&b, t);
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

/* 0 when path round-trips, else the exit status to report. */
static int check(const char *path) {
  lc_source src, again;
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
    goto out;
  }
  char *first = print(t);
  lc_source_from_string(&again, "<printed>", first, strlen(first));
  lc_diag d2;
  lc_diag_init(&d2, &again, NULL);
  lt_test *t2 = lt_parse(&again, &d2);
  if (!t2) {
    fprintf(stderr, "%s: the printed test does not parse: %s\n", path, lc_diag_first_error(&d2));
    status = 1;
  } else {
    char *second = print(t2);
    if (!lt_test_equal(t, t2)) {
      fprintf(stderr, "%s: the printed test parses to a different AST\n", path);
      status = 1;
    } else if (strcmp(first, second) != 0) {
      fprintf(stderr, "%s: printing is not idempotent\n--- first\n%s--- second\n%s", path, first,
              second);
      status = 1;
    }
    free(second);
  }
  lt_test_free(t2);
  lc_diag_fini(&d2);
  lc_source_fini(&again);
  free(first);
out:
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
