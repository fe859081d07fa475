/* host_code.h - the compact bytecode the host backend interprets.
 * SPDX-License-Identifier: MIT
 *
 * One op per cell of a thread's code (empty cells become HOST_NOP), so a
 * branch target is its label's cell and a jump is backward exactly when the
 * lowering counts it against the unroll bound (exec/lower.c, `jump`).
 * Operands are resolved at compile time to register slots, constants and
 * physical locations; only `[rK]` addresses stay dynamic.
 *
 * Why interpret rather than generate C and compile it at run time: the
 * host backend then needs no compiler or dlopen on the machine that runs
 * it, starts in microseconds, and is the same code on every test.  Each
 * memory op is still one real C11 atomic access with the order its .sem
 * maps to; the few nanoseconds of dispatch between two accesses are small
 * next to the cache-line transfers that decide a test's outcome, and do not
 * hide store buffering (the SB test shows it every run; make check).
 */
#ifndef HOST_CODE_H
#define HOST_CODE_H

#include "exec/exec.h"

typedef enum {
  HOST_NOP,
  HOST_LD,       /* dst <- [addr] */
  HOST_ST,       /* [addr] <- a */
  HOST_RMW,      /* dst <- [addr]; [addr] <- op(old, a) (fetch-op or a CAS loop) */
  HOST_EXCH,     /* dst <- [addr]; [addr] <- a */
  HOST_CAS,      /* dst <- [addr]; if old == a: [addr] <- b */
  HOST_FENCE,
  HOST_BAR,      /* arrive at barrier bar_n (id a, count b), then wait unless arrive_only */
  HOST_ALU,      /* dst <- op(a, b), or a for a move */
  HOST_BRANCH,   /* if cmp(a, b) goto target */
  HOST_GOTO
} host_opcode;

/* C11 memory orders as the ops carry them (a C11 order given at run time
 * is treated as seq_cst by GCC, so the interpreter switches to constant
 * orders; host_run.c). */
typedef enum { HOST_RLX, HOST_ACQ, HOST_REL, HOST_ACQ_REL, HOST_SC } host_order;

typedef struct host_opnd {
  int reg;             /* register slot, or -1 for the constant c */
  lx_val c;
} host_opnd;

typedef struct host_op {
  host_opcode code;
  host_order order;
  host_order fail_order; /* CAS: the order of a failed compare, a read alone (RLX, ACQ or SC) */
  lx_op op;            /* RMW, ALU */
  bool mov;            /* ALU: a move */
  bool wrap;           /* ALU, RMW of a 32-bit type: the result wraps (wrap_op) */
  bool prewrap;        /* ALU: so does the first operand, before (a 32-bit shr) */
  lx_op wrap_op;
  lt_cmp cmp;          /* BRANCH */
  int dst;             /* register slot written, or -1 */
  int ploc;            /* physical location accessed, or -1 with the address in addr_reg */
  int addr_reg;
  host_opnd a, b;
  int bar_n;           /* BAR: instance number (LX_BAR_CLUSTER: barrier.cluster,
                          LX_BAR_GRID: the grid's) */
  bool arrive_only, has_id, has_count;
  bool wait_only;      /* BAR: barrier.cluster.wait (waits for its last arrive's instance) */
  bool has_post;       /* LD, RMW of an mbarrier: dst <- post(value, a) (exec/mbar.c) */
  bool acquire_if_done;  /* LD of an mbarrier wait: a relaxed load, then an acquire fence
                            when the wait returns true (only then is it an acquire) */
  lx_op post;
  int target;          /* BRANCH, GOTO: op index */
  int cas_ok;          /* CAS of a C++ test: the slot of its success flag (and on failure
                          the old value goes to the expected value's register), or -1 */
  const lt_instr *in;  /* source, for messages */
} host_op;

/* How often a thread can arrive at barrier number n in one instance:
 * the bar ops with that number in its code, or UINT32_MAX when it has a
 * loop.  A wait need not wait for a thread that cannot arrive. */
typedef struct host_barcount {
  int n;
  uint32_t max;
} host_barcount;

typedef struct host_thread {
  host_op *ops;
  size_t nops;
  lx_val *init;        /* initial value of each register slot */
  size_t nregs;
  int group;           /* threads of one CTA (same gpu and cta) share a group */
  int cluster_group;   /* likewise for one cluster (barrier.cluster) */
  int grid_group;      /* likewise for one GPU (the grid's barrier) */
  bool has_loop;       /* some jump goes backward */
  host_barcount *bars;
  size_t nbars;
} host_thread;

/* The most arrivals thread th can make at barrier number n. */
uint32_t host_bar_max(const host_thread *th, int n);

typedef struct host_code {
  host_thread *threads;
  size_t nthreads;
  bool has_bar;
} host_code;

/* Compiles every thread of p.  Returns 0, or -1 after reporting
 * the first instruction the host cannot run (host_check). */
int host_compile(const lx_program *p, host_code *hc, lc_diag *d);
void host_code_fini(host_code *hc);

#endif
