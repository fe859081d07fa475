/* report.h - results as herd-style text blocks and as JSON.
 * SPDX-License-Identifier: MIT
 */
#ifndef REPORT_H
#define REPORT_H

#include <jansson.h>

#include "result.h"

/* The herd-style block for one test (herd7's output, with our extra lines):
 *   Test NAME Allowed|Forbidden|Required
 *   States N
 *   P1:r0=0; P1:r2=0;        one line per allowed state
 *   Ok|No
 *   Witnesses
 *   Positive: p Negative: n
 *   Flag NAME: ...           one line per raised flag (data races)
 *   Condition exists (...)
 *   Observation NAME Never|Sometimes|Always p n
 *   Time NAME 0.01
 * Positive and negative count states, not executions (herd counts
 * executions; an SMT engine does not enumerate them). */
void report_text(lc_buf *out, const lc_result *r);
/* The same in herd7's format (litmus-check --format herd), which herd's
 * mcompare7 and msum7 read: `1:r2=0; [x]=1;` states, `Flag NAME` lines,
 * the condition with `=`; no Hash line. */
void report_herd(lc_buf *out, const lc_result *r);

/* The same and more: observables, per-state verdicts, flags with their
 * events, the unroll bound, timings.  The caller owns the object. */
json_t *report_json(const lc_result *r);
/* A value in JSON: a number, or "&x" for the address of x. */
json_t *report_value_json(const lx_program *p, lx_val v);
/* The value v of observable k as JSON: a float as a number. */
json_t *report_obs_json(const lx_program *p, size_t k, lx_val v);

/* "Allowed" (exists), "Forbidden" (~exists), "Required" (forall). */
const char *report_kind(lt_quant q);
/* "exists", "~exists" or "forall". */
const char *report_quant(lt_quant q);
/* "Condition exists (P)" as herd and litmus7 print it, without a newline. */
void report_condition(lc_buf *out, const lt_test *t);
/* "Never", "Sometimes", "Always". */
const char *report_observation(const lc_verdict *v);
/* `P0 line 9: st.weak x, 1` for an event, for messages and flags. */
void report_event(lc_buf *out, const lx_program *p, int ev);

/* A C++ test's event in C++ words: `P1 line 9: block-scope relaxed load of
 * flag`, `P0 line 5: non-atomic write to x` (report_cpp.c). */
void report_cpp_event(lc_buf *out, const lx_program *p, int ev);
/* The C++ text an event of a C++ test comes from (the atomic operation,
 * the non-atomic read or write, __syncthreads()); false when there is
 * none to print (not a C++ test). */
bool report_cpp_instr(lc_buf *out, const lx_program *p, int ev);
/* Why two events of a C++ test race, after the pair: ` (block-scope store
 * in CTA 0, read from CTA 1)`, ` (one non-atomic, not ordered by
 * happens-before)`. */
void report_cpp_race_reason(lc_buf *out, const lx_program *p, int a, int b);

#endif
