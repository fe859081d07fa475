/* cu_sass.c - the SASS check: compiles test kernels with NVRTC to cubins
 * (as litmus-run does), disassembles them with cuobjdump, and checks that
 * between the two clock reads that bracket a test kernel's litmus code each
 * litmus access and fence is there, in the order the kernel runs them, as
 * strong as the test says, and that nothing else touches memory there.
 * SPDX-License-Identifier: MIT
 *
 * The kernel runs the roles one after the other, phase by phase, so the
 * expected sequence is: for each phase, each role's memory instructions in
 * program order, and a CTA barrier (BAR) between phases.  Extra fences and
 * cache invalidations (MEMBAR, CCTL, ERRBAR, FENCE) may appear anywhere:
 * they are how ptxas implements .acquire and .release, and only add order.
 * An access is found when its SASS instruction has the right kind (LDG,
 * STG, LDS, STS, ATOM(G/S), RED) and, for global memory, a strength that
 * covers the test's (.STRONG.SM for .cta, .STRONG.GPU for .cluster and
 * .gpu, .STRONG.SYS for .sys; none needed for .weak).  Shared-memory SASS
 * has no strength field: the kind must match.
 *
 * A C++ test's accesses are the libcu++ calls and CUDA functions that
 * nvcc compiles (cu_gen.c): each is found as its C++ order and scope
 * demand (a scoped atomic a STRONG access of its scope, a non-atomic one
 * any), with the fences nvcc adds for acquire, release and seq_cst
 * allowed anywhere as for PTX; a seq_cst fence must be a MEMBAR.SC.
 *
 * Why cuobjdump and not nvdisasm directly: cuobjdump is what users know to
 * run (it calls nvdisasm itself), and its PyPI package puts both side by
 * side; we put that folder first on its PATH.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda/cu_int.h"
#include "cuda/cu_sass.h"
#include "litmus/ast.h"
#include "paths.h"

extern char **environ;

/* ---- what the SASS must hold ------------------------------------------------------- */

/* SX_OP: an sm_90 instruction, found by its SASS opcode (sass). */
typedef enum { SX_LOAD, SX_STORE, SX_ATOM, SX_RED, SX_FENCE, SX_BAR, SX_OP } sx_kind;

typedef struct sx {
  sx_kind kind;
  bool shared;
  int strength;             /* 0 none needed, 1 .STRONG.SM or more, 2 .GPU or more, 3 .SYS */
  bool sc;                  /* a fence.sc: MEMBAR.SC */
  int role, line;           /* litmus thread id, source line (role -1 for a boundary) */
  int loop_first;           /* inside a loop: the index of the loop's first expected instruction, else -1 */
  int loc;                  /* an access: its location (lx_loc), else -1 */
  bool acquire;             /* a load that orders the accesses after it */
  char sass[24];            /* SX_OP: the SASS opcode's prefix */
  bool relaxed;             /* SX_OP: an mbarrier update that orders nothing (.relaxed, expect_tx, complete_tx) */
  int proxy_space;          /* SX_OP: a proxy fence of global (1) or shared (2) memory only, else 0 */
  char text[128];           /* the litmus instruction, for messages */
} sx;

typedef LC_VEC(sx) sx_vec;

static int scope_strength(lt_scope s) {
  switch (s) {
  case LT_SCOPE_CTA: return 1;
  case LT_SCOPE_SYS: return 3;
  default: return 2;        /* .cluster, .gpu, and atoms without a scope (.gpu) */
  }
}

static void expect_memory(const cu_plan *pl, int k, const lt_instr *in, sx *e) {
  e->kind = in->kind == LT_I_LD ? SX_LOAD : in->kind == LT_I_ST ? SX_STORE
            : in->kind == LT_I_ATOM || cu_ptx_red_as_atom(in) ? SX_ATOM : SX_RED;
  int v = cu_plan_vloc(pl, k, &in->addr);
  lt_space space = in->space != LT_SPACE_NONE ? in->space : pl->p->locs[v].space;
  e->shared = space == LT_SPACE_SHARED;
  e->loc = v;
  e->acquire = in->sem == LT_SEM_ACQUIRE || in->sem == LT_SEM_ACQ_REL || in->sem == LT_SEM_SC;
  bool rmw = e->kind == SX_ATOM || e->kind == SX_RED;
  if (in->sem == LT_SEM_VOLATILE || in->sem == LT_SEM_MMIO) e->strength = in->sem == LT_SEM_MMIO ? 3 : 1;
  else if (rmw || (in->sem != LT_SEM_NONE && in->sem != LT_SEM_WEAK)) e->strength = scope_strength(in->scope);
}

static void expect_fence(const lt_instr *in, sx *e) {
  e->kind = SX_FENCE;
  e->sc = in->kind == LT_I_FENCE && (in->membar || in->sem == LT_SEM_SC);
  e->strength = scope_strength(in->scope);
}

/* What ptxas 13 makes of the sm_90 instructions (cuobjdump -sass):
 * mbarrier.init SYNCS.EXCH.64; arrives, expect_tx and complete_tx
 * SYNCS.ARRIVE.TRANS64 (.A1T0, .ART0, .RED.A0TR, .RED.A0TX, .OPTOUT for
 * arrive_drop); test_wait and try_wait SYNCS.PHASECHK.TRANS64 (.TRYWAIT,
 * then a retry after a NANOSLEEP); bulk copies UBLKCP.S.G and UBLKCP.G.S;
 * commit_group UTMACMDFLUSH; wait_group DEPBAR.LE SB0; fence.proxy.async
 * FENCE.VIEW.ASYNC.G for .global, .S otherwise (with MEMBARs before it).
 * fence.mbarrier_init has no instruction of its own: ptxas puts a
 * FENCE.VIEW.ASYNC.S with every mbarrier.init.  Returns false for what
 * needs no SASS. */
static bool expect_sm90(const lt_instr *in, sx *e) {
  const char *op = NULL;
  switch (in->kind) {
  case LT_I_MBAR:
    e->relaxed = in->mbar == LT_MB_EXPECT_TX || in->mbar == LT_MB_COMPLETE_TX ||
                 (in->sem == LT_SEM_RELAXED && in->mbar != LT_MB_TEST_WAIT && in->mbar != LT_MB_TRY_WAIT);
    op = in->mbar == LT_MB_INIT ? "SYNCS.EXCH.64"
         : in->mbar == LT_MB_TEST_WAIT || in->mbar == LT_MB_TRY_WAIT ? "SYNCS.PHASECHK.TRANS64" : "SYNCS.ARRIVE.TRANS64";
    break;
  case LT_I_BULK:
    op = in->bulk == LT_BULK_G2S ? "UBLKCP.S.G" : in->bulk == LT_BULK_S2G ? "UBLKCP.G.S"
         : in->bulk == LT_BULK_COMMIT ? "UTMACMDFLUSH" : "DEPBAR.LE";
    break;
  case LT_I_FENCE_PROXY:
    e->proxy_space = in->space == LT_SPACE_GLOBAL ? 1 : in->space == LT_SPACE_SHARED ? 2 : 0;
    op = in->space == LT_SPACE_GLOBAL ? "FENCE.VIEW.ASYNC.G" : in->space == LT_SPACE_SHARED ? "FENCE.VIEW.ASYNC.S"
                                                                                          : "FENCE.VIEW.ASYNC";
    break;
  default: return false;
  }
  e->kind = SX_OP;
  snprintf(e->sass, sizeof e->sass, "%s", op);
  return true;
}

/* The first item of the innermost loop holding item i, or -1. */
static int loop_start(const cu_role *r, size_t i) {
  int best = -1;
  for (size_t j = i; j < r->nitems; j++)
    if (r->items[j].loop >= 0 && r->items[j].target <= (int)i && r->items[j].target > best) best = r->items[j].target;
  return best;
}

/* The litmus instructions of role k in phase ph, as the kernel runs them.
 * ptxas may unroll or rotate a bounded loop, so the instructions of a loop
 * may appear more than once. */
static void expect_segment(const cu_plan *pl, int k, int ph, sx_vec *out) {
  const cu_role *r = &pl->roles[k];
  size_t first = out->n;
  int *item_of = lc_xcalloc(r->nitems + 1, sizeof *item_of);
  for (size_t i = 0; i < r->nitems; i++) {
    const lt_instr *in = r->items[i].in;
    if (!in || r->items[i].boundary || r->items[i].phase != ph) continue;
    sx e;
    memset(&e, 0, sizeof e);
    e.loc = -1;
    switch (in->kind) {
    case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED: expect_memory(pl, k, in, &e); break;
    case LT_I_FENCE:
      /* fence.proxy.alias orders nothing between threads, nor does a C++
       * relaxed fence (nvcc emits nothing for it): no SASS needed */
      if (in->mbar_init_fence || (in->cpp && in->sem == LT_SEM_RELAXED)) continue;
      expect_fence(in, &e);
      break;
    default:
      if (!expect_sm90(in, &e)) continue;
      break;
    }
    e.role = pl->p->threads[k].id;
    e.line = in->at.line;
    e.loop_first = -1;
    int ls = loop_start(r, i);
    for (size_t x = first; x < out->n && ls >= 0 && e.loop_first < 0; x++)
      if (item_of[x - first] >= ls) e.loop_first = (int)x;
    if (ls >= 0 && e.loop_first < 0) e.loop_first = (int)out->n;
    item_of[out->n - first] = (int)i;
    lc_buf b;
    lc_buf_init(&b);
    lt_print_instr(&b, in);
    snprintf(e.text, sizeof e.text, "%s", b.s);
    lc_buf_fini(&b);
    lc_vec_push(out, e);
  }
  free(item_of);
}

/* Copy `rot` of the test kernel: the roles of each phase from rot on. */
static void expect_boundary_part(sx_vec *out, int ph, sx_kind kind, const char *sass, const char *what) {
  sx b;
  memset(&b, 0, sizeof b);
  b.kind = kind;
  b.role = -1;
  b.loop_first = -1;
  b.loc = -1;
  b.strength = kind == SX_FENCE ? 2 : 0;
  snprintf(b.sass, sizeof b.sass, "%s", sass);
  snprintf(b.text, sizeof b.text, "phase boundary %d%s", ph, what);
  lc_vec_push(out, b);
}

/* A cluster boundary: UCGABAR_ARV after a MEMBAR.ALL.GPU unless the
 * arrive is .relaxed, then UCGABAR_WAIT and a CTA barrier (ptxas adds a
 * BAR.SYNC to every barrier.cluster.wait). */
static void expect_boundary(const cu_plan *pl, int ph, sx_vec *out) {
  int kind = pl->bar_kind ? pl->bar_kind[ph] : 0;
  if (kind & CU_BOUNDARY_CTA || !(kind & CU_BOUNDARY_CLUSTER)) expect_boundary_part(out, ph, SX_BAR, "", "");
  if (!(kind & CU_BOUNDARY_CLUSTER)) return;
  if (!(kind & CU_BOUNDARY_RELAXED)) expect_boundary_part(out, ph, SX_FENCE, "", " (release of barrier.cluster.arrive)");
  expect_boundary_part(out, ph, SX_OP, "UCGABAR_ARV", " (barrier.cluster.arrive)");
  expect_boundary_part(out, ph, SX_OP, "UCGABAR_WAIT", " (barrier.cluster.wait)");
  expect_boundary_part(out, ph, SX_BAR, "", " (barrier.cluster.wait)");
}

static void expect_kernel(const cu_plan *pl, int rot, sx_vec *out) {
  for (int ph = 0; ph < pl->nphases; ph++) {
    if (ph > 0) expect_boundary(pl, ph, out);
    for (size_t j = 0; j < pl->nroles; j++) expect_segment(pl, (int)((j + (size_t)rot) % pl->nroles), ph, out);
  }
}

/* ---- what the SASS holds ------------------------------------------------------------ */

typedef struct sins {
  char text[160];           /* the instruction, predicate and all */
  char op[64];              /* its opcode with modifiers */
} sins;

typedef struct sfunc {
  char name[96];
  LC_VEC(sins) ins;
} sfunc;

typedef LC_VEC(sfunc) sass_file;

/* A line like "  (addr in a comment)  @!P0 STG.E.STRONG.GPU [R4.64], R15 ;  (encoding in a comment)". */
static bool parse_sass_line(const char *s, sins *in) {
  const char *a = strstr(s, "/*");
  if (!a || !strchr("0123456789abcdef", a[2])) return false;
  const char *b = strstr(a + 2, "*/");
  if (!b) return false;
  b += 2;
  while (*b == ' ' || *b == '\t') b++;
  const char *end = strchr(b, ';');
  if (!end) return false;
  snprintf(in->text, sizeof in->text, "%.*s", (int)(end - b), b);
  const char *op = in->text;
  if (*op == '@') op = strchr(op, ' ') ? strchr(op, ' ') + 1 : op;
  while (*op == ' ') op++;
  size_t n = strcspn(op, " ");
  snprintf(in->op, sizeof in->op, "%.*s", (int)n, op);
  return true;
}

static void read_sass(const char *text, sass_file *f) {
  sfunc *cur = NULL;
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), s);
    const char *fn = strstr(line, "Function : ");
    if (fn) {
      sfunc e;
      memset(&e, 0, sizeof e);
      sscanf(fn + 11, "%95s", e.name);
      lc_vec_push(f, e);
      cur = &f->v[f->n - 1];
    } else if (cur) {
      sins in;
      if (parse_sass_line(line, &in)) lc_vec_push(&cur->ins, in);
    }
    s += n + (nl ? 1 : 0);
  }
}

static void sass_free(sass_file *f) {
  for (size_t i = 0; i < f->n; i++) lc_vec_free(&f->v[i].ins);
  lc_vec_free(f);
}

static bool has_prefix(const char *op, const char *base) {
  size_t n = strlen(base);
  return strncmp(op, base, n) == 0 && (op[n] == 0 || op[n] == '.');
}

/* SK_AUX: sm_90 instructions that touch no memory themselves (fences of
 * the async proxy, bulk-group flushes and waits, the cluster barrier):
 * matched when the test has them, skipped when ptxas adds them. */
typedef enum { SK_OTHER, SK_ACCESS, SK_ORDER, SK_BAR, SK_AUX } sk;

static sk sass_kind(const char *op) {
  static const char *const access[] = {"LDG", "STG", "LD", "ST", "LDS", "STS", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "REDS",
                                       "SYNCS", "UBLKCP"};
  static const char *const aux[] = {"UTMACMDFLUSH", "DEPBAR", "UCGABAR_ARV", "UCGABAR_WAIT", "CGAERRBAR"};
  if (has_prefix(op, "FENCE.VIEW.ASYNC")) return SK_AUX;
  for (size_t i = 0; i < LC_ARRAY_LEN(aux); i++)
    if (has_prefix(op, aux[i])) return SK_AUX;
  static const char *const order[] = {"MEMBAR", "CCTL", "ERRBAR", "FENCE", "CCTLL"};
  for (size_t i = 0; i < LC_ARRAY_LEN(access); i++)
    if (has_prefix(op, access[i])) return SK_ACCESS;
  for (size_t i = 0; i < LC_ARRAY_LEN(order); i++)
    if (has_prefix(op, order[i])) return SK_ORDER;
  return has_prefix(op, "BAR") ? SK_BAR : SK_OTHER;
}

static int sass_strength(const char *op) {
  if (strstr(op, ".STRONG.SYS") || strstr(op, ".MMIO")) return 3;
  if (strstr(op, ".STRONG.GPU")) return 2;
  if (strstr(op, ".STRONG.SM") || strstr(op, ".STRONG.CTA")) return 1;
  return 0;
}

static bool access_matches(const sx *e, const char *op) {
  bool ok;
  if (has_prefix(op, "SYNCS") || has_prefix(op, "UBLKCP")) return e->kind == SX_OP && has_prefix(op, e->sass);
  switch (e->kind) {
  case SX_LOAD: ok = e->shared ? has_prefix(op, "LDS") || has_prefix(op, "LD") : has_prefix(op, "LDG") || has_prefix(op, "LD"); break;
  case SX_STORE: ok = e->shared ? has_prefix(op, "STS") || has_prefix(op, "ST") : has_prefix(op, "STG") || has_prefix(op, "ST"); break;
  case SX_ATOM: ok = e->shared ? has_prefix(op, "ATOMS") || has_prefix(op, "ATOM") : has_prefix(op, "ATOMG") || has_prefix(op, "ATOM"); break;
  /* a red may come out as an atom whose result is unused */
  case SX_RED: ok = has_prefix(op, "RED") || has_prefix(op, "REDG") || has_prefix(op, "REDS") || has_prefix(op, "ATOM") || has_prefix(op, "ATOMG") || has_prefix(op, "ATOMS"); break;
  default: return false;
  }
  if (!ok) return false;
  bool shared_op = has_prefix(op, "LDS") || has_prefix(op, "STS") || has_prefix(op, "ATOMS") || has_prefix(op, "REDS");
  if (shared_op) return e->shared;
  return sass_strength(op) >= e->strength;
}

/* A fence: a MEMBAR of at least its scope (.SC for fence.sc); .cta fences
 * may be a MEMBAR.*.CTA or stronger. */
static bool fence_matches(const sx *e, const char *op) {
  if (!has_prefix(op, "MEMBAR")) return false;
  if (e->sc && !strstr(op, ".SC")) return false;
  int s = strstr(op, ".SYS") ? 3 : strstr(op, ".GPU") ? 2 : 1;
  return s >= e->strength;
}

static void describe(const sx *e, lc_buf *b) {
  if (e->role < 0) lc_buf_printf(b, "%s", e->text);
  else lc_buf_printf(b, "P%d line %d: %s", e->role, e->line, e->text);
}

/* The instructions between the two clock reads. */
static int region(const sfunc *f, size_t *from, size_t *to) {
  size_t m[3], n = 0;
  for (size_t i = 0; i < f->ins.n && n < 3; i++)
    if (strstr(f->ins.v[i].text, "SR_CLOCKLO")) m[n++] = i;
  if (n != 2) return -1;
  *from = m[0] + 1;
  *to = m[1];
  return 0;
}

static void print_region(FILE *out, const sfunc *f, size_t from, size_t to) {
  for (size_t i = from; i < to; i++)
    if (sass_kind(f->ins.v[i].op) != SK_OTHER) fprintf(out, "    %s\n", f->ins.v[i].text);
}

/* Matching the SASS between the markers against the expected sequence: a
 * depth-first search over (SASS position, expected position, expected
 * instructions found so far), since extra fences and repeated loop bodies
 * make a greedy match ambiguous.  Sizes are small (tens of instructions). */
typedef struct matcher {
  const sfunc *f;
  size_t from, to;
  const sx_vec *ex;
  unsigned char *failed;    /* states known to fail */
  size_t best;              /* most expected instructions found on any path */
} matcher;

static bool dfs(matcher *M, size_t i, size_t j, size_t got);

static bool weak_access(const sx *a) { return (a->kind == SX_LOAD || a->kind == SX_STORE) && a->strength == 0; }

/* Two loads of one role, of different locations, with nothing of the
 * test ordering them (no .acquire on the first, no fence between: a fence
 * would sit between them in the expected list): ptxas may swap them, and
 * every outcome of the swapped order is one of the test's.  Likewise a weak access and an mbarrier update that orders nothing. */
static bool swappable(const sx *a, const sx *b) {
  if (a->role != b->role || a->loop_first >= 0 || b->loop_first >= 0) return false;
  if ((a->relaxed && weak_access(b)) || (b->relaxed && weak_access(a))) return true;
  return a->kind == SX_LOAD && b->kind == SX_LOAD && a->loc != b->loc && !a->acquire;
}

/* E[j+1] was found at SASS position i - 1: E[j] must be the next access. */
static bool dfs_swapped(matcher *M, size_t i, size_t j, size_t got) {
  while (i < M->to && sass_kind(M->f->ins.v[i].op) != SK_ACCESS) {
    if (sass_kind(M->f->ins.v[i].op) == SK_BAR) return false;
    i++;
  }
  if (i == M->to || !access_matches(&M->ex->v[j], M->f->ins.v[i].op)) return false;
  return dfs(M, i + 1, j + 2, got > j + 2 ? got : j + 2);
}

/* A proxy fence of one state space orders no access of the other: ptxas
 * may hoist such an access above it.  E[j+1] was found at SASS position
 * i - 1; the fence E[j] must come before the next access. */
static bool other_space(const sx *fence, const sx *a) {
  return fence->kind == SX_OP && fence->proxy_space && a->kind != SX_OP && a->kind != SX_FENCE && a->kind != SX_BAR &&
         a->shared != (fence->proxy_space == 2) && a->role == fence->role && a->loop_first < 0 && fence->loop_first < 0;
}

static bool dfs_fence_after(matcher *M, size_t i, size_t j, size_t got) {
  const sx *e = &M->ex->v[j];
  for (; i < M->to; i++) {
    const char *op = M->f->ins.v[i].op;
    sk k = sass_kind(op);
    if (k == SK_AUX && has_prefix(op, e->sass)) return dfs(M, i + 1, j + 2, got > j + 2 ? got : j + 2);
    if (k == SK_ACCESS || k == SK_BAR) return false;
  }
  return false;
}

static bool dfs(matcher *M, size_t i, size_t j, size_t got) {
  size_t n = M->ex->n;
  if (got > M->best) M->best = got;
  while (i < M->to && sass_kind(M->f->ins.v[i].op) == SK_OTHER) i++;
  if (i == M->to) return got == n;
  size_t key = ((i - M->from) * (n + 1) + j) * (n + 1) + got;
  if (M->failed[key]) return false;
  const char *op = M->f->ins.v[i].op;
  const sx *e = j < n ? &M->ex->v[j] : NULL;
  bool ok = false;
  switch (sass_kind(op)) {
  case SK_ORDER:
    ok = (e && e->kind == SX_FENCE && fence_matches(e, op) && dfs(M, i + 1, j + 1, got > j + 1 ? got : j + 1)) ||
         dfs(M, i + 1, j, got);
    break;
  case SK_BAR: ok = e && e->kind == SX_BAR && dfs(M, i + 1, j + 1, got > j + 1 ? got : j + 1); break;
  case SK_AUX:
    ok = (e && e->kind == SX_OP && has_prefix(op, e->sass) &&
          dfs(M, i + 1, j + 1, got > j + 1 ? got : j + 1)) ||
         dfs(M, i + 1, j, got);
    break;
  default:
    ok = e && access_matches(e, op) && dfs(M, i + 1, j + 1, got > j + 1 ? got : j + 1);
    if (!ok && e && j + 1 < n && swappable(e, &M->ex->v[j + 1]) && access_matches(&M->ex->v[j + 1], op))
      ok = dfs_swapped(M, i + 1, j, got);
    if (!ok && e && j + 1 < n && other_space(e, &M->ex->v[j + 1]) && access_matches(&M->ex->v[j + 1], op))
      ok = dfs_fence_after(M, i + 1, j, got);
    /* try_wait checks the phase again after its suspend */
    if (!ok && j > 0 && M->ex->v[j - 1].kind == SX_OP && has_prefix(op, "SYNCS.PHASECHK.TRANS64") &&
        strcmp(M->ex->v[j - 1].sass, "SYNCS.PHASECHK.TRANS64") == 0)
      ok = dfs(M, i + 1, j, got);
    /* a loop unrolled or rotated by ptxas: the loop's instructions again */
    if (!ok && j > 0 && M->ex->v[j - 1].loop_first >= 0)
      for (size_t m = (size_t)M->ex->v[j - 1].loop_first; !ok && m < j; m++)
        ok = M->ex->v[m].loop_first == M->ex->v[j - 1].loop_first && access_matches(&M->ex->v[m], op) &&
             dfs(M, i + 1, m + 1, got);
    break;
  }
  if (!ok) M->failed[key] = 1;
  return ok;
}

/* 0 when every expected instruction is found in order, else -1 with the
 * first one that no match reaches on out. */
static int check_kernel(const char *path, int sm, const sfunc *f, const sx_vec *ex, bool verbose, FILE *out) {
  size_t from, to;
  if (region(f, &from, &to) < 0) {
    fprintf(out, "FAIL %s (sm_%d): the clock reads that bracket the litmus code are not in the SASS of %s\n", path,
            sm, f->name);
    return -1;
  }
  if (verbose) {
    fprintf(out, "%s (sm_%d), %s:\n", path, sm, f->name);
    print_region(out, f, from, to);
  }
  size_t n = ex->n;
  matcher M = {f, from, to, ex, lc_xcalloc((to - from + 1) * (n + 1) * (n + 1), 1), 0};
  bool ok = dfs(&M, from, 0, 0);
  free(M.failed);
  if (ok) return 0;
  lc_buf why;
  lc_buf_init(&why);
  if (M.best < n) {
    describe(&ex->v[M.best], &why);
    lc_buf_puts(&why, " is lost, merged or out of order in the SASS:");
  } else {
    lc_buf_puts(&why, "the SASS has memory instructions the test does not:");
  }
  fprintf(out, "FAIL %s (sm_%d): %s\n", path, sm, why.s);
  if (!verbose) print_region(out, f, from, to);
  lc_buf_fini(&why);
  return -1;
}

/* ---- tools ------------------------------------------------------------------------------- */

static bool executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static char *on_path(const char *name) {
  const char *path = getenv("PATH");
  if (!path) return NULL;
  for (const char *s = path; *s;) {
    size_t n = strcspn(s, ":");
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%.*s/%s", (int)n, s, name);
    if (n && executable(b.s)) return b.s;
    lc_buf_fini(&b);
    s += n + (s[n] == ':');
  }
  return NULL;
}

/* Runs argv with extra_path first on PATH; stdout into *text.  Returns the
 * exit status, or -1 when it could not run. */
static int run_capture(char *const argv[], const char *extra_path, char **text) {
  int fd[2];
  if (pipe(fd) < 0) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  lc_buf pathvar;
  lc_buf_init(&pathvar);
  lc_buf_printf(&pathvar, "PATH=%s%s%s", extra_path ? extra_path : "", extra_path ? ":" : "",
                getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
  LC_VEC(char *) env = {0};
  lc_vec_push(&env, pathvar.s);
  for (char **e = environ; *e; e++)
    if (strncmp(*e, "PATH=", 5) != 0) lc_vec_push(&env, *e);
  lc_vec_push(&env, (char *)NULL);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, env.v);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  lc_buf out;
  lc_buf_init(&out);
  if (rc == 0) {
    char buf[65536];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
      if (n > 0) lc_buf_putn(&out, buf, (size_t)n);
  }
  close(fd[0]);
  int st = 0;
  if (rc == 0 && waitpid(pid, &st, 0) != pid) rc = -1;
  lc_buf_fini(&pathvar);
  lc_vec_free(&env);
  *text = out.s ? out.s : lc_xstrdup("");
  if (rc != 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The PyPI wheel nvidia-cuda-cuobjdump installs nvidia/cu<N>/bin/cuobjdump
 * below site-packages; python3 says where its nvidia package is. */
static char *from_pypi(void) {
  char *py = on_path("python3");
  if (!py) return NULL;
  char *argv[] = {py, "-c",
                  "import glob\n"
                  "try:\n"
                  "    import nvidia\n"
                  "except ImportError:\n"   /* not installed: no traceback, nothing found */
                  "    raise SystemExit(1)\n"
                  "for d in nvidia.__path__:\n"
                  "    for p in sorted(glob.glob(d + '/cu*/bin/cuobjdump'), reverse=True): print(p)\n",
                  NULL};
  char *text = NULL;
  int rc = run_capture(argv, NULL, &text);
  free(py);
  char *found = NULL;
  if (rc == 0) {
    text[strcspn(text, "\n")] = 0;
    if (*text && executable(text)) found = lc_xstrdup(text);
  }
  free(text);
  return found;
}

char *cu_sass_find_cuobjdump(void) {
  const char *env = getenv("LC_CUOBJDUMP");
  if (env && *env) return executable(env) ? lc_xstrdup(env) : NULL;
  char *p = on_path("cuobjdump");
  if (p) return p;
  if (*LC_CUDA_DIR) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s/bin/cuobjdump", LC_CUDA_DIR);
    if (executable(b.s)) return b.s;
    lc_buf_fini(&b);
  }
  return from_pypi();
}

/* ---- the check ---------------------------------------------------------------------------- */

typedef struct tcase {
  char *path;
  lc_source src;
  lt_test *t;
  lx_program *p;
  cu_plan *pl;
} tcase;

static void tcase_free(tcase *tc) {
  cu_plan_free(tc->pl);
  lx_program_free(tc->p);
  lt_test_free(tc->t);
  lc_source_fini(&tc->src);
}

/* 1 planned, 0 refused (the generator cannot run it), -1 does not load
 * or needs a newer architecture than any of --sm (max_sm). */
static int load(tcase *tc, const char *path, int max_sm, FILE *out) {
  memset(tc, 0, sizeof *tc);
  tc->path = (char *)path;
  if (lc_source_read(&tc->src, path) < 0) {
    fprintf(out, "%s: cannot read: %s\n", path, strerror(errno));
    return -1;
  }
  lc_diag d;
  lc_diag_init(&d, &tc->src, NULL);
  tc->t = lt_parse(&tc->src, &d);
  lx_options lo = {LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS, 0, false, 0, 0};
  if (tc->t) tc->p = lx_lower(tc->t, &lo, &d);
  if (tc->p) tc->pl = cu_plan_new(tc->p, &d);
  if (tc->pl && tc->pl->sm90_at && max_sm < 90) {
    lc_error(&d, tc->pl->sm90_at->at, "P%d: '%s' needs sm_90; --sm asks for sm_%d at most", tc->pl->sm90_thread,
             tc->pl->sm90_at->mnemonic ? tc->pl->sm90_at->mnemonic : "this instruction", max_sm);
    cu_plan_free(tc->pl);
    tc->pl = NULL;
    lx_program_free(tc->p);
    tc->p = NULL;
  }
  int rc = tc->pl ? 1 : tc->p ? 0 : -1;
  if (rc <= 0) fprintf(out, "%s %s\n", rc == 0 ? "refused" : "error", lc_diag_first_error(&d) ? lc_diag_first_error(&d) : path);
  lc_diag_fini(&d);
  return rc;
}

static void batch_source(lc_buf *b, const tcase *tcs, size_t n, int sm, cu_sass_emitter emit, bool first) {
  lc_buf_puts(b, "#define CU_TEST_KERNEL_ONLY\n");
  if (first) lc_buf_puts(b, "#define CU_FIRST_ROTATION_ONLY\n");
  cu_gen_prelude(b);
  /* libcu++ at file scope: a body's own #include, inside its namespace,
   * then finds it included */
  for (size_t i = 0; i < n; i++)
    if (tcs[i].pl && tcs[i].t->cpp) {
      lc_buf_puts(b, "#include <cuda/atomic>\n");
      break;
    }
  for (size_t i = 0; i < n; i++) {
    if (!tcs[i].pl || tcs[i].pl->min_sm > sm) continue;
    lc_buf_printf(b, "namespace t%zu {\n#define CU_KNAME(name) name##_%zu\n", i, i);
    emit(b, tcs[i].pl);
    lc_buf_puts(b, "#undef CU_KNAME\n}\n\n");
  }
}

static const sfunc *find_func(const sass_file *f, size_t i, int rot) {
  char want[64];
  if (rot) snprintf(want, sizeof want, "cu_test_r%d_%zu", rot, i);
  else snprintf(want, sizeof want, "cu_test_%zu", i);
  for (size_t e = 0; e < f->n; e++)
    if (strcmp(f->v[e].name, want) == 0) return &f->v[e];
  return NULL;
}

/* Compiles every test for one architecture in one translation unit and
 * checks each test kernel.  Returns the number of failures. */
static int check_sm(cu_nvrtc *rtc, const char *cuobjdump, const tcase *tcs, size_t n, int sm, const cu_sass_opts *o) {
  lc_buf src;
  lc_buf_init(&src);
  batch_source(&src, tcs, n, sm, o->emit ? o->emit : cu_gen_body, o->first_rotation);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  char *img = NULL;
  size_t size = 0;
  int fails = 0;
  if (cu_nvrtc_compile(rtc, src.s, "litmus-sass.cu", sm, false, &img, &size, &d) < 0) {
    fprintf(o->out, "FAIL sm_%d: NVRTC: %s\n", sm, lc_diag_first_error(&d) ? lc_diag_first_error(&d) : "?");
    fails = 1;
  }
  char tmpl[] = "/tmp/litmus-sass.XXXXXX";
  int fd = fails ? -1 : mkstemp(tmpl);
  if (!fails && (fd < 0 || write(fd, img, size) != (ssize_t)size)) {
    fprintf(o->out, "FAIL sm_%d: cannot write %s\n", sm, tmpl);
    fails = 1;
  }
  if (fd >= 0) close(fd);
  if (!fails) {
    char *dir = lc_xstrdup(cuobjdump);
    *strrchr(dir, '/') = 0;
    char *argv[] = {(char *)cuobjdump, "-sass", tmpl, NULL};
    char *text = NULL;
    int rc = run_capture(argv, dir, &text);
    if (rc != 0) {
      fprintf(o->out, "FAIL sm_%d: cuobjdump -sass exited with %d (it needs nvdisasm beside it or on the PATH)\n", sm, rc);
      fails = 1;
    } else {
      sass_file f = {0};
      read_sass(text, &f);
      for (size_t i = 0; i < n; i++) {
        if (!tcs[i].pl || tcs[i].pl->min_sm > sm) continue;
        int nrot = o->first_rotation ? 1 : cu_gen_rotations(tcs[i].pl);
        for (int rot = 0; rot < nrot; rot++) {
          sx_vec ex = {0};
          expect_kernel(tcs[i].pl, rot, &ex);
          const sfunc *k = find_func(&f, i, rot);
          if (!k) fprintf(o->out, "FAIL %s (sm_%d): no test kernel %d in the SASS\n", tcs[i].path, sm, rot), fails++;
          else if (check_kernel(tcs[i].path, sm, k, &ex, o->verbose, o->out) < 0) fails++;
          lc_vec_free(&ex);
        }
      }
      sass_free(&f);
    }
    free(text);
    free(dir);
  }
  if (fd >= 0) unlink(tmpl);
  free(img);
  lc_diag_fini(&d);
  lc_buf_fini(&src);
  return fails;
}

cu_sass_status cu_sass_check(char *const *paths, size_t npaths, const cu_sass_opts *o, lc_diag *d) {
  assert((paths || npaths == 0) && o && d);
  char *cuobjdump = cu_sass_find_cuobjdump();
  if (!cuobjdump) {
    lc_error(d, (lc_loc){0}, "cuobjdump not found (looked at $LC_CUOBJDUMP, the PATH, %s/bin and python3's "
                             "nvidia-cuda-cuobjdump package): the SASS check needs it",
             *LC_CUDA_DIR ? LC_CUDA_DIR : "the toolkit");
    return CU_SASS_NO_TOOLS;
  }
  cu_nvrtc *rtc = cu_nvrtc_open(d);
  if (!rtc) {
    free(cuobjdump);
    return CU_SASS_NO_TOOLS;
  }
  lc_paths files = {0};
  for (size_t i = 0; i < npaths; i++) lc_paths_add(&files, paths[i]);
  tcase *tcs = lc_xcalloc(files.n ? files.n : 1, sizeof *tcs);
  int bad = 0, refused = 0, fails = 0;
  int max_sm = 0;
  for (int s = 0; s < o->nsms; s++)
    if (o->sms[s] > max_sm) max_sm = o->sms[s];
  for (size_t i = 0; i < files.n; i++) {
    int rc = load(&tcs[i], files.v[i], max_sm, o->out);
    bad += rc < 0;
    refused += rc == 0;
  }
  for (int s = 0; s < o->nsms; s++) fails += check_sm(rtc, cuobjdump, tcs, files.n, o->sms[s], o);
  fprintf(o->out, "SASS check (NVRTC %s, %s): %zu tests, %d refused by the generator, %d do not load; sm", cu_nvrtc_version(rtc),
          cuobjdump, files.n, refused, bad);
  for (int s = 0; s < o->nsms; s++) fprintf(o->out, "%s%d", s ? "," : "_", o->sms[s]);
  fprintf(o->out, ": %s\n", fails ? "accesses lost" : bad ? "errors" : "every access found");
  for (size_t i = 0; i < files.n; i++) tcase_free(&tcs[i]);
  free(tcs);
  lc_paths_free(&files);
  cu_nvrtc_close(rtc);
  free(cuobjdump);
  return fails ? CU_SASS_LOST : bad ? CU_SASS_BAD_FILE : CU_SASS_FOUND;
}
