/* map.h - tables that compile C++ atomics to PTX (docs/mappings.md).
 * SPDX-License-Identifier: MIT
 *
 * A table maps each C++ access kind (load, store, read-modify-write,
 * fence) and memory order to one or more alternative PTX sequences, and
 * each C++ thread scope to a PTX scope.  Every alternative and scope row
 * may carry a guard on the target (`[sm >= 90]`); a table is validated
 * against one target when it is loaded, so everything left in a map_table
 * is valid for that target.  All of a table lives in its arena.
 */
#ifndef MAP_H
#define MAP_H

#include "lc.h"
#include "litmus/ast.h"

/* The C++ side. */
typedef enum { MAP_LOAD, MAP_STORE, MAP_RMW, MAP_FENCE, MAP_NKINDS } map_kind;
/* MAP_VOL: a volatile access (CUDA's volatile int*), which nvcc compiles
 * to ld.volatile / st.volatile: loads and stores only. */
typedef enum { MAP_NA, MAP_RLX, MAP_ACQ, MAP_REL, MAP_ACQ_REL, MAP_SC, MAP_VOL, MAP_NORDERS } map_order;
typedef enum { MAP_THREAD, MAP_BLOCK, MAP_CLUSTER, MAP_DEVICE, MAP_SYSTEM,
               MAP_NSCOPES } map_cscope;

/* Alternatives of one row counted for coverage. */
#define MAP_MAX_ALT 8

/* The default target of --sm. */
#define MAP_DEFAULT_SM 90

/* One PTX instruction of a sequence.  `scope_from_cpp` means the template
 * wrote `.S` (the scope row's PTX scope); otherwise `scope` is literal
 * (LT_SCOPE_NONE for ld.weak, membar keeps its own suffix in scope). */
typedef struct map_instr {
  lt_instr_kind kind;    /* LT_I_LD, LT_I_ST, LT_I_ATOM or LT_I_FENCE */
  lt_sem sem;
  lt_scope scope;
  bool scope_from_cpp;
  bool membar;           /* membar.S */
  lc_loc at;
} map_instr;

typedef struct map_alt {
  map_instr *ins;
  size_t nins;
  size_t access;         /* index of the memory access in ins (nins for fences) */
  int id;                /* row number used in reports: "load seq_cst #2" */
  lc_loc at;
} map_alt;

typedef struct map_row {
  map_kind kind;
  map_order order;
  map_alt *alts;         /* those valid for the target, in the order written */
  size_t nalts;
  lc_loc at;
} map_row;

typedef struct map_table {
  lc_arena *arena;
  const char *name;      /* `name` line, else the file's base name */
  const char *file;
  int sm;                /* the target it was validated for */
  lt_scope scope[MAP_NSCOPES];  /* LT_SCOPE_NONE: no row for this target */
  lc_loc scope_at[MAP_NSCOPES];
  map_row rows[MAP_NKINDS][MAP_NORDERS];   /* nalts == 0: no row */
} map_table;

/* Reads a table from src for target sm (e.g. 90).  On an error (syntax,
 * or a row that is not valid for the target) reports it to d with
 * file:line:col and returns NULL.  Positions point into src. */
map_table *map_parse(const lc_source *src, int sm, lc_diag *d);
void map_table_free(map_table *t);

/* The row for a C++ access, or NULL when the table has none. */
const map_row *map_row_for(const map_table *t, map_kind k, map_order o);

/* Prints a table's content for target sm in the file format (normal
 * form: one alternative per line). */
void map_print(lc_buf *out, const map_table *t);
void map_print_alt(lc_buf *out, const map_alt *a);
/* "load seq_cst #2" */
void map_print_alt_name(lc_buf *out, const map_row *r, const map_alt *a);

const char *map_kind_name(map_kind k);     /* "load", ... */
const char *map_order_name(map_order o);   /* "na", "relaxed", ..., "seq_cst" */
const char *map_cscope_name(map_cscope s); /* "thread", "block", ... */

/* Sequence matching: does the PTX sequence ins[0..n) (instructions of one
 * C++ access, scope already known) equal alternative a under scope s? */
bool map_alt_matches(const map_alt *a, lt_scope s, const lt_instr *const *ins, size_t n);

/* The PTX target feature check shared by the parser and the lifter:
 * NULL when in is valid for sm, else the reason ("'.cluster' scope needs
 * sm_90"). */
const char *map_target_error(lt_instr_kind kind, lt_sem sem, lt_scope scope, bool membar,
                             int sm);

#endif
