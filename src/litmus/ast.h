/* ast.h - a scoped-PTX litmus test as written (litmus-format.md).
 * SPDX-License-Identifier: MIT
 *
 * The AST keeps what the text says, normalised only where two spellings
 * mean the same thing (`==` and `=`, `~exists` and `not exists`, `[x]` and
 * `x`, `n:rK` and `Pn:rK`).  Spellings the CUDA generator must reproduce
 * (state space, type, cache operator, `membar` vs `fence.sc`) are kept.
 * Every node carries the position of its first token.  All nodes, strings
 * and arrays of one test live in the test's arena.
 */
#ifndef LT_AST_H
#define LT_AST_H

#include "lc.h"

/* Memory-order qualifier as written; LT_SEM_NONE when absent. */
typedef enum {
  LT_SEM_NONE,
  LT_SEM_WEAK,
  LT_SEM_RELAXED,
  LT_SEM_ACQUIRE,
  LT_SEM_RELEASE,
  LT_SEM_ACQ_REL,
  LT_SEM_SC,
  LT_SEM_VOLATILE,   /* (ext) ld/st.volatile: relaxed at system scope */
  LT_SEM_MMIO        /* (ext) ld/st.mmio.relaxed.sys */
} lt_sem;

/* C++ memory order; LT_MO_NA for a non-atomic access. */
typedef enum {
  LT_MO_NA,
  LT_MO_RELAXED,
  LT_MO_CONSUME,     /* read as acquire, as every compiler does */
  LT_MO_ACQUIRE,
  LT_MO_RELEASE,
  LT_MO_ACQ_REL,
  LT_MO_SEQ_CST
} lt_mo;

typedef enum {
  LT_SCOPE_NONE,
  LT_SCOPE_CTA,
  LT_SCOPE_CLUSTER,
  LT_SCOPE_GPU,
  LT_SCOPE_SYS
} lt_scope;

typedef enum {
  LT_PROXY_GENERIC,
  LT_PROXY_TEXTURE,
  LT_PROXY_SURFACE,
  LT_PROXY_CONSTANT,
  LT_PROXY_ASYNC     /* the async proxy of cp.async.bulk (TMA) and fence.proxy.async */
} lt_proxy;

typedef enum { LT_SPACE_NONE, LT_SPACE_GLOBAL, LT_SPACE_SHARED } lt_space;

typedef enum {
  LT_TYPE_NONE,
  LT_TYPE_B32, LT_TYPE_U32, LT_TYPE_S32,
  LT_TYPE_B64, LT_TYPE_U64, LT_TYPE_S64,
  LT_TYPE_F32            /* a C++ float: its binary32 bits, zero-extended (not in the PTX dialect) */
} lt_type;

/* PTX cache operators (ext), carried to the CUDA generator unchanged. */
typedef enum {
  LT_CACHE_NONE,
  LT_CACHE_CA, LT_CACHE_CG, LT_CACHE_CS, LT_CACHE_LU, LT_CACHE_CV,   /* loads */
  LT_CACHE_WB, LT_CACHE_WT                                          /* stores (also cg, cs) */
} lt_cache;

/* atom/red operation. */
typedef enum {
  LT_RMW_NONE,
  LT_RMW_ADD, LT_RMW_SUB, LT_RMW_AND, LT_RMW_OR, LT_RMW_XOR, LT_RMW_EXCH,
  LT_RMW_MIN, LT_RMW_MAX, LT_RMW_INC, LT_RMW_DEC, LT_RMW_CAS
} lt_rmw_op;

/* Register arithmetic. */
typedef enum { LT_ALU_MOV, LT_ALU_ADD, LT_ALU_SUB, LT_ALU_MUL, LT_ALU_DIV,
               LT_ALU_REM, LT_ALU_AND, LT_ALU_OR, LT_ALU_XOR,
               LT_ALU_SHL, LT_ALU_SHR,  /* shr: arithmetic for .s types, else logical */
               /* C++ floats (lower_cpp.c; b unused but by FUNORD): a float of the
                  signed (I2F) or unsigned (U2F) 64-bit integer a, rounded to
                  nearest; the integer of float a, truncated (F2I); a key whose
                  integer order is a's float order (FKEY); 1 when a or b is a NaN
                  (FUNORD).  Arithmetic on type F32 is float arithmetic. */
               LT_ALU_I2F, LT_ALU_U2F, LT_ALU_F2I, LT_ALU_FKEY, LT_ALU_FUNORD
} lt_alu_op;

typedef enum { LT_CMP_EQ, LT_CMP_NE, LT_CMP_LT, LT_CMP_LE, LT_CMP_GT, LT_CMP_GE } lt_cmp;

/* An instruction operand. */
typedef enum {
  LT_OPND_NONE,
  LT_OPND_IMM,     /* integer constant */
  LT_OPND_REG,     /* rK */
  LT_OPND_LOC,     /* location name, as an address: `x` or `[x]` */
  LT_OPND_REGADDR  /* (ext) `[rK]`: the address held in register rK */
} lt_opnd_kind;

typedef struct lt_operand {
  lt_opnd_kind kind;
  int64_t imm;
  int reg;              /* register number K of rK */
  const char *loc;      /* location name */
  bool bracketed;       /* written as [..]; printed back the same way */
  lc_loc at;
} lt_operand;

typedef enum {
  LT_I_LD,           /* ld, tld, suld, cold: dst <- [addr] */
  LT_I_ST,           /* st, sust: [addr] <- src */
  LT_I_ATOM,         /* atom, suatom: dst <- [addr]; [addr] <- op(old, a[, b]) */
  LT_I_RED,          /* red, sured: [addr] <- op(old, a) */
  LT_I_FENCE,        /* fence.{sc,acq_rel,acquire,release}.scope and membar */
  LT_I_FENCE_PROXY,  /* fence.proxy.{generic,texture,surface,constant} */
  LT_I_FENCE_ALIAS,  /* fence.proxy.alias */
  LT_I_BAR,          /* bar.cta.{sync,arrive} n[, id[, count]] */
  LT_I_ALU,          /* mov (written `ld rD, v`), add, sub, mul, div, ... */
  LT_I_BRANCH,       /* beq/bne/blt/bgt/ble/bge a, b, label */
  LT_I_GOTO,         /* goto label */
  LT_I_MBAR,         /* mbarrier.* (docs/hopper.md) */
  LT_I_BULK,         /* cp.async.bulk copies, commit_group, wait_group */
  LT_I_MAPA          /* mapa.shared::cluster rD, x, rank */
} lt_instr_kind;

/* The mbarrier operations (PTX ISA, "Parallel Synchronization and
 * Communication Instructions: mbarrier"). */
typedef enum {
  LT_MB_INIT, LT_MB_ARRIVE, LT_MB_ARRIVE_EXPECT_TX, LT_MB_EXPECT_TX, LT_MB_COMPLETE_TX,
  LT_MB_ARRIVE_DROP, LT_MB_TEST_WAIT, LT_MB_TRY_WAIT
} lt_mbar_op;

/* cp.async.bulk forms. */
typedef enum {
  LT_BULK_G2S,       /* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes */
  LT_BULK_S2G,       /* cp.async.bulk.global.shared::cta.bulk_group */
  LT_BULK_COMMIT,    /* cp.async.bulk.commit_group */
  LT_BULK_WAIT       /* cp.async.bulk.wait_group[.read] n */
} lt_bulk_op;

/* How a shared state space was written: `.shared`, `.shared::cta`,
 * `.shared::cluster`. */
typedef enum { LT_SHARED_PLAIN, LT_SHARED_CTA, LT_SHARED_CLUSTER } lt_shared_kind;

typedef struct lt_instr {
  lt_instr_kind kind;
  lc_loc at;

  /* memory operations and fences */
  lt_sem sem;
  lt_scope scope;
  lt_proxy proxy;        /* proxy of the access (tld: texture, ...); fence.proxy.P: P */
  lt_space space;
  lt_type type;
  lt_cache cache;
  lt_rmw_op rmw;         /* atom/red */
  lt_alu_op alu;         /* LT_I_ALU: the operation (LT_ALU_MOV for `ld rD, v` and `mov`) */
  lt_cmp cmp;            /* LT_I_BRANCH: beq -> LT_CMP_EQ, bne -> NE, blt -> LT, ... */
  bool membar;           /* written `membar.{cta,gl,sys}` (sem SC, scope from the suffix) */
  bool mbar_init_fence;  /* fence.mbarrier_init.release.cluster */
  lt_shared_kind shared; /* space LT_SPACE_SHARED: as written */
  bool fence_no_sem;     /* written `fence.scope` (meaning acq_rel) */

  /* bar */
  bool bar_arrive;       /* bar.cta.arrive (else sync) */
  bool bar_cta_suffix;   /* written with `.cta` */
  int nbar_operands;     /* 1..3 (0 for barrier.cluster) */
  bool bar_cluster;      /* barrier.cluster.{arrive,wait} */
  bool bar_grid;         /* a grid-wide barrier (cooperative_groups::this_grid().sync(), from C++):
                            one instance per GPU, gpu-scoped */
  bool bar_wait;         /* barrier.cluster.wait */
  bool aligned;          /* .aligned (barrier.cluster, barrier{.cta}.sync/arrive) */

  /* mbarrier.* and cp.async.bulk (the mnemonic as written is printed back) */
  lt_mbar_op mbar;
  bool parity;           /* test_wait/try_wait .parity */
  bool sink;             /* the state operand written `_` */
  lt_bulk_op bulk;
  bool wait_read;        /* cp.async.bulk.wait_group.read */

  /* Operands, in the order written:
   *   ld:    dst(REG), addr                      mov: dst, a
   *   st:    addr, a                             red: addr, a
   *   atom:  dst, addr, a [, b for cas]          alu: dst, a, b
   *   bar:   a = n, b = id, c = count            branch: a, b (label in `label`)
   *   mbarrier.init: addr, a = count
   *   mbarrier.arrive/arrive_drop: dst (state; none for `_`), addr[, a = count]
   *   mbarrier.arrive.expect_tx: dst, addr, a = tx bytes
   *   mbarrier.expect_tx/complete_tx: addr, a = tx bytes
   *   mbarrier.test_wait/try_wait: dst (done), addr, a = state or parity[, b = time hint]
   *   cp.async.bulk copy: addr = destination, b = source, a = size[, c = mbarrier]
   *   cp.async.bulk.wait_group: a = n          mapa: dst, addr = x, a = rank */
  lt_operand dst, addr, a, b, c;
  const char *label;     /* branch / goto target */
  lc_loc label_at;

  /* For messages only (not compared, not printed): the mnemonic as written
   * (may be NULL in a test built by hand) and where its .sem, .scope and
   * cache qualifiers stand (line 0 when absent). */
  const char *mnemonic;
  lc_loc sem_at, scope_at, cache_at;

  /* Instructions compiled from a C++ test (exec/lower_cpp.c), never
   * written in PTX: `sem` and `scope` hold the C++ order and scope, and
   *   atom: the halves follow C++ (sc on both, acq_rel split), a failed
   *         cas reads with mo_fail; `c` (a register, if any) receives 1
   *         on success and 0 on failure, and on failure the old value is
   *         written to the register `a` (the expected value) when it is one;
   *         cas_weak: the cas may fail even when old equals expected. */
  bool cpp;
  lt_mo mo_fail;
  bool cas_weak;
  /* How the C++ access was written, for the compilers that re-emit it
   * (map_emit_cpp_access): LT_CF_REF a C11 function, cuda::atomic_ref or
   * a plain access; LT_CF_OBJECT a member of a cuda::atomic<T, S> object;
   * LT_CF_CUDA_FN a CUDA atomic function (atomicAdd, ...) or fence
   * (__threadfence, ...).  `type` is u32 for an unsigned location. */
  enum { LT_CF_REF, LT_CF_OBJECT, LT_CF_CUDA_FN } cpp_form;
  /* Where a C++ instruction stands in its full-expression, for program
   * order (docs/litmus-format.md, "Evaluation order"); NULL outside one
   * and in PTX. */
  const struct lt_seq *seq;
} lt_instr;

/* A C++ instruction's place in the tree of its full-expression (a
 * statement's expression, an if's or while's condition): the operand
 * slots taken from the root down to the node that made it.  Two
 * instructions of one full-expression are unsequenced (C11 6.5p2-3,
 * C++ [intro.execution]) when their paths part at a node whose operands
 * are unsequenced (a binary operator other than && and ||, the operands
 * of a store, the arguments of an atomic operation); when they part at
 * another node (&&, ||, ?:) or one path is a prefix of the other (an
 * operator's own access after its operands) they are sequenced, in the
 * order they appear. */
typedef struct lt_seq {
  int stmt;              /* the full-expression, numbered per thread from 1 */
  int depth;
  const uint8_t *path;   /* per level: the slot (LT_SEQ_SLOT bits), | LT_SEQ_UNSEQ
                            when that node's operands are unsequenced */
} lt_seq;
enum { LT_SEQ_SLOT = 0x7f, LT_SEQ_UNSEQ = 0x80 };

/* Whether a and b (either may be NULL) are unsequenced in one evaluation
 * of their full-expression. */
static inline bool lt_seq_unsequenced(const lt_seq *a, const lt_seq *b) {
  if (!a || !b || a->stmt != b->stmt) return false;
  for (int k = 0; k < a->depth && k < b->depth; k++)
    if (a->path[k] != b->path[k]) return (a->path[k] & LT_SEQ_UNSEQ) != 0;
  return false;
}

/* One cell of the code table: an optional label and an optional instruction. */
typedef struct lt_cell {
  const char *label;     /* `LC00:` starting the cell, or NULL */
  lc_loc label_at;
  lt_instr *instr;       /* NULL for an empty cell or a label alone */
  lc_loc at;             /* start of the cell */
} lt_cell;

typedef struct lt_thread {
  int id;                /* N of PN */
  lc_loc at;
  int cta, cluster, gpu; /* placement; cluster == -1 when not written */
  /* The thread's code, top to bottom: one cell per code row, empty cells
   * included (so rows can be printed back). */
  lt_cell *cells;
  size_t ncells;
} lt_thread;

/* Init block entries. */
typedef enum {
  LT_INIT_LOC,       /* x = const            | x = &y  (value_loc set) */
  LT_INIT_REG,       /* Pn:rK = const        | Pn:rK = &y */
  LT_INIT_ALIAS      /* y @ proxy aliases x */
} lt_init_kind;

typedef struct lt_init {
  lt_init_kind kind;
  lc_loc at;
  const char *loc;         /* LOC: the location; ALIAS: the new name (y) */
  int thread, reg;         /* REG */
  int64_t value;           /* the constant, when value_loc == NULL */
  const char *value_loc;   /* `&y` (also written `y`): the address of y */
  bool value_amp;          /* written with '&' */
  lt_proxy proxy;          /* ALIAS: the proxy of the alias */
  const char *target;      /* ALIAS: the aliased location (x) */
  lc_loc target_at;        /* where target or value_loc is written */
} lt_init;

/* Memory map entry (ext): `x: shared`. */
typedef struct lt_mapping {
  const char *loc;
  lt_space space;
  lc_loc at;
} lt_mapping;

/* Terms and propositions of `locations`, `filter` and the final condition. */
typedef enum { LT_TERM_REG, LT_TERM_LOC, LT_TERM_CONST, LT_TERM_ADDR } lt_term_kind;

typedef struct lt_term {
  lt_term_kind kind;
  int thread, reg;         /* REG: Pn:rK */
  const char *loc;         /* LOC: final value of loc; ADDR: &loc */
  int64_t value;           /* CONST */
  bool fp;                 /* CONST written as a float literal (C++): value is its bits */
  lc_loc at;
} lt_term;

/* A finite float as the shortest decimal that reads back as it, with a
 * point: 10.0, 2.5, 0.1, 1e+30. */
void lt_float_digits(lc_buf *b, float f);
void lt_print_float(lc_buf *b, int64_t bits);   /* a float's bits as a literal: 2.5f */

typedef enum { LT_PROP_TRUE, LT_PROP_FALSE, LT_PROP_CMP, LT_PROP_NOT,
               LT_PROP_AND, LT_PROP_OR } lt_prop_kind;

typedef struct lt_prop {
  lt_prop_kind kind;
  lc_loc at;
  lt_cmp cmp;              /* CMP */
  lt_term lhs, rhs;        /* CMP */
  struct lt_prop *l, *r;   /* NOT (l only), AND, OR */
  bool parens;             /* written in parentheses (printing keeps them) */
} lt_prop;

typedef enum { LT_COND_EXISTS, LT_COND_NOT_EXISTS, LT_COND_FORALL } lt_quant;

typedef struct lt_test {
  lc_arena *arena;          /* owns everything below */
  const char *file;         /* borrowed from the source */
  const char *arch;         /* "PTX" as written */
  const char *name;
  lc_loc name_at;
  const char *doc;          /* text between the header line and '{', trimmed; "" if none */

  lt_init *inits;
  size_t ninits;

  lt_thread *threads;       /* in column order */
  size_t nthreads;
  size_t nrows;             /* code rows (every thread has nrows cells) */

  lt_mapping *map;          /* memory map (ext) */
  size_t nmap;

  lt_term *locations;       /* `locations [..]`, in order */
  size_t nlocations;
  bool has_locations;

  lt_prop *filter;          /* NULL when absent */
  lt_quant quant;
  lt_prop *cond;            /* never NULL after a successful parse */
  lc_loc cond_at;

  /* A C++ test (header `C` or `CUDA`): its bodies (litmus/cpp_ast.h); the
   * code table above then holds them compiled to instructions.  NULL for
   * PTX. */
  const struct lt_cpp *cpp;
  /* A CUDA kernel's test (src/kernel/): thread i's place in the launch,
   * " (block 1, thread 0)", for reports to name; NULL otherwise. */
  const char *const *thread_label;
  /* A kernel's PTX test (src/kptx/): the arrays the source declares, whose
   * element 0 (the location x) reports name x[0] as the source-level test
   * does (lt_cpp_array_head); NULL otherwise. */
  const char *const *array_heads;
  size_t narray_heads;
  /* Launched cooperatively (cudaLaunchCooperativeKernel): every CTA is
   * resident from the start, so every CTA has started (docs/termination.md). */
  bool cooperative;
} lt_test;

/* ---- entry points (parse.c, validate.c, print.c) ------------------------ */

/* Parses src.  On success returns a test whose positions point into
 * src->name (keep src alive as long as the test); warnings go to d.  On an
 * error returns NULL after reporting the first error to d.  Runs
 * lt_validate, so a returned test is well formed. */
lt_test *lt_parse(const lc_source *src, lc_diag *d);
void lt_test_free(lt_test *t);

/* Checks what the grammar cannot (litmus-format.md, "Validation"): thread
 * ids, row widths, labels, registers and locations named by the condition,
 * aliases, sem/scope combinations.  Returns 0, or -1 after an error. */
int lt_validate(const lt_test *t, lc_diag *d);

/* Prints t in normal form: printing then parsing gives an equal AST. */
void lt_print(lc_buf *out, const lt_test *t);
void lt_print_instr(lc_buf *out, const lt_instr *in);
void lt_print_prop(lc_buf *out, const lt_prop *p);
/* A proposition of test t: as lt_print_prop, with a C++ test's locals by name. */
void lt_print_test_prop(lc_buf *out, const lt_test *t, const lt_prop *p);
void lt_print_term(lc_buf *out, const lt_term *t);

/* Does the test use mbarriers, cluster barriers, bulk copies, mapa or the
 * async proxy (the instructions of docs/hopper.md)? */
bool lt_uses_hopper(const lt_test *t);
/* What follows `P3` where a report names thread i: its place in a kernel's
 * launch (" (block 1, thread 1)"), or "". */
const char *lt_thread_label(const lt_test *t, size_t i);

/* Structural equality, ignoring positions (for the round-trip check). */
bool lt_test_equal(const lt_test *a, const lt_test *b);

/* Names for printing and messages. */
const char *lt_sem_name(lt_sem s);       /* "weak", "relaxed", ... ("" for NONE) */
const char *lt_scope_name(lt_scope s);   /* "cta", "cluster", "gpu", "sys" */
const char *lt_proxy_name(lt_proxy p);   /* "generic", "texture", ... */
const char *lt_cmp_name(lt_cmp c);       /* "==", "!=", ... */
const char *lt_space_name(lt_space s);   /* "global", "shared" ("" for NONE) */
const char *lt_type_name(lt_type t);     /* "u32", ... ("" for NONE) */
const char *lt_cache_name(lt_cache c);   /* "ca", ... ("" for NONE) */
const char *lt_rmw_name(lt_rmw_op op);   /* "add", ..., "cas" ("" for NONE) */
const char *lt_alu_name(lt_alu_op op);   /* "mov", "add", ... */
const char *lt_branch_name(lt_cmp c);    /* "beq", "bne", ... */

#endif
