/* run_local_stub.c - a minimal run layer so the CUDA backend builds and is
 * tested before the shared one (src/run/run.c) is merged.  Drop this file
 * from RUN_SOURCES when run.c lands; the contract is run.h.
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"

void run_params_init(run_params *p) {
  memset(p, 0, sizeof *p);
  p->seed = 1;
  p->barrier = true;
  p->shuffle = true;
  p->testing_pct = 0;       /* backend default: 100, or 50 with mem_stress */
  p->stride = 1;
  p->stress_lines = 64;
  p->stress_iterations = 128;
  p->max_forbidden = 16;
}

void run_result_init(run_result *r, const lx_program *p, const char *backend) {
  memset(r, 0, sizeof *r);
  r->prog = p;
  r->backend = backend;
  r->nshown = p ? p->nshown : 0;
}

void run_result_fini(run_result *r) {
  for (size_t i = 0; i < r->nbins; i++) free(r->bins[i].values);
  free(r->bins);
  for (size_t i = 0; i < r->nsamples; i++) {
    free(r->samples[i].values);
    free(r->samples[i].ctas);
    free(r->samples[i].threads);
  }
  free(r->samples);
  free(r->device_name);
  free(r->driver_version);
  free(r->compiler_version);
  for (size_t i = 0; i < r->notes.n; i++) free(r->notes.v[i]);
  lc_vec_free(&r->notes);
  memset(r, 0, sizeof *r);
}

void run_result_add(run_result *r, const lx_val *values, uint64_t count) {
  for (size_t i = 0; i < r->nbins; i++)
    if (memcmp(r->bins[i].values, values, r->nshown * sizeof *values) == 0) {
      r->bins[i].count += count;
      return;
    }
  r->bins = lc_xrealloc(r->bins, (r->nbins + 1) * sizeof *r->bins);
  run_bin *b = &r->bins[r->nbins++];
  memset(b, 0, sizeof *b);
  b->values = lc_xcalloc(r->nshown ? r->nshown : 1, sizeof *values);
  memcpy(b->values, values, r->nshown * sizeof *values);
  b->count = count;
}

void run_result_note(run_result *r, const char *fmt, ...) {
  lc_buf b;
  va_list ap;
  lc_buf_init(&b);
  va_start(ap, fmt);
  lc_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  lc_vec_push(&r->notes, lc_buf_take(&b));
  lc_buf_fini(&b);
}

static int cmp_values(const lx_val *x, const lx_val *y, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

int run_result_finish(run_result *r, lc_diag *d) {
  for (size_t i = 1; i < r->nbins; i++)
    for (size_t j = i; j > 0 && cmp_values(r->bins[j - 1].values, r->bins[j].values, r->nshown) > 0; j--) {
      run_bin t = r->bins[j];
      r->bins[j] = r->bins[j - 1];
      r->bins[j - 1] = t;
    }
  uint64_t sum = 0;
  for (size_t i = 0; i < r->nbins; i++) sum += r->bins[i].count;
  if (sum != r->instances) {
    lc_error(d, (lc_loc){0}, "histogram bins add up to %llu, not to the %llu instances run",
             (unsigned long long)sum, (unsigned long long)r->instances);
    return -1;
  }
  return 0;
}

size_t run_compare(run_result *r, const lc_result *allowed) {
  size_t forbidden = 0;
  for (size_t i = 0; i < r->nbins; i++) {
    run_bin *b = &r->bins[i];
    b->allowed = false;
    for (size_t s = 0; s < allowed->nstates && !b->allowed; s++)
      b->allowed = memcmp(lc_result_state(allowed, s), b->values, r->nshown * sizeof *b->values) == 0;
    b->positive = lx_prop_eval(r->prog, r->prog->test->cond, b->values);
    if (!b->allowed) forbidden++;
  }
  return forbidden;
}
