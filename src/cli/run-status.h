/* run-status.h - litmus-run's exit status for how a backend's run or the
 * SASS check ended: the library says what happened (run_status,
 * cu_sass_status), the program what that means to its caller
 * (man/litmus-run.1, EXIT STATUS).
 * SPDX-License-Identifier: MIT
 */
#ifndef RUN_STATUS_H
#define RUN_STATUS_H

#include "cuda/cu_sass.h"
#include "run/run.h"

/* 0; LC_EXIT_INPUT when the test cannot run here; LC_EXIT_INTERNAL when
 * the backend failed. */
int cli_run_exit(run_status s);

/* 0 when every access is found; LC_EXIT_MISMATCH when one is lost;
 * LC_EXIT_INPUT when a file does not load; 77 (a skipped test, as
 * automake counts it) when NVRTC or cuobjdump is missing. */
int cli_sass_exit(cu_sass_status s);

#endif
