/* test_cli.c - what the programs share (src/cli/cli.c): messages with a
 * position print as they are and the others after the program's name;
 * a test file read, parsed and lowered, or why not; models along the
 * search path.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"

#ifndef LC_SRCDIR
#define LC_SRCDIR "."
#endif

/* What fn printed on a stream of its own; the caller frees it. */
typedef struct printed {
  char *text;
  size_t size;
  FILE *f;
} printed;

static void printed_open(printed *p) { p->f = open_memstream(&p->text, &p->size); }
static void printed_close(printed *p) { fclose(p->f); }

static void test_messages_with_and_without_position(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lc_error(&d, (lc_loc){"t.litmus", 3, 7}, "unknown register %s", "r9");
  lc_error(&d, (lc_loc){NULL, 0, 0}, "model '%s' not found", "nope");
  lc_warning(&d, (lc_loc){"m.cat", 0, 0}, "option unused");
  /* a model's message, its file name forgotten with the model */
  lc_error(&d, (lc_loc){"gone.cat", 2, 1}, "syntax error");
  d.msgs.v[3].loc.file = NULL;
  printed p;
  printed_open(&p);
  cli_print_messages(p.f, "prog", NULL, &d);
  printed_close(&p);
  assert_string_equal(p.text, "t.litmus:3:7: error: unknown register r9\n"
                              "prog: error: model 'nope' not found\n"
                              "m.cat: warning: option unused\n"
                              "gone.cat:2:1: error: syntax error\n");
  free(p.text);
  printed_open(&p);
  cli_print_messages(p.f, "prog", "x.litmus", &d);
  printed_close(&p);
  assert_string_equal(p.text, "t.litmus:3:7: error: unknown register r9\n"
                              "prog: x.litmus: error: model 'nope' not found\n"
                              "m.cat: warning: option unused\n"
                              "gone.cat:2:1: error: syntax error\n");
  free(p.text);
  lc_diag_fini(&d);
}

static void test_read_parse_lower(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lx_options lo = {LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS, 0, false, 0, 0};
  cli_test t;
  assert_int_equal(cli_test_read(&t, "prog", LC_SRCDIR "/litmus/MP.litmus", &lo, &d), 0);
  assert_true(t.read);
  assert_non_null(t.test);
  assert_non_null(t.prog);
  assert_ptr_equal(d.src, &t.src);
  assert_int_equal(d.nerrors, 0);
  cli_test_fini(&t);
  assert_null(t.test);
  /* without lo: parsed, not lowered */
  assert_int_equal(cli_test_read(&t, "prog", LC_SRCDIR "/litmus/MP.litmus", NULL, &d), 0);
  assert_non_null(t.test);
  assert_null(t.prog);
  cli_test_fini(&t);
  lc_diag_fini(&d);
}

static void test_unreadable_file(void **state) {
  (void)state;
  printed p;
  printed_open(&p);
  lc_diag d;
  lc_diag_init(&d, NULL, p.f);
  cli_test t;
  assert_int_equal(cli_test_read(&t, "prog", "no-such-dir/x.litmus", NULL, &d), -1);
  assert_false(t.read);
  assert_null(t.test);
  assert_int_equal(d.nerrors, 1);
  assert_null(d.msgs.v[0].loc.file);
  assert_string_equal(lc_diag_first_error(&d), "error: cannot read 'no-such-dir/x.litmus': No such file or directory");
  cli_test_fini(&t);
  lc_diag_fini(&d);
  printed_close(&p);
  assert_string_equal(p.text, "prog: cannot read 'no-such-dir/x.litmus': No such file or directory\n");
  free(p.text);
}

static void test_parse_error_is_positioned(void **state) {
  (void)state;
  char path[] = "/tmp/test_cli.XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("PTX bad\n{ x=0; }\n P0 ;\n st.weak.s32 x, ;\nexists (x=1)\n", f);
  fclose(f);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cli_test t;
  assert_int_equal(cli_test_read(&t, "prog", path, NULL, &d), -1);
  assert_true(t.read);
  assert_null(t.test);
  assert_true(d.nerrors > 0);
  assert_string_equal(d.msgs.v[0].loc.file, path);
  assert_true(d.msgs.v[0].loc.line > 0);
  cli_test_fini(&t);
  lc_diag_fini(&d);
  remove(path);
}

static void test_models_by_name(void **state) {
  (void)state;
  setenv("LITMUS_MODELS", LC_SRCDIR "/models", 1);
  cli_models m;
  assert_int_equal(cli_models_load(&m, "prog", "prog", "ptx-v7.5", false, false, NULL), 0);
  assert_non_null(m.model);
  assert_non_null(m.cpp);
  assert_null(m.given);
  cli_models_fini(&m);
  /* a model of both dialects checks every test */
  assert_int_equal(cli_models_load(&m, "prog", "prog", "sc", true, false, NULL), 0);
  assert_non_null(m.model);
  assert_null(m.cpp);
  assert_ptr_equal(m.given, m.model);
  cli_models_fini(&m);
  assert_null(m.search);
  /* a PTX model checks PTX tests; C++ tests keep cuda-cpp */
  assert_int_equal(cli_models_load(&m, "prog", "prog", "ptx-v6.0", true, false, NULL), 0);
  assert_int_equal(cli_model_dialect(m.model), CLI_DIALECT_PTX);
  assert_ptr_equal(m.given, m.model);
  assert_non_null(m.cpp);
  assert_string_equal(cat_model_name(m.cpp), "CUDA C++");
  cli_models_fini(&m);
  /* a C++ model checks C++ tests; PTX tests keep ptx-v7.5 */
  assert_int_equal(cli_models_load(&m, "prog", "prog", "cuda-cpp", true, false, NULL), 0);
  assert_ptr_equal(m.given, m.cpp);
  assert_string_equal(cat_model_name(m.model), "PTX v7.5");
  cli_models_fini(&m);
  /* --any-dialect: the model given checks every test */
  assert_int_equal(cli_models_load(&m, "prog", "prog", "ptx-v6.0", true, true, NULL), 0);
  assert_null(m.cpp);
  assert_null(m.hopper);
  cli_models_fini(&m);
}

static void test_finish_keeps_status(void **state) {
  (void)state;
  assert_int_equal(cli_finish("prog", LC_EXIT_OK), LC_EXIT_OK);
  assert_int_equal(cli_finish("prog", LC_EXIT_INPUT), LC_EXIT_INPUT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_messages_with_and_without_position),
    cmocka_unit_test(test_read_parse_lower),
    cmocka_unit_test(test_unreadable_file),
    cmocka_unit_test(test_parse_error_is_positioned),
    cmocka_unit_test(test_models_by_name),
    cmocka_unit_test(test_finish_keeps_status),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
