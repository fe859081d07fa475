/* fuzz_map.c - libFuzzer target for the mapping tables' parser
 * (mappings/*.map, --check-mapping and --lower), validated for sm_90.
 * SPDX-License-Identifier: MIT
 *
 * A refused table must come with an error; an accepted one with none, and
 * it prints.  Build and run: scripts/fuzz-parse map.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "map/map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lc_source src;
  lc_diag d;
  lc_source_from_string(&src, "fuzz.map", (const char *)data, size);
  lc_diag_init(&d, &src, NULL);
  map_table *t = map_parse(&src, 90, &d);
  if ((!t) != (d.nerrors != 0)) {
    fprintf(stderr, "fuzz_map: %s table with %d errors\n", t ? "an accepted" : "a refused", d.nerrors);
    abort();
  }
  if (t) {
    lc_buf b;
    lc_buf_init(&b);
    map_print(&b, t);
    lc_buf_fini(&b);
  }
  map_table_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return 0;
}
