/* check_mapping.h - is a compiled C++ test's every PTX outcome one the
 * C++ model allows? (docs/mappings.md, "Checking a table")
 * SPDX-License-Identifier: MIT
 */
#ifndef MAP_CHECK_MAPPING_H
#define MAP_CHECK_MAPPING_H

#include "cat/cat.h"
#include "check.h"
#include "map/map_lower.h"

typedef struct map_check_options {
  const cat_model *cpp_model;   /* the C++ model (with its options set) */
  const cat_model *ptx_model;
  lc_check_options check;       /* engine, timeout, unroll */
  size_t max_combinations;      /* checked in full up to this many; beyond, pruned */
} map_check_options;

typedef enum {
  MAP_V_SOUND,       /* every PTX outcome of every combination checked is allowed */
  MAP_V_VIOLATION,   /* a combination has an outcome the C++ model forbids */
  MAP_V_RACY,        /* the C++ test has a data race: undefined behaviour */
  MAP_V_UNKNOWN,     /* an engine gave no answer (timeout) */
  MAP_V_ERROR        /* the test could not be compiled or checked (message) */
} map_verdict;

typedef struct map_check_result {
  map_verdict verdict;
  lc_arena *arena;       /* holds the C++ test's cells, which plan and ptx borrow */
  map_plan plan;
  size_t combinations;   /* every way a binary could mix the alternatives */
  size_t checked;        /* of which were checked */
  size_t cpp_states;     /* outcomes the C++ model allows */
  /* VIOLATION: the combination, its PTX test, the first extra outcome. */
  size_t *choice;        /* plan.n entries */
  lt_test *ptx;
  char *extra;           /* "P0:r0=0; P1:r0=0;" */
  char *race;            /* RACY: the flag raised */
  char *message;         /* UNKNOWN, ERROR */
  /* Coverage: used[k][o][id] counts checked combinations that used
   * alternative #id (1-based, up to MAP_MAX_ALT) of row (k, o). */
  unsigned (*used)[MAP_NORDERS][MAP_MAX_ALT + 1];
} map_check_result;

/* Checks C++ test t (a parsed C++ test) against table m.  Returns 0 with
 * the verdict in r (free with map_check_result_fini), or -1 when t cannot
 * be planned or lowered (the error in d). */
int map_check_test(const lt_test *t, const map_table *m, const map_check_options *o,
                   map_check_result *r, lc_diag *d);
void map_check_result_fini(map_check_result *r);

/* Compares a PTX test (already compiled) with the C++ test's allowed
 * outcomes; the building block of map_check_test, also used for compiler
 * output.  cpp_states is the C++ result. */
int map_check_ptx(const lt_test *ptx, const lc_result *cpp, const map_check_options *o,
                  char **extra, char **message, lc_diag *d);

/* The C++ model's result for t, with races evaluated; NULL after an error
 * in d.  *racy is the name of a raised flag, or NULL. */
lc_result *map_check_cpp(const lt_test *t, const map_check_options *o, lx_program **prog,
                         const char **racy, lc_diag *d);

/* "P0:r0=1; x=2;" for state i of r. */
char *map_state_text(const lc_result *r, size_t i);

const char *map_verdict_name(map_verdict v);   /* "sound", "violation", ... */

#endif
