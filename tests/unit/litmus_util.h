/* litmus_util.h - helpers shared by the front-end unit tests.
 * SPDX-License-Identifier: MIT
 */
#ifndef LITMUS_UTIL_H
#define LITMUS_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"
#include "litmus/ast.h"
#include "../roundtrip.h"

/* A text parsed as the file "t.litmus", with its messages kept. */
typedef struct parsed {
  lc_source src;
  lc_diag d;
  lt_test *t;
} parsed;

static inline lt_test *parse_n(parsed *p, const char *text, size_t len) {
  lc_source_from_string(&p->src, "t.litmus", text, len);
  lc_diag_init(&p->d, &p->src, NULL);
  p->t = lt_parse(&p->src, &p->d);
  return p->t;
}

static inline lt_test *parse_text(parsed *p, const char *text) {
  return parse_n(p, text, strlen(text));
}

static inline void parsed_fini(parsed *p) {
  lt_test_free(p->t);
  lc_diag_fini(&p->d);
  lc_source_fini(&p->src);
}

static inline const char *first_error(const parsed *p) {
  const char *e = lc_diag_first_error(&p->d);
  return e ? e : "(no error)";
}

/* The i-th message of severity sev, or "(none)". */
static inline const char *message(const parsed *p, lc_severity sev, size_t i) {
  for (size_t k = 0; k < p->d.msgs.n; k++)
    if (p->d.msgs.v[k].sev == sev && i-- == 0) return p->d.msgs.v[k].text;
  return "(none)";
}

/* One malformed input and the one error it must give, exactly. */
typedef struct bad_case {
  const char *id;
  const char *text;
  const char *error;
} bad_case;

/* Runs every case and reports all mismatches before failing. */
static inline void check_bad_cases(const bad_case *cases, size_t n) {
  int failed = 0;
  for (size_t i = 0; i < n; i++) {
    parsed p;
    parse_text(&p, cases[i].text);
    const char *got = first_error(&p);
    if (p.t || p.d.nerrors != 1 || strcmp(got, cases[i].error) != 0) {
      print_error("%s: expected\n    %s\n  got (%d errors%s)\n    %s\n", cases[i].id, cases[i].error,
                  p.d.nerrors, p.t ? ", and a test" : "", got);
      failed++;
    }
    parsed_fini(&p);
  }
  assert_int_equal(failed, 0);
}

/* A one-thread test around one code cell, with `x`, `y` and `z`
 * initialised and a condition that names nothing. */
#define ONE_CELL(code) \
  "PTX t\n{\nx=0; y=0; z=0;\n}\n P0@cta 0,gpu 0 ;\n " code " ;\nexists (true)\n"

/* Parses ONE_CELL(code) and returns its instruction (the test stays in p). */
static inline const lt_instr *parse_instr(parsed *p, const char *code) {
  char text[512];
  snprintf(text, sizeof text, ONE_CELL("%s"), code);
  if (!parse_text(p, text)) {
    print_error("'%s' does not parse: %s\n", code, first_error(p));
    fail();
  }
  assert_int_equal(p->t->nrows, 1);
  assert_non_null(p->t->threads[0].cells[0].instr);
  return p->t->threads[0].cells[0].instr;
}

#endif
