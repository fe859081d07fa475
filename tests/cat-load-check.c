/* cat-load-check.c - load a model and print its name and checks.
 * SPDX-License-Identifier: MIT
 *
 *   cat-load-check [-I DIR]... MODEL
 *
 * MODEL is a path or a name looked up as NAME.cat in the -I directories.
 * On success prints `model NAME` and one line per check (`check NAME` or
 * `flag NAME`) in file order, exit 0.  On failure prints the messages
 * (file:line:col: error: ..., and notes), one per line, on stderr, exit 2.
 * tests/e2e/models.sh compares both against expected files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"

int main(int argc, char **argv) {
  const char **search = calloc((size_t)argc + 1, sizeof *search);
  size_t ns = 0;
  const char *model = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-I") == 0 && i + 1 < argc) search[ns++] = argv[++i];
    else if (!model && argv[i][0] != '-') model = argv[i];
    else model = NULL, i = argc;
  }
  if (!model) {
    fprintf(stderr, "usage: cat-load-check [-I DIR]... MODEL\n");
    free(search);
    return 2;
  }
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load(model, search, &d);
  int rc = 0;
  if (!m) {
    for (size_t i = 0; i < d.msgs.n; i++) fprintf(stderr, "%s\n", d.msgs.v[i].text);
    rc = 2;
  } else {
    printf("model %s\n", cat_model_name(m));
    for (size_t i = 0; i < cat_model_nchecks(m); i++)
      printf("%s %s\n", cat_model_check_is_flag(m, i) ? "flag" : "check", cat_model_check_name(m, i));
  }
  cat_model_free(m);
  lc_diag_fini(&d);
  free(search);
  return rc;
}
