/* report_cpp.c - events and data races of a C++ test in C++ words.
 * SPDX-License-Identifier: MIT
 *
 * A racy pair of a C++ test is undefined behaviour (cuda-cpp.cat), and
 * the user needs to know which rule it breaks: a non-atomic access
 * unordered by happens-before, or two atomics one of whose scopes leaves
 * out the other's thread ("block-scope store in CTA 0, read from CTA 1").
 */
#include "report/report.h"

#include <assert.h>

#include "litmus/cpp_ast.h"

static const char *order_name(const lx_event *e) {
  if (lx_has(e, LX_T_SC)) return "seq_cst";
  if (lx_has(e, LX_T_ACQ_REL)) return "acq_rel";
  if (lx_has(e, LX_T_ACQ)) return "acquire";
  if (lx_has(e, LX_T_REL)) return "release";
  return "relaxed";
}

static bool atomic_access(const lx_event *e) { return !lx_has(e, LX_T_WEAK); }

/* The scope an atomic access was written with, in CUDA's words. */
static const char *scope_word(const lx_event *e) {
  switch (e->scope) {
  case LT_SCOPE_CTA: return "block";
  case LT_SCOPE_CLUSTER: return "cluster";
  case LT_SCOPE_GPU: return "device";
  case LT_SCOPE_SYS: return "system";
  default: return "thread";
  }
}

static const char *access_noun(const lx_event *e) {
  if (e->rmw >= 0) return "RMW";
  return e->kind == LX_EV_READ ? "load" : "store";
}

void report_cpp_event(lc_buf *out, const lx_program *p, int ev) {
  assert(out && p && ev >= 0 && (size_t)ev < p->nevents);
  const lx_event *e = &p->events[ev];
  const char *loc = e->ploc >= 0 ? p->plocs[e->ploc].name : "?";
  /* element 0 of an array as the question writes it (lt_cpp_array_head) */
  const char *elem0 = lt_cpp_array_head(p->test, loc) ? "[0]" : "";
  lc_buf_printf(out, "P%d%s line %d: ", p->threads[e->thread].id, lt_thread_label(p->test, (size_t)e->thread),
                e->at.line);
  if (e->kind != LX_EV_READ && e->kind != LX_EV_WRITE) {
    lc_buf_puts(out, e->kind == LX_EV_FENCE ? "fence" : "__syncthreads()");
    return;
  }
  if (!atomic_access(e)) {
    lc_buf_printf(out, "non-atomic %s %s%s", e->kind == LX_EV_READ ? "read of" : "write to", loc, elem0);
    return;
  }
  if (lx_has(e, LX_T_VOL)) {   /* through a volatile int* */
    lc_buf_printf(out, "volatile %s %s%s", e->kind == LX_EV_READ ? "read of" : "write to", loc, elem0);
    return;
  }
  const char *half = e->rmw < 0 ? "" : e->kind == LX_EV_READ ? " (its read)" : " (its write)";
  const char *prep = e->rmw >= 0 ? "on" : e->kind == LX_EV_READ ? "of" : "to";
  lc_buf_printf(out, "%s-scope %s %s%s %s %s%s", scope_word(e), order_name(e), access_noun(e), half,
                prep, loc, elem0);
}

/* Where a thread is, at the level of a scope: "CTA 0", "GPU 1". */
static void unit(lc_buf *out, const lx_program *p, const lx_event *e, const lx_event *of) {
  const lx_thread *t = &p->threads[of->thread];
  switch (e->scope) {
  case LT_SCOPE_CTA: lc_buf_printf(out, "CTA %d", t->cta); break;
  case LT_SCOPE_CLUSTER: lc_buf_printf(out, "cluster %d", t->cluster); break;
  case LT_SCOPE_GPU: lc_buf_printf(out, "GPU %d", t->gpu); break;
  default: lc_buf_printf(out, "thread P%d", t->id); break;
  }
}

/* Does the scope of a include the thread of b?  (static.c's `incl`) */
static bool includes(const lx_program *p, const lx_event *a, const lx_event *b) {
  const lx_thread *ta = &p->threads[a->thread], *tb = &p->threads[b->thread];
  switch (a->scope) {
  case LT_SCOPE_CTA: return ta->gpu == tb->gpu && ta->cta == tb->cta;
  case LT_SCOPE_CLUSTER: return ta->gpu == tb->gpu && ta->cluster == tb->cluster;
  case LT_SCOPE_GPU: return ta->gpu == tb->gpu;
  case LT_SCOPE_SYS: return true;
  default: return a->thread == b->thread;
  }
}

static const char *verb(const lx_event *e) {
  if (e->rmw >= 0) return "updated";
  return e->kind == LX_EV_READ ? "read" : "written";
}

void report_cpp_race_reason(lc_buf *out, const lx_program *p, int ia, int ib) {
  assert(out && p && ia >= 0 && (size_t)ia < p->nevents && ib >= 0 && (size_t)ib < p->nevents);
  const lx_event *a = &p->events[ia], *b = &p->events[ib];
  if (a->thread < 0 || b->thread < 0) return;
  if (!atomic_access(a) || !atomic_access(b)) {
    lc_buf_printf(out, " (%s, not ordered by happens-before)",
                  !atomic_access(a) && !atomic_access(b) ? "both non-atomic" : "one non-atomic");
    return;
  }
  if (includes(p, a, b) && !includes(p, b, a)) {   /* a: the scope that leaves out the other */
    const lx_event *t = a;
    a = b;
    b = t;
  }
  if (includes(p, a, b)) {   /* only volatile under --set volatile=iso */
    if (lx_has(a, LX_T_VOL) || lx_has(b, LX_T_VOL))
      lc_buf_printf(out, " (%s volatile, which is not atomic under volatile=iso; not ordered by "
                    "happens-before)", lx_has(a, LX_T_VOL) && lx_has(b, LX_T_VOL) ? "both" : "one");
    else
      lc_buf_puts(out, " (not ordered by happens-before)");
    return;
  }
  lc_buf_printf(out, " (%s-scope %s in ", scope_word(a), access_noun(a));
  unit(out, p, a, a);
  lc_buf_printf(out, ", %s from ", verb(b));
  unit(out, p, a, b);
  lc_buf_putc(out, ')');
}

/* ---- an event's C++ source ---------------------------------------------------------- */

static bool same_place(lc_loc a, lc_loc b) { return a.line == b.line && a.col == b.col; }

/* The atomic operation or non-atomic read in e written at `at`. */
static const lt_cexpr *expr_at(const lt_cexpr *e, lc_loc at) {
  if (!e) return NULL;
  if ((e->kind == LT_CE_ATOMIC || e->kind == LT_CE_DEREF) && same_place(e->at, at)) return e;
  const lt_cexpr *in[] = {e->a, e->b, e->c};
  if (e->kind == LT_CE_ATOMIC) {
    const lt_catomic *a = &e->atomic;
    const lt_cexpr *ops[] = {a->obj, a->val, a->expected, a->desired};
    for (size_t i = 0; i < 4; i++) {
      const lt_cexpr *x = expr_at(ops[i], at);
      if (x) return x;
    }
    return NULL;
  }
  for (size_t i = 0; i < 3; i++) {
    const lt_cexpr *x = expr_at(in[i], at);
    if (x) return x;
  }
  return NULL;
}

/* Prints the statement or expression of b written at `at`. */
static bool print_at(lc_buf *out, const lt_test *t, int thread, const lt_cblock *b, lc_loc at) {
  for (size_t i = 0; i < b->n; i++) {
    const lt_cstmt *s = b->v[i];
    if (s->kind == LT_CS_SYNC && same_place(s->at, at)) {
      lc_buf_puts(out, s->grid ? "cooperative_groups::this_grid().sync()" : "__syncthreads()");
      return true;
    }
    if (s->kind == LT_CS_STORE && same_place(s->at, at)) {
      lc_buf_putc(out, '*');
      lt_cpp_print_expr(out, t, thread, s->ptr);
      lc_buf_puts(out, " = ");
      lt_cpp_print_expr(out, t, thread, s->e);
      return true;
    }
    const lt_cexpr *x = expr_at(s->e, at);
    if (!x && s->kind == LT_CS_STORE) x = expr_at(s->ptr, at);
    if (x) {
      lt_cpp_print_expr(out, t, thread, x);
      return true;
    }
    if (print_at(out, t, thread, &s->body, at) || print_at(out, t, thread, &s->els, at)) return true;
  }
  return false;
}

bool report_cpp_instr(lc_buf *out, const lx_program *p, int ev) {
  assert(out && p && ev >= 0 && (size_t)ev < p->nevents);
  const lx_event *e = &p->events[ev];
  const lt_test *t = p->test;
  if (!t->cpp || e->thread < 0 || (size_t)e->thread >= t->nthreads) return false;
  return print_at(out, t, e->thread, &t->cpp->threads[e->thread].body, e->at);
}
