/* run-status.c - litmus-run's exit statuses (run-status.h).
 * SPDX-License-Identifier: MIT
 */
#include "cli/run-status.h"

#include "lc.h"

int cli_run_exit(run_status s) {
  switch (s) {
  case RUN_OK: return LC_EXIT_OK;
  case RUN_CANNOT: return LC_EXIT_INPUT;
  case RUN_FAILED: break;
  }
  return LC_EXIT_INTERNAL;
}

int cli_sass_exit(cu_sass_status s) {
  switch (s) {
  case CU_SASS_FOUND: return LC_EXIT_OK;
  case CU_SASS_LOST: return LC_EXIT_MISMATCH;
  case CU_SASS_BAD_FILE: return LC_EXIT_INPUT;
  case CU_SASS_NO_TOOLS: break;
  }
  return 77;
}
