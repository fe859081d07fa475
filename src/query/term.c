/* term.c - "can this test hang?" (docs/termination.md).
 * SPDX-License-Identifier: MIT
 *
 * The program is lowered with blocking barriers (and, when a progress
 * model other than fair is asked, with paths of threads the scheduler
 * stops for good: src/exec/lower_progress.c) and rewritten by lx_term_prepare so
 * that its final states say, per thread, which path ran, whether the last
 * iteration of a cut loop left the registers and memory as it found them,
 * and what that iteration read; and the final memory.  A spinning thread
 * is stuck when its last iteration wrote nothing (or only what its atoms
 * read), changed no register and read the values memory ends with (memory
 * fairness: later iterations read the same and spin again); a thread
 * blocked at a barrier is stuck because the engines only allow such a path
 * when the barrier's quorum cannot be met.  Whether a state is a hang
 * under a progress model is lc_progress_judge's call (progress.c): under
 * fair scheduling, when every thread finished or is stuck, one at least
 * stuck.
 */
#include "term.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

const char *lc_term_name(lc_term_verdict v) {
  switch (v) {
  case LC_TERM_TERMINATES: return "terminates";
  case LC_TERM_MAY_HANG: return "may not terminate";
  case LC_TERM_UNKNOWN: return "unknown";
  default: return "";
  }
}

typedef struct term_ctx {
  const lx_program *p;
  const lx_term_slots *slots;
  size_t loc_obs;
  int *cta;                 /* per thread: its CTA's rank (progress.h) */
  size_t nctas;
  int *bar_ns;              /* the barrier numbers of the program */
  size_t nbar_ns;
  size_t *reach;            /* per thread and bar_ns[j]: reach_init */
  int *pids;                /* scratch: per thread, the path of a state */
  size_t *cta_first;        /* per CTA rank: its first thread */
  int *clu;                 /* per thread: its cluster's rank (co-scheduled CTAs) */
  bool *clu_ran;            /* scratch: per cluster rank, one of its CTAs started */
} term_ctx;

static const lx_path *state_path(const term_ctx *c, const lx_val *st, size_t t) {
  return &c->p->paths[st[c->slots[t].obs]];
}

/* The paths a state's threads took (the state names them), into c->pids. */
static const int *state_pids(const term_ctx *c, const lx_val *st) {
  for (size_t t = 0; t < c->p->nthreads; t++) c->pids[t] = (int)st[c->slots[t].obs];
  return c->pids;
}

static const lx_val *iter_reads(const term_ctx *c, const lx_val *st, size_t t) {
  return &st[c->slots[t].obs + LX_TERM_READ_SLOT];
}

static lc_thread_state classify(const term_ctx *c, const lx_val *st, size_t t) {
  const lx_path *path = state_path(c, st, t);
  switch (lx_term_path_kind(c->p, path)) {
  case LX_TERM_FINISHED: return LC_TS_FINISHED;
  case LX_TERM_BLOCKED: return LC_TS_STUCK;
  case LX_TERM_EFFECTS: return LC_TS_EFFECTS;
  case LX_TERM_PAUSED: return LC_TS_PAUSED;
  case LX_TERM_SPIN: break;
  }
  if (st[c->slots[t].obs + 2] != 0) return LC_TS_EFFECTS;   /* an atom changed memory */
  int reads[256];
  size_t n = lx_term_iter_reads(c->p, path, NULL);
  if (n > LC_ARRAY_LEN(reads)) return LC_TS_EFFECTS;   /* too long to inspect: no claim either way */
  lx_term_iter_reads(c->p, path, reads);
  for (size_t i = 0; i < n; i++) {
    const lx_event *r = &c->p->events[reads[i]];
    if (iter_reads(c, st, t)[i] != st[c->loc_obs + (size_t)r->ploc]) return LC_TS_PROGRESS;
  }
  /* Memory has settled, but the iteration changed a register (a counter,
   * a back-off doubling): that is no progress towards the exit, which may
   * wait on memory alone (`while (flag == 0) i++;` with flag never
   * written spins for ever), and no repeat either: no claim either way. */
  if (st[c->slots[t].obs + 1] != 0) return LC_TS_EFFECTS;
  return LC_TS_STUCK;
}

/* A thread of a CTA the model owes nothing, stopped where the state has it. */
static void describe_paused(lc_buf *b, const lx_program *p, const lx_path *path, size_t t) {
  const lx_thread *th = &p->threads[t];
  if (!path->nevents) {
    if (p->test->thread_label) lc_buf_printf(b, "P%d%s never starts", th->id, lt_thread_label(p->test, t));
    else lc_buf_printf(b, "P%d (CTA %d) never starts", th->id, th->cta);
    return;
  }
  const lx_event *last = &p->events[path->events[path->nevents - 1]];
  if (p->test->thread_label)
    lc_buf_printf(b, "P%d%s is never scheduled again after line %d", th->id, lt_thread_label(p->test, t),
                  last->at.line);
  else
    lc_buf_printf(b, "P%d (CTA %d) is never scheduled again after line %d", th->id, th->cta, last->at.line);
}

/* An mbarrier's state in words (exec/mbar.c). */
static void mbar_state_text(lc_buf *b, lx_val v) {
  lx_mbar_state s = lx_mbar_decode(v);
  lc_buf_printf(b, "phase %u (parity %u) never completes, %u of %u arrivals and %d transaction bytes pending",
                s.phase, s.phase & 1, s.pending, s.expected, s.tx);
}

static bool is_mbar_ploc(const lx_program *p, size_t l) {
  for (size_t i = p->ninit; i < p->nevents; i++)
    if (p->events[i].ploc == (int)l && lx_has(&p->events[i], LX_T_MB)) return true;
  return false;
}

static size_t arrivals(const lx_program *p, const lx_path *path, int n) {
  size_t k = 0;
  for (size_t i = 0; i < path->nevents; i++) {
    const lx_event *e = &p->events[path->events[i]];
    k += e->kind == LX_EV_BAR_ARRIVE && e->bar_n == n;
  }
  return k;
}

/* Fills c->reach: per thread and barrier number of the program, the most
 * arrivals at it on any of the thread's paths. */
static void reach_init(term_ctx *c) {
  const lx_program *p = c->p;
  LC_VEC(int) ns = {0};
  for (size_t i = 0; i < p->nevents; i++) {
    const lx_event *e = &p->events[i];
    if (e->kind != LX_EV_BAR_ARRIVE) continue;
    size_t j = 0;
    while (j < ns.n && ns.v[j] != e->bar_n) j++;
    if (j == ns.n) lc_vec_push(&ns, e->bar_n);
  }
  c->bar_ns = ns.v;
  c->nbar_ns = ns.n;
  c->reach = lc_xcalloc(p->nthreads * ns.n, sizeof *c->reach);
  for (size_t t = 0; t < p->nthreads; t++)
    for (size_t pi = 0; pi < p->threads[t].npaths; pi++) {
      const lx_path *path = &p->paths[p->threads[t].paths[pi]];
      for (size_t j = 0; j < ns.n; j++) {
        size_t k = arrivals(p, path, ns.v[j]);
        if (k > c->reach[t * ns.n + j]) c->reach[t * ns.n + j] = k;
      }
    }
}

static void reach_fini(term_ctx *c) {
  free(c->bar_ns);
  free(c->reach);
}

static size_t reach(const term_ctx *c, size_t t, int n) {
  for (size_t j = 0; j < c->nbar_ns; j++)
    if (c->bar_ns[j] == n) return c->reach[t * c->nbar_ns + j];
  return 0;
}

/* Does thread u hold back w, the k-th wait of a CTA-mate at barrier n
 * with no count?  Such a wait is released once every thread of the CTA
 * has arrived at that instance or can no longer (docs/model-language.md,
 * as the host backend's wait_ready): u holds it when it has not made its
 * k-th arrival at n (one with another id joins another instance, and
 * frees w too), has not finished (a thread that exits releases the
 * barriers it held up: PTX ISA, exit), and one of its paths does arrive
 * k times at n: the threads that never meet the barrier are no part of it
 * (the corpus' SB+twice-bars-diff, barrier-instance-id-*). */
static bool holds(const term_ctx *c, const int *pids, size_t u, const lx_event *w) {
  const lx_path *path = &c->p->paths[pids[u]];
  return lx_term_path_kind(c->p, path) != LX_TERM_FINISHED && arrivals(c->p, path, w->bar_n) < (size_t)w->bar_k &&
         reach(c, u, w->bar_n) >= (size_t)w->bar_k;
}

/* ---- a CTA barrier never released: who it waits for ---------------------------- */

/* Whether two barrier events name one barrier.  An id held in a register
 * is known to the engines only (its value is no part of the state), so it
 * is taken to match: the witness may then list too many arrivals, never
 * too few. */
static bool same_bar_id(const lx_event *a, const lx_event *b) { return lx_bar_same_id(a, b) != 0; }

/* The arrival of path at w's barrier number and occurrence (of any id), or
 * NULL: the k-th arrival at number n joins the k-th instance. */
static const lx_event *bar_arrival(const lx_program *p, const lx_path *path, const lx_event *w) {
  for (size_t i = 0; i < path->nevents; i++) {
    const lx_event *e = &p->events[path->events[i]];
    if (e->kind == LX_EV_BAR_ARRIVE && !e->bar_cluster && e->bar_n == w->bar_n && e->bar_k == w->bar_k) return e;
  }
  return NULL;
}

static void bar_operand_text(lc_buf *b, const lt_operand *o) {
  if (o->kind == LT_OPND_IMM) lc_buf_printf(b, "%lld", (long long)o->imm);
  else lc_buf_printf(b, "r%d", o->reg);
}

/* "P0", "P0 and P1", "P0, P1 and P2", or "none", of the threads marked in in. */
static void thread_list(lc_buf *b, const lx_program *p, const bool *in) {
  size_t n = 0, k = 0;
  for (size_t u = 0; u < p->nthreads; u++) n += in[u];
  if (!n) lc_buf_puts(b, "none");
  for (size_t u = 0; u < p->nthreads; u++) {
    if (!in[u]) continue;
    lc_buf_printf(b, "%sP%d", k == 0 ? "" : k + 1 == n ? " and " : ", ", p->threads[u].id);
    k++;
  }
}

/* Per thread of t's CTA, at the instance of w where t waits: who arrived,
 * who waits there for good, with no count whom it still waits for
 * (holds), and who arrived at w's number with another id instead. */
typedef struct bar_parties {
  bool *arrived, *waiting, *missing, *elsewhere;
  size_t narrived;
} bar_parties;

static bool same_group(const term_ctx *c, size_t u, size_t t, const lx_event *w);

static void parties_init(bar_parties *bp, const term_ctx *c, const lx_val *st, size_t t, const lx_event *w) {
  const lx_program *p = c->p;
  size_t nt = p->nthreads;
  bp->arrived = lc_xcalloc(4 * nt, sizeof *bp->arrived);
  bp->waiting = bp->arrived + nt;
  bp->missing = bp->arrived + 2 * nt;
  bp->elsewhere = bp->arrived + 3 * nt;
  bp->narrived = 0;
  for (size_t u = 0; u < nt; u++) {
    if (!same_group(c, u, t, w)) continue;
    const lx_path *path = state_path(c, st, u);
    const lx_event *a = bar_arrival(p, path, w);
    bp->arrived[u] = a && same_bar_id(a, w);
    bp->elsewhere[u] = a && !bp->arrived[u];
    bp->narrived += bp->arrived[u];
    if (bp->arrived[u] && path->blocked) {
      const lx_event *v = &p->events[path->events[path->nevents - 1]];
      bp->waiting[u] = v->bar_n == w->bar_n && v->bar_k == w->bar_k && same_bar_id(v, w);
    }
    bp->missing[u] = !w->bar_count && u != t && holds(c, state_pids(c, st), u, w);
  }
}

static void parties_fini(bar_parties *bp) { free(bp->arrived); }

/* "3 threads: arrived P0 and P1 (2 of 3)", or with no count "every
 * thread of the CTA that reaches it: arrived P0". */
static void bar_quorum_text(lc_buf *b, const lx_program *p, const lx_event *w, const bar_parties *bp) {
  if (w->bar_grid) {
    lc_buf_printf(b, "every thread of the grid (%lld): arrived ", (long long)w->bar_count->c);
    thread_list(b, p, bp->arrived);
    lc_buf_printf(b, " (%zu of %lld)", bp->narrived, (long long)w->bar_count->c);
    return;
  }
  if (!w->bar_count) {
    lc_buf_puts(b, "every thread of the CTA that reaches it: arrived ");
    thread_list(b, p, bp->arrived);
    return;
  }
  bar_operand_text(b, &w->instr->c);
  lc_buf_puts(b, " threads: arrived ");
  thread_list(b, p, bp->arrived);
  lc_buf_printf(b, " (%zu of ", bp->narrived);
  bar_operand_text(b, &w->instr->c);
  lc_buf_puts(b, ")");
}

/* "P0 waits forever at barrier 1 (id 1) of CTA 0 (line 9), which expects 2
 * threads: arrived P0 (1 of 2), waiting P0, P1 arrived at barrier 1 (id 2)
 * instead";
 * a later thread waiting at the same instance is named after the first. */
static void describe_bar_wait(lc_buf *b, const term_ctx *c, const lx_val *st, size_t t, const lx_event *w) {
  const lx_program *p = c->p;
  bar_parties bp;
  parties_init(&bp, c, st, t, w);
  size_t first = 0;
  while (!bp.waiting[first]) first++;
  if (first < t) {
    lc_buf_printf(b, "P%d waits forever at the same barrier as P%d (line %d)", p->threads[t].id,
                  p->threads[first].id, w->at.line);
    parties_fini(&bp);
    return;
  }
  lc_buf_printf(b, "P%d%s waits forever at ", p->threads[t].id, lt_thread_label(p->test, t));
  lx_bar_name(b, w);
  if (w->bar_grid) lc_buf_printf(b, " (line %d), which expects ", w->at.line);
  else lc_buf_printf(b, " of CTA %d (line %d), which expects ", p->threads[t].cta, w->at.line);
  bar_quorum_text(b, p, w, &bp);
  lc_buf_puts(b, ", waiting ");
  thread_list(b, p, bp.waiting);
  if (!w->bar_count) {
    lc_buf_puts(b, ", never arriving ");
    thread_list(b, p, bp.missing);
  }
  for (size_t u = 0; u < p->nthreads; u++) {
    if (!bp.elsewhere[u]) continue;
    const lx_event *a = bar_arrival(p, state_path(c, st, u), w);
    lc_buf_printf(b, ", P%d arrived at ", p->threads[u].id);
    lx_bar_name(b, a);
    lc_buf_puts(b, a->bar_id ? " instead" : " with no id instead");
  }
  parties_fini(&bp);
}

static void describe_thread(lc_buf *b, const term_ctx *c, const lx_val *st, size_t t, bool owed) {
  const lx_program *p = c->p;
  const lx_path *path = state_path(c, st, t);
  int id = p->threads[t].id;
  if (path->blocked) {
    const lx_event *w = &p->events[path->events[path->nevents - 1]];
    if (w->bar_cluster)
      lc_buf_printf(b, "P%d waits forever at barrier.cluster.wait (line %d)", id, w->at.line);
    else
      describe_bar_wait(b, c, st, t, w);
    return;
  }
  lx_term_kind kind = lx_term_path_kind(p, path);
  if (kind == LX_TERM_FINISHED) {
    lc_buf_printf(b, "P%d%s finished", id, lt_thread_label(p->test, t));
    return;
  }
  if (kind == LX_TERM_PAUSED || !owed || classify(c, st, t) != LC_TS_STUCK) {
    describe_paused(b, p, path, t);
    return;
  }
  int reads[256];
  size_t n = lx_term_iter_reads(p, path, NULL);
  if (n > LC_ARRAY_LEN(reads)) n = 0;
  lx_term_iter_reads(p, path, n ? reads : NULL);
  for (size_t i = 0; i < n; i++) {
    const lx_event *r = &p->events[reads[i]];
    if (!lx_is_mbar_wait(r)) continue;
    lc_buf_printf(b, "P%d waits forever on mbarrier %s (line %d): ", id, p->locs[r->vloc].name, r->at.line);
    mbar_state_text(b, iter_reads(c, st, t)[i]);
    return;
  }
  lc_buf_printf(b, "P%d%s spins in the loop back to %s (line %d), its last iteration reading",
                id, lt_thread_label(p->test, t), path->loop_label ? path->loop_label : "?", path->cut_at.line);
  for (size_t i = 0; i < n; i++) {
    const lx_event *r = &p->events[reads[i]];
    lc_buf_printf(b, "%s %s=", i ? "," : "", p->locs[r->vloc].name);
    lx_print_value(b, p, iter_reads(c, st, t)[i]);
  }
  if (!n) lc_buf_puts(b, " nothing");
}

/* Whether a cut path's last iteration may change memory: it writes or
 * syncs, or its atoms write (silent only when they write what they read). */
static bool retries_with_effects(const lx_program *p, const lx_path *path) {
  lx_term_kind k = lx_term_path_kind(p, path);
  if (k == LX_TERM_EFFECTS) return true;
  if (k != LX_TERM_SPIN || path->iter_pos < 0) return false;
  for (size_t i = (size_t)path->iter_pos; i < path->nevents; i++)
    if (p->events[path->events[i]].kind == LX_EV_WRITE) return true;
  return false;
}

/* Why "unknown": the loops that may go on changing memory, per thread (the
 * first such loop of each), from the program alone, so that both engines
 * give the same words whatever order they search in; without one, the
 * loops whose retries change only registers. */
static char *unknown_reason(const lx_program *p) {
  lc_buf b;
  lc_buf_init(&b);
  size_t named = 0;
  for (int regs = 0; regs < 2 && !named; regs++)
    for (size_t t = 0; t < p->nthreads; t++) {
      const lx_thread *th = &p->threads[t];
      for (size_t i = 0; i < th->npaths; i++) {
        const lx_path *path = &p->paths[th->paths[i]];
        if (path->ub || path->iter_pos < 0) continue;
        if (regs ? lx_term_path_kind(p, path) != LX_TERM_SPIN : !retries_with_effects(p, path)) continue;
        lc_buf_printf(&b, "%sP%d's loop back to %s (line %d)", named++ ? ", " : "", th->id,
                      path->loop_label ? path->loop_label : "?", path->cut_at.line);
        break;
      }
    }
  bool effects = false;
  for (size_t i = 0; i < p->npaths && !effects; i++) effects = !p->paths[i].ub && retries_with_effects(p, &p->paths[i]);
  if (!named) lc_buf_puts(&b, "a loop");
  if (effects)
    lc_buf_printf(&b, " may retry for ever, changing memory in every iteration (a store, a barrier, or an atom "
                  "that writes a value it did not read); this check does not decide whether such retrying ends "
                  "(docs/termination.md)");
  else
    lc_buf_printf(&b, " may retry for ever once memory has settled, changing a register in every iteration (a "
                  "counter, a back-off); this check does not decide whether such retrying ends "
                  "(docs/termination.md)");
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

/* owed: per CTA rank, whether the model keeps it running (NULL: all). */
static char *witness_text(const term_ctx *c, const lx_val *st, const bool *owed) {
  lc_buf b;
  lc_buf_init(&b);
  for (size_t t = 0; t < c->p->nthreads; t++) {
    lc_buf_puts(&b, t ? "; " : "");
    describe_thread(&b, c, st, t, !owed || owed[c->cta[t]]);
  }
  lc_buf_puts(&b, "; final memory:");
  for (size_t l = 0; l < c->p->nplocs; l++) {
    lc_buf_printf(&b, " %s=", c->p->plocs[l].name);
    if (is_mbar_ploc(c->p, l)) {
      lx_mbar_state s = lx_mbar_decode(st[c->loc_obs + l]);
      lc_buf_printf(&b, "mbarrier{phase %u, %u/%u pending, tx %d}", s.phase, s.pending, s.expected, s.tx);
    } else {
      lx_print_value(&b, c->p, st[c->loc_obs + l]);
    }
    lc_buf_puts(&b, l + 1 < c->p->nplocs ? "," : "");
  }
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

/* Threads u and t meet at w's barrier instances: one CTA, or for
 * barrier.cluster one cluster. */
static bool same_group(const term_ctx *c, size_t u, size_t t, const lx_event *w) {
  const lx_thread *a = &c->p->threads[u], *b = &c->p->threads[t];
  if (w->bar_cluster) return a->gpu == b->gpu && a->cluster == b->cluster;
  if (w->bar_grid) return a->gpu == b->gpu;
  return c->cta[u] == c->cta[t];
}

/* The engines count only the arrivals a state has, so at a bar.sync with
 * no count they let a thread pass while a CTA-mate that will arrive has
 * not (it is stopped, spinning or blocked before the barrier), and they
 * let a thread block there with every CTA-mate arrived or gone.  Neither
 * is a run; the real counterpart of the first, the thread blocked at the
 * barrier instead, is a state of its own (lowered with --termination). */
static bool waits_consistent(const term_ctx *c, const int *pids) {
  const lx_program *p = c->p;
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[pids[t]];
    for (size_t i = 0; i < path->nevents; i++) {
      const lx_event *w = &p->events[path->events[i]];
      if (w->kind != LX_EV_BAR_WAIT || w->bar_count) continue;
      bool held = false;
      for (size_t u = 0; u < p->nthreads && !held; u++)
        held = u != t && same_group(c, u, t, w) && holds(c, pids, u, w);
      if (held != w->bar_blocked) return false;
    }
  }
  return true;
}

/* The suffix hint of both hooks: the threads from `from` on hold every
 * thread of some CTAs, and those CTAs alone may rule the frame out: a
 * barrier wait of theirs that is no run (waits_consistent, whose CTA
 * barriers involve CTA-mates only), or, when `paused_kills` (every model
 * asked owes progress to each CTA that has started: fair, OBE, LOBE,
 * HSA-OBE), a CTA started with a thread paused, which that model owes and
 * which is neither still nor settled, so that no state of the frame is a
 * hang or one but for effects (lc_progress_judge). */
/* A thread that runs to its end (or pauses) after a spin loop's read-only
 * retry (lx_path.retry) makes no state the same path without the retry
 * does not: the retry's reads deleted, the execution is one of the model's
 * with the same final memory and the same other threads (exec/lower_spin.c).
 * A spinning thread keeps its retry: its cut path always has one. */
static bool retry_ends(const lx_program *p, const int *pids, size_t from) {
  for (size_t t = from; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[pids[t]];
    lx_term_kind k = path->retry ? lx_term_path_kind(p, path) : LX_TERM_SPIN;
    if (k != LX_TERM_SPIN && k != LX_TERM_EFFECTS) return true;   /* lx_term_prepare made cut paths final */
  }
  return false;
}

static bool suffix_may_count(const term_ctx *c, const int *pids, size_t from, bool paused_kills) {
  const lx_program *p = c->p;
  if (retry_ends(p, pids, from)) return false;
  for (size_t t = from; t < p->nthreads; t++) {
    if (c->cta_first[c->cta[t]] < from) continue;   /* its CTA is not whole here */
    const lx_path *path = &p->paths[pids[t]];
    for (size_t i = 0; i < path->nevents; i++) {
      const lx_event *w = &p->events[path->events[i]];
      /* the cluster's and the grid's barriers involve threads beyond these CTAs */
      if (w->kind != LX_EV_BAR_WAIT || w->bar_count || w->bar_cluster || w->bar_grid) continue;
      bool held = false;
      for (size_t u = from; u < p->nthreads && !held; u++)
        held = u != t && c->cta[u] == c->cta[t] && holds(c, pids, u, w);
      if (held != w->bar_blocked) return false;
    }
    if (!paused_kills || lx_term_path_kind(p, path) != LX_TERM_PAUSED) continue;
    for (size_t u = from; u < p->nthreads; u++)
      if (c->cta[u] == c->cta[t] && (p->test->cooperative || p->paths[pids[u]].nevents > 0)) return false;
  }
  return true;
}

/* The CTAs of a cluster are scheduled together (CUDA C++ Programming
 * Guide, "Thread Block Clusters": a cluster's blocks are guaranteed to be
 * co-scheduled on one GPC), so one of them started makes all of them
 * resident, and owed progress under OBE as a started CTA is.  A test that
 * places no CTAs in clusters has a cluster per CTA, and this changes
 * nothing. */
static void coscheduled(const term_ctx *c, lc_thread_run *th) {
  const lx_program *p = c->p;
  if (!c->clu) return;
  memset(c->clu_ran, 0, p->nthreads * sizeof *c->clu_ran);
  for (size_t t = 0; t < p->nthreads; t++)
    if (th[t].ran) c->clu_ran[c->clu[t]] = true;
  for (size_t t = 0; t < p->nthreads; t++)
    if (c->clu_ran[c->clu[t]]) th[t].ran = true;
}

/* Could a state of the frame `pids` be a hang under model m, or one but
 * for side-effectful spinning (LC_RUN_EFFECTS)?  Everything
 * lc_progress_judge reads is the frame's but what a spinning path's last
 * iteration did, which is one of stuck, progress or effects (classify):
 * the frame can give a hang iff it does with every spinning thread stuck,
 * and an LC_RUN_EFFECTS iff it gives something with every spinning thread
 * retrying with effects (both are monotone in those choices: progress
 * only takes a CTA out of `still` and `settled`).  th is scratch. */
static bool frame_may_count(const term_ctx *c, const int *pids, lc_progress m, lc_thread_run *th) {
  const lx_program *p = c->p;
  bool spins = false;
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[pids[t]];
    th[t].ran = p->test->cooperative || path->nevents > 0;   /* as started() */
    th[t].cta = c->cta[t];
    switch (lx_term_path_kind(p, path)) {
    case LX_TERM_FINISHED: th[t].state = LC_TS_FINISHED; break;
    case LX_TERM_BLOCKED: th[t].state = LC_TS_STUCK; break;
    case LX_TERM_EFFECTS: th[t].state = LC_TS_EFFECTS; break;
    case LX_TERM_PAUSED: th[t].state = LC_TS_PAUSED; break;
    case LX_TERM_SPIN: th[t].state = LC_TS_STUCK, spins = true; break;
    }
  }
  coscheduled(c, th);
  if (lc_progress_judge(m, th, p->nthreads, c->nctas, NULL) != LC_RUN_NONE) return true;
  if (!spins) return false;
  for (size_t t = 0; t < p->nthreads; t++)
    if (lx_term_path_kind(p, &p->paths[pids[t]]) == LX_TERM_SPIN) th[t].state = LC_TS_EFFECTS;
  return lc_progress_judge(m, th, p->nthreads, c->nctas, NULL) != LC_RUN_NONE;
}

/* Whether thread t's CTA counts as started (before coscheduled): it made an event, or the
 * launch is cooperative, which makes every CTA resident from the start
 * (CUDA C++ Programming Guide, "Grid Synchronization":
 * cudaLaunchCooperativeKernel launches only as many blocks as can be
 * resident at once), so under OBE every CTA is owed progress. */
static bool started(const term_ctx *c, const lx_val *st, size_t t) {
  return c->p->test->cooperative || state_path(c, st, t)->nevents > 0;
}

/* Each model's verdict over the states, the first hanging state's witness
 * (the states are sorted, so both engines give the same one). */
static void judge(const term_ctx *c, const lc_result *r, lc_term_answer *ans, size_t nans) {
  lc_thread_run *th = lc_xcalloc(c->p->nthreads, sizeof *th);
  bool *owed = lc_xcalloc(c->nctas, sizeof *owed);
  bool effects[LC_NPROGRESS] = {false};
  for (size_t i = 0; i < r->nstates; i++) {
    const lx_val *st = lc_result_state(r, i);
    if (!waits_consistent(c, state_pids(c, st))) continue;
    for (size_t t = 0; t < c->p->nthreads; t++) {
      th[t].state = classify(c, st, t);
      th[t].ran = started(c, st, t);
      th[t].cta = c->cta[t];
    }
    coscheduled(c, th);
    for (size_t a = 0; a < nans; a++) {
      if (ans[a].verdict == LC_TERM_MAY_HANG) continue;
      lc_run_kind k = lc_progress_judge((lc_progress)ans[a].progress, th, c->p->nthreads, c->nctas, owed);
      if (k == LC_RUN_EFFECTS) effects[a] = true;
      if (k != LC_RUN_HANG) continue;
      ans[a].verdict = LC_TERM_MAY_HANG;
      ans[a].witness = witness_text(c, st, owed);
    }
  }
  for (size_t a = 0; a < nans; a++) {
    if (ans[a].verdict == LC_TERM_MAY_HANG) continue;
    ans[a].verdict = effects[a] ? LC_TERM_UNKNOWN : LC_TERM_TERMINATES;
    if (effects[a]) ans[a].witness = unknown_reason(c->p);
  }
  free(owed);
  free(th);
}

typedef struct cta_key {
  int gpu, cta;
} cta_key;

static int cta_cmp(const void *x, const void *y) {
  const cta_key *a = x, *b = y;
  if (a->gpu != b->gpu) return a->gpu < b->gpu ? -1 : 1;
  return a->cta < b->cta ? -1 : a->cta > b->cta;
}

/* Ranks the CTAs by (gpu, cta), the order "lowest id" means; returns how
 * many there are. */
static size_t rank_ctas(const lx_program *p, int *rank) {
  cta_key *keys = lc_xcalloc(p->nthreads, sizeof *keys);
  for (size_t t = 0; t < p->nthreads; t++) keys[t] = (cta_key){p->threads[t].gpu, p->threads[t].cta};
  qsort(keys, p->nthreads, sizeof *keys, cta_cmp);
  size_t n = 0;
  for (size_t t = 0; t < p->nthreads; t++)
    if (!n || cta_cmp(&keys[n - 1], &keys[t])) keys[n++] = keys[t];
  for (size_t t = 0; t < p->nthreads; t++) {
    cta_key k = {p->threads[t].gpu, p->threads[t].cta};
    rank[t] = (int)((cta_key *)bsearch(&k, keys, n, sizeof *keys, cta_cmp) - keys);
  }
  free(keys);
  return n;
}

/* Ranks the clusters by (gpu, cluster) into rank; NULL when no cluster
 * holds two CTAs (then coscheduled has nothing to do). */
static int *rank_clusters(const lx_program *p, size_t nctas) {
  cta_key *keys = lc_xcalloc(p->nthreads, sizeof *keys);
  for (size_t t = 0; t < p->nthreads; t++) keys[t] = (cta_key){p->threads[t].gpu, p->threads[t].cluster};
  qsort(keys, p->nthreads, sizeof *keys, cta_cmp);
  size_t n = 0;
  for (size_t t = 0; t < p->nthreads; t++)
    if (!n || cta_cmp(&keys[n - 1], &keys[t])) keys[n++] = keys[t];
  int *rank = lc_xcalloc(p->nthreads, sizeof *rank);
  for (size_t t = 0; t < p->nthreads; t++) {
    cta_key k = {p->threads[t].gpu, p->threads[t].cluster};
    rank[t] = (int)((cta_key *)bsearch(&k, keys, n, sizeof *keys, cta_cmp) - keys);
  }
  free(keys);
  if (n >= nctas) free(rank), rank = NULL;   /* a cluster per CTA */
  return rank;
}

/* Per CTA rank, the index of its first thread. */
static size_t *cta_firsts(const lx_program *p, const int *cta, size_t nctas) {
  size_t *first = lc_xcalloc(nctas + 1, sizeof *first);
  for (size_t r = 0; r < nctas; r++) first[r] = p->nthreads;
  for (size_t t = p->nthreads; t-- > 0;) first[cta[t]] = t;
  return first;
}

/* lc_check_progress lists every state and judges them all (judge), so
 * that each model's witness is its first hanging state in the sorted
 * order whichever engine lists them; the listing may leave out the states
 * judge passes over: those of frames whose barrier waits are no run
 * (waits_consistent) or that no model asked can call a hang, nor a hang
 * but for side effects (frame_may_count).  A state names its frame (the
 * termination registers hold each thread's path), so what is left out is
 * whole frames' states, never part of one's.  On reduce-2x4.cu under OBE,
 * 1.3e8 frames of paused and blocked paths, nearly all left out. */
typedef struct list_ctx {
  const term_ctx *c;
  unsigned models;
  lc_thread_run *th;        /* scratch */
} list_ctx;

static bool list_state(void *ctx, const lx_val *st) {
  (void)ctx, (void)st;
  return false;   /* every state is listed; judge reads them after */
}

static bool listed_suffix(void *ctx, const int *paths, size_t from) {
  const list_ctx *l = ctx;
  unsigned owe_started = 1u << LC_PROGRESS_FAIR | 1u << LC_PROGRESS_OBE | 1u << LC_PROGRESS_LOBE |
                         1u << LC_PROGRESS_HSA_OBE;
  return suffix_may_count(l->c, paths, from, !(l->models & ~owe_started));
}

static bool listed_frame(void *ctx, const int *paths) {
  const list_ctx *l = ctx;
  if (retry_ends(l->c->p, paths, 0) || !waits_consistent(l->c, paths)) return false;
  for (int k = 0; k < LC_NPROGRESS; k++)
    if ((l->models & (1u << k)) && frame_may_count(l->c, paths, (lc_progress)k, l->th)) return true;
  return false;
}

size_t lc_check_progress(const lt_test *t, const cat_model *m, const lc_check_options *o, double start,
                         unsigned models, lc_term_answer *ans, size_t *checks, lc_diag *d) {
  assert(t && m && o && ans && d);
  size_t nans = 0;
  for (int k = 0; k < LC_NPROGRESS; k++)
    if (models & (1u << k)) ans[nans++] = (lc_term_answer){k, LC_TERM_UNKNOWN, NULL};
  /* a thread stopped for good: a CTA that never starts, or one a model
   * other than fair and obe may stop; with every CTA of a cooperative
   * launch resident, obe owes all of them progress, as fair does, and
   * needs no such paths */
  unsigned needs = ~(1u << LC_PROGRESS_FAIR) & ~(t->cooperative ? 1u << LC_PROGRESS_OBE : 0u);
  bool pauses = models & needs;
  lx_options lo = {o->unroll ? o->unroll : LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS,
                   o->timeout > 0 ? start + o->timeout : 0, pauses ? LX_LOWER_PAUSES : 1, o->timeout,
                   o->max_memory};
  lx_program *p = lx_lower_spin(t, &lo, lc_spin_reduce(m, o), d);
  if (!p) return nans;
  lx_term_slots *slots = lc_xcalloc(p->nthreads, sizeof *slots);
  int *cta = lc_xcalloc(p->nthreads, sizeof *cta);
  size_t nctas = rank_ctas(p, cta);
  int *pids = lc_xcalloc(p->nthreads, sizeof *pids);
  size_t *first = cta_firsts(p, cta, nctas);
  term_ctx c = {p, slots, lx_term_prepare(p, slots), cta, nctas, NULL, 0, NULL, pids, first, NULL, NULL};
  c.clu = rank_clusters(p, nctas);
  if (c.clu) c.clu_ran = lc_xcalloc(p->nthreads, sizeof *c.clu_ran);
  reach_init(&c);
  lc_check_options qo = *o;
  qo.races = false;
  qo.termination = false;
  /* The hint skips the frames judge would pass over (see listed_frame);
   * only the explicit engine uses it. */
  if (qo.engine == LC_ENGINE_AUTO) qo.engine = LC_ENGINE_ENUM;
  list_ctx lc = {&c, models, lc_xcalloc(p->nthreads, sizeof(lc_thread_run))};
  lc_state_hook hook = {list_state, listed_frame, NULL, &lc, listed_suffix};
  lc_result *r = lc_check_program_hooked(p, m, &qo, start, &hook);
  if (checks) *checks += r->solver_checks;
  if (r->status == LC_RESULT_OK) judge(&c, r, ans, nans);
  lc_result_free(r);
  free(lc.th);
  free(c.clu);
  free(c.clu_ran);
  reach_fini(&c);
  free(pids);
  free(first);
  free(cta);
  free(slots);
  lx_program_free(p);
  return nans;
}

/* --termination alone (fair scheduling) is a question of existence, so
 * its states are not listed: the engine shows each new state to
 * on_state as it finds it (an lc_state_hook) and stops at the first that
 * hangs, which is the witness (the engines search in different orders, so
 * theirs may differ; their verdicts may not).  The hook's hints let the
 * explicit engine skip what cannot matter: frame_matters, combinations of
 * paths where every thread finished (or, once a side-effectful spin was
 * seen, one spinning so); partial_matters, once such a spin was seen,
 * choices of sources under which a spinning thread's last iteration
 * changed a register or memory (classify makes that thread's state
 * effects at most, so no state below hangs).  --progress lists the states and judges them all (judge), since
 * it answers several models at once. */
typedef struct fair_ctx {
  term_ctx c;
  lc_thread_run *th;
  bool *owed;
  bool effects;             /* a state judged LC_RUN_EFFECTS was seen */
  char *witness;            /* the first hanging state's, once found */
} fair_ctx;

static bool on_state(void *ctx, const lx_val *st) {
  fair_ctx *f = ctx;
  const term_ctx *c = &f->c;
  if (!waits_consistent(c, state_pids(c, st))) return false;
  for (size_t t = 0; t < c->p->nthreads; t++) {
    f->th[t].state = classify(c, st, t);
    f->th[t].ran = started(c, st, t);
    f->th[t].cta = c->cta[t];
  }
  lc_run_kind k = lc_progress_judge(LC_PROGRESS_FAIR, f->th, c->p->nthreads, c->nctas, f->owed);
  if (k == LC_RUN_EFFECTS) f->effects = true;
  if (k != LC_RUN_HANG) return false;
  f->witness = witness_text(c, st, f->owed);
  return true;
}

static bool frame_matters(void *ctx, const int *paths) {
  const fair_ctx *f = ctx;
  if (retry_ends(f->c.p, paths, 0)) return false;
  if (!waits_consistent(&f->c, paths)) return false;   /* on_state passes its states over */
  bool open = false;
  for (size_t t = 0; t < f->c.p->nthreads; t++) {
    lx_term_kind k = lx_term_path_kind(f->c.p, &f->c.p->paths[paths[t]]);
    if (k == LX_TERM_EFFECTS && f->effects) return false;
    open |= k != LX_TERM_FINISHED;
  }
  return open;
}

static bool fair_suffix(void *ctx, const int *paths, size_t from) {
  const fair_ctx *f = ctx;
  for (size_t t = from; f->effects && t < f->c.p->nthreads; t++)
    if (lx_term_path_kind(f->c.p, &f->c.p->paths[paths[t]]) == LX_TERM_EFFECTS) return false;
  return suffix_may_count(&f->c, paths, from, false);
}

static bool partial_matters(void *ctx, const lx_val *st, const bool *known) {
  const fair_ctx *f = ctx;
  const term_ctx *c = &f->c;
  for (size_t t = 0; t < c->p->nthreads; t++) {
    size_t o = c->slots[t].obs;
    if (!known[o]) continue;
    lx_term_kind k = lx_term_path_kind(c->p, &c->p->paths[st[o]]);
    if (k == LX_TERM_EFFECTS && f->effects) return false;
    if (k != LX_TERM_SPIN || !known[o + 1] || !known[o + 2]) continue;
    /* an atom that changed memory or a register changed: effects at most,
     * never a hang (classify) */
    if ((st[o + 2] != 0 || st[o + 1] != 0) && f->effects) return false;
  }
  return true;
}

void lc_check_termination(const lt_test *t, const cat_model *m, const lc_check_options *o, double start,
                          lc_result *into, lc_diag *d) {
  assert(t && m && o && into && d);
  into->termination = LC_TERM_UNKNOWN;
  lx_options lo = {o->unroll ? o->unroll : LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS,
                   o->timeout > 0 ? start + o->timeout : 0, 1, o->timeout, o->max_memory};
  lx_program *p = lx_lower_spin(t, &lo, lc_spin_reduce(m, o), d);
  if (!p) {   /* lowering said why (out of time, too many paths) */
    lc_result_fail(into, LC_RESULT_UNKNOWN, "no answer to --termination; no verdict");
    return;
  }
  lx_term_slots *slots = lc_xcalloc(p->nthreads, sizeof *slots);
  int *cta = lc_xcalloc(p->nthreads, sizeof *cta);
  size_t nctas = rank_ctas(p, cta);
  int *pids = lc_xcalloc(p->nthreads, sizeof *pids);
  size_t *first = cta_firsts(p, cta, nctas);
  fair_ctx f = {{p, slots, lx_term_prepare(p, slots), cta, nctas, NULL, 0, NULL, pids, first, NULL, NULL}, NULL, NULL, false, NULL};
  reach_init(&f.c);
  f.th = lc_xcalloc(p->nthreads, sizeof *f.th);
  f.owed = lc_xcalloc(nctas, sizeof *f.owed);
  lc_check_options qo = *o;
  qo.races = false;
  qo.termination = false;
  /* Only the explicit engine prunes with the hints: test 463 of
   * `litmus-gen --family spin --seed 1`, listing and termination, takes
   * 0.16 s with it and 17 s with the SMT engine. */
  if (qo.engine == LC_ENGINE_AUTO) qo.engine = LC_ENGINE_ENUM;
  lc_state_hook hook = {on_state, frame_matters, partial_matters, &f, fair_suffix};
  lc_result *r = lc_check_program_hooked(p, m, &qo, start, &hook);
  into->termination_checks += r->solver_checks;
  if (f.witness) {   /* a hang found is one, whatever stopped the search after */
    into->termination = LC_TERM_MAY_HANG;
    into->termination_witness = f.witness;
  } else if (r->status == LC_RESULT_OK) {
    into->termination = f.effects ? LC_TERM_UNKNOWN : LC_TERM_TERMINATES;
    if (f.effects) into->termination_witness = unknown_reason(p);
  } else if (r->status == LC_RESULT_UNKNOWN && o->timeout > 0 && lc_now() - start >= o->timeout) {
    /* Out of time is no verdict, not "unknown" (which says only
     * side-effectful spinning could hang): the test has none, as when
     * the listing runs out. */
    lc_result_fail(into, LC_RESULT_UNKNOWN, "out of time (--timeout %g s) while answering --termination; no verdict",
                   o->timeout);
  } else {
    lc_result_fail(into, r->status, "%s (answering --termination)", r->message ? r->message : "no answer");
  }
  lc_result_free(r);
  free(f.th);
  free(f.owed);
  reach_fini(&f.c);
  free(pids);
  free(first);
  free(cta);
  free(slots);
  lx_program_free(p);
}
