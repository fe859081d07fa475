/* fuzz_kernel.c - libFuzzer target for the kernel reader (src/kernel/).
 * SPDX-License-Identifier: MIT
 *
 * Besides "no crash, no hang, no leak, no out-of-bounds read": a rejected
 * kernel file gets exactly one error, an accepted one none, and the test it
 * makes prints.  Build and run: scripts/fuzz-parse kernel.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lc_source src;
  lc_diag d;
  lc_source_from_string(&src, "fuzz.cu", (const char *)data, size);
  lc_diag_init(&d, &src, NULL);
  lt_test *t = kn_read(&src, NULL, &d);
  if (!t && d.nerrors != 1) {
    fprintf(stderr, "fuzz_kernel: a rejected input gave %d errors\n", d.nerrors);
    abort();
  }
  if (t && d.nerrors != 0) {
    fprintf(stderr, "fuzz_kernel: an accepted input reported an error\n");
    abort();
  }
  if (t) {
    lc_buf b;
    lc_buf_init(&b);
    lt_print(&b, t);
    lc_buf_fini(&b);
  }
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return 0;
}
