/* enum_int.h - the explicit engine's pieces: frames, orders, barriers.
 * SPDX-License-Identifier: MIT
 *
 * A *frame* is one combination of paths (one per thread) with its events
 * renumbered 0..n-1: the initial writes first, then the executed events
 * thread by thread in program order.  The model is evaluated over the
 * frame's events only, so `_`, complements and `id` range over what runs,
 * exactly as the SMT engine's values "relative to execution" do.
 *
 * An *order* is a strict partial order being chosen pair by pair (co per
 * location, the Fence-SC order): every pair of its domain is either
 * related one way, related the other way, or decided unrelated, and
 * transitivity is kept as pairs are decided.  Deciding every undecided
 * pair in a fixed sequence, each in one of three ways, visits every
 * strict partial order on the domain exactly once.
 */
#ifndef ENUM_INT_H
#define ENUM_INT_H

#include "enum/enum.h"
#include "cat/cat_rel.h"
#include "rel.h"

/* ---- frames ---------------------------------------------------------------- */

enum { ENUM_NSTATIC = 16 };

typedef struct enum_frame {
  const lx_program *p;      /* borrowed */
  const int *paths;         /* chosen path index (in prog->paths) per thread; borrowed */
  bool cut;                 /* some chosen path is cut by the unroll bound */
  bool ub;                  /* some chosen path ends in undefined behaviour */
  size_t n;
  int *orig;                /* frame index -> event id */
  int *idx;                 /* event id -> frame index, or -1 */
  rel_set *tags[LX_NTAGS];
  rel_set *all;
  rel_rel *stat[ENUM_NSTATIC];
  size_t *reads, nreads;    /* frame indices, in frame order */
  size_t **cands;           /* per read: the writes it may read from */
  size_t *ncands;
  size_t *fsc, nfsc;        /* fence.sc events */
  rel_rel *codom;           /* same-location pairs of writes, IW excluded */
  rel_rel *iwco;            /* IW -> every write of its location */
  rel_rel *scdom;           /* pairs of fence.sc events */
} enum_frame;

enum_frame *enum_frame_new(const lx_program *p, const int *paths);
void enum_frame_free(enum_frame *f);
/* The static builtin `name` restricted to the frame (a new value), or
 * NULL when `name` is not static. */
void *enum_frame_static(const enum_frame *f, const char *name, cat_type *type);
/* The program event at frame index i. */
static inline const lx_event *enum_frame_event(const enum_frame *f, size_t i) {
  return &f->p->events[f->orig[i]];
}

/* ---- symmetry (enum_sym.c) ------------------------------------------------- */

/* Swapping two twin threads: where each event and observable goes. */
typedef struct enum_sym_gen {
  int *ev;                  /* per event id */
  int *obs;                 /* per observable */
  int *th;                  /* per thread */
} enum_sym_gen;

typedef struct enum_sym {
  enum_sym_gen *gens;       /* each thread swapped with the twin before it */
  size_t ngens;
  int *before;              /* per thread: the twin before it in its class, or -1 */
  int *cta_before;          /* per first thread of a CTA: the first thread of the twin
                               CTA before it, or -1 */
} enum_sym;

/* The twins of p (identical code and registers in one CTA), or NULL when
 * there are none. */
enum_sym *enum_sym_new(const lx_program *p);
void enum_sym_free(enum_sym *s);
/* Does the frame of path positions k take each class of twins' paths in
 * ascending order, and twin CTAs' in lexicographic order (true when s is
 * NULL)? */
bool enum_sym_canonical(const enum_sym *s, const size_t *k, size_t nthreads, const lx_program *p);
/* The path that generator g maps path pi to (pi itself when g leaves its
 * thread alone). */
size_t enum_sym_image(const enum_sym *s, size_t g, const lx_program *p, size_t pi);

/* The swaps that map a frame onto itself (each twin takes the path its
 * twin takes), as maps of the frame's writes and reads, for choosing rf
 * up to symmetry: among the choices of rf that such swaps map onto each
 * other, only the least one read by read is searched. */
typedef struct enum_sym_rf {
  size_t ngens;
  int **wmap;               /* per swap: frame index -> frame index */
  size_t **rmap;            /* per swap: read (index in f->reads) -> read */
} enum_sym_rf;

/* NULL when no swap maps the frame onto itself (or s is NULL). */
enum_sym_rf *enum_sym_rf_new(const enum_sym *s, const enum_frame *f);
void enum_sym_rf_free(enum_sym_rf *r);
/* Is the partial choice rf (per read: a frame index, -1 open) at most
 * its image under each swap, compared read by read in `order` over the
 * first k reads of it that both choices have decided?  False when some
 * swap maps it to a smaller choice: the search has that one, or will. */
bool enum_sym_rf_least(const enum_sym_rf *r, const int *rf, const size_t *order, size_t k);

/* ---- values (enum_values.c) ------------------------------------------------ */

/* Per location, every value a read of it can return in a candidate
 * execution the engine builds (guesses around thin-air cycles included),
 * or `over` when there may be more than ENUM_VALUES_MAX. */
enum { ENUM_VALUES_MAX = 64 };
typedef struct enum_values {
  lx_val **v;               /* per location: its values */
  size_t *n;
  bool *over;
} enum_values;

enum_values *enum_values_new(const lx_program *p);
void enum_values_free(enum_values *d, const lx_program *p);
/* The distinct reads (event ids) expression e reads, in reads[0..max);
 * max + 1 when there are more. */
size_t enum_values_reads(const lx_expr *e, int *reads, size_t max);

/* ---- orders ------------------------------------------------------------------ */

typedef struct enum_order {
  rel_rel *dom;             /* pairs the order may relate (symmetric) */
  rel_rel *before;          /* related pairs, transitively closed */
  rel_rel *apart;           /* pairs decided unrelated (symmetric) */
  size_t (*pairs)[2];       /* every unordered pair of dom, in decision order */
  size_t npairs;
} enum_order;

/* Takes dom (symmetric, irreflexive). */
void enum_order_init(enum_order *o, rel_rel *dom);
void enum_order_fini(enum_order *o);
/* Has the pair (a,b) been related or separated, by a decision or by
 * transitivity? */
bool enum_order_decided(const enum_order *o, size_t a, size_t b);
/* Relates a before b and closes; false when that contradicts an earlier
 * decision (the order is then unusable until restored). */
bool enum_order_relate(enum_order *o, size_t a, size_t b);
void enum_order_separate(enum_order *o, size_t a, size_t b);
/* Pairs that some completion may relate: related ones and undecided ones. */
rel_rel *enum_order_may(const enum_order *o);

/* ---- barriers ------------------------------------------------------------------ */

/* Every sync_bar relation some arrival order gives, for the frame's
 * barrier events and read values (event-id indexed); a new array of new
 * relations.  *n is 0 when every arrival order deadlocks. */
rel_rel **enum_bar_choices(const enum_frame *f, const lx_val *val, size_t *n);
/* The arrive -> wait pairs that may synchronise when values are unknown. */
rel_rel *enum_bar_may(const enum_frame *f);
rel_rel *enum_bar_must(const enum_frame *f);

/* ---- the model, incrementally ------------------------------------------------ */

/* The choices a builtin may depend on, one bit each. */
enum { ENUM_RF, ENUM_CO, ENUM_SC, ENUM_BAR, ENUM_NCHOICES };
typedef unsigned (*enum_model_deps_fn)(void *uctx, const char *name);

typedef struct enum_model enum_model;
enum_model *enum_model_new(const cat_model *m);
/* Forgets every value: a new frame of n events. */
void enum_model_reset(enum_model *em, size_t n);
void enum_model_free(enum_model *em);
/* The verdict of every check (file order) over the bounds `builtin`
 * gives.  ver[c] is the clock of choice c's last change, `clock` the
 * clock now (> 0); values older than a change they depend on are
 * rebuilt.  Once a check that is not a flag fails, later verdicts are
 * left CAT_MM_UNKNOWN.  Returns 0, or -1 with an error in d. */
int enum_model_eval(enum_model *em, cat_mm_builtin_fn builtin, enum_model_deps_fn deps, void *uctx,
                    const uint64_t *ver, uint64_t clock, cat_mm_verdict *out, lc_diag *d);
/* Evaluates every check, also after one fails (what cut a search:
 * enum_cuts). */
void enum_model_every_check(enum_model *em, bool on);
/* Leaves check i unevaluated (CAT_MM_UNKNOWN) where skip[i]; skip is
 * borrowed (NULL: every check). */
void enum_model_skip(enum_model *em, const bool *skip);
/* The may bound of check i's relation in the last evaluation, or NULL
 * when the evaluation stopped before it (borrowed until the next one). */
const rel_rel *enum_model_check_may(const enum_model *em, size_t i);
/* The values built so far (operations and builtins built or rebuilt)
 * and the expressions visited by walks of the model (a replay visits
 * none): the engine's work per node, the same on every machine. */
size_t enum_model_work(const enum_model *em);

/* ---- what cut a search (enum.h) ------------------------------------------------- */

/* A place where the checks of `fails` (bits over the model's checks) all
 * fail: the frame and the sources chosen so far (per read of the frame,
 * -1 open). */
void enum_cuts_note(enum_cuts *c, uint64_t fails, const lx_program *p, const enum_frame *f, const int *rf);

#endif
