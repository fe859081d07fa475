/* fuzz_lower.c - libFuzzer target for the front end and lowering: a
 * litmus test (PTX or C++) parsed, then lowered to events and paths.
 * SPDX-License-Identifier: MIT
 *
 * Besides no crash, no leak and no out-of-bounds access, it checks that a
 * refusal is an error value: a test lowering refuses gets at least one
 * error, one it accepts none.  Lowering gets a deadline (1 s), as
 * litmus-check's --timeout gives it.  Build and run: scripts/fuzz-parse lower.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec.h"
#include "litmus/ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lc_source src;
  lc_diag d;
  lc_source_from_string(&src, "fuzz.litmus", (const char *)data, size);
  lc_diag_init(&d, &src, NULL);
  lt_test *t = lt_parse(&src, &d);
  if (t) {
    lx_options lo = {2, LX_DEFAULT_MAX_PATHS, lc_now() + 1.0, 0, 1.0, 0};
    lx_program *p = lx_lower(t, &lo, &d);
    if (!p && d.nerrors == 0) {
      fprintf(stderr, "fuzz_lower: lowering refused a test without an error\n");
      abort();
    }
    if (p && d.nerrors != 0) {
      fprintf(stderr, "fuzz_lower: lowering accepted a test and reported an error\n");
      abort();
    }
    lx_program_free(p);
  }
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return 0;
}
