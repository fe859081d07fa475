/* check.h - one test through lowering and an engine: what litmus-check,
 * litmus-run and the generators share.
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_CHECK_H
#define LC_CHECK_H

#include "cat/cat.h"
#include "exec/exec.h"
#include "litmus/ast.h"
#include "result.h"

typedef enum { LC_ENGINE_SMT, LC_ENGINE_ENUM, LC_ENGINE_AUTO } lc_engine;

typedef struct lc_check_options {
  lc_engine engine;
  double timeout;          /* seconds per test, 0 = none */
  unsigned unroll;         /* 0 = LX_DEFAULT_UNROLL */
  bool races;              /* evaluate the model's flags */
  unsigned threads;        /* threads to split one test's states among (0, 1: one) */
  bool termination;        /* also answer "can this hang?" (term.c) */
  bool cut_loops;          /* name the loops allowed executions need more iterations of
                              (lc_result.cut_reached; default true); false: whether any does */
  unsigned progress;       /* under these progress models (1u << lc_progress, progress.h);
                              0: fair only */
  /* lc_check_test calls it once lowering is done, before the engine runs
   * (NULL: none); litmus-check's isolated runs learn the engine there */
  void (*lowered)(void *ctx, const lx_program *p);
  void *lowered_ctx;
  size_t max_memory;       /* --max-memory, bytes (0: none): lowering refuses a program whose
                              static relations alone would take more */
  bool no_spin_reduce;     /* keep every retry of a spin loop up to the bound
                              (lx_options.spin_reduce; tests compare both) */
} lc_check_options;

void lc_check_options_init(lc_check_options *o);

/* The directories a model name is looked up in, in order: $LITMUS_MODELS,
 * the models/ folder of an in-tree build (beside the program's src/), the
 * installed models folder.  `argv0` is the program's argv[0].  Returns a
 * NULL-terminated array; free with lc_model_search_free. */
char **lc_model_search(const char *argv0);
void lc_model_search_free(char **dirs);

/* Lowers t and runs the engine.  Returns NULL only when lowering fails
 * (the error is in d); engine failures are in the result's status.  The
 * program is returned through *prog (the result borrows it). */
lc_result *lc_check_test(const lt_test *t, const cat_model *m, const lc_check_options *o,
                         lx_program **prog, lc_diag *d);

/* lc_check_test in two steps, for a caller that lowers in one process and
 * runs the engine in another (src/run/run_model.c): lowering (spin_reduce:
 * lc_spin_reduce of every model the program will be checked under) with the
 * deadline o->timeout after `start`, then the engine and the termination
 * question with what is left of it.  seconds_lower is the caller's. */
/* Whether lowering may leave out spin loops' read-only retries for model
 * m under options o (lx_options.spin_reduce). */
bool lc_spin_reduce(const cat_model *m, const lc_check_options *o);
lx_program *lc_lower_test(const lt_test *t, const lc_check_options *o, bool spin_reduce, double start, lc_diag *d);
lc_result *lc_check_lowered(const lt_test *t, const lx_program *p, const cat_model *m, const lc_check_options *o,
                            double start, lc_diag *d);

/* Runs the engine o asks for (auto: the one measure() favours) on a
 * lowered program, with what is left of o->timeout since `start`. */
lc_result *lc_check_program(const lx_program *p, const cat_model *m, const lc_check_options *o, double start);
/* The same, each new state shown to hook (result.h) as it is found. */
lc_result *lc_check_program_hooked(const lx_program *p, const cat_model *m, const lc_check_options *o,
                                   double start, const lc_state_hook *hook);

const char *lc_engine_name(lc_engine e);
/* The engine --engine auto picks for p. */
lc_engine lc_engine_choose(const lx_program *p);
/* The same with the model's cost counted too (lc_check_program's choice):
 * an order it redefines as a closure, the orders of its linearisations. */
lc_engine lc_engine_choose_for(const lx_program *p, const cat_model *m);
/* Rough sizes of each engine's work, as log2: the explicit engine's
 * search space before pruning (every combination of paths, each read's
 * possible sources, each location's coherence orders) and the SMT
 * encoding (cubic in the events of every path, which it holds at once).
 * auto once chose by them; scripts/calibrate-auto still prints them
 * beside each engine's time, to tell when that could pay again. */
void lc_engine_costs(const lx_program *p, double *enum_log2, double *smt_log2);
int lc_engine_parse(const char *s, lc_engine *e);

#endif
