/* test_cu_gen.c - the CUDA generator: what it refuses (exact message and
 * position), how it spells instructions, how it cuts phases, and how an
 * outcome becomes a histogram bin.
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cu_testlib.h"

/* ---- refusals ---------------------------------------------------------------------- */

/* Plans text and expects cu_emit to refuse it with exactly `want`. */
static void refused(const char *text, const char *want) {
  cu_fixture f;
  assert_non_null(fx_load(&f, text));
  lc_buf b;
  lc_buf_init(&b);
  assert_int_equal(cu_emit(&b, f.p, &f.d), -1);
  assert_string_equal(fx_error(&f), want);
  lc_buf_fini(&b);
  fx_free(&f);
}

static void test_cu_refuse_surface(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; s @ surface aliases x; }\n P0@cta 0,gpu 0 ;\n sust.weak s, 1 ;\nexists (x == 1)\n",
          "t.litmus:4:2: error: P0: 'sust.weak s, 1' cannot run on the GPU: texture and surface accesses need "
          "texture/surface objects over the location, which the CUDA backend does not set up");
}

static void test_cu_refuse_constant(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; c @ constant aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n cold.weak r0, c ;\n"
          "exists (P0:r0 == 0)\n",
          "t.litmus:5:2: error: P0: 'cold.weak r0, c' cannot run on the GPU: constant-proxy accesses need constant "
          "memory aliasing the location, which the CUDA backend does not set up");
}

static void test_cu_refuse_proxy_fence(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n fence.proxy.constant ;\nexists (x == 1)\n",
          "t.litmus:5:2: error: P0: 'fence.proxy.constant' cannot run on the GPU: PTX has no such proxy fence (it "
          "has fence.proxy.alias and the async proxies); texture, surface and constant proxies are not set up");
}

static void test_cu_refuse_quorum_hang(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; }\n P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
          " st.weak x, 1         | bar.cta.sync 1, 1, 3 ;\n"
          " bar.cta.sync 1, 1, 3 | ld.weak r0, x        ;\nexists (P1:r0 == 0)\n",
          "t.litmus:5:2: error: P0: 'bar.cta.sync 1, 1, 3' cannot run on the GPU: it waits for 3 threads but only "
          "2 reach this barrier, so it never completes");
}

static void test_cu_refuse_barrier_order(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
          " ld.weak r0, x  | bar.cta.sync 1 ;\n"
          " bar.cta.sync 0 | st.weak x, 1   ;\n"
          " bar.cta.sync 1 | bar.cta.sync 0 ;\nexists (P0:r0 == 1)\n",
          "t.litmus:5:2: error: P0: 'bar.cta.sync 0' cannot run on the GPU: threads of its CTA meet its barriers in "
          "different orders, which deadlocks; the GPU backend makes every barrier one CTA-wide barrier.cta.sync, which "
          "needs one order");
}

static void test_cu_refuse_branch_over_barrier(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0   ;\n"
          " st.weak x, 1   | beq r0, 0, LC00 ;\n"
          " bar.cta.sync 1 | bar.cta.sync 1  ;\n"
          "                | LC00:           ;\n"
          "                | ld.weak r0, x   ;\nexists (P1:r0 == 0)\n",
          "t.litmus:4:19: error: P1: 'beq r0, 0, LC00' cannot run on the GPU: it jumps across a barrier; every thread "
          "must meet every barrier of the kernel, so the backend does not branch around one");
}

static void test_cu_refuse_atom_type(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.and.u32 r0, x, 1 ;\nexists (P0:r0 == 0)\n",
          "t.litmus:4:2: error: P0: 'atom.relaxed.gpu.and.u32 r0, x, 1' cannot run on the GPU: PTX has no atom/red "
          "of this operation with this type");
}

static void test_cu_refuse_mixed_sizes(void **state) {
  (void)state;
  refused("PTX a\n{ x=0; y=0; }\n P0@cta 0,gpu 0 ;\n st.weak.u64 x, 1 ;\n st.weak.u32 y, 1 ;\nexists (x == 1)\n",
          "t.litmus:5:2: error: P0: 'st.weak.u32 y, 1' cannot run on the GPU: the test also needs 64-bit values; "
          "mixed-size accesses are not supported");
}

static void test_cu_refuse_addresses(void **state) {
  (void)state;
  refused("PTX a\n{ x=&y; y=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n",
          "t.litmus:2:3: error: the GPU backend does not support addresses as initial values (&y)");
  refused("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0 /\\ P0:r0 != &x)\n",
          "t.litmus:5:32: error: the GPU backend cannot compare addresses (&x) in an outcome");
}

/* sm_90 instructions the kernel cannot run faithfully (docs/hopper.md). */
static void test_cu_refuse_hopper(void **state) {
  (void)state;
  static const char *const head = "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                                  " mbarrier.init.shared::cta.b64 [bar], 1 | bar.sync 0 ;\n bar.sync 0 | LC00: ;\n";
  char t[1024];
  snprintf(t, sizeof t, "%s mbarrier.arrive.shared::cta.b64 r5, [bar] | mbarrier.try_wait.shared::cta.b64 r0, [bar], r5 ;\n"
           " | beq r0, 0, LC00 ;\nbar: shared\nexists (P1:r0 == 1)\n", head);
  refused(t, "t.litmus:6:46: error: P1: 'mbarrier.try_wait.shared::cta.b64 r0, [bar], r5' cannot run on the GPU: the "
             "state an arrive returns is an opaque 64-bit value on the GPU, not the model's phase; wait by .parity");
  snprintf(t, sizeof t, "%s mbarrier.arrive.shared::cta.b64 r5, [bar] | mbarrier.try_wait.parity.shared::cta.b64 r0, [bar], 0 ;\n"
           " | beq r0, 0, LC00 ;\nbar: shared\nexists (P0:r5 == 0)\n", head);
  refused(t, "t.litmus:6:2: error: P0: 'mbarrier.arrive.shared::cta.b64 r5, [bar]' cannot run on the GPU: the state an "
             "arrive returns is an opaque 64-bit value on the GPU, not the model's phase: nothing may read it");
  snprintf(t, sizeof t, "%s mbarrier.arrive.shared::cta.b64 _, [bar] | mbarrier.try_wait.parity.shared::cta.b64 r0, [bar], 0 ;\n"
           " | beq r0, 0, LC00 ;\nbar: shared\nexists (P1:r0 == 1 /\\ bar == 0)\n", head);
  refused(t, "t.litmus:9:23: error: the GPU backend cannot compare mbarrier bar: the hardware's object is opaque");
  snprintf(t, sizeof t, "%s mbarrier.arrive.shared::cta.b64 _, [bar] | ld.shared.u64 r0, [bar] ;\n"
           "bar: shared\nexists (P1:r0 == 1)\n", head);
  refused(t, "t.litmus:6:45: error: P1: 'ld.shared.u64 r0, [bar]' cannot run on the GPU: it accesses an mbarrier, "
             "whose hardware object is opaque (only mbarrier instructions may touch it)");
  refused("PTX a\n{ x=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
          " barrier.cluster.arrive | barrier.cluster.arrive ;\n st.weak x, 1 | barrier.cluster.wait ;\n"
          " barrier.cluster.wait | ld.weak r0, x ;\nexists (P1:r0 == 0)\n",
          "t.litmus:4:2: error: P0: 'barrier.cluster.arrive' cannot run on the GPU: the GPU kernel runs a cluster "
          "barrier as barrier.cluster.arrive directly followed by barrier.cluster.wait, for every thread of the cluster");
  refused("PTX a\n{ a=1; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 ;\n"
          " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [a], 512, [bar] ;\n"
          "bar: shared, buf: shared\nexists (a == 1)\n",
          "t.litmus:5:2: error: P0: 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [a], 512, "
          "[bar]' cannot run on the GPU: bulk copies of more than 256 bytes are not emitted (every location's slot "
          "would grow to the copy's size)");
}

/* ---- spelling and structure ---------------------------------------------------------- */

static char *emit(const char *text) {
  cu_fixture f;
  assert_non_null(fx_load(&f, text));
  lc_buf b;
  lc_buf_init(&b);
  assert_int_equal(cu_emit(&b, f.p, &f.d), 0);
  fx_free(&f);
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

static void contains(const char *src, const char *want) {
  if (!strstr(src, want)) fail_msg("generated source lacks \"%s\"", want);
}

static void test_cu_spelling(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ x=0; y=0; z=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
                 " st.release.cta y, 1 | ld.weak.cg r1, x ;\n"
                 " atom.acq_rel.gpu.add r2, z, 1 | red.acq_rel.sys.sub z, 2 ;\n"
                 " membar.gl | fence.sc.cta ;\n"
                 " atom.relaxed.gpu.cas r3, x, 0, 5 | red.release.gpu.min z, 3 ;\n"
                 " fence.proxy.alias | atom.exch r4, y, 7 ;\n"
                 "exists (P1:r0 == 1)\n");
  contains(s, "\"st.weak.global.u32 [%4], 1;\\n\\t\"");
  contains(s, "\"st.release.cta.global.u32 [%5], 1;\\n\\t\"");
  contains(s, "\"atom.acq_rel.gpu.global.add.u32 %2, [%6], 1;\\n\\t\"");
  contains(s, "\"membar.gl;\\n\\t\"");
  contains(s, "\"atom.relaxed.gpu.global.cas.b32 %3, [%7], 0, 5;\\n\\t\"");
  contains(s, "\"fence.proxy.alias;\\n\\t\"");
  contains(s, "\"ld.acquire.gpu.global.u32 %3, [%7];\\n\\t\"");
  contains(s, "\"ld.weak.global.cg.u32 %4, [%8];\\n\\t\"");
  /* red.acq_rel has no PTX form: the atom with its result in a shadow only; sub is add of -v */
  contains(s, "\"atom.acq_rel.sys.global.add.u32 %5, [%9], -2;\\n\\t\"");
  contains(s, "\"fence.sc.cta;\\n\\t\"");
  contains(s, "\"red.release.gpu.global.min.s32 [%10], 3;\\n\\t\"");
  contains(s, "\"atom.global.exch.b32 %6, [%11], 7;\\n\\t\"");
  contains(s, "// P1 line 6: red.acq_rel.sys.sub z, 2");
  /* what a load or atom reads goes to the register through a shadow that the sink keeps alive */
  contains(s, "\"mov.b32 %0, %3;\\n\\t\"");
  contains(s, "cu_sink ^= s1_2;");   /* the red.acq_rel spelled as atom */
  /* every access its own address: the two accesses of P0 to x differ by a multiple of P.zero */
  contains(s, "const cu_u64 a0_0 = cu_to_global(P.mem + cu_loc_word(&P, 0, i0) * sizeof(cu_word)) + 1 * P.zero;  // x");
  contains(s, "const cu_u64 a0_4 = cu_to_global(P.mem + cu_loc_word(&P, 0, i0) * sizeof(cu_word)) + 4 * P.zero;  // x");
  free(s);
}

/* Stress that overlaps the test: stressing CTAs stop once every testing
 * CTA is done (counted after the litmus code), pre-stress has settings of
 * its own, the roles' address arithmetic comes before the spin barrier,
 * and each testing CTA records its SM for the samples. */
static void test_cu_overlap(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1)\n");
  contains(s, "if (until_done && (n & 63) == 0 && *done >= ntest) break;");
  contains(s, "testing ? P.pre_pattern : P.stress_pattern, testing ? P.pre_lines : P.stress_lines,");
  contains(s, "testing ? P.pre_iters : P.stress_iters, !testing);");
  contains(s, "if (lane == 0) atomicAdd((cu_u32 *)P.sync + 1, 1u);");
  contains(s, "((volatile cu_u32 *)P.sync)[0] = ((volatile cu_u32 *)P.sync)[1] = 0;");
  contains(s, "asm(\"mov.u32 %0, %%smid;\" : \"=r\"(sm));");
  const char *addr = strstr(s, "const cu_u64 a1_1 = "), *barrier = strstr(s, "if (P.barrier) cu_spin_barrier(&P);");
  const char *first = strstr(s, "st.weak.global.u32");
  assert_non_null(addr);
  assert_non_null(barrier);
  assert_true(addr < barrier && barrier < first);
  free(s);
}

/* A copy of the test kernel per role order (at most CU_MAX_ROTATIONS):
 * cu_test runs P0 then P1, cu_test_r1 P1 then P0. */
static void test_cu_rotations(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.weak x, 1 | ld.weak r0, y ;\nexists (P1:r0 == 1)\n");
  const char *k0 = strstr(s, "CU_GLOBAL CU_KNAME(cu_test)("), *k1 = strstr(s, "CU_GLOBAL CU_KNAME(cu_test_r1)(");
  assert_non_null(k0);
  assert_non_null(k1);
  assert_null(strstr(s, "cu_test_r2"));
  assert_true(strstr(k0, "// P0, phase 0") < strstr(k0, "// P1, phase 0"));
  assert_true(strstr(k1, "// P1, phase 0") < strstr(k1, "// P0, phase 0"));
  assert_non_null(strstr(s, "#ifndef CU_FIRST_ROTATION_ONLY\n#ifndef CU_CLASSIFY_ONLY\nCU_GLOBAL CU_KNAME(cu_test_r1)"));
  free(s);
}

static void test_cu_shared_and_64_bit(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ x=0; y=5000000000; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                 " st.relaxed.cta x, 1 | ld.relaxed.cta r0, x ;\n"
                 " st.weak y, 1 | ld.weak r1, y ;\nx: shared\nexists (P1:r0 == 1)\n");
  contains(s, "st.relaxed.cta.shared.u64 [%0], 1;");
  contains(s, "ld.relaxed.cta.shared.u64 %2, [%4];");
  contains(s, "st.weak.global.u64 [%1], 1;");
  contains(s, "typedef cu_u64 cu_word;");
  contains(s, "\"+l\"(p1_r0)");
  contains(s, "cu_to_shared(&sh[cu_shared_slot(&P, 0, i0)])");
  free(s);
}

/* Barriers cut the roles into phases; one barrier.cta.sync per boundary. */
static void test_cu_phases(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
                 " st.weak x, 1   | bar.cta.sync 1 | st.weak y, 1 ;\n"
                 " bar.cta.sync 1 | ld.weak r0, x  | bar.cta.sync 2, 1, 1 ;\n"
                 " bar.cta.arrive 3 | ld.weak r1, y | ;\n"
                 "exists (P1:r0 == 0)\n");
  const char *p0 = strstr(s, "// P0, phase 0"), *b1 = strstr(s, "barrier.cta.sync 1;\" ::: \"memory\"");
  const char *p1 = strstr(s, "// P1, phase 1"), *b2 = strstr(s, "barrier.cta.sync 2;\" ::: \"memory\"");
  assert_non_null(p0);
  assert_non_null(b1);
  assert_non_null(p1);
  assert_true(p0 < b1 && b1 < p1);
  assert_null(b2);                /* barrier 2 and the lone arrive share boundaries or drop */
  assert_null(strstr(s, "barrier.cta.sync 3;"));
  contains(s, "// no thread waits on this barrier instance: nothing to synchronise");
  free(s);
}

/* mbarriers: opaque 16-byte slots that mbarrier.init sets, a wait's
 * predicate as the 0/1 register the branch reads, sm_90. */
static void test_cu_mbarrier(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                 " mbarrier.init.shared::cta.b64 [bar], 1 | bar.sync 0 ;\n bar.sync 0 | LC00: ;\n"
                 " st.global.u32 [x], 1 | mbarrier.try_wait.parity.shared::cta.b64 r0, [bar], 0 ;\n"
                 " mbarrier.arrive.shared::cta.b64 _, [bar] | beq r0, 0, LC00 ;\n | ld.global.u32 r1, [x] ;\n"
                 "bar: shared\nexists (P1:r1 == 0)\n");
  contains(s, "needs sm_90 or later");
  contains(s, "extern __shared__ __align__(16) cu_u64 cu_dyn[];");
  assert_null(strstr(s, "(cu_word)0LL;  // bar"));
  contains(s, "\"mbarrier.init.shared::cta.b64 [%0], 1;\\n\\t\"");
  contains(s, "\"mbarrier.arrive.shared::cta.b64 _, [%1];\\n\\t\"");
  contains(s, "\"mbarrier.try_wait.parity.shared::cta.b64 p, [%4], 0;\\n\\t\"");
  contains(s, "\"selp.b32 %0, 1, 0, p;\\n\\t\"");
  free(s);
}

/* Bulk copies and the async proxy's fences as written. */
static void test_cu_bulk(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ a=1; out=0; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 ;\n"
                 " mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 32 ;\n"
                 " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [a], 32, [bar] ;\n"
                 " fence.proxy.async.shared::cta ;\n"
                 " cp.async.bulk.global.shared::cta.bulk_group [out], [buf], 32 ;\n"
                 " cp.async.bulk.commit_group ;\n cp.async.bulk.wait_group.read 0 ;\n"
                 "bar: shared, buf: shared\nexists (out == 1)\n");
  contains(s, "\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], 32;\\n\\t\"");
  contains(s, "\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%2], [%3], 32, [%4];\\n\\t\"");
  contains(s, "\"fence.proxy.async.shared::cta;\\n\\t\"");
  contains(s, "\"cp.async.bulk.global.shared::cta.bulk_group [%5], [%6], 32;\\n\\t\"");
  contains(s, "\"cp.async.bulk.commit_group;\\n\\t\"");
  contains(s, "\"cp.async.bulk.wait_group.read 0;\\n\\t\"");
  contains(s, "const cu_u64 a0_2_b = cu_to_global(P.mem + cu_loc_word(&P, 0, i0) * sizeof(cu_word)) + 4 * P.zero;  // a");
  free(s);
}

/* Distributed shared memory: cluster barriers around the test, mapa to
 * the peer's rank from the placement, and a cluster barrier boundary
 * (.relaxed only when every arrive it stands for is). */
static void test_cu_dsmem(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
                 " mapa.shared::cluster.u32 r1, x, 1 | barrier.cluster.arrive.relaxed ;\n"
                 " st.shared::cluster.u32 [r1], 42 | barrier.cluster.wait ;\n"
                 " barrier.cluster.arrive.relaxed.aligned | ld.shared::cta.u32 r0, [x] ;\n"
                 " barrier.cluster.wait.aligned | ;\nx: shared\nexists (P1:r0 == 0)\n");
  contains(s, "/* every CTA of the cluster has set its shared memory up */\n"
              "  asm volatile(\"barrier.cluster.arrive;\\n\\tbarrier.cluster.wait;\" ::: \"memory\");");
  contains(s, "/* no CTA exits while a peer may still access its shared memory */");
  contains(s, "const cu_u64 a0_0 = cu_to_shared(&sh[cu_shared_slot(&P, 1, i0)]) + 1 * P.zero;  // x");
  contains(s, "cu_role_thread(&P, 1, i0, &rk0_0, &rl0_0);\n  rk0_0 = cu_physical_cta(&P, rk0_0) % P.cs;");
  contains(s, "\"mapa.shared::cluster.u32 %0, tp0, %2;\\n\\t\"");
  contains(s, "\"st.shared::cluster.u32 [%0], 42;\\n\\t\"");
  contains(s, "// phase boundary 1: every thread of the cluster, for P0 line 7 P1 line 5\n"
              "  asm volatile(\"barrier.cluster.arrive.relaxed;\\n\\tbarrier.cluster.wait;\" ::: \"memory\");");
  assert_null(strstr(s, ".aligned;"));
  free(s);
}

/* A backward jump is bounded like the model's unrolling and cuts the instance. */
static void test_cu_loops(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.relaxed.gpu f, 1 | LC00: ;\n"
                 "                     | ld.relaxed.gpu r0, f ;\n"
                 "                     | beq r0, 0, LC00 ;\n"
                 "exists (P1:r0 == 1)\n");
  contains(s, "LT1_LC00:");
  contains(s, "setp.eq.s32 p, %0, 0;");
  contains(s, "@!p bra LT1_n2;");
  /* past the unroll bound: marked; past the spin limit or the deadline: cut */
  contains(s, "add.u32 lc0, lc0, 1;\\n\\t\"\n"
              "    \"setp.gt.u32 q, lc0, 2;\\n\\t\"\n"
              "    \"@q or.b32 %1, %1, 1;\\n\\t\"\n"
              "    \"setp.gt.u32 q, lc0, %4;\\n\\t\"\n"
              "    \"@q bra LT1_cut;\\n\\t\"\n"
              "    \"mov.u64 tg, %globaltimer;\\n\\t\"\n"
              "    \"setp.gt.u64 q, tg, %5;\\n\\t\"\n"
              "    \"@q bra LT1_late;\\n\\t\"\n"
              "    \"bra LT1_LC00;");
  contains(s, "LT1_late:\\n\\t\"\n    \"or.b32 %1, %1, 4;\\n\\t\"\n    \"LT1_cut:\\n\\t\"\n"
              "    \"or.b32 %1, %1, 2;\\n\\t\"\n    \"LT1_end:");
  /* a cut instance skips the rest of its code */
  contains(s, "\"and.b32 tc, %1, 2;\\n\\t\"\n    \"setp.ne.u32 q, tc, 0;\\n\\t\"\n    \"@q bra LT1_end;");
  contains(s, ": \"l\"(a1_1), \"r\"(P.spin_limit), \"l\"(cu_deadline)");
  contains(s, "asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(cu_deadline));\n  cu_deadline += P.watchdog_ns;");
  contains(s, "((cu_u32 *)P.cut)[(cu_u64)0 * P.ninst + i1] = p1_cut;");
  /* classify: cut instances apart, those beyond the bound marked */
  contains(s, "    const cu_u32 cut = ((const cu_u32 *)P.cut)[(cu_u64)0 * P.ninst + i];\n"
              "    if (cut & CU_CUT_STOPPED) {\n      atomicAdd(scnt + CU_CNT_CUT, 1u);\n"
              "      if (cut & CU_CUT_LATE) atomicAdd(scnt + CU_CNT_LATE, 1u);\n      continue;\n    }\n");
  contains(s, "cu_count(&P, v, 1, i, shist, (cut & CU_CUT_BEYOND) != 0);");
  free(s);
}

static void test_cu_arith(void **state) {
  (void)state;
  char *s = emit("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n add r1, r0, 3 ;\n div r2, r1, r0 ;\n"
                 " rem r3, r1, 0 ;\n ld r4, 9 ;\n st.weak x, r2 ;\nexists (P0:r3 == 0)\n");
  contains(s, "add.s32 %1, %0, 3;");
  contains(s, "setp.ne.s32 p, %0, 0;");
  contains(s, "@p div.s32 t1, %1, %0;");
  contains(s, "@!p mov.b32 t1, 0;");
  contains(s, "mov.b32 %3, %1;");   /* x % 0 = x, as the model says */
  contains(s, "mov.b32 %4, 9;");
  free(s);
}

/* ---- outcomes -------------------------------------------------------------------------- */

static const char *const mp =
  "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
  " st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

static void setup_launch(cu_launch *P, const cu_domains *dm) {
  memset(P, 0, sizeof *P);
  P->nshown = (cu_u32)dm->nshown;
  P->ndense = (cu_u32)dm->ndense;
  for (size_t j = 0; j < dm->nshown; j++) P->dom_off[j] = dm->off[j], P->dom_len[j] = dm->len[j];
}

static void test_cu_outcome_index(void **state) {
  (void)state;
  cu_fixture f;
  assert_non_null(fx_load(&f, mp));
  lc_result *allowed = lc_result_new(f.p, "test", "test");
  const lx_val states[][2] = {{0, 0}, {0, 1}, {1, 1}, {7, 1}};   /* 7: a value only the "model" knows */
  for (size_t s = 0; s < LC_ARRAY_LEN(states); s++) lc_result_add_state(allowed, states[s]);
  lc_result_sort(allowed);
  cu_domains dm;
  cu_domains_build(&dm, f.p, allowed);
  assert_int_equal(dm.nshown, 2);
  assert_int_equal(dm.len[0], 3);          /* {0, 1, 7} */
  assert_int_equal(dm.len[1], 2);          /* {0, 1} */
  assert_int_equal(dm.ndense, 6);
  cu_launch P;
  setup_launch(&P, &dm);
  /* every bin decodes to values that index back to it */
  for (cu_u32 bin = 0; bin < 6; bin++) {
    cu_i64 v[2];
    cu_u32 back;
    cu_dense_values(&P, dm.values, bin, 2, v);
    assert_true(cu_dense_index(&P, dm.values, v, 2, &back));
    assert_int_equal(back, bin);
  }
  const cu_i64 outside[2] = {2, 0};
  cu_u32 bin;
  assert_false(cu_dense_index(&P, dm.values, outside, 2, &bin));
  /* the bitmap marks exactly the allowed states */
  uint32_t *bits = cu_allowed_bitmap(&dm, &P, allowed);
  int set = 0;
  for (cu_u32 b = 0; b < 6; b++) {
    cu_i64 v[2];
    cu_dense_values(&P, dm.values, b, 2, v);
    bool want = false;
    for (size_t s = 0; s < LC_ARRAY_LEN(states); s++) want |= states[s][0] == v[0] && states[s][1] == v[1];
    assert_int_equal(cu_bit(bits, b), want);
    set += cu_bit(bits, b);
  }
  assert_int_equal(set, 4);
  free(bits);
  /* without a model every bin is allowed */
  bits = cu_allowed_bitmap(&dm, &P, NULL);
  for (cu_u32 b = 0; b < 6; b++) assert_true(cu_bit(bits, b));
  free(bits);
  cu_domains_fini(&dm);
  lc_result_free(allowed);
  fx_free(&f);
}

/* Register values computed from reads (add, atom) follow the values the
 * lowering gives the location read. */
static void test_cu_register_domain(void **state) {
  (void)state;
  cu_fixture f;
  assert_non_null(fx_load(&f, "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                              " atom.relaxed.gpu.add r0, x, 2 | ld.weak r1, x ;\n"
                              " add r2, r0, 10 | ;\nexists (P0:r2 == 10 /\\ P1:r1 == 2)\n"));
  cu_domains dm;
  cu_domains_build(&dm, f.p, NULL);
  assert_int_equal(dm.nshown, 2);
  const lx_ploc *x = &f.p->plocs[0];
  assert_int_equal(dm.len[0], x->nvalues);
  assert_int_equal(dm.len[1], x->nvalues);
  for (size_t i = 0; i < x->nvalues; i++) {
    assert_int_equal(dm.values[dm.off[0] + i], x->values[i] + 10);   /* P0:r2 = old x + 10 */
    assert_int_equal(dm.values[dm.off[1] + i], x->values[i]);        /* P1:r1 = x */
  }
  cu_domains_fini(&dm);
  fx_free(&f);
}

static void test_cu_outcome_hash_never_zero(void **state) {
  (void)state;
  for (cu_i64 a = -3; a < 4; a++) {
    const cu_i64 v[2] = {a, -a};
    assert_int_not_equal(cu_outcome_hash(v, 2), 0);
    assert_int_not_equal(cu_outcome_hash(v, 2), cu_outcome_hash(v, 1));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cu_refuse_surface),
    cmocka_unit_test(test_cu_refuse_constant),
    cmocka_unit_test(test_cu_refuse_proxy_fence),
    cmocka_unit_test(test_cu_refuse_quorum_hang),
    cmocka_unit_test(test_cu_refuse_barrier_order),
    cmocka_unit_test(test_cu_refuse_branch_over_barrier),
    cmocka_unit_test(test_cu_refuse_atom_type),
    cmocka_unit_test(test_cu_refuse_mixed_sizes),
    cmocka_unit_test(test_cu_refuse_addresses),
    cmocka_unit_test(test_cu_refuse_hopper),
    cmocka_unit_test(test_cu_spelling),
    cmocka_unit_test(test_cu_overlap),
    cmocka_unit_test(test_cu_rotations),
    cmocka_unit_test(test_cu_shared_and_64_bit),
    cmocka_unit_test(test_cu_phases),
    cmocka_unit_test(test_cu_mbarrier),
    cmocka_unit_test(test_cu_bulk),
    cmocka_unit_test(test_cu_dsmem),
    cmocka_unit_test(test_cu_loops),
    cmocka_unit_test(test_cu_arith),
    cmocka_unit_test(test_cu_outcome_index),
    cmocka_unit_test(test_cu_register_domain),
    cmocka_unit_test(test_cu_outcome_hash_never_zero),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
