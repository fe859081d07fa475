/* cat.h - the model language: parse a cat file, then evaluate it over any
 * representation of sets and relations through one operations table.
 * SPDX-License-Identifier: MIT
 *
 * herd's interpreter is a functor over its event-relation module; this is
 * the same idea in C.  cat_load parses, resolves `include`s and names, and
 * type-checks (sets versus relations) once.  cat_eval then walks the
 * definitions in order and asks a backend (cat_backend) to build each value:
 *   - cat_rel (src/cat/cat_rel.h)  concrete bitsets: the explicit engine and
 *                                  the static may/must analysis;
 *   - smt_  (src/smt/)             matrices of Z3 Booleans: the SMT engine.
 * The evaluator knows nothing about events; the builtin names (docs/
 * model-language.md) are resolved by the backend.
 *
 * Values and ownership: every value the backend returns (from builtin or
 * op) belongs to the evaluator, which hands it back through `release`
 * exactly once when it is no longer needed.  Operands passed to op and
 * check are borrowed: a backend must not keep or free them, and op must
 * return a new value even when the result equals an operand.
 */
#ifndef CAT_H
#define CAT_H

#include "lc.h"

typedef enum { CAT_TY_SET, CAT_TY_REL } cat_type;

/* Operations a backend implements.  Binary set ops and relation ops share
 * codes; the evaluator passes the operand type. */
typedef enum {
  CAT_OP_EMPTY,      /* nullary: the empty set / relation of the given type */
  CAT_OP_UNION,      /* a | b */
  CAT_OP_INTER,      /* a & b */
  CAT_OP_DIFF,       /* a \ b */
  CAT_OP_COMPL,      /* ~a  (relative to all events / all pairs) */
  CAT_OP_SEQ,        /* a ; b           relations */
  CAT_OP_PRODUCT,    /* a * b           sets -> relation */
  CAT_OP_IDSET,      /* [a]             set -> relation */
  CAT_OP_INVERSE,    /* a^-1            relation */
  CAT_OP_PLUS,       /* a+              relation: transitive closure */
  CAT_OP_STAR,       /* a*              relation: reflexive-transitive closure */
  CAT_OP_OPT,        /* a?              relation: a | id */
  CAT_OP_DOMAIN,     /* domain(a)       relation -> set */
  CAT_OP_RANGE,      /* range(a)        relation -> set */
  CAT_OP_LINEAR      /* herd's `with x from linearisations(a, b)`: a is a set,
                        b a relation, `type` CAT_TY_SET; the value is one strict
                        total order of a that includes (b+) & (a * a), the
                        backend's choice: the exact backend enumerates them
                        (cat_rel_eval tries each), may/must bounds them, the
                        SMT backend makes it a fresh order the solver picks.
                        The loader adds a check that fails when there is none */
} cat_op;

/* The type of op's result for operands of type `operand` (for
 * CAT_OP_EMPTY, `operand` is the result type). */
cat_type cat_op_result_type(cat_op op, cat_type operand);

typedef enum { CAT_CHECK_ACYCLIC, CAT_CHECK_IRREFLEXIVE, CAT_CHECK_EMPTY } cat_check_kind;

/* An opaque value built by the backend (a bitset, a Z3 matrix, ...). */
typedef void *cat_value;

typedef struct cat_backend {
  /* Value of a builtin name (`po`, `W`, `rf`, ...), or NULL when the backend
   * does not know it (cat_eval then reports an error at the name's first
   * use).  On entry *type is the name's type (cat_builtin_type); the value
   * must have that type.  Called at most once per name and evaluation,
   * and only for names the checks need. */
  cat_value (*builtin)(void *ctx, const char *name, cat_type *type);
  /* Applies op; b is NULL for unary ops, a and b are NULL for CAT_OP_EMPTY.
   * `type` is the type of the operands (the result type follows from op). */
  cat_value (*op)(void *ctx, cat_op op, cat_type type, cat_value a, cat_value b);
  /* For `let rec`: true when a and b are certainly the same value, so Kleene
   * iteration (which starts from empty values) may stop.  Iteration also
   * stops after rec_limit rounds per member of the group (0: no limit).
   * A backend needs at least one of the two; a symbolic one whose `same`
   * cannot decide returns false and relies on the limit: n*n+1 rounds per
   * member reach the least fixed point of any monotone group over n events,
   * as each round that changes something adds a pair. */
  bool (*same)(void *ctx, cat_type type, cat_value a, cat_value b);
  size_t rec_limit;
  /* A named check.  `flag` marks `flag ~empty E as name` (a report, not a
   * constraint); for flags kind is CAT_CHECK_EMPTY and the flag is raised
   * when the value is NOT empty.  v is always a relation: `empty S` for a
   * set S is checked as `empty [S]`.  `at` is the check's keyword. */
  void (*check)(void *ctx, cat_check_kind kind, bool flag, cat_value v,
                const char *name, lc_loc at);
  /* Called for every value the evaluator no longer needs; may be NULL when
   * the backend frees everything at the end (e.g. an arena). */
  void (*release)(void *ctx, cat_type type, cat_value v);
  void *ctx;
  /* Per check (file order), or NULL: true leaves the check unevaluated,
   * `check` then called with v NULL (only for backends that accept it):
   * a search that needs only some checks skips building the rest. */
  const bool *skip;
} cat_backend;

typedef struct cat_model cat_model;

/* Loads a model.  `name_or_path` is a file path when it contains '/' or ends
 * in ".cat", else a model name looked up as NAME.cat in the directories of
 * `search` (NULL-terminated; the first directory that has it wins).
 * Includes are resolved relative to the including file first, then `search`.
 * The backend-independent builtin names and their types are checked here
 * (docs/model-language.md), so an unknown name is a load error with its
 * file:line:col.  Returns NULL after reporting to d (the messages keep
 * their text; their loc.file is cleared, as the file names die with the
 * failed model). */
cat_model *cat_load(const char *name_or_path, const char *const *search, lc_diag *d);
/* The same with the model's options set: `settings` is NULL or a
 * NULL-terminated array of "NAME=VALUE" (litmus-check --set), each of
 * which must name an `option` of the model and one of its values. */
cat_model *cat_load_set(const char *name_or_path, const char *const *search,
                        const char *const *settings, lc_diag *d);
/* The same for settings that several models share (litmus-check's default
 * models): a setting this model has no option for is no error here; used
 * (one entry per setting) marks those it took. */
cat_model *cat_load_shared(const char *name_or_path, const char *const *search,
                           const char *const *settings, bool *used, lc_diag *d);
/* The same for a model held in memory (tests, embedded models): `name` is
 * the file name positions carry; includes are looked up beside it (its
 * directory part, else the current directory), then in `search`. */
cat_model *cat_load_string(const char *name, const char *text, const char *const *search,
                           lc_diag *d);
void cat_model_free(cat_model *m);

const char *cat_model_name(const cat_model *m);   /* from the file header, or its file name */
const char *cat_model_path(const cat_model *m);

/* Names of the model's checks and flags, in file order (borrowed). */
size_t cat_model_nchecks(const cat_model *m);
const char *cat_model_check_name(const cat_model *m, size_t i);
bool cat_model_check_is_flag(const cat_model *m, size_t i);
/* What the model assumes of co (docs/model-language.md, "Coherence"):
 * its `coherence total` or `coherence partial` statement, or nothing. */
typedef enum { CAT_CO_UNSAID, CAT_CO_TOTAL, CAT_CO_PARTIAL } cat_co_kind;
cat_co_kind cat_model_co(const cat_model *m);
/* Must the engine's co order every two writes to one location?  Yes,
 * unless the model says `coherence partial`; a model that says nothing
 * gets herd's and Dartagnan's total co, except on a PTX test, where
 * Dartagnan's co is partial (its Arch.coIsTotal) and so is ours. */
bool cat_model_co_total(const cat_model *m, bool ptx_test);
/* A flag from herd's `undefined_unless`: raised, it means undefined behaviour. */
bool cat_model_check_is_undef(const cat_model *m, size_t i);

/* May lowering leave out read events that only spin (a side-effect-free
 * loop's failed iterations, exec/lower_spin.c)?  True when the model's
 * checks are monotone and, when `flags` (its flags are evaluated), its
 * flags anti-monotone under deleting reads from an execution: an allowed
 * execution less such reads is then allowed, with the same final state,
 * and every flagged pair of events left is still flagged (cat_mono.c). */
bool cat_model_deletion_closed(const cat_model *m, bool flags);

/* Does the model redefine co or sc (the orders an engine chooses) as a
 * closure or a `let rec` (Dartagnan's `let co = co+`)?  The engine choice
 * weighs it (lc_check_program). */
bool cat_model_closes_order(const cat_model *m);

/* Does a check (not a flag) of the model read a `let rec` definition?
 * Z3 gets such a fixpoint as rounds of its body (cat_eval.c, rec_limit),
 * the explicit engine iterates it on bitsets; the engine choice weighs
 * it (cat_cost.c, lc_check_program). */
bool cat_model_checks_fixpoint(const cat_model *m);

/* herd's `with x from linearisations(S, r)`: the explicit engine tries
 * every total order of S that r allows, for each execution, so the engine
 * choice counts S's events (cat_cost.c).  cat_model_nlinear: how many the
 * model has; cat_model_linear_may: may an event belong to the i-th S?
 * has(ctx, NAME) says whether the event is in the builtin set NAME: 1,
 * 0, or -1 when unknown (then it may be). */
typedef int (*cat_set_member_fn)(void *ctx, const char *name);
size_t cat_model_nlinear(const cat_model *m);
bool cat_model_linear_may(const cat_model *m, size_t i, cat_set_member_fn has, void *ctx);

/* The model's named relations (definitions by `let` or `let rec` of a
 * relation), in file order, a name bound twice by its last definition:
 * all of them, or (direct_only) those a check's expression names itself.
 * Returns their number; *out (new) holds their value ids. */
size_t cat_model_relations(const cat_model *m, bool direct_only, size_t **out);
const char *cat_model_value_name(const cat_model *m, size_t v);
/* The value id of the named relation `name` (its last definition). */
bool cat_model_find_relation(const cat_model *m, const char *name, size_t *v);

/* Evaluates every definition the checks need and calls be->check for each
 * check in file order.  Definitions are evaluated lazily, at most once
 * each (a `let rec` group once as a whole), and released after their last
 * use.  Returns 0, or -1 after an error in d (a builtin the backend does
 * not provide, a builtin of the wrong type, an op that returned NULL). */
int cat_eval(const cat_model *m, const cat_backend *be, lc_diag *d);

/* Evaluates the values vals[0..n) (ids from cat_model_relations) into
 * out[i], new values the caller releases; be->check is not called.
 * Returns 0, or -1 after an error in d (out then holds nothing). */
int cat_eval_values(const cat_model *m, const cat_backend *be, const size_t *vals, size_t n, cat_value *out,
                    lc_diag *d);

/* Is `name` a builtin the model language knows, and of which type? */
bool cat_builtin_type(const char *name, cat_type *type);

#endif
