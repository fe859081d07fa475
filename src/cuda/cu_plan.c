/* cu_plan.c - whether and how a lowered test runs as a CUDA kernel.
 * SPDX-License-Identifier: MIT
 *
 * Every GPU thread plays every role of the test, one after the other, each
 * for a different instance.  That is only faithful if a role's code can be
 * cut into phases at its barriers, the same phases for all roles: a phase
 * boundary is one barrier.cta.sync that every thread of the CTA executes, which
 * synchronises at least the threads the test's barrier synchronises (more
 * synchronisation only removes behaviours, so what the GPU shows is still
 * an outcome of the test).  This file finds the phases, the loops (each
 * backward jump is bounded like the model's unrolling), where locations
 * live, and refuses what has no faithful PTX form, with the instruction's
 * position.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cu_int.h"
#include "map/map_lower.h"

typedef struct planner {
  cu_plan *pl;
  const lx_program *p;
  const lt_test *t;
  lc_diag *d;
} planner;

static int refuse_at(planner *P, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);
static int refuse_at(planner *P, lc_loc at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lc_vreport(P->d, LC_SEV_ERROR, at, fmt, ap);
  va_end(ap);
  return -1;
}

/* "P1: 'cold.weak r3, rd2' cannot run on the GPU: why" */
static int refuse(planner *P, int k, const lt_instr *in, const char *why) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print_instr(&b, in);
  refuse_at(P, in->at, "P%d: '%s' cannot run on the GPU: %s", P->p->threads[k].id, b.s, why);
  lc_buf_fini(&b);
  return -1;
}

/* ---- placement ------------------------------------------------------------------ */

/* Litmus CTAs are (gpu, cluster, cta) triples, litmus clusters (gpu,
 * cluster) pairs, numbered in order of first appearance. */
static void place(planner *P) {
  cu_plan *pl = P->pl;
  const lx_thread *th = P->p->threads;
  int nctas_in[CU_MAX_ROLES] = {0}, nroles_in[CU_MAX_ROLES] = {0};
  for (size_t k = 0; k < pl->nroles; k++) {
    cu_role *r = &pl->roles[k];
    r->lcta = r->lcl = -1;
    for (size_t j = 0; j < k; j++) {
      if (th[j].gpu == th[k].gpu && th[j].cluster == th[k].cluster) r->lcl = pl->roles[j].lcl;
      if (r->lcl >= 0 && th[j].cta == th[k].cta && pl->roles[j].lcl == r->lcl) r->lcta = pl->roles[j].lcta;
    }
    if (r->lcl < 0) r->lcl = pl->nlcl++;
    if (r->lcta < 0) {
      r->lcta = pl->nlcta++;
      pl->cta_cl[r->lcta] = r->lcl;
      nctas_in[r->lcl]++;
    }
    nroles_in[r->lcta]++;
    if (th[k].gpu != th[0].gpu) pl->multi_gpu = true;
  }
  for (int i = 0; i < CU_MAX_ROLES; i++) {
    if (nctas_in[i] > pl->ctas_per_cl) pl->ctas_per_cl = nctas_in[i];
    if (nroles_in[i] > pl->roles_per_cta) pl->roles_per_cta = nroles_in[i];
  }
}

/* ---- locations ------------------------------------------------------------------- */

int cu_plan_vloc(const cu_plan *pl, int k, const lt_operand *o) {
  assert(pl && o);
  if (o->kind != LT_OPND_LOC) return -1;
  const lx_program *p = pl->p;
  for (size_t i = 0; i < p->nlocs; i++) {
    const lx_loc *l = &p->locs[i];
    if (strcmp(l->name, o->loc) != 0) continue;
    if (l->cta < 0 || l->cta == p->threads[k].cta) return (int)i;
  }
  return -1;
}

/* Shared memory lives in one CTA: every role touching a copy must be in
 * the litmus CTA that owns it. */
static int claim_shared_of(planner *P, int k, const lt_instr *in, int ploc, int lcta) {
  cu_plan *pl = P->pl;
  if (pl->owner[ploc] < 0) pl->owner[ploc] = lcta;
  if (pl->owner[ploc] == lcta) return 0;
  return refuse(P, k, in, "it touches shared memory that a thread of another CTA touches too");
}

static int claim_shared(planner *P, int k, const lt_instr *in, int ploc) {
  return claim_shared_of(P, k, in, ploc, P->pl->roles[k].lcta);
}

/* A CTA's rank in its cluster is its position among the cluster's CTAs by
 * CTA number (as exec/lower.c reads mapa). */
static int rank_role(const cu_plan *pl, int k, int64_t rank) {
  const lx_thread *th = pl->p->threads;
  int below = 0, role = -1;
  for (int want = 0; want <= rank; want++) {
    role = -1;
    for (size_t j = 0; j < pl->nroles; j++) {
      if (pl->roles[j].lcl != pl->roles[k].lcl || (want > 0 && th[j].cta <= below)) continue;
      if (role < 0 || th[j].cta < th[role].cta) role = (int)j;
    }
    if (role < 0) return -1;
    below = th[role].cta;
  }
  return role;
}

int cu_plan_mapa_vloc(const cu_plan *pl, int k, const lt_instr *in, int *role) {
  assert(pl && in && role);
  *role = in->a.kind == LT_OPND_IMM && in->a.imm >= 0 && in->a.imm < CU_MAX_ROLES ? rank_role(pl, k, in->a.imm) : -1;
  if (*role < 0 || in->addr.kind != LT_OPND_LOC) return -1;
  return cu_plan_vloc(pl, *role, &in->addr);
}

int cu_plan_loc_operands(const lt_instr *in, const lt_operand *ops[3]) {
  const lt_operand *all[3] = {&in->addr, &in->b, &in->c};
  int n = 0;
  for (int i = 0; i < 3; i++) {
    bool address = i == 0 ? in->kind != LT_I_ALU && in->kind != LT_I_BRANCH : in->kind == LT_I_BULK;
    ops[i] = address && all[i]->kind == LT_OPND_LOC ? all[i] : NULL;
    n += ops[i] != NULL;
  }
  return n;
}

/* ---- instructions ------------------------------------------------------------------- */

static bool type_is_64(lt_type t) { return t == LT_TYPE_B64 || t == LT_TYPE_U64 || t == LT_TYPE_S64; }
static bool fits_32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* The types PTX accepts for atom.<op> (checked against ptxas). */
static bool atom_type_ok(lt_rmw_op op, lt_type t) {
  switch (op) {
  case LT_RMW_ADD: case LT_RMW_SUB: return t == LT_TYPE_U32 || t == LT_TYPE_S32 || t == LT_TYPE_U64;
  case LT_RMW_MIN: case LT_RMW_MAX:
    return t == LT_TYPE_U32 || t == LT_TYPE_S32 || t == LT_TYPE_U64 || t == LT_TYPE_S64;
  case LT_RMW_INC: case LT_RMW_DEC: return t == LT_TYPE_U32;
  default: return t == LT_TYPE_B32 || t == LT_TYPE_B64;
  }
}

static int check_value_operand(planner *P, int k, const lt_instr *in, const lt_operand *o) {
  if (o->kind == LT_OPND_LOC) return refuse(P, k, in, "addresses as values are not supported");
  if (o->kind == LT_OPND_REGADDR)
    return refuse(P, k, in, "addresses held in registers are not supported");
  return 0;
}

/* sm_90's instructions: the first one is named when a lower architecture
 * is asked for. */
static void note_sm90(planner *P, int k, const lt_instr *in) {
  if (P->pl->sm90_at) return;
  P->pl->sm90_at = in;
  P->pl->sm90_thread = P->p->threads[k].id;
}

/* Does role k write register reg with mapa? */
static bool mapa_writes(const planner *P, int k, int reg) {
  const lt_thread *tt = &P->t->threads[k];
  for (size_t c = 0; c < tt->ncells; c++) {
    const lt_instr *in = tt->cells[c].instr;
    if (in && in->kind == LT_I_MAPA && in->dst.kind == LT_OPND_REG && in->dst.reg == reg) return true;
  }
  return false;
}

/* [rK] is another CTA's shared memory, through an address from mapa: the
 * only register addresses the kernel can form (it never knows the others). */
static int check_remote_addr(planner *P, int k, const lt_instr *in, const lt_operand *o) {
  if (!mapa_writes(P, k, o->reg))
    return refuse(P, k, in, "addresses held in registers ([rK]) are supported only from mapa");
  note_sm90(P, k, in);
  P->pl->dsmem = P->pl->cluster_bars = true;
  return 0;
}

static int check_remote(planner *P, int k, const lt_instr *in) {
  if (in->kind != LT_I_LD && in->kind != LT_I_ST && in->kind != LT_I_ATOM && in->kind != LT_I_RED)
    return check_remote_addr(P, k, in, &in->addr);
  if (in->space != LT_SPACE_SHARED)
    return refuse(P, k, in, "an address from mapa needs a .shared::cluster access");
  if (in->proxy != LT_PROXY_GENERIC || in->sem == LT_SEM_MMIO || in->cache != LT_CACHE_NONE)
    return refuse(P, k, in, "a distributed shared memory access takes no proxy, .mmio or cache operator");
  if (in->scope == LT_SCOPE_CLUSTER) P->pl->cluster_scope = true;
  if (check_value_operand(P, k, in, &in->a) < 0 || check_value_operand(P, k, in, &in->b) < 0) return -1;
  return check_remote_addr(P, k, in, &in->addr);
}

static int check_access(planner *P, int k, const lt_instr *in) {
  cu_plan *pl = P->pl;
  if (in->proxy != LT_PROXY_GENERIC)
    return refuse(P, k, in, in->proxy == LT_PROXY_CONSTANT
                                ? "constant-proxy accesses need constant memory aliasing the location, "
                                  "which the CUDA backend does not set up"
                                : "texture and surface accesses need texture/surface objects over the "
                                  "location, which the CUDA backend does not set up");
  if (in->addr.kind == LT_OPND_REGADDR) return check_remote(P, k, in);
  int v = cu_plan_vloc(pl, k, &in->addr);
  if (v < 0) return refuse(P, k, in, "it does not name a location");
  const lx_loc *l = &P->p->locs[v];
  if (l->proxy != LT_PROXY_GENERIC)
    return refuse(P, k, in, "the location is a texture, surface or constant alias");
  if (l->alias) pl->alias = true;
  if (l->space == LT_SPACE_SHARED && l->alias)
    return refuse(P, k, in, "aliases of shared memory are not supported");
  if (in->space != LT_SPACE_NONE && in->space != l->space)
    return refuse(P, k, in, "its state space differs from the location's in the memory map");
  if (in->sem == LT_SEM_MMIO && l->space == LT_SPACE_SHARED)
    return refuse(P, k, in, "ld/st.mmio needs global memory");
  if (in->cache != LT_CACHE_NONE && in->sem != LT_SEM_NONE && in->sem != LT_SEM_WEAK)
    return refuse(P, k, in, "PTX takes a cache operator only on weak accesses");
  if (l->space == LT_SPACE_SHARED && claim_shared(P, k, in, l->ploc) < 0) return -1;
  if (in->scope == LT_SCOPE_CLUSTER) pl->cluster_scope = true;
  if (check_value_operand(P, k, in, &in->a) < 0 || check_value_operand(P, k, in, &in->b) < 0) return -1;
  if (in->kind == LT_I_ATOM || in->kind == LT_I_RED) {
    if (!in->cpp && in->type != LT_TYPE_NONE && !atom_type_ok(in->rmw, in->type))
      return refuse(P, k, in, "PTX has no atom/red of this operation with this type");
  }
  return 0;
}

/* A location operand that must be in one state space; shared ones are
 * claimed for role k's CTA. */
static int check_hopper_loc(planner *P, int k, const lt_instr *in, const lt_operand *o, lt_space want) {
  if (o->kind == LT_OPND_REGADDR) return want == LT_SPACE_SHARED ? check_remote_addr(P, k, in, o) :
                                         refuse(P, k, in, "a global address held in a register is not supported");
  int v = cu_plan_vloc(P->pl, k, o);
  if (v < 0) return refuse(P, k, in, "it does not name a location");
  const lx_loc *l = &P->p->locs[v];
  if (l->space != want || l->alias || l->proxy != LT_PROXY_GENERIC)
    return refuse(P, k, in, want == LT_SPACE_SHARED ? "it needs a plain shared location"
                                                    : "it needs a plain global location");
  return want == LT_SPACE_SHARED ? claim_shared(P, k, in, l->ploc) : 0;
}

static void mark_mbar(planner *P, int k, const lt_operand *o) {
  int v = o->kind == LT_OPND_LOC ? cu_plan_vloc(P->pl, k, o) : -1;
  if (v >= 0) P->pl->mbar[P->p->locs[v].ploc] = true;
  if (P->pl->slot_bytes < 16) P->pl->slot_bytes = 16;
}

/* Does the outcome show role k's register reg? */
static bool reg_observed(const planner *P, int k, int reg) {
  for (size_t j = 0; j < P->p->nobs; j++)
    if (P->p->obs[j].kind == LX_OBS_REG && P->p->obs[j].thread == k && P->p->threads[k].regs[P->p->obs[j].slot] == reg)
      return true;
  return false;
}

/* A register that an instruction other than `self` reads, or the outcome shows. */
static bool reg_read(const planner *P, int k, int reg, const lt_instr *self) {
  const lt_thread *tt = &P->t->threads[k];
  for (size_t c = 0; c < tt->ncells; c++) {
    const lt_instr *in = tt->cells[c].instr;
    if (!in || in == self) continue;
    const lt_operand *ops[] = {&in->addr, &in->a, &in->b, &in->c};
    for (size_t i = 0; i < 4; i++)
      if ((ops[i]->kind == LT_OPND_REG || ops[i]->kind == LT_OPND_REGADDR) && ops[i]->reg == reg) return true;
  }
  return reg_observed(P, k, reg);
}

static int check_count(planner *P, int k, const lt_instr *in, const lt_operand *o) {
  if (o->kind == LT_OPND_LOC || o->kind == LT_OPND_REGADDR) return refuse(P, k, in, "a count must be a value");
  return 0;
}

static int check_mbar(planner *P, int k, const lt_instr *in) {
  note_sm90(P, k, in);
  if (in->scope == LT_SCOPE_CLUSTER) P->pl->cluster_scope = true;
  if (check_hopper_loc(P, k, in, &in->addr, LT_SPACE_SHARED) < 0) return -1;
  mark_mbar(P, k, &in->addr);
  if (check_count(P, k, in, &in->a) < 0 || check_count(P, k, in, &in->b) < 0) return -1;
  bool wait = in->mbar == LT_MB_TEST_WAIT || in->mbar == LT_MB_TRY_WAIT;
  if (wait && !in->parity)
    return refuse(P, k, in, "the state an arrive returns is an opaque 64-bit value on the GPU, not the model's "
                            "phase; wait by .parity");
  if (!wait && in->dst.kind == LT_OPND_REG && reg_read(P, k, in->dst.reg, in))
    return refuse(P, k, in, "the state an arrive returns is an opaque 64-bit value on the GPU, not the model's "
                            "phase: nothing may read it");
  return 0;
}

/* Bulk copies move whole slots: every location gets slots of the largest
 * copy's size, 16-byte aligned. */
enum { MAX_BULK_BYTES = 256 };

static int check_bulk(planner *P, int k, const lt_instr *in) {
  note_sm90(P, k, in);
  if (in->bulk == LT_BULK_COMMIT || in->bulk == LT_BULK_WAIT) return 0;
  if (in->a.imm > MAX_BULK_BYTES)
    return refuse(P, k, in, "bulk copies of more than 256 bytes are not emitted (every location's slot "
                            "would grow to the copy's size)");
  if (P->pl->slot_bytes < in->a.imm) P->pl->slot_bytes = (int)in->a.imm;
  bool s2g = in->bulk == LT_BULK_S2G;
  if (check_hopper_loc(P, k, in, &in->addr, s2g ? LT_SPACE_GLOBAL : LT_SPACE_SHARED) < 0 ||
      check_hopper_loc(P, k, in, &in->b, s2g ? LT_SPACE_SHARED : LT_SPACE_GLOBAL) < 0)
    return -1;
  if (s2g) return 0;
  if (check_hopper_loc(P, k, in, &in->c, LT_SPACE_SHARED) < 0) return -1;
  mark_mbar(P, k, &in->c);
  return 0;
}

static int check_mapa(planner *P, int k, const lt_instr *in) {
  note_sm90(P, k, in);
  if (in->addr.kind != LT_OPND_LOC)
    return refuse(P, k, in, "mapa of an address held in a register is not supported");
  int role, v = cu_plan_mapa_vloc(P->pl, k, in, &role);
  if (v < 0) return refuse(P, k, in, "its rank must be a constant naming a CTA of the thread's cluster");
  if (P->p->locs[v].space != LT_SPACE_SHARED) return refuse(P, k, in, "mapa maps shared memory");
  if (reg_observed(P, k, in->dst.reg)) return refuse(P, k, in, "the GPU backend cannot compare addresses in an outcome");
  P->pl->dsmem = P->pl->cluster_bars = true;
  return claim_shared_of(P, k, in, P->p->locs[v].ploc, P->pl->roles[role].lcta);
}

static int check_instr(planner *P, int k, const lt_instr *in) {
  switch (in->kind) {
  case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED:
    return check_access(P, k, in);
  case LT_I_FENCE:
    if (in->scope == LT_SCOPE_CLUSTER) P->pl->cluster_scope = true;
    if (in->mbar_init_fence) note_sm90(P, k, in);
    return 0;
  case LT_I_FENCE_PROXY:
    if (in->proxy == LT_PROXY_ASYNC) {
      note_sm90(P, k, in);
      return 0;
    }
    return refuse(P, k, in, "PTX has no such proxy fence (it has fence.proxy.alias and the async "
                            "proxies); texture, surface and constant proxies are not set up");
  case LT_I_FENCE_ALIAS:
    return 0;
  case LT_I_MBAR: return check_mbar(P, k, in);
  case LT_I_BULK: return check_bulk(P, k, in);
  case LT_I_MAPA: return check_mapa(P, k, in);
  case LT_I_BAR:
    if (in->bar_grid)   /* the runner places many test instances in one grid */
      return refuse(P, k, in, "the grid's barrier (this_grid().sync()) needs a cooperative launch of the test's "
                              "threads alone, which the runner does not make (use --backend host)");
    if (in->bar_cluster) {
      note_sm90(P, k, in);
      P->pl->cluster_bars = true;
      return 0;
    }
    if (in->nbar_operands >= 3 && in->c.kind != LT_OPND_IMM)
      return refuse(P, k, in, "a barrier thread count held in a register is not supported");
    return 0;
  case LT_I_ALU:
  case LT_I_BRANCH:
    if (check_value_operand(P, k, in, &in->a) < 0 || check_value_operand(P, k, in, &in->b) < 0) return -1;
    return in->kind == LT_I_ALU ? check_value_operand(P, k, in, &in->dst) : 0;
  case LT_I_GOTO:
    return 0;
  }
  return 0;
}

static void collect_items(planner *P, int k) {
  const lt_thread *tt = &P->t->threads[k];
  cu_role *r = &P->pl->roles[k];
  r->items = lc_xcalloc(tt->ncells ? tt->ncells : 1, sizeof *r->items);
  for (size_t c = 0; c < tt->ncells; c++) {
    if (!tt->cells[c].label && !tt->cells[c].instr) continue;
    cu_item *it = &r->items[r->nitems++];
    it->label = tt->cells[c].label;
    it->in = tt->cells[c].instr;
    it->loop = it->target = -1;
  }
}

/* ---- jumps --------------------------------------------------------------------------- */

static int find_label(const cu_role *r, const char *label) {
  for (size_t i = 0; i < r->nitems; i++)
    if (r->items[i].label && strcmp(r->items[i].label, label) == 0) return (int)i;
  return -1;
}

static int link_jumps(planner *P, int k) {
  cu_role *r = &P->pl->roles[k];
  for (size_t i = 0; i < r->nitems; i++) {
    cu_item *it = &r->items[i];
    if (!it->in || (it->in->kind != LT_I_BRANCH && it->in->kind != LT_I_GOTO)) continue;
    it->target = find_label(r, it->in->label);
    if (it->target < 0) return refuse(P, k, it->in, "its label is not in this thread");
    if (it->target <= (int)i) it->loop = r->nloops++;
  }
  if (r->nloops) r->cut = P->pl->ncut++;
  return 0;
}

/* ---- barriers and phases ---------------------------------------------------------- */

/* A barrier instance as the GPU sees it: litmus CTA, n, and which
 * occurrence of n on the role's code it is.  Ids are ignored: every
 * instance becomes a CTA-wide barrier, which is stronger. */
typedef struct bar_key {
  int lcta, n, occ;
  int layer;                /* its phase boundary, from 1 */
  bool waits;               /* some participant syncs (not only arrives) */
  bool cluster;             /* barrier.cluster (lcta is then -1 - the litmus cluster) */
  bool relaxed;             /* barrier.cluster: every arrive is .relaxed */
} bar_key;

typedef struct bar_site { int role, item, key; } bar_site;

typedef struct bars {
  LC_VEC(bar_key) keys;
  LC_VEC(bar_site) sites;
} bars;

static int key_of(bars *B, int lcta, int n, int occ) {
  for (size_t i = 0; i < B->keys.n; i++)
    if (B->keys.v[i].lcta == lcta && B->keys.v[i].n == n && B->keys.v[i].occ == occ) return (int)i;
  bar_key key = {lcta, n, occ, 0, false, lcta < 0, true};
  lc_vec_push(&B->keys, key);
  return (int)B->keys.n - 1;
}

/* The kernel runs a barrier.cluster.arrive and the wait right after it as
 * one boundary that every thread of the cluster reaches; work between the
 * two would need a split boundary, which it does not have. */
static int check_cluster_pairs(planner *P) {
  static const char *const split = "the GPU kernel runs a cluster barrier as barrier.cluster.arrive directly "
                                   "followed by barrier.cluster.wait, for every thread of the cluster";
  for (size_t k = 0; k < P->pl->nroles; k++) {
    cu_role *r = &P->pl->roles[k];
    for (size_t i = 0; i < r->nitems; i++) {
      const lt_instr *in = r->items[i].in;
      if (!in || in->kind != LT_I_BAR || !in->bar_cluster) continue;
      const cu_item *next = i + 1 < r->nitems ? &r->items[i + 1] : NULL;
      const cu_item *prev = i > 0 ? &r->items[i - 1] : NULL;
      if (in->bar_arrive && !(next && next->in && !next->label && next->in->kind == LT_I_BAR &&
                              next->in->bar_cluster && next->in->bar_wait))
        return refuse(P, (int)k, in, split);
      if (in->bar_wait && (r->items[i].label || !(prev && prev->in && prev->in->kind == LT_I_BAR &&
                                                  prev->in->bar_cluster && prev->in->bar_arrive)))
        return refuse(P, (int)k, in, split);
      r->items[i].joined = in->bar_arrive;
    }
  }
  return 0;
}

static void collect_bars(planner *P, bars *B) {
  for (size_t k = 0; k < P->pl->nroles; k++) {
    const cu_role *r = &P->pl->roles[k];
    for (size_t i = 0; i < r->nitems; i++) {
      const lt_instr *in = r->items[i].in;
      if (!in || in->kind != LT_I_BAR || r->items[i].joined) continue;
      if (in->bar_cluster) {
        int occ = 0;
        for (size_t s = 0; s < B->sites.n; s++)
          occ += B->sites.v[s].role == (int)k && B->keys.v[B->sites.v[s].key].cluster;
        bar_site site = {(int)k, (int)i, key_of(B, -1 - r->lcl, -1, occ)};
        lc_vec_push(&B->sites, site);
        B->keys.v[site.key].waits = true;
        if (r->items[i - 1].in->sem != LT_SEM_RELAXED) B->keys.v[site.key].relaxed = false;
        continue;
      }
      int n = (int)in->a.imm, occ = 0;
      for (size_t s = 0; s < B->sites.n; s++) {
        const bar_site *o = &B->sites.v[s];
        if (o->role == (int)k && B->keys.v[o->key].n == n && !B->keys.v[o->key].cluster) occ++;
      }
      bar_site site = {(int)k, (int)i, key_of(B, r->lcta, n, occ)};
      lc_vec_push(&B->sites, site);
      if (!in->bar_arrive) B->keys.v[site.key].waits = true;
    }
  }
}

/* Threads that arrive at the model's instance of the barrier at `site`:
 * same litmus CTA, n, occurrence and the same constant id. */
static int participants(planner *P, const bars *B, const bar_site *site) {
  const lt_instr *a = P->pl->roles[site->role].items[site->item].in;
  int count = 0;
  for (size_t s = 0; s < B->sites.n; s++) {
    const bar_site *o = &B->sites.v[s];
    const lt_instr *b = P->pl->roles[o->role].items[o->item].in;
    if (o->key != site->key) continue;
    if ((a->nbar_operands >= 2) != (b->nbar_operands >= 2)) continue;
    if (a->nbar_operands >= 2 && (a->b.kind != LT_OPND_IMM || b->b.kind != LT_OPND_IMM || a->b.imm != b->b.imm))
      continue;
    count++;
  }
  return count;
}

/* A quorum larger than the threads that can arrive never releases: the
 * model has no final state there, a CTA-wide barrier would. */
static int check_quorums(planner *P, const bars *B) {
  for (size_t s = 0; s < B->sites.n; s++) {
    const bar_site *site = &B->sites.v[s];
    const lt_instr *in = P->pl->roles[site->role].items[site->item].in;
    if (in->nbar_operands < 3 || in->bar_arrive) continue;
    if (in->nbar_operands >= 2 && in->b.kind != LT_OPND_IMM)
      return refuse(P, site->role, in, "a barrier with a thread count and an id held in a register is not supported");
    int can = participants(P, B, site);
    if (in->c.imm > can) {
      char why[160];
      snprintf(why, sizeof why,
               "it waits for %" PRId64 " threads but only %d reach this barrier, so it never completes",
               in->c.imm, can);
      return refuse(P, site->role, in, why);
    }
  }
  return 0;
}

/* Longest-path layers over "key a comes before key b in some role"; a
 * layer beyond the number of keys means a cycle. */
static int layer_keys(planner *P, bars *B) {
  size_t n = B->keys.n;
  for (size_t it = 0; it <= n; it++) {
    int prev_role = -1, prev_key = -1;
    for (size_t s = 0; s < B->sites.n; s++) {
      const bar_site *site = &B->sites.v[s];
      bar_key *key = &B->keys.v[site->key];
      if (!key->waits) continue;
      if (site->role != prev_role) prev_key = -1;
      int want = prev_key >= 0 ? B->keys.v[prev_key].layer + 1 : 1;
      if (key->layer < want) key->layer = want;
      prev_role = site->role;
      prev_key = site->key;
    }
  }
  for (size_t s = 0; s < B->sites.n; s++) {
    const bar_site *site = &B->sites.v[s];
    if ((size_t)B->keys.v[site->key].layer > n)
      return refuse(P, site->role, P->pl->roles[site->role].items[site->item].in,
                    "threads of its CTA meet its barriers in different orders, which deadlocks; the "
                    "GPU backend makes every barrier one CTA-wide barrier.cta.sync, which needs one order");
  }
  return 0;
}

static void assign_phases(planner *P, const bars *B) {
  cu_plan *pl = P->pl;
  int top = 0;
  for (size_t s = 0; s < B->sites.n; s++) {
    const bar_site *site = &B->sites.v[s];
    const bar_key *key = &B->keys.v[site->key];
    cu_item *it = &pl->roles[site->role].items[site->item];
    it->boundary = key->waits;
    it->dropped = !key->waits;
    it->phase = key->layer;
    if (key->layer > top) top = key->layer;
  }
  pl->nphases = top + 1;
  pl->bar_number = lc_xcalloc((size_t)pl->nphases, sizeof *pl->bar_number);
  pl->bar_kind = lc_xcalloc((size_t)pl->nphases, 1);
  for (int L = 1; L <= top; L++) {
    int best = -1;
    bool relaxed = true;
    for (size_t i = 0; i < B->keys.n; i++) {
      const bar_key *key = &B->keys.v[i];
      if (!key->waits || key->layer != L) continue;
      if (key->cluster) {
        pl->bar_kind[L] |= CU_BOUNDARY_CLUSTER;
        relaxed = relaxed && key->relaxed;
        continue;
      }
      pl->bar_kind[L] |= CU_BOUNDARY_CTA;
      if (best < 0 || key->n < best) best = key->n;
    }
    if (relaxed && (pl->bar_kind[L] & CU_BOUNDARY_CLUSTER)) pl->bar_kind[L] |= CU_BOUNDARY_RELAXED;
    pl->bar_number[L] = best >= 0 && best < 16 ? best : 0;
  }
  for (size_t k = 0; k < pl->nroles; k++) {
    cu_role *r = &pl->roles[k];
    int cur = 0;
    for (size_t i = 0; i < r->nitems; i++) {
      if (r->items[i].boundary) cur = r->items[i].phase;
      else r->items[i].phase = cur;
    }
  }
}

/* The phase a label of item t opens: a label written on a barrier's cell
 * stands before the barrier, so it belongs to the phase of the item
 * before it. */
static int label_phase(const cu_role *r, int t) { return t == 0 ? 0 : r->items[t - 1].phase; }

static int check_jumps_in_phase(planner *P) {
  for (size_t k = 0; k < P->pl->nroles; k++) {
    const cu_role *r = &P->pl->roles[k];
    for (size_t i = 0; i < r->nitems; i++) {
      const cu_item *it = &r->items[i];
      if (it->target < 0) continue;
      if (label_phase(r, it->target) != it->phase)
        return refuse(P, (int)k, it->in, "it jumps across a barrier; every thread must meet every barrier "
                                          "of the kernel, so the backend does not branch around one");
    }
  }
  return 0;
}

static int plan_barriers(planner *P) {
  bars B = {{0}, {0}};
  int rc = check_cluster_pairs(P);
  if (rc < 0) return rc;
  collect_bars(P, &B);
  if (B.sites.n) {
    rc = check_quorums(P, &B);
    if (rc == 0) rc = layer_keys(P, &B);
  }
  if (rc == 0) {
    assign_phases(P, &B);
    rc = check_jumps_in_phase(P);
  }
  lc_vec_free(&B.keys);
  lc_vec_free(&B.sites);
  return rc;
}

/* ---- width ------------------------------------------------------------------------------ */

/* mbarrier objects are .b64 and counts, sizes and ranks 32-bit whatever
 * the values are: only these set the width. */
static bool carries_values(const lt_instr *in) {
  return in->kind == LT_I_LD || in->kind == LT_I_ST || in->kind == LT_I_ATOM || in->kind == LT_I_RED ||
         in->kind == LT_I_ALU || in->kind == LT_I_BRANCH;
}

/* Values the program handles: 32-bit registers and locations unless a
 * type says 64 bits or a value does not fit (values are read back
 * sign-extended, which matches the model's 64-bit arithmetic while they
 * fit). */
static bool needs_64(const lx_program *p, const bool *mbar) {
  for (size_t i = 0; i < p->nplocs; i++) {
    if (mbar[i]) continue;   /* the model's packed state, not a value the kernel holds */
    if (!fits_32(p->plocs[i].init)) return true;
    for (size_t v = 0; v < p->plocs[i].nvalues; v++)
      if (!fits_32(p->plocs[i].values[v])) return true;
  }
  const lt_test *t = p->test;
  for (size_t i = 0; i < t->ninits; i++)
    if (t->inits[i].kind == LT_INIT_REG && !fits_32(t->inits[i].value)) return true;
  for (size_t k = 0; k < t->nthreads; k++)
    for (size_t c = 0; c < t->threads[k].ncells; c++) {
      const lt_instr *in = t->threads[k].cells[c].instr;
      if (!in || !carries_values(in)) continue;
      if (type_is_64(in->type)) return true;
      const lt_operand *ops[] = {&in->a, &in->b, &in->c};
      for (size_t o = 0; o < 3; o++)
        if (ops[o]->kind == LT_OPND_IMM && !fits_32(ops[o]->imm)) return true;
    }
  return false;
}

static int plan_width(planner *P) {
  cu_plan *pl = P->pl;
  for (size_t k = 0; k < pl->nroles; k++)   /* the kernels carry integers only */
    for (size_t i = 0; i < pl->roles[k].nitems; i++) {
      const lt_instr *in = pl->roles[k].items[i].in;
      if (in && (in->type == LT_TYPE_F32 || (in->kind == LT_I_ALU && in->alu >= LT_ALU_I2F)))
        return refuse(P, (int)k, in, "float values are not run on the GPU (the host backend runs them)");
    }
  pl->width = needs_64(P->p, pl->mbar) ? 64 : 32;
  if (pl->width == 32) return 0;
  for (size_t k = 0; k < pl->nroles; k++)
    for (size_t i = 0; i < pl->roles[k].nitems; i++) {
      const lt_instr *in = pl->roles[k].items[i].in;
      if (!in || !carries_values(in)) continue;
      if (in->type != LT_TYPE_NONE && !type_is_64(in->type))
        return refuse(P, (int)k, in, "the test also needs 64-bit values; mixed-size accesses are not supported");
      if ((in->kind == LT_I_ATOM || in->kind == LT_I_RED) && (in->rmw == LT_RMW_INC || in->rmw == LT_RMW_DEC))
        return refuse(P, (int)k, in, "PTX has atom.inc/dec for 32 bits only, and the test needs 64-bit values");
    }
  return 0;
}

/* ---- the test as a whole ---------------------------------------------------------- */

static int check_term(planner *P, const lt_term *t) {
  if (t->kind == LT_TERM_ADDR)
    return refuse_at(P, t->at, "the GPU backend cannot compare addresses (&%s) in an outcome", t->loc);
  return 0;
}

static int check_prop(planner *P, const lt_prop *p) {
  if (!p) return 0;
  if (p->kind == LT_PROP_CMP) return check_term(P, &p->lhs) < 0 || check_term(P, &p->rhs) < 0 ? -1 : 0;
  return check_prop(P, p->l) < 0 || check_prop(P, p->r) < 0 ? -1 : 0;
}

static int check_test(planner *P) {
  const lt_test *t = P->t;
  if (P->p->nthreads > CU_MAX_ROLES)
    return refuse_at(P, t->name_at, "the GPU backend runs at most %d threads per test", CU_MAX_ROLES);
  for (size_t i = 0; i < t->ninits; i++)
    if (t->inits[i].kind != LT_INIT_ALIAS && t->inits[i].value_loc)
      return refuse_at(P, t->inits[i].at, "the GPU backend does not support addresses as initial values (&%s)",
                       t->inits[i].value_loc);
  for (size_t i = 0; i < t->nlocations; i++)
    if (check_term(P, &t->locations[i]) < 0) return -1;
  if (check_prop(P, t->cond) < 0 || check_prop(P, t->filter) < 0) return -1;
  size_t nglobal = 0;
  for (size_t i = 0; i < P->p->nplocs; i++)
    if (P->p->locs[P->p->plocs[i].primary].space != LT_SPACE_SHARED) nglobal++;
  if (nglobal > CU_MAX_GLOBALS)
    return refuse_at(P, t->name_at, "the GPU backend supports at most %d global locations", CU_MAX_GLOBALS);
  if (P->p->nshown > CU_MAX_SHOWN)
    return refuse_at(P, t->cond_at, "the GPU backend supports at most %d observables", CU_MAX_SHOWN);
  return 0;
}

static void plan_locations(cu_plan *pl) {
  const lx_program *p = pl->p;
  for (size_t i = 0; i < p->nplocs; i++) {
    bool shared = p->locs[p->plocs[i].primary].space == LT_SPACE_SHARED;
    pl->gidx[i] = shared ? -1 : pl->nglobal++;
    pl->sidx[i] = shared ? pl->nshared++ : -1;
    if (shared && pl->owner[i] < 0) pl->owner[i] = pl->roles[0].lcta;
  }
  for (size_t j = 0; j < p->nobs; j++) {
    const lx_obs *o = &p->obs[j];
    pl->obs_reg[j] = o->kind == LX_OBS_REG ? pl->nregout++ : -1;
    pl->obs_fin[j] = o->kind == LX_OBS_LOC && pl->sidx[o->ploc] >= 0 ? pl->nfin++ : -1;
  }
}

static int plan_roles(planner *P) {
  cu_plan *pl = P->pl;
  place(P);
  for (size_t k = 0; k < pl->nroles; k++) {
    collect_items(P, (int)k);
    pl->roles[k].cut = -1;
    for (size_t i = 0; i < pl->roles[k].nitems; i++)
      if (pl->roles[k].items[i].in && check_instr(P, (int)k, pl->roles[k].items[i].in) < 0) return -1;
    if (link_jumps(P, (int)k) < 0) return -1;
  }
  return 0;
}

/* A C++ test's accesses become cuda::atomic_ref calls on int locations
 * between the asm blocks of its other instructions, and its jumps C++
 * gotos (cu_gen.c; a loop's counter is a C++ variable): its values must
 * fit 32 bits. */
static int check_cpp(planner *P) {
  cu_plan *pl = P->pl;
  if (!P->t->cpp) return 0;
  if (pl->width != 32)
    return refuse_at(P, P->t->name_at, "%s: the CUDA backend runs C++ tests on int (32-bit) values only", P->t->name);
  for (size_t k = 0; k < pl->nroles; k++)
    for (size_t i = 0; i < pl->roles[k].nitems; i++) {
      const lt_instr *in = pl->roles[k].items[i].in;
      if (!in) continue;
      if (in->cpp && (in->kind == LT_I_LD || in->kind == LT_I_ST || in->kind == LT_I_ATOM) &&
          (in->type == LT_TYPE_S64 || in->type == LT_TYPE_U64))
        return refuse(P, (int)k, in, "the CUDA backend runs C++ tests on 32-bit values only (this one is a "
                                     "long long)");
      if (in->cpp && in->scope == LT_SCOPE_CLUSTER)
        return refuse(P, (int)k, in, "the libcu++ of this toolkit has no cuda::thread_scope_cluster for "
                                     "cuda::atomic_ref");
      if (in->cpp && in->kind == LT_I_ATOM && (in->rmw == LT_RMW_INC || in->rmw == LT_RMW_DEC) &&
          in->cpp_form != LT_CF_CUDA_FN)
        return refuse(P, (int)k, in, "cuda::atomic_ref has no counterpart of this read-modify-write");
    }
  return 0;
}

static const lt_term *term_naming(const lt_prop *p, const char *loc) {
  if (!p) return NULL;
  if (p->kind == LT_PROP_CMP) {
    if (p->lhs.kind == LT_TERM_LOC && strcmp(p->lhs.loc, loc) == 0) return &p->lhs;
    if (p->rhs.kind == LT_TERM_LOC && strcmp(p->rhs.loc, loc) == 0) return &p->rhs;
    return NULL;
  }
  const lt_term *t = term_naming(p->l, loc);
  return t ? t : term_naming(p->r, loc);
}

/* The hardware's mbarrier is opaque, unlike the model's packed state: its
 * value is never part of an outcome.  The error points at the term. */
static int check_mbar_hidden(planner *P) {
  for (size_t j = 0; j < P->p->nobs; j++) {
    if (P->p->obs[j].kind != LX_OBS_LOC || !P->pl->mbar[P->p->obs[j].ploc]) continue;
    const char *name = P->p->locs[P->p->plocs[P->p->obs[j].ploc].primary].name;
    const lt_term *t = term_naming(P->t->cond, name);
    if (!t) t = term_naming(P->t->filter, name);
    for (size_t i = 0; !t && i < P->t->nlocations; i++)
      if (P->t->locations[i].kind == LT_TERM_LOC && strcmp(P->t->locations[i].loc, name) == 0) t = &P->t->locations[i];
    return refuse_at(P, t ? t->at : P->t->cond_at, "the GPU backend cannot compare mbarrier %s: the hardware's "
                                                    "object is opaque", P->p->obs[j].label);
  }
  for (size_t k = 0; k < P->pl->nroles; k++)
    for (size_t i = 0; i < P->pl->roles[k].nitems; i++) {
      const lt_instr *in = P->pl->roles[k].items[i].in;
      if (!in || !(in->kind == LT_I_LD || in->kind == LT_I_ST || in->kind == LT_I_ATOM || in->kind == LT_I_RED))
        continue;
      int v = cu_plan_vloc(P->pl, (int)k, &in->addr);
      if (v >= 0 && P->pl->mbar[P->p->locs[v].ploc])
        return refuse(P, (int)k, in, "it accesses an mbarrier, whose hardware object is opaque (only mbarrier "
                                     "instructions may touch it)");
    }
  return 0;
}

cu_plan *cu_plan_new(const lx_program *p, lc_diag *d) {
  assert(p && p->test && d);
  planner P = {lc_xcalloc(1, sizeof(cu_plan)), p, p->test, d};
  cu_plan *pl = P.pl;
  if (p->test->cpp) {
    /* the roles are the cells the events were made from */
    pl->arena = lc_arena_new();
    P.t = map_cpp_cells(p->test, pl->arena, d);
    if (!P.t) {
      cu_plan_free(pl);
      return NULL;
    }
  }
  pl->p = p;
  pl->min_sm = 75;
  pl->nroles = p->nthreads;
  pl->roles = lc_xcalloc(p->nthreads ? p->nthreads : 1, sizeof *pl->roles);
  for (size_t k = 0; k < p->nthreads; k++) pl->roles[k].thread = (int)k;
  size_t np = p->nplocs ? p->nplocs : 1, no = p->nobs ? p->nobs : 1;
  pl->gidx = lc_xcalloc(np, sizeof(int));
  pl->sidx = lc_xcalloc(np, sizeof(int));
  pl->owner = lc_xcalloc(np, sizeof(int));
  pl->mbar = lc_xcalloc(np, sizeof(bool));
  for (size_t i = 0; i < np; i++) pl->owner[i] = -1;
  pl->obs_reg = lc_xcalloc(no, sizeof(int));
  pl->obs_fin = lc_xcalloc(no, sizeof(int));
  if (check_test(&P) < 0 || plan_roles(&P) < 0 || plan_barriers(&P) < 0 || plan_width(&P) < 0 ||
      check_cpp(&P) < 0 || check_mbar_hidden(&P) < 0) {
    cu_plan_free(pl);
    return NULL;
  }
  plan_locations(pl);
  if (pl->cluster_scope || pl->sm90_at) pl->min_sm = 90;
  return pl;
}

void cu_plan_free(cu_plan *pl) {
  if (!pl) return;
  for (size_t k = 0; k < pl->nroles; k++) free(pl->roles[k].items);
  free(pl->roles);
  free(pl->bar_number);
  free(pl->bar_kind);
  free(pl->mbar);
  free(pl->gidx);
  free(pl->sidx);
  free(pl->owner);
  free(pl->obs_reg);
  free(pl->obs_fin);
  lc_arena_free(pl->arena);
  free(pl);
}
