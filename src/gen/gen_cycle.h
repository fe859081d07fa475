/* gen_cycle.h - litmus tests from relaxation cycles, in herd's diy
 * vocabulary (litmus-gen --cycle and --cycles; man litmus-gen, "CYCLES").
 * SPDX-License-Identifier: MIT
 *
 * A cycle is a list of edges between memory accesses, as diyone7 reads
 * them: communication edges (Rfe Rfi Fre Fri Wse Wsi, Coe Coi the same as
 * Wse Wsi) and program-order edges (Pod/Pos, fences, dependencies).  The
 * test built from it has one thread per run of internal edges, and the
 * condition `exists` the final state that only an execution with every
 * edge of the cycle gives, so a model forbids the condition exactly when
 * it forbids the cycle.  herd has no PTX target in diy; the PTX spellings
 * (fences with sem and scope, access annotations with scopes, thread
 * placement per external edge) are this project's and documented in the
 * man page.
 */
#ifndef GEN_CYCLE_H
#define GEN_CYCLE_H

#include "litmus/ast.h"

/* RMW: a read and a write of one read-modify-write (diy's Rmw, Exch,
 * Fetch.Add); HAT: two reads of one write in two threads; the pseudo
 * edges NODE (an event named alone: R W Read Write), ID (an annotation
 * alone: Na Rlx Acq ...), INSERT (a fence alone: FenceSc ...), STORE, and
 * LEAVE/BACK (a communication edge out of a thread and back into it) are
 * read as diy reads them (gen_cycle.c: resolve_pseudo). */
typedef enum {
  GEN_E_RF, GEN_E_FR, GEN_E_WS, GEN_E_PO, GEN_E_FENCE, GEN_E_DP,
  GEN_E_RMW, GEN_E_HAT, GEN_E_NODE, GEN_E_ID, GEN_E_INSERT, GEN_E_STORE, GEN_E_LEAVE, GEN_E_BACK
} gen_edge_kind;
typedef enum { GEN_DP_ADDR, GEN_DP_DATA, GEN_DP_CTRL } gen_dp;
typedef enum { GEN_RMW_EXCH, GEN_RMW_ADD } gen_rmw_op;

/* An access's annotation: P (weak / non-atomic), Rlx, Acq, Rel or Sc,
 * with an optional scope; unset: the default (relaxed at the test's scope). */
typedef struct gen_ann {
  bool set;
  lt_sem sem;                /* WEAK, RELAXED, ACQUIRE, RELEASE or SC */
  lt_scope scope;            /* NONE: the test's scope */
  bool consume;              /* Con: a consume load (sem ACQUIRE) */
} gen_ann;

typedef struct gen_edge {
  gen_edge_kind kind;
  bool ext;                  /* threads differ (Rfe, Fre, Wse) */
  bool same;                 /* both ends at one location */
  char src, dst;             /* 'R' or 'W' */
  lt_sem fence_sem;          /* FENCE: SC, ACQ_REL, ACQUIRE or RELEASE (membar: SC) */
  lt_scope fence_scope;      /* FENCE: NONE for the test's scope */
  bool membar;               /* FENCE written Membar */
  gen_dp dp;                 /* DP */
  gen_ann a1, a2;            /* the source's and the target's annotations */
  lt_scope place;            /* external: the smallest unit holding both threads
                                (CTA, CLUSTER, GPU, SYS); NONE: different CTAs of one GPU */
  char text[64];             /* as written, for messages and names */
  /* diy's C vocabulary */
  bool src_any, dst_any;     /* a direction written '*': set from the neighbouring edge */
  gen_rmw_op rmw;            /* RMW */
  bool consume;              /* FENCE/INSERT: FenceCon (memory_order_consume) */
  bool diy_fence;            /* FENCE/INSERT written diy's way (FenceScdWR, FencedWR) */
  gen_edge_kind com;         /* LEAVE/BACK: RF, FR or WS */
  lt_sem ins_before, ins_after;  /* an INSERT next to this edge: a fence before its
                                    source, after its target (NONE: none) */
  bool ins_before_con, ins_after_con;
  unsigned char base;        /* the length of the edge in text, annotations left out */
} gen_edge;

/* GEN_DIALECT_C: herd's C11 dialect, as diyone7 -arch C writes it. */
typedef enum { GEN_DIALECT_PTX, GEN_DIALECT_CPP, GEN_DIALECT_C } gen_dialect;

typedef struct gen_cycle_options {
  gen_dialect dialect;
  lt_scope scope;            /* accesses' and fences' scope where none is written (gpu) */
} gen_cycle_options;

/* One edge, e.g. "PodWR", "Fenced.sc.gpuWR", "RfeRel.gpuAcq.gpu", "Fre@cta".
 * Returns 0, or -1 with *err (new, names the edge). */
int gen_edge_parse(const char *s, gen_edge *e, char **err);
/* Edges separated by spaces or commas: *edges is new (caller frees). */
int gen_edges_parse(const char *text, gen_edge **edges, size_t *n, char **err);
/* Is the cycle one a test can be built from?  Returns 0, or -1 with *err
 * naming the first edge at fault. */
int gen_cycle_check(const gen_edge *e, size_t n, const gen_cycle_options *o, char **err);
/* The test of a valid cycle in normal form (printed by lt_print), and its
 * name (both new); -1 with *err when the dialect cannot express an edge. */
int gen_cycle_test(const gen_edge *e, size_t n, const gen_cycle_options *o, char **name, char **text,
                   char **err);

/* Every valid cycle of min..max edges drawn from pool (repeats allowed)
 * with one of its first nrelax edges at least (diy7's -relax; the rest
 * are its -safe edges), once up to rotation, each with its test; emit's
 * nonzero return stops and is returned.  Cycles the dialect cannot
 * express are skipped. */
typedef int (*gen_cycle_emit)(const char *name, const char *text, const char *cycle, void *arg);
int gen_cycles_each(const gen_edge *pool, size_t npool, size_t nrelax, unsigned min, unsigned max,
                    const gen_cycle_options *o, gen_cycle_emit emit, void *arg);

/* diy7's enumeration (herd's gen/alt.ml): which edges may follow each
 * other (-mode), how many threads (-nprocs) and accesses per thread
 * (-ins).  Modes: DEFAULT (diy7's default: no two internal edges in a
 * row but for the pairs diy allows - Rfi, Fri or Coi next to a Pod or a
 * dependency, a Pod next to a dependency to another location, Rfi next
 * to a Pos, an Rmw next to anything - and at least two changes of
 * location), SC
 * (two internal edges in a row when their composition is not a safe Po),
 * CRITICAL (internal and external edges alternate), FREE, UNI, THIN (any
 * sequence). */
typedef enum {
  GEN_MODE_DEFAULT, GEN_MODE_SC, GEN_MODE_CRITICAL, GEN_MODE_FREE, GEN_MODE_UNI, GEN_MODE_THIN
} gen_cycles_mode;

typedef struct gen_cycles_options {
  gen_cycles_mode mode;
  unsigned nprocs;           /* at most this many threads (external edges): 4 */
  unsigned max_ins;          /* at most this many accesses per thread: 4 */
} gen_cycles_options;

void gen_cycles_options_init(gen_cycles_options *co);
int gen_cycles_mode_parse(const char *s, gen_cycles_mode *m);

/* The cycles diy7 -safe/-relax makes: every cycle of min..max edges over
 * pool (its '*' directions expanded to R and W), once up to rotation,
 * that co allows; with nrelax > 0, each has one of the first nrelax edges
 * (diy7's -relax, possibly repeated) and no other of them, the rest drawn
 * from the safe edges after them; nrelax == 0: any (diy7 -safe alone). */
int gen_cycles_diy(const gen_edge *pool, size_t npool, size_t nrelax, unsigned min, unsigned max,
                   const gen_cycle_options *o, const gen_cycles_options *co, gen_cycle_emit emit, void *arg);

#endif
