/* cu_gen.c - the CUDA source of a litmus test: a test kernel in which
 * every thread plays every role, and a kernel that classifies outcomes.
 * SPDX-License-Identifier: MIT
 *
 * Layout of the source (what --emit-cuda prints and NVRTC compiles):
 *   - a prelude, guarded by CU_PRELUDE so that several tests can share one
 *     translation unit: cu_map.h verbatim, then device helpers (address
 *     conversion, stress, spin barrier, histogram, samples);
 *   - cu_test: each role's code, phase by phase, one `asm volatile` block
 *     per role and phase holding the litmus instructions in program order
 *     (with a "memory" clobber, so the compiler neither reorders the blocks
 *     nor moves memory accesses across them); a barrier.cta.sync between
 *     phases; then the observed registers go out to memory;
 *   - cu_classify: per instance, reads the registers and final values,
 *     resets the locations for the next launch, and counts the outcome.
 * Kernel names go through CU_KNAME so a test file can rename them.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cuda/cu_int.h"
#include "map/map_nvcc.h"

static const char prelude_helpers[] =
  "/* ---- device helpers ---------------------------------------------------- */\n"
  "#define CU_DEV __device__ __forceinline__\n"
  "#define CU_GLOBAL extern \"C\" __global__ void __launch_bounds__(1024)\n"
  "\n"
  "CU_DEV cu_u64 cu_to_global(cu_u64 generic) {\n"
  "  cu_u64 g;\n"
  "  asm(\"cvta.to.global.u64 %0, %1;\" : \"=l\"(g) : \"l\"(generic));\n"
  "  return g;\n"
  "}\n"
  "\n"
  "CU_DEV cu_u64 cu_to_shared(const void *generic) {\n"
  "  cu_u64 s;\n"
  "  asm(\"cvta.to.shared.u64 %0, %1;\" : \"=l\"(s) : \"l\"(generic));\n"
  "  return s;\n"
  "}\n"
  "\n"

  "/* Memory stress: at most `iters` rounds of the pattern's two accesses to\n"
  " * one of `lines` scratchpad lines, drawn per warp from the launch's seed.\n"
  " * Stressing CTAs (until_done) stop once every testing CTA has finished\n"
  " * its litmus code, so they stress while the tests run, not after. */\n"
  "CU_DEV void cu_stress(const cu_launch *P, cu_u64 key, cu_u32 pattern, cu_u32 lines, cu_u32 iters,\n"
  "                      bool until_done) {\n"
  "  cu_u64 s = P->stress_seed ^ (key * 0x9e3779b97f4a7c15ull);\n"
  "  cu_u32 line = (cu_u32)(cu_splitmix64(&s) % lines);\n"
  "  const volatile cu_u32 *done = (const volatile cu_u32 *)P->sync + 1;\n"
  "  const cu_u32 ntest = P->ntest_clusters * P->cs;\n"
  "  volatile cu_u32 *w = (volatile cu_u32 *)P->scratch + (cu_u64)line * CU_LINE_WORDS +\n"
  "                       threadIdx.x % CU_LINE_WORDS;\n"
  "  cu_u32 sink = 0;\n"
  "  for (cu_u32 n = 0; n < iters; n++) {\n"
  "    if (until_done && (n & 63) == 0 && *done >= ntest) break;\n"
  "    switch (pattern) {\n"
  "    case 0: *w = n; *w = n + 1; break;\n"
  "    case 1: *w = n; sink += *w; break;\n"
  "    case 2: sink += *w; *w = n; break;\n"
  "    default: sink += *w; sink += *w; break;\n"
  "    }\n"
  "  }\n"
  "  asm volatile(\"\" :: \"r\"(sink));\n"
  "}\n"
  "\n"
  "/* The testing CTAs meet here before the test, so that roles of one\n"
  " * instance start close together.  Bounded: CTAs that are not resident\n"
  " * together must not hang the GPU. */\n"
  "CU_DEV void cu_spin_barrier(const cu_launch *P) {\n"
  "  __syncthreads();\n"
  "  if (threadIdx.x == 0) {\n"
  "    volatile cu_u32 *c = (volatile cu_u32 *)P->sync;\n"
  "    cu_u32 want = P->ntest_clusters * P->cs;\n"
  "    atomicAdd((cu_u32 *)P->sync, 1u);\n"
  "    for (cu_u32 n = 0; n < P->barrier_spins && *c < want; n++) {\n"
  "    }\n"
  "    if (*c < want) atomicAdd((cu_u64 *)P->counters + CU_CNT_BARRIER_MISS, 1ull);\n"
  "  }\n"
  "  __syncthreads();\n"
  "}\n"
  "\n";

/* The classify kernel's helpers: in the subset of CUDA C++ and C11 that
 * tests/unit/test_cu_classify.c compiles on the host, with stand-ins for
 * the few CUDA built-ins they call. */
static const char prelude_classify[] =
  "/* The first max_samples forbidden instances, with where each role ran:\n"
  " * physical CTA, SM and thread. */\n"
  "CU_DEV void cu_forbidden(const cu_launch *P, const cu_i64 *v, cu_u32 n, cu_u32 i) {\n"
  "  cu_u64 *claims = (cu_u64 *)P->counters + CU_CNT_SAMPLED;\n"
  "  if (*(volatile cu_u64 *)claims >= P->max_samples) return;\n"
  "  cu_u64 k = atomicAdd(claims, 1ull);\n"
  "  if (k >= P->max_samples) return;\n"
  "  cu_u64 *rec = (cu_u64 *)P->samples + k * cu_sample_words(n, P->nroles);\n"
  "  rec[0] = P->iteration;\n"
  "  rec[1] = i;\n"
  "  for (cu_u32 j = 0; j < n; j++) rec[2 + j] = (cu_u64)v[j];\n"
  "#pragma unroll 1\n"
  "  for (cu_u32 r = 0; r < P->nroles; r++) {\n"
  "    cu_u32 B, lane;\n"
  "    cu_role_thread(P, r, i, &B, &lane);\n"
  "    cu_u32 cta = cu_physical_cta(P, B), sm = ((const cu_u32 *)P->ctasm)[cta];\n"
  "    rec[2 + n + r] = ((cu_u64)cta << 32) | ((cu_u64)(sm & 0xffff) << 16) | lane;\n"
  "  }\n"
  "}\n"
  "\n"
  "/* Outcomes outside the value domains: an open-addressing table keyed by\n"
  " * a 64-bit hash of the values. */\n"
  "CU_DEV void cu_hash_add(const cu_launch *P, const cu_i64 *v, cu_u32 n, cu_u64 salt) {\n"
  "  cu_u64 h = cu_outcome_hash(v, n) ^ salt;\n"
  "  cu_u64 *tab = (cu_u64 *)P->hash;\n"
  "  cu_u64 *cnt = (cu_u64 *)P->counters;\n"
  "#pragma unroll 1\n"
  "  for (cu_u32 probe = 0; probe < P->hash_cap; probe++) {\n"
  "    cu_u64 *e = tab + (cu_u64)((h + probe) & (P->hash_cap - 1)) * cu_hash_entry_words(n);\n"
  "    cu_u64 old = atomicCAS(e, 0ull, h);\n"
  "    if (old == 0)\n"
  "      for (cu_u32 j = 0; j < n; j++) e[2 + j] = (cu_u64)v[j];\n"
  "    if (old == 0 || old == h) {\n"
  "      atomicAdd(e + 1, 1ull);\n"
  "      atomicAdd(cnt + CU_CNT_HASHED, 1ull);\n"
  "      return;\n"
  "    }\n"
  "  }\n"
  "  atomicAdd(cnt + CU_CNT_LOST, 1ull);\n"
  "}\n"
  "\n"
  "/* An instance that ran a loop past the unroll bound is not compared with\n"
  " * the model: its outcome goes to the table, marked. */\n"
  "CU_DEV void cu_count(const cu_launch *P, const cu_i64 *v, cu_u32 n, cu_u32 i, cu_u32 *shist, bool beyond) {\n"
  "  cu_u32 bin;\n"
  "  bool forbidden = P->judge;\n"
  "  if (beyond) {\n"
  "    cu_hash_add(P, v, n, CU_BEYOND_SALT);\n"
  "    return;\n"
  "  }\n"
  "  if (cu_dense_index(P, (const cu_i64 *)P->dom, v, n, &bin)) {\n"
  "    if (P->shared_hist) {\n"
  "      /* most instances share a few bins: one atomic per bin and warp */\n"
  "      cu_u32 peers = __match_any_sync(__activemask(), bin);\n"
  "      if ((threadIdx.x & 31) == (cu_u32)(__ffs(peers) - 1)) atomicAdd(shist + bin, (cu_u32)__popc(peers));\n"
  "    } else\n"
  "      atomicAdd((cu_u64 *)P->hist + bin, 1ull);\n"
  "    forbidden = forbidden && !cu_bit((const cu_u32 *)P->allowed, bin);\n"
  "  } else {\n"
  "    cu_hash_add(P, v, n, 0);\n"
  "  }\n"
  "  if (forbidden) cu_forbidden(P, v, n, i);\n"
  "}\n"
  "\n"
  "/* Per-CTA counts (scnt[CU_CNT_CUT] .. scnt[CU_CNT_UNWRITTEN], then the\n"
  " * histogram) go to the device-wide ones once per CTA. */\n"
  "CU_DEV void cu_flush(const cu_launch *P, cu_u32 *scnt, cu_u32 *shist) {\n"
  "  __syncthreads();\n"
  "  if (P->shared_hist)\n"
  "    for (cu_u32 b = threadIdx.x; b < P->ndense; b += blockDim.x)\n"
  "      if (shist[b]) atomicAdd((cu_u64 *)P->hist + b, (cu_u64)shist[b]);\n"
  "  for (cu_u32 c = threadIdx.x; c < CU_NCTA_COUNTERS; c += blockDim.x)\n"
  "    if (scnt[c]) atomicAdd((cu_u64 *)P->counters + c, (cu_u64)scnt[c]);\n"
  "}\n";

/* ---- output helpers ------------------------------------------------------------------ */

typedef struct gen {
  lc_buf *o;
  const cu_plan *pl;
  const lx_program *p;
  const char *rc;        /* asm constraint of a register: "r" or "l" */
  const char *bt;        /* PTX bit type of a temporary: "b32" or "b64" */
  const char *st;        /* PTX signed type for comparisons: "s32" or "s64" */
} gen;

/* Appends s as the body of a C string literal; in an asm template a
 * percent sign that is not an operand must be doubled. */
static void c_string(lc_buf *o, const char *s, bool escape_percent) {
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') lc_buf_putc(o, '\\');
    if (*s == '%' && escape_percent) lc_buf_putc(o, '%');
    if (*s == '\n') { lc_buf_puts(o, "\\n"); continue; }
    lc_buf_putc(o, *s);
  }
}

static void c_comment(lc_buf *o, const char *s) {
  for (; *s; s++) {
    if (s[0] == '*' && s[1] == '/') { lc_buf_puts(o, "* /"); s++; continue; }
    lc_buf_putc(o, *s == '\n' ? ' ' : *s);
  }
}

/* A litmus label as a PTX identifier. */
static void ptx_label(lc_buf *b, int k, const char *label) {
  lc_buf_printf(b, "LT%d_", k);
  for (const char *c = label; *c; c++)
    lc_buf_putc(b, (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ? *c : '_');
}

static int thread_id(const gen *g, int k) { return g->p->threads[k].id; }

/* The C variable holding operand w (0 addr, 1 b, 2 c) of item i's address. */
static void addr_name(lc_buf *b, int id, int item, int w) {
  lc_buf_printf(b, w ? "a%d_%d_%c" : "a%d_%d", id, item, "abc"[w]);
}

/* ---- one asm block: a role's code in one phase --------------------------------------- */

typedef struct seg {
  gen *g;
  int k;                 /* role */
  int phase;
  LC_VEC(int) regs;      /* register numbers, operand order */
  LC_VEC(int) shadows;   /* items that read memory into a register, operand order */
  LC_VEC(int) accs;      /* addresses: item * 4 + operand (0 addr, 1 b, 2 c), operand order */
  LC_VEC(int) ranks;     /* mapa items: the peer CTA's rank, operand order */
  bool hopper;           /* the block has sm_90 instructions: their temporaries are declared */
  bool cut;              /* the cut flag is an operand */
  bool loops;            /* the block has a backward jump: the spin limit and deadline are operands */
  lc_buf body;           /* PTX lines */
  size_t lo, hi;         /* the items [lo, hi) of the phase (a C++ test's access ends a block) */
} seg;

static int seg_index(const int *v, size_t n, int x) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == x) return (int)i;
  return -1;
}

static void note_reg(seg *S, const lt_operand *o) {
  if ((o->kind == LT_OPND_REG || o->kind == LT_OPND_REGADDR) && seg_index(S->regs.v, S->regs.n, o->reg) < 0)
    lc_vec_push(&S->regs, o->reg);
}

static bool is_hopper(const lt_instr *in) {
  return in->kind == LT_I_MBAR || in->kind == LT_I_BULK || in->kind == LT_I_MAPA ||
         (in->kind == LT_I_FENCE_PROXY && in->proxy == LT_PROXY_ASYNC);
}

static bool is_memory(const lt_instr *in) {
  return in && (in->kind == LT_I_LD || in->kind == LT_I_ST || in->kind == LT_I_ATOM || in->kind == LT_I_RED);
}

/* Loads and atoms (a red spelled as atom too) put what they read in a
 * shadow register that goes to the sink, so that ptxas never finds the
 * value dead and drops the access. */
static bool reads_into_register(const lt_instr *in) {
  return in->kind == LT_I_LD || in->kind == LT_I_ATOM || cu_ptx_red_as_atom(in);
}

static void note_operands(seg *S, const lt_instr *in, int item) {
  note_reg(S, &in->dst);
  note_reg(S, &in->addr);
  note_reg(S, &in->a);
  note_reg(S, &in->b);
  note_reg(S, &in->c);
  S->hopper = S->hopper || is_hopper(in);
  if (in->kind == LT_I_MAPA) lc_vec_push(&S->ranks, item);
  const lt_operand *ops[3];
  cu_plan_loc_operands(in, ops);
  for (int w = 0; w < 3; w++)
    if (ops[w] && (is_memory(in) || is_hopper(in))) lc_vec_push(&S->accs, item * 4 + w);
  if (is_memory(in) && reads_into_register(in)) lc_vec_push(&S->shadows, item);
}

/* Operand numbers: registers, the cut flag, shadows, then addresses. */
static int reg_operand(const seg *S, int reg) { return seg_index(S->regs.v, S->regs.n, reg); }
static int cut_operand(const seg *S) { return (int)S->regs.n; }
static int shadow_operand(const seg *S, int item) {
  return (int)S->regs.n + (S->cut ? 1 : 0) + seg_index(S->shadows.v, S->shadows.n, item);
}
static int addr_operand_of(const seg *S, int item, int w) {
  return (int)(S->regs.n + (S->cut ? 1 : 0) + S->shadows.n) + seg_index(S->accs.v, S->accs.n, item * 4 + w);
}
static int addr_operand(const seg *S, int item) { return addr_operand_of(S, item, 0); }
static int rank_operand(const seg *S, int item) {
  return (int)(S->regs.n + (S->cut ? 1 : 0) + S->shadows.n + S->accs.n) + seg_index(S->ranks.v, S->ranks.n, item);
}
static int limit_operand(const seg *S) {
  return (int)(S->regs.n + (S->cut ? 1 : 0) + S->shadows.n + S->accs.n + S->ranks.n);
}
static int deadline_operand(const seg *S) { return limit_operand(S) + 1; }

/* A value operand: %N for a register, the constant itself. */
static void value(seg *S, lc_buf *b, const lt_operand *o) {
  if (o->kind == LT_OPND_REG)
    lc_buf_printf(b, "%%%d", reg_operand(S, o->reg));
  else
    lc_buf_printf(b, "%" PRId64, o->imm);
}

static void line(seg *S, const char *fmt, ...) LC_PRINTF(2, 3);
static void line(seg *S, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lc_buf_vprintf(&S->body, fmt, ap);
  va_end(ap);
  lc_buf_putc(&S->body, '\n');
}

static void emit_memory(seg *S, const lt_instr *in, int item) {
  lc_buf op, v;
  lc_buf_init(&op);
  lc_buf_init(&v);
  cu_ptx_opcode(&op, S->g->pl, S->k, in);
  int addr = in->addr.kind == LT_OPND_REGADDR ? reg_operand(S, in->addr.reg) : addr_operand(S, item);
  bool sub = (in->kind == LT_I_ATOM || in->kind == LT_I_RED) && in->rmw == LT_RMW_SUB;
  if (sub && in->a.kind == LT_OPND_REG) {
    line(S, "neg.%s tv, %%%d;", S->g->st, reg_operand(S, in->a.reg));
    lc_buf_puts(&v, "tv");
  } else if (sub) {
    lc_buf_printf(&v, "%" PRId64, (int64_t)(0 - (uint64_t)in->a.imm));
  } else {
    value(S, &v, &in->a);
  }
  switch (in->kind) {
  case LT_I_LD:
    line(S, "%s %%%d, [%%%d];", op.s, shadow_operand(S, item), addr);
    line(S, "mov.%s %%%d, %%%d;", S->g->bt, reg_operand(S, in->dst.reg), shadow_operand(S, item));
    break;
  case LT_I_ST: line(S, "%s [%%%d], %s;", op.s, addr, v.s); break;
  case LT_I_ATOM:
  case LT_I_RED: {
    lc_buf dst;
    lc_buf_init(&dst);
    if (reads_into_register(in)) lc_buf_printf(&dst, "%%%d, ", shadow_operand(S, item));
    lc_buf_printf(&op, " %s[%%%d], %s", dst.s, addr, v.s);
    if (in->rmw == LT_RMW_CAS) {
      lc_buf_puts(&op, ", ");
      value(S, &op, &in->b);
    }
    line(S, "%s;", op.s);
    if (in->kind == LT_I_ATOM)
      line(S, "mov.%s %%%d, %%%d;", S->g->bt, reg_operand(S, in->dst.reg), shadow_operand(S, item));
    lc_buf_fini(&dst);
    break;
  }
  default: break;
  }
  lc_buf_fini(&op);
  lc_buf_fini(&v);
}

/* x/0 = 0 and x%0 = x, as the model defines them (PTX leaves them undefined). */
static void emit_divide(seg *S, const lt_instr *in, const char *op) {
  int d = reg_operand(S, in->dst.reg);
  lc_buf a, b;
  lc_buf_init(&a);
  lc_buf_init(&b);
  value(S, &a, &in->a);
  value(S, &b, &in->b);
  bool rem = in->alu == LT_ALU_REM;
  if (in->b.kind == LT_OPND_IMM && in->b.imm == 0) {
    line(S, "mov.%s %%%d, %s;", S->g->bt, d, rem ? a.s : "0");
  } else if (in->b.kind == LT_OPND_IMM) {
    line(S, "%s %%%d, %s, %s;", op, d, a.s, b.s);
  } else {
    line(S, "setp.ne.%s p, %s, 0;", S->g->st, b.s);
    line(S, "@p %s t1, %s, %s;", op, a.s, b.s);
    line(S, "@!p mov.%s t1, %s;", S->g->bt, rem ? a.s : "0");
    line(S, "mov.%s %%%d, t1;", S->g->bt, d);
  }
  lc_buf_fini(&a);
  lc_buf_fini(&b);
}

static void emit_alu(seg *S, const lt_instr *in) {
  const char *op = cu_ptx_alu(S->g->pl, in->alu);
  lc_buf a, b;
  lc_buf_init(&a);
  lc_buf_init(&b);
  value(S, &a, &in->a);
  if (in->alu == LT_ALU_MOV) {
    line(S, "%s %%%d, %s;", op, reg_operand(S, in->dst.reg), a.s);
  } else if (in->alu == LT_ALU_DIV || in->alu == LT_ALU_REM) {
    emit_divide(S, in, op);
  } else if (in->alu == LT_ALU_SHL || in->alu == LT_ALU_SHR) {
    /* the amount is a .u32 in PTX, clamped by the hardware past the width */
    bool w = S->g->pl->width == 64;
    value(S, &b, &in->b);
    line(S, "{");   /* a scope of its own: kernels without shifts declare nothing */
    line(S, ".reg .b32 tsh;");
    if (w) {
      line(S, "min.u64 t1, %s, 64;", b.s);
      line(S, "cvt.u32.u64 tsh, t1;");
    } else {
      line(S, "mov.b32 tsh, %s;", b.s);
    }
    bool sar = in->alu == LT_ALU_SHR && (in->type == LT_TYPE_S32 || in->type == LT_TYPE_S64);
    line(S, "%s %%%d, %s, tsh;", sar ? (w ? "shr.s64" : "shr.s32") : op, reg_operand(S, in->dst.reg), a.s);
    line(S, "}");
  } else {
    value(S, &b, &in->b);
    line(S, "%s %%%d, %s, %s;", op, reg_operand(S, in->dst.reg), a.s, b.s);
  }
  lc_buf_fini(&a);
  lc_buf_fini(&b);
}

static const char *setp_cmp(lt_cmp c) {
  static const char *const names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[c];
}

/* A backward jump taken more than `unroll` times (the model's bound)
 * marks the instance beyond the bound; more than spin_limit times, or past
 * the thread's deadline (%globaltimer, not %clock: the SASS check finds
 * the litmus code between the only two clock reads), and the instance is
 * cut (not counted), so that no loop can hold the GPU. */
static void emit_loop_guard(seg *S, int loop) {
  line(S, "add.u32 lc%d, lc%d, 1;", loop, loop);
  line(S, "setp.gt.u32 q, lc%d, %u;", loop, S->g->p->unroll);
  line(S, "@q or.b32 %%%d, %%%d, %d;", cut_operand(S), cut_operand(S), CU_CUT_BEYOND);
  line(S, "setp.gt.u32 q, lc%d, %%%d;", loop, limit_operand(S));
  line(S, "@q bra LT%d_cut;", S->k);
  line(S, "mov.u64 tg, %%globaltimer;");
  line(S, "setp.gt.u64 q, tg, %%%d;", deadline_operand(S));
  line(S, "@q bra LT%d_late;", S->k);
}

static void emit_jump(seg *S, const cu_item *it, int index) {
  const lt_instr *in = it->in;
  lc_buf target;
  lc_buf_init(&target);
  ptx_label(&target, S->k, in->label);
  if (in->kind == LT_I_BRANCH) {
    lc_buf a, b;
    lc_buf_init(&a);
    lc_buf_init(&b);
    value(S, &a, &in->a);
    value(S, &b, &in->b);
    line(S, "setp.%s.%s p, %s, %s;", setp_cmp(in->cmp), S->g->st, a.s, b.s);
    lc_buf_fini(&a);
    lc_buf_fini(&b);
    if (it->loop < 0) {
      line(S, "@p bra %s;", target.s);
    } else {
      line(S, "@!p bra LT%d_n%d;", S->k, index);
      emit_loop_guard(S, it->loop);
      line(S, "bra %s;", target.s);
      line(S, "LT%d_n%d:", S->k, index);
    }
  } else {
    if (it->loop >= 0) emit_loop_guard(S, it->loop);
    line(S, "bra %s;", target.s);
  }
  lc_buf_fini(&target);
}

/* An address operand: [%N] of the location's address, or of the register
 * holding one (from mapa). */
static void address(seg *S, lc_buf *b, const lt_operand *o, int item, int w) {
  lc_buf_printf(b, "[%%%d]", o->kind == LT_OPND_REGADDR ? reg_operand(S, o->reg) : addr_operand_of(S, item, w));
}

/* A 32-bit operand (count, size, parity, rank): a constant, or the
 * register, narrowed into temporary t when values are 64-bit. */
static void value32(seg *S, lc_buf *b, const lt_operand *o, const char *t) {
  if (o->kind == LT_OPND_REG && S->g->pl->width == 64) {
    line(S, "cvt.u32.u64 %s, %%%d;", t, reg_operand(S, o->reg));
    lc_buf_puts(b, t);
  } else {
    value(S, b, o);
  }
}

static void emit_mbar(seg *S, const lt_instr *in, int item) {
  lc_buf op, addr, a, b;
  lc_buf_init(&op);
  lc_buf_init(&addr);
  lc_buf_init(&a);
  lc_buf_init(&b);
  cu_ptx_opcode(&op, S->g->pl, S->k, in);
  address(S, &addr, &in->addr, item, 0);
  if (in->a.kind != LT_OPND_NONE) value32(S, &a, &in->a, "tp0");
  if (in->b.kind != LT_OPND_NONE) value32(S, &b, &in->b, "tp1");
  const char *state = in->sink ? "_" : "ts";
  switch (in->mbar) {
  case LT_MB_INIT: case LT_MB_EXPECT_TX: case LT_MB_COMPLETE_TX: line(S, "%s %s, %s;", op.s, addr.s, a.s); break;
  case LT_MB_ARRIVE: case LT_MB_ARRIVE_DROP: case LT_MB_ARRIVE_EXPECT_TX:
    if (in->a.kind == LT_OPND_NONE) line(S, "%s %s, %s;", op.s, state, addr.s);
    else line(S, "%s %s, %s, %s;", op.s, state, addr.s, a.s);
    break;
  default:
    /* the predicate becomes the 0/1 register that the test's branches read */
    if (in->b.kind == LT_OPND_NONE) line(S, "%s p, %s, %s;", op.s, addr.s, a.s);
    else line(S, "%s p, %s, %s, %s;", op.s, addr.s, a.s, b.s);
    line(S, "selp.%s %%%d, 1, 0, p;", S->g->bt, reg_operand(S, in->dst.reg));
    break;
  }
  lc_buf_fini(&op);
  lc_buf_fini(&addr);
  lc_buf_fini(&a);
  lc_buf_fini(&b);
}

static void emit_bulk(seg *S, const lt_instr *in, int item) {
  lc_buf op, dst, src, bar;
  lc_buf_init(&op);
  lc_buf_init(&dst);
  lc_buf_init(&src);
  lc_buf_init(&bar);
  cu_ptx_opcode(&op, S->g->pl, S->k, in);
  if (in->bulk == LT_BULK_WAIT) {
    line(S, "%s %" PRId64 ";", op.s, in->a.imm);
  } else if (in->bulk == LT_BULK_COMMIT) {
    line(S, "%s;", op.s);
  } else {
    address(S, &dst, &in->addr, item, 0);
    address(S, &src, &in->b, item, 1);
    if (in->bulk == LT_BULK_G2S) {
      address(S, &bar, &in->c, item, 2);
      line(S, "%s %s, %s, %" PRId64 ", %s;", op.s, dst.s, src.s, in->a.imm, bar.s);
    } else {
      line(S, "%s %s, %s, %" PRId64 ";", op.s, dst.s, src.s, in->a.imm);
    }
  }
  lc_buf_fini(&op);
  lc_buf_fini(&dst);
  lc_buf_fini(&src);
  lc_buf_fini(&bar);
}

/* The address of the peer's copy: this CTA's address of the location
 * (the same offset in every CTA of the cluster) mapped to the peer's rank. */
static void emit_mapa(seg *S, const lt_instr *in, int item) {
  int d = reg_operand(S, in->dst.reg), a = addr_operand(S, item), rk = rank_operand(S, item);
  if (S->g->pl->width == 64) {
    line(S, "mapa.shared::cluster.u64 %%%d, %%%d, %%%d;", d, a, rk);
  } else {
    line(S, "cvt.u32.u64 tp0, %%%d;", a);
    line(S, "mapa.shared::cluster.u32 %%%d, tp0, %%%d;", d, rk);
  }
}

static void emit_comment(seg *S, const lt_instr *in) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print_instr(&b, in);
  line(S, "// P%d line %d: %s", thread_id(S->g, S->k), in->at.line, b.s);
  lc_buf_fini(&b);
}

static void emit_item(seg *S, const cu_item *it, int index) {
  const lt_instr *in = it->in;
  if (it->label && !S->g->p->test->cpp) {  /* a C++ test's labels are C++ labels */
    lc_buf l;
    lc_buf_init(&l);
    ptx_label(&l, S->k, it->label);
    line(S, "%s:", l.s);
    lc_buf_fini(&l);
  }
  if (!in) return;
  emit_comment(S, in);
  lc_buf op;
  lc_buf_init(&op);
  switch (in->kind) {
  case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED: emit_memory(S, in, index); break;
  case LT_I_FENCE: case LT_I_FENCE_ALIAS: case LT_I_FENCE_PROXY:
    cu_ptx_opcode(&op, S->g->pl, S->k, in);
    line(S, "%s;", op.s);
    break;
  case LT_I_BAR:
    if (it->joined) line(S, "// runs with its wait at the next phase boundary, for every thread of the cluster");
    else line(S, "// no thread waits on this barrier instance: nothing to synchronise");
    break;
  case LT_I_MBAR: emit_mbar(S, in, index); break;
  case LT_I_BULK: emit_bulk(S, in, index); break;
  case LT_I_MAPA: emit_mapa(S, in, index); break;
  case LT_I_ALU: emit_alu(S, in); break;
  case LT_I_BRANCH: case LT_I_GOTO: emit_jump(S, it, index); break;
  default: break;
  }
  lc_buf_fini(&op);
}

/* Items of the phase, and labels of barrier cells that open it. */
static bool in_phase(const cu_role *r, size_t i, int phase) {
  if (!r->items[i].boundary) return r->items[i].phase == phase;
  return r->items[i].label && (i == 0 ? 0 : r->items[i - 1].phase) == phase;
}

static bool in_seg(const seg *S, const cu_role *r, size_t i) {
  return i >= S->lo && i < S->hi && in_phase(r, i, S->phase);
}

static bool seg_collect(seg *S) {
  const cu_role *r = &S->g->pl->roles[S->k];
  bool any = false;
  for (size_t i = 0; i < r->nitems; i++) {
    if (!in_seg(S, r, i)) continue;
    /* a C++ test's lone label is a C++ label: no block for it */
    any = any || r->items[i].in || !S->g->p->test->cpp;
    if (r->items[i].in && !r->items[i].boundary) note_operands(S, r->items[i].in, (int)i);
  }
  S->cut = r->cut >= 0;
  for (size_t i = 0; i < r->nitems; i++) S->loops = S->loops || (r->items[i].loop >= 0 && in_seg(S, r, i));
  return any;
}

static void seg_body(seg *S) {
  const cu_role *r = &S->g->pl->roles[S->k];
  const char *bt = S->g->bt;
  line(S, "{");
  line(S, ".reg .pred p, q;");
  line(S, ".reg .%s t1, tv;", bt);
  if (S->hopper) line(S, ".reg .b64 ts;");
  if (S->hopper) line(S, ".reg .b32 tp0, tp1;");
  int nloops = 0;
  for (size_t i = 0; i < r->nitems; i++)
    if (r->items[i].loop >= 0 && in_seg(S, r, i)) {
      line(S, ".reg .u32 lc%d;", r->items[i].loop);
      line(S, "mov.u32 lc%d, 0;", r->items[i].loop);
      nloops++;
    }
  if (S->loops) line(S, ".reg .u64 tg;");
  if (S->cut) {   /* a cut instance runs no further */
    line(S, ".reg .u32 tc;");
    line(S, "and.b32 tc, %%%d, %d;", cut_operand(S), CU_CUT_STOPPED);
    line(S, "setp.ne.u32 q, tc, 0;");
    line(S, "@q bra LT%d_end;", S->k);
  }
  for (size_t i = 0; i < r->nitems; i++) {
    if (!in_seg(S, r, i)) continue;
    if (r->items[i].boundary) {
      cu_item label_only = r->items[i];
      label_only.in = NULL;
      emit_item(S, &label_only, (int)i);
    } else {
      emit_item(S, &r->items[i], (int)i);
    }
  }
  if (nloops) {
    line(S, "bra LT%d_end;", S->k);
    line(S, "LT%d_late:", S->k);
    line(S, "or.b32 %%%d, %%%d, %d;", cut_operand(S), cut_operand(S), CU_CUT_LATE);
    line(S, "LT%d_cut:", S->k);
    line(S, "or.b32 %%%d, %%%d, %d;", cut_operand(S), cut_operand(S), CU_CUT_STOPPED);
  }
  line(S, "LT%d_end:", S->k);
  line(S, "}");
}

static void seg_print(seg *S) {
  gen *g = S->g;
  int id = thread_id(g, S->k);
  lc_buf_printf(g->o, "  // P%d, phase %d\n  asm volatile(\n", id, S->phase);
  const char *s = S->body.s;
  while (*s) {
    const char *nl = strchr(s, '\n');
    lc_buf l;
    lc_buf_init(&l);
    lc_buf_putn(&l, s, (size_t)(nl - s));
    lc_buf_puts(g->o, "    \"");
    c_string(g->o, l.s, strncmp(l.s, "//", 2) == 0);
    lc_buf_puts(g->o, "\\n\\t\"\n");
    lc_buf_fini(&l);
    s = nl + 1;
  }
  lc_buf_puts(g->o, "    :");
  const char *sep = " ";
  for (size_t i = 0; i < S->regs.n; i++, sep = ", ")
    lc_buf_printf(g->o, "%s\"+%s\"(p%d_r%d)", sep, g->rc, id, S->regs.v[i]);
  if (S->cut) lc_buf_printf(g->o, "%s\"+r\"(p%d_cut)", sep, id), sep = ", ";
  for (size_t i = 0; i < S->shadows.n; i++, sep = ", ")
    lc_buf_printf(g->o, "%s\"+%s\"(s%d_%d)", sep, g->rc, id, S->shadows.v[i]);
  lc_buf_puts(g->o, "\n    :");
  sep = " ";
  for (size_t i = 0; i < S->accs.n; i++, sep = ", ") {
    lc_buf_printf(g->o, "%s\"l\"(", sep);
    addr_name(g->o, id, S->accs.v[i] / 4, S->accs.v[i] % 4);
    lc_buf_puts(g->o, ")");
  }
  for (size_t i = 0; i < S->ranks.n; i++, sep = ", ") lc_buf_printf(g->o, "%s\"r\"(rk%d_%d)", sep, id, S->ranks.v[i]);
  if (S->loops) lc_buf_printf(g->o, "%s\"r\"(P.spin_limit), \"l\"(cu_deadline)", sep);
  lc_buf_puts(g->o, "\n    : \"memory\");\n");
}

static void emit_block(gen *g, int k, int phase, size_t lo, size_t hi) {
  seg S = {g, k, phase, {0}, {0}, {0}, {0}, false, false, false, {0}, lo, hi};
  lc_buf_init(&S.body);
  if (seg_collect(&S)) {
    seg_body(&S);
    seg_print(&S);
  }
  lc_vec_free(&S.regs);
  lc_vec_free(&S.shadows);
  lc_vec_free(&S.accs);
  lc_vec_free(&S.ranks);
  lc_buf_fini(&S.body);
}

static bool is_cpp_access(const cu_item *it) {
  return !it->boundary && it->in && it->in->cpp && (is_memory(it->in) || it->in->kind == LT_I_FENCE);
}

static bool is_jump(const cu_item *it) {
  return !it->boundary && it->in && (it->in->kind == LT_I_BRANCH || it->in->kind == LT_I_GOTO);
}

/* A C++ test's jump as a goto to a C++ label.  A backward one (a loop)
 * is guarded as a PTX loop is (emit_loop_guard), in C++: past `unroll`
 * iterations the instance is marked beyond the bound, past spin_limit or
 * the deadline it is cut and goes to the end of the role's code in this
 * phase (stop). */
static void emit_cpp_jump(gen *g, int k, const cu_item *it, const char *stop) {
  const lt_instr *in = it->in;
  int id = thread_id(g, k);
  lc_buf target, a, b;
  lc_buf_init(&target);
  lc_buf_init(&a);
  lc_buf_init(&b);
  ptx_label(&target, k, in->label);
  const lt_operand *ops[2] = {&in->a, &in->b};
  lc_buf *vals[2] = {&a, &b};
  /* an unsigned comparison compares unsigned (the branch's type, lower_cpp.c) */
  const char *T = in->type == LT_TYPE_U32 ? "unsigned" : "int";
  for (int j = 0; j < 2 && in->kind == LT_I_BRANCH; j++)
    if (ops[j]->kind == LT_OPND_REG) lc_buf_printf(vals[j], "(%s)p%d_r%d", T, id, ops[j]->reg);
    else lc_buf_printf(vals[j], "(%s)%" PRId64, T, ops[j]->imm);
  static const char *const cmp[] = {"==", "!=", "<", "<=", ">", ">="};
  if (in->kind == LT_I_BRANCH) lc_buf_printf(g->o, "  if (%s %s %s)", a.s, cmp[in->cmp], b.s);
  if (it->loop < 0) {
    lc_buf_printf(g->o, "%sgoto %s;\n", in->kind == LT_I_BRANCH ? " " : "  ", target.s);
  } else {
    int l = it->loop;
    lc_buf_printf(g->o, "%s{  // P%d line %d: the loop back\n", in->kind == LT_I_BRANCH ? " " : "  ", id, in->at.line);
    lc_buf_printf(g->o, "    if (++p%d_lc%d > %uu) p%d_cut |= CU_CUT_BEYOND;\n", id, l, g->p->unroll, id);
    lc_buf_printf(g->o, "    if (p%d_lc%d > P.spin_limit) {\n      p%d_cut |= CU_CUT_STOPPED;\n      goto %s;\n    }\n",
                  id, l, id, stop);
    lc_buf_printf(g->o, "    cu_u64 tg;\n    asm volatile(\"mov.u64 %%0, %%%%globaltimer;\" : \"=l\"(tg));\n");
    lc_buf_printf(g->o, "    if (tg > cu_deadline) {\n      p%d_cut |= CU_CUT_LATE | CU_CUT_STOPPED;\n      goto %s;\n    }\n",
                  id, stop);
    lc_buf_printf(g->o, "    goto %s;\n  }\n", target.s);
  }
  lc_buf_fini(&target);
  lc_buf_fini(&a);
  lc_buf_fini(&b);
}

/* A C++ access or fence as the cuda::atomic_ref call that
 * litmus-check --check-mapping nvcc compiles (map_emit_cpp_access), on the
 * role's generic address and registers; the value read also goes to the
 * shadow, so that the sink keeps a plain load alive. */
static void emit_cpp_access(gen *g, int k, size_t i) {
  const lt_instr *in = g->pl->roles[k].items[i].in;
  int id = thread_id(g, k);
  char ptr[48], val[48], val2[48], dst[48];
  const lt_operand *ops[2] = {&in->a, &in->b};
  char *vals[2] = {val, val2};
  for (int j = 0; j < 2; j++)
    if (ops[j]->kind == LT_OPND_REG) snprintf(vals[j], sizeof val, "(int)p%d_r%d", id, ops[j]->reg);
    else snprintf(vals[j], sizeof val, "(int)%" PRId64, ops[j]->imm);
  snprintf(ptr, sizeof ptr, "c%d_%zu", id, i);
  if (in->dst.kind == LT_OPND_REG) snprintf(dst, sizeof dst, "p%d_r%d", id, in->dst.reg);
  else snprintf(dst, sizeof dst, "s%d_%zu", id, i);
  lc_buf c;
  lc_buf_init(&c);
  lt_print_instr(&c, in);
  lc_buf_printf(g->o, "  // P%d line %d: ", id, in->at.line);
  c_comment(g->o, c.s);
  lc_buf_puts(g->o, "\n  ");
  map_cpp_operands o = {.ptr = ptr, .val = val, .val2 = val2, .dst = dst};
  /* the plan refused what the emitter cannot express */
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  map_emit_cpp_access(g->o, in, &o, &d);
  lc_diag_fini(&d);
  /* a C11 compare-exchange's results (ast.h): success in `c`, and the old
   * value in the expected register `a` (unchanged on success) */
  if (in->kind == LT_I_ATOM && in->rmw == LT_RMW_CAS && in->dst.kind == LT_OPND_REG) {
    if (in->c.kind == LT_OPND_REG)
      lc_buf_printf(g->o, "  p%d_r%d = (int)%s == %s;\n", id, in->c.reg, dst, val);
    if (in->a.kind == LT_OPND_REG) lc_buf_printf(g->o, "  p%d_r%d = %s;\n", id, in->a.reg, dst);
  }
  if (in->kind != LT_I_FENCE && reads_into_register(in) && in->dst.kind == LT_OPND_REG)
    lc_buf_printf(g->o, "  s%d_%zu = %s;\n", id, i, dst);
  lc_buf_fini(&c);
}

/* A PTX test's role and phase is one asm block; a C++ test's accesses are
 * C++ statements between the blocks of its other instructions. */
static void emit_segment(gen *g, int k, int phase) {
  const cu_role *r = &g->pl->roles[k];
  if (!g->p->test->cpp) {
    emit_block(g, k, phase, 0, r->nitems);
    return;
  }
  /* a role that loops: a cut instance runs no further (the asm blocks
   * check it too), its loops' cuts jump to the end of the phase */
  char stop[48];
  snprintf(stop, sizeof stop, "LT%d_stop%d", k, phase);
  if (r->cut >= 0) lc_buf_printf(g->o, "  if (p%d_cut & CU_CUT_STOPPED) goto %s;\n", thread_id(g, k), stop);
  size_t lo = 0;
  for (size_t i = 0; i < r->nitems; i++) {
    const cu_item *it = &r->items[i];
    if (!in_phase(r, i, phase) || !(is_cpp_access(it) || is_jump(it) || it->label)) continue;
    emit_block(g, k, phase, lo, i);
    lo = i;
    if (it->label) {
      lc_buf l;
      lc_buf_init(&l);
      ptx_label(&l, k, it->label);
      lc_buf_printf(g->o, "%s:;\n", l.s);
      lc_buf_fini(&l);
    }
    if (is_cpp_access(it)) emit_cpp_access(g, k, i);
    else if (is_jump(it)) emit_cpp_jump(g, k, it, stop);
    else continue;
    lo = i + 1;
  }
  emit_block(g, k, phase, lo, r->nitems);
  if (r->cut >= 0) lc_buf_printf(g->o, "%s:;\n", stop);
}

/* ---- the test kernel ---------------------------------------------------------------- */

static int64_t reg_init(const gen *g, int k, int reg) {
  const lt_test *t = g->p->test;
  for (size_t i = 0; i < t->ninits; i++)
    if (t->inits[i].kind == LT_INIT_REG && t->inits[i].thread == thread_id(g, k) && t->inits[i].reg == reg)
      return t->inits[i].value;
  return 0;
}

static bool opnd_is(const lt_operand *o, int reg) { return o->kind == LT_OPND_REG && o->reg == reg; }

/* Registers only the init block names need no variable. */
static bool reg_used(const gen *g, int k, size_t slot) {
  const cu_role *r = &g->pl->roles[k];
  int reg = g->p->threads[k].regs[slot];
  for (size_t i = 0; i < r->nitems; i++) {
    const lt_instr *in = r->items[i].in;
    if (in && in->kind != LT_I_BAR && (opnd_is(&in->dst, reg) || opnd_is(&in->a, reg) || opnd_is(&in->b, reg) || opnd_is(&in->c, reg)))
      return true;
  }
  for (size_t j = 0; j < g->p->nobs; j++)
    if (g->p->obs[j].kind == LX_OBS_REG && g->p->obs[j].thread == k && g->p->obs[j].slot == (int)slot) return true;
  return false;
}

/* Every access gets its own address: its location's plus ord * P.zero,
 * a zero the compiler cannot see through (a launch parameter), with ord
 * the access's ordinal in the role.  ptxas thus cannot prove that two
 * accesses touch the same word, so it can neither merge two loads, nor
 * forward a store to a load, nor delete a store that a later one
 * overwrites. */
/* A C++ access's generic address, for cuda::atomic_ref. */
static void emit_cpp_address(gen *g, int k, size_t i, int ord) {
  const lt_instr *in = g->pl->roles[k].items[i].in;
  const lx_loc *l = &g->p->locs[cu_plan_vloc(g->pl, k, &in->addr)];
  int s = g->pl->sidx[l->ploc], id = thread_id(g, k);
  if (s >= 0)
    lc_buf_printf(g->o, "  int *const c%d_%zu = (int *)((cu_u64)&sh[cu_shared_slot(&P, %d, i%d)] + %d * P.zero);  // %s\n",
                  id, i, s, k, ord, l->name);
  else
    lc_buf_printf(g->o, "  int *const c%d_%zu = (int *)(P.mem + cu_loc_word(&P, %d, i%d) * sizeof(cu_word)%s + %d * P.zero);  // %s\n",
                  id, i, g->pl->gidx[l->ploc], k, l->alias ? " + P.alias_delta" : "", ord, l->name);
}

/* Operand w of item i as a shared-window or global address; for mapa, the
 * peer's copy and the peer's rank, %cluster_ctarank, which for a 1-D grid
 * of 1-D clusters is the physical CTA index mod the cluster size. */
static void emit_address(gen *g, int k, int i, int w, int ord) {
  const lt_instr *in = g->pl->roles[k].items[i].in;
  const lt_operand *ops[3];
  cu_plan_loc_operands(in, ops);
  int peer = -1, id = thread_id(g, k);
  int v = in->kind == LT_I_MAPA ? cu_plan_mapa_vloc(g->pl, k, in, &peer) : cu_plan_vloc(g->pl, k, ops[w]);
  const lx_loc *l = &g->p->locs[v];
  int s = g->pl->sidx[l->ploc];
  lc_buf_puts(g->o, "  const cu_u64 ");
  addr_name(g->o, id, i, w);
  if (s >= 0)
    lc_buf_printf(g->o, " = cu_to_shared(&sh[cu_shared_slot(&P, %d, i%d)]) + %d * P.zero;  // %s\n", s, k, ord, l->name);
  else
    lc_buf_printf(g->o, " = cu_to_global(P.mem + cu_loc_word(&P, %d, i%d) * sizeof(cu_word)%s) + %d * P.zero;  // %s\n",
                  g->pl->gidx[l->ploc], k, l->alias ? " + P.alias_delta" : "", ord, l->name);
  if (peer >= 0)
    lc_buf_printf(g->o, "  cu_u32 rk%d_%d, rl%d_%d;\n  cu_role_thread(&P, %d, i%d, &rk%d_%d, &rl%d_%d);\n"
                        "  rk%d_%d = cu_physical_cta(&P, rk%d_%d) %% P.cs;  // the rank of P%d's CTA\n",
                  id, i, id, i, peer, k, id, i, id, i, id, i, id, i, thread_id(g, peer));
}

static void emit_role_setup(gen *g, int k) {
  const cu_role *r = &g->pl->roles[k];
  const lx_thread *th = &g->p->threads[k];
  int id = th->id;
  lc_buf_printf(g->o, "  // P%d: litmus CTA %d, cluster %d\n", id, r->lcta, r->lcl);
  lc_buf_printf(g->o, "  const cu_u32 i%d = cu_role_instance(&P, %d, B, lane);\n", k, k);
  int ord = 0;
  for (size_t i = 0; i < r->nitems; i++) {
    const lt_instr *in = r->items[i].in;
    if (r->items[i].boundary || !in || !(is_memory(in) || is_hopper(in))) continue;
    const lt_operand *ops[3];
    cu_plan_loc_operands(in, ops);
    if (in->cpp)
      emit_cpp_address(g, k, i, ++ord);
    else
      for (int w = 0; w < 3; w++)
        if (ops[w]) emit_address(g, k, (int)i, w, ++ord);
    if (is_memory(in) && reads_into_register(in)) lc_buf_printf(g->o, "  cu_word s%d_%zu = 0;\n", id, i);
  }
  for (size_t i = 0; i < th->nregs; i++)
    if (reg_used(g, k, i))
      lc_buf_printf(g->o, "  cu_word p%d_r%d = (cu_word)%" PRId64 "LL;\n", id, th->regs[i],
                  reg_init(g, k, th->regs[i]));
  if (r->cut >= 0) lc_buf_printf(g->o, "  cu_u32 p%d_cut = 0;\n", id);
  if (g->p->test->cpp)   /* a C++ loop's counter (a PTX loop's is a register of its asm block) */
    for (int l = 0; l < r->nloops; l++) lc_buf_printf(g->o, "  cu_u32 p%d_lc%d = 0;\n", id, l);
}

/* What every load and atom read, folded into one word that is stored only
 * when it equals a value the compiler cannot know (it never does in
 * practice: the store is there to keep the loads alive). */
static void emit_sink(gen *g) {
  lc_buf_puts(g->o, "  cu_word cu_sink = (cu_word)(cu_t1 - cu_t0);\n");
  for (size_t k = 0; k < g->pl->nroles; k++) {
    const cu_role *r = &g->pl->roles[k];
    for (size_t i = 0; i < r->nitems; i++)
      if (!r->items[i].boundary && is_memory(r->items[i].in) && reads_into_register(r->items[i].in))
        lc_buf_printf(g->o, "  cu_sink ^= s%d_%zu;\n", thread_id(g, (int)k), i);
  }
  lc_buf_puts(g->o, "  if ((cu_u64)cu_sink == P.zero + 0x9e3779b97f4a7c15ull) ((volatile cu_word *)P.scratch)[0] = cu_sink;\n");
}

static void emit_boundary(gen *g, int phase) {
  lc_buf_printf(g->o, "  // phase boundary %d: every thread of the %s, for", phase,
                g->pl->bar_kind[phase] & CU_BOUNDARY_CLUSTER ? "cluster" : "CTA");
  for (size_t k = 0; k < g->pl->nroles; k++) {
    const cu_role *r = &g->pl->roles[k];
    for (size_t i = 0; i < r->nitems; i++)
      if (r->items[i].boundary && r->items[i].phase == phase)
        lc_buf_printf(g->o, " P%d line %d", thread_id(g, (int)k), r->items[i].in->at.line);
  }
  lc_buf_putc(g->o, '\n');
  int kind = g->pl->bar_kind[phase];
  /* barrier.cta.sync is bar.cta.sync without .aligned: correct even if a
   * warp has not reconverged after the branches of the asm blocks */
  if (kind & CU_BOUNDARY_CTA || !kind)
    lc_buf_printf(g->o, "  asm volatile(\"barrier.cta.sync %d;\" ::: \"memory\");\n", g->pl->bar_number[phase]);
  /* every thread of the cluster arrives and waits (the testing clusters
   * run whole); without .aligned for the same reason */
  if (kind & CU_BOUNDARY_CLUSTER)
    lc_buf_printf(g->o, "  asm volatile(\"barrier.cluster.arrive%s;\\n\\tbarrier.cluster.wait;\" ::: \"memory\");\n",
                  kind & CU_BOUNDARY_RELAXED ? ".relaxed" : "");
}

static void emit_outputs(gen *g) {
  const lx_program *p = g->p;
  for (size_t j = 0; j < p->nobs; j++) {
    const lx_obs *o = &p->obs[j];
    if (g->pl->obs_reg[j] < 0) continue;
    lc_buf_printf(g->o, "  ((cu_word *)P.regs)[(cu_u64)%d * P.ninst + i%d] = p%d_r%d;  // %s\n",
                  g->pl->obs_reg[j], o->thread, p->threads[o->thread].id, p->threads[o->thread].regs[o->slot],
                  o->label);
  }
  for (size_t k = 0; k < g->pl->nroles; k++)
    if (g->pl->roles[k].cut >= 0)
      lc_buf_printf(g->o, "  ((cu_u32 *)P.cut)[(cu_u64)%d * P.ninst + i%zu] = p%d_cut;\n", g->pl->roles[k].cut, k,
                    thread_id(g, (int)k));
}

/* A role of the litmus CTA that owns shared location ploc. */
static int owner_role(const gen *g, int ploc) {
  for (size_t k = 0; k < g->pl->nroles; k++)
    if (g->pl->roles[k].lcta == g->pl->owner[ploc]) return (int)k;
  return 0;
}

static void emit_shared_finals(gen *g) {
  const lx_program *p = g->p;
  if (!g->pl->nfin) return;
  lc_buf_puts(g->o, "  asm volatile(\"barrier.cta.sync 0;\" ::: \"memory\");\n");
  for (size_t j = 0; j < p->nobs; j++) {
    int f = g->pl->obs_fin[j];
    if (f < 0) continue;
    int pl = p->obs[j].ploc;
    lc_buf_printf(g->o, "  ((cu_word *)P.fin)[(cu_u64)%d * P.ninst + cu_role_home(&P, %d, B) * P.T + lane] = "
                        "sh[cu_shared_slot(&P, %d, lane)];  // %s\n",
                  f, owner_role(g, pl), g->pl->sidx[pl], p->obs[j].label);
  }
}

int cu_gen_rotations(const cu_plan *pl) {
  return pl->nroles < CU_MAX_ROTATIONS ? (int)pl->nroles : CU_MAX_ROTATIONS;
}

/* A cluster-wide barrier of every thread of the cluster, for distributed
 * shared memory (PTX ISA, "Distributed shared memory"). */
#define CLUSTER_SYNC(why) \
  "  /* " why " */\n" \
  "  asm volatile(\"barrier.cluster.arrive;\\n\\tbarrier.cluster.wait;\" ::: \"memory\");\n"

/* Copy `rot` of the test kernel runs the roles of each phase in the order
 * rot, rot + 1, ... (mod nroles); launch t uses copy t % rotations, so that
 * no role is always the first its threads play. */
static void emit_test_kernel(gen *g, int rot) {
  const cu_plan *pl = g->pl;
  lc_buf *o = g->o;
  lc_buf_puts(o, "#ifndef CU_CLASSIFY_ONLY\n");
  if (rot) lc_buf_printf(o, "CU_GLOBAL CU_KNAME(cu_test_r%d)(const cu_launch P) {\n", rot);
  else lc_buf_puts(o, "CU_GLOBAL CU_KNAME(cu_test)(const cu_launch P) {\n");
  lc_buf_puts(o, "  cu_u32 B;\n"
                 "  const bool testing = cu_logical_cta(&P, blockIdx.x, &B);\n"
                 "  /* stressing CTAs stress during the test, testing ones before it (one copy of the loop) */\n"
                 "  if (testing ? P.pre_stress : P.mem_stress)\n"
                 "    cu_stress(&P, ((cu_u64)testing << 40) + (cu_u64)blockIdx.x * 64 + threadIdx.x / 32,\n"
                 "              testing ? P.pre_pattern : P.stress_pattern, testing ? P.pre_lines : P.stress_lines,\n"
                 "              testing ? P.pre_iters : P.stress_iters, !testing);\n"
                 "  if (!testing) return;\n"
                 "  const cu_u32 lane = threadIdx.x;\n"
                 "  if (lane == 0) {\n"
                 "    cu_u32 sm;\n"
                 "    asm(\"mov.u32 %0, %%smid;\" : \"=r\"(sm));\n"
                 "    ((cu_u32 *)P.ctasm)[blockIdx.x] = sm;\n"
                 "  }\n");
  if (pl->nshared)
    lc_buf_printf(o, "  extern __shared__ %scu_u64 cu_dyn[];\n  cu_word *sh = (cu_word *)cu_dyn;\n",
                  pl->slot_bytes ? "__align__(16) " : "");
  for (size_t i = 0; i < g->p->nplocs; i++)
    if (pl->sidx[i] >= 0 && !pl->mbar[i])  /* an mbarrier is opaque: mbarrier.init sets it */
      lc_buf_printf(o, "  sh[cu_shared_slot(&P, %d, lane)] = (cu_word)%" PRId64 "LL;  // %s\n", pl->sidx[i],
                    g->p->plocs[i].init, g->p->plocs[i].name);
  if (pl->nshared) lc_buf_puts(o, "  __syncthreads();\n");
  if (pl->dsmem) lc_buf_puts(o, CLUSTER_SYNC("every CTA of the cluster has set its shared memory up"));
  /* the roles' address arithmetic before the barrier, so that their first
   * accesses follow its release closely */
  for (size_t k = 0; k < pl->nroles; k++) emit_role_setup(g, (int)k);
  lc_buf_puts(o, "  if (P.barrier) cu_spin_barrier(&P);\n");
  if (pl->ncut)   /* the watchdog: every loop of this thread stops after P.watchdog_ns */
    lc_buf_puts(o, "  cu_u64 cu_deadline;\n"
                   "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(cu_deadline));\n"
                   "  cu_deadline += P.watchdog_ns;\n");
  /* the clock reads bracket the litmus code: the SASS check looks there */
  lc_buf_puts(o, "  cu_u32 cu_t0, cu_t1;\n"
                 "  asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(cu_t0) :: \"memory\");\n");
  for (int ph = 0; ph < pl->nphases; ph++) {
    if (ph > 0) emit_boundary(g, ph);
    for (size_t j = 0; j < pl->nroles; j++) emit_segment(g, (int)((j + (size_t)rot) % pl->nroles), ph);
  }
  lc_buf_puts(o, "  asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(cu_t1) :: \"memory\");\n"
                 "  if (lane == 0) atomicAdd((cu_u32 *)P.sync + 1, 1u);   /* this CTA's litmus code is done */\n");
  emit_sink(g);
  emit_outputs(g);
  emit_shared_finals(g);
  if (pl->dsmem) lc_buf_puts(o, CLUSTER_SYNC("no CTA exits while a peer may still access its shared memory"));
  lc_buf_puts(o, "}\n#endif\n\n");
}

/* ---- the classify kernel ----------------------------------------------------------- */

static void emit_term(gen *g, const lt_term *t) {
  if (t->kind == LT_TERM_CONST)
    lc_buf_printf(g->o, "(cu_i64)%" PRId64 "LL", t->value);
  else
    lc_buf_printf(g->o, "v[%d]", lx_obs_index(g->p, t));
}

static void emit_prop(gen *g, const lt_prop *p) {
  static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
  switch (p->kind) {
  case LT_PROP_TRUE: lc_buf_puts(g->o, "true"); break;
  case LT_PROP_FALSE: lc_buf_puts(g->o, "false"); break;
  case LT_PROP_CMP:
    lc_buf_putc(g->o, '(');
    emit_term(g, &p->lhs);
    lc_buf_printf(g->o, " %s ", ops[p->cmp]);
    emit_term(g, &p->rhs);
    lc_buf_putc(g->o, ')');
    break;
  case LT_PROP_NOT: lc_buf_puts(g->o, "!"); emit_prop(g, p->l); break;
  case LT_PROP_AND: case LT_PROP_OR:
    lc_buf_putc(g->o, '(');
    emit_prop(g, p->l);
    lc_buf_puts(g->o, p->kind == LT_PROP_AND ? " && " : " || ");
    emit_prop(g, p->r);
    lc_buf_putc(g->o, ')');
    break;
  }
}

static void emit_reads(gen *g) {
  const lx_program *p = g->p;
  for (size_t j = 0; j < p->nobs; j++) {
    const lx_obs *o = &p->obs[j];
    lc_buf_printf(g->o, "      v[%zu] = (cu_i64)%s(", j, g->pl->width == 64 ? "" : "(int)");
    if (g->pl->obs_reg[j] >= 0)
      lc_buf_printf(g->o, "((const cu_word *)P.regs)[(cu_u64)%d * P.ninst + i]", g->pl->obs_reg[j]);
    else if (g->pl->obs_fin[j] >= 0)
      lc_buf_printf(g->o, "((const cu_word *)P.fin)[(cu_u64)%d * P.ninst + i]", g->pl->obs_fin[j]);
    else
      lc_buf_printf(g->o, "mem[cu_loc_word(&P, %d, i)]", g->pl->gidx[o->ploc]);
    lc_buf_printf(g->o, ");  // ");
    c_comment(g->o, o->label);
    lc_buf_putc(g->o, '\n');
  }
}

/* The register and final-value slots just read get CU_POISON, for the
 * next launch to overwrite. */
static void emit_poison(gen *g) {
  for (size_t j = 0; j < g->p->nobs; j++) {
    if (g->pl->obs_reg[j] >= 0)
      lc_buf_printf(g->o, "    ((cu_word *)P.regs)[(cu_u64)%d * P.ninst + i] = (cu_word)CU_POISON;\n", g->pl->obs_reg[j]);
    else if (g->pl->obs_fin[j] >= 0)
      lc_buf_printf(g->o, "    ((cu_word *)P.fin)[(cu_u64)%d * P.ninst + i] = (cu_word)CU_POISON;\n", g->pl->obs_fin[j]);
  }
}

/* An instance whose slot still holds the poison was not run: counted
 * apart (the host refuses such a histogram). */
static void emit_unwritten(gen *g) {
  const char *sep = "    if (";
  for (size_t j = 0; j < g->p->nobs; j++)
    if (g->pl->obs_reg[j] >= 0 || g->pl->obs_fin[j] >= 0) {
      lc_buf_printf(g->o, "%sv[%zu] == (cu_i64)%s(cu_word)CU_POISON", sep, j, g->pl->width == 64 ? "" : "(int)");
      sep = " || ";
    }
  if (*sep == ' ' && sep[1] == '|')
    lc_buf_puts(g->o, ") {\n      atomicAdd(scnt + CU_CNT_UNWRITTEN, 1u);\n      continue;\n    }\n");
}

static void emit_classify_kernel(gen *g) {
  const lx_program *p = g->p;
  lc_buf *o = g->o;
  lc_buf_puts(o, "CU_GLOBAL CU_KNAME(cu_classify)(const cu_launch P) {\n"
                 "  extern __shared__ cu_u32 cu_cls[];\n"
                 "  cu_u32 *scnt = cu_cls, *shist = cu_cls + CU_NCTA_COUNTERS;\n"
                 "  if (P.phase) {\n"
                 "    for (cu_u32 b = threadIdx.x; b < CU_NCTA_COUNTERS + (P.shared_hist ? P.ndense : 0); b += blockDim.x)\n"
                 "      cu_cls[b] = 0;\n"
                 "    __syncthreads();\n"
                 "  }\n"
                 "  if (blockIdx.x == 0 && threadIdx.x == 0) ((volatile cu_u32 *)P.sync)[0] = ((volatile cu_u32 *)P.sync)[1] = 0;\n");
  if (g->pl->nglobal) lc_buf_puts(o, "  cu_word *mem = (cu_word *)P.mem;\n");
  lc_buf_puts(o, "  for (cu_u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < P.ninst; i += gridDim.x * blockDim.x) {\n");
  lc_buf_printf(o, "    cu_i64 v[%zu];\n", p->nobs ? p->nobs : 1);
  lc_buf_puts(o, "    if (P.phase) {\n");
  emit_reads(g);
  lc_buf_puts(o, "    }\n");
  emit_poison(g);
  for (size_t i = 0; i < p->nplocs; i++)
    if (g->pl->gidx[i] >= 0)
      lc_buf_printf(o, "    mem[cu_loc_word(&P, %d, i)] = (cu_word)%" PRId64 "LL;  // %s\n", g->pl->gidx[i],
                    p->plocs[i].init, p->plocs[i].name);
  lc_buf_puts(o, "    if (!P.phase) continue;\n");
  emit_unwritten(g);
  if (g->pl->ncut) {
    lc_buf_puts(o, "    const cu_u32 cut = ");
    for (int c = 0; c < g->pl->ncut; c++)
      lc_buf_printf(o, "%s((const cu_u32 *)P.cut)[(cu_u64)%d * P.ninst + i]", c ? " | " : "", c);
    lc_buf_puts(o, ";\n    if (cut & CU_CUT_STOPPED) {\n      atomicAdd(scnt + CU_CNT_CUT, 1u);\n"
                   "      if (cut & CU_CUT_LATE) atomicAdd(scnt + CU_CNT_LATE, 1u);\n      continue;\n    }\n");
  }
  if (p->test->filter) {
    lc_buf_puts(o, "    if (!");
    emit_prop(g, p->test->filter);
    lc_buf_puts(o, ") {\n      atomicAdd(scnt + CU_CNT_FILTERED, 1u);\n      continue;\n    }\n");
  }
  lc_buf_printf(o, "    cu_count(&P, v, %zu, i, shist, %s);\n", p->nshown,
                g->pl->ncut ? "(cut & CU_CUT_BEYOND) != 0" : "false");
  lc_buf_puts(o, "  }\n"
                 "  if (P.phase) cu_flush(&P, scnt, shist);\n"
                 "}\n");
}

/* ---- the whole source --------------------------------------------------------------- */

static void emit_header(gen *g) {
  const cu_plan *pl = g->pl;
  const lx_program *p = g->p;
  lc_buf_puts(g->o, "/* ");
  c_comment(g->o, p->test->name);
  lc_buf_printf(g->o, ": CUDA kernels generated by litmus-check %s", PACKAGE_VERSION);
  lc_buf_printf(g->o, "\n * %zu roles, %d litmus CTA(s) in %d cluster(s), %d phase(s), %d-bit values;"
                      " needs sm_%d or later\n",
                pl->nroles, pl->nlcta, pl->nlcl, pl->nphases, pl->width, pl->min_sm);
  lc_buf_puts(g->o, " * cu_test: every thread plays every role, each for another instance.\n"
                    " * cu_classify: one thread per instance counts its outcome. */\n");
}

void cu_gen_prelude(lc_buf *out) {
  lc_buf_puts(out, "#ifndef CU_PRELUDE\n#define CU_PRELUDE\n");
  lc_buf_puts(out, cu_map_text);
  lc_buf_puts(out, "\n");
  lc_buf_puts(out, prelude_helpers);
  lc_buf_puts(out, prelude_classify);
  lc_buf_puts(out, "#endif\n\n");
}

void cu_gen_classify_prelude(lc_buf *out) { lc_buf_puts(out, prelude_classify); }

void cu_gen_body(lc_buf *out, const cu_plan *pl) {
  assert(out && pl);
  gen g = {out, pl, pl->p, pl->width == 64 ? "l" : "r", pl->width == 64 ? "b64" : "b32",
           pl->width == 64 ? "s64" : "s32"};
  lc_buf_puts(out, "#ifndef CU_KNAME\n#define CU_KNAME(name) name\n#endif\n\n");
  if (pl->p->test->cpp) lc_buf_puts(out, "#include <cuda/atomic>\n\n");
  lc_buf_printf(out, "typedef %s cu_word;\n\n", pl->width == 64 ? "cu_u64" : "cu_u32");
  for (int rot = 0; rot < cu_gen_rotations(pl); rot++) {
    /* the checks in tests/cuda compile the first copy only, to save time */
    if (rot == 1) lc_buf_puts(out, "#ifndef CU_FIRST_ROTATION_ONLY\n");
    emit_test_kernel(&g, rot);
  }
  if (cu_gen_rotations(pl) > 1) lc_buf_puts(out, "#endif\n");
  /* the SASS check compiles the test kernels alone */
  lc_buf_puts(out, "#ifndef CU_TEST_KERNEL_ONLY\n");
  emit_classify_kernel(&g);
  lc_buf_puts(out, "#endif\n");
}

int cu_gen(lc_buf *out, const cu_plan *pl) {
  assert(out && pl && pl->p);
  gen g = {out, pl, pl->p, NULL, NULL, NULL};
  emit_header(&g);
  cu_gen_prelude(out);
  cu_gen_body(out, pl);
  return 0;
}

int cu_emit(lc_buf *out, const lx_program *p, lc_diag *d) {
  assert(out && p && d);
  cu_plan *pl = cu_plan_new(p, d);
  if (!pl) return -1;
  int rc = cu_gen(out, pl);
  cu_plan_free(pl);
  return rc;
}
