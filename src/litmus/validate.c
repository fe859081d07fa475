/* validate.c - the checks the grammar cannot make (docs/litmus-format.md,
 * "Validation").
 * SPDX-License-Identifier: MIT
 *
 * One pass collects what the test declares and mentions into a symbol
 * table (locations, registers per thread, labels per thread); the checks
 * then walk the test in source order (thread row first, as the other
 * parts refer to it) and stop at the first error.  Warnings are given only
 * for a test without errors, so an error is always the last message.
 */
#include "litmus/ast.h"
#include "litmus/lex.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small symbol table ---------------------------------------------------- */

typedef enum { S_EMPTY, S_LOC, S_REG, S_LABEL, S_CTA, S_MAP } sym_kind;

enum {
  F_INIT = 1,       /* REG: initialised (a LOC's declaration is its `first`) */
  F_CODE = 2,       /* mentioned by an instruction */
  F_REF = 4,        /* LOC: named by init (&x, alias target), map or condition */
  F_COND = 8,       /* REG: named by the condition, filter or locations */
  F_WRITTEN = 16,   /* REG: written by an earlier instruction (warning pass) */
  F_WARNED = 32,    /* REG: read-before-write already reported */
  F_WALK = 64,      /* LOC, an alias: on the chain being walked */
  F_CHAIN = 128,    /* LOC, an alias: its chain ends, or leads into a cycle without it */
  F_CYCLE = 256     /* LOC, an alias: on a cycle of aliases */
};

typedef struct sym {
  sym_kind kind;
  int a, b;            /* REG: thread, register; LABEL: thread; CTA: gpu, cta */
  const char *name;    /* LOC, LABEL, MAP */
  unsigned flags;
  const void *first;   /* the init entry, cell or mapping that declared it first */
  lc_loc at;           /* where that is */
  int cluster, thread; /* CTA: its cluster and the first thread placed in it */
} sym;

typedef struct symtab {
  sym *v;
  size_t n, cap;       /* cap is 0 or a power of two */
} symtab;

static uint64_t sym_hash(sym_kind k, int a, int b, const char *s) {
  uint64_t h = 1469598103934665603u ^ (uint64_t)k;
  h = (h ^ (uint32_t)a) * 1099511628211u;
  h = (h ^ (uint32_t)b) * 1099511628211u;
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static bool sym_is(const sym *e, sym_kind k, int a, int b, const char *s) {
  return e->kind == k && e->a == a && e->b == b && (s ? strcmp(e->name, s) == 0 : !e->name);
}

static sym *sym_slot(sym *v, size_t cap, sym_kind k, int a, int b, const char *s) {
  size_t mask = cap - 1, i = sym_hash(k, a, b, s) & mask;
  while (v[i].kind != S_EMPTY && !sym_is(&v[i], k, a, b, s)) i = (i + 1) & mask;
  return &v[i];
}

static void sym_grow(symtab *t) {
  size_t cap = t->cap ? t->cap * 2 : 64;
  sym *v = lc_xcalloc(cap, sizeof *v);
  for (size_t i = 0; i < t->cap; i++)
    if (t->v[i].kind != S_EMPTY)
      *sym_slot(v, cap, t->v[i].kind, t->v[i].a, t->v[i].b, t->v[i].name) = t->v[i];
  free(t->v);
  t->v = v;
  t->cap = cap;
}

/* The symbol, or NULL when absent and !create.  Pointers stay valid only
 * until the next creation. */
static sym *sym_get(symtab *t, sym_kind k, int a, int b, const char *s, bool create) {
  if (create && (t->n + 1) * 2 > t->cap) sym_grow(t);
  if (t->cap == 0) return NULL;
  sym *e = sym_slot(t->v, t->cap, k, a, b, s);
  if (e->kind != S_EMPTY) return e;
  if (!create) return NULL;
  e->kind = k;
  e->a = a;
  e->b = b;
  e->name = s;
  t->n++;
  return e;
}

/* ---- context --------------------------------------------------------------------- */

typedef struct vctx {
  const lt_test *t;
  lc_diag *d;
  symtab syms;
} vctx;

static int error(vctx *v, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);

static int error(vctx *v, lc_loc at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lc_vreport(v->d, LC_SEV_ERROR, at, fmt, ap);
  va_end(ap);
  return -1;
}

static lc_loc or_at(lc_loc l, lc_loc fallback) { return l.line > 0 ? l : fallback; }

static bool has_thread(const vctx *v, int id) { return id >= 0 && (size_t)id < v->t->nthreads; }

static sym *loc_sym(vctx *v, const char *name, bool create) {
  return sym_get(&v->syms, S_LOC, 0, 0, name, create);
}

static sym *reg_sym(vctx *v, int thread, int reg, bool create) {
  return sym_get(&v->syms, S_REG, thread, reg, NULL, create);
}

/* ---- collecting what the test declares and mentions -------------------------------- */

static void declare(vctx *v, sym *e, unsigned flag, const void *first, lc_loc at) {
  e->flags |= flag;
  if (!e->first) {
    e->first = first;
    e->at = at;
  }
}

static void note_operand(vctx *v, int thread, const lt_operand *o) {
  if (o->kind == LT_OPND_LOC) loc_sym(v, o->loc, true)->flags |= F_CODE;
  if (o->kind == LT_OPND_REG || o->kind == LT_OPND_REGADDR)
    reg_sym(v, thread, o->reg, true)->flags |= F_CODE;
}

static void collect(vctx *v) {
  const lt_test *t = v->t;
  for (size_t i = 0; i < t->ninits; i++) {
    const lt_init *e = &t->inits[i];
    if (e->kind == LT_INIT_REG) {
      declare(v, reg_sym(v, e->thread, e->reg, true), F_INIT, e, e->at);
    } else {
      declare(v, loc_sym(v, e->loc, true), 0, e, e->at);
    }
    if (e->value_loc) loc_sym(v, e->value_loc, true)->flags |= F_REF;
    if (e->kind == LT_INIT_ALIAS) loc_sym(v, e->target, true)->flags |= F_REF;
  }
  for (size_t j = 0; j < t->nthreads; j++) {
    const lt_thread *th = &t->threads[j];
    for (size_t r = 0; r < th->ncells; r++) {
      const lt_cell *c = &th->cells[r];
      if (c->label) declare(v, sym_get(&v->syms, S_LABEL, th->id, 0, c->label, true), 0, c, c->label_at);
      if (!c->instr) continue;
      const lt_operand *ops[] = {&c->instr->dst, &c->instr->addr, &c->instr->a, &c->instr->b,
                                 &c->instr->c};
      for (size_t k = 0; k < LC_ARRAY_LEN(ops); k++) note_operand(v, th->id, ops[k]);
    }
  }
}

/* ---- threads ------------------------------------------------------------------------ */

static int check_thread(vctx *v, size_t col, unsigned char *seen) {
  const lt_thread *th = &v->t->threads[col], *first = &v->t->threads[0];
  size_t n = v->t->nthreads;
  if (!has_thread(v, th->id) && n == 1)
    return error(v, th->at, "thread P%d out of sequence: a test with one thread names it P0", th->id);
  if (!has_thread(v, th->id))
    return error(v, th->at, "thread P%d out of sequence: a test with %zu threads names them P0..P%zu",
                 th->id, n, n - 1);
  if (seen[th->id]++) return error(v, th->at, "thread P%d appears twice in the thread row", th->id);
  if ((th->cluster >= 0) != (first->cluster >= 0))
    return error(v, th->at, "P%d %s a cluster but P%d %s: give every thread a cluster, or none",
                 th->id, th->cluster >= 0 ? "names" : "does not name", first->id,
                 first->cluster >= 0 ? "does" : "does not");
  /* CTA ids are per GPU, so one CTA cannot sit in two clusters. */
  sym *cta = sym_get(&v->syms, S_CTA, th->gpu, th->cta, NULL, true);
  if (!cta->first) {
    cta->first = th;
    cta->cluster = th->cluster;
    cta->thread = th->id;
  } else if (cta->cluster != th->cluster) {
    return error(v, th->at, "P%d puts CTA %d of GPU %d in cluster %d, but P%d puts it in cluster %d",
                 th->id, th->cta, th->gpu, th->cluster, cta->thread, cta->cluster);
  }
  return 0;
}

static int check_threads(vctx *v) {
  if (v->t->nthreads == 0) return error(v, v->t->name_at, "the test has no threads");
  unsigned char *seen = lc_xcalloc(v->t->nthreads, 1);
  int r = 0;
  for (size_t j = 0; j < v->t->nthreads && r == 0; j++) r = check_thread(v, j, seen);
  free(seen);
  return r;
}

/* ---- init ---------------------------------------------------------------------------- */

/* An alias may name an alias (the physical location is the end of the
 * chain), but a chain must end: one that comes back to `e` is a cycle.
 * Chains that loop without `e` are reported at their own members.  Each
 * alias is walked over once (F_CHAIN, F_CYCLE remember what its chain
 * does): walking every chain to its end made 20,000 aliases quadratic. */
static const lt_init *alias_next(vctx *v, const lt_init *at) {
  const sym *next = loc_sym(v, at->target, false);
  const lt_init *n = next ? next->first : NULL;
  return n && n->kind == LT_INIT_ALIAS ? n : NULL;
}

static int check_alias_chain(vctx *v, const lt_init *e) {
  sym *s = loc_sym(v, e->loc, false);
  if (!(s->flags & (F_CHAIN | F_CYCLE))) {
    const lt_init *at = e;
    for (; at; at = alias_next(v, at)) {
      sym *x = loc_sym(v, at->loc, false);
      if (x->flags & (F_CHAIN | F_CYCLE)) break;
      if (x->flags & F_WALK) {   /* back at a member of this walk: x's cycle */
        const lt_init *c = at;
        do {
          loc_sym(v, c->loc, false)->flags |= F_CYCLE;
          c = alias_next(v, c);
        } while (c != at);
        break;
      }
      x->flags |= F_WALK;
    }
    for (at = e; at; at = alias_next(v, at)) {   /* the rest ends, or leads into a cycle */
      sym *x = loc_sym(v, at->loc, false);
      if (!(x->flags & F_WALK)) break;
      x->flags &= ~(unsigned)F_WALK;
      if (!(x->flags & F_CYCLE)) x->flags |= F_CHAIN;
    }
  }
  if (!(s->flags & F_CYCLE)) return 0;
  lc_buf chain;
  lc_buf_init(&chain);
  lc_buf_printf(&chain, "%s", e->loc);
  const lt_init *c = e;
  do {
    lc_buf_printf(&chain, " -> %s", c->target);
    c = loc_sym(v, c->target, false)->first;
  } while (c != e);
  int r = error(v, or_at(e->target_at, e->at), "the aliases form a cycle (%s): an alias chain "
                "must end at a location with a value", chain.s);
  lc_buf_fini(&chain);
  return r;
}

static int check_init(vctx *v, const lt_init *e) {
  if (e->kind == LT_INIT_REG) {
    if (!has_thread(v, e->thread))
      return error(v, e->at, "init of P%d:r%d, but the test has no thread P%d", e->thread, e->reg,
                   e->thread);
    const sym *r = reg_sym(v, e->thread, e->reg, false);
    if (r->first != e)
      return error(v, e->at, "P%d:r%d is initialised twice (first at line %d)", e->thread, e->reg,
                   r->at.line);
    return 0;
  }
  const sym *l = loc_sym(v, e->loc, false);
  if (l->first != e)
    return error(v, e->at, "'%s' is declared twice in the init block (first at line %d)", e->loc,
                 l->at.line);
  if (e->kind != LT_INIT_ALIAS) return 0;
  const sym *target = loc_sym(v, e->target, false);
  const lt_init *decl = target ? target->first : NULL;
  if (!decl)
    return error(v, or_at(e->target_at, e->at),
                 "'%s' aliases '%s', which the init block does not give a value (write '%s=0;')",
                 e->loc, e->target, e->target);
  return check_alias_chain(v, e);
}

/* ---- instructions -------------------------------------------------------------------- */

static const char *mnemonic(const lt_instr *in) { return in->mnemonic ? in->mnemonic : "instruction"; }

/* .sem and .scope of ld, st, atom, red and their proxy forms. */
static int check_access_sem(vctx *v, const lt_instr *in) {
  const char *m = mnemonic(in), *sem = lt_sem_name(in->sem);
  bool ldst = in->kind == LT_I_LD || in->kind == LT_I_ST;
  lc_loc sem_at = or_at(in->sem_at, in->at), scope_at = or_at(in->scope_at, in->at);
  switch (in->sem) {
  case LT_SEM_NONE:
    if (ldst && in->scope)
      return error(v, scope_at, "'%s': a scope needs a memory order such as '.relaxed'", m);
    return 0;   /* atom and red default to .relaxed.gpu: the lowering applies it */
  case LT_SEM_WEAK:
    if (!ldst) return error(v, sem_at, "'%s': an atomic operation cannot be '.weak'", m);
    if (in->scope) return error(v, scope_at, "'%s': '.weak' takes no scope", m);
    return 0;
  case LT_SEM_VOLATILE: case LT_SEM_MMIO:
    if (!ldst || in->proxy != LT_PROXY_GENERIC)
      return error(v, sem_at, "'%s': '.%s' is only for ld and st", m, sem);
    if (in->sem == LT_SEM_VOLATILE && in->scope)
      return error(v, scope_at, "'%s': '.volatile' takes no scope (it means .relaxed.sys)", m);
    if (in->sem == LT_SEM_MMIO && in->space == LT_SPACE_SHARED)
      return error(v, sem_at, "'%s': '.mmio' is only for global memory", m);
    return 0;
  case LT_SEM_SC:
    return error(v, sem_at, "'%s': '.sc' is only for fence", m);
  case LT_SEM_ACQ_REL:
    if (ldst) return error(v, sem_at, "'%s': '.acq_rel' is only for atom, red and fence", m);
    break;
  case LT_SEM_ACQUIRE:
    if (in->kind == LT_I_ST) return error(v, sem_at, "'%s': a store cannot be '.acquire'", m);
    break;
  case LT_SEM_RELEASE:
    if (in->kind == LT_I_LD) return error(v, sem_at, "'%s': a load cannot be '.release'", m);
    break;
  default:
    break;
  }
  if (in->scope) return 0;
  if (ldst)
    return error(v, sem_at, "'%s': '.%s' needs a scope (.cta, .cluster, .gpu or .sys)", m, sem);
  return error(v, sem_at, "'%s': '.%s' without a scope; PTX would default to .gpu, but write the "
               "scope (e.g. '.%s.gpu')", m, sem, sem);
}

static int check_access(vctx *v, const lt_instr *in) {
  if (check_access_sem(v, in) < 0) return -1;
  if (in->cache && in->sem != LT_SEM_NONE && in->sem != LT_SEM_WEAK)
    return error(v, or_at(in->cache_at, in->at), "'%s': cache operator '.%s' is only for weak "
                 "accesses", mnemonic(in), lt_cache_name(in->cache));
  return 0;
}

static int check_fence(vctx *v, const lt_instr *in) {
  const char *m = mnemonic(in), *sem = lt_sem_name(in->sem);
  lc_loc sem_at = or_at(in->sem_at, in->at);
  if (in->sem != LT_SEM_SC && in->sem != LT_SEM_ACQ_REL && in->sem != LT_SEM_ACQUIRE &&
      in->sem != LT_SEM_RELEASE)
    return error(v, sem_at, "'%s': a fence cannot be '.%s' (use .sc, .acq_rel, .acquire or "
                 ".release)", m, sem);
  if (!in->scope)
    return error(v, sem_at, "'%s': '.%s' needs a scope (.cta, .cluster, .gpu or .sys)", m, sem);
  return 0;
}

static int check_range(vctx *v, const lt_operand *o, int64_t lo, int64_t hi, const char *what) {
  if (o->kind != LT_OPND_IMM || (o->imm >= lo && o->imm <= hi)) return 0;
  return error(v, o->at, "%s %lld out of range (%lld..%lld)", what, (long long)o->imm,
               (long long)lo, (long long)hi);
}

static int check_bar(vctx *v, const lt_instr *in) {
  if (check_range(v, &in->a, 0, LT_MAX_ID, "barrier number") < 0) return -1;
  if (in->nbar_operands >= 2 && check_range(v, &in->b, 0, LT_MAX_ID, "barrier id") < 0) return -1;
  if (in->nbar_operands >= 3 && check_range(v, &in->c, 1, LT_MAX_ID, "barrier thread count") < 0)
    return -1;
  return 0;
}

/* A 32-bit instruction takes constants that fit 32 bits, signed or not. */
static int check_width(vctx *v, const lt_instr *in) {
  if (in->type != LT_TYPE_B32 && in->type != LT_TYPE_U32 && in->type != LT_TYPE_S32) return 0;
  const lt_operand *ops[] = {&in->a, &in->b};
  for (size_t i = 0; i < LC_ARRAY_LEN(ops); i++)
    if (ops[i]->kind == LT_OPND_IMM && (ops[i]->imm < INT32_MIN || ops[i]->imm > (int64_t)UINT32_MAX))
      return error(v, ops[i]->at, "constant %lld does not fit the 32 bits of '%s'",
                   (long long)ops[i]->imm, mnemonic(in));
  return 0;
}

static bool mapped_shared(const lt_test *t, const char *loc) {
  for (size_t i = 0; i < t->nmap; i++)
    if (strcmp(t->map[i].loc, loc) == 0) return t->map[i].space == LT_SPACE_SHARED;
  return false;
}

/* mbarrier counts fit the fields litmus-check packs an mbarrier's state
 * into (exec/mbar.c): arrival counts 1..65535 (the ISA allows up to
 * 2^20-1), transaction counts 0..2^20-1 as in the ISA. */
static int check_mbar(vctx *v, const lt_instr *in) {
  if (in->addr.kind == LT_OPND_LOC && !mapped_shared(v->t, in->addr.loc))
    return error(v, in->addr.at, "the mbarrier '%s' must be in shared memory: add '%s: shared' to the "
                 "memory map", in->addr.loc, in->addr.loc);
  switch (in->mbar) {
  case LT_MB_INIT: return check_range(v, &in->a, 1, 65535, "mbarrier count");
  case LT_MB_ARRIVE: case LT_MB_ARRIVE_DROP: return check_range(v, &in->a, 1, 65535, "arrival count");
  case LT_MB_ARRIVE_EXPECT_TX: case LT_MB_EXPECT_TX: case LT_MB_COMPLETE_TX:
    return check_range(v, &in->a, 0, (1 << 20) - 1, "transaction count");
  default: return in->parity ? check_range(v, &in->a, 0, 1, "phase parity") : 0;
  }
}

static int check_instr(vctx *v, const lt_thread *th, const lt_instr *in) {
  switch (in->kind) {
  case LT_I_MBAR: return check_mbar(v, in);
  case LT_I_BULK:
    if (in->bulk == LT_BULK_G2S && in->c.kind == LT_OPND_LOC && !mapped_shared(v->t, in->c.loc))
      return error(v, in->c.at, "the mbarrier '%s' must be in shared memory: add '%s: shared' to the "
                   "memory map", in->c.loc, in->c.loc);
    return 0;
  case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED:
    if (check_access(v, in) < 0) return -1;
    break;
  case LT_I_FENCE:
    if (!in->membar && check_fence(v, in) < 0) return -1;
    break;
  case LT_I_BAR:
    return in->bar_cluster ? 0 : check_bar(v, in);
  case LT_I_BRANCH: case LT_I_GOTO:
    if (!sym_get(&v->syms, S_LABEL, th->id, 0, in->label, false))
      return error(v, or_at(in->label_at, in->at), "unknown label '%s' in P%d", in->label, th->id);
    return 0;
  default:
    break;
  }
  return check_width(v, in);
}

static int check_cell(vctx *v, const lt_thread *th, const lt_cell *c) {
  if (c->label) {
    const sym *l = sym_get(&v->syms, S_LABEL, th->id, 0, c->label, false);
    if (l->first != c)
      return error(v, c->label_at, "label '%s' appears twice in P%d (first at line %d)", c->label,
                   th->id, l->at.line);
  }
  return c->instr ? check_instr(v, th, c->instr) : 0;
}

static int check_code(vctx *v) {
  const lt_test *t = v->t;
  for (size_t r = 0; r < t->nrows; r++)
    for (size_t j = 0; j < t->nthreads; j++)
      if (r < t->threads[j].ncells && check_cell(v, &t->threads[j], &t->threads[j].cells[r]) < 0)
        return -1;
  return 0;
}

/* ---- memory map, locations, filter, condition ------------------------------------------ */

static int check_term(vctx *v, const lt_term *x, const char *where) {
  if (x->kind == LT_TERM_CONST) return 0;
  if (x->kind == LT_TERM_REG) {
    if (!has_thread(v, x->thread))
      return error(v, x->at, "%s names P%d:r%d, but the test has no thread P%d", where, x->thread,
                   x->reg, x->thread);
    sym *r = reg_sym(v, x->thread, x->reg, false);
    if (!r)
      return error(v, x->at, "%s names P%d:r%d, but P%d neither uses nor initialises r%d", where,
                   x->thread, x->reg, x->thread, x->reg);
    r->flags |= F_COND;
    return 0;
  }
  sym *l = loc_sym(v, x->loc, false);
  if (!l)
    return error(v, x->at, "%s names location '%s', which appears nowhere in the test", where,
                 x->loc);
  l->flags |= F_REF;
  return 0;
}

static int check_prop(vctx *v, const lt_prop *p, const char *where) {
  switch (p->kind) {
  case LT_PROP_CMP:
    return check_term(v, &p->lhs, where) < 0 ? -1 : check_term(v, &p->rhs, where);
  case LT_PROP_NOT:
    return check_prop(v, p->l, where);
  case LT_PROP_AND: case LT_PROP_OR:
    return check_prop(v, p->l, where) < 0 ? -1 : check_prop(v, p->r, where);
  default:
    return 0;
  }
}

static int check_map(vctx *v, const lt_mapping *m) {
  sym *l = loc_sym(v, m->loc, false);
  if (!l)
    return error(v, m->at, "the memory map names '%s', which appears nowhere in the test", m->loc);
  l->flags |= F_REF;
  sym *e = sym_get(&v->syms, S_MAP, 0, 0, m->loc, true);
  if (e->first)
    return error(v, m->at, "'%s' appears twice in the memory map (first at line %d)", m->loc,
                 e->at.line);
  e->first = m;
  e->at = m->at;
  return 0;
}

static int check_tail(vctx *v) {
  const lt_test *t = v->t;
  for (size_t i = 0; i < t->nmap; i++)
    if (check_map(v, &t->map[i]) < 0) return -1;
  for (size_t i = 0; i < t->nlocations; i++)
    if (check_term(v, &t->locations[i], "'locations'") < 0) return -1;
  if (t->filter && check_prop(v, t->filter, "the filter") < 0) return -1;
  if (!t->cond) return error(v, t->cond_at, "the test has no final condition");
  return check_prop(v, t->cond, "the condition");
}

/* ---- warnings --------------------------------------------------------------------------- */

static void warn_init(vctx *v, const lt_init *e) {
  if (e->kind == LT_INIT_LOC) {
    if (!(loc_sym(v, e->loc, false)->flags & (F_CODE | F_REF)))
      lc_warning(v->d, e->at, "location '%s' is initialised but never used", e->loc);
  } else if (e->kind == LT_INIT_REG) {
    if (!(reg_sym(v, e->thread, e->reg, false)->flags & (F_CODE | F_COND)))
      lc_warning(v->d, e->at, "P%d:r%d is initialised but P%d never uses r%d", e->thread, e->reg,
                 e->thread, e->reg);
  }
}

static void warn_read(vctx *v, int thread, const lt_operand *o) {
  if (o->kind != LT_OPND_REG && o->kind != LT_OPND_REGADDR) return;
  sym *r = reg_sym(v, thread, o->reg, false);
  if (r->flags & (F_INIT | F_WRITTEN | F_WARNED)) return;
  r->flags |= F_WARNED;
  lc_warning(v->d, o->at, "P%d:r%d is read before it is written and is not initialised; it "
             "starts at 0", thread, o->reg);
}

static void warn_instr(vctx *v, int thread, const lt_instr *in) {
  const lt_operand *reads[] = {&in->addr, &in->a, &in->b, &in->c};
  for (size_t k = 0; k < LC_ARRAY_LEN(reads); k++) warn_read(v, thread, reads[k]);
  if (in->dst.kind == LT_OPND_REG) reg_sym(v, thread, in->dst.reg, false)->flags |= F_WRITTEN;
}

static void warnings(vctx *v) {
  const lt_test *t = v->t;
  for (size_t i = 0; i < t->ninits; i++) warn_init(v, &t->inits[i]);
  for (size_t r = 0; r < t->nrows; r++)
    for (size_t j = 0; j < t->nthreads; j++)
      if (r < t->threads[j].ncells && t->threads[j].cells[r].instr)
        warn_instr(v, t->threads[j].id, t->threads[j].cells[r].instr);
}

int lt_validate(const lt_test *t, lc_diag *d) {
  assert(t && d);
  vctx v = {t, d, {0}};
  int r = -1;
  if (check_threads(&v) < 0) goto out;
  collect(&v);
  for (size_t i = 0; i < t->ninits; i++)
    if (check_init(&v, &t->inits[i]) < 0) goto out;
  if (check_code(&v) < 0 || check_tail(&v) < 0) goto out;
  warnings(&v);
  r = 0;
out:
  free(v.syms.v);
  return r;
}
