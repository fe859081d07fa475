/* lint.c - structural mistakes in Hopper-era synchronisation (litmus-check
 * --lint; docs/hopper.md "Lints").
 * SPDX-License-Identifier: MIT
 *
 * Rules after the structural checks a compiler's verifier makes
 * (../shared/sources/tileiras-sync-semantics.txt, "Race Patterns and the
 * Verifier") and the PTX ISA's restrictions:
 *   scope-too-narrow      a .cta (.cluster) strong access to a global location
 *                         that threads of another CTA (cluster) also access
 *   expect-tx-unpaid      an mbarrier expects more transaction bytes than the
 *                         copies and complete_tx naming it ever pay
 *   missing-proxy-fence   a bulk copy (async proxy) accesses a location the
 *                         same thread wrote with generic stores, with no
 *                         fence.proxy.async between them
 *   remote-mbarrier-wait  a test_wait/try_wait on another CTA's mbarrier (only
 *                         arrives and transaction counts may be remote)
 * and, for named CTA barriers (PTX ISA, "Parallel Synchronization and
 * Communication Instructions: bar, barrier"):
 *   barrier-count-mismatch  threads at one barrier give different counts
 *   barrier-count-unmet     a bar.sync waits for more threads than its CTA
 *                           ever brings there
 *   arrive-without-count    a bar.arrive with no count (the ISA requires one)
 *   arrive-never-waited     a bar.arrive at a barrier no thread of its CTA
 *                           waits at
 *   cta-barrier-across-ctas threads of two CTAs, each alone in its CTA at a
 *                           barrier, as if it joined them
 * They read the lowered program, so each unrolled copy of an instruction is
 * seen; a finding is reported once per instruction.  They prove nothing:
 * the model check says what may happen.
 */
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"

typedef LC_VEC(lx_lint) lint_vec;

static bool seen(const lint_vec *v, const char *rule, lc_loc at) {
  for (size_t i = 0; i < v->n; i++)
    if (strcmp(v->v[i].rule, rule) == 0 && v->v[i].at.line == at.line && v->v[i].at.col == at.col) return true;
  return false;
}

static void add(lint_vec *v, const char *rule, lc_loc at, lc_buf *msg) {
  if (seen(v, rule, at)) {
    lc_buf_fini(msg);
    return;
  }
  lx_lint l = {rule, at, lc_buf_take(msg)};
  lc_buf_fini(msg);
  lc_vec_push(v, l);
}

static bool is_access(const lx_event *e) {
  return (e->kind == LX_EV_READ || e->kind == LX_EV_WRITE) && e->thread >= 0;
}

static void scope_too_narrow(const lx_program *p, lint_vec *out) {
  for (size_t i = p->ninit; i < p->nevents; i++) {
    const lx_event *e = &p->events[i];
    if (!is_access(e) || lx_has(e, LX_T_MB) || lx_has(e, LX_T_SHARED)) continue;
    if (e->scope != LT_SCOPE_CTA && e->scope != LT_SCOPE_CLUSTER) continue;
    const lx_thread *te = &p->threads[e->thread];
    for (size_t j = p->ninit; j < p->nevents; j++) {
      const lx_event *f = &p->events[j];
      if (!is_access(f) || f->ploc != e->ploc) continue;
      const lx_thread *tf = &p->threads[f->thread];
      bool outside = e->scope == LT_SCOPE_CTA ? tf->cta != te->cta || tf->gpu != te->gpu
                                              : tf->cluster != te->cluster || tf->gpu != te->gpu;
      if (!outside) continue;
      lc_buf m;
      lc_buf_init(&m);
      lc_buf_printf(&m, ".%s access to the global location %s, which P%d (CTA %d) also accesses: its scope "
                    "does not include that thread; widen it to .%s", lt_scope_name(e->scope),
                    p->plocs[e->ploc].name, tf->id, tf->cta,
                    e->scope == LT_SCOPE_CTA && tf->cluster == te->cluster && tf->gpu == te->gpu ? "cluster" : "gpu");
      add(out, "scope-too-narrow", e->at, &m);
      break;
    }
  }
}

/* Per mbarrier (physical location): the transaction bytes its expect_tx and
 * arrive.expect_tx instructions announce, and those complete_tx and bulk
 * copies pay, each instruction of each thread counted once. */
static void expect_tx_unpaid(const lx_program *p, lint_vec *out) {
  for (size_t l = 0; l < p->nplocs; l++) {
    int64_t expected = 0, paid = 0;
    const lx_event *first = NULL;
    for (size_t i = p->ninit; i < p->nevents; i++) {
      const lx_event *e = &p->events[i];
      if (e->ploc != (int)l || e->kind != LX_EV_WRITE || !lx_has(e, LX_T_MB) || !e->instr) continue;
      bool again = false;   /* the same instruction of the same thread, on another path */
      for (size_t k = p->ninit; k < i && !again; k++)
        again = p->events[k].instr == e->instr && p->events[k].thread == e->thread && p->events[k].ploc == e->ploc &&
                p->events[k].kind == LX_EV_WRITE;
      if (again) continue;
      const lt_instr *in = e->instr;
      int64_t n = in->a.kind == LT_OPND_IMM ? in->a.imm : 0;
      if (in->kind == LT_I_BULK) {
        paid += n;
      } else if (in->kind == LT_I_MBAR && in->mbar == LT_MB_COMPLETE_TX) {
        paid += n;
      } else if (in->kind == LT_I_MBAR && (in->mbar == LT_MB_EXPECT_TX || in->mbar == LT_MB_ARRIVE_EXPECT_TX)) {
        expected += n;
        if (!first) first = e;
      }
    }
    if (!first || expected <= paid) continue;
    lc_buf m;
    lc_buf_init(&m);
    lc_buf_printf(&m, "mbarrier %s expects %lld transaction bytes, but the bulk copies and complete_tx that "
                  "name it pay %lld: its phase never completes", p->plocs[l].name, (long long)expected,
                  (long long)paid);
    add(out, "expect-tx-unpaid", first->at, &m);
  }
}

/* Does proxy fence f act on accesses in space s (fence.proxy.async with no
 * space acts on all)? */
static bool fence_covers(const lx_event *f, const lx_event *a) {
  if (lx_has(f, LX_T_GLOBAL)) return lx_has(a, LX_T_GLOBAL);
  if (lx_has(f, LX_T_SHARED)) return lx_has(a, LX_T_SHARED);
  return true;
}

static void missing_proxy_fence(const lx_program *p, lint_vec *out) {
  for (size_t pi = 0; pi < p->npaths; pi++) {
    const lx_path *path = &p->paths[pi];
    for (size_t i = 0; i < path->nevents; i++) {
      const lx_event *a = &p->events[path->events[i]];
      if (!is_access(a) || !lx_has(a, LX_T_ASYNC)) continue;
      /* the latest generic write to a's location before it, and whether an
       * async proxy fence acting on it comes after that write */
      const lx_event *w = NULL;
      for (size_t j = i; j-- > 0 && !w;) {
        const lx_event *e = &p->events[path->events[j]];
        if (e->kind == LX_EV_PROXY_FENCE && lx_has(e, LX_T_ASYNC) && fence_covers(e, a)) break;
        if (e->kind == LX_EV_WRITE && lx_has(e, LX_T_GEN) && e->ploc == a->ploc) w = e;
      }
      if (!w) continue;
      lc_buf m;
      lc_buf_init(&m);
      lc_buf_printf(&m, "the bulk copy %s %s through the async proxy after the generic write at line %d, with "
                    "no fence.proxy.async between them: the copy may not see that write",
                    a->kind == LX_EV_READ ? "reads" : "writes", p->plocs[a->ploc].name, w->at.line);
      add(out, "missing-proxy-fence", a->at, &m);
    }
  }
}

static void remote_mbarrier_wait(const lx_program *p, lint_vec *out) {
  for (size_t i = p->ninit; i < p->nevents; i++) {
    const lx_event *e = &p->events[i];
    if (!lx_is_mbar_wait(e)) continue;
    const lx_loc *l = &p->locs[e->vloc];
    int cta = p->threads[e->thread].cta;
    if (l->cta < 0 || l->cta == cta) continue;
    lc_buf m;
    lc_buf_init(&m);
    lc_buf_printf(&m, "P%d waits on %s, the mbarrier of CTA %d: a thread may wait only on its own CTA's "
                  "mbarrier (remote CTAs may only arrive on it)", p->threads[e->thread].id,
                  p->plocs[e->ploc].name, l->cta);
    add(out, "remote-mbarrier-wait", e->at, &m);
  }
}

/* ---- named CTA barriers (bar.sync, bar.arrive) ---------------------------------- */

/* The events of CTA barriers, for the rules below to compare pairwise. */
typedef LC_VEC(const lx_event *) bar_vec;

static bar_vec cta_bars(const lx_program *p) {
  bar_vec v = {0};
  for (size_t i = p->ninit; i < p->nevents; i++) {
    const lx_event *e = &p->events[i];
    if ((e->kind == LX_EV_BAR_ARRIVE || e->kind == LX_EV_BAR_WAIT) && !e->bar_cluster && !e->bar_grid &&
        e->thread >= 0)
      lc_vec_push(&v, e);
  }
  return v;
}

static bool same_cta(const lx_program *p, const lx_event *a, const lx_event *b) {
  const lx_thread *x = &p->threads[a->thread], *y = &p->threads[b->thread];
  return x->cta == y->cta && x->gpu == y->gpu;
}

/* a and b may join one instance: threads of one CTA, the same number,
 * occurrence and (unless unknown) id. */
static bool may_meet(const lx_program *p, const lx_event *a, const lx_event *b) {
  return a->thread != b->thread && same_cta(p, a, b) && a->bar_n == b->bar_n && a->bar_k == b->bar_k &&
         lx_bar_same_id(a, b) != 0;
}

static const char *bar_mnemonic(const lx_event *e) {
  return e->instr->bar_arrive ? "bar.arrive" : "bar.sync";
}

/* A count as the model reads it: -1 for none (every thread of the CTA
 * that reaches the barrier), -2 for a register's value. */
static int64_t count_of(const lx_event *e) {
  if (!e->bar_count) return -1;
  return e->bar_count->kind == LX_X_CONST ? e->bar_count->c : -2;
}

static void count_text(lc_buf *b, int64_t n) {
  if (n == -1) lc_buf_puts(b, "no count (every thread of the CTA that reaches it)");
  else lc_buf_printf(b, "a count of %lld", (long long)n);
}

/* The arrival of the lowest-numbered thread before e's at e's instance
 * (ids known equal), or NULL. */
static const lx_event *first_at(const lx_program *p, const bar_vec *v, const lx_event *e) {
  const lx_event *f = NULL;
  for (size_t j = 0; j < v->n; j++) {
    const lx_event *g = v->v[j];
    if (g->kind == LX_EV_BAR_ARRIVE && g->thread < e->thread && may_meet(p, e, g) && lx_bar_same_id(e, g) == 1 &&
        (!f || g->thread < f->thread))
      f = g;
  }
  return f;
}

/* Two threads at one instance with different counts (a count or none):
 * the count is the barrier's size, not the thread's (PTX ISA, "bar,
 * barrier": "Operand b specifies the number of threads participating in
 * the barrier"), so one barrier has one count.  Each thread is compared
 * with the first thread there, so that the thread out of step is the one
 * reported. */
static void count_mismatch(const lx_program *p, const bar_vec *v, lint_vec *out) {
  for (size_t i = 0; i < v->n; i++) {
    const lx_event *e = v->v[i];
    if (e->kind != LX_EV_BAR_ARRIVE || count_of(e) == -2) continue;
    const lx_event *f = first_at(p, v, e);
    if (!f || count_of(f) == -2 || count_of(f) == count_of(e)) continue;
    lc_buf m;
    lc_buf_init(&m);
    lc_buf_printf(&m, "P%d's %s at ", p->threads[e->thread].id, bar_mnemonic(e));
    lx_bar_name(&m, e);
    lc_buf_puts(&m, " gives ");
    count_text(&m, count_of(e));
    lc_buf_printf(&m, ", but P%d's at line %d gives ", p->threads[f->thread].id, f->at.line);
    count_text(&m, count_of(f));
    lc_buf_puts(&m, ": the count is the barrier's size, so every thread at it should give the same");
    add(out, "barrier-count-mismatch", e->at, &m);
  }
}

/* The threads of w's CTA, w's own included, that may arrive at w's
 * instance on some path. */
static size_t reaching(const lx_program *p, const bar_vec *v, const lx_event *w, bool *who) {
  memset(who, 0, p->nthreads * sizeof *who);
  who[w->thread] = true;
  for (size_t j = 0; j < v->n; j++)
    if (v->v[j]->kind == LX_EV_BAR_ARRIVE && may_meet(p, w, v->v[j])) who[v->v[j]->thread] = true;
  size_t n = 0;
  for (size_t t = 0; t < p->nthreads; t++) n += who[t];
  return n;
}

/* Does every copy of e's instruction (in the unrolled paths of its thread)
 * wait for more threads than may arrive? */
static bool never_met(const lx_program *p, const bar_vec *v, const lx_event *e, bool *who) {
  for (size_t j = 0; j < v->n; j++) {
    const lx_event *c = v->v[j];
    if (c->kind != LX_EV_BAR_WAIT || c->instr != e->instr || c->thread != e->thread) continue;
    if ((int64_t)reaching(p, v, c, who) >= count_of(c)) return false;
  }
  return true;
}

/* A wait whose count exceeds the threads of its CTA that ever arrive at
 * it.  Each thread of a test is one arrival, as in the model (it releases
 * a wait once `count` threads arrived), whatever a thread stands for. */
static void count_unmet(const lx_program *p, const bar_vec *v, lint_vec *out) {
  bool *who = lc_xcalloc(p->nthreads, sizeof *who);
  for (size_t i = 0; i < v->n; i++) {
    const lx_event *w = v->v[i];
    if (w->kind != LX_EV_BAR_WAIT || count_of(w) < 0 || !never_met(p, v, w, who)) continue;
    size_t n = reaching(p, v, w, who);
    lc_buf m;
    lc_buf_init(&m);
    lc_buf_printf(&m, "P%d's bar.sync at ", p->threads[w->thread].id);
    lx_bar_name(&m, w);
    lc_buf_printf(&m, " waits for %lld threads, but only %zu thread%s of CTA %d ever arrive%s there (",
                  (long long)count_of(w), n, n == 1 ? "" : "s", p->threads[w->thread].cta, n == 1 ? "s" : "");
    for (size_t t = 0, k = 0; t < p->nthreads; t++)
      if (who[t]) lc_buf_printf(&m, "%sP%d", k++ ? ", " : "", p->threads[t].id);
    lc_buf_puts(&m, "; each thread of a test is one arrival): it is never released");
    add(out, "barrier-count-unmet", w->at, &m);
  }
  free(who);
}

static void arrive_without_count(const lx_program *p, const bar_vec *v, lint_vec *out) {
  for (size_t i = 0; i < v->n; i++) {
    const lx_event *e = v->v[i];
    if (!e->instr->bar_arrive || e->bar_count) continue;
    lc_buf m;
    lc_buf_init(&m);
    lc_buf_printf(&m, "P%d's bar.arrive at ", p->threads[e->thread].id);
    lx_bar_name(&m, e);
    lc_buf_puts(&m, " has no thread count, which the PTX ISA requires of bar.arrive (bar{.cta}.arrive a, b): "
                "write it as the third operand, bar.cta.arrive n, id, count");
    add(out, "arrive-without-count", e->at, &m);
  }
}

/* Does some thread of e's CTA wait at e's instance (an unknown id may be
 * e's)? */
static bool waited(const lx_program *p, const bar_vec *v, const lx_event *e) {
  for (size_t j = 0; j < v->n; j++)
    if (v->v[j]->kind == LX_EV_BAR_WAIT && may_meet(p, e, v->v[j])) return true;
  return false;
}

/* A bar.arrive whose every copy arrives where no thread of its CTA waits:
 * a loop's later copies may go unwaited as long as one copy is waited. */
static void arrive_never_waited(const lx_program *p, const bar_vec *v, lint_vec *out) {
  for (size_t i = 0; i < v->n; i++) {
    const lx_event *e = v->v[i];
    if (!e->instr->bar_arrive) continue;
    bool some = false;
    for (size_t j = 0; j < v->n && !some; j++)
      some = v->v[j]->instr == e->instr && v->v[j]->thread == e->thread && waited(p, v, v->v[j]);
    if (some) continue;
    lc_buf m;
    lc_buf_init(&m);
    lc_buf_printf(&m, "P%d arrives at ", p->threads[e->thread].id);
    lx_bar_name(&m, e);
    lc_buf_printf(&m, ", but no thread of CTA %d waits there (bar.sync): the arrival releases no one and "
                  "orders nothing", p->threads[e->thread].cta);
    add(out, "arrive-never-waited", e->at, &m);
  }
}

/* Does a thread of e's CTA other than e's use e's barrier (number and,
 * unless unknown, id; any occurrence)? */
static bool shared_in_cta(const lx_program *p, const bar_vec *v, const lx_event *e) {
  for (size_t j = 0; j < v->n; j++) {
    const lx_event *f = v->v[j];
    if (f->thread != e->thread && same_cta(p, e, f) && f->bar_n == e->bar_n && lx_bar_same_id(e, f) != 0) return true;
  }
  return false;
}

/* Two threads of different CTAs, each alone in its CTA at a barrier of one
 * number and id, as if it joined them: each CTA has its own barriers, so
 * they do not meet.  A thread alone in its CTA at a barrier that a
 * CTA-mate pair of another CTA also uses (the corpus' XF-Barrier: one
 * thread stands for its CTA) relies on nothing. */
static void across_ctas(const lx_program *p, const bar_vec *v, lint_vec *out) {
  for (size_t i = 0; i < v->n; i++) {
    const lx_event *e = v->v[i];
    if (e->kind != LX_EV_BAR_ARRIVE || shared_in_cta(p, v, e)) continue;
    for (size_t j = 0; j < v->n; j++) {
      const lx_event *f = v->v[j];
      if (same_cta(p, e, f) || f->bar_n != e->bar_n || lx_bar_same_id(e, f) != 1 || shared_in_cta(p, v, f)) continue;
      const lx_thread *te = &p->threads[e->thread], *tf = &p->threads[f->thread];
      lc_buf m;
      lc_buf_init(&m);
      lc_buf_printf(&m, "P%d is the only thread of CTA %d at ", te->id, te->cta);
      lx_bar_name(&m, e);
      lc_buf_printf(&m, ", which P%d uses in CTA %d: each CTA has its own barriers, so they never meet there "
                    "(threads of different CTAs synchronise with barrier.cluster or memory)", tf->id, tf->cta);
      add(out, "cta-barrier-across-ctas", e->at, &m);
      break;
    }
  }
}

static void cta_barriers(const lx_program *p, lint_vec *out) {
  bar_vec v = cta_bars(p);
  count_mismatch(p, &v, out);
  count_unmet(p, &v, out);
  arrive_without_count(p, &v, out);
  arrive_never_waited(p, &v, out);
  across_ctas(p, &v, out);
  free(v.v);
}

static int by_position(const void *a, const void *b) {
  const lx_lint *x = a, *y = b;
  if (x->at.line != y->at.line) return x->at.line < y->at.line ? -1 : 1;
  if (x->at.col != y->at.col) return x->at.col < y->at.col ? -1 : 1;
  return strcmp(x->rule, y->rule);
}

size_t lx_lint_program(const lx_program *p, lx_lint **out) {
  lint_vec v = {0};
  scope_too_narrow(p, &v);
  expect_tx_unpaid(p, &v);
  missing_proxy_fence(p, &v);
  remote_mbarrier_wait(p, &v);
  cta_barriers(p, &v);
  if (v.n) qsort(v.v, v.n, sizeof *v.v, by_position);
  *out = v.v;
  return v.n;
}

void lx_lints_free(lx_lint *l, size_t n) {
  for (size_t i = 0; i < n; i++) free(l[i].message);
  free(l);
}
