/* test_kptx.c - the compiled-kernel reader (src/kptx/) on PTX written here
 * in nvcc's shape, so that it runs without the CUDA toolkit: each thread's
 * constants folded, a spin loop kept as a loop, a loop over constants
 * unrolled, source lines from .loc, and what cannot be followed refused
 * with the PTX line and the source line.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kptx/kptx.h"

static const char *const cu =
    "// @Launch: <<<2, 1>>>\n"                                     /* 1 */
    "// @Input: flag = {0}; data = {0, 0}\n"                        /* 2 */
    "// @Output: forall (data[1] == 3)\n"                           /* 3 */
    "__global__ void k(int *flag, int *data) {\n"                  /* 4 */
    "  if (blockIdx.x == 0) { for (int i = 0; i < 3; i++) data[0]++; st_release(flag); }\n"  /* 5 */
    "  else { while (ld_acquire(flag) == 0) {} data[1] = data[0]; }\n"                      /* 6 */
    "}\n";

/* what nvcc writes for it, abridged: params, cvta, a loop over constants
 * (i in %r1), the flag's spin loop, .loc lines of file 1 */
static const char *const ptx =
    "// Cuda compilation tools, release 13.0, V13.0.88\n"
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z1kPiS_(\n .param .u64 _Z1kPiS__param_0,\n .param .u64 _Z1kPiS__param_1\n)\n{\n"
    " .reg .pred %p<4>;\n .reg .b32 %r<9>;\n .reg .b64 %rd<6>;\n"
    " .loc 1 4 0\n"
    " ld.param.u64 %rd1, [_Z1kPiS__param_0];\n"
    " ld.param.u64 %rd2, [_Z1kPiS__param_1];\n"
    " cvta.to.global.u64 %rd3, %rd2;\n"
    " .loc 1 5 3\n"
    " mov.u32 %r1, %ctaid.x;\n"
    " setp.ne.s32 %p1, %r1, 0;\n"
    " @%p1 bra $L__BB0_3;\n"
    " mov.u32 %r2, 0;\n"
    "$L__BB0_1:\n"
    " ld.global.u32 %r3, [%rd3];\n"
    " add.s32 %r4, %r3, 1;\n"
    " st.global.u32 [%rd3], %r4;\n"
    " add.s32 %r2, %r2, 1;\n"
    " setp.lt.s32 %p2, %r2, 3;\n"
    " @%p2 bra $L__BB0_1;\n"
    " st.release.gpu.b32 [%rd1], 1;\n"
    " bra.uni $L__BB0_5;\n"
    "$L__BB0_3:\n"
    " .loc 1 6 10\n"
    " ld.acquire.gpu.b32 %r5, [%rd1];\n"
    " setp.eq.s32 %p3, %r5, 0;\n"
    " @%p3 bra $L__BB0_3;\n"
    " ld.global.u32 %r6, [%rd3];\n"
    " st.global.u32 [%rd3+4], %r6;\n"
    "$L__BB0_5:\n"
    " ret;\n"
    "}\n"
    " .file 1 \"/tmp/k.cu\"\n";

static char *translate(const char *ptx_text, lc_diag *d, lc_source *src) {
  lc_source_from_string(src, "k.cu", cu, strlen(cu));
  lc_diag_init(d, src, NULL);
  kp_options o = {NULL, NULL, NULL, NULL, "nvcc", 90, "nvcc's PTX", false, NULL};
  return kp_translate(src, ptx_text, &o, NULL, NULL, d);
}

static size_t count(const char *s, const char *w) {
  size_t n = 0;
  for (const char *p = strstr(s, w); p; p = strstr(p + 1, w)) n++;
  return n;
}

static void test_kptx_threads(void **state) {
  (void)state;
  lc_diag d;
  lc_source src;
  char *t = translate(ptx, &d, &src);
  assert_non_null(t);
  /* two threads in CTAs 0 and 1, the header's arrays, the question */
  assert_non_null(strstr(t, "P0@cta 0,gpu 0 | P1@cta 1,gpu 0"));
  assert_non_null(strstr(t, "forall (data[1] == 3)"));
  assert_non_null(strstr(t, "as compiled by nvcc 13.0 for sm_90"));
  /* thread 0's loop over constants unrolled: three increments, no branch back */
  assert_int_equal(count(t, "ld.global.u32 r"), 4);   /* 3 in thread 0, 1 in thread 1 */
  assert_int_equal(count(t, "st.global.u32 [data], r"), 3);
  /* add.s32 rX, rY, 1 three times (and thread 1's setp.s32 an add of 0: the comparison's width) */
  size_t incs = 0;
  for (const char *p = strstr(t, "add.s32 r"); p; p = strstr(p + 1, "add.s32 r")) {
    const char *e = strchr(p, '\n');
    const char *one = strstr(p, ", 1 ");
    incs += e && one && one < e ? 1 : 0;
  }
  assert_int_equal(incs, 3);
  assert_int_equal(count(t, "add.s32 r"), 4);
  /* the flag through the parameter's generic address: a global access */
  assert_non_null(strstr(t, "st.release.gpu.b32.global [flag], 1"));
  /* thread 1's spin loop a loop of the test (one copy, a branch back to its head) */
  assert_int_equal(count(t, "ld.acquire.gpu.b32.global r"), 1);
  /* its head: thread 1's cell of one row, its load the cell of the next (thread 0's cell between) */
  const char *head = strstr(t, "\n N1: ;\n");
  assert_non_null(head);
  const char *next = strchr(head + 9, '\n');
  assert_non_null(next);
  assert_true(!strncmp(next, "\n ld.acquire", 12));
  assert_non_null(strstr(t, ", 0, N1 ;"));
  assert_non_null(strstr(t, "st.global.u32 [data[1]], r"));
  free(t);
  lc_source_fini(&src);
  lc_diag_fini(&d);
}

static void test_kptx_lines(void **state) {
  (void)state;
  lc_diag d;
  lc_source src;
  lc_source_from_string(&src, "k.cu", cu, strlen(cu));
  lc_diag_init(&d, &src, NULL);
  kp_options o = {NULL, NULL, NULL, NULL, "nvcc", 90, "nvcc's PTX", false, NULL};
  lt_test *t = kp_read(&src, ptx, &o, &d);
  assert_non_null(t);
  assert_int_equal(t->nthreads, 2);
  assert_non_null(t->thread_label);
  assert_string_equal(t->thread_label[1], " (block 1, thread 0)");
  /* every access at the source line of its .loc */
  for (size_t i = 0; i < t->nthreads; i++)
    for (size_t j = 0; j < t->threads[i].ncells; j++) {
      const lt_instr *in = t->threads[i].cells[j].instr;
      if (in && (in->kind == LT_I_LD || in->kind == LT_I_ST)) assert_int_equal(in->at.line, i == 0 ? 5 : 6);
    }
  lt_test_free(t);
  lc_source_fini(&src);
  lc_diag_fini(&d);
}

static char *replace(const char *s, const char *from, const char *to) {
  const char *p = strstr(s, from);
  assert_non_null(p);
  char *r = malloc(strlen(s) - strlen(from) + strlen(to) + 1);
  sprintf(r, "%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
  return r;
}

static void test_kptx_refused(void **state) {
  (void)state;
  /* the address of data[1] from a loaded value: one error, PTX line and source line */
  char *bad = replace(ptx, " st.global.u32 [%rd3+4], %r6;\n",
                      " mul.wide.s32 %rd4, %r6, 4;\n add.s64 %rd5, %rd3, %rd4;\n st.global.u32 [%rd5], 1;\n");
  lc_diag d;
  lc_source src;
  char *t = translate(bad, &d, &src);
  assert_null(t);
  const char *e = lc_diag_first_error(&d);
  assert_non_null(e);
  assert_non_null(strstr(e, "nvcc's PTX line 38 (source line 6, P1: block 1, thread 0)"));
  assert_non_null(strstr(e, "a value read from memory"));
  lc_source_fini(&src);
  lc_diag_fini(&d);
  free(bad);
  /* an indirect call */
  bad = replace(ptx, " ret;\n", " call.uni %rd1, (param0), prototype_0;\n ret;\n");
  t = translate(bad, &d, &src);
  assert_null(t);
  assert_non_null(strstr(lc_diag_first_error(&d), "an indirect call"));
  lc_source_fini(&src);
  lc_diag_fini(&d);
  free(bad);
}

/* libcu++'s polling backoff: the spin reads %globaltimer to choose between
 * polling again and nanosleep; the clocks read 0, so the loop is followed
 * (it was one error, "the special register %globaltimer is not modelled") */
static void test_kptx_clock(void **state) {
  (void)state;
  char *backoff = replace(ptx, " @%p3 bra $L__BB0_3;\n",
                          " @!%p3 bra $L__BB0_9;\n mov.u64 %rd4, %globaltimer;\n setp.lt.s64 %p2, %rd4, 40000;\n"
                          " @%p2 bra $L__BB0_3;\n nanosleep.u32 1000;\n bra.uni $L__BB0_3;\n$L__BB0_9:\n");
  lc_diag d;
  lc_source src;
  char *t = translate(backoff, &d, &src);
  assert_non_null(t);
  /* one poll, in a loop of the test: the clock's branch taken while reading */
  assert_int_equal(count(t, "ld.acquire.gpu.b32.global r"), 1);
  assert_null(strstr(t, "nanosleep"));
  assert_non_null(strstr(t, "st.global.u32 [data[1]], r"));
  free(t);
  lc_source_fini(&src);
  lc_diag_fini(&d);
  free(backoff);
}

/* elect.sync (CUTLASS's elect_one_sync): the lowest lane of the member mask
 * leads; two threads of one CTA, the leader the writer (it was one error,
 * "the warp-level elect.sync is not modelled") */
static void test_kptx_elect(void **state) {
  (void)state;
  char *el = replace(ptx, " mov.u32 %r1, %ctaid.x;\n setp.ne.s32 %p1, %r1, 0;\n @%p1 bra $L__BB0_3;\n",
                     " elect.sync %r1|%p1, -1;\n @!%p1 bra $L__BB0_3;\n");
  lc_diag d;
  lc_source src;
  lc_source_from_string(&src, "k.cu", cu, strlen(cu));
  lc_diag_init(&d, &src, NULL);
  kp_options o = {NULL, "<<<1, 2>>>", NULL, NULL, "nvcc", 90, "nvcc's PTX", false, NULL};
  char *t = kp_translate(&src, el, &o, NULL, NULL, &d);
  assert_non_null(t);
  assert_non_null(strstr(t, "P0@cta 0,gpu 0 | P1@cta 0,gpu 0"));
  /* one writer (lane 0), one reader (lane 1) */
  assert_int_equal(count(t, "st.release.gpu.b32.global [flag], 1"), 1);
  assert_int_equal(count(t, "ld.acquire.gpu.b32.global r"), 1);
  assert_non_null(strstr(t, " st.release.gpu.b32.global [flag], 1 |"));
  free(t);
  lc_source_fini(&src);
  lc_diag_fini(&d);
  free(el);
}

/* libcu++'s wait (cuda::barrier): a counter of polls before backing off,
 * the poll at the loop's foot branching back on memory.  The counter
 * keeps changing, so the head is widened after a few states, not after
 * 40: a few copies of the poll, not one per count */
static void test_kptx_spin_widen(void **state) {
  (void)state;
  char *w = replace(ptx, "$L__BB0_3:\n .loc 1 6 10\n ld.acquire.gpu.b32 %r5, [%rd1];\n",
                    " mov.u32 %r7, 0;\n$L__BB0_3:\n .loc 1 6 10\n setp.lt.s32 %p2, %r7, 16;\n add.s32 %r7, %r7, 1;\n"
                    " @%p2 bra $L__BB0_7;\n nanosleep.u32 100;\n$L__BB0_7:\n ld.acquire.gpu.b32 %r5, [%rd1];\n");
  lc_diag d;
  lc_source src;
  char *t = translate(w, &d, &src);
  assert_non_null(t);
  size_t polls = count(t, "ld.acquire.gpu.b32.global r");
  assert_true(polls >= 1 && polls <= 4);
  assert_non_null(strstr(t, "st.global.u32 [data[1]], r"));
  free(t);
  lc_source_fini(&src);
  lc_diag_fini(&d);
  free(w);
}

/* cooperative groups' grid barrier as nvcc emits it for sm_90 (sync.h,
 * sync_grids): read as the test's grid.sync in every thread; PTX that
 * differs from it in a constant, statically or per thread, is kept as it
 * is (the barrier word's atom and poll in the test) */
static const char *const grid_ptx =
    "// Cuda compilation tools, release 13.0, V13.0.88\n"
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z1kPiS_(\n .param .u64 _Z1kPiS__param_0,\n .param .u64 _Z1kPiS__param_1\n)\n{\n"
    " .reg .pred %p<8>;\n .reg .b32 %r<40>;\n .reg .b64 %rd<20>;\n"
    " .loc 1 4 0\n"
    " ld.param.u64 %rd11, [_Z1kPiS__param_1];\n"
    " .loc 1 5 3\n"
    " mov.u32 %r13, %tid.y;\n mov.u32 %r14, %tid.x;\n add.s32 %r1, %r14, %r13;\n"
    " mov.u32 %r15, %tid.z;\n neg.s32 %r2, %r15;\n mov.u32 %r3, %ctaid.x;\n"
    " mov.u32 %r16, %nctaid.y;\n mov.u32 %r17, %nctaid.x;\n mul.lo.s32 %r18, %r17, %r16;\n"
    " mov.u32 %r19, %nctaid.z;\n mul.lo.s32 %r20, %r18, %r19;\n mov.u32 %r21, %ctaid.y;\n"
    " add.s32 %r22, %r3, %r21;\n mov.u32 %r23, %ctaid.z;\n neg.s32 %r24, %r23;\n"
    " setp.eq.s32 %p1, %r22, %r24;\n mov.u32 %r25, -2147483647;\n sub.s32 %r26, %r25, %r20;\n"
    " selp.b32 %r4, %r26, 1, %p1;\n"
    " cvta.to.global.u64 %rd16, %rd11;\n mul.wide.s32 %rd17, %r3, 4;\n add.s64 %rd4, %rd16, %rd17;\n"
    " st.global.u32 [%rd4], 1;\n"
    " mov.u32 %r11, %envreg2;\n cvt.u64.u32 %rd12, %r11;\n mov.u32 %r12, %envreg1;\n cvt.u64.u32 %rd13, %r12;\n"
    " bfi.b64 %rd1, %rd13, %rd12, 32, 32;\n setp.ne.s64 %p2, %rd1, 0;\n @%p2 bra $L__BB0_2;\n trap;\n"
    "$L__BB0_2:\n"
    " setp.ne.s32 %p3, %r1, %r2;\n"
    " barrier.sync 0;\n"
    " @%p3 bra $L__BB0_5;\n"
    " add.s64 %rd14, %rd1, 4;\n"
    " atom.add.release.gpu.u32 %r27,[%rd14],%r4;\n"
    "$L__BB0_4:\n"
    " ld.acquire.gpu.u32 %r29,[%rd14];\n"
    " xor.b32 %r30, %r29, %r27;\n"
    " setp.gt.s32 %p4, %r30, -1;\n"
    " @%p4 bra $L__BB0_4;\n"
    "$L__BB0_5:\n"
    " mov.u32 %r33, 1;\n sub.s32 %r34, %r33, %r3;\n mul.wide.s32 %rd18, %r34, 4;\n add.s64 %rd3, %rd16, %rd18;\n"
    " barrier.sync 0;\n"
    " .loc 1 6 3\n"
    " ld.global.u32 %r6, [%rd3];\n"
    " ret;\n"
    "}\n"
    " .file 1 \"/tmp/k.cu\"\n";

static char *grid_translate(const char *text) {
  lc_diag d;
  lc_source src;
  lc_source_from_string(&src, "k.cu", cu, strlen(cu));
  lc_diag_init(&d, &src, NULL);
  kp_options o = {NULL, "<<<2, 2>>>", "flag = {0}; data = {0, 0}", "exists (data[0] == 1)", "nvcc", 90, "nvcc's PTX"};
  char *t = kp_translate(&src, text, &o, NULL, NULL, &d);
  lc_source_fini(&src);
  lc_diag_fini(&d);
  return t;
}

static void test_kptx_grid_barrier(void **state) {
  (void)state;
  char *t = grid_translate(grid_ptx);
  assert_non_null(t);
  assert_int_equal(count(t, "grid.sync"), 4);   /* each of the 4 threads once */
  assert_null(strstr(t, "__grid_workspace"));
  assert_null(strstr(t, "barrier.sync"));
  assert_int_equal(count(t, "ld.global.u32 r"), 4);   /* the address computed between the barriers followed */
  assert_non_null(strstr(t, "[data[1]]"));
  free(t);
  /* what is not sync_grids' sequence: a poll until another value (statically), block 0
   * adding 1 (the word flips never), thread 1 the master (per thread): the PTX as it is */
  static const char *const not_it[][2] = {
      {"setp.gt.s32 %p4, %r30, -1;", "setp.gt.s32 %p4, %r30, 0;"},
      {"mov.u32 %r25, -2147483647;", "mov.u32 %r25, 3;"},
      {"setp.ne.s32 %p3, %r1, %r2;", "setp.ne.s32 %p3, %r1, 1;"},
  };
  for (size_t k = 0; k < sizeof not_it / sizeof *not_it; k++) {
    char *v = replace(grid_ptx, not_it[k][0], not_it[k][1]);
    t = grid_translate(v);
    assert_non_null(t);
    assert_null(strstr(t, "grid.sync"));
    assert_int_equal(count(t, "atom.add.release.gpu.u32.global r"), 2);   /* one master per CTA */
    assert_int_equal(count(t, "barrier.sync 0"), 8);
    free(t);
    free(v);
  }
}

/* libcu++'s blocking wait (atomic::wait, latch::wait, a semaphore's
 * acquire): polls unrolled, the second through a copy of the pointer, then
 * a back-off loop on the clock; with fold_waits one spin loop of the test on
 * the first poll.  A back-off that writes is left as written, and named */
static const char *const wait_shape =
    "$L__BB0_3:\n .loc 1 6 10\n ld.acquire.gpu.b32 %r5, [%rd1];\n setp.ne.s32 %p3, %r5, 0;\n @%p3 bra $L__BB0_8;\n"
    " mov.u64 %rd4, %rd1;\n ld.acquire.gpu.b32 %r7, [%rd4];\n setp.ne.s32 %p2, %r7, 0;\n @%p2 bra $L__BB0_8;\n"
    "$L__BB0_6:\n mov.u64 %rd5, %globaltimer;\n nanosleep.u32 100;\n ld.acquire.gpu.b32 %r8, [%rd1];\n"
    " setp.eq.s32 %p1, %r8, 0;\n @%p1 bra $L__BB0_6;\n$L__BB0_8:\n";

static char *translate_waits(const char *ptx_text, lc_diag *d, lc_source *src, kp_unfolded *left) {
  lc_source_from_string(src, "k.cu", cu, strlen(cu));
  lc_diag_init(d, src, NULL);
  kp_options o = {NULL, NULL, NULL, NULL, "nvcc", 90, "nvcc's PTX", true, left};
  return kp_translate(src, ptx_text, &o, NULL, NULL, d);
}

static void test_kptx_fold_wait(void **state) {
  (void)state;
  char *w = replace(ptx, "$L__BB0_3:\n .loc 1 6 10\n ld.acquire.gpu.b32 %r5, [%rd1];\n setp.eq.s32 %p3, %r5, 0;\n"
                    " @%p3 bra $L__BB0_3;\n", wait_shape);
  lc_diag d;
  lc_source src;
  kp_unfolded left = {0};
  char *t = translate_waits(w, &d, &src, &left);
  assert_non_null(t);
  assert_int_equal(count(t, "ld.acquire.gpu.b32.global r"), 1);
  assert_null(strstr(t, "nanosleep"));
  assert_int_equal(left.ptx_line, 0);
  assert_non_null(strstr(t, "st.global.u32 [data[1]], r"));
  free(t);
  lc_source_fini(&src);
  lc_diag_fini(&d);
  /* a back-off that writes: read as written, the wait named */
  char *st = replace(w, " nanosleep.u32 100;\n", " st.global.u32 [%rd3], 0;\n");
  left = (kp_unfolded){0};
  t = translate_waits(st, &d, &src, &left);
  assert_non_null(t);
  assert_true(count(t, "ld.acquire.gpu.b32.global r") > 1);
  assert_true(left.ptx_line > 0);
  assert_int_equal(left.src_line, 6);
  assert_non_null(strstr(left.why, "no load of the word"));
  free(t);
  lc_source_fini(&src);
  lc_diag_fini(&d);
  free(st);
  free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kptx_threads),
      cmocka_unit_test(test_kptx_lines),
      cmocka_unit_test(test_kptx_refused),
      cmocka_unit_test(test_kptx_clock),
      cmocka_unit_test(test_kptx_elect),
      cmocka_unit_test(test_kptx_spin_widen),
      cmocka_unit_test(test_kptx_grid_barrier),
      cmocka_unit_test(test_kptx_fold_wait),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
