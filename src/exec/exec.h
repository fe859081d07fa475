/* exec.h - a litmus test lowered to events: the one representation every
 * engine reads.
 * SPDX-License-Identifier: MIT
 *
 * Each thread's code is unrolled into *paths*: straight-line runs through
 * its branches, loops unrolled up to a bound.  A path runs when its
 * conditions hold; a condition compares expressions over constants and the
 * values returned by the path's reads.  In every candidate execution each
 * thread runs exactly one of its paths, so program order, dependencies and
 * register values are static per path: an engine only chooses the paths,
 * rf, co, the Fence-SC order and the barrier arrival order.
 *
 * A failed atom.cas is a fork of the path: the success branch has the read
 * and the write (and the condition old == expected), the failure branch the
 * read alone (and old != expected), following PTX ISA 8.4 ("atomic
 * operations ... if they result in a write").
 *
 * Every event, path and expression lives in the program's arena.
 */
#ifndef LX_EXEC_H
#define LX_EXEC_H

#include "lc.h"
#include "litmus/ast.h"
#include "rel.h"

/* ---- values and expressions --------------------------------------------- */

/* Values are 64-bit two's-complement integers.  The address of a location,
 * when a test stores or compares one (`r1=&x`), is a constant far from the
 * small integers tests use (lx_addr_value); reports print it as `&x`. */
typedef int64_t lx_val;

typedef enum {
  LX_X_CONST,    /* c */
  LX_X_READ,     /* the value read by event `event` */
  LX_X_BIN       /* op(a, b) */
} lx_expr_kind;

typedef enum {
  LX_OP_ADD, LX_OP_SUB, LX_OP_MUL, LX_OP_DIV, LX_OP_REM,
  LX_OP_AND, LX_OP_OR, LX_OP_XOR,
  LX_OP_MIN, LX_OP_MAX, LX_OP_UMIN, LX_OP_UMAX,
  LX_OP_INC, LX_OP_DEC,  /* PTX atom.inc/.dec: a = old, b = bound (unsigned) */
  /* mbarrier state transitions (mbar.c): a = the state, b = the operand */
  LX_OP_MB_INIT,         /* a = the expected arrival count */
  LX_OP_MB_ARRIVE,       /* b = arrival count */
  LX_OP_MB_ARRIVE_TX,    /* b = transaction bytes expected, then one arrival */
  LX_OP_MB_EXPECT,       /* b = transaction bytes expected */
  LX_OP_MB_COMPLETE,     /* b = transaction bytes completed */
  LX_OP_MB_DROP,         /* b = arrival count; the expected count drops by one */
  LX_OP_MB_PHASE,        /* the current phase number (the state an arrive returns) */
  LX_OP_MB_DONE,         /* b = a phase number: 1 when that phase has completed */
  LX_OP_MB_DONE_PARITY,  /* b = a parity: 1 when the phase of that parity has completed */
  /* A 32-bit value of a 64-bit one (b unused): its low 32 bits zero-extended
   * (an unsigned or .u32/.b32 result) or sign-extended (int, .s32).  Values
   * are 64-bit; a 32-bit type's arithmetic wraps through these. */
  LX_OP_U32, LX_OP_S32,
  /* Shifts of the 64-bit value a by b, b read unsigned and clamped as the
   * PTX ISA clamps shift amounts (shl, shr): past 63, SHL and SHR give 0
   * and SAR (arithmetic, the sign copied in) gives 0 or -1.  A 32-bit
   * type's shift is one of these on its value wrapped first. */
  LX_OP_SHL, LX_OP_SHR, LX_OP_SAR,
  /* floats, as binary32 bits zero-extended: arithmetic rounded to nearest
   * even (a NaN result is the GPU's canonical 0x7fffffff, so both engines
   * and the hardware agree), conversions (F2I truncates, a NaN gives 0 and
   * a value past the 64-bit range the nearest end), the order key of a
   * float (-0 and 0 alike; a NaN's key is meaningless: FUNORD says) */
  LX_OP_FADD, LX_OP_FSUB, LX_OP_FMUL, LX_OP_FDIV,
  LX_OP_I2F, LX_OP_U2F, LX_OP_F2I, LX_OP_FKEY, LX_OP_FUNORD
} lx_op;

/* The wrap of a 32-bit type's results (.u32/.b32: LX_OP_U32, .s32:
 * LX_OP_S32); false for 64-bit types and none, whose arithmetic wraps at
 * 64 bits. */
bool lx_type_wrap(lt_type t, lx_op *op);

/* The operation of register arithmetic `alu` on type t (not LT_ALU_MOV);
 * *prewrap true when the first operand must be wrapped to t's width first
 * (a 32-bit right shift shifts the 32-bit value in). */
lx_op lx_alu_op(lt_alu_op alu, lt_type t, bool *prewrap);

/* Floats (LT_TYPE_F32) as values: binary32 bits zero-extended. */
float lx_float_of(lx_val v);
lx_val lx_val_of_float(float f);
void lx_print_float(lc_buf *b, lx_val v);

/* An mbarrier's state, as litmus-check packs it into its 64-bit object
 * (mbar.c): the expected arrival count of a phase (16 bits), the pending
 * arrivals (16), the pending transaction bytes (24, two's complement), the
 * phase number (7, wrapping). */
typedef struct lx_mbar_state {
  unsigned expected, pending, phase;
  int tx;
} lx_mbar_state;
lx_mbar_state lx_mbar_decode(lx_val v);
lx_val lx_mbar_apply(lx_op op, lx_val a, lx_val b);

typedef struct lx_expr {
  lx_expr_kind kind;
  lx_op op;
  lx_val c;
  int event;
  const struct lx_expr *a, *b;
} lx_expr;

/* Concrete evaluation; read_value(event) supplies read values. */
lx_val lx_op_apply(lx_op op, lx_val a, lx_val b);
lx_val lx_expr_eval(const lx_expr *e, const lx_val *read_values);
bool lx_cmp_apply(lt_cmp cmp, lx_val a, lx_val b);
/* The operation an atom/red applies to the old value (min/max unsigned
 * for .u32/.u64); exch and cas are the caller's. */
lx_op lx_rmw_op(const lt_instr *in);

/* ---- events ------------------------------------------------------------------ */

typedef enum {
  LX_EV_READ,
  LX_EV_WRITE,
  LX_EV_FENCE,         /* memory fence */
  LX_EV_PROXY_FENCE,   /* fence.proxy.P */
  LX_EV_ALIAS_FENCE,   /* fence.proxy.alias */
  LX_EV_BAR_ARRIVE,
  LX_EV_BAR_WAIT
} lx_ev_kind;

/* One bit per builtin set of docs/model-language.md. */
typedef enum {
  LX_T_IW, LX_T_R, LX_T_W, LX_T_F, LX_T_PF, LX_T_AF, LX_T_B, LX_T_A, LX_T_RED,
  LX_T_WEAK, LX_T_RLX, LX_T_ACQ, LX_T_REL, LX_T_ACQ_REL, LX_T_SC, LX_T_VOL,
  LX_T_CTA, LX_T_CLUSTER, LX_T_GPU, LX_T_SYS,
  LX_T_GEN, LX_T_TEX, LX_T_SUR, LX_T_CON,
  LX_T_GLOBAL, LX_T_SHARED,
  LX_T_ASYNC,              /* the async proxy (cp.async.bulk, fence.proxy.async) */
  LX_T_MB,                 /* mbarrier operations and fence.mbarrier_init */
  LX_T_AO,                 /* performed by the async proxy for a bulk copy: its read, its
                              write, its implicit proxy fence and its complete_tx */
  LX_T_REMOTE,             /* an access of another CTA's shared memory (through mapa) */
  LX_NTAGS
} lx_tag;

const char *lx_tag_name(lx_tag t);          /* "IW", "R", ... */
bool lx_tag_lookup(const char *name, lx_tag *t);

typedef struct lx_event {
  int id;
  lx_ev_kind kind;
  uint32_t tags;            /* 1u << LX_T_* */
  int thread;               /* index in prog->threads; -1 for an initial write */
  int path;                 /* index in prog->paths; -1 for an initial write */
  int pos;                  /* position in its path (program order) */
  lt_scope scope;           /* LT_SCOPE_NONE for weak events and initial writes */
  lt_proxy proxy;
  int vloc, ploc;           /* the name accessed, physical location; -1 if none */
  int va;                   /* virtual address (see lx_loc.va); -1 if none */
  int rmw;                  /* the other half of an atom/red, or -1 */
  int reg;                  /* read: the register slot it writes, or -1 */
  const lx_expr *value;     /* write: the value written */
  /* barriers */
  int bar_n;                /* the instance number n */
  const lx_expr *bar_id;    /* the id operand, or NULL */
  const lx_expr *bar_count; /* the count operand, or NULL (all reaching threads) */
  int bar_k;                /* this is the k-th barrier with this n on its path (from 1) */
  bool bar_blocked;         /* a wait never released (lowered for --termination only) */
  bool bar_cluster;         /* barrier.cluster: instances per cluster, not per CTA */
  bool bar_grid;            /* the grid's barrier (this_grid().sync()): instances per GPU */
  /* asynchronous operations (docs/hopper.md, "The async proxy") */
  int aop;                  /* the bulk copy this event belongs to (the path position of
                               its first event), or -1: an event of the issuing thread */
  int done_pos;             /* path position from which the copy's access is complete
                               (a wait_group that waits for it), or INT_MAX */
  const lt_instr *instr;    /* source; NULL for initial writes */
  lc_loc at;
  bool retry;               /* a read of a spin loop's read-only retry (lx_path.retry) */
  int seq_inst;             /* C++: which evaluation of its full-expression on the path
                               (instr->seq), counted from 1; 0 outside one */
} lx_event;

/* Whether a and b are unsequenced in one evaluation of a C++
 * full-expression (lt_seq): then not in po (docs/litmus-format.md,
 * "Evaluation order"). */
bool lx_unsequenced(const lx_event *a, const lx_event *b);
static inline bool lx_has(const lx_event *e, lx_tag t) { return (e->tags >> t) & 1u; }
/* A test_wait/try_wait's read (an arrive's read half is an rmw's). */
static inline bool lx_is_mbar_wait(const lx_event *e) {
  return e->kind == LX_EV_READ && lx_has(e, LX_T_MB) && e->rmw < 0 && e->instr && e->instr->kind == LT_I_MBAR;
}

/* ---- paths and threads --------------------------------------------------- */

typedef struct lx_cond {
  lt_cmp cmp;
  const lx_expr *a, *b;
  lc_loc at;
  int branch_pos;           /* a branch: events of the path before it (they do not
                               depend on it); -1 for the condition of a cas */
} lx_cond;

typedef struct lx_path {
  int thread;
  int *events;              /* event ids in program order */
  size_t nevents;
  lx_cond *conds;           /* all must hold for the path to run */
  size_t nconds;
  const lx_expr **regs;     /* final value of each register slot of the thread */
  bool cut;                 /* stopped by the unroll bound: never a final state */
  lc_loc cut_at;            /* the jump that was cut */
  /* A cut path's last whole iteration (termination.md): it starts at event
   * position iter_pos with registers iter_regs and loops back to
   * loop_label; -1 / NULL when the path is not cut. */
  int iter_pos;
  const lx_expr **iter_regs;
  const char *loop_label;
  /* Cut where a C++ test's behaviour is undefined (an index outside its
   * array, a division by zero): the thread goes no further, and an
   * allowed execution that gets there makes the test's answer undefined
   * (lc_result.ub_reached).  Such a path is also cut, never final.  NULL,
   * or what is undefined: "an index outside its array", "a division by zero". */
  const char *ub;
  bool blocked;             /* ends waiting at a barrier never released (--termination) */
  bool paused;              /* the thread stops here for good: a scheduler that owes it
                               nothing never runs it further (--progress, progress.c) */
  bool retry;               /* took a spin loop's read-only retry (lx_lower_spin): its
                               states are those of the path without it; only its
                               flagged pairs and hangs can be new */
} lx_path;

typedef struct lx_thread {
  int id;                   /* N of PN */
  int cta, cluster, gpu;    /* cluster: as written, else a number of its own per CTA */
  int *paths;               /* indices in prog->paths */
  size_t npaths;
  int *regs;                /* register numbers the thread uses, ascending; slot = index */
  size_t nregs;
} lx_thread;

typedef struct lx_loc {     /* a virtual address: a name in the test */
  const char *name;
  int ploc;                 /* its physical location */
  int va;                   /* its virtual address: its own for plain names and generic
                               aliases (ISA 8.2.2), the target's for texture/surface/
                               constant views, which differ only in proxy (PTX ISA 8.6,
                               Proxies: a surface handle of x is po_loc-related to x) */
  lt_proxy proxy;           /* proxy of an alias; generic for plain names */
  bool alias;
  lt_space space;
  int cta;                  /* shared memory: the CTA owning this copy, else -1 */
} lx_loc;

typedef struct lx_ploc {    /* a physical location */
  const char *name;         /* the name it was declared with (with @ctaN for shared copies) */
  lx_val init;
  int init_event;
  int primary;              /* the lx_loc that is not an alias */
  lx_val *values;           /* every value it can hold (see lx_domains) */
  size_t nvalues;
  bool values_unbounded;    /* more than LX_MAX_DOMAIN values */
} lx_ploc;

enum { LX_MAX_DOMAIN = 4096 };

/* Things a final state shows (and hidden ones only the filter reads). */
typedef enum { LX_OBS_REG, LX_OBS_LOC } lx_obs_kind;

typedef struct lx_obs {
  lx_obs_kind kind;
  int thread, slot;         /* REG: thread index, register slot */
  int ploc;                 /* LOC: physical location */
  const char *label;        /* "P1:r0", "x" */
  bool shown;               /* printed in states (condition and locations) */
  bool fp;                  /* a C++ float location: its value is binary32 bits */
} lx_obs;

/* ---- the program ------------------------------------------------------------- */

typedef struct lx_program {
  lc_arena *arena;
  const lt_test *test;      /* borrowed */
  const lt_test *code;      /* the code table lowered: `test` itself, or for a C++ test
                               its bodies compiled to cells (lower_cpp.c, in the arena) */
  unsigned unroll;

  lx_thread *threads;
  size_t nthreads;
  lx_path *paths;
  size_t npaths;
  lx_event *events;         /* initial writes first, then threads' events */
  size_t nevents;
  size_t ninit;
  lx_loc *locs;
  size_t nlocs;
  lx_ploc *plocs;
  size_t nplocs;
  lx_obs *obs;              /* shown observables first, in print order */
  size_t nobs, nshown;
  bool has_cut;             /* some path was cut by the unroll bound */
  size_t spun;              /* paths left out or cut as spin retries (spin_reduce) */

  /* Static relations over events (docs/model-language.md). */
  rel_rel *po, *intra, *ext, *exclusive;   /* exclusive: never in one execution */
  rel_rel *loc, *vloc, *rmw, *addr, *data, *ctrl;
  rel_rel *scta, *scluster, *sgpu, *incl, *sr, *id;
  rel_rel *iss;             /* issue order: an event of a thread to the events of a bulk
                               copy it issues later (docs/model-language.md) */
  rel_set *tagset[LX_NTAGS];
  rel_set *all;
} lx_program;

/* The static relations of an lx_program (po, loc, the scopes...): n x n bits each. */
enum { LX_NSTATIC = 16 };

typedef struct lx_options {
  unsigned unroll;          /* times each backward jump may be taken (default 2) */
  size_t max_paths;         /* per thread (default LX_DEFAULT_MAX_PATHS) */
  double deadline;          /* lc_now() after which lowering gives up; 0 = none */
  int termination;          /* nonzero: also make the paths that block at a
                               bar.sync; LX_LOWER_PAUSES: and those of a thread stopped
                               for good before an instruction that makes events
                               (--progress, progress.c) */
  double timeout;           /* the --timeout the deadline comes from, for its message */
  size_t max_memory;        /* --max-memory: the program's static relations may take half;
                               0 = no bound */
} lx_options;

enum { LX_LOWER_PAUSES = 2 };

/* The instance number of barrier.cluster events (bar numbers are >= 0). */
#define LX_BAR_CLUSTER (-1)
/* The instance number of the grid's barrier (cooperative_groups::this_grid().sync()). */
#define LX_BAR_GRID (-2)

#define LX_DEFAULT_UNROLL 2u
#define LX_DEFAULT_MAX_PATHS 4096u

/* Lowers a validated test.  Returns NULL after reporting an error (e.g. an
 * address that depends on a read, too many paths, out of time) to d. */
lx_program *lx_lower(const lt_test *t, const lx_options *opt, lc_diag *d);
/* The same, leaving out the failed iterations of spin loops past the
 * first when spin_reduce (lower_spin.c): a backward jump closing a
 * memoryless loop, after an iteration that made only reads, is taken at
 * most once per path; a path that would take it again is dropped (counted
 * in lx_program.spun), or with opt->termination cut there (its last
 * iteration is the spin a hang is made of).  For a model closed under
 * deleting reads (cat_model_deletion_closed) the final states, flags and
 * hangs are those of the run without it, at any bound (a thread that
 * pauses, LX_LOWER_PAUSES, does so before or after a retry as it would
 * have in a later one); nothing is left out at --unroll 0. */
lx_program *lx_lower_spin(const lt_test *t, const lx_options *opt, bool spin_reduce, lc_diag *d);
void lx_program_free(lx_program *p);

/* ---- termination (lower_term.c) ------------------------------------------------ */

typedef enum {
  LX_TERM_FINISHED,   /* runs to the end */
  LX_TERM_SPIN,       /* cut by the bound; its last iteration writes nothing, or
                         only with atoms (silent when they write what they read) */
  LX_TERM_EFFECTS,    /* cut by the bound; its last iteration writes or syncs */
  LX_TERM_BLOCKED,    /* waits at a barrier never released */
  LX_TERM_PAUSED      /* stopped for good by the scheduler (LX_LOWER_PAUSES) */
} lx_term_kind;

/* Where a thread's termination registers sit after lx_term_prepare: slot
 * `first` holds the path index, first+1 the registers' change over the
 * last iteration (0: none), first+2 the change its atoms made to memory
 * (0: each wrote the value it read), then from first+LX_TERM_READ_SLOT
 * `nreads` values read by that iteration.  `obs` is the observable index
 * of the first of them. */
enum { LX_TERM_READ_SLOT = 3 };
typedef struct lx_term_slots {
  size_t first, nreads, obs;
} lx_term_slots;

lx_term_kind lx_term_path_kind(const lx_program *p, const lx_path *path);
/* The reads of a cut path's last iteration (event ids into out, when not
 * NULL); their number. */
size_t lx_term_iter_reads(const lx_program *p, const lx_path *path, int *out);
/* Rewrites a program lowered with lx_options.termination so that its
 * final states answer the termination question (lower_term.c): every path
 * becomes final and the shown observables gain every location's final
 * value and each thread's termination registers.  slots has one entry per
 * thread.  Returns the observable index of the first location. */
size_t lx_term_prepare(lx_program *p, lx_term_slots *slots);

/* ---- lints (lint.c) ------------------------------------------------------------ */

typedef struct lx_lint {
  const char *rule;         /* scope-too-narrow, expect-tx-unpaid, missing-proxy-fence,
                               remote-mbarrier-wait, barrier-count-mismatch,
                               barrier-count-unmet, arrive-without-count,
                               arrive-never-waited, cta-barrier-across-ctas */
  lc_loc at;                /* the instruction at fault */
  char *message;            /* owned */
} lx_lint;

/* The lints of a lowered program, sorted by position; *out is NULL when
 * there are none.  Free with lx_lints_free. */
size_t lx_lint_program(const lx_program *p, lx_lint **out);
void lx_lints_free(lx_lint *l, size_t n);

/* The value of &loc in registers and memory. */
lx_val lx_addr_value(int vloc);
/* The location whose address is v, or -1. */
int lx_addr_loc(const lx_program *p, lx_val v);

/* Prints v as a state value: an integer, or &x for an address. */
void lx_print_value(lc_buf *b, const lx_program *p, lx_val v);
/* The value v of observable k as its type reads it (a float as a float). */
void lx_print_obs(lc_buf *b, const lx_program *p, size_t k, lx_val v);

/* Evaluates a proposition of the test (condition or filter) given the value
 * of every observable. */
bool lx_prop_eval(const lx_program *p, const lt_prop *prop, const lx_val *obs_values);
/* Index of the observable a term names, or -1 for constants and addresses. */
int lx_obs_index(const lx_program *p, const lt_term *t);

/* A readable dump of threads, paths and events (litmus-check --events). */
void lx_program_print(lc_buf *b, const lx_program *p);
void lx_event_print(lc_buf *b, const lx_program *p, const lx_event *e);
/* Whether CTA barrier events a and b name one barrier by their ids: 1 yes,
 * 0 no, -1 when an id is a register's value, which only the engines know.
 * No id and id 0 are different barriers (docs/model-language.md,
 * "Barriers"). */
int lx_bar_same_id(const lx_event *a, const lx_event *b);
/* "barrier 1", "barrier 1 (id 2)" or "barrier 1 (id r3)", as written. */
void lx_bar_name(lc_buf *b, const lx_event *e);

#endif
