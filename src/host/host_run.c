/* host_run.c - running a litmus test on CPU threads, litmus7-style.
 * SPDX-License-Identifier: MIT
 *
 * One pthread per litmus thread (the calling thread plays P0's role).  A
 * run is a series of batches; a batch runs n instances of the test, each
 * with its own copy of every location, `stride` words apart so that no two
 * instances share a cache line.  Within a batch every thread walks the
 * instances in the same order, and (par->barrier) all threads meet at a
 * spin barrier before each instance, so that the roles of one instance run
 * at the same moment on different cores: that overlap is what lets weak
 * behaviours (a load passing an earlier store still in the store buffer)
 * show.  Between batches the threads wait on a blocking barrier while P0's
 * thread classifies the outcomes and resets memory.
 *
 * Randomness (one seed): which CPU each role is pinned to, and per batch a
 * rotation of each location's copies among the instances (par->shuffle), so
 * that instance i's x and y sit at different distances each batch.
 *
 * Termination: a thread abandons an instance when no thread of it can make
 * progress any more: each is finished, blocked at a barrier that cannot be
 * released, or spinning in a loop that comes back to the same state while
 * nobody writes (detected exactly, `quiescent`); the instance *hung*.  As
 * a safety net for what that misses (a loop counting forever, two threads
 * exchanging a value forever), a thread also gives up after
 * par->spin_limit backward jumps or rounds of waiting once the other
 * threads of the instance are finished, blocked or idle, and in any case
 * after par->watchdog seconds in one instance (the watchdog, checked every
 * HOST_CLOCK_EVERY spins): on a loaded machine a thread may be descheduled
 * for longer than the spins last, and its partner must not give up on it
 * sooner.  Such an instance is *cut*.  Neither is binned.  Once cut
 * instances have spun for RUN_WATCHDOG_BUDGET watchdogs in all, the run
 * halts: every thread leaves its instance and skips the rest of the batch
 * (skipped instances are not counted as run), so that a test whose loops
 * never end takes seconds, not hours.  Abandoning is safe because every
 * instance has its own memory and its own barrier records.
 */
#define _GNU_SOURCE   /* sched_getcpu, pthread_setaffinity_np */
#include "host/host.h"

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "host/host_code.h"

enum {
  HOST_DEFAULT_INSTANCES = 2000,   /* per batch */
  HOST_DEFAULT_ITERATIONS = 100,   /* batches, when neither --iterations nor --time is given */
  HOST_MAX_ARRIVALS = 8,           /* barrier arrivals per thread per instance */
  HOST_CACHE_LINE = 64,
  HOST_DEFAULT_SPIN_LIMIT = 1000000
};

/* Status bits of one thread in one instance: cut (spin limit, watchdog);
 * took a backward jump more often than the model's unroll bound; hung
 * (the instance can never end); not run (the run halted). */
enum { HOST_INCOMPLETE = 1, HOST_BEYOND = 2, HOST_HUNG = 4, HOST_SKIPPED = 8 };

/* Why a thread leaves an instance before its end. */
enum { HOST_CUT = -1, HOST_STUCK = -2 };

/* Spins between two looks at the clock (the watchdog). */
enum { HOST_CLOCK_EVERY = 1024 };

/* ---- randomness ------------------------------------------------------------------ */

/* splitmix64: small, and every seed (0 included) gives a good stream. */
static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* ---- waiting ----------------------------------------------------------------------- */

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

/* Spinning threads give their CPU away after a while when threads are not
 * pinned to CPUs of their own: the thread they wait for may need it. */
static inline void backoff_yield(bool yield, unsigned round) {
  if (!yield || round < 256) cpu_relax();
  else sched_yield();
}

/* A sense-reversing spin barrier: the generation read before arriving
 * cannot change until every thread, this one included, has arrived. */
typedef struct host_spin_barrier {
  _Alignas(HOST_CACHE_LINE) atomic_uint count;
  _Alignas(HOST_CACHE_LINE) atomic_uint gen;
} host_spin_barrier;

/* Returns early once `halt` is set (the barrier is not used again). */
static void spin_barrier_wait(host_spin_barrier *b, unsigned n, bool yield, const atomic_bool *halt) {
  unsigned g = atomic_load_explicit(&b->gen, memory_order_relaxed);
  if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) == n - 1) {
    atomic_store_explicit(&b->count, 0, memory_order_relaxed);
    atomic_store_explicit(&b->gen, g + 1, memory_order_release);
    return;
  }
  for (unsigned round = 0; atomic_load_explicit(&b->gen, memory_order_acquire) == g; round++) {
    if (round % HOST_CLOCK_EVERY == 0 && atomic_load_explicit(halt, memory_order_relaxed)) return;
    backoff_yield(yield, round);
  }
}

/* A blocking barrier for the start and end of a batch, where threads may
 * wait long (P0's thread classifies outcomes meanwhile).  Unlike a pthread
 * barrier its size can shrink, for when a worker cannot be started. */
typedef struct host_gate {
  pthread_mutex_t m;
  pthread_cond_t c;
  unsigned n, count;
  unsigned long gen;
} host_gate;

static void gate_init(host_gate *g, unsigned n) {
  pthread_mutex_init(&g->m, NULL);
  pthread_cond_init(&g->c, NULL);
  g->n = n;
  g->count = 0;
  g->gen = 0;
}

static void gate_fini(host_gate *g) {
  pthread_cond_destroy(&g->c);
  pthread_mutex_destroy(&g->m);
}

static void gate_release(host_gate *g) {
  g->count = 0;
  g->gen++;
  pthread_cond_broadcast(&g->c);
}

static void gate_wait(host_gate *g) {
  pthread_mutex_lock(&g->m);
  unsigned long gen = g->gen;
  if (++g->count >= g->n) gate_release(g);
  else
    while (gen == g->gen) pthread_cond_wait(&g->c, &g->m);
  pthread_mutex_unlock(&g->m);
}

static void gate_resize(host_gate *g, unsigned n) {
  pthread_mutex_lock(&g->m);
  g->n = n;
  if (g->count && g->count >= n) gate_release(g);
  pthread_mutex_unlock(&g->m);
}

/* ---- CTA barriers --------------------------------------------------------------------- */

/* What one thread has done at CTA barriers in one instance.  The barrier
 * rule (docs/model-language.md, "Barriers"): the k-th arrival of a thread
 * at barrier number n joins the k-th instance of n with the same id; a
 * wait is released once `count` threads have arrived at its instance, or,
 * without a count, once every thread of the CTA has arrived there or can
 * no longer arrive (it finished, its k-th arrival at n had another id, or
 * its code has fewer than k bar ops numbered n).  A thread that may still
 * arrive is waited for, so a wait is never released earlier than the model
 * allows.  Arrivals publish with release and waits read them with acquire:
 * the CTA-scoped release/acquire of sync_bar.
 *
 * The log also serves to end instances that cannot end: a deadlock at
 * barriers (a quorum that cannot be met, barriers met in opposite orders:
 * the model's "no candidate execution") or threads spinning in vain.  See
 * `quiescent`.  Each log is a seqlock (seq odd while its owner changes it)
 * so that a reader can take a consistent snapshot of all of them by
 * reading every log twice. */
typedef struct host_arrival {
  int32_t n;
  int32_t has_id;
  lx_val id;
} host_arrival;

typedef struct host_barlog {
  _Alignas(HOST_CACHE_LINE) atomic_uint seq;
  atomic_uint narrived, done, waiting, idle;
  atomic_ulong writes;                  /* the owner's writes and arrivals so far, published */
  atomic_ulong idle_sum;                /* while idle: the sum of writes its loop cycle saw */
  atomic_int wait_n;                    /* the wait, while waiting */
  atomic_uint wait_k;
  atomic_int wait_has_id, wait_has_count;
  _Atomic lx_val wait_id, wait_count;
  host_arrival a[HOST_MAX_ARRIVALS];    /* written before narrived counts them */
} host_barlog;

static void log_begin(host_barlog *log) {
  atomic_store_explicit(&log->seq, atomic_load_explicit(&log->seq, memory_order_relaxed) + 1,
                        memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
}

static void log_end(host_barlog *log) {
  atomic_store_explicit(&log->seq, atomic_load_explicit(&log->seq, memory_order_relaxed) + 1,
                        memory_order_release);
}

/* A wait as published in a log, or as about to be. */
typedef struct host_wait {
  int n;
  unsigned k;
  bool has_id, has_count;
  lx_val id, count;
} host_wait;

/* ---- the run's shared state ---------------------------------------------------------------- */

typedef struct host_shared host_shared;

typedef struct host_worker {
  host_shared *sh;
  size_t t;                      /* litmus thread index */
  const host_thread *code;
  lx_val *regs;                  /* working registers */
  uint32_t *backs;               /* backward jumps taken, per op, this instance */
  _Atomic lx_val **loc;          /* per ploc: this instance's copy */
  lx_val *out;                   /* n * nregs final registers */
  uint8_t *status;               /* n: HOST_INCOMPLETE | HOST_BEYOND */
  int cpu;                       /* pinned to, or -1 */
  int ran_on;                    /* sched_getcpu() at the start of the batch */
  unsigned *seqs;                /* nthreads: quiescent's first collect */
  unsigned long nwrites;         /* writes and barrier arrivals in this instance */
  lx_val *snap;                  /* at the last check for a stuck loop: registers, */
  size_t snap_pc;                /* the jump, */
  unsigned long snap_writes;     /* nwrites, */
  unsigned long snap_sum;        /* and everybody's published writes */
  bool snap_valid;
  double inst_start;             /* when this instance first spun long (the watchdog), 0 before */
  pthread_t tid;
  bool started;
} host_worker;

struct host_shared {
  const lx_program *p;
  const host_code *hc;
  size_t n;                      /* instances per batch */
  size_t stride;                 /* words */
  size_t nthreads, nplocs;
  _Atomic lx_val *mem;           /* nplocs regions of n * stride words */
  size_t *rot;                   /* per ploc: this batch's rotation of copies */
  host_barlog *bars;             /* n * nthreads when some thread has a barrier or a loop */
  host_spin_barrier *sync;       /* per-instance barrier, or NULL */
  host_gate batch;               /* between batches */
  atomic_bool go;
  atomic_bool halt;              /* the watchdog ended the run: leave and skip instances */
  atomic_uint watchdog_cuts;
  atomic_ulong cut_us;           /* what cuts have cost, in microseconds of spinning */
  unsigned spin_limit, unroll;
  double watchdog;               /* seconds */
  bool yield;                    /* threads are not pinned to CPUs of their own */
  host_worker *w;
};

static inline void backoff(const host_shared *sh, unsigned round) { backoff_yield(sh->yield, round); }

static _Atomic lx_val *slot(const host_shared *sh, size_t ploc, size_t i) {
  size_t k = i + sh->rot[ploc];
  if (k >= sh->n) k -= sh->n;
  return sh->mem + (ploc * sh->n + k) * sh->stride;
}

/* ---- C11 accesses with constant orders ----------------------------------------------------- */

static inline lx_val do_load(_Atomic lx_val *a, host_order o) {
  switch (o) {
  case HOST_ACQ:
  case HOST_ACQ_REL: return atomic_load_explicit(a, memory_order_acquire);
  case HOST_SC: return atomic_load_explicit(a, memory_order_seq_cst);
  default: return atomic_load_explicit(a, memory_order_relaxed);
  }
}

static inline void do_store(_Atomic lx_val *a, lx_val v, host_order o) {
  switch (o) {
  case HOST_REL:
  case HOST_ACQ_REL: atomic_store_explicit(a, v, memory_order_release); break;
  case HOST_SC: atomic_store_explicit(a, v, memory_order_seq_cst); break;
  default: atomic_store_explicit(a, v, memory_order_relaxed); break;
  }
}

static inline void do_fence(host_order o) {
  switch (o) {
  case HOST_ACQ: atomic_thread_fence(memory_order_acquire); break;
  case HOST_REL: atomic_thread_fence(memory_order_release); break;
  case HOST_ACQ_REL: atomic_thread_fence(memory_order_acq_rel); break;
  case HOST_SC: atomic_thread_fence(memory_order_seq_cst); break;
  default: break;
  }
}

#define WITH_ORDER(o, CALL)                                         \
  switch (o) {                                                      \
  case HOST_ACQ: CALL(memory_order_acquire, memory_order_acquire); \
  case HOST_REL: CALL(memory_order_release, memory_order_relaxed); \
  case HOST_ACQ_REL: CALL(memory_order_acq_rel, memory_order_acquire); \
  case HOST_SC: CALL(memory_order_seq_cst, memory_order_seq_cst);  \
  default: CALL(memory_order_relaxed, memory_order_relaxed);        \
  }

static inline lx_val do_exchange(_Atomic lx_val *a, lx_val v, host_order o) {
#define EXCH(mo, fo) return atomic_exchange_explicit(a, v, mo)
  WITH_ORDER(o, EXCH)
#undef EXCH
}

/* Returns the old value; writes only when it equals `expected` (a failed
 * cas is a read alone, as in the model), with the failure order f (RLX,
 * ACQ or SC).  C11 7.17.7.4p2 wants f no stronger than the success order:
 * where the test's is weaker (relaxed success, acquire failure), the
 * success order is raised to cover f, stronger than the test but never
 * weaker (a host run may miss an outcome, never show a forbidden one). */
static inline lx_val do_cas(_Atomic lx_val *a, lx_val expected, lx_val desired, host_order o,
                            host_order f) {
  if (f == HOST_SC) o = HOST_SC;
  else if (f == HOST_ACQ && o == HOST_RLX) o = HOST_ACQ;
  else if (f == HOST_ACQ && o == HOST_REL) o = HOST_ACQ_REL;
#define CAS(mo, fo) \
  do { \
    atomic_compare_exchange_strong_explicit(a, &expected, desired, mo, fo); \
    return expected; \
  } while (0)
#define CAS_ACQ(mo) /* f is ACQ or RLX here */ \
  if (f == HOST_ACQ) CAS(mo, memory_order_acquire); \
  CAS(mo, memory_order_relaxed)
  switch (o) {
  case HOST_ACQ: CAS_ACQ(memory_order_acquire);
  case HOST_REL: CAS(memory_order_release, memory_order_relaxed);
  case HOST_ACQ_REL: CAS_ACQ(memory_order_acq_rel);
  case HOST_SC:
    if (f == HOST_SC) CAS(memory_order_seq_cst, memory_order_seq_cst);
    CAS_ACQ(memory_order_seq_cst);
  default: CAS(memory_order_relaxed, memory_order_relaxed);
  }
#undef CAS_ACQ
#undef CAS
}

static inline lx_val fetch_op(_Atomic lx_val *a, lx_op op, lx_val v, host_order o) {
#define FETCH(mo, fo)                                                   \
  switch (op) {                                                         \
  case LX_OP_ADD: return atomic_fetch_add_explicit(a, v, mo);           \
  case LX_OP_SUB: return atomic_fetch_sub_explicit(a, v, mo);           \
  case LX_OP_AND: return atomic_fetch_and_explicit(a, v, mo);           \
  case LX_OP_OR: return atomic_fetch_or_explicit(a, v, mo);             \
  case LX_OP_XOR: return atomic_fetch_xor_explicit(a, v, mo);           \
  default: {                                                            \
    lx_val old = atomic_load_explicit(a, memory_order_relaxed);         \
    while (!atomic_compare_exchange_weak_explicit(a, &old, lx_op_apply(op, old, v), mo, fo)) {} \
    return old;                                                         \
  }                                                                     \
  }
  WITH_ORDER(o, FETCH)
#undef FETCH
}

/* A 32-bit RMW: the new value wraps at 32 bits (exec/lower.c), so it is
 * computed in a CAS loop as the other operations without a C11 fetch. */
static inline lx_val fetch_wrap(_Atomic lx_val *a, lx_op op, lx_op wrap, lx_val v, host_order o) {
  lx_val old = atomic_load_explicit(a, memory_order_relaxed);
#define FETCH(mo, fo)                                                   \
  while (!atomic_compare_exchange_weak_explicit(a, &old, lx_op_apply(wrap, lx_op_apply(op, old, v), 0), mo, fo)) {} \
  return old;
  WITH_ORDER(o, FETCH)
#undef FETCH
}

/* ---- the interpreter --------------------------------------------------------------------- */

static inline lx_val val(const host_opnd *o, const lx_val *r) { return o->reg >= 0 ? r[o->reg] : o->c; }

/* The memory an op accesses in the current instance; NULL when a register
 * does not hold the address of a location (the lowering rules that out
 * within the unroll bound, but a loop run further might compute one). */
static _Atomic lx_val *address(const host_worker *w, const host_op *o) {
  if (o->ploc >= 0) return w->loc[o->ploc];
  int v = lx_addr_loc(w->sh->p, w->regs[o->addr_reg]);
  if (v < 0 || w->sh->p->locs[v].alias) return NULL;
  return w->loc[w->sh->p->locs[v].ploc];
}

static bool same_id(const host_arrival *x, bool has_id, lx_val id) {
  return (x->has_id != 0) == has_id && (!has_id || x->id == id);
}

static host_barlog *barlog(const host_shared *sh, size_t inst, size_t t) {
  return &sh->bars[inst * sh->nthreads + t];
}

/* Can thread t's wait w be released now? */
static bool wait_ready(const host_shared *sh, size_t inst, size_t t, const host_wait *w) {
  unsigned arrived = 1, pending = 0;
  bool cluster = w->n == LX_BAR_CLUSTER;   /* barrier.cluster: every thread of the cluster */
  bool grid = w->n == LX_BAR_GRID;         /* the grid's: every thread of the GPU */
  const host_thread *ht = sh->hc->threads;
  int group = cluster ? ht[t].cluster_group : grid ? ht[t].grid_group : ht[t].group;
  for (size_t u = 0; u < sh->nthreads; u++) {
    if (u == t || (cluster ? ht[u].cluster_group : grid ? ht[u].grid_group : ht[u].group) != group) continue;
    host_barlog *log = barlog(sh, inst, u);
    unsigned done = atomic_load_explicit(&log->done, memory_order_acquire);
    unsigned cnt = atomic_load_explicit(&log->narrived, memory_order_acquire);
    unsigned seen = 0;
    const host_arrival *kth = NULL;
    for (unsigned j = 0; j < cnt && !kth; j++)
      if (log->a[j].n == w->n && ++seen == w->k) kth = &log->a[j];
    if (kth) arrived += same_id(kth, w->has_id, w->id);
    else if (!done && host_bar_max(&sh->hc->threads[u], w->n) >= w->k) pending++;
  }
  return w->has_count ? (lx_val)arrived >= w->count : pending == 0;
}

static host_wait published_wait(host_barlog *log) {
  host_wait w;
  w.n = atomic_load_explicit(&log->wait_n, memory_order_relaxed);
  w.k = atomic_load_explicit(&log->wait_k, memory_order_relaxed);
  w.has_id = atomic_load_explicit(&log->wait_has_id, memory_order_relaxed);
  w.has_count = atomic_load_explicit(&log->wait_has_count, memory_order_relaxed);
  w.id = atomic_load_explicit(&log->wait_id, memory_order_relaxed);
  w.count = atomic_load_explicit(&log->wait_count, memory_order_relaxed);
  return w;
}

/* Can the instance make no progress any more?  Every thread, w included,
 * must be finished, waiting at a barrier that cannot be released, or idle:
 * spinning in a loop whose last cycle came back to the same jump with the
 * same registers and wrote nothing, while nobody's published writes
 * changed.  Such a thread read memory that no longer changes (the writes
 * it saw published happen before its cycle), so it will cycle forever
 * unless someone writes or arrives, and nobody can.  Each thread publishes
 * its writes whenever it waits, idles or finishes, so a validated idle
 * state (its sum equal to the current sum) is never stale.  Reads every
 * log, then checks that none changed meanwhile (double collect). */
static bool quiescent(host_worker *w, size_t inst) {
  const host_shared *sh = w->sh;
  unsigned long sum = 0;
  for (size_t u = 0; u < sh->nthreads; u++) {
    host_barlog *log = barlog(sh, inst, u);
    unsigned seq = atomic_load_explicit(&log->seq, memory_order_acquire);
    if (seq & 1) return false;
    w->seqs[u] = seq;
    sum += atomic_load_explicit(&log->writes, memory_order_acquire);
  }
  for (size_t u = 0; u < sh->nthreads; u++) {
    host_barlog *log = barlog(sh, inst, u);
    if (atomic_load_explicit(&log->done, memory_order_relaxed)) continue;
    if (atomic_load_explicit(&log->waiting, memory_order_relaxed)) {
      host_wait pw = published_wait(log);
      if (wait_ready(sh, inst, u, &pw)) return false;
    } else if (!atomic_load_explicit(&log->idle, memory_order_relaxed) ||
               atomic_load_explicit(&log->idle_sum, memory_order_relaxed) != sum) {
      return false;
    }
  }
  atomic_thread_fence(memory_order_acquire);
  for (size_t u = 0; u < sh->nthreads; u++)
    if (atomic_load_explicit(&barlog(sh, inst, u)->seq, memory_order_relaxed) != w->seqs[u]) return false;
  return true;
}

/* The sum of every thread's published writes, read with acquire so that
 * this thread sees the writes counted. */
static unsigned long published_writes(const host_shared *sh, size_t inst) {
  unsigned long sum = 0;
  for (size_t u = 0; u < sh->nthreads; u++)
    sum += atomic_load_explicit(&barlog(sh, inst, u)->writes, memory_order_acquire);
  return sum;
}

static void publish_wait(host_barlog *log, const host_wait *w, bool waiting, unsigned long nwrites) {
  log_begin(log);
  if (waiting) {
    atomic_store_explicit(&log->wait_n, w->n, memory_order_relaxed);
    atomic_store_explicit(&log->wait_k, w->k, memory_order_relaxed);
    atomic_store_explicit(&log->wait_has_id, w->has_id, memory_order_relaxed);
    atomic_store_explicit(&log->wait_has_count, w->has_count, memory_order_relaxed);
    atomic_store_explicit(&log->wait_id, w->id, memory_order_relaxed);
    atomic_store_explicit(&log->wait_count, w->count, memory_order_relaxed);
  }
  atomic_store_explicit(&log->waiting, waiting, memory_order_relaxed);
  atomic_store_explicit(&log->idle, 0, memory_order_relaxed);
  atomic_store_explicit(&log->writes, nwrites, memory_order_release);
  log_end(log);
}

static void publish_idle(host_barlog *log, bool idle, unsigned long sum, unsigned long nwrites) {
  log_begin(log);
  atomic_store_explicit(&log->idle, idle, memory_order_relaxed);
  atomic_store_explicit(&log->idle_sum, sum, memory_order_relaxed);
  atomic_store_explicit(&log->writes, nwrites, memory_order_release);
  log_end(log);
}

/* Past the spin limit: give up, unless another thread of the instance is
 * still running (neither finished, waiting nor idle) and may release this
 * one (the watchdog ends that wait). */
static bool give_up(host_worker *w, size_t inst) {
  const host_shared *sh = w->sh;
  for (size_t u = 0; u < sh->nthreads; u++) {
    host_barlog *log = barlog(sh, inst, u);
    if (u != w->t && !atomic_load_explicit(&log->done, memory_order_relaxed) &&
        !atomic_load_explicit(&log->waiting, memory_order_relaxed) &&
        !atomic_load_explicit(&log->idle, memory_order_relaxed))
      return false;
  }
  return true;
}

/* Every HOST_CLOCK_EVERY spins: has the run halted, or has this instance
 * spun for longer than the watchdog allows?  The clock starts at the first
 * look, so an instance that spins briefly never reads it. */
static bool watchdog_fires(host_worker *w, unsigned spins) {
  host_shared *sh = w->sh;
  if (spins % HOST_CLOCK_EVERY != 0) return false;
  if (atomic_load_explicit(&sh->halt, memory_order_relaxed)) return true;
  double now = lc_now();
  if (w->inst_start == 0) w->inst_start = now;
  if (now - w->inst_start <= sh->watchdog) return false;
  atomic_fetch_add(&sh->watchdog_cuts, 1);
  return true;
}

/* A cut costs the time this thread spun in the instance (from its first
 * look at the clock); once cuts have cost RUN_WATCHDOG_BUDGET watchdogs in
 * all, the run halts. */
static int cut(host_worker *w) {
  host_shared *sh = w->sh;
  if (w->inst_start != 0) {
    unsigned long us = (unsigned long)((lc_now() - w->inst_start) * 1e6);
    unsigned long total = atomic_fetch_add(&sh->cut_us, us) + us;
    if ((double)total > RUN_WATCHDOG_BUDGET * sh->watchdog * 1e6) atomic_store(&sh->halt, true);
  }
  return HOST_CUT;
}

/* Arrives at a CTA barrier; returns the k of this arrival, or 0 when the
 * log is full (the instance is abandoned). */
static unsigned arrive(host_barlog *log, int n, bool has_id, lx_val id) {
  unsigned cnt = atomic_load_explicit(&log->narrived, memory_order_relaxed);
  if (cnt >= HOST_MAX_ARRIVALS) return 0;
  unsigned k = 1;
  for (unsigned j = 0; j < cnt; j++) k += log->a[j].n == n;
  log_begin(log);
  log->a[cnt] = (host_arrival){n, has_id, id};
  atomic_store_explicit(&log->narrived, cnt + 1, memory_order_release);
  log_end(log);
  return k;
}

/* Arrives at a CTA barrier and, for a sync, waits.  Returns HOST_CUT or
 * HOST_STUCK when the instance must be abandoned. */
static int bar(host_worker *w, const host_op *o, size_t inst) {
  host_shared *sh = w->sh;
  host_barlog *mine = barlog(sh, inst, w->t);
  host_wait wt = {o->bar_n, 0, o->has_id, o->has_count, o->has_id ? val(&o->a, w->regs) : 0,
                  o->has_count ? val(&o->b, w->regs) : 0};
  if (o->wait_only) {   /* barrier.cluster.wait: the instance of this thread's last arrive */
    unsigned cnt = atomic_load_explicit(&mine->narrived, memory_order_relaxed);
    for (unsigned j = 0; j < cnt; j++) wt.k += mine->a[j].n == o->bar_n;
    if (!wt.k) return 0;
  } else {
    wt.k = arrive(mine, o->bar_n, wt.has_id, wt.id);
    if (!wt.k) return HOST_CUT;
    w->nwrites++;
  }
  if (o->arrive_only || wait_ready(sh, inst, w->t, &wt)) return 0;
  publish_wait(mine, &wt, true, w->nwrites);
  for (unsigned round = 1;; round++) {
    backoff(sh, round);
    if (wait_ready(sh, inst, w->t, &wt)) break;
    if ((round >= sh->spin_limit && give_up(w, inst)) || watchdog_fires(w, round)) return cut(w);
    if (round % 64 == 0 && quiescent(w, inst)) return HOST_STUCK;
  }
  publish_wait(mine, &wt, false, w->nwrites);
  return 0;
}

/* Marks the thread finished with this instance (released or abandoned). */
static void finish_instance(host_shared *sh, size_t inst, size_t t, unsigned long nwrites) {
  host_barlog *log = barlog(sh, inst, t);
  log_begin(log);
  atomic_store_explicit(&log->waiting, 0, memory_order_relaxed);
  atomic_store_explicit(&log->idle, 0, memory_order_relaxed);
  atomic_store_explicit(&log->writes, nwrites, memory_order_release);
  atomic_store_explicit(&log->done, 1, memory_order_release);
  log_end(log);
}

/* Is the thread in a loop that cannot end?  It is idle when it comes back
 * to the jump of the last check with the same registers, having written
 * nothing while nobody published a write; it then publishes so, and the
 * instance is stuck when everybody is finished, blocked or idle
 * (`quiescent`).  Checked every 64 backward jumps. */
static bool stuck(host_worker *w, size_t inst, size_t from) {
  size_t bytes = w->code->nregs * sizeof(lx_val);
  bool same = w->snap_valid && w->snap_pc == from && w->snap_writes == w->nwrites &&
              (!bytes || memcmp(w->snap, w->regs, bytes) == 0);
  unsigned long sum = published_writes(w->sh, inst);
  bool idle = same && sum == w->snap_sum;
  host_barlog *mine = barlog(w->sh, inst, w->t);
  publish_idle(mine, idle, sum, w->nwrites);
  if (idle && quiescent(w, inst)) return true;
  /* the next cycle starts here; the sum includes our own writes, now published */
  w->snap_valid = true;
  w->snap_pc = from;
  w->snap_writes = w->nwrites;
  w->snap_sum = published_writes(w->sh, inst);
  if (bytes) memcpy(w->snap, w->regs, bytes);
  return false;
}

/* Takes a jump from op `from`; backward jumps count against the model's
 * unroll bound (HOST_BEYOND), the spin limit and the watchdog (HOST_CUT). */
static int jump(host_worker *w, size_t inst, size_t from, const host_op *o, size_t *pc, unsigned *spins,
                unsigned *st) {
  if ((size_t)o->target <= from) {
    if (++w->backs[from] > w->sh->unroll) *st |= HOST_BEYOND;
    if ((++*spins > w->sh->spin_limit && give_up(w, inst)) || watchdog_fires(w, *spins)) return cut(w);
    if (*spins % 64 == 0 && stuck(w, inst, from)) return HOST_STUCK;
    backoff(w->sh, *spins);
  }
  *pc = (size_t)o->target;
  return 0;
}

/* Runs the thread's code for one instance; returns its status bits. */
static unsigned run_code(host_worker *w, size_t inst) {
  const host_thread *th = w->code;
  lx_val *r = w->regs;
  if (th->nregs) memcpy(r, th->init, th->nregs * sizeof(lx_val));
  if (th->has_loop) memset(w->backs, 0, th->nops * sizeof(uint32_t));
  w->snap_valid = false;
  w->inst_start = 0;
  w->nwrites = 0;
  unsigned spins = 0, st = 0;
  for (size_t pc = 0; pc < th->nops;) {
    size_t at = pc++;
    const host_op *o = &th->ops[at];
    _Atomic lx_val *a = NULL;
    if (o->code >= HOST_LD && o->code <= HOST_CAS && !(a = address(w, o))) return st | HOST_INCOMPLETE;
    lx_val v = 0;
    switch (o->code) {
    case HOST_NOP: continue;
    case HOST_LD: v = do_load(a, o->order); break;
    case HOST_ST:
      do_store(a, val(&o->a, r), o->order);
      w->nwrites++;
      continue;
    case HOST_RMW:
      v = o->wrap ? fetch_wrap(a, o->op, o->wrap_op, val(&o->a, r), o->order) : fetch_op(a, o->op, val(&o->a, r), o->order);
      w->nwrites++;
      break;
    case HOST_EXCH: v = do_exchange(a, val(&o->a, r), o->order), w->nwrites++; break;
    case HOST_CAS: {
      lx_val expected = val(&o->a, r);
      v = do_cas(a, expected, val(&o->b, r), o->order, o->fail_order), w->nwrites++;
      if (o->cas_ok >= 0) {   /* C++ (exec/lower.c, lower_rmw) */
        r[o->cas_ok] = v == expected;
        if (v != expected && o->a.reg >= 0) r[o->a.reg] = v;
      }
      break;
    }
    case HOST_FENCE: do_fence(o->order); continue;
    case HOST_BAR: {
      int why = bar(w, o, inst);
      if (why < 0) return st | (why == HOST_STUCK ? HOST_HUNG : HOST_INCOMPLETE);
      continue;
    }
    case HOST_ALU:
      v = val(&o->a, r);
      if (o->prewrap) v = lx_op_apply(o->wrap_op, v, 0);
      if (!o->mov) v = lx_op_apply(o->op, v, val(&o->b, r));
      if (o->wrap) v = lx_op_apply(o->wrap_op, v, 0);
      break;
    case HOST_BRANCH:
      if (!lx_cmp_apply(o->cmp, val(&o->a, r), val(&o->b, r))) continue;
      /* fall through */
    case HOST_GOTO: {
      int why = jump(w, inst, at, o, &pc, &spins, &st);
      if (why < 0) return st | (why == HOST_STUCK ? HOST_HUNG : HOST_INCOMPLETE);
      continue;
    }
    }
    if (o->has_post) v = lx_op_apply(o->post, v, val(&o->a, r));
    if (o->acquire_if_done && v) atomic_thread_fence(memory_order_acquire);
    if (o->dst >= 0) r[o->dst] = v;
  }
  return st;
}

/* ---- batches -------------------------------------------------------------------------------- */

static void run_instance(host_worker *w, size_t i) {
  host_shared *sh = w->sh;
  for (size_t l = 0; l < sh->nplocs; l++) w->loc[l] = slot(sh, l, i);
  unsigned st = run_code(w, i);
  if (sh->bars) finish_instance(sh, i, w->t, w->nwrites);
  w->status[i] = (uint8_t)st;
  if (w->code->nregs) memcpy(w->out + i * w->code->nregs, w->regs, w->code->nregs * sizeof(lx_val));
}

static void run_batch(host_worker *w) {
  host_shared *sh = w->sh;
  w->ran_on = sched_getcpu();
  for (size_t i = 0; i < sh->n; i++) {
    if (sh->sync) spin_barrier_wait(sh->sync, (unsigned)sh->nthreads, sh->yield, &sh->halt);
    if (atomic_load_explicit(&sh->halt, memory_order_relaxed)) w->status[i] = HOST_SKIPPED;
    else run_instance(w, i);
  }
}

static void *worker_main(void *arg) {
  host_worker *w = arg;
  for (;;) {
    gate_wait(&w->sh->batch);
    if (!atomic_load(&w->sh->go)) break;
    run_batch(w);
    gate_wait(&w->sh->batch);
  }
  return NULL;
}

/* Initial values in every copy, a fresh rotation, empty barrier records. */
static void prepare_batch(host_shared *sh, bool shuffle, uint64_t *rng) {
  for (size_t l = 0; l < sh->nplocs; l++) {
    sh->rot[l] = shuffle ? (size_t)(rng_next(rng) % sh->n) : 0;
    lx_val init = sh->p->plocs[l].init;
    for (size_t i = 0; i < sh->n; i++)
      atomic_store_explicit(sh->mem + (l * sh->n + i) * sh->stride, init, memory_order_relaxed);
  }
  for (size_t b = 0; sh->bars && b < sh->n * sh->nthreads; b++) {
    atomic_store_explicit(&sh->bars[b].seq, 0, memory_order_relaxed);
    atomic_store_explicit(&sh->bars[b].narrived, 0, memory_order_relaxed);
    atomic_store_explicit(&sh->bars[b].done, 0, memory_order_relaxed);
    atomic_store_explicit(&sh->bars[b].waiting, 0, memory_order_relaxed);
    atomic_store_explicit(&sh->bars[b].idle, 0, memory_order_relaxed);
    atomic_store_explicit(&sh->bars[b].writes, 0, memory_order_relaxed);
  }
}

/* ---- outcomes ----------------------------------------------------------------------------- */

typedef struct host_classifier {
  const lc_result *allowed;
  unsigned max_forbidden;
  lx_val *vals;                  /* nobs */
  int *cpus;                     /* nthreads */
  LC_VEC(signed char) verdict;   /* per bin: -1 unknown, 0 forbidden, 1 allowed */
} host_classifier;

static void observe(const host_shared *sh, size_t i, lx_val *vals) {
  const lx_program *p = sh->p;
  for (size_t k = 0; k < p->nobs; k++) {
    const lx_obs *o = &p->obs[k];
    if (o->kind == LX_OBS_REG)
      vals[k] = sh->w[o->thread].out[i * sh->w[o->thread].code->nregs + (size_t)o->slot];
    else
      vals[k] = atomic_load_explicit(slot(sh, (size_t)o->ploc, i), memory_order_relaxed);
  }
}

static bool bin_forbidden(host_classifier *c, const run_result *r, size_t b) {
  while (c->verdict.n <= b) lc_vec_push(&c->verdict, (signed char)-1);
  if (c->verdict.v[b] < 0) c->verdict.v[b] = run_state_allowed(c->allowed, r->bins[b].values);
  return c->verdict.v[b] == 0;
}

static void classify(host_shared *sh, host_classifier *c, run_result *r, uint64_t batch) {
  const lx_program *p = sh->p;
  for (size_t t = 0; t < sh->nthreads; t++) c->cpus[t] = sh->w[t].ran_on;
  for (size_t i = 0; i < sh->n; i++) {
    unsigned st = 0;
    for (size_t t = 0; t < sh->nthreads; t++) st |= sh->w[t].status[i];
    if (st & HOST_SKIPPED) continue;   /* not run (some thread may have begun it) */
    r->instances++;
    /* a cut thread counts as finished, so its partners may then find the
     * instance quiescent: cut wins */
    if (st & (HOST_INCOMPLETE | HOST_HUNG)) {
      r->incomplete++;
      r->hung += !(st & HOST_INCOMPLETE);
      continue;
    }
    observe(sh, i, c->vals);
    if (p->test->filter && !lx_prop_eval(p, p->test->filter, c->vals)) {
      r->filtered++;
      continue;
    }
    if (st & HOST_BEYOND) {
      run_result_add_unexplored(r, c->vals, 1);
      continue;
    }
    size_t b = run_result_add(r, c->vals, 1);
    if (c->allowed && r->nsamples < c->max_forbidden && bin_forbidden(c, r, b))
      run_result_add_sample(r, batch, i, c->vals, NULL, NULL, c->cpus);
  }
}

/* ---- the machine ----------------------------------------------------------------------------- */

static char *cpu_model(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  char *found = NULL;
  while (f && !found && fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) != 0 && strncmp(line, "Model", 5) != 0) continue;
    char *colon = strchr(line, ':');
    if (!colon) continue;
    colon += 1 + (colon[1] == ' ');
    colon[strcspn(colon, "\n")] = '\0';
    found = lc_xstrdup(colon);
  }
  if (f) fclose(f);
  return found;
}

static void describe_machine(run_result *r, size_t ncpus) {
  struct utsname u;
  bool have_u = uname(&u) == 0;
  char *model = cpu_model();
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "%s (%s, %zu CPUs)", model ? model : "unknown CPU", have_u ? u.machine : "?", ncpus);
  r->device_name = lc_buf_take(&b);
  if (have_u) {
    lc_buf_printf(&b, "%s %s", u.sysname, u.release);
    r->driver_version = lc_buf_take(&b);
  }
#if defined(__clang__)
  r->compiler_version = lc_xstrdup("clang " __clang_version__);
#elif defined(__GNUC__)
  r->compiler_version = lc_xstrdup("gcc " __VERSION__);
#endif
  lc_buf_fini(&b);
  free(model);
}

/* The CPUs this process may run on, in order. */
static size_t usable_cpus(int **out) {
  cpu_set_t set;
  CPU_ZERO(&set);
  LC_VEC(int) cpus = {0};
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; c++)
      if (CPU_ISSET(c, &set)) lc_vec_push(&cpus, c);
  *out = cpus.v;
  return cpus.n;
}

static void pin(pthread_t tid, int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  (void)pthread_setaffinity_np(tid, sizeof set, &set);   /* best effort */
}

/* ---- setting up and tearing down -------------------------------------------------------------- */

typedef struct host_run_state {
  host_shared sh;
  host_code hc;
  host_worker *w;
  int *cpus;
  size_t ncpus;
  cpu_set_t saved;               /* the calling thread's affinity, restored at the end */
  bool have_saved;
  host_spin_barrier *sync;
} host_run_state;

static void *aligned(size_t bytes) {
  void *p = NULL;
  size_t rounded = (bytes + HOST_CACHE_LINE - 1) / HOST_CACHE_LINE * HOST_CACHE_LINE;
  if (posix_memalign(&p, HOST_CACHE_LINE, rounded ? rounded : HOST_CACHE_LINE) != 0) lc_die("out of memory");
  memset(p, 0, rounded);
  return p;
}

static void setup_workers(host_run_state *S, const run_params *par, uint64_t *rng) {
  host_shared *sh = &S->sh;
  S->w = lc_xcalloc(sh->nthreads, sizeof(host_worker));
  sh->w = S->w;
  bool pinning = par->pin && S->ncpus >= sh->nthreads;
  sh->yield = !pinning;
  size_t rot = S->ncpus ? (size_t)(rng_next(rng) % S->ncpus) : 0;
  for (size_t t = 0; t < sh->nthreads; t++) {
    host_worker *w = &S->w[t];
    w->sh = sh;
    w->t = t;
    w->code = &S->hc.threads[t];
    w->regs = lc_xcalloc(w->code->nregs, sizeof(lx_val));
    w->backs = lc_xcalloc(w->code->nops, sizeof(uint32_t));
    w->loc = lc_xcalloc(sh->nplocs, sizeof(_Atomic lx_val *));
    w->out = lc_xcalloc(sh->n * w->code->nregs, sizeof(lx_val));
    w->status = lc_xcalloc(sh->n, 1);
    w->seqs = lc_xcalloc(sh->nthreads, sizeof(unsigned));
    w->snap = lc_xcalloc(w->code->nregs, sizeof(lx_val));
    w->cpu = pinning ? S->cpus[(t + rot) % S->ncpus] : -1;
    w->ran_on = -1;
  }
}

static int start_threads(host_run_state *S, lc_diag *d) {
  host_shared *sh = &S->sh;
  gate_init(&sh->batch, (unsigned)sh->nthreads);
  if (S->w[0].cpu >= 0) {
    S->have_saved = pthread_getaffinity_np(pthread_self(), sizeof S->saved, &S->saved) == 0;
    pin(pthread_self(), S->w[0].cpu);
  }
  for (size_t t = 1; t < sh->nthreads; t++) {
    host_worker *w = &S->w[t];
    int rc = pthread_create(&w->tid, NULL, worker_main, w);
    if (rc != 0) {
      lc_error(d, (lc_loc){0}, "host backend: cannot start a thread for P%d: %s", sh->p->threads[t].id,
               strerror(rc));
      gate_resize(&sh->batch, (unsigned)t);   /* the workers started so far and this thread */
      return -1;
    }
    w->started = true;
    if (w->cpu >= 0) pin(w->tid, w->cpu);
  }
  return 0;
}

/* Lets the started workers leave their loop, and joins them. */
static void stop_threads(host_run_state *S) {
  host_shared *sh = &S->sh;
  atomic_store(&sh->go, false);
  gate_wait(&sh->batch);
  for (size_t t = 1; t < sh->nthreads; t++)
    if (S->w[t].started) pthread_join(S->w[t].tid, NULL);
  if (S->have_saved) pthread_setaffinity_np(pthread_self(), sizeof S->saved, &S->saved);
  gate_fini(&sh->batch);
}

static void free_state(host_run_state *S) {
  host_shared *sh = &S->sh;
  for (size_t t = 0; S->w && t < sh->nthreads; t++) {
    free(S->w[t].regs);
    free(S->w[t].backs);
    free(S->w[t].loc);
    free(S->w[t].out);
    free(S->w[t].status);
    free(S->w[t].seqs);
    free(S->w[t].snap);
  }
  free(S->w);
  free((void *)sh->mem);
  free(sh->rot);
  free(sh->bars);
  free(S->sync);
  free(S->cpus);
  host_code_fini(&S->hc);
}

/* ---- the run ------------------------------------------------------------------------------------ */

static run_params effective_params(const run_params *par) {
  run_params e = *par;
  if (!e.instances) e.instances = HOST_DEFAULT_INSTANCES;
  if (!e.iterations && e.seconds <= 0) e.iterations = HOST_DEFAULT_ITERATIONS;
  if (!e.stride) e.stride = 1;
  if (!e.spin_limit) e.spin_limit = HOST_DEFAULT_SPIN_LIMIT;
  if (!(e.watchdog > 0)) e.watchdog = RUN_DEFAULT_WATCHDOG;
  e.stop = NULL;
  return e;
}

static void setup_memory(host_run_state *S, const lx_program *p, const run_params *e) {
  host_shared *sh = &S->sh;
  sh->p = p;
  sh->hc = &S->hc;
  sh->n = e->instances;
  sh->stride = e->stride;
  sh->nthreads = p->nthreads;
  sh->nplocs = p->nplocs;
  sh->spin_limit = e->spin_limit;
  sh->watchdog = e->watchdog;
  sh->unroll = p->unroll;
  sh->mem = aligned(sh->nplocs * sh->n * sh->stride * sizeof(lx_val));
  sh->rot = lc_xcalloc(sh->nplocs, sizeof(size_t));
  bool loops = false;
  for (size_t t = 0; t < sh->nthreads; t++) loops |= S->hc.threads[t].has_loop;
  if (S->hc.has_bar || loops) sh->bars = aligned(sh->n * sh->nthreads * sizeof(host_barlog));
  if (e->barrier && sh->nthreads > 1) {
    S->sync = aligned(sizeof(host_spin_barrier));
    sh->sync = S->sync;
  }
}

static bool keep_going(const host_shared *sh, const run_params *par, const run_params *e, uint64_t batches,
                       double start) {
  if (atomic_load(&sh->halt)) return false;
  if (par->stop && atomic_load(par->stop)) return false;
  if (e->iterations && batches >= e->iterations) return false;
  if (e->seconds > 0 && lc_now() - start >= e->seconds) return false;
  return true;
}

static void progress(const run_result *r, double start, double *last, bool done) {
  double now = lc_now();
  if (!done && now - *last < 0.25) return;
  *last = now;
  if (done) fprintf(stderr, "\r%72s\r", "");
  else fprintf(stderr, "\rlitmus-run: host: %s: %llu instances, %.1f s ", r->prog->test->name,
               (unsigned long long)r->instances, now - start);
  fflush(stderr);
}

static void run_batches(host_run_state *S, const run_params *par, const run_params *e,
                        const lc_result *allowed, run_result *out, uint64_t *rng) {
  host_shared *sh = &S->sh;
  host_classifier c = {allowed, e->max_forbidden, lc_xcalloc(sh->p->nobs, sizeof(lx_val)),
                       lc_xcalloc(sh->nthreads, sizeof(int)), {0}};
  double start = lc_now(), last = start;
  uint64_t batches = 0;
  do {
    prepare_batch(sh, e->shuffle, rng);
    atomic_store(&sh->go, true);
    gate_wait(&sh->batch);
    run_batch(&S->w[0]);
    gate_wait(&sh->batch);
    classify(sh, &c, out, batches);
    batches++;
    if (par->progress) progress(out, start, &last, false);
  } while (keep_going(sh, par, e, batches, start));
  if (par->progress) progress(out, start, &last, true);
  out->iterations = batches;
  out->seconds = lc_now() - start;
  out->watchdog_cuts = atomic_load(&sh->watchdog_cuts);
  out->halted = atomic_load(&sh->halt);
  free(c.vals);
  free(c.cpus);
  lc_vec_free(&c.verdict);
}

run_status host_run(const lx_program *p, const run_params *par, const lc_result *allowed, run_result *out,
                    lc_diag *d) {
  assert(p && par && out && d);
  host_run_state S;
  memset(&S, 0, sizeof S);
  if (host_compile(p, &S.hc, d) < 0) return RUN_CANNOT;
  run_params e = effective_params(par);
  out->params = e;
  S.ncpus = usable_cpus(&S.cpus);
  describe_machine(out, S.ncpus);
  if (p->nthreads > S.ncpus)
    run_result_note(out, "%zu litmus threads on %zu CPUs: threads take turns, so fewer instances overlap",
                    p->nthreads, S.ncpus);
  uint64_t rng = e.seed;
  setup_memory(&S, p, &e);
  setup_workers(&S, &e, &rng);
  run_status rc = start_threads(&S, d) < 0 ? RUN_FAILED : RUN_OK;
  if (rc == RUN_OK) run_batches(&S, par, &e, allowed, out, &rng);
  stop_threads(&S);
  free_state(&S);
  return rc;
}
