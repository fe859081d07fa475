/* fuzz_parse.c - libFuzzer target for the front end.
 * SPDX-License-Identifier: MIT
 *
 * Besides "no crash, no hang, no leak, no out-of-bounds read" it checks the
 * front end's promises on every input: a rejected input gets exactly one
 * error; an accepted one gets none, prints, parses back to an equal test
 * and prints the same again.  Build and run: scripts/fuzz-parse.
 */
#include <stdint.h>
#include <stdio.h>

#include "../roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lc_source src;
  lc_diag d;
  lc_source_from_string(&src, "fuzz.litmus", (const char *)data, size);
  lc_diag_init(&d, &src, NULL);
  lt_test *t = lt_parse(&src, &d);
  if (!t && d.nerrors != 1) {
    fprintf(stderr, "fuzz_parse: a rejected input gave %d errors\n", d.nerrors);
    abort();
  }
  if (t && d.nerrors != 0) {
    fprintf(stderr, "fuzz_parse: an accepted input reported an error\n");
    abort();
  }
  char *why = t ? rt_check(t) : NULL;
  if (why) {
    fprintf(stderr, "fuzz_parse: %s", why);
    abort();
  }
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return 0;
}
