/* cat_int.h - a loaded model: resolved, typed, ready to evaluate.
 * SPDX-License-Identifier: MIT
 *
 * Internal to src/cat/.  cat_load turns the syntax trees of a model and
 * its includes into one table of values (`cat_val`): builtins, definitions
 * (one per `let`, one per `let rec` member, one per non-trivial function
 * argument) and checks whose expressions are trees of `cat_node`s.  A
 * node is either a backend operation or a reference to a value, so the
 * evaluator needs no names and no scopes.  Function calls are expanded at
 * load time; `_`, `0` and `fencerel(S)` become operations.
 */
#ifndef CAT_INT_H
#define CAT_INT_H

#include "cat/cat.h"

#define CAT_NONE ((size_t)-1)

typedef enum { CAT_N_OP, CAT_N_REF } cat_node_kind;

typedef struct cat_node {
  cat_node_kind kind;
  cat_op op;
  cat_type type;           /* the operand type handed to the backend (result type for EMPTY) */
  cat_type rtype;          /* the type of the node's value */
  struct cat_node *a, *b;
  size_t ref;              /* CAT_N_REF: index into cat_model.vals */
  size_t group;            /* the `let rec` group whose body holds the node, or CAT_NONE */
  lc_loc loc;
  int tv;                  /* type variable, used while loading */
} cat_node;

typedef enum { CAT_V_BUILTIN, CAT_V_DEF } cat_val_kind;

typedef struct cat_val {
  cat_val_kind kind;
  const char *name;
  cat_node *body;          /* CAT_V_DEF */
  size_t group;            /* CAT_NONE or the index of its `let rec` group */
  cat_type type;
  lc_loc loc;              /* definition; for a builtin its first use */
  int tv;
} cat_val;

typedef struct cat_group {
  size_t *members;         /* val indices */
  size_t n;
} cat_group;

typedef struct cat_check {
  cat_check_kind kind;
  bool flag;
  bool undef;              /* a flag from herd's `undefined_unless`: undefined behaviour */
  const char *name;
  cat_node *e;             /* always a relation (a set S is checked as [S]) */
  lc_loc loc;
} cat_check;

struct cat_model {
  lc_arena *arena;         /* nodes, strings, syntax trees */
  LC_VEC(lc_source *) sources;   /* every file read; positions point to their names */
  char *name, *path;
  LC_VEC(cat_val) vals;
  LC_VEC(cat_group) groups;
  LC_VEC(cat_check) checks;
  cat_co_kind co;          /* what its `coherence` statement says */
  size_t *uses;            /* per value: its readers in one evaluation (cat_count_uses) */
};

/* Per value of m, how many times one evaluation of the checks reads it;
 * counted once at load, as it depends on the model only (new array). */
size_t *cat_count_uses(const cat_model *m);

/* Evaluates a model written for herd's C read-modify-write, one event that
 * reads and writes, over that view of our two events (cat_onevent.c);
 * adds the check rmw-own-write, at `at`. */
void cat_one_event_view(cat_model *m, lc_loc at);

#endif
