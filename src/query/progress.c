/* progress.c - the termination criterion under each progress model.
 * SPDX-License-Identifier: MIT
 *
 * The definitions follow the schedulers of the OOPSLA 2021 artifact
 * (AlloyForwardProgress, its CADP models, "strong" variants): a scheduler
 * names, in every state, the workgroups it guarantees to keep running, and
 * a test fails when some reachable state lets those alone never finish.
 * Here a workgroup is a CTA, and the threads of one CTA are scheduled
 * fairly among themselves.  docs/termination.md has the definitions and a
 * worked example.
 */
#include "progress.h"

#include "lc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[LC_NPROGRESS] = {
  [LC_PROGRESS_FAIR] = "fair", [LC_PROGRESS_OBE] = "obe", [LC_PROGRESS_LOBE] = "lobe",
  [LC_PROGRESS_HSA] = "hsa", [LC_PROGRESS_HSA_OBE] = "hsa-obe", [LC_PROGRESS_UNFAIR] = "unfair",
};

const char *lc_progress_name(lc_progress m) {
  return m < LC_NPROGRESS ? names[m] : "";
}

static unsigned parse_word(const char *w, size_t n) {
  if (n == 3 && !strncmp(w, "all", 3)) return (1u << LC_NPROGRESS) - 1;
  for (int m = 0; m < LC_NPROGRESS; m++)
    if (strlen(names[m]) == n && !strncmp(w, names[m], n)) return 1u << m;
  return 0;
}

unsigned lc_progress_parse(const char *s) {
  assert(s);
  unsigned set = 0;
  for (;;) {
    size_t n = strcspn(s, ",");
    unsigned one = parse_word(s, n);
    if (!one) return 0;
    set |= one;
    if (!s[n]) return set;
    s += n + 1;
  }
}

/* What the threads of one CTA add up to. */
typedef struct cta_sum {
  bool started;     /* one of its threads made an event */
  bool finished;    /* every thread ran to its end */
  bool still;       /* every thread finished or stuck */
  bool settled;     /* every thread finished, stuck or retrying with effects */
  bool stuck, effects;
} cta_sum;

static void sum_ctas(const lc_thread_run *th, size_t nthreads, cta_sum *c, size_t nctas) {
  for (size_t i = 0; i < nctas; i++) c[i] = (cta_sum){false, true, true, true, false, false};
  for (size_t t = 0; t < nthreads; t++) {
    cta_sum *s = &c[th[t].cta];
    lc_thread_state st = th[t].state;
    s->started |= th[t].ran;
    s->finished &= st == LC_TS_FINISHED;
    s->still &= st == LC_TS_FINISHED || st == LC_TS_STUCK;
    s->settled &= st == LC_TS_FINISHED || st == LC_TS_STUCK || st == LC_TS_EFFECTS;
    s->stuck |= st == LC_TS_STUCK;
    s->effects |= st == LC_TS_EFFECTS;
  }
}

/* The CTAs model m owes progress in this state; for unfair, none yet (the
 * caller picks one). */
static void owed(lc_progress m, const cta_sum *c, size_t nctas, bool *fair) {
  size_t lowest = nctas, highest_started = 0;
  bool any_started = false;
  for (size_t i = 0; i < nctas; i++) {
    if (!c[i].finished && lowest == nctas) lowest = i;
    if (c[i].started) highest_started = i, any_started = true;
  }
  for (size_t i = 0; i < nctas; i++) {
    switch (m) {
    case LC_PROGRESS_FAIR: fair[i] = true; break;
    case LC_PROGRESS_OBE: fair[i] = c[i].started; break;
    case LC_PROGRESS_LOBE: fair[i] = any_started && i <= highest_started; break;
    case LC_PROGRESS_HSA: fair[i] = i == lowest; break;
    case LC_PROGRESS_HSA_OBE: fair[i] = c[i].started || i == lowest; break;
    default: fair[i] = false; break;
    }
  }
}

static lc_run_kind judge_owed(const cta_sum *c, size_t nctas, const bool *fair) {
  bool still = true, settled = true, stuck = false, effects = false;
  for (size_t i = 0; i < nctas; i++) {
    if (!fair[i]) continue;
    still &= c[i].still;
    settled &= c[i].settled;
    stuck |= c[i].stuck;
    effects |= c[i].effects;
  }
  if (still && stuck) return LC_RUN_HANG;
  return settled && effects ? LC_RUN_EFFECTS : LC_RUN_NONE;
}

lc_run_kind lc_progress_judge(lc_progress m, const lc_thread_run *th, size_t nthreads, size_t nctas, bool *fair) {
  assert(th || nthreads == 0);
  cta_sum *c = lc_xcalloc(nctas, sizeof *c);
  bool *own = fair ? fair : lc_xcalloc(nctas, sizeof *own);
  sum_ctas(th, nthreads, c, nctas);
  lc_run_kind k = LC_RUN_NONE;
  if (m != LC_PROGRESS_UNFAIR) {
    owed(m, c, nctas, own);
    k = judge_owed(c, nctas, own);
  } else {
    /* unfair: a run that keeps one CTA going and stops the others where
     * they are; the first CTA that hangs alone, else the first that would
     * with effects */
    static const lc_run_kind wants[] = {LC_RUN_HANG, LC_RUN_EFFECTS};
    for (size_t w = 0; w < 2 && k == LC_RUN_NONE; w++)
      for (size_t i = 0; i < nctas && k == LC_RUN_NONE; i++) {
        memset(own, 0, nctas * sizeof *own);
        own[i] = true;
        if (judge_owed(c, nctas, own) == wants[w]) k = wants[w];
      }
  }
  free(c);
  if (!fair) free(own);
  return k;
}
