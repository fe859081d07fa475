/* lint.c - structural mistakes in Hopper-era synchronisation (litmus-check
 * --lint; docs/hopper.md "Lints").
 * SPDX-License-Identifier: MIT
 *
 * Four rules, after the structural checks a compiler's verifier makes
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
    if (e->kind != LX_EV_READ || !lx_has(e, LX_T_MB) || !e->instr || e->instr->kind != LT_I_MBAR) continue;
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
  if (v.n) qsort(v.v, v.n, sizeof *v.v, by_position);
  *out = v.v;
  return v.n;
}

void lx_lints_free(lx_lint *l, size_t n) {
  for (size_t i = 0; i < n; i++) free(l[i].message);
  free(l);
}
