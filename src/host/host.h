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
 * proxy accesses and no virtual aliases.  Returns 0, or LC_EXIT_INPUT after
 * reporting the first instruction it cannot run to d. */
int host_check(const lx_program *p, lc_diag *d);

/* Runs p on CPU threads and fills out (which the caller has initialised
 * with run_result_init).  `allowed` (may be NULL) lets the run record the
 * first par->max_forbidden instances whose outcome the model forbids.
 * Returns an exit status like cu_run: 0; LC_EXIT_INPUT when the test
 * cannot run on the host (message in d); LC_EXIT_INTERNAL when threads or
 * memory could not be had. */
int host_run(const lx_program *p, const run_params *par, const lc_result *allowed, run_result *out,
             lc_diag *d);

#endif
