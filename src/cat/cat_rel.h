/* cat_rel.h - concrete backends of the model language over rel_ bitsets.
 * SPDX-License-Identifier: MIT
 *
 * Two interpretations of a model over n events (0..n-1):
 *
 *  - exact: a set is a rel_set*, a relation a rel_rel*; the value of the
 *    model in one candidate execution.  The explicit engine uses it, and
 *    its results say why a check failed (a cycle, a reflexive event, a
 *    pair) so reports can show a witness.
 *
 *  - may/must: a value is a pair (may, must) of such objects with
 *    must <= may: every pair in `must` is in the value in every candidate
 *    execution, no pair outside `may` is in it in any.  Builtins give
 *    their bounds (e.g. rf: may = same-location write/read pairs, must =
 *    empty); each operation propagates them soundly, so an engine learns
 *    which pairs of each intermediate relation are statically impossible
 *    or certain.  cat_mm_op is the single-operation form for engines that
 *    carry bounds beside their own values, e.g. the SMT backend:
 *
 *        my_op(ctx, op, t, a, b):
 *          r->mm = cat_mm_op(ctx->n, op, t, a->mm, b ? b->mm : NULL);
 *          for each pair p:  r->term[p] = !in(r->mm->may, p) ? false
 *                                         : in(r->mm->must, p) ? true
 *                                         : <Z3 term from a and b>;
 *
 * Values handed to the caller's builtin callbacks are created by the
 * caller and then owned by the evaluation.
 */
#ifndef CAT_REL_H
#define CAT_REL_H

#include "cat/cat.h"
#include "rel.h"

/* ---- exact values ---------------------------------------------------------- */

/* One operation on values of n events: rel_set* for sets, rel_rel* for
 * relations.  Operands are borrowed; the result is new. */
void *cat_rel_op(size_t n, cat_op op, cat_type type, const void *a, const void *b);
bool cat_rel_same(cat_type type, const void *a, const void *b);
void *cat_rel_copy(cat_type type, const void *v);
void cat_rel_free(cat_type type, void *v);          /* NULL is a no-op */

/* Supplies a builtin: a new rel_set* (for *type == CAT_TY_SET) or rel_rel*
 * of n events, or NULL when the engine does not have it. */
typedef void *(*cat_rel_builtin_fn)(void *uctx, const char *name, cat_type *type);

typedef struct cat_rel_check {
  char *name;                /* owned by the result, which may outlive the model */
  cat_check_kind kind;
  bool flag;
  lc_loc at;                 /* the check's keyword; at.file lives as long as the model */
  bool holds;                /* the check holds; for a flag: it is not raised */
  /* When it does not hold:
   *   acyclic:      cycle[0..ncycle-1], each related to the next and the
   *                 last to the first;
   *   irreflexive:  a == b, an event related to itself;
   *   empty, flag:  (a, b), the first pair of the relation (row-major). */
  size_t *cycle, ncycle;
  size_t a, b;
  rel_rel *rel;              /* a raised flag: its whole relation (owned), else NULL */
} cat_rel_check;

typedef struct cat_rel_result {
  cat_rel_check *checks;     /* one per check of the model, in file order */
  size_t n;
  bool consistent;           /* every check that is not a flag holds */
} cat_rel_result;

/* Evaluates model m over n events.  Returns 0 and fills *res (release it
 * with cat_rel_result_fini), or -1 after an error in d; *res is then
 * empty. */
int cat_rel_eval(const cat_model *m, size_t n, cat_rel_builtin_fn builtin, void *uctx,
                 cat_rel_result *res, lc_diag *d);
void cat_rel_result_fini(cat_rel_result *res);
/* The values vals[0..nvals) of m (cat_eval_values) over n events, each a
 * new rel_set* or rel_rel* in out[i].  Returns 0, or -1 after an error in d. */
int cat_rel_eval_values(const cat_model *m, size_t n, cat_rel_builtin_fn builtin, void *uctx, const size_t *vals,
                        size_t nvals, void **out, lc_diag *d);
/* The result of the check called name, or NULL (borrowed). */
const cat_rel_check *cat_rel_result_find(const cat_rel_result *res, const char *name);

/* ---- derivations: why a check fails, in the model's own relations ------------------ */

#define CAT_DERIV_LEAF ((size_t)-1)

/* One step of a derivation: from -name-> to, events as frame indices. */
typedef struct cat_step {
  size_t from, to;
  const char *name;          /* a relation the model names (a `let`, or a builtin), or
                                the text of an expression it does not name */
  const char *base;          /* the builtin it is, through `let` aliases (sb: po), or NULL */
  bool inverse;              /* the pair is (to, from): the step goes against `name` */
  size_t line;               /* the line deriving a `let`, or CAT_DERIV_LEAF */
} cat_step;

/* from -name-> to holds because of the chain steps[0..n). */
typedef struct cat_deriv_line {
  size_t from, to;
  const char *name;
  cat_step *steps;
  size_t nsteps;
} cat_deriv_line;

/* A violation of a check in one execution, as the check's expression
 * defines it: `top` is its cycle (acyclic), a cycle through the event
 * related to itself (irreflexive), or the pair its relation should not
 * have (empty), each step named by the relations the expression names;
 * `lines` derive each step of a `let` from that let's own definition,
 * and so on down to the builtins.  `unless` is, for an empty check
 * whose relation is `A \ B`, the text of B (the pair is not in it). */
typedef struct cat_derivation {
  cat_step *top;
  size_t ntop;
  cat_deriv_line *lines;
  size_t nlines;
  const char *unless;
  const char *expr;          /* the check's expression */
  lc_arena *arena;           /* the texts of unnamed expressions */
} cat_derivation;

/* Derives the failure `failed` (from cat_rel_eval over the same builtins)
 * of check number `check` of m over n events.  Returns 0, or -1 after an
 * error in d (a builtin the engine lacks, or a pair that is not in its
 * relation: the evaluation and the derivation disagree). */
int cat_rel_derive(const cat_model *m, size_t check, size_t n, cat_rel_builtin_fn builtin, void *uctx,
                   const cat_rel_check *failed, cat_derivation *out, lc_diag *d);
void cat_derivation_fini(cat_derivation *x);
/* The value of the model's relation or builtin `name` over n events (new),
 * or NULL after an error in d: what re-checks a derivation's steps. */
rel_rel *cat_rel_value(const cat_model *m, const char *name, size_t n, cat_rel_builtin_fn builtin, void *uctx,
                       lc_diag *d);

/* ---- may/must bounds ------------------------------------------------------------ */

typedef struct cat_mm {
  cat_type type;
  void *may, *must;          /* rel_set* or rel_rel*, must <= may */
} cat_mm;

cat_mm *cat_mm_new(cat_type type, void *may, void *must);   /* takes both */
cat_mm *cat_mm_exact(cat_type type, const void *v);         /* may = must = a copy of v */
cat_mm *cat_mm_copy(const cat_mm *x);
void cat_mm_free(cat_mm *x);                                /* NULL is a no-op */
bool cat_mm_same(const cat_mm *a, const cat_mm *b);

/* Bounds of op(a, b) over n events from bounds of the operands (b NULL for
 * unary ops, both NULL for CAT_OP_EMPTY).  Monotone ops act on may and on
 * must separately; a \ b = (may_a \ must_b, must_a \ may_b) and
 * ~a = (~must_a, ~may_a). */
cat_mm *cat_mm_op(size_t n, cat_op op, cat_type type, const cat_mm *a, const cat_mm *b);
/* The same into d, a value of the result's type and size that is neither
 * operand (no allocation for the common operations). */
void cat_mm_op_into(size_t n, cat_op op, cat_type type, const cat_mm *a, const cat_mm *b, cat_mm *d);

/* Supplies a builtin's bounds (new, of n events), or NULL. */
typedef cat_mm *(*cat_mm_builtin_fn)(void *uctx, const char *name, cat_type *type);

typedef enum {
  CAT_MM_HOLDS,     /* holds in every execution (a flag: never raised) */
  CAT_MM_FAILS,     /* fails in every execution (a flag: always raised) */
  CAT_MM_UNKNOWN    /* depends on the execution */
} cat_mm_verdict;

typedef struct cat_mm_check {
  char *name;                /* owned by the result */
  cat_check_kind kind;
  bool flag;
  lc_loc at;                 /* at.file lives as long as the model */
  cat_mm_verdict verdict;
  cat_mm *value;             /* the bounds of the checked relation */
} cat_mm_check;

typedef struct cat_mm_result {
  cat_mm_check *checks;      /* file order */
  size_t n;
} cat_mm_result;

int cat_mm_eval(const cat_model *m, size_t n, cat_mm_builtin_fn builtin, void *uctx,
                cat_mm_result *res, lc_diag *d);
void cat_mm_result_fini(cat_mm_result *res);
const cat_mm_check *cat_mm_result_find(const cat_mm_result *res, const char *name);

#endif
