/* cpp_ast.h - a C++ (CUDA C++ or herd C11) litmus test as written
 * (docs/litmus-format.md, "C++ tests").
 * SPDX-License-Identifier: MIT
 *
 * A C++ test shares with a PTX test its header, its init block, its thread
 * ids and placements and its tail (locations, filter, condition): those
 * stay in lt_test.  What is new is each thread's body, a tree of
 * statements and expressions, kept here in lt_cpp (lt_test.cpp).  The
 * parser also fills lt_test's code table with the body compiled to the
 * instruction cells the lowering reads (cpp_desugar.c), so every later
 * stage that does not care about C++ sees an ordinary test.
 *
 * CUDA's own forms are read too: the atomic functions (atomicAdd, ...,
 * __threadfence; lt_catomic.cuda_fn), members and operators of atomic
 * objects (`x->store(1)`, `(*x).load()`, `f += 2`, `++*x`, implicit loads:
 * the C11 nodes with libcu++'s defaults, seq_cst and the object's scope),
 * named atomic_refs (`cuda::atomic_ref<int, S> f(*p);`: no node, another
 * name of *p), `for` and `do` loops (a while loop in a block; `do` as
 * `while (1) { ... if (!(c)) break; }`) and `++`/`--`/`op=` statements.
 * A volatile access is a DEREF or STORE through a `volatile int*`
 * parameter: its volatility is the parameter's type (lt_cpp_param_type).
 *
 * Sugar is normalised: `cuda::atomic_ref<int, cuda::thread_scope_device>(x)
 * .store(1, cuda::memory_order_release)` and `atomic_store_explicit(x, 1,
 * memory_order_release, thread_scope_device)` give the same nodes, and
 * `cuda::`, `cuda::std::` and `std::` prefixes and OpenCL's memory_scope_*
 * names are not remembered.  The printer writes the C11 `_explicit` form.
 *
 * Locals (`int r0`) are numbered per thread in order of declaration; a
 * condition's `1:r0` names local number k of thread 1 through lt_term.reg
 * (k), and lt_cpp_thread.locals[k] is its name.  Every node lives in the
 * test's arena and carries the position of its first token.
 *
 * Stability: fields are only ever added; enum values keep their order.
 */
#ifndef LT_CPP_AST_H
#define LT_CPP_AST_H

#include "litmus/ast.h"

/* CUDA thread scope; LT_TS_NONE when not written (system, as in CUDA). */
typedef enum {
  LT_TS_NONE,
  LT_TS_THREAD,      /* thread_scope_thread */
  LT_TS_BLOCK,       /* thread_scope_block, memory_scope_work_group */
  LT_TS_CLUSTER,     /* thread_scope_cluster (sm_90) */
  LT_TS_DEVICE,      /* thread_scope_device, memory_scope_device */
  LT_TS_SYSTEM       /* thread_scope_system, memory_scope_all_svm_devices */
} lt_ts;

/* The atomic operations (and the fence), whatever their spelling. */
typedef enum {
  LT_CA_LOAD,        /* atomic_load_explicit(obj, mo[, s])          -> old */
  LT_CA_STORE,       /* atomic_store_explicit(obj, val, mo[, s])    (void) */
  LT_CA_EXCHANGE,    /* atomic_exchange_explicit(obj, val, mo[, s]) -> old */
  LT_CA_FETCH,       /* atomic_fetch_OP_explicit(obj, val, mo[, s]) -> old; OP in `op` */
  LT_CA_CAS,         /* atomic_compare_exchange_{strong,weak}_explicit(obj, expected,
                        desired, mo, mo_fail[, s]) -> 1 on success, 0 on failure */
  LT_CA_FENCE        /* atomic_thread_fence(mo[, s])                (void) */
} lt_catomic_kind;

typedef enum {
  LT_CE_CONST,       /* value */
  LT_CE_LOCAL,       /* local number `local` of the thread */
  LT_CE_LOC,         /* the address of location `loc` (a parameter, or one named in init) */
  LT_CE_DEREF,       /* *a: a non-atomic read of the location a points to */
  LT_CE_ADDR,        /* &local (only as the expected operand of a compare-exchange) */
  LT_CE_ATOMIC,      /* an atomic operation; `atomic` */
  LT_CE_UNARY,       /* op a, op one of '-', '!', '~' */
  LT_CE_BINARY,      /* a op b */
  LT_CE_COND,        /* a ? b : c */
  LT_CE_CAST         /* (type)a: a converted to ctype (`type` as written); a cast
                        to a pointer type is no node (locations are untyped) */
} lt_cexpr_kind;

/* C's integer types as the values of a C++ test have them (C11 6.3.1.8,
 * the usual arithmetic conversions; int is 32 bits, long and long long 64,
 * as nvcc's LP64): arithmetic of a type wraps at its width. */
typedef enum {
  LT_CT_INT,         /* int (and char, short, bool: promoted to int) */
  LT_CT_UINT,        /* unsigned int, uint32_t */
  LT_CT_LLONG,       /* long, long long, int64_t, and pointers */
  LT_CT_ULLONG,      /* unsigned long (long), uint64_t, size_t */
  LT_CT_FLOAT        /* float (binary32; its bits are the value: lx_float_of) */
} lt_ctype;

/* The type a declaration's type names ("unsigned", "uint64_t",
 * "cuda::atomic<unsigned, S>*" names its value's: unsigned; "int*" a
 * pointer: LT_CT_LLONG); int when none is recognised. */
lt_ctype lt_cpp_ctype(const char *type);
/* The type of the values a declaration's type points to (what stands
 * before its first `*`: "float*" float, "cuda::atomic<int, S>*" int), or
 * of the declaration itself when it has no `*`. */
lt_ctype lt_cpp_pointee_ctype(const char *type);

/* Operators of LT_CE_UNARY and LT_CE_BINARY. */
typedef enum {
  LT_COP_NEG, LT_COP_NOT, LT_COP_BITNOT,                       /* unary */
  LT_COP_ADD, LT_COP_SUB, LT_COP_MUL, LT_COP_DIV, LT_COP_REM,
  LT_COP_AND, LT_COP_OR, LT_COP_XOR,                           /* bitwise */
  LT_COP_EQ, LT_COP_NE, LT_COP_LT, LT_COP_LE, LT_COP_GT, LT_COP_GE,
  LT_COP_LAND, LT_COP_LOR,                                     /* && || (short-circuit) */
  LT_COP_SHL, LT_COP_SHR                                       /* << >> */
} lt_cop;

typedef struct lt_cexpr lt_cexpr;

typedef struct lt_catomic {
  lt_catomic_kind kind;
  lt_rmw_op op;          /* FETCH: ADD SUB AND OR XOR MIN MAX */
  bool weak;             /* CAS: compare_exchange_weak (may fail spuriously) */
  const lt_cexpr *obj;   /* the atomic object (a pointer expression); NULL for FENCE */
  const lt_cexpr *val;   /* STORE, EXCHANGE, FETCH: the operand */
  const lt_cexpr *expected;  /* CAS: a pointer to the expected value (a location or &local) */
  const lt_cexpr *desired;   /* CAS */
  lt_mo mo;              /* the order (the success order of a CAS) */
  lt_mo mo_fail;         /* CAS: the failure order */
  lt_ts scope;
  lc_loc mo_at, scope_at;
  lc_loc mo_fail_at;     /* CAS: where the failure order is written (line 0: derived from mo) */
  /* Written as a CUDA atomic function (CUDA C++ Programming Guide,
   * "Atomic Functions" and "Memory Fence Functions"), printed as written:
   *   atomicAdd/Sub/Exch/Min/Max/And/Or/Xor[_block|_system](p, v): FETCH
   *     (EXCHANGE for Exch) relaxed at device (block, system) scope;
   *   atomicInc/Dec(p, v): FETCH with op LT_RMW_INC / LT_RMW_DEC (PTX's
   *     atom.inc / atom.dec wrap-around);
   *   atomicCAS(p, cmp, v): CAS whose `expected` is a value (not a
   *     pointer), never written back, and whose result is the old value;
   *   __threadfence_block/()/_system(): a seq_cst FENCE at block (device,
   *     system) scope. */
  bool cuda_fn;
} lt_catomic;

struct lt_cexpr {
  lt_cexpr_kind kind;
  lc_loc at;
  int64_t value;         /* CONST */
  int local;             /* LOCAL, ADDR */
  const char *loc;       /* LOC */
  lt_cop op;             /* UNARY, BINARY */
  const lt_cexpr *a, *b; /* DEREF: a; UNARY: a; BINARY: a, b */
  lt_catomic atomic;     /* ATOMIC */
  bool parens;           /* written in parentheses (printing keeps them) */
  const lt_cexpr *c;     /* COND: the value when a is false */
  lt_ctype ctype;        /* CONST: the literal's type (suffix, value, hex); CAST: the target */
  const char *type;      /* CAST: the type as written, normalised spacing */
  int height;            /* nodes on the longest path down from here (1: a leaf):
                            bounded by the parser, as walks over it recurse */
};

typedef enum {
  LT_CS_DECL,        /* int local [= e];       e may be NULL */
  LT_CS_ASSIGN,      /* local = e; */
  LT_CS_STORE,       /* *ptr = e;              a non-atomic write */
  LT_CS_EXPR,        /* e;                     an atomic operation or a fence */
  LT_CS_IF,          /* if (e) then [else els] */
  LT_CS_WHILE,       /* while (e) body         (unrolled like PTX loops) */
  LT_CS_SYNC,        /* __syncthreads();        a CTA barrier (bar.sync 0); with `grid`,
                        cooperative_groups::this_grid().sync(): a barrier of the grid */
  LT_CS_BLOCK,       /* { body }               (then, else and loop bodies are blocks) */
  LT_CS_BREAK,       /* break;                 (leaves the innermost while) */
  LT_CS_RETURN,      /* return;                (the thread ends) */
  LT_CS_CONTINUE     /* continue;              (back to the innermost while's test; a
                        `for`'s step or a `do`'s test comes first, as a block
                        { step; continue; } the parser builds) */
} lt_cstmt_kind;

typedef struct lt_cstmt lt_cstmt;

typedef struct lt_cblock {
  lt_cstmt **v;
  size_t n;
} lt_cblock;

struct lt_cstmt {
  lt_cstmt_kind kind;
  lc_loc at;
  int local;             /* DECL, ASSIGN */
  const char *type;      /* DECL: the type as written ("int"), normalised spacing */
  const lt_cexpr *ptr;   /* STORE */
  const lt_cexpr *e;     /* DECL (may be NULL), ASSIGN, STORE, EXPR, IF and WHILE condition */
  lt_cblock body;        /* BLOCK, IF (then), WHILE */
  lt_cblock els;         /* IF: the else branch (n == 0 and has_else false when absent) */
  bool has_else;
  bool grid;             /* SYNC: the grid's barrier, not the CTA's */
};

/* A parameter `atomic_int* x`: names location x for the thread. */
typedef struct lt_cparam {
  const char *type;      /* "atomic_int*", normalised spacing */
  const char *name;
  lc_loc at;
} lt_cparam;

typedef struct lt_cpp_thread {
  bool placed;           /* written with `@cta N,gpu N` (else the placement is invented:
                            every thread in a CTA of its own, GPU 0) */
  lt_cparam *params;
  size_t nparams;
  lc_names param_index;  /* the parser's: params by name, the first of each (in the test's
                            arena); left empty, lt_cpp_param_index searches the list */
  lt_cblock body;
  const char **locals;   /* by number */
  lc_loc *local_at;
  size_t nlocals;
} lt_cpp_thread;

/* An init entry of a C++ test that lt_init cannot say: `atomic_int y[2] =
 * {0, 0};` (its elements are the locations y, y[1], ... in lt_test.inits)
 * or a typed scalar `int x = 1;`.  Printing uses these. */
typedef struct lt_cinit {
  size_t first, n;       /* the lt_test.inits entries it stands for */
  const char *type;      /* "atomic_int", or NULL for `[x] = v` / `x = v` */
  bool bracketed;        /* `[x] = v` */
  long array_len;        /* -1 for a scalar */
  lc_loc at;
} lt_cinit;

typedef enum { LT_CPP_C11, LT_CPP_CUDA } lt_cpp_dialect;

typedef struct lt_cpp {
  lt_cpp_dialect dialect;    /* header `C` (herd) or `CUDA` */
  lt_cpp_thread *threads;    /* parallel to lt_test.threads */
  lt_cinit *inits;
  size_t ninits;
} lt_cpp;

/* ---- entry points ------------------------------------------------------------ */

/* Prints a C++ test in normal form (called by lt_print for t->cpp). */
void lt_cpp_print(lc_buf *out, const lt_test *t);
void lt_cpp_print_expr(lc_buf *out, const lt_test *t, int thread, const lt_cexpr *e);
/* Whether child, operand `slot` of parent (0, 1, 2: its a, b, c), needs
 * parentheses its parens flag does not give it for the print to read back
 * as the same tree (C's precedence and associativity). */
bool lt_cexpr_needs_parens(const lt_cexpr *parent, int slot, const lt_cexpr *child);
/* The index in th->params of the parameter named s[0..len), or -1. */
long lt_cpp_param_index(const lt_cpp_thread *th, const char *s, size_t len);
/* A proposition with locals by name (`1:r0`, `0:t`). */
void lt_cpp_print_prop(lc_buf *out, const lt_test *t, const lt_prop *p);
/* Structural equality of the C++ parts, positions ignored. */
bool lt_cpp_equal(const lt_cpp *a, const lt_cpp *b, size_t nthreads);

/* What a parameter's type says of the accesses through it.  Types are as
 * the parser normalises them ("volatile int*", "cuda::atomic<int,
 * cuda::thread_scope_block>*", "unsigned*"). */
typedef enum {
  LT_PK_PLAIN,       /* int*, unsigned*, ...: `*p` is a non-atomic access */
  LT_PK_VOLATILE,    /* volatile int*: `*p` is a volatile access */
  LT_PK_C11,         /* atomic_int*, _Atomic int*: the C11 functions' object */
  LT_PK_OBJECT       /* cuda::atomic<T[, S]>*, cuda::std::atomic<T>*: `*p` is an atomic object */
} lt_param_kind;

typedef struct lt_param_type {
  lt_param_kind kind;
  bool is_unsigned;  /* the value type is unsigned (unsigned, uint32_t, atomic_uint, atomic<unsigned>) */
  lt_ts scope;       /* OBJECT: the template's scope (LT_TS_NONE: system, as libcu++'s default) */
  bool pointer;      /* written with a `*` (a reference, `cuda::atomic<int, S>& x`, ends with `&`) */
} lt_param_type;

lt_param_type lt_cpp_param_type(const char *type);
/* The declared type of location `loc` in thread `thread` (its parameter),
 * or NULL when no parameter of the thread names it. */
const char *lt_cpp_param_of(const lt_test *t, size_t thread, const char *loc);
/* True when loc is element 0 of an array the C++ test declares (`int x[2]`,
 * a kernel's arrays): the location is named x, as `*x` reaches it, but
 * reports write it x[0], as the question does. */
bool lt_cpp_array_head(const lt_test *t, const char *loc);
/* True when a parameter or a typed init entry gives loc the type float:
 * its values are floats' bits, printed and compared as floats. */
bool lt_cpp_loc_is_float(const lt_test *t, const char *loc);


const char *lt_mo_name(lt_mo mo);        /* "memory_order_relaxed", ...; "" for NA */
const char *lt_mo_short(lt_mo mo);       /* "na", "rlx", "con", "acq", "rel", "acq_rel", "sc" */
const char *lt_ts_name(lt_ts s);         /* "thread_scope_block", ...; "" for NONE */
const char *lt_ts_short(lt_ts s);        /* "thread", "block", "cluster", "device", "system" */
/* The PTX scope a thread scope means (NONE: system; THREAD: cta, see lower). */
lt_scope lt_ts_scope(lt_ts s);

#endif
