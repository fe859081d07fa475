/* progress.h - GPU progress models: who a scheduler must keep running
 * (docs/termination.md, after Sorensen et al., OOPSLA 2021).
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_PROGRESS_H
#define LC_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  LC_PROGRESS_FAIR,      /* every CTA is scheduled fairly (the default) */
  LC_PROGRESS_OBE,       /* occupancy-bound: a CTA that has started is; others may never start */
  LC_PROGRESS_LOBE,      /* linear OBE: a CTA that has started, and every lower one */
  LC_PROGRESS_HSA,       /* only the lowest CTA not finished; others may stop anywhere */
  LC_PROGRESS_HSA_OBE,   /* the started CTAs and the lowest CTA not finished */
  LC_PROGRESS_UNFAIR,    /* none: a run may keep any one CTA going and stop the rest anywhere */
  LC_NPROGRESS
} lc_progress;

/* "fair", "obe", "lobe", "hsa", "hsa-obe", "unfair". */
const char *lc_progress_name(lc_progress m);
/* A comma-separated list of names, or "all", as a set of (1u << model).
 * Returns 0 for a word that names no model. */
unsigned lc_progress_parse(const char *s);

/* What one thread does in a final state of the termination question. */
typedef enum {
  LC_TS_FINISHED,   /* ran to its end */
  LC_TS_STUCK,      /* spins on what memory settles on, or waits at a barrier never released */
  LC_TS_EFFECTS,    /* retries a loop whose last iteration changed memory */
  LC_TS_PROGRESS,   /* cut by the bound in an iteration that changed something */
  LC_TS_PAUSED      /* stopped by the scheduler (a path lowered with pauses) */
} lc_thread_state;

typedef struct lc_thread_run {
  lc_thread_state state;
  bool ran;         /* made one event at least */
  int cta;          /* its CTA's rank: 0 for the lowest (gpu, cta) of the test */
} lc_thread_run;

typedef enum {
  LC_RUN_NONE,      /* no hang under the model: some CTA it must run would go on */
  LC_RUN_HANG,      /* an allowed run that never ends */
  LC_RUN_EFFECTS    /* would be one if the side-effectful spinning never ended: no claim */
} lc_run_kind;

/* The criterion, one for every model: in the final state whose threads are
 * `th`, the model owes progress to a set of CTAs (the "fair" ones); the
 * state is a hang when every thread of those is finished or stuck, one at
 * least stuck, and every other CTA is where the model lets it stop (never
 * started, under OBE, LOBE and HSA-OBE; anywhere, under HSA and unfair).
 * When fair is not NULL it receives, per CTA rank, whether the model owes
 * that CTA progress in this state (for the witness).  nctas is the number
 * of ranks. */
lc_run_kind lc_progress_judge(lc_progress m, const lc_thread_run *th, size_t nthreads, size_t nctas, bool *fair);

#endif
