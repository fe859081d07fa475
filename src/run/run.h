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

#include <stdatomic.h>
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
  unsigned stress_iterations;/* rounds per stressing thread at most (they stop once the tests are done) */
  unsigned pre_stress_pattern, pre_stress_lines, pre_stress_iterations;   /* the same for pre-stress */
  unsigned loc_offset;       /* words between the locations of one instance; 0: each location apart */
  bool barrier;              /* a bounded spin barrier right before the test code */
  bool shuffle;              /* shuffle CTA ids so roles land on different SMs each launch */
  unsigned testing_pct;      /* percentage of CTAs that run tests (the others stress) */
  unsigned stride;           /* words between the locations of consecutive instances */
  unsigned threads_per_cta;  /* 0 = backend default */
  unsigned max_forbidden;    /* record the first K instances with a forbidden outcome */
  bool progress;             /* progress on stderr (only when it is a terminal) */
  unsigned spin_limit;       /* backward jumps one thread may take in one instance, and
                                rounds it may wait at a CTA barrier, before the instance
                                is cut (counted in run_result.incomplete); 0 = backend
                                default (host 1000000, cuda 65536) */
  double watchdog;           /* seconds an instance may spin or wait before it is cut;
                                a host run stops early once cut instances have spun for
                                RUN_WATCHDOG_BUDGET watchdogs; on the GPU a deadline per
                                testing thread */
  bool pin;                  /* host: pin each litmus thread to a CPU of its own */
  const atomic_bool *stop;   /* borrowed, may be NULL: set (e.g. by a SIGINT handler
                                thread) to end the run after the current batch */
} run_params;

void run_params_init(run_params *p);   /* the defaults documented in litmus-run.1 */

/* Default watchdog (seconds), and how many watchdogs' worth of spinning
 * in cut instances a host run allows before it stops early: a test whose
 * loops can spin forever must end in bounded time. */
#define RUN_DEFAULT_WATCHDOG 1.0
#define RUN_WATCHDOG_BUDGET 3.0

/* How a backend's run ended (cu_run, host_run), the message in its
 * lc_diag.  The program chooses its exit status from it; the lower, the
 * worse, so the worst of many runs is the least. */
typedef enum run_status {
  RUN_OK = 0,
  RUN_CANNOT = -1,           /* the test cannot run here: no GPU, driver or NVRTC, a device
                                without what the test or the parameters need, an instruction
                                the backend cannot run */
  RUN_FAILED = -2            /* the device, the compiler, threads or memory failed */
} run_status;

typedef struct run_bin {
  lx_val *values;            /* nshown values */
  uint64_t count;
  uint64_t unexplored;       /* of count: instances in which some thread took a backward
                                jump more often than the model's unroll bound */
  bool allowed;              /* the model allows this outcome (set by run_compare) */
  bool positive;             /* the outcome satisfies the test's condition (set by
                                run_result_finish) */
  char *why;                 /* a forbidden outcome: why the model forbids it, one
                                line (set by the caller, freed with the result) */
} run_bin;

/* How a bin compares with the model (after run_compare). */
typedef enum {
  RUN_BIN_ALLOWED,
  RUN_BIN_FORBIDDEN,         /* not allowed, and seen in an instance the model explored */
  RUN_BIN_UNEXPLORED         /* not allowed, but only seen beyond the unroll bound */
} run_bin_status;

run_bin_status run_bin_classify(const run_bin *b);

/* One instance whose outcome the model forbids, as the device saw it. */
typedef struct run_sample {
  uint64_t iteration, instance;
  lx_val *values;            /* nshown values */
  int *ctas, *threads;       /* per litmus thread: the CTA and thread index that ran its role;
                                NULL where a backend has none (host) */
  int *cpus;                 /* per litmus thread: the CPU its host thread ran on; NULL (cuda) */
  int *sms;                  /* per litmus thread: the SM its CTA ran on; NULL (host) */
} run_sample;

typedef struct run_result {
  const lx_program *prog;    /* borrowed */
  const char *backend;       /* "cuda", "host" */
  size_t nshown;
  run_bin *bins;
  size_t nbins;
  uint64_t instances;        /* instances run: bins + incomplete + filtered add up to this */
  uint64_t incomplete;       /* instances that did not end: hung + cut; in no bin */
  uint64_t hung;             /* of incomplete: instances that provably could never end (a
                                deadlock at a barrier, loops spinning in vain; host only) */
  uint64_t watchdog_cuts;    /* threads the watchdog stopped (host) */
  bool halted;               /* the watchdog ended the run early */
  int termination;           /* the model's lc_term_verdict (term.h), set by the caller;
                                LC_TERM_NOT_ASKED (0) when the test cannot block */
  char *termination_witness; /* the model's possible hang, owned; or NULL */
  uint64_t filtered;         /* rejected by the test's filter; in no bin */
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
  /* set by run_compare */
  const lc_result *model;    /* borrowed: the allowed states compared with */
  size_t nforbidden;         /* bins with status RUN_BIN_FORBIDDEN */
  /* private to run.c: open-addressing index of bins by outcome */
  size_t *index_;
  size_t index_cap_;
} run_result;

void run_result_init(run_result *r, const lx_program *p, const char *backend);
void run_result_fini(run_result *r);
/* Adds `count` to the bin of an outcome (creating it); returns the bin's
 * index, stable until run_result_finish sorts the bins. */
size_t run_result_add(run_result *r, const lx_val *values, uint64_t count);
/* The same for instances beyond the model's unroll bound (run_bin.unexplored). */
size_t run_result_add_unexplored(run_result *r, const lx_val *values, uint64_t count);
/* Records a sample (copies the arrays; ctas, threads, cpus may be NULL). */
void run_result_add_sample(run_result *r, uint64_t iteration, uint64_t instance, const lx_val *values,
                           const int *ctas, const int *threads, const int *cpus);
void run_result_note(run_result *r, const char *fmt, ...) LC_PRINTF(2, 3);
/* Sorts bins like lc_result states and sets their positive flags; checks
 * that bins, incomplete and filtered add up to instances (returns -1 with a
 * message in d when they do not). */
int run_result_finish(run_result *r, lc_diag *d);

/* Marks every bin allowed or not against the model's states.  Returns the
 * number of forbidden outcomes observed (bins, not instances). */
size_t run_compare(run_result *r, const lc_result *allowed);

/* Instances that hung although the model says the test always terminates
 * and allows some run of it (after run_compare): a finding like a
 * forbidden outcome (0 when the model was not asked). */
uint64_t run_unexpected_hangs(const run_result *r);

/* Is `values` (nshown of them) one of the model's states?  Binary search
 * over the sorted states. */
bool run_state_allowed(const lc_result *allowed, const lx_val *values);

#endif
