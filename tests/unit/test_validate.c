/* test_validate.c - what lt_validate rejects (exact messages and
 * positions), what it accepts, and its warnings.
 * SPDX-License-Identifier: MIT
 */
#include "litmus_util.h"

#define HEAD "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n"   /* code starts on line 6 */
#define COND "exists (x == 1)\n"
#define TWO "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"

static const bad_case semantic_errors[] = {
  /* memory orders and scopes */
  {"weak-with-scope", HEAD " ld.weak.gpu r0, x ;\n" COND,
   "t.litmus:6:9: error: 'ld.weak.gpu': '.weak' takes no scope"},
  {"release-load", HEAD " ld.release.gpu r0, x ;\n" COND,
   "t.litmus:6:4: error: 'ld.release.gpu': a load cannot be '.release'"},
  {"acquire-store", HEAD " st.acquire.gpu x, 1 ;\n" COND,
   "t.litmus:6:4: error: 'st.acquire.gpu': a store cannot be '.acquire'"},
  {"acq_rel-load", HEAD " ld.acq_rel.gpu r0, x ;\n" COND,
   "t.litmus:6:4: error: 'ld.acq_rel.gpu': '.acq_rel' is only for atom, red and fence"},
  {"acq_rel-store", HEAD " st.sys.acq_rel x, 1 ;\n" COND,
   "t.litmus:6:8: error: 'st.sys.acq_rel': '.acq_rel' is only for atom, red and fence"},
  {"sc-load", HEAD " ld.sc.gpu r0, x ;\n" COND,
   "t.litmus:6:4: error: 'ld.sc.gpu': '.sc' is only for fence"},
  {"sc-atom", HEAD " atom.sc.gpu.add r0, x, 1 ;\n" COND,
   "t.litmus:6:6: error: 'atom.sc.gpu.add': '.sc' is only for fence"},
  {"relaxed-load-no-scope", HEAD " ld.relaxed r0, x ;\n" COND,
   "t.litmus:6:4: error: 'ld.relaxed': '.relaxed' needs a scope (.cta, .cluster, .gpu or .sys)"},
  {"acquire-load-no-scope", HEAD " ld.acquire r0, x ;\n" COND,
   "t.litmus:6:4: error: 'ld.acquire': '.acquire' needs a scope (.cta, .cluster, .gpu or .sys)"},
  {"release-store-no-scope", HEAD " st.release x, 1 ;\n" COND,
   "t.litmus:6:4: error: 'st.release': '.release' needs a scope (.cta, .cluster, .gpu or .sys)"},
  {"atom-sem-no-scope", HEAD " atom.acquire.add r0, x, 1 ;\n" COND,
   "t.litmus:6:6: error: 'atom.acquire.add': '.acquire' without a scope; PTX would default to "
   ".gpu, but write the scope (e.g. '.acquire.gpu')"},
  {"red-sem-no-scope", HEAD " red.relaxed.add x, 1 ;\n" COND,
   "t.litmus:6:5: error: 'red.relaxed.add': '.relaxed' without a scope; PTX would default to "
   ".gpu, but write the scope (e.g. '.relaxed.gpu')"},
  {"suatom-sem-no-scope", HEAD " suatom.release.exch r0, x, 1 ;\n" COND,
   "t.litmus:6:8: error: 'suatom.release.exch': '.release' without a scope; PTX would default to "
   ".gpu, but write the scope (e.g. '.release.gpu')"},
  {"scope-without-sem", HEAD " ld.gpu r0, x ;\n" COND,
   "t.litmus:6:4: error: 'ld.gpu': a scope needs a memory order such as '.relaxed'"},
  {"weak-atom", HEAD " atom.weak.add r0, x, 1 ;\n" COND,
   "t.litmus:6:6: error: 'atom.weak.add': an atomic operation cannot be '.weak'"},
  {"volatile-with-scope", HEAD " ld.volatile.sys r0, x ;\n" COND,
   "t.litmus:6:13: error: 'ld.volatile.sys': '.volatile' takes no scope (it means .relaxed.sys)"},
  {"volatile-atom", HEAD " atom.volatile.add r0, x, 1 ;\n" COND,
   "t.litmus:6:6: error: 'atom.volatile.add': '.volatile' is only for ld and st"},
  {"volatile-surface", HEAD " suld.volatile r0, x ;\n" COND,
   "t.litmus:6:6: error: 'suld.volatile': '.volatile' is only for ld and st"},
  {"mmio-shared", HEAD " st.mmio.relaxed.sys.shared x, 1 ;\n" COND,
   "t.litmus:6:4: error: 'st.mmio.relaxed.sys.shared': '.mmio' is only for global memory"},
  {"mmio-texture", HEAD " tld.mmio.relaxed.sys r0, x ;\n" COND,
   "t.litmus:6:5: error: 'tld.mmio.relaxed.sys': '.mmio' is only for ld and st"},
  {"mmio-atom", HEAD " atom.mmio.relaxed.sys.add r0, x, 1 ;\n" COND,
   "t.litmus:6:6: error: qualifier '.mmio' does not apply to 'atom'"},
  {"fence-relaxed", HEAD " fence.relaxed.gpu ;\n" COND,
   "t.litmus:6:7: error: 'fence.relaxed.gpu': a fence cannot be '.relaxed' (use .sc, .acq_rel, "
   ".acquire or .release)"},
  {"fence-weak", HEAD " fence.weak.cta ;\n" COND,
   "t.litmus:6:7: error: 'fence.weak.cta': a fence cannot be '.weak' (use .sc, .acq_rel, "
   ".acquire or .release)"},
  {"fence-sc-no-scope", HEAD " fence.sc ;\n" COND,
   "t.litmus:6:7: error: 'fence.sc': '.sc' needs a scope (.cta, .cluster, .gpu or .sys)"},
  {"fence-acquire-no-scope", HEAD " fence.acquire ;\n" COND,
   "t.litmus:6:7: error: 'fence.acquire': '.acquire' needs a scope (.cta, .cluster, .gpu or .sys)"},
  {"cache-on-strong", HEAD " ld.relaxed.gpu.cg r0, x ;\n" COND,
   "t.litmus:6:16: error: 'ld.relaxed.gpu.cg': cache operator '.cg' is only for weak accesses"},
  /* numbers */
  {"u32-too-big", HEAD " st.weak.u32 x, 4294967296 ;\n" COND,
   "t.litmus:6:17: error: constant 4294967296 does not fit the 32 bits of 'st.weak.u32'"},
  {"s32-too-small", HEAD " atom.relaxed.gpu.add.s32 r0, x, -2147483649 ;\n" COND,
   "t.litmus:6:34: error: constant -2147483649 does not fit the 32 bits of 'atom.relaxed.gpu.add.s32'"},
  {"b32-alu", HEAD " add.b32 r0, r0, 0x100000000 ;\n" COND,
   "t.litmus:6:18: error: constant 4294967296 does not fit the 32 bits of 'add.b32'"},
  {"b32-cas", HEAD " atom.cas.relaxed.sys.b32 r0, x, 0, 0xffffffffff ;\n" COND,
   "t.litmus:6:37: error: constant 1099511627775 does not fit the 32 bits of 'atom.cas.relaxed.sys.b32'"},
  {"bar-count-zero", HEAD " bar.cta.sync 1, 1, 0 ;\n" COND,
   "t.litmus:6:21: error: barrier thread count 0 out of range (1..1048575)"},
  {"bar-number-negative", HEAD " bar.cta.sync -1 ;\n" COND,
   "t.litmus:6:15: error: barrier number -1 out of range (0..1048575)"},
  {"bar-id-huge", HEAD " bar.cta.arrive 0, 1048576 ;\n" COND,
   "t.litmus:6:20: error: barrier id 1048576 out of range (0..1048575)"},
  /* labels */
  {"unknown-label", HEAD " goto LC9 ;\n" COND, "t.litmus:6:7: error: unknown label 'LC9' in P0"},
  {"label-of-another-thread", TWO " LC0: | LC1: ;\n beq r0, 0, LC1 | ;\n" COND,
   "t.litmus:7:13: error: unknown label 'LC1' in P0"},
  {"duplicate-label", HEAD " L: ;\n L: goto L ;\n" COND,
   "t.litmus:7:2: error: label 'L' appears twice in P0 (first at line 6)"},
  /* threads */
  {"duplicate-thread", "PTX t\n{\n}\n P0@cta 0,gpu 0 | P0@cta 1,gpu 0 ;\nexists (true)\n",
   "t.litmus:4:19: error: thread P0 appears twice in the thread row"},
  {"thread-gap", "PTX t\n{\n}\n P0@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\nexists (true)\n",
   "t.litmus:4:19: error: thread P2 out of sequence: a test with 2 threads names them P0..P1"},
  {"single-thread-not-P0", "PTX t\n{\n}\n P1@cta 0,gpu 0 ;\nexists (true)\n",
   "t.litmus:4:2: error: thread P1 out of sequence: a test with one thread names it P0"},
  {"cluster-for-some", "PTX t\n{\n}\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,gpu 0 ;\nexists (true)\n",
   "t.litmus:4:29: error: P1 does not name a cluster but P0 does: give every thread a cluster, or none"},
  {"cta-in-two-clusters",
   "PTX t\n{\n}\n P0@cta 0,cluster 0,gpu 0 | P1@cta 0,cluster 1,gpu 0 ;\nexists (true)\n",
   "t.litmus:4:29: error: P1 puts CTA 0 of GPU 0 in cluster 1, but P0 puts it in cluster 0"},
  /* init */
  {"init-of-missing-thread", "PTX t\n{\nx=0;\nP2:r0=1;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:4:1: error: init of P2:r0, but the test has no thread P2"},
  {"location-twice", "PTX t\n{\nx=0;\ny=0;\nx=1;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:5:1: error: 'x' is declared twice in the init block (first at line 3)"},
  {"register-twice", "PTX t\n{\nx=0; P0:r0=0;\n0:r0=1;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:4:1: error: P0:r0 is initialised twice (first at line 3)"},
  {"alias-of-undeclared", "PTX t\n{\nx=0;\ny @ generic aliases z;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:4:21: error: 'y' aliases 'z', which the init block does not give a value (write 'z=0;')"},
  {"alias-cycle", "PTX t\n{\nx=0;\ny @ generic aliases z;\nz @ texture aliases y;\n}\n"
   " P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:4:21: error: the aliases form a cycle (y -> z -> y): an alias chain must end at a "
   "location with a value"},
  {"alias-into-a-cycle", "PTX t\n{\nx=0;\na @ generic aliases b;\nb @ generic aliases c;\n"
   "c @ texture aliases b;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:5:21: error: the aliases form a cycle (b -> c -> b): an alias chain must end at a "
   "location with a value"},
  {"alias-cycle-after-a-chain", "PTX t\n{\nx=0;\na @ generic aliases x;\nb @ generic aliases a;\n"
   "c @ texture aliases d;\nd @ texture aliases c;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:6:21: error: the aliases form a cycle (c -> d -> c): an alias chain must end at a "
   "location with a value"},
  {"alias-of-itself", "PTX t\n{\nx=0;\ny @ generic aliases y;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:4:21: error: the aliases form a cycle (y -> y): an alias chain must end at a "
   "location with a value"},
  {"alias-redeclares", "PTX t\n{\nx=0;\nx @ surface aliases x;\n}\n P0@cta 0,gpu 0 ;\n" COND,
   "t.litmus:4:1: error: 'x' is declared twice in the init block (first at line 3)"},
  {"alias-of-code-location", "PTX t\n{\ny @ generic aliases x;\n}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n"
   COND, "t.litmus:3:21: error: 'y' aliases 'x', which the init block does not give a value (write 'x=0;')"},
  /* condition, filter, locations, memory map */
  {"cond-missing-register", HEAD " ld.weak r0, x ;\nexists (P0:r1 == 1)\n",
   "t.litmus:7:9: error: the condition names P0:r1, but P0 neither uses nor initialises r1"},
  {"cond-missing-thread", HEAD " ld.weak r0, x ;\nexists (x == 1 \\/ P1:r0 == 1)\n",
   "t.litmus:7:19: error: the condition names P1:r0, but the test has no thread P1"},
  {"cond-missing-location", HEAD " ld.weak r0, x ;\nexists (~(q == 1))\n",
   "t.litmus:7:11: error: the condition names location 'q', which appears nowhere in the test"},
  {"cond-missing-address", HEAD " ld.weak r0, x ;\nexists (P0:r0 == &q)\n",
   "t.litmus:7:18: error: the condition names location 'q', which appears nowhere in the test"},
  {"filter-missing-location", HEAD " ld.weak r0, x ;\nfilter (q == 0)\n" COND,
   "t.litmus:7:9: error: the filter names location 'q', which appears nowhere in the test"},
  {"locations-missing-register", HEAD " ld.weak r0, x ;\nlocations [x; P0:r9;]\n" COND,
   "t.litmus:7:15: error: 'locations' names P0:r9, but P0 neither uses nor initialises r9"},
  {"map-unknown-location", HEAD " ld.weak r0, x ;\nx: shared, q: global\n" COND,
   "t.litmus:7:12: error: the memory map names 'q', which appears nowhere in the test"},
  {"map-twice", HEAD " ld.weak r0, x ;\nx: shared,\n x: global\n" COND,
   "t.litmus:8:2: error: 'x' appears twice in the memory map (first at line 7)"},
};

static void test_validate_semantic_errors(void **state) {
  (void)state;
  check_bad_cases(semantic_errors, LC_ARRAY_LEN(semantic_errors));
}

/* The boundaries of each rule are accepted. */
static void test_validate_accepts(void **state) {
  (void)state;
  static const char *const ok[] = {
    HEAD " st.weak.u32 x, 4294967295 ;\n st.relaxed.gpu.s32 x, -2147483648 ;\n" COND,
    HEAD " ld.u64 r0, x ;\n st.weak.b64 x, 0xffffffffffffffff ;\n" COND,
    HEAD " atom.add r0, x, 1 ;\n red.gpu.add x, 1 ;\n atom.exch.sys r1, x, 2 ;\n" COND,
    HEAD " ld.volatile r0, x ;\n st.volatile.shared x, 1 ;\n ld.mmio.relaxed.sys r1, x ;\n" COND,
    HEAD " ld.weak.cg r0, x ;\n st.cs x, 1 ;\n" COND,
    HEAD " fence.gpu ;\n fence.acquire.cluster ;\n fence.release.cta ;\n membar.sys ;\n" COND,
    HEAD " bar.cta.sync 1048575, 1048575, 1048575 ;\n bar.cta.sync 0, 0, 1 ;\n" COND,
    HEAD " red.acq_rel.sys.add x, 1 ;\n atom.acquire.cta.inc r0, x, 9 ;\n" COND,
    "PTX t\n{\ny @ generic aliases x;\nx=0;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r0, y ;\n" COND,
    "PTX t\n{\n}\n P1@cta 0,cluster 0,gpu 0 | P0@cta 0,cluster 0,gpu 1 ;\nexists (true)\n",
    TWO " L: goto L | L: goto L ;\n" COND,
    "PTX t\n{\nP0:r5=3;\n}\n P0@cta 0,gpu 0 ;\nexists (P0:r5 == 3)\n",
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(ok); i++) {
    parsed p;
    if (!parse_text(&p, ok[i])) {
      print_error("case %zu: %s\n", i, first_error(&p));
      fail();
    }
    parsed_fini(&p);
  }
}

static void test_validate_stops_at_the_first_error(void **state) {
  (void)state;
  parsed p;
  assert_null(parse_text(&p, HEAD " ld.weak.gpu r0, x ;\n ld.release.gpu r1, x ;\n goto L ;\n"
                               "exists (q == 1)\n"));
  assert_int_equal(p.d.msgs.n, 1);
  assert_string_equal(first_error(&p), "t.litmus:6:9: error: 'ld.weak.gpu': '.weak' takes no scope");
  parsed_fini(&p);
  /* Row by row, left to right: the second column of row 1 comes first. */
  assert_null(parse_text(&p, TWO " ld.weak r0, x | ld.relaxed r1, x ;\n ld.sc.gpu r2, x | ;\n" COND));
  assert_int_equal(p.d.msgs.n, 1);
  assert_string_equal(first_error(&p), "t.litmus:6:20: error: 'ld.relaxed': '.relaxed' needs a "
                      "scope (.cta, .cluster, .gpu or .sys)");
  parsed_fini(&p);
}

static void test_validate_warns_read_before_write(void **state) {
  (void)state;
  parsed p;
  assert_non_null(parse_text(&p, TWO " add r1, r2, 1 | ld.weak r3, [r4] ;\n ld.weak r2, x | beq r3, r5, L ;\n"
                                     " st.weak x, r2 | L: st.weak x, r1 ;\n" COND));
  assert_int_equal(p.d.nwarnings, 4);
  assert_string_equal(message(&p, LC_SEV_WARNING, 0), "t.litmus:6:10: warning: P0:r2 is read "
                      "before it is written and is not initialised; it starts at 0");
  assert_string_equal(message(&p, LC_SEV_WARNING, 1), "t.litmus:6:30: warning: P1:r4 is read "
                      "before it is written and is not initialised; it starts at 0");
  assert_string_equal(message(&p, LC_SEV_WARNING, 2), "t.litmus:7:26: warning: P1:r5 is read "
                      "before it is written and is not initialised; it starts at 0");
  assert_string_equal(message(&p, LC_SEV_WARNING, 3), "t.litmus:8:32: warning: P1:r1 is read "
                      "before it is written and is not initialised; it starts at 0");
  parsed_fini(&p);
  /* An initialised register, or one written first, starts no warning. */
  assert_non_null(parse_text(&p, "PTX t\n{\nx=0; P0:r2=1;\n}\n P0@cta 0,gpu 0 ;\n"
                                 " add r1, r2, 1 ;\n st.weak x, r1 ;\n" COND));
  assert_int_equal(p.d.nwarnings, 0);
  parsed_fini(&p);
}

static void test_validate_warns_unused_inits(void **state) {
  (void)state;
  parsed p;
  assert_non_null(parse_text(&p, "PTX t\n{\nx=0;\ny=0;\nP0:r0=0;\nP0:r1=0; P0:r2=0; z=0;\n"
                                 "w @ generic aliases z;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r1, x ;\n"
                                 "exists (P0:r2 == 0)\n"));
  assert_int_equal(p.d.nwarnings, 2);
  assert_string_equal(message(&p, LC_SEV_WARNING, 0),
                      "t.litmus:4:1: warning: location 'y' is initialised but never used");
  assert_string_equal(message(&p, LC_SEV_WARNING, 1),
                      "t.litmus:5:1: warning: P0:r0 is initialised but P0 never uses r0");
  parsed_fini(&p);
}

static void test_validate_no_warnings_after_an_error(void **state) {
  (void)state;
  parsed p;
  assert_null(parse_text(&p, "PTX t\n{\ny=0;\n}\n P0@cta 0,gpu 0 ;\n add r1, r2, 1 ;\n"
                             "exists (q == 1)\n"));
  assert_int_equal(p.d.nwarnings, 0);
  assert_int_equal(p.d.nerrors, 1);
  parsed_fini(&p);
}

static void test_validate_classic_tests_are_clean(void **state) {
  (void)state;
  parsed p;
  assert_non_null(parse_text(&p, "PTX MP\n{\nx=0;\ny=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                 " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\n"
                                 "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"));
  assert_int_equal(p.d.msgs.n, 0);
  parsed_fini(&p);
}

/* lt_validate on a test changed (or built) by hand: no mnemonic, no
 * qualifier positions; the message falls back to the instruction. */
static void test_validate_hand_built_ast(void **state) {
  (void)state;
  parsed p;
  assert_non_null(parse_text(&p, HEAD " ld.weak r0, x ;\n" COND));
  lt_instr *in = p.t->threads[0].cells[0].instr;
  in->mnemonic = NULL;
  in->sem = LT_SEM_SC;
  in->sem_at = (lc_loc){0};
  lc_diag d;
  lc_diag_init(&d, &p.src, NULL);
  assert_int_equal(lt_validate(p.t, &d), -1);
  assert_string_equal(lc_diag_first_error(&d), "t.litmus:6:2: error: 'instruction': '.sc' is only for fence");
  lc_diag_fini(&d);
  in->sem = LT_SEM_WEAK;
  lc_diag_init(&d, &p.src, NULL);
  assert_int_equal(lt_validate(p.t, &d), 0);
  lc_diag_fini(&d);
  parsed_fini(&p);
}

/* Enough locations, registers and labels to make the symbol table grow
 * several times; the checks must still find the one duplicate. */
static void test_validate_many_symbols(void **state) {
  (void)state;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, "PTX many\n{\n");
  for (int i = 0; i < 300; i++) lc_buf_printf(&b, "x%d=%d; P0:r%d=%d;\n", i, i, i + 1000, i);
  lc_buf_puts(&b, "}\n P0@cta 0,gpu 0 ;\n");
  for (int i = 0; i < 300; i++)
    lc_buf_printf(&b, " L%d: ld.weak r%d, x%d ;\n add r%d, r%d, r%d ;\n", i, i, i, i, i, i + 1000);
  for (int i = 0; i < 300; i++) lc_buf_printf(&b, " beq r%d, 0, L%d ;\n", i, 299 - i);
  lc_buf_puts(&b, "exists (P0:r299 == 299 /\\ x0 == 0)\n");
  parsed p;
  if (!parse_text(&p, b.s)) print_error("%s\n", first_error(&p));
  assert_non_null(p.t);
  assert_int_equal(p.d.msgs.n, 0);
  parsed_fini(&p);
  /* Code starts on line 305: L7 is on line 319, the first beq on 905. */
  char *dup = strstr(b.s, " beq r0, 0, L299 ;");
  assert_non_null(dup);
  memcpy(dup, " L7: goto L299   ", 17);
  assert_null(parse_text(&p, b.s));
  assert_string_equal(first_error(&p), "t.litmus:905:2: error: label 'L7' appears twice in P0 (first at line 319)");
  parsed_fini(&p);
  lc_buf_fini(&b);
}

/* A chain of 30,000 aliases, each of the one before, and then a cycle:
 * each alias walked to the end of its chain made 20,000 take 8 s. */
static void test_validate_long_alias_chain(void **state) {
  (void)state;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, "PTX t\n{\nx0=0;\n");
  for (int i = 1; i < 30000; i++) lc_buf_printf(&b, "x%d @ generic aliases x%d;\n", i, i - 1);
  lc_buf_puts(&b, "}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x29999 ;\nexists (P0:r0 == 0)\n");
  double start = lc_now();
  parsed p;
  if (!parse_text(&p, b.s)) print_error("%s\n", first_error(&p));
  assert_non_null(p.t);
  parsed_fini(&p);
  lc_buf c;   /* x0 aliases the chain's end instead: a cycle of all of them */
  lc_buf_init(&c);
  lc_buf_puts(&c, "PTX t\n{\nx=0;\nx0 @ generic aliases x29999;\n");
  lc_buf_puts(&c, strstr(b.s, "x1 @"));
  assert_null(parse_text(&p, c.s));
  assert_non_null(strstr(first_error(&p), "t.litmus:4:22: error: the aliases form a cycle (x0 -> x29999 -> x29998"));
  parsed_fini(&p);
  assert_true(lc_now() - start < 10);
  lc_buf_fini(&b);
  lc_buf_fini(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_validate_semantic_errors),
    cmocka_unit_test(test_validate_accepts),
    cmocka_unit_test(test_validate_stops_at_the_first_error),
    cmocka_unit_test(test_validate_warns_read_before_write),
    cmocka_unit_test(test_validate_warns_unused_inits),
    cmocka_unit_test(test_validate_no_warnings_after_an_error),
    cmocka_unit_test(test_validate_classic_tests_are_clean),
    cmocka_unit_test(test_validate_hand_built_ast),
    cmocka_unit_test(test_validate_many_symbols),
    cmocka_unit_test(test_validate_long_alias_chain),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
