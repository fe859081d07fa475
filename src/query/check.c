/* check.c - model search path and engine dispatch: one lowered program
 * through the engine the options name (check_test.c asks it for a test).
 * SPDX-License-Identifier: MIT
 */
#define _DEFAULT_SOURCE
#include "check.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "enum/enum.h"
#include "smt/smt.h"

void lc_check_options_init(lc_check_options *o) {
  assert(o);
  memset(o, 0, sizeof *o);
  o->engine = LC_ENGINE_AUTO;
  o->races = true;
  o->cut_loops = true;
}

/* Spin loops' read-only retries past the first add no final state and
 * no flagged pair under a model closed under deleting reads (cat_mono.c,
 * exec/lower_spin.c); without --no-races its flags must be too. */
bool lc_spin_reduce(const cat_model *m, const lc_check_options *o) {
  return !o->no_spin_reduce && cat_model_deletion_closed(m, o->races);
}

const char *lc_engine_name(lc_engine e) {
  switch (e) {
  case LC_ENGINE_SMT: return "smt";
  case LC_ENGINE_ENUM: return "enum";
  case LC_ENGINE_AUTO: return "auto";
  }
  return "smt";
}

int lc_engine_parse(const char *s, lc_engine *e) {
  assert(s && e);
  for (int i = 0; i <= LC_ENGINE_AUTO; i++)
    if (strcmp(s, lc_engine_name((lc_engine)i)) == 0) {
      *e = (lc_engine)i;
      return 0;
    }
  return -1;
}

/* The folder holding the running program: /proc/self/exe when there is
 * one (so `src/litmus-check` finds `models/` from any working directory),
 * else the folder part of argv[0]. */
static char *program_dir(const char *argv0) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) buf[n] = '\0';
  else if (argv0) snprintf(buf, sizeof buf, "%s", argv0);
  else return NULL;
  char *slash = strrchr(buf, '/');
  if (!slash) return lc_xstrdup(".");
  *slash = '\0';
  return lc_xstrdup(buf);
}

char **lc_model_search(const char *argv0) {
  const char *env = getenv("LITMUS_MODELS");
  size_t nenv = 0;   /* folders separated by ':' (e.g. herd's libdir, then ours) */
  for (const char *p = env; p && *p; p++) nenv += *p == ':';
  char **dirs = lc_xcalloc(nenv + 4, sizeof(char *));
  size_t n = 0;
  for (const char *p = env; p && *p;) {
    const char *colon = strchr(p, ':');
    size_t len = colon ? (size_t)(colon - p) : strlen(p);
    if (len) dirs[n++] = lc_xstrndup(p, len);
    p = colon ? colon + 1 : p + len;
  }
  char *pd = program_dir(argv0);
  if (pd) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s/../models", pd);
    char real[PATH_MAX];
    if (access(b.s, R_OK) == 0) dirs[n++] = lc_xstrdup(realpath(b.s, real) ? real : b.s);
    lc_buf_fini(&b);
    free(pd);
  }
  dirs[n++] = lc_xstrdup(LC_MODELS_DIR);
  dirs[n] = NULL;
  return dirs;
}

void lc_model_search_free(char **dirs) {
  if (!dirs) return;
  for (char **d = dirs; *d; d++) free(*d);
  free(dirs);
}

/* The shape of a test as the engines feel it: per thread, the most
 * events of a kind any one of its paths has, summed over threads. */
typedef struct test_shape {
  size_t combos;            /* combinations of paths (saturates) */
  double co_log2;           /* log2 of the coherence orders program order leaves
                               open, summed over locations */
  double sc_log2;           /* the same for the order of the fence.sc (and membar) */
  double sc_read_log2;      /* ... of those with a read before them in their thread */
  double co_plain_log2;     /* co_log2 less the locations only RMWs write */
} test_shape;

/* Is every write to ploc an RMW's?  The explicit engine settles their
 * coherence with each read's source (docs/explicit-engine.md). */
static bool rmw_only(const lx_program *p, int ploc) {
  for (size_t e = 0; e < p->nevents; e++) {
    const lx_event *x = &p->events[e];
    if (x->kind == LX_EV_WRITE && x->thread >= 0 && x->ploc == ploc && x->rmw < 0) return false;
  }
  return true;
}

enum { FENCE_AFTER_READ = -2 };   /* a kind for thread_max: the SC fences after a read */

static bool counts(const lx_event *e, int kind, int ploc) {
  if (kind == LX_EV_FENCE || kind == FENCE_AFTER_READ) return e->kind == LX_EV_FENCE && lx_has(e, LX_T_SC);
  return (int)e->kind == kind && (ploc < 0 || e->ploc == ploc);
}

/* kind: an lx_ev_kind (LX_EV_FENCE: the SC ones), or FENCE_AFTER_READ. */
static size_t thread_max(const lx_program *p, const lx_thread *th, int kind, int ploc) {
  size_t most = 0;
  for (size_t k = 0; k < th->npaths; k++) {
    const lx_path *path = &p->paths[th->paths[k]];
    size_t n = 0;
    bool read = false;
    for (size_t i = 0; i < path->nevents; i++) {
      const lx_event *e = &p->events[path->events[i]];
      n += counts(e, kind, ploc) && (kind != FENCE_AFTER_READ || read);
      read |= e->kind == LX_EV_READ;
    }
    if (n > most) most = n;
  }
  return most;
}

/* log2 of one frame's search space: a source per read (the writes of its
 * location in the frame, initial one included) times a coherence order
 * per location (w! for w writes: WF-co makes most orders total). */
static double frame_log2(const lx_program *p, const int *paths, size_t *writes) {
  memset(writes, 0, p->nplocs * sizeof *writes);
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[paths[t]];
    for (size_t i = 0; i < path->nevents; i++) {
      const lx_event *e = &p->events[path->events[i]];
      if (e->kind == LX_EV_WRITE && e->ploc >= 0) writes[e->ploc]++;
    }
  }
  double bits = 0;
  for (size_t l = 0; l < p->nplocs; l++) bits += lgamma((double)writes[l] + 1) / log(2);
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[paths[t]];
    for (size_t i = 0; i < path->nevents; i++) {
      const lx_event *e = &p->events[path->events[i]];
      if (e->kind == LX_EV_READ && e->ploc >= 0) bits += log2((double)writes[e->ploc] + 1);
    }
  }
  return bits;
}

/* log2(2^a + 2^b) without overflow. */
static double log2_add(double a, double b) {
  double hi = a > b ? a : b, lo = a > b ? b : a;
  return hi + log2(1 + exp2(lo - hi));
}

enum { COST_FRAMES = 4096 };   /* frames summed; the rest extrapolated */

void lc_engine_costs(const lx_program *p, double *enum_log2, double *smt_log2) {
  assert(p && enum_log2 && smt_log2);
  size_t nt = p->nthreads, frames = 0;
  size_t *k = lc_xcalloc(nt, sizeof(size_t));
  int *paths = lc_xcalloc(nt, sizeof(int));
  size_t *writes = lc_xcalloc(p->nplocs, sizeof(size_t));
  double total = -INFINITY, combos = 1;
  for (size_t t = 0; t < nt; t++) combos *= (double)p->threads[t].npaths;
  while (combos > 0 && frames < COST_FRAMES) {
    for (size_t t = 0; t < nt; t++) paths[t] = p->threads[t].paths[k[t]];
    total = log2_add(total, frame_log2(p, paths, writes));
    frames++;
    size_t t = 0;
    while (t < nt && ++k[t] == p->threads[t].npaths) k[t++] = 0;
    if (t == nt) break;
  }
  if (frames && combos > (double)frames) total += log2(combos / (double)frames);
  *enum_log2 = frames ? total : 0;
  *smt_log2 = 3 * log2((double)(p->nevents ? p->nevents : 1));
  free(k);
  free(paths);
  free(writes);
}

/* log2 of the interleavings of a kind's events between threads, program
 * order fixing those of one thread (SC-per-location orders a thread's
 * writes to a location; a thread's fence.sc are ordered alike): the
 * multinomial n! / (n_1! ... n_k!) of the threads' counts.  One thread's
 * hundred writes leave one order; five threads' single writes, 120. */
static double orders_log2(const lx_program *p, int kind, int ploc) {
  double n = 0, bits = 0;
  for (size_t t = 0; t < p->nthreads; t++) {
    double k = (double)thread_max(p, &p->threads[t], kind, ploc);
    n += k;
    bits -= lgamma(k + 1);
  }
  return (bits + lgamma(n + 1)) / log(2);
}

/* Does a fence of scope s in thread a reach thread b? */
static bool reaches(const lx_thread *a, lt_scope s, const lx_thread *b) {
  if (s == LT_SCOPE_CTA) return a->gpu == b->gpu && a->cta == b->cta;
  if (s == LT_SCOPE_CLUSTER) return a->gpu == b->gpu && a->cluster == b->cluster;
  return s != LT_SCOPE_GPU || a->gpu == b->gpu;
}

static size_t root(size_t *up, size_t x) {
  while (up[x] != x) x = up[x] = up[up[x]];
  return x;
}

/* orders_log2 for the SC fences (kind LX_EV_FENCE or FENCE_AFTER_READ),
 * summed over the groups of threads whose fences may be ordered: the
 * Fence-SC order relates morally strong fences only, each in the other's
 * scope, so fence.sc.cta in eight CTAs leave no order to choose (IRIW
 * with such fences between each reader's loads, iriw-sc-8 at cta scope:
 * enum 0.72 s, smt 7.5 s).  A thread's widest fence stands for all its
 * fences. */
static double sc_orders_log2(const lx_program *p, int kind) {
  size_t nt = p->nthreads;
  size_t *up = lc_xcalloc(nt ? nt : 1, sizeof(size_t)), *k = lc_xcalloc(nt ? nt : 1, sizeof(size_t));
  lt_scope *wide = lc_xcalloc(nt ? nt : 1, sizeof(lt_scope));
  for (size_t t = 0; t < nt; t++) {
    up[t] = t;
    k[t] = thread_max(p, &p->threads[t], kind, -1);
    for (size_t e = 0; e < p->nevents && k[t]; e++) {
      const lx_event *x = &p->events[e];
      if (x->thread == (int)t && counts(x, LX_EV_FENCE, -1)) {
        lt_scope s = x->scope == LT_SCOPE_NONE ? LT_SCOPE_SYS : x->scope;
        if (s > wide[t]) wide[t] = s;
      }
    }
  }
  for (size_t a = 0; a < nt; a++)
    for (size_t b = a + 1; b < nt && k[a]; b++)
      if (k[b] && reaches(&p->threads[a], wide[a], &p->threads[b]) &&
          reaches(&p->threads[b], wide[b], &p->threads[a]))
        up[root(up, a)] = root(up, b);
  double bits = 0;
  for (size_t r = 0; r < nt; r++) {
    if (root(up, r) != r) continue;
    double n = 0, part = 0;
    for (size_t t = 0; t < nt; t++)
      if (root(up, t) == r) {
        n += (double)k[t];
        part -= lgamma((double)k[t] + 1);
      }
    bits += (part + lgamma(n + 1)) / log(2);
  }
  free(up);
  free(k);
  free(wide);
  return bits;
}

static test_shape measure(const lx_program *p) {
  test_shape z = {1, 0, sc_orders_log2(p, LX_EV_FENCE), sc_orders_log2(p, FENCE_AFTER_READ), 0};
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_thread *th = &p->threads[t];
    z.combos = z.combos > 1000 ? z.combos : z.combos * (th->npaths ? th->npaths : 1);
  }
  for (size_t l = 0; l < p->nplocs; l++) {
    double co = orders_log2(p, LX_EV_WRITE, (int)l);
    /* readers in threads that do not write the location multiply the
     * orders the explicit engine tries (a source each, coherent with the
     * order): 4 writers and 4 readers 0.97 s against Z3's 0.085 s, 4
     * writers alone 0.004 s against 0.039 s */
    double readers = 0;
    for (size_t t = 0; t < p->nthreads && co > 0; t++)
      if (!thread_max(p, &p->threads[t], LX_EV_WRITE, (int)l))
        readers += (double)thread_max(p, &p->threads[t], LX_EV_READ, (int)l);
    z.co_log2 += co > 0 ? co + log2(1 + readers) : 0;
    if (co > 0 && !rmw_only(p, (int)l)) z.co_plain_log2 += co + log2(1 + readers);
  }
  return z;
}

/* --engine auto follows the measurements: scripts/bench-engines on the
 * families, 1,000 random tests of litmus-gen, the public corpus and the
 * spin family (numbers in the README's "Two engines").  Since the
 * explicit engine settles coherence with each read's source and keeps the
 * model values a choice leaves unchanged, it is the faster almost
 * everywhere: 1,000 random tests (seed 20261122) take it 7.1 s against
 * Z3's 24.4 s, and the rule below 8.1 s (the faster engine per test:
 * 6.9 s); chains of 2 to 15 threads, the corpus and every loop test
 * measured too.
 *  - It enumerates co and the Fence-SC order as partial orders, whose
 *    number grows fastest of all (1, 1, 3, 19, 219, 4231 on 0..5
 *    elements): from about fifty coherence orders that program order
 *    leaves open (orders_log2: three writers of two writes each, 90,
 *    0.56 s against 0.012 s; two of four, 70, 0.25 s against 0.036 s; four
 *    of one, 24, 0.004 s against 0.039 s), fewer with readers, Z3 is
 *    faster, and far faster beyond (scripts/calibrate-auto --families:
 *    3 writers x 3 writes 24 s against 0.02 s, 6 x 1 7.9 s against
 *    0.05 s).  Orders of fence.sc in different threads go to Z3 only
 *    from sixteen: since the explicit engine tries the orders of the last
 *    allowed executions first (docs/explicit-engine.md), it is the faster
 *    on every SB ring measured (CPU s, enum against smt: sb-8 0.03/0.05,
 *    sb-10 0.12/0.26, sb-12 0.44/1.52, sb-14 2.96/10.5), where it took
 *    twice Z3's time at 8 and five times at 12 before.  The
 *    writes of one thread to one location count for one order, not w!:
 *    coherence follows program order there, and the explicit engine
 *    takes a single thread's 100 or 200 writes in 0.5 s where the
 *    encoding Z3 gets grows with their cube (100: 90 s and 1.35 GB; 200:
 *    out of memory).
 *  - Loops and branches (4 or more combinations of paths) go to it
 *    whatever their writes, unrolled copies included: the SMT
 *    encoding holds every unrolled copy at once and grows with the cube
 *    of the events, while the explicit engine takes one frame at a time
 *    (scripts/calibrate-auto, 5 s per test, on 60 spin tests, 30 each of
 *    `litmus-gen --family spin` seeds 7 and 8, and the two CAS spinlocks
 *    of litmus/spin: always enum 2.78 s, always smt 80.0 s, enum the
 *    faster on every one; the estimate lc_engine_costs that once chose
 *    here sent 49 of 500 spin tests to Z3, which takes over 8 s on most of
 *    them against 0.2 s).  Their unrolled copies count many coherence
 *    orders (the CADP spin tests' exchanges: 6 + 3 + 3 writes to one
 *    location, 18,480 orders), which the rmw's atomicity cuts for the
 *    explicit engine (1.2 s) and not for Z3 (over 20 s).
 *  - fence.sc after a read stay with the explicit engine too.  Which
 *    orders of such fences are allowed depends on what each thread read
 *    before its fence, so the explicit engine settles the Fence-SC pairs
 *    anew for each choice of rf (docs/explicit-engine.md), and until its
 *    nodes cost a third of what they did (the model's walk replayed,
 *    enum_model.c) Z3 was the faster from seven such threads: IRIW with
 *    fence.sc between each reader's loads (CPU s, enum against smt)
 *    iriw-sc-8 7.9/4.2 then, and now iriw-sc-6 0.10/0.20, iriw-sc-7
 *    0.57/0.91, iriw-sc-8 3.6/5.3, iriw-sc-9 21/34; message passing
 *    through N threads with a fence.sc in each (scripts/herd/hunt.awk
 *    mpsc) mpsc-13 0.57/2.15, mpsc-15 2.1/10.4.  Fences count together
 *    only where they may be ordered, each in the other's scope
 *    (sc_orders_log2): iriw-sc-8 at cta scope, a CTA per thread, has no
 *    order to choose.  Where readers are twins, the explicit engine
 *    chooses their sources up to symmetry (docs/explicit-engine.md, "Twin
 *    threads"): iriw-sc-8 0.23/4.2, iriw-sc-9 0.7/33, iriw-sc-10 2.1
 *    against over 60 s.
 *  - Coherence orders of a location only RMWs write do not count: the
 *    explicit engine settles them with each exchange's source, Z3 does
 *    not (N exchanges on x and a reader of x twice, scripts/herd/hunt.awk
 *    rmw: rmw-5 0.03/0.14, rmw-6 0.22/1.33, rmw-7 2.2 s against over
 *    60 s).
 *  - Many coherence orders stay with the explicit engine when three
 *    threads or more are twins (docs/explicit-engine.md): each state it
 *    finds comes with its images, which cut the search of the others
 *    (wr-5, five writers and five twin readers of one location: enum
 *    0.08 s, smt 0.44 s; wr-6 1.3 s against 24 s). */
#define AUTO_CO_LOG2 5.6        /* ~48 coherence orders, or fewer with readers */
#define AUTO_SC_LOG2 44.2       /* 16! orders of the fence.sc: 16 threads of one */
#define AUTO_TWINS 3            /* twins searched once: a class of 3 cuts frames and states by 6 */
static lc_engine auto_engine(const lx_program *p) {
  test_shape z = measure(p);
  if (z.sc_log2 >= AUTO_SC_LOG2) return LC_ENGINE_SMT;
  if (z.combos >= 4) return LC_ENGINE_ENUM;
  if (z.co_plain_log2 < AUTO_CO_LOG2) return LC_ENGINE_ENUM;
  /* Twins divide the choices the explicit engine meets by what their
   * swaps do (enum_twins_log2), but only through the sources of reads,
   * which settle the orders of what follows them: the orders of twin
   * writers' writes, and of fence.sc that no read comes before, are all
   * searched (2+2W with three twin writers of each kind and fence.sc:
   * enum 1.8 s, smt 0.01 s; four: over 60 s against 0.02 s), while WRC
   * with five twin writers of y reading x, fence.sc after the read, and
   * five twin readers, takes it 0.37 s against Z3's 30 s and more. */
  if (enum_twins_largest(p) < AUTO_TWINS) return LC_ENGINE_SMT;
  double orders = z.co_plain_log2 + (z.sc_log2 - z.sc_read_log2) - enum_twins_log2(p);
  return orders < AUTO_CO_LOG2 ? LC_ENGINE_ENUM : LC_ENGINE_SMT;
}

lc_engine lc_engine_choose(const lx_program *p) { return auto_engine(p); }

/* The model's cost too: a model that redefines co (or sc) as a closure
 * (Dartagnan's PTX models: `let co = co+`) leaves the explicit engine no
 * way to settle the model while it chooses co, and a test with more than
 * about ten coherence orders goes to Z3.  On the spin tests of
 * `litmus-gen --family spin --seed 7` under Dat3M's ptx-v7.5.cat, the
 * explicit engine ran past 10 s on 8 of the 30 tests, each with 15 or
 * more orders (co_log2 3.9 to 12; past 30 s on tests 0 and 1, where Z3
 * takes 0.6 to 0.7 s); Dat3M's Ticketlock tests (8 orders) take it 0.2 s
 * under Dat3M's ptx-v6.0.cat against Z3's 96 s and more, so they stay. */
#define AUTO_CO_CLOSED_LOG2 3.5   /* ~11 coherence orders */
/* Nor can it prune the rest of its search (lc_engine_costs: every
 * combination of paths, each read's sources, each location's orders).
 * On Dat3M's CADP spin tests (litmus/PTX/CADP) under its ptx-v7.5.cat,
 * those with fewer orders than the above and a search space up to 2^28
 * take it at most 0.022 s, Z3 0.07 s and more; the next, from 2^36.9,
 * take it 0.1 s to over 10 s (2_threads_4_instructions/95_simple, 2^41:
 * 7.6 s against Z3's 0.25 s; 122_simple, 2^51: over 10 s against 2.3 s;
 * at worst 2_threads_3_instructions/148_simple, 0.10 s against 0.15 s).
 * Dat3M's Ticketlock tests (2^23, the most of its PTX corpus) stay. */
#define AUTO_CLOSED_SPACE_LOG2 30.0
/* Unless a check reads a `let rec` fixpoint: Z3 gets it as rounds of its
 * body (cat_eval.c, rec_limit), the explicit engine as a loop on bitsets.
 * Dat3M's ptx-v6.0.cat closes co and defines `let rec observation`, and
 * its SC-per-location check (acyclic over co, rf, fr and po-loc) cuts the
 * explicit engine's search early: on every 10th CADP test (49), the
 * explicit engine is the faster on each (CPU s, 20 s per test: 415
 * against 821; 2_threads_3_instructions/24_simple 0.0009 against over
 * 20, 0.08 with the fixpoint unrolled by hand; the explicit engine
 * without the SC-per-location check, 110_simple, over 10 s against 3.7),
 * and on the four Memalloy tests of Dat3M's PTX v6.0 corpus the rule
 * above sent to Z3 (IRRWIW_uniproc 0.0007 against 0.018).  ptx-v7.5.cat
 * has neither, and Z3 stays the faster there. */

/* Is event e (a callback of cat_model_linear_may) in the builtin set
 * `name`?  The sets of events' tags, as the engines define them
 * (enum_frame_static); -1 for any other name. */
static int event_in(void *ctx, const char *name) {
  const lx_event *e = ctx;
  lx_tag t;
  if (strcmp(name, "_") == 0) return 1;
  if (strcmp(name, "M") == 0) return lx_has(e, LX_T_R) || lx_has(e, LX_T_W);
  if (lx_tag_lookup(name, &t)) return lx_has(e, t);
  return -1;
}

/* log2 of the orders herd's `with x from linearisations(S, r)` leaves the
 * explicit engine to try for each execution (cat_rel.c enumerates them
 * all): the interleavings of the threads' events that may be in S, as
 * orders_log2 counts them (n! / (n_1! ... n_k!), a thread's own events in
 * program order, which r includes in herd's C models: hb in c11_orig.cat,
 * scp in simple-c11.cat), summed over the model's linearisations. */
static double lin_log2(const lx_program *p, const cat_model *m) {
  size_t nlin = cat_model_nlinear(m);
  double bits = 0;
  for (size_t i = 0; i < nlin; i++) {
    double n = 0, part = 0;
    for (size_t t = 0; t < p->nthreads; t++) {
      const lx_thread *th = &p->threads[t];
      size_t most = 0;
      for (size_t k = 0; k < th->npaths; k++) {
        const lx_path *path = &p->paths[th->paths[k]];
        size_t c = 0;
        for (size_t j = 0; j < path->nevents; j++)
          c += cat_model_linear_may(m, i, event_in, (void *)&p->events[path->events[j]]);
        if (c > most) most = c;
      }
      n += (double)most;
      part -= lgamma((double)most + 1);
    }
    bits += (part + lgamma(n + 1)) / log(2);
  }
  return bits;
}

/* The linearisations' orders: the explicit engine tries each for every
 * execution it reaches, Z3 chooses one as it chooses co.  herd's C11
 * models under both engines (CPU s, enum against smt; scripts/bench-
 * foreign-models has the corpora), two threads of k seq_cst stores and a
 * load, n threads of one (orders of S in parentheses): c11_orig k=2 (20)
 * 0.003/0.012, k=3 (70) 0.018/0.016, k=4 (252) 0.11/0.019, k=5 (924)
 * 0.78/0.024; n=3 (90) 0.004/0.012, n=4 (2,520) 0.14/0.015, n=5
 * (113,400) no answer (more orders than the explicit engine tries,
 * cat_lin.h) against 0.022; simple-c11 about half the explicit engine's
 * times.  From ~128 orders a test goes to Z3, loops and branches too
 * where the explicit engine could not try them all. */
#define AUTO_LIN_LOG2 7.0          /* 128 orders of S */
#define AUTO_LIN_CAP_LOG2 16.6     /* log2 of CAT_MAX_LINEARISATIONS, 100,000 */
static lc_engine auto_engine_for(const lx_program *p, const cat_model *m) {
  lc_engine e = auto_engine(p);
  if (e == LC_ENGINE_ENUM && cat_model_closes_order(m) && !cat_model_checks_fixpoint(m)) {
    double enum_log2, smt_log2;
    lc_engine_costs(p, &enum_log2, &smt_log2);
    if (measure(p).co_log2 >= AUTO_CO_CLOSED_LOG2 || enum_log2 >= AUTO_CLOSED_SPACE_LOG2) return LC_ENGINE_SMT;
  }
  if (e == LC_ENGINE_ENUM && cat_model_nlinear(m)) {
    double lin = lin_log2(p, m);
    if (lin >= AUTO_LIN_CAP_LOG2 || (lin >= AUTO_LIN_LOG2 && measure(p).combos < 4)) return LC_ENGINE_SMT;
  }
  return e;
}

lc_engine lc_engine_choose_for(const lx_program *p, const cat_model *m) { return auto_engine_for(p, m); }

/* The engines name the time they were given, which is what lowering left
 * of the user's --timeout: name the user's. */
static void name_user_timeout(lc_result *r, double timeout) {
  const char *rest = strstr(r->message, " s) ");
  if (strncmp(r->message, "out of time (--timeout ", 23) != 0 || !rest) return;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "out of time (--timeout %g%s", timeout, rest);
  free(r->message);
  r->message = lc_buf_take(&b);
  lc_buf_fini(&b);
}

lc_result *lc_check_program(const lx_program *p, const cat_model *m, const lc_check_options *o, double start) {
  return lc_check_program_hooked(p, m, o, start, NULL);
}

lc_result *lc_check_program_hooked(const lx_program *p, const cat_model *m, const lc_check_options *o,
                                   double start, const lc_state_hook *hook) {
  assert(p && m && o && o->engine <= LC_ENGINE_AUTO);
  double left = o->timeout > 0 ? o->timeout - (lc_now() - start) : 0;
  if (o->timeout > 0 && left < 1e-3) left = 1e-3;
  lc_engine engine = o->engine == LC_ENGINE_AUTO ? auto_engine_for(p, m) : o->engine;
  lc_result *r;
  if (engine == LC_ENGINE_ENUM) {
    enum_options eo = {left, o->races, false, o->cut_loops};
    r = enum_check_hooked(p, m, &eo, hook);
  } else {
    smt_options so = {left, o->races, o->threads, o->cut_loops};
    r = smt_check_hooked(p, m, &so, hook);
  }
  if (r->status == LC_RESULT_UNKNOWN && o->timeout > 0 && r->message)
    name_user_timeout(r, o->timeout);
  for (size_t f = 0; f < r->nflags; f++)
    for (size_t i = 0; i < cat_model_nchecks(m); i++)
      if (cat_model_check_is_undef(m, i) && strcmp(cat_model_check_name(m, i), r->flags[f].name) == 0)
        r->flags[f].undef = true;
  return r;
}
