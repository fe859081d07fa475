/* run_report.h - a run's histogram as litmus7-style text and as JSON, and
 * the atomic results file.
 * SPDX-License-Identifier: MIT
 *
 * The text block (litmus-run.1, "OUTPUT"):
 *   Test NAME Allowed|Forbidden|Required
 *   !!! NAME: the CPU|GPU showed K outcomes that MODEL forbids (N instances)
 *   !!! sample ...              the two lines above only when it did
 *   !!! NAME: the CPU|GPU hung in N instances, but MODEL says ...   (run_term.h)
 *   Histogram (S states)
 *   COUNT  F*>P0:r0=1; ...      one line per observed outcome; * the outcome
 *                               satisfies the condition, : it does not; F is
 *                               ! when the model forbids it, ? when it was
 *                               seen only beyond the unroll bound, else blank
 *   Ok|No
 *   Witnesses
 *   Positive: p, Negative: n    instances
 *   Condition exists (...) is validated|is NOT validated
 *   Observation NAME Never|Sometimes|Always p n
 *   Model NAME MODEL: A allowed, O observed, K forbidden observed
 *   Never observed NAME U       then one indented line per allowed state
 *   ...                         Unexplored, Hung, Cut, Halted, Termination,
 *                               Filtered, Note lines
 *   Machine NAME BACKEND: device (driver, compiler)
 *   Instances NAME N in S s (R per second), I iterations
 *   Seed NAME 0x...
 *   Time NAME S
 * With the same seed only the counts (so the outcomes seen), Instances and
 * Time change from run to run: the hardware's timing does.
 */
#ifndef RUN_REPORT_H
#define RUN_REPORT_H

#include <jansson.h>

#include "run/run.h"

/* Expects run_result_finish and run_compare to have been called. */
void run_report_text(lc_buf *out, const run_result *r);
/* Everything in the text and the parameters; the caller owns the object. */
json_t *run_report_json(const run_result *r);

#endif
