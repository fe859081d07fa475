/* run.h - running a litmus test on hardware: parameters, the histogram of
 * observed outcomes, and its comparison with what the model allows.
 * SPDX-License-Identifier: MIT
 *
 * A backend (CUDA in src/cuda/, host threads in src/host/) runs many
 * instances of one lowered test and fills a run_result: one bin per
 * distinct outcome, where an outcome is the tuple of the test's shown
 * observables (lx_program.obs[0 .. nshown-1], the same order as the
 * states of an lc_result).  run_compare then marks each bin allowed or
 * forbidden by the model's states, and the reports print litmus7-style.
 */
#ifndef RUN_H
#define RUN_H

#include <stdint.h>

#include "exec/exec.h"
#include "result.h"

typedef struct run_params {
  uint64_t seed;             /* drives every random choice; printed with the results */
  uint64_t iterations;       /* launches (cuda) or batches (host); 0 = backend default */
  double seconds;            /* time budget; stops at whichever of the two comes first; 0 = none */
  uint32_t instances;        /* test instances per launch/batch; 0 = backend default */
  int device;                /* CUDA device ordinal */

  /* stress (GPU litmus testing's parallel test environment) */
  bool mem_stress;           /* non-testing threads hammer a scratchpad during the test */
  bool pre_stress;           /* testing threads hammer the scratchpad before the test */
  unsigned stress_pattern;   /* 0: st,st  1: st,ld  2: ld,st  3: ld,ld */
  unsigned stress_lines;     /* scratchpad lines the stress targets */
  unsigned stress_iterations;/* accesses per stressing thread */
  bool barrier;              /* a bounded spin barrier right before the test code */
  bool shuffle;              /* shuffle CTA ids so roles land on different SMs each launch */
  unsigned testing_pct;      /* percentage of CTAs that run tests (the others stress) */
  unsigned stride;           /* words between the locations of consecutive instances */
  unsigned threads_per_cta;  /* 0 = backend default */
  unsigned max_forbidden;    /* record the first K instances with a forbidden outcome */
  bool progress;             /* progress on stderr (only when it is a terminal) */
} run_params;

void run_params_init(run_params *p);   /* the defaults documented in litmus-run.1 */

typedef struct run_bin {
  lx_val *values;            /* nshown values */
  uint64_t count;
  bool allowed;              /* the model allows this outcome (set by run_compare) */
  bool positive;             /* the outcome satisfies the test's condition */
} run_bin;

/* One instance whose outcome the model forbids, as the device saw it. */
typedef struct run_sample {
  uint64_t iteration, instance;
  lx_val *values;            /* nshown values */
  int *ctas, *threads;       /* per litmus thread: the CTA and thread index that ran its role */
} run_sample;

typedef struct run_result {
  const lx_program *prog;    /* borrowed */
  const char *backend;       /* "cuda", "host" */
  size_t nshown;
  run_bin *bins;
  size_t nbins;
  uint64_t instances;        /* instances run: the bins must add up to this */
  uint64_t iterations;
  double seconds;            /* time spent running instances (compilation excluded) */
  run_sample *samples;
  size_t nsamples;
  run_params params;         /* as actually used (defaults filled in) */
  /* the machine */
  char *device_name;
  int sm_major, sm_minor;
  char *driver_version, *compiler_version;
  LC_VEC(char *) notes;      /* e.g. a placement run narrower than written */
} run_result;

void run_result_init(run_result *r, const lx_program *p, const char *backend);
void run_result_fini(run_result *r);
/* Adds `count` to the bin of an outcome (creating it). */
void run_result_add(run_result *r, const lx_val *values, uint64_t count);
void run_result_note(run_result *r, const char *fmt, ...) LC_PRINTF(2, 3);
/* Sorts bins like lc_result states; checks that they add up to instances
 * (returns -1 with a message in d when they do not). */
int run_result_finish(run_result *r, lc_diag *d);

/* Marks every bin allowed or not against the model's states.  Returns the
 * number of forbidden outcomes observed. */
size_t run_compare(run_result *r, const lc_result *allowed);

#endif
