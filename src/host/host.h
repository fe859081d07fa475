/* host.h - a litmus test on CPU threads: the host backend of litmus-run.
 * SPDX-License-Identifier: MIT
 *
 * Each litmus thread runs on a pthread of its own and plays its role in
 * many instances of the test per batch; its instructions become C11 atomic
 * operations with the orders their .sem asks for (litmus-run.1, "HOST
 * BACKEND").  Placement and scopes do not matter on a CPU: every thread
 * shares one coherent memory, so every scope is the system.
 */
#ifndef HOST_H
#define HOST_H

#include "exec/exec.h"
#include "result.h"
#include "run/run.h"

/* Checks that the host backend can run p: no texture, surface or constant
 * proxy accesses and no virtual aliases.  Returns 0, or -1 after reporting
 * the first instruction it cannot run to d. */
int host_check(const lx_program *p, lc_diag *d);

/* Runs p on CPU threads and fills out (which the caller has initialised
 * with run_result_init).  `allowed` (may be NULL) lets the run record the
 * first par->max_forbidden instances whose outcome the model forbids.
 * Returns RUN_OK; RUN_CANNOT when the test cannot run on the host;
 * RUN_FAILED when threads or memory could not be had (the message in d
 * either way). */
run_status host_run(const lx_program *p, const run_params *par, const lc_result *allowed, run_result *out,
                    lc_diag *d);

#endif
