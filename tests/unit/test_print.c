/* test_print.c - the normal form, the round trip (print, parse: an equal
 * AST; print again: the same text) on every test we have, and
 * lt_test_equal.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L   /* opendir */
#include "litmus_util.h"

#include <dirent.h>

/* Checks that t prints, parses back to an equal test, and prints the same. */
static bool round_trips(const lt_test *t, const char *what) {
  char *why = rt_check(t);
  if (why) print_error("%s: %s", what, why);
  free(why);
  return why == NULL;
}

static void test_print_normal_form(void **state) {
  (void)state;
  parsed p;
  const char *text =
    "ptx MP+x (* c *)\n\"the doc\n  (two lines)\"   \n{ x = 0 ; P1:r0=0; y=&x\n"
    "; s @ surface aliases x }\n P1@cta 1 ,cluster 0, gpu 0|P0@cta 0,cluster 0,gpu 0;\n"
    " ld.acquire.gpu r0, [y] | st.weak x, 0x10 ;\n L:| fence.sc.gpu ;\n"
    "beq r0,1,L|L2: sust.weak s, -1;\n goto L | ;\n"
    "y:global,x:shared; locations [x;P1:r0] filter 1:r0 = 1 ~ exists (1:r0 = 1 /\\ ~(x != 16 \\/ y = &x))";
  assert_non_null(parse_text(&p, text));
  char *s = rt_print(p.t);
  assert_string_equal(s,
    "ptx MP+x\n"
    "(* c *)\n\"the doc\n  (two lines)\"\n"
    "{\n"
    "x=0;\n"
    "P1:r0=0;\n"
    "y=&x;\n"
    "s @ surface aliases x;\n"
    "}\n"
    " P1@cta 1,cluster 0,gpu 0 | P0@cta 0,cluster 0,gpu 0 ;\n"
    " ld.acquire.gpu r0, [y]   | st.weak x, 16            ;\n"
    " L:                       | fence.sc.gpu             ;\n"
    " beq r0, 1, L             | L2: sust.weak s, -1      ;\n"
    " goto L                   |                          ;\n"
    "y: global, x: shared\n"
    "locations [x; P1:r0;]\n"
    "filter P1:r0 == 1\n"
    "~exists (P1:r0 == 1 /\\ ~(x != 16 \\/ y == &x))\n");
  assert_true(round_trips(p.t, "normal form"));
  free(s);
  parsed_fini(&p);
}

static void test_print_instructions(void **state) {
  (void)state;
  static const struct { const char *in, *out; } cases[] = {
    {"ld r0, 1", "ld r0, 1"},
    {"mov r0, r3", "ld r0, r3"},
    {"mov.u32 r0, 7", "mov.u32 r0, 7"},
    {"ld.gpu.relaxed.shared.u32 r1, [x]", "ld.relaxed.gpu.shared.u32 r1, [x]"},
    {"ld.cg.weak r1, x", "ld.weak.cg r1, x"},
    {"ld.mmio.relaxed.sys.global r1, x", "ld.mmio.relaxed.sys.global r1, x"},
    {"st.volatile x, r2", "st.volatile x, r2"},
    {"atom.u64.cas.gpu.acq_rel r1, x, 0, -1", "atom.acq_rel.gpu.cas.u64 r1, x, 0, -1"},
    {"atom.global.add.u32 r1, [x], 1", "atom.global.add.u32 r1, [x], 1"},
    {"red.sys.release.min x, r1", "red.release.sys.min x, r1"},
    {"tld.weak r0, x", "tld.weak r0, x"},
    {"suld.weak r0, x", "suld.weak r0, x"},
    {"cold.weak r0, x", "cold.weak r0, x"},
    {"sust.weak x, 42", "sust.weak x, 42"},
    {"suatom.relaxed.gpu.exch r0, x, 1", "suatom.relaxed.gpu.exch r0, x, 1"},
    {"sured.relaxed.gpu.add x, 1", "sured.relaxed.gpu.add x, 1"},
    {"fence.sys.sc", "fence.sc.sys"},
    {"fence.cta", "fence.cta"},
    {"fence.acquire.cluster", "fence.acquire.cluster"},
    {"membar.gl", "membar.gl"},
    {"membar.cta", "membar.cta"},
    {"membar.sys", "membar.sys"},
    {"fence.proxy.texture", "fence.proxy.texture"},
    {"fence.proxy.alias", "fence.proxy.alias"},
    {"bar.cta.sync 1,1,4", "bar.cta.sync 1, 1, 4"},
    {"barrier.sync 2, r1", "bar.sync 2, r1"},
    {"bar.cta.arrive 1", "bar.cta.arrive 1"},
    {"rem.s64 r1, r1, 3", "rem.s64 r1, r1, 3"},
    {"xor r1, 0xff, r0", "xor r1, 255, r0"},
  };
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(cases); i++) {
    const lt_instr *in = parse_instr(&p, cases[i].in);
    lc_buf b;
    lc_buf_init(&b);
    lt_print_instr(&b, in);
    assert_string_equal(b.s, cases[i].out);
    lc_buf_fini(&b);
    parsed_fini(&p);
  }
}

static lt_prop cmp_prop(int64_t v) {
  lt_prop p = {0};
  p.kind = LT_PROP_CMP;
  p.cmp = LT_CMP_EQ;
  p.lhs.kind = LT_TERM_LOC;
  p.lhs.loc = "x";
  p.rhs.kind = LT_TERM_CONST;
  p.rhs.value = v;
  return p;
}

static lt_prop node(lt_prop_kind kind, lt_prop *l, lt_prop *r) {
  lt_prop p = {0};
  p.kind = kind;
  p.l = l;
  p.r = r;
  return p;
}

static void assert_prints(const lt_prop *p, const char *want) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print_prop(&b, p);
  assert_string_equal(b.s, want);
  lc_buf_fini(&b);
}

/* A test built by hand has no parens flags: the printer adds what the
 * structure needs. */
static void test_print_adds_needed_parentheses(void **state) {
  (void)state;
  lt_prop a = cmp_prop(1), b = cmp_prop(2), c = cmp_prop(3);
  lt_prop or_ab = node(LT_PROP_OR, &a, &b), and_ab = node(LT_PROP_AND, &a, &b);
  lt_prop and1 = node(LT_PROP_AND, &or_ab, &c);
  assert_prints(&and1, "(x == 1 \\/ x == 2) /\\ x == 3");
  lt_prop and2 = node(LT_PROP_AND, &c, &and_ab);
  assert_prints(&and2, "x == 3 /\\ (x == 1 /\\ x == 2)");
  lt_prop or2 = node(LT_PROP_OR, &c, &or_ab), or3 = node(LT_PROP_OR, &and_ab, &c);
  assert_prints(&or2, "x == 3 \\/ (x == 1 \\/ x == 2)");
  assert_prints(&or3, "x == 1 /\\ x == 2 \\/ x == 3");
  lt_prop not1 = node(LT_PROP_NOT, &and_ab, NULL), not2 = node(LT_PROP_NOT, &not1, NULL);
  assert_prints(&not2, "~~(x == 1 /\\ x == 2)");
  lt_prop t = {0}, f = {0};
  t.kind = LT_PROP_TRUE;
  f.kind = LT_PROP_FALSE;
  f.parens = true;
  lt_prop tf = node(LT_PROP_OR, &t, &f);
  assert_prints(&tf, "true \\/ (false)");
}

static void test_print_terms(void **state) {
  (void)state;
  lt_term t = {0};
  lc_buf b;
  lc_buf_init(&b);
  t.kind = LT_TERM_REG;
  t.thread = 3;
  t.reg = 12;
  lt_print_term(&b, &t);
  t.kind = LT_TERM_ADDR;
  t.loc = "y";
  lc_buf_putc(&b, ' ');
  lt_print_term(&b, &t);
  t.kind = LT_TERM_CONST;
  t.value = INT64_MIN;
  lc_buf_putc(&b, ' ');
  lt_print_term(&b, &t);
  assert_string_equal(b.s, "P3:r12 &y -9223372036854775808");
  lc_buf_fini(&b);
}

static void test_print_names(void **state) {
  (void)state;
  assert_string_equal(lt_sem_name(LT_SEM_NONE), "");
  assert_string_equal(lt_sem_name(LT_SEM_ACQ_REL), "acq_rel");
  assert_string_equal(lt_sem_name(LT_SEM_MMIO), "mmio");
  assert_string_equal(lt_scope_name(LT_SCOPE_CLUSTER), "cluster");
  assert_string_equal(lt_proxy_name(LT_PROXY_CONSTANT), "constant");
  assert_string_equal(lt_cmp_name(LT_CMP_GE), ">=");
  assert_string_equal(lt_space_name(LT_SPACE_SHARED), "shared");
  assert_string_equal(lt_type_name(LT_TYPE_S64), "s64");
  assert_string_equal(lt_cache_name(LT_CACHE_WT), "wt");
  assert_string_equal(lt_rmw_name(LT_RMW_CAS), "cas");
  assert_string_equal(lt_alu_name(LT_ALU_REM), "rem");
  assert_string_equal(lt_branch_name(LT_CMP_LE), "ble");
  assert_string_equal(lt_sem_name((lt_sem)99), "?");
}

/* Tests that differ in one thing are not equal; positions do not count. */
static void test_print_test_equal(void **state) {
  (void)state;
  static const char *const base =
    "PTX t\n\"d\"\n{\nx=0; P0:r1=&x;\n}\n P0@cta 0,gpu 0 ;\n L: ld.acquire.gpu r0, [x] ;\n"
    " M: bne r0, 1, L ;\nx: shared\nlocations [x;]\nfilter (x == 0)\nexists (P0:r0 == 1)\n";
  static const struct { const char *from, *to; } changes[] = {
    {"PTX t", "PTX u"}, {"PTX t", "ptx t"}, {"\"d\"", "\"e\""}, {"x=0;", "x=1;"},
    {"P0:r1=&x", "P0:r1=x"}, {"P0@cta 0,gpu 0", "P0@cta 1,gpu 0"},
    {"P0@cta 0,gpu 0", "P0@cta 0,gpu 2"}, {"M: bne", "N: bne"}, {"1, L", "1, M"},
    {"acquire", "relaxed"},
    {"gpu r0", "sys r0"}, {"[x]", "x"}, {"ld.acquire.gpu r0", "ld.acquire.gpu r2"},
    {"bne", "beq"}, {"r0, 1, L", "r0, 2, L"}, {"x: shared", "x: global"}, {"[x;]", "[]"},
    {"filter (x == 0)", "filter x == 0"}, {"filter (x == 0)", "filter (x != 0)"},
    {"exists (P0", "~exists (P0"}, {"P0:r0 == 1)", "P0:r0 == 1 /\\ true)"},
  };
  parsed a, b;
  assert_non_null(parse_text(&a, base));
  assert_non_null(parse_text(&b, "PTX   t \"d\" {x = 0;P0:r1 = &x} P0@cta 0, gpu 0; L:ld.gpu.acquire r0,[x];"
                                 "M : bne r0,1,L; x:shared locations [x] filter (x=0) exists (0:r0 = 1)"));
  assert_true(lt_test_equal(a.t, b.t));
  assert_true(lt_test_equal(a.t, a.t));
  parsed_fini(&b);
  for (size_t i = 0; i < LC_ARRAY_LEN(changes); i++) {
    char text[1024];
    const char *at = strstr(base, changes[i].from);
    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, changes[i].to,
             at + strlen(changes[i].from));
    if (!parse_text(&b, text)) {
      print_error("change %zu: %s\n", i, first_error(&b));
      fail();
    }
    if (lt_test_equal(a.t, b.t)) {
      print_error("change %zu ('%s' -> '%s') is not seen\n", i, changes[i].from, changes[i].to);
      fail();
    }
    parsed_fini(&b);
  }
  parsed_fini(&a);
}

/* Round-trips every *.litmus file of dir; returns how many. */
static int round_trip_dir(const char *dir, int *failed) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.') continue;
    if (len < 7 || strcmp(e->d_name + len - 7, ".litmus") != 0) {
      n += round_trip_dir(path, failed);   /* a folder (or another file: opendir fails) */
      continue;
    }
    lc_source src;
    if (lc_source_read(&src, path) < 0) {
      print_error("%s: cannot read\n", path);
      (*failed)++;
      continue;
    }
    lc_diag diag;
    lc_diag_init(&diag, &src, NULL);
    lt_test *t = lt_parse(&src, &diag);
    if (!t) {
      print_error("%s\n", lc_diag_first_error(&diag));
      (*failed)++;
    } else if (!round_trips(t, path)) {
      (*failed)++;
    }
    n++;
    lt_test_free(t);
    lc_diag_fini(&diag);
    lc_source_fini(&src);
  }
  closedir(d);
  return n;
}

static void test_print_round_trip_classic_tests(void **state) {
  (void)state;
  const char *top = getenv("top_srcdir");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/litmus", top ? top : ".");
  int failed = 0, n = round_trip_dir(dir, &failed);
  if (n < 24) print_error("only %d tests in %s (is top_srcdir set?)\n", n, dir);
  assert_true(n >= 24);
  snprintf(dir, sizeof dir, "%s/tests/fuzz/seeds", top ? top : ".");
  n = round_trip_dir(dir, &failed);
  assert_true(n >= 10);
  assert_int_equal(failed, 0);
}

/* The public corpus, when it is there (tests/corpus-roundtrip.sh says so
 * loudly when it is not). */
static void test_print_round_trip_corpus(void **state) {
  (void)state;
  const char *corpus = getenv("CORPUS_DIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/litmus", corpus ? corpus : "");
  int failed = 0, n = corpus ? round_trip_dir(dir, &failed) : 0;
  if (n == 0) {
    skip();
    return;
  }
  assert_int_equal(n, 138);
  assert_int_equal(failed, 0);
}

static void test_print_round_trip_odd_inputs(void **state) {
  (void)state;
  static const char *const texts[] = {
    "PTX a\"{\"(*{*){}P0@cta 0,gpu 0;exists true",
    "PTX a {x=-9223372036854775808; y=18446744073709551615} P0@cta 0,gpu 0; st.weak.s64 x, -1;"
    "exists x = y",
    "PTX a {} P0@cta 0,gpu 0 | P1@cta 0,gpu 0; | ; | ; forall ((~~true))",
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(texts); i++) {
    parsed p;
    if (!parse_text(&p, texts[i])) {
      print_error("case %zu: %s\n", i, first_error(&p));
      fail();
    }
    assert_true(round_trips(p.t, texts[i]));
    parsed_fini(&p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_print_normal_form),
    cmocka_unit_test(test_print_instructions),
    cmocka_unit_test(test_print_adds_needed_parentheses),
    cmocka_unit_test(test_print_terms),
    cmocka_unit_test(test_print_names),
    cmocka_unit_test(test_print_test_equal),
    cmocka_unit_test(test_print_round_trip_classic_tests),
    cmocka_unit_test(test_print_round_trip_corpus),
    cmocka_unit_test(test_print_round_trip_odd_inputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
