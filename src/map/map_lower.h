/* map_lower.h - compile a C++ test to PTX through a mapping table
 * (docs/mappings.md).
 * SPDX-License-Identifier: MIT
 */
#ifndef MAP_LOWER_H
#define MAP_LOWER_H

#include "litmus/ast.h"
#include "map/map.h"

/* One C++ access of a test and the table row it uses. */
typedef struct map_site {
  size_t thread, cell;     /* t->threads[thread].cells[cell] */
  map_kind kind;
  map_order order;
  map_cscope cscope;
  lt_scope scope;          /* the PTX scope the table gives it (NONE for na) */
  const map_row *row;      /* NULL: compiles to nothing (a relaxed fence) */
  lc_loc at;
} map_site;

typedef struct map_plan { map_site *v; size_t n; } map_plan;

/* A C++ test's bodies as instruction cells, exactly as the events see
 * them (exec/lower_cpp.c): a copy of t in arena a.  Plan and compile from
 * this copy.  NULL after an error in d. */
const lt_test *map_cpp_cells(const lt_test *t, lc_arena *a, lc_diag *d);

/* The accesses of C++ test t (its cells, from map_cpp_cells) in thread and program order with their rows.
 * Returns 0, or -1 when the table has no row or scope for one of them
 * (the error names the access's position). */
int map_plan_make(const lt_test *t, const map_table *m, map_plan *p, lc_diag *d);
void map_plan_fini(map_plan *p);

/* The PTX test t compiles to when site i uses alternative choice[i] of its
 * row.  It borrows from t (keep t alive); free with map_compiled_free. */
lt_test *map_compile(const lt_test *t, const map_plan *p, const size_t *choice);
void map_compiled_free(lt_test *ptx);

/* Prints a compiled test in normal form, each code row with a comment
 * giving the C++ line of each cell. */
void map_print_lowered(lc_buf *out, const lt_test *ptx);

/* The C++ order and scope of an instruction compiled from C++. */
map_order map_order_of(const lt_instr *in);
map_cscope map_cscope_of(lt_scope s);

#endif
