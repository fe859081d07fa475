/* map_lower.c - compile a C++ test to a PTX test through a mapping table
 * (map_lower.h; docs/mappings.md).
 * SPDX-License-Identifier: MIT
 *
 * The C++ test's code table already holds its bodies as instructions
 * (marked `cpp`, with the C++ order in `sem` and the thread scope in
 * `scope`).  Compiling replaces each such instruction by the sequence of
 * the table row chosen for it, cell by cell; arithmetic, branches and
 * barriers are kept.  The PTX test shares its strings, init block and
 * condition with the C++ test (which must outlive it); its cells and
 * instructions live in its own arena.  Each PTX instruction keeps the
 * position of the C++ instruction it came from.
 */
#include "map/map_lower.h"

#include "exec/internal.h"   /* lx_cpp_compile: the C++ bodies as the events see them */

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* An order C and C++ leave undefined on this access (a store acquire, a
 * load release, a compare-exchange failing with release): the checker
 * reads it as herd7 does (litmus/cpp_parse.c), but no code is compiled
 * for it - CUDA C++ code with it would be undefined, and a PTX mapping
 * would have to invent a meaning the standard does not give.  NULL if
 * the order is defined. */
static const char *undefined_order(const lt_instr *in) {
  if (!in->cpp) return NULL;
  if (in->kind == LT_I_ST && (in->sem == LT_SEM_ACQUIRE || in->sem == LT_SEM_ACQ_REL))
    return "a store with an acquire, consume or acq_rel order (C11 7.17.7.1p2)";
  if (in->kind == LT_I_LD && (in->sem == LT_SEM_RELEASE || in->sem == LT_SEM_ACQ_REL))
    return "a load with a release or acq_rel order (C11 7.17.7.2p2)";
  if (in->kind == LT_I_ATOM && in->rmw == LT_RMW_CAS &&
      (in->mo_fail == LT_MO_RELEASE || in->mo_fail == LT_MO_ACQ_REL))
    return "a compare-exchange with a release or acq_rel failure order (C11 7.17.7.4p2)";
  return NULL;
}

const lt_test *map_cpp_cells(const lt_test *t, lc_arena *a, lc_diag *d) {
  assert(t && t->cpp);
  const lt_test *ct = lx_cpp_compile(t, a, d);
  for (size_t i = 0; ct && i < ct->nthreads; i++)
    for (size_t j = 0; j < ct->threads[i].ncells; j++) {
      const lt_instr *in = ct->threads[i].cells[j].instr;
      const char *why = in ? undefined_order(in) : NULL;
      if (!why) continue;
      lc_error(d, in->sem_at.line ? in->sem_at : in->at,
               "%s is undefined in C and C++ (C++ [atomics.types.operations]): no code is compiled for it "
               "(litmus-check reads it as herd7 does; docs/cpp-model.md)", why);
      return NULL;
    }
  return ct;
}

map_order map_order_of(const lt_instr *in) {
  switch (in->sem) {
  case LT_SEM_RELAXED: return MAP_RLX;
  case LT_SEM_ACQUIRE: return MAP_ACQ;
  case LT_SEM_RELEASE: return MAP_REL;
  case LT_SEM_ACQ_REL: return MAP_ACQ_REL;
  case LT_SEM_SC: return MAP_SC;
  case LT_SEM_VOLATILE: return MAP_VOL;
  default: return MAP_NA;
  }
}

/* A compare-exchange is compiled with the stronger of its two orders. */
static map_order cas_order(const lt_instr *in) {
  static const map_order by_mo[] = {[LT_MO_NA] = MAP_NA, [LT_MO_RELAXED] = MAP_RLX,
    [LT_MO_CONSUME] = MAP_ACQ, [LT_MO_ACQUIRE] = MAP_ACQ, [LT_MO_RELEASE] = MAP_REL,
    [LT_MO_ACQ_REL] = MAP_ACQ_REL, [LT_MO_SEQ_CST] = MAP_SC};
  map_order o = map_order_of(in), f = by_mo[in->mo_fail];
  if (o == MAP_REL && f == MAP_ACQ) return MAP_ACQ_REL;
  return f > o && !(f == MAP_ACQ && o == MAP_ACQ_REL) ? f : o;
}

map_cscope map_cscope_of(lt_scope s) {
  switch (s) {
  case LT_SCOPE_CTA: return MAP_BLOCK;
  case LT_SCOPE_CLUSTER: return MAP_CLUSTER;
  case LT_SCOPE_GPU: return MAP_DEVICE;
  default: return MAP_SYSTEM;
  }
}

static map_kind kind_of(const lt_instr *in) {
  switch (in->kind) {
  case LT_I_LD: return MAP_LOAD;
  case LT_I_ST: return MAP_STORE;
  case LT_I_ATOM: case LT_I_RED: return MAP_RMW;
  default: return MAP_FENCE;
  }
}

static bool is_access(const lt_instr *in) {
  return in && in->cpp && (in->kind == LT_I_LD || in->kind == LT_I_ST || in->kind == LT_I_ATOM ||
                           in->kind == LT_I_RED || in->kind == LT_I_FENCE);
}

/* ---- the plan: which row each access uses ------------------------------------- */

static int plan_site(const map_table *m, const lt_instr *in, map_site *s, lc_diag *d) {
  s->kind = kind_of(in);
  s->order = in->kind == LT_I_ATOM && in->rmw == LT_RMW_CAS ? cas_order(in) : map_order_of(in);
  if (s->kind == MAP_FENCE && s->order == MAP_RLX) s->order = MAP_NA;   /* no-op fence */
  s->cscope = map_cscope_of(in->scope);
  s->scope = s->order == MAP_NA ? LT_SCOPE_NONE : m->scope[s->cscope];
  s->at = in->at;
  if (s->kind == MAP_FENCE && s->order == MAP_NA) { s->row = NULL; return 0; }
  s->row = map_row_for(m, s->kind, s->order);
  if (!s->row) {
    lc_error(d, in->at, "table '%s' has no row '%s %s' for sm_%d", m->name, map_kind_name(s->kind),
             map_order_name(s->order), m->sm);
    return -1;
  }
  if (s->order != MAP_NA && s->scope == LT_SCOPE_NONE) {
    lc_error(d, in->at, "table '%s' maps no PTX scope to thread_scope_%s for sm_%d", m->name,
             map_cscope_name(s->cscope), m->sm);
    return -1;
  }
  return 0;
}

int map_plan_make(const lt_test *t, const map_table *m, map_plan *p, lc_diag *d) {
  memset(p, 0, sizeof *p);
  LC_VEC(map_site) v = {0};
  for (size_t i = 0; i < t->nthreads; i++)
    for (size_t j = 0; j < t->threads[i].ncells; j++) {
      const lt_instr *in = t->threads[i].cells[j].instr;
      if (!is_access(in)) continue;
      map_site s = {.thread = i, .cell = j};
      if (plan_site(m, in, &s, d)) { free(v.v); return -1; }
      lc_vec_push(&v, s);
    }
  p->v = v.v;
  p->n = v.n;
  return 0;
}

void map_plan_fini(map_plan *p) {
  free(p->v);
  memset(p, 0, sizeof *p);
}

/* ---- compiling ------------------------------------------------------------------ */

typedef LC_VEC(lt_cell) cell_vec;

typedef struct compiler {
  lc_arena *a;
  const lt_test *src;
  int next_reg, next_label;
} compiler;

static lt_instr *new_instr(compiler *c, const lt_instr *from) {
  lt_instr *in = lc_arena_alloc(c->a, sizeof *in);
  in->at = from->at;
  return in;
}

static void push(cell_vec *cells, lt_instr *in, const char *label, lc_loc at) {
  lt_cell cell = {.label = label, .instr = in, .at = at, .label_at = at};
  lc_vec_push(cells, cell);
}

static lt_instr *instantiate(compiler *c, const map_instr *mi, const map_site *s, const lt_instr *from) {
  lt_instr *in = new_instr(c, from);
  in->kind = mi->kind;
  in->sem = mi->sem;
  in->membar = mi->membar;
  in->scope = mi->scope_from_cpp ? s->scope : mi->scope;
  in->space = from->space;
  return in;
}

/* mov rD, v (written `ld rD, v`) */
static lt_instr *mov(compiler *c, const lt_instr *from, int reg, lt_operand v) {
  lt_instr *in = new_instr(c, from);
  in->kind = LT_I_ALU;
  in->alu = LT_ALU_MOV;
  in->dst = (lt_operand){.kind = LT_OPND_REG, .reg = reg};
  in->a = v;
  return in;
}

static const char *fresh_label(compiler *c) {
  char buf[32];
  snprintf(buf, sizeof buf, "LC%d", c->next_label++);
  return lc_arena_strdup(c->a, buf);
}

/* C++ compare-exchange after `atom.cas rOld, [x], e, d`: the success flag
 * in c (1 when old == e) and, on failure, old into the expected register. */
static void cas_results(compiler *c, cell_vec *cells, const lt_instr *from, int old, const char **label) {
  lt_operand o = {.kind = LT_OPND_REG, .reg = old};
  if (from->c.kind == LT_OPND_REG) {
    const char *done = fresh_label(c);
    push(cells, mov(c, from, from->c.reg, (lt_operand){.kind = LT_OPND_IMM, .imm = 1}), *label, from->at);
    *label = NULL;
    lt_instr *br = new_instr(c, from);
    br->kind = LT_I_BRANCH;
    br->cmp = LT_CMP_EQ;
    br->a = o;
    br->b = from->a;
    br->label = done;
    push(cells, br, NULL, from->at);
    push(cells, mov(c, from, from->c.reg, (lt_operand){.kind = LT_OPND_IMM, .imm = 0}), NULL, from->at);
    push(cells, NULL, done, from->at);
  }
  if (from->a.kind == LT_OPND_REG) {
    push(cells, mov(c, from, from->a.reg, o), *label, from->at);
    *label = NULL;
  }
}

static void expand(compiler *c, cell_vec *cells, const lt_cell *cell, const map_site *s,
                   const map_alt *alt) {
  const lt_instr *from = cell->instr;
  const char *label = cell->label;
  int old = -1;
  for (size_t k = 0; alt && k < alt->nins; k++) {
    lt_instr *in = instantiate(c, &alt->ins[k], s, from);
    if (k == alt->access) {
      in->rmw = from->rmw;
      in->type = from->type;
      in->dst = from->dst;
      in->addr = from->addr;
      in->a = from->a;
      in->b = from->b;
      if (from->kind == LT_I_ATOM && in->dst.kind != LT_OPND_REG && from->rmw == LT_RMW_CAS)
        in->dst = (lt_operand){.kind = LT_OPND_REG, .reg = c->next_reg++};
      if (from->kind == LT_I_RED) in->kind = LT_I_RED;
      old = in->dst.kind == LT_OPND_REG ? in->dst.reg : -1;
    }
    push(cells, in, label, from->at);
    label = NULL;
  }
  if (from->kind == LT_I_ATOM && from->rmw == LT_RMW_CAS && old >= 0) cas_results(c, cells, from, old, &label);
  if (label) push(cells, NULL, label, cell->at);
}

static int max_reg(const lt_thread *th) {
  int m = -1;
  for (size_t j = 0; j < th->ncells; j++) {
    const lt_instr *in = th->cells[j].instr;
    if (!in) continue;
    const lt_operand *ops[] = {&in->dst, &in->addr, &in->a, &in->b, &in->c};
    for (size_t k = 0; k < 5; k++)
      if ((ops[k]->kind == LT_OPND_REG || ops[k]->kind == LT_OPND_REGADDR) && ops[k]->reg > m) m = ops[k]->reg;
  }
  return m;
}

static void compile_thread(compiler *c, const lt_thread *th, size_t ti, const map_plan *p,
                           const size_t *choice, lt_thread *out) {
  cell_vec cells = {0};
  size_t site = 0;
  while (site < p->n && p->v[site].thread < ti) site++;
  c->next_reg = max_reg(th) + 1;
  c->next_label = 9000;
  for (size_t j = 0; j < th->ncells; j++) {
    const lt_cell *cell = &th->cells[j];
    if (site < p->n && p->v[site].thread == ti && p->v[site].cell == j) {
      const map_site *s = &p->v[site];
      expand(c, &cells, cell, s, s->row ? &s->row->alts[choice[site]] : NULL);
      site++;
    } else {
      lt_instr *in = NULL;
      if (cell->instr) {
        in = lc_arena_alloc(c->a, sizeof *in);
        *in = *cell->instr;
      }
      push(&cells, in, cell->label, cell->at);
    }
  }
  *out = *th;
  out->cells = lc_arena_alloc(c->a, (cells.n + 1) * sizeof *out->cells);
  if (cells.n) memcpy(out->cells, cells.v, cells.n * sizeof *cells.v);
  out->ncells = cells.n;
  free(cells.v);
}

lt_test *map_compile(const lt_test *t, const map_plan *p, const size_t *choice) {
  assert(t && p);
  lt_test *o = calloc(1, sizeof *o);
  if (!o) lc_die("out of memory");
  *o = *t;
  o->arena = lc_arena_new();
  o->arch = "PTX";
  o->cpp = NULL;
  compiler c = {.a = o->arena, .src = t};
  o->threads = lc_arena_alloc(o->arena, (t->nthreads + 1) * sizeof *o->threads);
  o->nrows = 0;
  for (size_t i = 0; i < t->nthreads; i++) {
    compile_thread(&c, &t->threads[i], i, p, choice, &o->threads[i]);
    if (o->threads[i].ncells > o->nrows) o->nrows = o->threads[i].ncells;
  }
  /* Every thread has nrows cells (ast.h): pad with empty ones. */
  for (size_t i = 0; i < t->nthreads; i++) {
    lt_thread *th = &o->threads[i];
    if (th->ncells == o->nrows) continue;
    lt_cell *cells = lc_arena_alloc(o->arena, o->nrows * sizeof *cells);
    memcpy(cells, th->cells, th->ncells * sizeof *cells);
    for (size_t j = th->ncells; j < o->nrows; j++) cells[j].at = th->at;
    th->cells = cells;
    th->ncells = o->nrows;
  }
  return o;
}

void map_compiled_free(lt_test *ptx) {
  if (!ptx) return;
  lc_arena_free(ptx->arena);
  free(ptx);
}

/* ---- printing with the C++ lines ------------------------------------------------ */

static void row_comment(lc_buf *out, const lt_test *ptx, size_t row) {
  lc_buf_puts(out, " (* C++ line");
  for (size_t i = 0; i < ptx->nthreads; i++) {
    const lt_cell *c = &ptx->threads[i].cells[row];
    int line = c->instr ? c->instr->at.line : 0;
    lc_buf_puts(out, i ? " |" : "");
    if (line) lc_buf_printf(out, " %d", line);
    else lc_buf_puts(out, " -");
  }
  lc_buf_puts(out, " *)");
}

/* lt_print's normal form, each code row followed by a comment with the
 * C++ line of each cell: the rows are the nrows lines after the thread
 * header, which follows the `}` closing the init block. */
void map_print_lowered(lc_buf *out, const lt_test *ptx) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print(&b, ptx);
  enum { BEFORE, HEADER, CODE, AFTER } at = BEFORE;
  size_t row = 0;
  for (const char *s = b.s; *s;) {
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : strlen(s);
    lc_buf_putn(out, s, n);
    if (at == CODE) {
      row_comment(out, ptx, row);
      if (++row == ptx->nrows) at = AFTER;
    } else if (at == HEADER) {
      at = ptx->nrows ? CODE : AFTER;
    } else if (at == BEFORE && n == 1 && s[0] == '}') {
      at = HEADER;
    }
    if (nl) lc_buf_putc(out, '\n');
    s = nl ? nl + 1 : s + n;
  }
  lc_buf_fini(&b);
}
