/* static.c - the relations a lowered program fixes before any engine runs:
 * program order, locations, dependencies, placement and scope inclusion,
 * and the values each location can hold.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/internal.h"
#include "litmus/cpp_ast.h"

static const char *const tag_names[LX_NTAGS] = {
  [LX_T_IW] = "IW", [LX_T_R] = "R", [LX_T_W] = "W", [LX_T_F] = "F", [LX_T_PF] = "PF",
  [LX_T_AF] = "AF", [LX_T_B] = "B", [LX_T_A] = "A", [LX_T_RED] = "RED",
  [LX_T_WEAK] = "WEAK", [LX_T_RLX] = "RLX", [LX_T_ACQ] = "ACQ", [LX_T_REL] = "REL",
  [LX_T_ACQ_REL] = "ACQ_REL", [LX_T_SC] = "SC", [LX_T_VOL] = "VOL",
  [LX_T_CTA] = "CTA", [LX_T_CLUSTER] = "CLUSTER", [LX_T_GPU] = "GPU", [LX_T_SYS] = "SYS",
  [LX_T_GEN] = "GEN", [LX_T_TEX] = "TEX", [LX_T_SUR] = "SUR", [LX_T_CON] = "CON",
  [LX_T_GLOBAL] = "GLOBAL", [LX_T_SHARED] = "SHARED", [LX_T_ASYNC] = "ASYNC", [LX_T_MB] = "MB",
  [LX_T_AO] = "AO", [LX_T_REMOTE] = "REMOTE",
};

const char *lx_tag_name(lx_tag t) { return t < LX_NTAGS ? tag_names[t] : "?"; }

bool lx_tag_lookup(const char *name, lx_tag *t) {
  assert(name && t);
  for (int i = 0; i < LX_NTAGS; i++)
    if (strcmp(tag_names[i], name) == 0) {
      *t = (lx_tag)i;
      return true;
    }
  return false;
}

static bool is_mem(const lx_event *e) { return e->kind == LX_EV_READ || e->kind == LX_EV_WRITE; }

/* Does the scope of a include the thread of b?  A weak event's scope is its
 * own thread (weak accesses carry no .scope; PTX ISA 8.5, Scope); an
 * initial write includes nobody and is in nobody's scope. */
static bool includes(const lx_program *p, const lx_event *a, const lx_event *b) {
  if (a->thread < 0 || b->thread < 0) return false;
  const lx_thread *ta = &p->threads[a->thread], *tb = &p->threads[b->thread];
  switch (a->scope) {
  case LT_SCOPE_NONE: return a->thread == b->thread;
  case LT_SCOPE_CTA: return ta->gpu == tb->gpu && ta->cta == tb->cta;
  case LT_SCOPE_CLUSTER: return ta->gpu == tb->gpu && ta->cluster == tb->cluster;
  case LT_SCOPE_GPU: return ta->gpu == tb->gpu;
  case LT_SCOPE_SYS: return true;
  }
  return false;
}

static bool expr_uses(const lx_expr *e, int event) {
  if (!e) return false;
  switch (e->kind) {
  case LX_X_CONST: return false;
  case LX_X_READ: return e->event == event;
  case LX_X_BIN: return expr_uses(e->a, event) || expr_uses(e->b, event);
  }
  return false;
}

/* Program order and issue order on one path, a before b (docs/hopper.md,
 * "The async proxy").  The events of a bulk copy (aop >= 0) are performed
 * by the async proxy: in program order among themselves, after the
 * instructions before the copy only in issue order (iss), which the model
 * does not chain into causality, and before the thread's later events
 * only from the wait_group that waits for them on (done_pos). */
static void path_order(lx_program *p, const lx_event *a, const lx_event *b) {
  size_t i = (size_t)a->id, j = (size_t)b->id;
  bool mine = a->aop < 0 || b->pos >= a->done_pos;   /* a is the thread's, or complete at b */
  if (b->aop < 0 ? mine : a->aop == b->aop) rel_add(p->po, i, j);
  else if (b->aop >= 0 && mine) rel_add(p->iss, i, j);
}

bool lx_unsequenced(const lx_event *a, const lx_event *b) {
  return a->path == b->path && a->path >= 0 && a->seq_inst && a->seq_inst == b->seq_inst &&
         lt_seq_unsequenced(a->instr->seq, b->instr->seq);
}

static void thread_relations(lx_program *p, const lx_event *a, const lx_event *b) {
  size_t i = (size_t)a->id, j = (size_t)b->id;
  const lx_thread *ta = &p->threads[a->thread], *tb = &p->threads[b->thread];
  if (ta->gpu == tb->gpu) rel_add(p->sgpu, i, j);
  if (ta->gpu == tb->gpu && ta->cluster == tb->cluster) rel_add(p->scluster, i, j);
  if (ta->gpu == tb->gpu && ta->cta == tb->cta) rel_add(p->scta, i, j);
  if (a->thread == b->thread) {
    rel_add(p->intra, i, j);
    if (a->path != b->path) rel_add(p->exclusive, i, j);
    /* unsequenced events of one evaluation of a C++ full-expression are
     * not in po (herd's po for C is iico+ | po-strict, and an operator's
     * operands share no iico: herd/CSem.ml, memUtils.ml po_iico) */
    else if (a->pos < b->pos && !lx_unsequenced(a, b)) path_order(p, a, b);
  }
}

/* data: the value written (or a register stored) is computed from what a
 * read returned; ctrl: the read feeds a branch that comes before b. */
static void dependencies(lx_program *p, const lx_event *a, const lx_event *b) {
  if (a->kind != LX_EV_READ || a->path != b->path || a->pos >= b->pos) return;
  /* neither operand of an operator feeds the other, nor does a branch
   * inside one (&&, ?:) decide whether the other runs */
  if (lx_unsequenced(a, b)) return;
  if (b->kind == LX_EV_WRITE && expr_uses(b->value, a->id)) rel_add(p->data, (size_t)a->id, (size_t)b->id);
  const lx_path *path = &p->paths[a->path];
  for (size_t c = 0; c < path->nconds; c++) {
    const lx_cond *cond = &path->conds[c];
    if (cond->branch_pos < 0 || cond->branch_pos > b->pos) continue;
    if (expr_uses(cond->a, a->id) || expr_uses(cond->b, a->id)) {
      rel_add(p->ctrl, (size_t)a->id, (size_t)b->id);
      break;
    }
  }
}

static void pair_relations(lx_program *p, const lx_event *a, const lx_event *b) {
  size_t i = (size_t)a->id, j = (size_t)b->id;
  if (a->thread >= 0 && b->thread >= 0) thread_relations(p, a, b);
  if (a->thread != b->thread || a->thread < 0) rel_add(p->ext, i, j);
  if (is_mem(a) && is_mem(b)) {
    if (a->ploc == b->ploc) rel_add(p->loc, i, j);
    if (a->va == b->va) rel_add(p->vloc, i, j);
  }
  if (includes(p, a, b)) {
    rel_add(p->incl, i, j);
    /* sr, both ways: computed here, not as incl^-1 & incl, whose bit-by-bit
     * inverse was most of the time left on 29,000 events */
    if (includes(p, b, a)) rel_add(p->sr, i, j);
  }
  if (a->rmw == b->id && a->kind == LX_EV_READ) rel_add(p->rmw, i, j);
  if (a->thread >= 0 && a->thread == b->thread) dependencies(p, a, b);
}

/* Quadratic in the events, which loops multiply path by path (a
 * 20-line test with two back edges makes 29,000), so the deadline is
 * asked row by row; false when it passed, the relations left partial
 * (the caller reports the timeout and frees the program). */
bool lx_static_relations(lx_program *p, double deadline) {
  size_t n = p->nevents;
  rel_rel **rels[] = {&p->po, &p->intra, &p->ext, &p->exclusive, &p->loc, &p->vloc, &p->rmw,
                      &p->addr, &p->data, &p->ctrl, &p->scta, &p->scluster, &p->sgpu, &p->incl, &p->sr, &p->iss};
  _Static_assert(sizeof rels / sizeof rels[0] == LX_NSTATIC, "lowering's size estimate counts these");
  for (size_t k = 0; k < LC_ARRAY_LEN(rels); k++) *rels[k] = rel_new(n);
  p->id = rel_id(n);
  p->all = rel_set_full(n);
  for (int t = 0; t < LX_NTAGS; t++) p->tagset[t] = rel_set_new(n);
  for (size_t i = 0; i < n; i++) {
    if (deadline > 0 && lc_now() > deadline) return false;
    const lx_event *a = &p->events[i];
    for (int t = 0; t < LX_NTAGS; t++)
      if (lx_has(a, (lx_tag)t)) rel_set_add(p->tagset[t], i);
    for (size_t j = 0; j < n; j++)
      if (i != j) pair_relations(p, a, &p->events[j]);
  }
  return true;
}

/* ---- freeing and printing ---------------------------------------------------------- */

void lx_program_free(lx_program *p) {
  if (!p) return;
  rel_rel *rels[] = {p->po, p->intra, p->ext, p->exclusive, p->loc, p->vloc, p->rmw, p->addr,
                     p->data, p->ctrl, p->scta, p->scluster, p->sgpu, p->incl, p->sr, p->id, p->iss};
  for (size_t k = 0; k < LC_ARRAY_LEN(rels); k++) rel_free(rels[k]);
  for (int t = 0; t < LX_NTAGS; t++) rel_set_free(p->tagset[t]);
  rel_set_free(p->all);
  lc_arena_free(p->arena);
  free(p);
}

static const char *kind_name(lx_ev_kind k) {
  switch (k) {
  case LX_EV_READ: return "R";
  case LX_EV_WRITE: return "W";
  case LX_EV_FENCE: return "F";
  case LX_EV_PROXY_FENCE: return "PF";
  case LX_EV_ALIAS_FENCE: return "AF";
  case LX_EV_BAR_ARRIVE: return "BAR.arrive";
  case LX_EV_BAR_WAIT: return "BAR.wait";
  }
  return "?";
}

static const char *op_name(lx_op op) {
  static const char *const names[] = {"+", "-", "*", "/", "%", "&", "|", "^", "min", "max",
                                      "umin", "umax", "inc", "dec", "mb_init", "mb_arrive",
                                      "mb_arrive_tx", "mb_expect", "mb_complete", "mb_drop",
                                      "mb_phase", "mb_done", "mb_done_parity", "u32", "s32"};
  return names[op];
}

static void print_expr(lc_buf *b, const lx_program *p, const lx_expr *e) {
  switch (e->kind) {
  case LX_X_CONST: lx_print_value(b, p, e->c); break;
  case LX_X_READ: lc_buf_printf(b, "v%d", e->event); break;
  case LX_X_BIN:
    lc_buf_printf(b, "%s(", op_name(e->op));
    print_expr(b, p, e->a);
    lc_buf_puts(b, ", ");
    print_expr(b, p, e->b);
    lc_buf_putc(b, ')');
    break;
  }
}

/* A C++ test's events show C++ orders and CUDA scopes (na, rlx, ...,
 * block, device); proxies and state spaces mean nothing there. */
static const char *tag_label(const lx_program *p, int t) {
  static const char *const cpp[LX_NTAGS] = {
    [LX_T_IW] = "IW", [LX_T_F] = "F", [LX_T_B] = "B", [LX_T_A] = "A",
    [LX_T_WEAK] = "na", [LX_T_RLX] = "rlx", [LX_T_ACQ] = "acq", [LX_T_REL] = "rel",
    [LX_T_ACQ_REL] = "acq_rel", [LX_T_SC] = "sc", [LX_T_CTA] = "block", [LX_T_CLUSTER] = "cluster",
    [LX_T_GPU] = "device", [LX_T_SYS] = "system", [LX_T_VOL] = "volatile"};
  return p->test->cpp ? cpp[t] : tag_names[t];
}

int lx_bar_same_id(const lx_event *a, const lx_event *b) {
  if (!a->bar_id || !b->bar_id) return !a->bar_id == !b->bar_id;
  if (a->bar_id->kind != LX_X_CONST || b->bar_id->kind != LX_X_CONST) return -1;
  return a->bar_id->c == b->bar_id->c;
}

void lx_bar_name(lc_buf *b, const lx_event *e) {
  if (e->bar_grid) {
    lc_buf_puts(b, "the grid's barrier (this_grid().sync())");
    return;
  }
  lc_buf_printf(b, "barrier %d", e->bar_n);
  const lt_operand *id = &e->instr->b;
  if (!e->bar_id) return;
  if (id->kind == LT_OPND_IMM) lc_buf_printf(b, " (id %lld)", (long long)id->imm);
  else lc_buf_printf(b, " (id r%d)", id->reg);
}

void lx_event_print(lc_buf *b, const lx_program *p, const lx_event *e) {
  assert(b && p && e && e >= p->events && e < p->events + p->nevents);
  lc_buf_printf(b, "e%d %s", e->id, kind_name(e->kind));
  for (int t = 0; t < LX_NTAGS; t++)
    if (lx_has(e, (lx_tag)t) && t != LX_T_R && t != LX_T_W && tag_label(p, t))
      lc_buf_printf(b, " %s", tag_label(p, t));
  if (e->vloc >= 0) lc_buf_printf(b, " [%s]", p->locs[e->vloc].name);
  if (e->vloc >= 0 && p->locs[e->vloc].ploc != p->locs[p->plocs[e->ploc].primary].ploc)
    lc_buf_printf(b, " (=%s)", p->plocs[e->ploc].name);
  if (e->kind == LX_EV_READ) lc_buf_printf(b, " -> v%d", e->id);
  if (e->value) {
    lc_buf_puts(b, " := ");
    print_expr(b, p, e->value);
  }
  if (e->rmw >= 0) lc_buf_printf(b, " rmw e%d", e->rmw);
  if (e->kind == LX_EV_BAR_ARRIVE || e->kind == LX_EV_BAR_WAIT) {
    lc_buf_printf(b, " n=%d k=%d", e->bar_n, e->bar_k);
    if (e->bar_id) {
      lc_buf_puts(b, " id=");
      print_expr(b, p, e->bar_id);
    }
    if (e->bar_count) {
      lc_buf_puts(b, " count=");
      print_expr(b, p, e->bar_count);
    }
  }
}

static void print_path(lc_buf *b, const lx_program *p, size_t pi) {
  const lx_path *path = &p->paths[pi];
  const lx_thread *t = &p->threads[path->thread];
  lc_buf_printf(b, "  path %zu%s\n", pi, path->cut ? " (cut by the unroll bound)" : "");
  for (size_t c = 0; c < path->nconds; c++) {
    lc_buf_puts(b, "    if ");
    print_expr(b, p, path->conds[c].a);
    lc_buf_printf(b, " %s ", lt_cmp_name(path->conds[c].cmp));
    print_expr(b, p, path->conds[c].b);
    lc_buf_putc(b, '\n');
  }
  for (size_t i = 0; i < path->nevents; i++) {
    const lx_event *e = &p->events[path->events[i]];
    lc_buf_puts(b, "    ");
    lx_event_print(b, p, e);
    /* the earlier events po leaves unordered with it (C++ operands) */
    bool first = true;
    for (size_t k = 0; k < i; k++)
      if (lx_unsequenced(&p->events[path->events[k]], e)) {
        lc_buf_printf(b, "%se%d", first ? " unseq " : " ", path->events[k]);
        first = false;
      }
    lc_buf_putc(b, '\n');
  }
  const struct lt_cpp_thread *ct = p->test->cpp ? &p->test->cpp->threads[path->thread] : NULL;
  for (size_t r = 0; r < t->nregs; r++) {
    if (ct && (size_t)t->regs[r] >= ct->nlocals) continue;   /* a C++ temporary */
    if (ct)
      lc_buf_printf(b, "    %s = ", ct->locals[t->regs[r]]);
    else
      lc_buf_printf(b, "    r%d = ", t->regs[r]);
    print_expr(b, p, path->regs[r]);
    lc_buf_putc(b, '\n');
  }
}

void lx_program_print(lc_buf *b, const lx_program *p) {
  assert(b && p);
  lc_buf_printf(b, "Test %s: %zu events, %zu paths\n", p->test->name, p->nevents, p->npaths);
  for (size_t l = 0; l < p->nplocs; l++) {
    lc_buf_printf(b, "location %s: e%d := ", p->plocs[l].name, p->plocs[l].init_event);
    lx_print_value(b, p, p->plocs[l].init);
    lc_buf_puts(b, "; values {");
    for (size_t v = 0; v < p->plocs[l].nvalues; v++) {
      lc_buf_puts(b, v ? ", " : "");
      lx_print_value(b, p, p->plocs[l].values[v]);
    }
    lc_buf_puts(b, p->plocs[l].values_unbounded ? ", ...}\n" : "}\n");
  }
  for (size_t i = 0; i < p->nthreads; i++) {
    const lx_thread *t = &p->threads[i];
    lc_buf_printf(b, "P%d @ cta %d, cluster %d, gpu %d\n", t->id, t->cta, t->cluster, t->gpu);
    for (size_t k = 0; k < t->npaths; k++) print_path(b, p, (size_t)t->paths[k]);
  }
  lc_buf_puts(b, "observables:");
  for (size_t o = 0; o < p->nobs; o++) lc_buf_printf(b, " %s%s", p->obs[o].label, p->obs[o].shown ? "" : "(filter)");
  lc_buf_putc(b, '\n');
}
