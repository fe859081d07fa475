/* exhaustive.h - every small C++ program within a bound, up to symmetry,
 * for --check-mapping --exhaustive (docs/mappings.md, "Exhaustive search").
 * SPDX-License-Identifier: MIT
 *
 * A program is a few threads of atomic accesses (load, store, exchange,
 * compare-exchange) and fences on a few locations.  Every store writes a
 * value of its own, numbered in canonical order, so value renaming is no
 * freedom left; programs equal up to thread order and location renaming
 * are enumerated once (the least encoding stands for them all).  The
 * enumeration is in order of size (events, then threads), so the first
 * counterexample found for a row is a smallest one.
 */
#ifndef MAP_EXHAUSTIVE_H
#define MAP_EXHAUSTIVE_H

#include "map/check_mapping.h"
#include "map/map.h"

typedef enum { EX_R, EX_W, EX_U, EX_C, EX_F, EX_NKINDS } ex_kind;

#define EX_MAX_THREADS 4
#define EX_MAX_EVENTS 7     /* per thread, fences included */
#define EX_MAX_LOCS 3

typedef struct ex_event {
  unsigned char kind;       /* ex_kind */
  unsigned char loc;        /* not for fences */
  unsigned char order;      /* map_order; a CAS's success order */
  unsigned char scope;      /* map_cscope */
  bool guarded;             /* runs only when the read before it saw ref's value */
  bool expect_ref;          /* CAS: expects ref's value (else the initial 0) */
  signed char ref_t, ref_p; /* a write of another thread: (thread, position) */
  unsigned char alias;      /* PTX: through the location's alias (a second virtual
                               address of its memory), not its own name */
} ex_event;

typedef struct ex_prog {
  unsigned char nthreads;
  unsigned char n[EX_MAX_THREADS];
  ex_event ev[EX_MAX_THREADS][EX_MAX_EVENTS];
  unsigned char cta[EX_MAX_THREADS];   /* PTX: the CTA of each thread (one GPU); C++: 0 */
} ex_prog;

typedef struct ex_bound {
  int threads;              /* at most */
  int accesses;             /* per thread, at most (fences apart) */
  int locs;
  int fences;               /* fences per thread, each between two accesses */
  bool ctrl;                /* a non-atomic access may run only when the read before it saw one value */
  bool cas;                 /* compare-exchange besides exchange */
  unsigned scopes;          /* bit per map_cscope */
  unsigned orders[EX_NKINDS];  /* bit per map_order the kind may take */
  int strong;               /* accesses and fences stronger than relaxed, at most */
  int rmws;                 /* exchanges and compare-exchanges, at most */
  /* PTX programs (--diff-models --exhaustive; ex_bound_default_ptx): */
  bool ptx;                 /* PTX's kinds and orders: ld, st, atom, fence (the order
                               MAP_NA is .weak, and a fence of it fence.proxy.alias) */
  bool any;                 /* any shape: one thread, a location of one thread, no cycle,
                               an idle acquire or release (a model under comparison may
                               need any); only connected programs */
  bool aliases;             /* accesses through a location's alias, fence.proxy.alias */
  int ctas;                 /* threads spread over at most this many CTAs (0: C++) */
  int events;               /* instructions in all, at most (0: no bound) */
  int min_events;           /* ... at least */
} ex_bound;

/* The default search: every 2-thread program of at most 2 accesses a
 * thread, and 3-thread ones with at most 3 non-relaxed accesses and one
 * RMW (ASPLOS'19 Fig. 12's size). */
#define EX_DEFAULT_BOUND "threads=2,strong=6;threads=3,strong=3,rmws=1"

/* The default bound: 3 threads of at most 2 accesses on 2 locations
 * (ASPLOS'19 Fig. 12, load buffering), every order the kinds have in C++
 * (non-atomic ones with ctrl only), device scope. */
void ex_bound_default(ex_bound *b);
/* The default PTX bound of --diff-models --exhaustive: 2 threads of at
 * most 2 accesses and a fence on 2 locations, each with an alias, .gpu
 * scope, threads in one CTA or two, at most one RMW, 4 instructions in all
 * (183,528 programs of 4 instructions). */
#define EX_DEFAULT_PTX_BOUND "threads=2,accesses=2,fences=1,locs=2,aliases=1,ctas=2,scopes=gpu,rmws=1,events=4"
void ex_bound_default_ptx(ex_bound *b);

/* Reads "threads=3,accesses=2,locs=2,fences=1,ctrl=1,cas=1,
 * scopes=block+device,orders=rlx+acq+rel+acq_rel+sc" (any subset, over
 * the default; for a PTX bound also aliases=0|1, ctas=N, events=N, and the
 * PTX names: orders=weak+relaxed+acquire+release+acq_rel+sc,
 * scopes=cta+cluster+gpu+sys).  Returns 0, or -1 with a message in *err
 * (free it). */
int ex_bound_parse(const char *spec, ex_bound *b, char **err);
/* The bound as ex_bound_parse reads it. */
void ex_bound_print(lc_buf *out, const ex_bound *b);
/* Keeps only what table m has rows for (orders, scopes). */
void ex_bound_fit(ex_bound *b, const map_table *m);

/* Every program within b, canonical, in order of size.  *out is owned
 * by the caller (free). */
size_t ex_enumerate(const ex_bound *b, ex_prog **out);
/* The same for several bounds ("A;B": every program within one of them),
 * each program once, in order of size.  -1 with *err after a bad bound. */
long ex_enumerate_spec(const char *spec, const map_table *m, ex_prog **out, lc_buf *printed, char **err);

size_t ex_prog_events(const ex_prog *p);

/* A key equal for two programs exactly when they are equal up to thread
 * order, CTA names and location names: the least encoding (EX_KEY_MAX
 * words at most; the rest zero). */
#define EX_KEY_MAX (EX_MAX_THREADS * (EX_MAX_EVENTS * 2 + 2))
void ex_prog_key(const ex_prog *p, unsigned key[EX_KEY_MAX]);
/* The programs one step weaker than p within b: one access's or fence's
 * order weakened one step (seq_cst to acq_rel or acquire/release, those to
 * relaxed, relaxed to weak or non-atomic for a load or store) or its scope
 * narrowed one step among b's scopes.  Returns how many were written to
 * out (room for 4 per event). */
size_t ex_weakenings(const ex_prog *p, const ex_bound *b, ex_prog *out);
/* "Wrlx-x.Wrel-y+Usc-y.Wrlx-y+Racq-y.Rrlx-x" */
void ex_prog_name(lc_buf *out, const ex_prog *p);
/* The same for a PTX program: "Wweak-x.Rrlx-xa+Facq_rel..." (xa: x's
 * alias, Falias: fence.proxy.alias, a scope other than .gpu written
 * after the location), then "+cta0.0" naming each thread's CTA when two
 * threads share one. */
void ex_prog_ptx_name(lc_buf *out, const ex_prog *p);
/* The PTX litmus test of a PTX program: every register and location shown
 * (`locations`); condition `exists` the state `state` ("P0:r0=1; x=2;",
 * as lc_state_print writes it) or, when NULL, a placeholder.  New. */
char *ex_prog_ptx_text(const ex_prog *p, const char *state, const char *comment);
/* The C++ litmus test: every read's register and every location shown;
 * condition `extra` ("P0:r0=1; x=2;" as map_state_text gives it) or, when
 * NULL, a placeholder on the first observable. */
char *ex_prog_text(const ex_prog *p, const char *extra, const char *comment);

/* One row alternative used by an access. */
typedef struct ex_row_use { unsigned char kind, order, id; } ex_row_use;

typedef struct ex_violation {
  char *extra;              /* the PTX outcome the C++ model forbids */
  ex_row_use *rows;         /* per access of the program (nrows) */
  size_t nrows;
} ex_violation;

typedef struct ex_result {
  map_verdict verdict;      /* SOUND, VIOLATION, RACY, UNKNOWN, ERROR */
  char *message;
  size_t combinations;
  ex_violation *v;          /* the minimal violating combinations */
  size_t nv;
  size_t reducible;         /* violating combinations a smaller program explains */
  /* used[k][o][id]: a checked combination used alternative #id of row (k, o) */
  unsigned char used[MAP_NKINDS][MAP_NORDERS][MAP_MAX_ALT + 1];
} ex_result;

/* What the C++ model says of programs already checked (races and a hash
 * of the outcomes), shared by threads that check programs of one run. */
typedef struct ex_cache ex_cache;
ex_cache *ex_cache_new(void);
void ex_cache_free(ex_cache *c);

/* Checks p against m under o: the C++ model's and the PTX model's whole
 * outcome sets over every read register and location, for every
 * combination of alternatives.  A violating combination counts only
 * when minimal: no access's order can be weakened to relaxed, and no event
 * removed, with the violation remaining (the rest compiled alike). */
void ex_check(const ex_prog *p, const map_table *m, const map_check_options *o, ex_cache *cache,
              ex_result *r);
void ex_result_fini(ex_result *r);

#endif
