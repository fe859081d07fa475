/* lower.c - from a validated AST to threads, paths and events.
 * SPDX-License-Identifier: MIT
 *
 * Paths are found by replaying a thread's code under a sequence of
 * decisions (branch taken or not, cas succeeded or not).  A replay either
 * finishes a path, is cut by the unroll bound, or stops at the first choice
 * its decisions do not cover; the explorer then tries both continuations.
 * Replaying from the start for every prefix costs O(length^2) per path,
 * nothing next to what an engine does with it, and keeps one code path that
 * builds events with their final path index.
 */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/internal.h"
#include "litmus/cpp_ast.h"

typedef LC_VEC(int) int_vec;
typedef LC_VEC(lx_event) event_vec;
typedef LC_VEC(lx_path) path_vec;
typedef LC_VEC(lx_cond) cond_vec;
typedef LC_VEC(lx_loc) loc_vec;
typedef LC_VEC(lx_ploc) ploc_vec;
typedef LC_VEC(uint8_t) byte_vec;

typedef struct lowerer {
  const lt_test *t;
  lx_program *p;
  const lx_options *opt;
  lc_diag *d;
  event_vec events;
  path_vec paths;
  loc_vec locs;
  ploc_vec plocs;
  bool failed;
  bool spin_reduce;         /* lx_lower_spin */
  /* by name, the first of each: a search down the init block for every
   * location made a chain of 30,000 aliases quadratic */
  lc_names inits;           /* t->inits (locations and aliases) */
  lc_names map;             /* t->map */
  lc_names globals;         /* locs, those of global memory (cta -1) */
} lowerer;

/* ---- expressions ------------------------------------------------------------ */

static const lx_expr *mk_const(lowerer *L, lx_val c) {
  lx_expr *e = lc_arena_alloc(L->p->arena, sizeof *e);
  e->kind = LX_X_CONST;
  e->c = c;
  return e;
}

static const lx_expr *mk_read(lowerer *L, int event) {
  lx_expr *e = lc_arena_alloc(L->p->arena, sizeof *e);
  e->kind = LX_X_READ;
  e->event = event;
  return e;
}

/* Folds constants so static branches decide themselves. */
static const lx_expr *mk_bin(lowerer *L, lx_op op, const lx_expr *a, const lx_expr *b) {
  if (a->kind == LX_X_CONST && b->kind == LX_X_CONST) return mk_const(L, lx_op_apply(op, a->c, b->c));
  lx_expr *e = lc_arena_alloc(L->p->arena, sizeof *e);
  e->kind = LX_X_BIN;
  e->op = op;
  e->a = a;
  e->b = b;
  return e;
}

/* ---- locations ----------------------------------------------------------------- */

static lt_space mapped_space(const lowerer *L, const char *name) {
  size_t i = lc_names_get(&L->map, name, strlen(name));
  return i == LC_NAMES_NONE ? LT_SPACE_GLOBAL : L->t->map[i].space;
}

static const lt_init *find_init_loc(const lowerer *L, const char *name) {
  size_t i = lc_names_get(&L->inits, name, strlen(name));
  return i == LC_NAMES_NONE ? NULL : &L->t->inits[i];
}

static void name_tables(lowerer *L) {
  const lt_test *t = L->t;
  for (size_t i = t->ninits; i-- > 0;)   /* backwards: the first of a name stays */
    if (t->inits[i].kind != LT_INIT_REG) lc_names_put(&L->inits, t->inits[i].loc, strlen(t->inits[i].loc), i);
  for (size_t i = t->nmap; i-- > 0;) lc_names_put(&L->map, t->map[i].loc, strlen(t->map[i].loc), i);
}

static int find_loc(const lowerer *L, const char *name, int cta) {
  if (cta < 0) {
    size_t i = lc_names_get(&L->globals, name, strlen(name));
    return i == LC_NAMES_NONE ? -1 : (int)i;
  }
  for (size_t i = 0; i < L->locs.n; i++)   /* shared memory: a copy per CTA, few */
    if (strcmp(L->locs.v[i].name, name) == 0 && L->locs.v[i].cta == cta) return (int)i;
  return -1;
}

static int add_ploc(lowerer *L, const char *name, int primary) {
  lx_ploc pl = {0};
  pl.name = name;
  pl.primary = primary;
  pl.init_event = -1;
  lc_vec_push(&L->plocs, pl);
  return (int)L->plocs.n - 1;
}

/* A new location `name` as seen from CTA `cta`; for an alias, `target`
 * is the location of the name it aliases. */
static int new_loc(lowerer *L, const char *name, int cta, int target) {
  const lt_init *in = find_init_loc(L, name);
  lt_space space = mapped_space(L, name);
  int key = space == LT_SPACE_SHARED ? cta : -1;
  lx_loc l = {0};
  l.space = space;
  l.cta = key;
  l.name = key >= 0 ? lc_arena_strdup(L->p->arena, name) : name;
  if (key < 0) lc_names_put(&L->globals, name, strlen(name), L->locs.n);
  if (in && in->kind == LT_INIT_ALIAS) {
    l.alias = true;
    l.proxy = in->proxy;
    l.ploc = L->locs.v[target].ploc;
    lc_vec_push(&L->locs, l);
    int idx = (int)L->locs.n - 1;
    L->locs.v[idx].va = in->proxy == LT_PROXY_GENERIC ? idx : L->locs.v[target].va;
    return idx;
  }
  l.proxy = LT_PROXY_GENERIC;
  lc_vec_push(&L->locs, l);
  int idx = (int)L->locs.n - 1;
  L->locs.v[idx].va = idx;
  const char *pname = name;
  if (key >= 0) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s@cta%d", name, key);
    pname = lc_arena_strdup(L->p->arena, b.s);
    lc_buf_fini(&b);
  }
  L->locs.v[idx].ploc = add_ploc(L, pname, idx);
  return idx;
}

/* The virtual address `name` as seen by a thread of CTA `cta`: shared
 * memory has one copy per CTA, global memory one for all.  An alias's
 * chain is followed without recursion (it may be as long as the init
 * block): its names down to one already made or to the location at its
 * end, then their locations made from that end back.  The validator has
 * ruled out cycles; the walk stops after ninits steps regardless. */
static int loc_for(lowerer *L, const char *name, int cta) {
  LC_VEC(const char *) chain = {0};
  int idx = -1;
  for (const char *n = name; n && chain.n <= L->t->ninits;) {
    idx = find_loc(L, n, mapped_space(L, n) == LT_SPACE_SHARED ? cta : -1);
    if (idx >= 0) break;
    lc_vec_push(&chain, n);
    const lt_init *in = find_init_loc(L, n);
    n = in && in->kind == LT_INIT_ALIAS ? in->target : NULL;
  }
  for (size_t k = chain.n; k-- > 0;) idx = new_loc(L, chain.v[k], cta, idx);
  lc_vec_free(&chain);
  return idx;
}

/* Declares every global location up front, in the order of the init block,
 * so numbering (and hence output order) follows the test text. */
static void declare_init_locations(lowerer *L) {
  for (size_t i = 0; i < L->t->ninits; i++) {
    const lt_init *in = &L->t->inits[i];
    if (in->kind != LT_INIT_REG && mapped_space(L, in->loc) != LT_SPACE_SHARED)
      loc_for(L, in->loc, -1);
  }
}

static lx_val init_value_of(lowerer *L, const char *name) {
  const lt_init *in = find_init_loc(L, name);
  if (!in || in->kind != LT_INIT_LOC) return 0;
  if (in->value_loc) return lx_addr_value(loc_for(L, in->value_loc, -1));
  return in->value;
}

/* ---- threads, placement, registers ------------------------------------------------ */

static void add_reg(int_vec *regs, int r) {
  for (size_t i = 0; i < regs->n; i++)
    if (regs->v[i] == r) return;
  lc_vec_push(regs, r);
}

static void opnd_reg(int_vec *regs, const lt_operand *o) {
  if (o->kind == LT_OPND_REG || o->kind == LT_OPND_REGADDR) add_reg(regs, o->reg);
}

static void prop_regs(const lt_prop *p, int thread, int_vec *regs) {
  if (!p) return;
  if (p->kind == LT_PROP_CMP) {
    if (p->lhs.kind == LT_TERM_REG && p->lhs.thread == thread) add_reg(regs, p->lhs.reg);
    if (p->rhs.kind == LT_TERM_REG && p->rhs.thread == thread) add_reg(regs, p->rhs.reg);
  }
  prop_regs(p->l, thread, regs);
  prop_regs(p->r, thread, regs);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void collect_regs(lowerer *L, const lt_thread *th, lx_thread *xt) {
  int_vec regs = {0};
  for (size_t c = 0; c < th->ncells; c++) {
    const lt_instr *in = th->cells[c].instr;
    if (!in) continue;
    opnd_reg(&regs, &in->dst);
    opnd_reg(&regs, &in->addr);
    opnd_reg(&regs, &in->a);
    opnd_reg(&regs, &in->b);
    opnd_reg(&regs, &in->c);
  }
  for (size_t i = 0; i < L->t->ninits; i++)
    if (L->t->inits[i].kind == LT_INIT_REG && L->t->inits[i].thread == th->id) add_reg(&regs, L->t->inits[i].reg);
  for (size_t i = 0; i < L->t->nlocations; i++)
    if (L->t->locations[i].kind == LT_TERM_REG && L->t->locations[i].thread == th->id)
      add_reg(&regs, L->t->locations[i].reg);
  prop_regs(L->t->cond, th->id, &regs);
  prop_regs(L->t->filter, th->id, &regs);
  if (regs.n) qsort(regs.v, regs.n, sizeof(int), cmp_int);   /* qsort(NULL, 0) is undefined */
  xt->nregs = regs.n;
  xt->regs = lc_arena_alloc(L->p->arena, (regs.n ? regs.n : 1) * sizeof(int));
  if (regs.n) memcpy(xt->regs, regs.v, regs.n * sizeof(int));
  lc_vec_free(&regs);
}

static int reg_slot(const lx_thread *xt, int reg) {
  for (size_t i = 0; i < xt->nregs; i++)
    if (xt->regs[i] == reg) return (int)i;
  return -1;
}

/* When no thread names a cluster, every CTA is its own cluster (litmus-
 * format.md).  A CTA's threads must agree on its cluster. */
static int place_threads(lowerer *L) {
  const lt_test *t = L->t;
  for (size_t i = 0; i < t->nthreads; i++) {
    const lt_thread *a = &t->threads[i];
    lx_thread *xa = &L->p->threads[i];
    xa->id = a->id;
    xa->cta = a->cta;
    xa->gpu = a->gpu;
    xa->cluster = a->cluster;
    for (size_t j = 0; j < t->nthreads && xa->cluster < 0; j++) {
      const lt_thread *b = &t->threads[j];
      if (b->gpu == a->gpu && b->cta == a->cta && b->cluster >= 0) xa->cluster = b->cluster;
    }
    for (size_t j = 0; j < i; j++) {
      const lt_thread *b = &t->threads[j];
      if (b->gpu == a->gpu && b->cta == a->cta && a->cluster >= 0 && b->cluster >= 0 &&
          a->cluster != b->cluster) {
        lc_error(L->d, a->at, "P%d and P%d are in CTA %d of GPU %d but in clusters %d and %d",
                 b->id, a->id, a->cta, a->gpu, b->cluster, a->cluster);
        return -1;
      }
    }
  }
  /* CTAs without a cluster get numbers no written cluster uses. */
  int next = 0;
  for (size_t i = 0; i < t->nthreads; i++)
    if (L->p->threads[i].cluster >= next) next = L->p->threads[i].cluster + 1;
  for (size_t i = 0; i < t->nthreads; i++) {
    lx_thread *xa = &L->p->threads[i];
    if (xa->cluster >= 0) continue;
    for (size_t j = 0; j < i; j++)
      if (t->threads[j].cluster < 0 && L->p->threads[j].gpu == xa->gpu && L->p->threads[j].cta == xa->cta)
        xa->cluster = L->p->threads[j].cluster;
    if (xa->cluster < 0) xa->cluster = next++;
  }
  return 0;
}

/* ---- replaying a thread's code ---------------------------------------------------- */

/* RUN_SPUN: a spin loop's read-only retry past the first, left out
 * (lx_options.spin_reduce) */
typedef enum { RUN_DONE, RUN_CUT, RUN_CHOICE, RUN_ERROR, RUN_BLOCKED, RUN_PAUSED, RUN_SPUN } run_status;

/* A bulk copy with bulk_group completion, in flight on the path: its first
 * event, how many, and its bulk async-group (-1 until commit_group). */
typedef struct bulk_copy {
  size_t first, n;
  int group;
} bulk_copy;
typedef LC_VEC(bulk_copy) bulk_vec;

typedef struct run {
  lowerer *L;
  int tidx;
  const lt_thread *th;
  lx_thread *xt;
  const uint8_t *dec;
  size_t ndec, used;
  int path;                   /* index the path will have */
  size_t first_event;         /* events of this run start here in L->events */
  const lx_expr **regs;
  cond_vec conds;
  int *backs;                 /* backward jumps taken, per cell */
  size_t *back_pos;           /* per cell: events made when its last backward jump was taken */
  const lx_expr **back_regs;  /* per cell: registers then (ncells x nregs) */
  lc_loc cut_at;
  int cut_cell;               /* the cell whose jump was cut, or -1 */
  const bool *spin;           /* per cell: a backward jump closing a memoryless loop, or NULL */
  int *pure_backs;            /* per cell: its jumps taken after an iteration of reads only */
  size_t *arrive;             /* per cell: events made when the run last reached it */
  bool spun;                  /* the last jump refused was a spin retry's */
  bulk_vec bulk;              /* bulk_group copies issued so far */
  int groups;                 /* bulk async-groups committed so far */
  int seq_stmt, seq_inst;     /* C++: the full-expression being run and its evaluation
                                 count on the path (lx_event.seq_inst) */
} run;

static int label_cell(const lt_thread *th, const char *label) {
  for (size_t c = 0; c < th->ncells; c++)
    if (th->cells[c].label && strcmp(th->cells[c].label, label) == 0) return (int)c;
  return -1;
}

static const lx_expr *opnd_value(run *R, const lt_operand *o) {
  switch (o->kind) {
  case LT_OPND_IMM: return mk_const(R->L, o->imm);
  case LT_OPND_REG: return R->regs[reg_slot(R->xt, o->reg)];
  case LT_OPND_LOC: return mk_const(R->L, lx_addr_value(loc_for(R->L, o->loc, R->xt->cta)));
  default: return mk_const(R->L, 0);
  }
}

/* The location whose address is v.  Not lx_addr_loc: it checks against
 * p->nlocs, which is set only when lowering ends, so while lowering every
 * address held in a register looked like no location at all. */
static int addr_loc(const lowerer *L, lx_val v) {
  for (size_t i = 0; i < L->locs.n; i++)
    if (lx_addr_value((int)i) == v) return (int)i;
  return -1;
}

/* The virtual address an instruction accesses.  Addresses must be known
 * statically: an address computed from a read would make the location of
 * an event a solver variable, which neither engine supports. */
static int opnd_vloc(run *R, const lt_operand *o) {
  if (o->kind == LT_OPND_LOC) return loc_for(R->L, o->loc, R->xt->cta);
  if (o->kind == LT_OPND_REGADDR) {
    const lx_expr *v = R->regs[reg_slot(R->xt, o->reg)];
    int l = v->kind == LX_X_CONST ? addr_loc(R->L, v->c) : -1;
    if (l >= 0) return l;
    if (v->kind == LX_X_CONST)
      lc_error(R->L->d, o->at, "r%d does not hold the address of a location here", o->reg);
    else
      lc_error(R->L->d, o->at, "the address in r%d depends on a value read from memory; "
                               "addresses must be known before the test runs", o->reg);
    return -1;
  }
  lc_error(R->L->d, o->at, "expected a location");
  return -1;
}

static lx_event *new_event(run *R, lx_ev_kind kind, const lt_instr *in) {
  lx_event ev = {0};
  ev.id = (int)R->L->events.n;
  ev.kind = kind;
  ev.thread = R->tidx;
  ev.path = R->path;
  ev.pos = (int)(R->L->events.n - R->first_event);
  ev.vloc = ev.ploc = ev.va = -1;
  ev.rmw = -1;
  ev.reg = -1;
  ev.aop = -1;
  ev.done_pos = INT_MAX;
  ev.instr = in;
  ev.at = in->at;
  ev.seq_inst = in->seq ? R->seq_inst : 0;
  lc_vec_push(&R->L->events, ev);
  return &R->L->events.v[R->L->events.n - 1];
}

static uint32_t bit(lx_tag t) { return 1u << t; }

static uint32_t scope_tag(lt_scope s) {
  switch (s) {
  case LT_SCOPE_CTA: return bit(LX_T_CTA);
  case LT_SCOPE_CLUSTER: return bit(LX_T_CLUSTER);
  case LT_SCOPE_GPU: return bit(LX_T_GPU);
  case LT_SCOPE_SYS: return bit(LX_T_SYS);
  default: return 0;
  }
}

static uint32_t proxy_tag(lt_proxy p) {
  switch (p) {
  case LT_PROXY_TEXTURE: return bit(LX_T_TEX);
  case LT_PROXY_SURFACE: return bit(LX_T_SUR);
  case LT_PROXY_CONSTANT: return bit(LX_T_CON);
  case LT_PROXY_ASYNC: return bit(LX_T_ASYNC);
  default: return bit(LX_T_GEN);
  }
}

/* Sets the memory attributes of an access.  An access through an alias
 * name behaves as if made through the alias's proxy ([ISCA22] §5.2). */
static void set_access(run *R, lx_event *e, const lt_instr *in, int vloc, lt_sem sem, lt_scope scope) {
  const lx_loc *l = &R->L->locs.v[vloc];
  e->vloc = vloc;
  e->va = l->va;
  e->ploc = l->ploc;
  if (l->space == LT_SPACE_SHARED && l->cta >= 0 && l->cta != R->xt->cta) e->tags |= bit(LX_T_REMOTE);
  e->proxy = in->proxy != LT_PROXY_GENERIC ? in->proxy : l->proxy;
  e->tags |= proxy_tag(e->proxy);
  e->tags |= bit(l->space == LT_SPACE_SHARED ? LX_T_SHARED : LX_T_GLOBAL);
  switch (sem) {
  case LT_SEM_NONE:
  case LT_SEM_WEAK: e->tags |= bit(LX_T_WEAK); scope = LT_SCOPE_NONE; break;
  case LT_SEM_VOLATILE: e->tags |= bit(LX_T_RLX) | bit(LX_T_VOL); scope = LT_SCOPE_SYS; break;
  case LT_SEM_MMIO: e->tags |= bit(LX_T_RLX); scope = LT_SCOPE_SYS; break;
  case LT_SEM_RELAXED: e->tags |= bit(LX_T_RLX); break;
  case LT_SEM_ACQUIRE: e->tags |= bit(LX_T_ACQ); break;
  case LT_SEM_RELEASE: e->tags |= bit(LX_T_REL); break;
  case LT_SEM_ACQ_REL: e->tags |= bit(LX_T_ACQ_REL); break;
  case LT_SEM_SC: e->tags |= bit(LX_T_SC); break;
  }
  e->scope = scope;
  e->tags |= scope_tag(scope);
  /* herd's C: A is every atomic access (its rc11.cat races are `A * A`-free) */
  if (in->cpp && !(e->tags & bit(LX_T_WEAK))) e->tags |= bit(LX_T_A);
}

static void set_reg(run *R, const lt_operand *dst, const lx_expr *v) {
  if (dst->kind == LT_OPND_REG) R->regs[reg_slot(R->xt, dst->reg)] = v;
}

static int lower_load(run *R, const lt_instr *in) {
  int vloc = opnd_vloc(R, &in->addr);
  if (vloc < 0) return -1;
  lx_event *e = new_event(R, LX_EV_READ, in);
  e->tags |= bit(LX_T_R);
  set_access(R, e, in, vloc, in->sem, in->scope);
  e->reg = reg_slot(R->xt, in->dst.reg);
  int id = e->id;
  set_reg(R, &in->dst, mk_read(R->L, id));
  return 0;
}

static int lower_store(run *R, const lt_instr *in) {
  int vloc = opnd_vloc(R, &in->addr);
  if (vloc < 0) return -1;
  const lx_expr *v = opnd_value(R, &in->a);
  lx_event *e = new_event(R, LX_EV_WRITE, in);
  e->tags |= bit(LX_T_W);
  set_access(R, e, in, vloc, in->sem, in->scope);
  e->value = v;
  return 0;
}

lx_op lx_rmw_op(const lt_instr *in) {
  bool uns = in->type == LT_TYPE_U32 || in->type == LT_TYPE_U64;
  if (in->type == LT_TYPE_F32)   /* a float's fetch_add/sub (the C++ lowering allows no other) */
    return in->rmw == LT_RMW_SUB ? LX_OP_FSUB : LX_OP_FADD;
  switch (in->rmw) {
  case LT_RMW_ADD: return LX_OP_ADD;
  case LT_RMW_SUB: return LX_OP_SUB;
  case LT_RMW_AND: return LX_OP_AND;
  case LT_RMW_OR: return LX_OP_OR;
  case LT_RMW_XOR: return LX_OP_XOR;
  case LT_RMW_MIN: return uns ? LX_OP_UMIN : LX_OP_MIN;
  case LT_RMW_MAX: return uns ? LX_OP_UMAX : LX_OP_MAX;
  case LT_RMW_INC: return LX_OP_INC;
  case LT_RMW_DEC: return LX_OP_DEC;
  default: return LX_OP_ADD;
  }
}

/* The [ASPLOS19]/[DAT3M] split of an atomic's sem between its halves
 * (ASPLOS'19 Fig. 3; PTX ISA 8.8); no sem and no scope means relaxed.gpu (PTX ISA). */
static void rmw_sems(const lt_instr *in, lt_sem *rs, lt_sem *ws, lt_scope *scope) {
  lt_sem s = in->sem == LT_SEM_NONE ? LT_SEM_RELAXED : in->sem;
  *scope = in->scope == LT_SCOPE_NONE ? LT_SCOPE_GPU : in->scope;
  *rs = (s == LT_SEM_ACQUIRE || s == LT_SEM_ACQ_REL) ? LT_SEM_ACQUIRE : LT_SEM_RELAXED;
  *ws = (s == LT_SEM_RELEASE || s == LT_SEM_ACQ_REL) ? LT_SEM_RELEASE : LT_SEM_RELAXED;
}

static bool take_decision(run *R, bool *choice) {
  if (R->used >= R->ndec) return false;
  *choice = R->dec[R->used++] != 0;
  return true;
}

static void add_cond(run *R, lt_cmp cmp, const lx_expr *a, const lx_expr *b, lc_loc at, bool branch) {
  lx_cond c = {cmp, a, b, at, branch ? (int)(R->L->events.n - R->first_event) : -1};
  lc_vec_push(&R->conds, c);
}

static run_status lower_rmw(run *R, const lt_instr *in) {
  if (!in->cpp && (in->sem == LT_SEM_WEAK || in->sem == LT_SEM_VOLATILE || in->sem == LT_SEM_MMIO)) {
    lc_error(R->L->d, in->at, "%s cannot be .%s", in->kind == LT_I_ATOM ? "atom" : "red", lt_sem_name(in->sem));
    return RUN_ERROR;
  }
  bool cas = in->rmw == LT_RMW_CAS;
  bool success = true;
  int vloc = opnd_vloc(R, &in->addr);
  if (vloc < 0) return RUN_ERROR;
  if (cas && !take_decision(R, &success)) return RUN_CHOICE;
  lt_sem rs, ws;
  lt_scope scope;
  rmw_sems(in, &rs, &ws, &scope);
  if (in->cpp) {
    lx_cpp_rmw_sems(in, success, &rs, &ws);
    scope = in->scope;
  }
  const lx_expr *operand = opnd_value(R, &in->a);
  const lx_expr *desired = cas ? opnd_value(R, &in->b) : NULL;
  lx_event *r = new_event(R, LX_EV_READ, in);
  r->tags |= bit(LX_T_R) | bit(LX_T_A) | (in->kind == LT_I_RED ? bit(LX_T_RED) : 0);
  set_access(R, r, in, vloc, rs, scope);
  int rid = r->id;
  const lx_expr *old = mk_read(R->L, rid);
  if (in->kind == LT_I_ATOM) {
    r->reg = reg_slot(R->xt, in->dst.reg);
    set_reg(R, &in->dst, old);
  }
  if (cas && !(in->cas_weak && !success))   /* a weak cas may fail spuriously */
    add_cond(R, success ? LT_CMP_EQ : LT_CMP_NE, old, operand, in->at, false);
  if (cas && in->cpp) {   /* C++: the result flag; the old value to expected on failure */
    set_reg(R, &in->c, mk_const(R->L, success));
    if (!success) set_reg(R, &in->a, old);
  }
  if (!success) return RUN_DONE;
  const lx_expr *v = cas ? desired : in->rmw == LT_RMW_EXCH ? operand : mk_bin(R->L, lx_rmw_op(in), old, operand);
  lx_op wrap;   /* a 32-bit atom's arithmetic wraps at 32 bits in memory */
  if (!cas && in->rmw != LT_RMW_EXCH && lx_type_wrap(in->type, &wrap)) v = mk_bin(R->L, wrap, v, mk_const(R->L, 0));
  lx_event *w = new_event(R, LX_EV_WRITE, in);
  w->tags |= bit(LX_T_W) | bit(LX_T_A);
  set_access(R, w, in, vloc, ws, scope);
  w->value = v;
  w->rmw = rid;
  R->L->events.v[rid].rmw = w->id;
  return RUN_DONE;
}

static void lower_fence(run *R, const lt_instr *in) {
  lx_event *e;
  switch (in->kind) {
  case LT_I_FENCE: {
    e = new_event(R, LX_EV_FENCE, in);
    lt_sem s = in->membar ? LT_SEM_SC : in->fence_no_sem ? LT_SEM_ACQ_REL : in->sem;
    e->tags |= bit(LX_T_F) | bit(LX_T_GEN) | (in->mbar_init_fence ? bit(LX_T_MB) : 0);
    e->tags |= bit(s == LT_SEM_SC ? LX_T_SC : s == LT_SEM_ACQUIRE ? LX_T_ACQ
                   : s == LT_SEM_RELEASE ? LX_T_REL : LX_T_ACQ_REL);
    e->scope = in->scope;
    e->tags |= scope_tag(in->scope);
    e->proxy = LT_PROXY_GENERIC;
    break;
  }
  case LT_I_FENCE_PROXY:
    e = new_event(R, LX_EV_PROXY_FENCE, in);
    e->tags |= bit(LX_T_PF) | proxy_tag(in->proxy);
    /* fence.proxy.async.global / .shared::*: the state space it acts on */
    if (in->space != LT_SPACE_NONE) e->tags |= bit(in->space == LT_SPACE_SHARED ? LX_T_SHARED : LX_T_GLOBAL);
    e->proxy = in->proxy;
    break;
  default:
    e = new_event(R, LX_EV_ALIAS_FENCE, in);
    e->tags |= bit(LX_T_AF);
    break;
  }
}

static int count_bars(run *R, int n) {
  int k = 1;
  for (size_t i = R->first_event; i < R->L->events.n; i++) {
    const lx_event *e = &R->L->events.v[i];
    if (e->kind == LX_EV_BAR_ARRIVE && e->bar_n == n) k++;
  }
  return k;
}

/* Returns -1 on error, 1 when a decision is needed, 2 when the path ends
 * blocked at this barrier, else 0. */
static int lower_bar(run *R, const lt_instr *in) {
  if (in->a.kind != LT_OPND_IMM) {
    lc_error(R->L->d, in->a.at, "the barrier instance number must be a constant");
    return -1;
  }
  int n = in->bar_grid ? LX_BAR_GRID : (int)in->a.imm;
  int k = count_bars(R, n);
  const lx_expr *id = in->nbar_operands >= 2 ? opnd_value(R, &in->b) : NULL;
  const lx_expr *count = in->nbar_operands >= 3 ? opnd_value(R, &in->c) : NULL;
  if (in->bar_grid) {
    /* every thread of the grid (here: of the GPU) must arrive; one that
     * exits first leaves the others waiting, unlike at a CTA barrier,
     * since the grid's barrier counts the grid's threads (CUDA C++
     * Programming Guide, "Grid Synchronization": every thread of the grid
     * calls grid.sync()) */
    int64_t nt = 0;
    for (size_t i = 0; i < R->L->t->nthreads; i++) nt += R->L->t->threads[i].gpu == R->th->gpu;
    count = mk_const(R->L, nt);
  }
  /* --termination: a bar.sync may also be where the thread waits forever;
   * the engines hold a counted wait to a quorum that is never met, and the
   * judge a wait with no count to a CTA-mate that never arrives (term.c). */
  bool blocked = false;
  if (R->L->opt->termination && !in->bar_arrive && !take_decision(R, &blocked)) return 1;
  for (int half = 0; half < (in->bar_arrive ? 1 : 2); half++) {
    lx_event *e = new_event(R, half ? LX_EV_BAR_WAIT : LX_EV_BAR_ARRIVE, in);
    e->bar_blocked = half && blocked;
    /* the grid's barrier: every thread of the launch (one GPU here), which
     * it orders as __syncthreads() orders a CTA, at gpu scope (CUDA C++
     * Programming Guide, "Grid Synchronization") */
    e->tags |= bit(LX_T_B) | bit(in->bar_grid ? LX_T_GPU : LX_T_CTA);
    e->scope = in->bar_grid ? LT_SCOPE_GPU : LT_SCOPE_CTA;
    e->bar_grid = in->bar_grid;
    e->bar_n = n;
    e->bar_id = id;
    e->bar_count = count;
    e->bar_k = k;
  }
  return blocked ? 2 : 0;
}

/* ---- Hopper synchronisation (docs/hopper.md) ------------------------------------ */

/* One read-modify-write of an mbarrier: the read half relaxed, the write
 * half `ws`, both at `scope`; the write stores op(old, operand).  Returns
 * the read's value. */
static const lx_expr *mbar_rmw(run *R, const lt_instr *in, int vloc, lx_op op, const lx_expr *operand,
                               lt_sem ws, lt_scope scope) {
  lx_event *r = new_event(R, LX_EV_READ, in);
  r->tags |= bit(LX_T_R) | bit(LX_T_A) | bit(LX_T_MB);
  set_access(R, r, in, vloc, LT_SEM_RELAXED, scope);
  r->proxy = LT_PROXY_GENERIC;
  r->tags = (r->tags & ~bit(LX_T_ASYNC)) | bit(LX_T_GEN);
  int rid = r->id;
  const lx_expr *old = mk_read(R->L, rid);
  lx_event *w = new_event(R, LX_EV_WRITE, in);
  w->tags |= bit(LX_T_W) | bit(LX_T_A) | bit(LX_T_MB);
  set_access(R, w, in, vloc, ws, scope);
  w->proxy = LT_PROXY_GENERIC;
  w->tags = (w->tags & ~bit(LX_T_ASYNC)) | bit(LX_T_GEN);
  w->value = mk_bin(R->L, op, old, operand);
  w->rmw = rid;
  R->L->events.v[rid].rmw = w->id;
  return old;
}

static int mbar_vloc(run *R, const lt_operand *o) {
  int vloc = opnd_vloc(R, o);
  if (vloc >= 0 && R->L->locs.v[vloc].space != LT_SPACE_SHARED) {
    lc_error(R->L->d, o->at, "an mbarrier must be in shared memory; %s is global", R->L->locs.v[vloc].name);
    return -1;
  }
  return vloc;
}

static run_status lower_mbar(run *R, const lt_instr *in) {
  int vloc = mbar_vloc(R, &in->addr);
  if (vloc < 0) return RUN_ERROR;
  lt_scope scope = in->scope == LT_SCOPE_NONE ? LT_SCOPE_CTA : in->scope;
  const lx_expr *a = in->a.kind != LT_OPND_NONE ? opnd_value(R, &in->a) : mk_const(R->L, 1);
  bool releases = in->sem != LT_SEM_RELAXED;
  switch (in->mbar) {
  case LT_MB_INIT: {
    /* A plain (weak) store: kernels order it before any use with bar.sync
     * or fence.mbarrier_init (PTX ISA, mbarrier.init). */
    lx_event *w = new_event(R, LX_EV_WRITE, in);
    w->tags |= bit(LX_T_W) | bit(LX_T_MB);
    set_access(R, w, in, vloc, LT_SEM_WEAK, LT_SCOPE_NONE);
    w->value = mk_bin(R->L, LX_OP_MB_INIT, a, mk_const(R->L, 0));
    return RUN_DONE;
  }
  case LT_MB_EXPECT_TX: mbar_rmw(R, in, vloc, LX_OP_MB_EXPECT, a, LT_SEM_RELAXED, scope); return RUN_DONE;
  case LT_MB_COMPLETE_TX: mbar_rmw(R, in, vloc, LX_OP_MB_COMPLETE, a, LT_SEM_RELAXED, scope); return RUN_DONE;
  case LT_MB_ARRIVE: case LT_MB_ARRIVE_EXPECT_TX: case LT_MB_ARRIVE_DROP: {
    lx_op op = in->mbar == LT_MB_ARRIVE ? LX_OP_MB_ARRIVE
             : in->mbar == LT_MB_ARRIVE_DROP ? LX_OP_MB_DROP : LX_OP_MB_ARRIVE_TX;
    const lx_expr *old = mbar_rmw(R, in, vloc, op, a, releases ? LT_SEM_RELEASE : LT_SEM_RELAXED, scope);
    set_reg(R, &in->dst, mk_bin(R->L, LX_OP_MB_PHASE, old, mk_const(R->L, 0)));
    return RUN_DONE;
  }
  default: {
    /* test_wait / try_wait: a read whose result says whether the phase
     * asked about has completed.  Only a wait that returns true is an
     * acquire (PTX ISA, mbarrier.test_wait/try_wait: with .acquire, a wait
     * that returns True forms the acquire pattern); one that returns false
     * is a relaxed read at its scope.  So the path forks, as for a cas:
     * true with an acquire read, or false with a relaxed one, and the
     * result register holds the constant the branch then tests. */
    bool done;
    if (!take_decision(R, &done)) return RUN_CHOICE;
    lx_event *r = new_event(R, LX_EV_READ, in);
    r->tags |= bit(LX_T_R) | bit(LX_T_MB);
    set_access(R, r, in, vloc, releases && done ? LT_SEM_ACQUIRE : LT_SEM_RELAXED, scope);
    r->reg = reg_slot(R->xt, in->dst.reg);
    const lx_expr *st = mk_read(R->L, r->id);
    add_cond(R, LT_CMP_EQ, mk_bin(R->L, in->parity ? LX_OP_MB_DONE_PARITY : LX_OP_MB_DONE, st, a),
             mk_const(R->L, done), in->at, false);
    set_reg(R, &in->dst, mk_const(R->L, done));
    return RUN_DONE;
  }
  }
}

/* An access of the async proxy made by a bulk copy (weak: the copy
 * promises no ordering of its own). */
static lx_event *async_access(run *R, const lt_instr *in, lx_ev_kind kind, int vloc) {
  lx_event *e = new_event(R, kind, in);
  e->tags |= bit(kind == LX_EV_READ ? LX_T_R : LX_T_W);
  set_access(R, e, in, vloc, LT_SEM_WEAK, LT_SCOPE_NONE);
  return e;
}

/* The generic-async proxy fence the ISA puts after the completion of a
 * bulk copy (cp.async.bulk, "Async proxy": completion is followed by an
 * implicit generic-async proxy fence).  AO: it acts on the completed
 * copies' accesses only, never as a fence before a later copy. */
static void async_proxy_fence(run *R, const lt_instr *in) {
  lx_event *f = new_event(R, LX_EV_PROXY_FENCE, in);
  f->tags |= bit(LX_T_PF) | bit(LX_T_ASYNC) | bit(LX_T_AO);
  f->proxy = LT_PROXY_ASYNC;
}

/* cp.async.bulk.commit_group / wait_group{.read} n (PTX ISA,
 * cp.async.bulk.commit_group, cp.async.bulk.wait_group): the wait ends
 * when at most the n latest committed groups are pending; with .read,
 * when the others' copies have read their sources.  From here on those
 * accesses are in program order before the thread's later events
 * (done_pos), and a full wait is followed by the implicit proxy fence. */
static void lower_bulk_group(run *R, const lt_instr *in) {
  if (in->bulk == LT_BULK_COMMIT) {
    bool any = false;
    for (size_t i = 0; i < R->bulk.n; i++)
      if (R->bulk.v[i].group < 0) R->bulk.v[i].group = R->groups, any = true;
    R->groups += any;
    return;
  }
  int here = (int)(R->L->events.n - R->first_event);
  bool completed = false;
  for (size_t i = 0; i < R->bulk.n; i++) {
    const bulk_copy *c = &R->bulk.v[i];
    if (c->group < 0 || (int64_t)c->group >= (int64_t)R->groups - in->a.imm) continue;
    for (size_t k = c->first; k < c->first + c->n; k++) {
      lx_event *e = &R->L->events.v[k];
      if ((in->wait_read && e->kind != LX_EV_READ) || e->done_pos <= here) continue;
      e->done_pos = here;
      completed = true;
    }
  }
  if (completed && !in->wait_read) async_proxy_fence(R, in);
}

/* A bulk copy is an asynchronous operation (PTX ISA, Memory Consistency
 * Model, "Asynchronous operations"; cp.async.bulk, "Async proxy"): its
 * events (AO, one aop) are performed by the async proxy, after the
 * thread's earlier instructions in issue order only (static.c). */
static int lower_bulk(run *R, const lt_instr *in) {
  if (in->bulk == LT_BULK_COMMIT || in->bulk == LT_BULK_WAIT) {
    lower_bulk_group(R, in);
    return 0;
  }
  int dst = opnd_vloc(R, &in->addr), src = opnd_vloc(R, &in->b);
  if (dst < 0 || src < 0) return -1;
  size_t first = R->L->events.n;
  lx_event *r = async_access(R, in, LX_EV_READ, src);
  int rid = r->id;
  lx_event *w = async_access(R, in, LX_EV_WRITE, dst);
  w->value = mk_read(R->L, rid);
  if (in->bulk == LT_BULK_G2S) {
    int mb = mbar_vloc(R, &in->c);
    if (mb < 0) return -1;
    async_proxy_fence(R, in);
    /* complete_tx on the mbarrier: release at cluster scope (PTX ISA,
     * cp.async.bulk, "Completion mechanisms": the complete-tx operation
     * has .release semantics at .cluster scope), for the copy's own
     * accesses only: it is in their program order, not the thread's. */
    mbar_rmw(R, in, mb, LX_OP_MB_COMPLETE, mk_const(R->L, in->a.imm), LT_SEM_RELEASE, LT_SCOPE_CLUSTER);
  } else {
    bulk_copy c = {first, R->L->events.n - first, -1};
    lc_vec_push(&R->bulk, c);
  }
  int aop = R->L->events.v[first].pos;
  for (size_t k = first; k < R->L->events.n; k++) {
    R->L->events.v[k].aop = aop;
    R->L->events.v[k].tags |= bit(LX_T_AO);
  }
  return 0;
}

/* The CTAs of thread t's cluster, by increasing number: a CTA's rank in its
 * cluster is its position there (%cluster_ctarank; the runner launches them
 * in that order). */
static int cluster_cta(run *R, int rank) {
  const lt_test *t = R->L->t;
  const lt_thread *me = R->th;
  int ctas[64];
  size_t n = 0;
  for (size_t i = 0; i < t->nthreads; i++) {
    const lt_thread *o = &t->threads[i];
    bool same = o->gpu == me->gpu && (me->cluster < 0 ? o->cta == me->cta : o->cluster == me->cluster);
    if (!same) continue;
    size_t j = 0;
    while (j < n && ctas[j] != o->cta) j++;
    if (j == n && n < LC_ARRAY_LEN(ctas)) ctas[n++] = o->cta;
  }
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && ctas[j - 1] > ctas[j]; j--) {
      int x = ctas[j];
      ctas[j] = ctas[j - 1];
      ctas[j - 1] = x;
    }
  return rank >= 0 && (size_t)rank < n ? ctas[rank] : -1;
}

static int lower_mapa(run *R, const lt_instr *in) {
  const lx_expr *rank = opnd_value(R, &in->a);
  if (rank->kind != LX_X_CONST) {
    lc_error(R->L->d, in->a.at, "the CTA rank of mapa must be known before the test runs");
    return -1;
  }
  int vloc = opnd_vloc(R, &in->addr);
  if (vloc < 0) return -1;
  const lx_loc *l = &R->L->locs.v[vloc];
  if (l->space != LT_SPACE_SHARED) {
    lc_error(R->L->d, in->addr.at, "mapa maps shared memory; %s is global", l->name);
    return -1;
  }
  int cta = cluster_cta(R, (int)rank->c);
  if (cta < 0) {
    lc_error(R->L->d, in->a.at, "P%d's cluster has no CTA of rank %lld", R->th->id, (long long)rank->c);
    return -1;
  }
  set_reg(R, &in->dst, mk_const(R->L, lx_addr_value(loc_for(R->L, l->name, cta))));
  return 0;
}

/* barrier.cluster.arrive / .wait: barrier events whose instances are per
 * cluster (number LX_BAR_CLUSTER); the k-th arrive of a thread joins the
 * k-th instance, and a wait waits for the instance of the thread's last
 * arrive.  Returns as lower_bar. */
static int lower_cluster_bar(run *R, const lt_instr *in) {
  int k = count_bars(R, LX_BAR_CLUSTER);
  if (in->bar_wait && k == 1) {
    lc_error(R->L->d, in->at, "barrier.cluster.wait with no barrier.cluster.arrive before it on this path");
    return -1;
  }
  bool blocked = false;
  if (R->L->opt->termination && in->bar_wait && !take_decision(R, &blocked)) return 1;
  lx_event *e = new_event(R, in->bar_wait ? LX_EV_BAR_WAIT : LX_EV_BAR_ARRIVE, in);
  e->bar_blocked = blocked;
  e->bar_cluster = true;
  e->tags |= bit(LX_T_B) | bit(LX_T_CLUSTER) |
             bit(in->bar_wait ? LX_T_ACQ : in->sem == LT_SEM_RELAXED ? LX_T_RLX : LX_T_REL);
  e->scope = LT_SCOPE_CLUSTER;
  e->bar_n = LX_BAR_CLUSTER;
  e->bar_k = in->bar_wait ? k - 1 : k;
  return blocked ? 2 : 0;
}

static void lower_alu(run *R, const lt_instr *in) {
  const lx_expr *a = opnd_value(R, &in->a), *v = a;
  lx_op w;
  if (in->alu != LT_ALU_MOV) {
    bool prewrap;
    lx_op op = lx_alu_op(in->alu, in->type, &prewrap);
    if (prewrap && lx_type_wrap(in->type, &w)) a = mk_bin(R->L, w, a, mk_const(R->L, 0));
    v = mk_bin(R->L, op, a, opnd_value(R, &in->b));
  }
  /* a 32-bit type's result wraps at 32 bits, as the hardware's does */
  if (lx_type_wrap(in->type, &w)) v = mk_bin(R->L, w, v, mk_const(R->L, 0));
  set_reg(R, &in->dst, v);
}

/* Takes the jump from cell `from` to `to`, counting backward jumps; false
 * when that would exceed the unroll bound. */
/* Did the iteration of the loop headed by cell `to` that ends here make
 * reads only, none of them an mbarrier's or the async proxy's? */
static bool reads_only(run *R, int to) {
  if (R->arrive[to] == SIZE_MAX) return false;   /* entered past its head */
  for (size_t i = R->first_event + R->arrive[to]; i < R->L->events.n; i++) {
    const lx_event *e = &R->L->events.v[i];
    if (e->kind != LX_EV_READ || e->rmw >= 0 || e->aop >= 0 ||
        (e->tags & (bit(LX_T_MB) | bit(LX_T_ASYNC) | bit(LX_T_AO))))
      return false;
  }
  return true;
}

static bool jump(run *R, int from, int to, int *pc, lc_loc at) {
  if (to <= from) {
    R->spun = false;
    if (R->spin && R->spin[from] && reads_only(R, to)) {
      /* a retry that read only: the first is kept (its reads may race,
       * and a hang is made of it), later ones add nothing (lower_spin.c) */
      if (R->pure_backs[from] >= 1) {
        R->spun = true;
        R->cut_at = at;
        R->cut_cell = from;
        return false;
      }
      R->pure_backs[from]++;
      for (size_t i = R->first_event + R->arrive[to]; i < R->L->events.n; i++) R->L->events.v[i].retry = true;
    }
    if ((unsigned)R->backs[from] >= R->L->opt->unroll) {
      R->cut_at = at;
      R->cut_cell = from;
      return false;
    }
    R->backs[from]++;
    /* where the next iteration starts, for the termination question */
    R->back_pos[from] = R->L->events.n - R->first_event;
    memcpy(R->back_regs + (size_t)from * R->xt->nregs, R->regs, R->xt->nregs * sizeof(lx_expr *));
  }
  *pc = to;
  return true;
}

static run_status lower_branch(run *R, const lt_instr *in, int cell, int *pc) {
  int target = label_cell(R->th, in->label);
  bool taken = true;
  if (in->kind == LT_I_BRANCH) {
    const lx_expr *a = opnd_value(R, &in->a), *b = opnd_value(R, &in->b);
    lt_cmp cmp = in->cmp;
    if (a->kind == LX_X_CONST && b->kind == LX_X_CONST) {
      taken = lx_cmp_apply(cmp, a->c, b->c);
    } else {
      static const lt_cmp neg[] = {[LT_CMP_EQ] = LT_CMP_NE, [LT_CMP_NE] = LT_CMP_EQ,
                                   [LT_CMP_LT] = LT_CMP_GE, [LT_CMP_LE] = LT_CMP_GT,
                                   [LT_CMP_GT] = LT_CMP_LE, [LT_CMP_GE] = LT_CMP_LT};
      /* A branch the path's conditions already decide is no fork: the
       * other side would be a path that can never run. */
      bool may_take = lx_cond_possible(R->conds.v, R->conds.n, cmp, a, b);
      bool may_skip = lx_cond_possible(R->conds.v, R->conds.n, neg[cmp], a, b);
      if (may_take && may_skip) {
        if (!take_decision(R, &taken)) return RUN_CHOICE;
      } else {
        taken = may_take;
      }
      add_cond(R, taken ? cmp : neg[cmp], a, b, in->at, true);
    }
  }
  if (!taken) {
    *pc = cell + 1;
    return RUN_DONE;
  }
  if (jump(R, cell, target, pc, in->at)) return RUN_DONE;
  return R->spun && !R->L->opt->termination ? RUN_SPUN : RUN_CUT;
}

static run_status step(run *R, int cell, int *pc) {
  const lt_instr *in = R->th->cells[cell].instr;
  *pc = cell + 1;
  if (!in) return RUN_DONE;
  switch (in->kind) {
  case LT_I_LD: return lower_load(R, in) < 0 ? RUN_ERROR : RUN_DONE;
  case LT_I_ST: return lower_store(R, in) < 0 ? RUN_ERROR : RUN_DONE;
  case LT_I_ATOM:
  case LT_I_RED: return lower_rmw(R, in);
  case LT_I_FENCE:
  case LT_I_FENCE_PROXY:
  case LT_I_FENCE_ALIAS: lower_fence(R, in); return RUN_DONE;
  case LT_I_BAR: {
    int rc = in->bar_cluster ? lower_cluster_bar(R, in) : lower_bar(R, in);
    return rc < 0 ? RUN_ERROR : rc == 1 ? RUN_CHOICE : rc == 2 ? RUN_BLOCKED : RUN_DONE;
  }
  case LT_I_ALU: lower_alu(R, in); return RUN_DONE;
  case LT_I_MBAR: return lower_mbar(R, in);
  case LT_I_BULK: return lower_bulk(R, in) < 0 ? RUN_ERROR : RUN_DONE;
  case LT_I_MAPA: return lower_mapa(R, in) < 0 ? RUN_ERROR : RUN_DONE;
  case LT_I_BRANCH:
  case LT_I_GOTO: return lower_branch(R, in, cell, pc);
  }
  return RUN_DONE;
}

static const lx_expr *initial_reg(lowerer *L, const lt_thread *th, int reg) {
  for (size_t i = 0; i < L->t->ninits; i++) {
    const lt_init *in = &L->t->inits[i];
    if (in->kind != LT_INIT_REG || in->thread != th->id || in->reg != reg) continue;
    if (in->value_loc) return mk_const(L, lx_addr_value(loc_for(L, in->value_loc, -1)));
    return mk_const(L, in->value);
  }
  return mk_const(L, 0);
}

/* Replays the thread under the decisions; leaves the events it made in
 * L->events (the caller keeps or drops them). */
static run_status replay(run *R) {
  for (size_t s = 0; s < R->xt->nregs; s++) R->regs[s] = initial_reg(R->L, R->th, R->xt->regs[s]);
  memset(R->backs, 0, R->th->ncells * sizeof(int));
  if (R->spin) {
    memset(R->pure_backs, 0, R->th->ncells * sizeof(int));
    for (size_t c = 0; c < R->th->ncells; c++) R->arrive[c] = SIZE_MAX;
  }
  R->bulk.n = 0;
  R->groups = 0;
  R->seq_stmt = R->seq_inst = 0;
  int pc = 0;
  while (pc < (int)R->th->ncells) {
    int next;
    /* A new evaluation of a full-expression starts where the path enters
     * its instructions from another's (or none's): a loop passes through
     * its own jump, which is in no full-expression, before it comes back,
     * so each iteration's evaluation is counted apart. */
    const lt_instr *cur = R->th->cells[pc].instr;
    if (cur && (cur->seq ? cur->seq->stmt : 0) != R->seq_stmt) {
      R->seq_stmt = cur->seq ? cur->seq->stmt : 0;
      R->seq_inst++;
    }
    if (R->spin) R->arrive[pc] = R->L->events.n - R->first_event;
    int pause = lx_pause_point(R->L->opt, R->th->cells[pc].instr, R->dec, R->ndec, &R->used);
    if (pause) return pause == 1 ? RUN_CHOICE : RUN_PAUSED;
    run_status st = step(R, pc, &next);
    if (st != RUN_DONE) return st;
    pc = next;
  }
  return RUN_DONE;
}

static void commit_path(run *R, bool cut) {
  lowerer *L = R->L;
  lx_path path = {0};
  path.thread = R->tidx;
  path.nevents = L->events.n - R->first_event;
  path.events = lc_arena_alloc(L->p->arena, (path.nevents ? path.nevents : 1) * sizeof(int));
  for (size_t i = 0; i < path.nevents; i++) path.events[i] = (int)(R->first_event + i);
  path.nconds = R->conds.n;
  path.conds = lc_arena_alloc(L->p->arena, (R->conds.n ? R->conds.n : 1) * sizeof(lx_cond));
  if (R->conds.n) memcpy(path.conds, R->conds.v, R->conds.n * sizeof(lx_cond));
  path.regs = lc_arena_alloc(L->p->arena, (R->xt->nregs ? R->xt->nregs : 1) * sizeof(lx_expr *));
  memcpy(path.regs, R->regs, R->xt->nregs * sizeof(lx_expr *));
  path.cut = cut;
  path.cut_at = R->cut_at;
  for (size_t c = 0; R->spin && c < R->th->ncells; c++) path.retry |= R->pure_backs[c] > 0;
  path.iter_pos = -1;
  if (cut && R->cut_cell >= 0) {
    size_t nregs = R->xt->nregs;
    path.iter_pos = (int)R->back_pos[R->cut_cell];
    path.iter_regs = lc_arena_alloc(L->p->arena, (nregs ? nregs : 1) * sizeof(lx_expr *));
    memcpy(path.iter_regs, R->back_regs + (size_t)R->cut_cell * nregs, nregs * sizeof(lx_expr *));
    const lt_instr *jmp = R->th->cells[R->cut_cell].instr;
    path.loop_label = jmp ? jmp->label : NULL;
    if (path.loop_label && strncmp(path.loop_label, LX_UB_LABEL, strlen(LX_UB_LABEL)) == 0) {
      switch (path.loop_label[strlen(LX_UB_LABEL)]) {
      case 'i': path.ub = "an index outside its array"; break;
      case 's': path.ub = "a shift by a negative amount or by its type's width or more"; break;
      default: path.ub = "a division by zero"; break;
      }
    }
  }
  lc_vec_push(&L->paths, path);
}

typedef LC_VEC(byte_vec) prefix_stack;

static run *new_run(lowerer *L, int tidx, const byte_vec *dec, const bool *spin) {
  run *R = lc_xcalloc(1, sizeof *R);
  R->L = L;
  R->tidx = tidx;
  R->th = &L->t->threads[tidx];
  R->xt = &L->p->threads[tidx];
  R->dec = dec->v;
  R->ndec = dec->n;
  R->path = (int)L->paths.n;
  R->first_event = L->events.n;
  R->regs = lc_xcalloc(R->xt->nregs, sizeof(lx_expr *));
  R->backs = lc_xcalloc(R->th->ncells, sizeof(int));
  R->back_pos = lc_xcalloc(R->th->ncells ? R->th->ncells : 1, sizeof(size_t));
  R->back_regs = lc_xcalloc((R->th->ncells ? R->th->ncells : 1) * (R->xt->nregs ? R->xt->nregs : 1),
                            sizeof(lx_expr *));
  R->cut_cell = -1;
  if (spin) {
    R->spin = spin;
    R->pure_backs = lc_xcalloc(R->th->ncells ? R->th->ncells : 1, sizeof(int));
    R->arrive = lc_xcalloc(R->th->ncells ? R->th->ncells : 1, sizeof(size_t));
  }
  return R;
}

static void free_run(run *R) {
  free(R->regs);
  free(R->backs);
  free(R->back_pos);
  free(R->back_regs);
  free(R->pure_backs);
  free(R->arrive);
  lc_vec_free(&R->conds);
  lc_vec_free(&R->bulk);
  free(R);
}

static void push_choices(prefix_stack *stack, const byte_vec *dec) {
  for (int choice = 1; choice >= 0; choice--) {
    byte_vec next = {0};
    for (size_t i = 0; i < dec->n; i++) lc_vec_push(&next, dec->v[i]);
    lc_vec_push(&next, (uint8_t)choice);
    lc_vec_push(stack, next);
  }
}

static bool out_of_time(lowerer *L) {
  if (L->opt->deadline <= 0 || lc_now() <= L->opt->deadline) return false;
  lc_error(L->d, L->t->name_at, "out of time (--timeout %g s) while lowering %s to events%s; no verdict",
           L->opt->timeout, L->t->name, L->paths.n > L->t->nthreads ? " (a lower --unroll makes fewer paths)" : "");
  return true;
}

/* The static relations are quadratic in the events of every path of every
 * thread: a 2x2 work queue unrolled twice has 53,778 events, whose 17
 * relations (id included) take 6.1 GB, allocated at once.  Past --max-memory that was
 * a bare "out of memory" a fraction of a second in, or (within the
 * bound) minutes of paging before it; the engines need as much again, so
 * past half of --max-memory lowering says so, with the counts and what
 * lowers them. */
static bool too_large(lowerer *L) {
  if (!L->opt->max_memory) return false;
  double n = (double)L->p->nevents;
  double bytes = (double)(LX_NSTATIC + 1) * n * (double)(((size_t)n + 63) / 64) * 8;
  if (bytes <= (double)L->opt->max_memory / 2) return false;
  /* --max-memory as the user writes it (src/cli's mem_format_size, a floor up) */
  size_t size = L->opt->max_memory;
  int u = -1;
  while (u < 3 && size % 1024 == 0 && size >= 1024) size /= 1024, u++;
  char unit[2] = {u < 0 ? '\0' : "KMGT"[u], '\0'};
  lc_error(L->d, L->t->name_at,
           "out of memory (--max-memory %zu%s): %s has %zu events on %zu paths (--unroll %u), whose static "
           "relations alone would take %.1f GB, more than half of it; a lower --unroll makes fewer paths; no verdict",
           size, unit, L->t->name, L->p->nevents, L->p->npaths, L->opt->unroll, bytes / 1e9);
  return true;
}

/* Depth-first over decision prefixes; "not taken" (0) is explored first so
 * path numbering follows the text. */
static int explore_thread(lowerer *L, int tidx) {
  const lt_thread *th = &L->t->threads[tidx];
  lx_thread *xt = &L->p->threads[tidx];
  prefix_stack stack = {0};
  byte_vec empty = {0};
  lc_vec_push(&stack, empty);
  int_vec paths = {0};
  int rc = 0;
  bool *spin = L->spin_reduce && L->opt->unroll > 0 ? lx_spin_loops(th, xt->regs, xt->nregs) : NULL;
  while (stack.n && rc == 0) {
    byte_vec dec = stack.v[--stack.n];
    run *R = new_run(L, tidx, &dec, spin);
    run_status st = replay(R);
    if (out_of_time(L)) st = RUN_ERROR;
    bool ends = st == RUN_DONE || st == RUN_CUT || st == RUN_BLOCKED || st == RUN_PAUSED;
    if (ends && paths.n >= L->opt->max_paths) {
      lc_error(L->d, th->at, "P%d has more than %zu paths through its branches and loops; "
                             "lower --unroll", th->id, L->opt->max_paths);
      ends = false;   /* stop here: going on repeated the error for every further path */
      st = RUN_ERROR;
    }
    if (st == RUN_SPUN || (st == RUN_CUT && R->spun)) L->p->spun++;
    if (ends) {
      commit_path(R, st == RUN_CUT);
      L->paths.v[L->paths.n - 1].blocked = st == RUN_BLOCKED;
      L->paths.v[L->paths.n - 1].paused = st == RUN_PAUSED;
      lc_vec_push(&paths, R->path);
    } else {
      L->events.n = R->first_event;   /* drop a partial replay */
      if (st == RUN_CHOICE) push_choices(&stack, &dec);
      else if (st != RUN_SPUN) rc = -1;
    }
    free_run(R);
    lc_vec_free(&dec);
  }
  for (size_t i = 0; i < stack.n; i++) lc_vec_free(&stack.v[i]);
  lc_vec_free(&stack);
  free(spin);
  xt->npaths = paths.n;
  xt->paths = lc_arena_alloc(L->p->arena, (paths.n ? paths.n : 1) * sizeof(int));
  if (paths.n) memcpy(xt->paths, paths.v, paths.n * sizeof(int));
  lc_vec_free(&paths);
  return rc;
}

/* ---- initial writes, observables --------------------------------------------------- */

static void add_initial_writes(lowerer *L) {
  for (size_t i = 0; i < L->plocs.n; i++) {
    lx_ploc *pl = &L->plocs.v[i];
    const lx_loc *primary = &L->locs.v[pl->primary];
    lx_event ev = {0};
    ev.id = (int)L->events.n;
    ev.kind = LX_EV_WRITE;
    ev.tags = bit(LX_T_IW) | bit(LX_T_W) | bit(LX_T_WEAK) | bit(LX_T_GEN) |
              bit(primary->space == LT_SPACE_SHARED ? LX_T_SHARED : LX_T_GLOBAL);
    ev.thread = ev.path = -1;
    ev.vloc = pl->primary;
    ev.va = primary->va;
    ev.ploc = (int)i;
    ev.rmw = ev.reg = ev.aop = -1;
    ev.done_pos = INT_MAX;
    ev.proxy = LT_PROXY_GENERIC;
    pl->init = init_value_of(L, primary->name);
    ev.value = mk_const(L, pl->init);
    pl->init_event = ev.id;
    lc_vec_push(&L->events, ev);
  }
}

typedef LC_VEC(lx_obs) obs_vec;

static int thread_index(const lx_program *p, int id) {
  for (size_t i = 0; i < p->nthreads; i++)
    if (p->threads[i].id == id) return (int)i;
  return -1;
}

/* The physical location a condition's `x` names.  Shared memory has a copy
 * per CTA; a condition can only name it when a single CTA uses it. */
static int obs_ploc(lowerer *L, const lt_term *t) {
  int found = -1, nfound = 0;
  for (size_t i = 0; i < L->locs.n; i++)
    if (strcmp(L->locs.v[i].name, t->loc) == 0) {
      if (found < 0 || L->locs.v[i].ploc != L->locs.v[found].ploc) nfound++;
      if (found < 0) found = (int)i;
    }
  if (found < 0) found = loc_for(L, t->loc, -1);
  else if (nfound > 1) {
    lc_error(L->d, t->at, "'%s' is shared memory of several CTAs; the condition cannot name one copy", t->loc);
    return -1;
  }
  return L->locs.v[found].ploc;
}

static void add_obs(lowerer *L, obs_vec *v, const lt_term *t, bool shown) {
  lx_obs o = {0};
  o.kind = t->kind == LT_TERM_REG ? LX_OBS_REG : LX_OBS_LOC;
  o.shown = shown;
  if (o.kind == LX_OBS_REG) {
    o.thread = thread_index(L->p, t->thread);
    o.slot = reg_slot(&L->p->threads[o.thread], t->reg);
    lc_buf b;
    lc_buf_init(&b);
    if (L->t->cpp)   /* a C++ local by its name */
      lc_buf_printf(&b, "P%d:%s", t->thread, L->t->cpp->threads[o.thread].locals[t->reg]);
    else
      lc_buf_printf(&b, "P%d:r%d", t->thread, t->reg);
    o.label = lc_arena_strdup(L->p->arena, b.s);
    lc_buf_fini(&b);
  } else {
    o.label = t->loc;
    if (lt_cpp_array_head(L->t, t->loc)) {   /* x[0], as written */
      size_t n = strlen(t->loc);
      char *s = lc_arena_alloc(L->p->arena, n + 4);
      memcpy(s, t->loc, n);
      memcpy(s + n, "[0]", 4);
      o.label = s;
    }
    o.ploc = obs_ploc(L, t);
    o.fp = lt_cpp_loc_is_float(L->t, t->loc);
    if (o.ploc < 0) L->failed = true;
  }
  for (size_t i = 0; i < v->n; i++)
    if (v->v[i].kind == o.kind && strcmp(v->v[i].label, o.label) == 0) {
      v->v[i].shown |= shown;
      return;
    }
  lc_vec_push(v, o);
}

static void prop_obs(lowerer *L, obs_vec *v, const lt_prop *p, bool shown) {
  if (!p) return;
  if (p->kind == LT_PROP_CMP) {
    if (p->lhs.kind == LT_TERM_REG || p->lhs.kind == LT_TERM_LOC) add_obs(L, v, &p->lhs, shown);
    if (p->rhs.kind == LT_TERM_REG || p->rhs.kind == LT_TERM_LOC) add_obs(L, v, &p->rhs, shown);
  }
  prop_obs(L, v, p->l, shown);
  prop_obs(L, v, p->r, shown);
}

/* States print registers by thread and number, then locations by name
 * (herd's habit), shown observables before hidden ones. */
static int obs_order(const lx_program *p, const lx_obs *a, const lx_obs *b) {
  if (a->shown != b->shown) return a->shown ? -1 : 1;
  if (a->kind != b->kind) return a->kind == LX_OBS_REG ? -1 : 1;
  if (a->kind == LX_OBS_LOC) return strcmp(a->label, b->label);
  int ta = p->threads[a->thread].id, tb = p->threads[b->thread].id;
  if (ta != tb) return ta < tb ? -1 : 1;
  int ra = p->threads[a->thread].regs[a->slot], rb = p->threads[b->thread].regs[b->slot];
  return (ra > rb) - (ra < rb);
}

/* Insertion sort: a handful of observables, and qsort has no context. */
static void sort_obs(const lx_program *p, lx_obs *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    lx_obs x = v[i];
    size_t j = i;
    for (; j > 0 && obs_order(p, &v[j - 1], &x) > 0; j--) v[j] = v[j - 1];
    v[j] = x;
  }
}

static void collect_obs(lowerer *L) {
  obs_vec v = {0};
  for (size_t i = 0; i < L->t->nlocations; i++) {
    const lt_term *t = &L->t->locations[i];
    if (t->kind == LT_TERM_REG || t->kind == LT_TERM_LOC) add_obs(L, &v, t, true);
  }
  prop_obs(L, &v, L->t->cond, true);
  prop_obs(L, &v, L->t->filter, false);
  sort_obs(L->p, v.v, v.n);
  L->p->nobs = v.n;
  L->p->obs = lc_arena_alloc(L->p->arena, (v.n ? v.n : 1) * sizeof(lx_obs));
  if (v.n) memcpy(L->p->obs, v.v, v.n * sizeof(lx_obs));
  for (size_t i = 0; i < v.n; i++) L->p->nshown += v.v[i].shown;
  lc_vec_free(&v);
}

/* ---- the entry point ------------------------------------------------------------ */

/* Touches every location a thread names, in code order, so that locations
 * first named in code exist before the initial writes are made. */
static void declare_code_locations(lowerer *L) {
  for (size_t i = 0; i < L->t->nthreads; i++) {
    const lt_thread *th = &L->t->threads[i];
    for (size_t c = 0; c < th->ncells; c++) {
      const lt_instr *in = th->cells[c].instr;
      if (!in) continue;
      const lt_operand *ops[] = {&in->addr, &in->a, &in->b};
      for (size_t k = 0; k < LC_ARRAY_LEN(ops); k++)
        if (ops[k]->kind == LT_OPND_LOC) loc_for(L, ops[k]->loc, th->cta);
    }
  }
  for (size_t i = 0; i < L->t->ninits; i++) {
    const lt_init *in = &L->t->inits[i];
    if (in->value_loc) loc_for(L, in->value_loc, -1);
  }
}

static void finish_arrays(lowerer *L) {
  lx_program *p = L->p;
  p->nevents = L->events.n;
  p->events = lc_arena_alloc(p->arena, (p->nevents ? p->nevents : 1) * sizeof(lx_event));
  if (p->nevents) memcpy(p->events, L->events.v, p->nevents * sizeof(lx_event));
  p->npaths = L->paths.n;
  p->paths = lc_arena_alloc(p->arena, (p->npaths ? p->npaths : 1) * sizeof(lx_path));
  if (p->npaths) memcpy(p->paths, L->paths.v, p->npaths * sizeof(lx_path));
  p->nlocs = L->locs.n;
  p->locs = lc_arena_alloc(p->arena, (p->nlocs ? p->nlocs : 1) * sizeof(lx_loc));
  if (p->nlocs) memcpy(p->locs, L->locs.v, p->nlocs * sizeof(lx_loc));
  p->nplocs = L->plocs.n;
  p->plocs = lc_arena_alloc(p->arena, (p->nplocs ? p->nplocs : 1) * sizeof(lx_ploc));
  if (p->nplocs) memcpy(p->plocs, L->plocs.v, p->nplocs * sizeof(lx_ploc));
  for (size_t i = 0; i < p->npaths; i++) p->has_cut |= p->paths[i].cut;
}

static int build(lowerer *L) {
  lx_program *p = L->p;
  p->nthreads = L->t->nthreads;
  p->threads = lc_arena_alloc(p->arena, (p->nthreads ? p->nthreads : 1) * sizeof(lx_thread));
  if (place_threads(L) < 0) return -1;
  for (size_t i = 0; i < p->nthreads; i++) collect_regs(L, &L->t->threads[i], &p->threads[i]);
  declare_init_locations(L);
  declare_code_locations(L);
  collect_obs(L);
  if (L->failed) return -1;
  add_initial_writes(L);
  p->ninit = L->events.n;
  for (size_t i = 0; i < p->nthreads; i++)
    if (explore_thread(L, (int)i) < 0) return -1;
  finish_arrays(L);
  if (out_of_time(L) || too_large(L)) return -1;
  /* stops early only past the deadline, which out_of_time then reports */
  bool whole = lx_static_relations(p, L->opt->deadline);
  if (out_of_time(L) || !whole) return -1;
  lx_domains(p);
  return 0;
}

lx_program *lx_lower(const lt_test *t, const lx_options *opt, lc_diag *d) {
  return lx_lower_spin(t, opt, false, d);
}

lx_program *lx_lower_spin(const lt_test *t, const lx_options *opt, bool spin_reduce, lc_diag *d) {
  assert(t && d);
  lx_options defaults = {LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS, 0, false, 0, 0};
  lowerer L = {0};
  L.t = t;
  L.opt = opt ? opt : &defaults;
  L.spin_reduce = spin_reduce;
  L.d = d;
  L.p = lc_xcalloc(1, sizeof(lx_program));
  L.p->arena = lc_arena_new();
  L.p->test = t;
  L.p->unroll = L.opt->unroll;
  if (t->cpp) L.t = lx_cpp_compile(t, L.p->arena, d);
  L.p->code = L.t;
  if (L.t) name_tables(&L);
  int rc = L.t ? build(&L) : -1;
  lc_names_fini(&L.inits);
  lc_names_fini(&L.map);
  lc_names_fini(&L.globals);
  lc_vec_free(&L.events);
  lc_vec_free(&L.paths);
  lc_vec_free(&L.locs);
  lc_vec_free(&L.plocs);
  if (rc < 0) {
    lx_program_free(L.p);
    return NULL;
  }
  return L.p;
}
