/* run.c - run parameters, the histogram of observed outcomes, and its
 * comparison with the model's allowed states.
 * SPDX-License-Identifier: MIT
 *
 * Bins are found through an open-addressing index keyed by the outcome
 * tuple: a backend adds one outcome per instance, millions per second,
 * while a test has a handful of distinct outcomes (at most a few thousand).
 * The index holds bin numbers + 1 (0 = empty slot) and is kept at most half
 * full.
 */
#include "run/run.h"

#include "term.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void run_params_init(run_params *p) {
  assert(p);
  memset(p, 0, sizeof *p);
  p->mem_stress = true;
  p->pre_stress = true;
  p->stress_pattern = 0;
  p->stress_lines = 64;
  p->stress_iterations = 65536;
  p->pre_stress_lines = 64;
  p->pre_stress_iterations = 256;
  p->barrier = true;
  p->shuffle = true;
  p->testing_pct = 50;
  p->stride = 16;
  p->max_forbidden = 8;
  p->spin_limit = 0;
  p->watchdog = RUN_DEFAULT_WATCHDOG;
  p->pin = true;
}

/* ---- bins ------------------------------------------------------------------------- */

void run_result_init(run_result *r, const lx_program *p, const char *backend) {
  assert(r && p);
  memset(r, 0, sizeof *r);
  r->prog = p;
  r->backend = backend;
  r->nshown = p->nshown;
  run_params_init(&r->params);
}

static void free_sample(run_sample *s) {
  free(s->values);
  free(s->ctas);
  free(s->threads);
  free(s->cpus);
  free(s->sms);
}

void run_result_fini(run_result *r) {
  for (size_t i = 0; i < r->nbins; i++) free(r->bins[i].values), free(r->bins[i].why);
  free(r->bins);
  for (size_t i = 0; i < r->nsamples; i++) free_sample(&r->samples[i]);
  free(r->samples);
  free(r->device_name);
  free(r->driver_version);
  free(r->compiler_version);
  free(r->termination_witness);
  for (size_t i = 0; i < r->notes.n; i++) free(r->notes.v[i]);
  lc_vec_free(&r->notes);
  free(r->index_);
  memset(r, 0, sizeof *r);
}

/* FNV-1a over the values' bytes, finished with a multiply so that small
 * integers spread over the whole index. */
static size_t hash_values(const lx_val *v, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) {
    h ^= (uint64_t)v[i];
    h *= 0x100000001b3ULL;
    h ^= h >> 29;
  }
  return (size_t)(h * 0x9e3779b97f4a7c15ULL >> 7);
}

static bool same_values(const lx_val *a, const lx_val *b, size_t n) {
  return n == 0 || memcmp(a, b, n * sizeof(lx_val)) == 0;
}

static void index_rebuild(run_result *r, size_t cap) {
  free(r->index_);
  r->index_ = lc_xcalloc(cap, sizeof(size_t));
  r->index_cap_ = cap;
  for (size_t b = 0; b < r->nbins; b++) {
    size_t h = hash_values(r->bins[b].values, r->nshown) & (cap - 1);
    while (r->index_[h]) h = (h + 1) & (cap - 1);
    r->index_[h] = b + 1;
  }
}

static size_t new_bin(run_result *r, const lx_val *values) {
  if ((r->nbins + 1) * 2 > r->index_cap_) index_rebuild(r, r->index_cap_ ? r->index_cap_ * 2 : 64);
  r->bins = lc_xrealloc(r->bins, (r->nbins + 1) * sizeof(run_bin));
  run_bin *b = &r->bins[r->nbins];
  memset(b, 0, sizeof *b);
  b->values = lc_xmalloc((r->nshown ? r->nshown : 1) * sizeof(lx_val));
  if (r->nshown) memcpy(b->values, values, r->nshown * sizeof(lx_val));
  size_t h = hash_values(values, r->nshown) & (r->index_cap_ - 1);
  while (r->index_[h]) h = (h + 1) & (r->index_cap_ - 1);
  r->index_[h] = ++r->nbins;
  return r->nbins - 1;
}

static size_t find_bin(run_result *r, const lx_val *values) {
  if (r->index_cap_) {
    size_t h = hash_values(values, r->nshown) & (r->index_cap_ - 1);
    for (; r->index_[h]; h = (h + 1) & (r->index_cap_ - 1))
      if (same_values(r->bins[r->index_[h] - 1].values, values, r->nshown)) return r->index_[h] - 1;
  }
  return new_bin(r, values);
}

size_t run_result_add(run_result *r, const lx_val *values, uint64_t count) {
  assert(r && (values || r->nshown == 0));
  size_t b = find_bin(r, values);
  r->bins[b].count += count;
  return b;
}

size_t run_result_add_unexplored(run_result *r, const lx_val *values, uint64_t count) {
  assert(r && (values || r->nshown == 0));
  size_t b = find_bin(r, values);
  r->bins[b].count += count;
  r->bins[b].unexplored += count;
  return b;
}

static int *copy_ints(const int *v, size_t n) {
  if (!v) return NULL;
  int *c = lc_xmalloc(n * sizeof(int));
  if (n) memcpy(c, v, n * sizeof(int));
  return c;
}

void run_result_add_sample(run_result *r, uint64_t iteration, uint64_t instance, const lx_val *values,
                           const int *ctas, const int *threads, const int *cpus) {
  assert(r && r->prog && (values || r->nshown == 0));
  size_t nt = r->prog->nthreads;
  r->samples = lc_xrealloc(r->samples, (r->nsamples + 1) * sizeof(run_sample));
  run_sample *s = &r->samples[r->nsamples++];
  s->iteration = iteration;
  s->instance = instance;
  s->values = lc_xmalloc((r->nshown ? r->nshown : 1) * sizeof(lx_val));
  if (r->nshown) memcpy(s->values, values, r->nshown * sizeof(lx_val));
  s->ctas = copy_ints(ctas, nt);
  s->threads = copy_ints(threads, nt);
  s->cpus = copy_ints(cpus, nt);
  s->sms = NULL;
}

void run_result_note(run_result *r, const char *fmt, ...) {
  assert(r && fmt);
  lc_buf b;
  lc_buf_init(&b);
  va_list ap;
  va_start(ap, fmt);
  lc_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  lc_vec_push(&r->notes, lc_buf_take(&b));
  lc_buf_fini(&b);
}

/* ---- finishing and comparing --------------------------------------------------------- */

static int compare_values(const lx_val *a, const lx_val *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* Insertion sort, like lc_result_sort: bins are few and qsort cannot be
 * told the tuple width without global state. */
static void sort_bins(run_result *r) {
  for (size_t i = 1; i < r->nbins; i++) {
    run_bin x = r->bins[i];
    size_t j = i;
    for (; j > 0 && compare_values(r->bins[j - 1].values, x.values, r->nshown) > 0; j--)
      r->bins[j] = r->bins[j - 1];
    r->bins[j] = x;
  }
}

static bool outcome_positive(const lx_program *p, const lx_val *values, lx_val *scratch) {
  memset(scratch, 0, (p->nobs ? p->nobs : 1) * sizeof(lx_val));
  if (p->nshown) memcpy(scratch, values, p->nshown * sizeof(lx_val));
  return lx_prop_eval(p, p->test->cond, scratch);
}

int run_result_finish(run_result *r, lc_diag *d) {
  assert(r && r->prog && d);
  sort_bins(r);
  if (r->index_cap_) index_rebuild(r, r->index_cap_);
  lx_val *scratch = lc_xmalloc((r->prog->nobs ? r->prog->nobs : 1) * sizeof(lx_val));
  uint64_t total = r->incomplete + r->filtered;
  for (size_t i = 0; i < r->nbins; i++) {
    r->bins[i].positive = outcome_positive(r->prog, r->bins[i].values, scratch);
    total += r->bins[i].count;
  }
  free(scratch);
  if (total != r->instances) {
    lc_error(d, (lc_loc){0},
             "%s backend: the histogram holds %" PRIu64 " instances (%" PRIu64 " incomplete, %" PRIu64
             " filtered) but %" PRIu64 " ran",
             r->backend ? r->backend : "the", total, r->incomplete, r->filtered, r->instances);
    return -1;
  }
  return 0;
}

bool run_state_allowed(const lc_result *allowed, const lx_val *values) {
  assert(allowed && (values || allowed->nshown == 0));
  size_t lo = 0, hi = allowed->nstates;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = compare_values(lc_result_state(allowed, mid), values, allowed->nshown);
    if (c == 0) return true;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/* A model that allows no execution of the test at all says that no run of
 * it completes (a deadlock at barriers met in opposite orders is such a
 * test), which a hang does not contradict. */
uint64_t run_unexpected_hangs(const run_result *r) {
  bool runs = r->model && r->model->nstates > 0;
  return r->termination == LC_TERM_TERMINATES && runs ? r->hung : 0;
}

run_bin_status run_bin_classify(const run_bin *b) {
  assert(b && b->unexplored <= b->count);
  if (b->allowed) return RUN_BIN_ALLOWED;
  return b->count > b->unexplored ? RUN_BIN_FORBIDDEN : RUN_BIN_UNEXPLORED;
}

size_t run_compare(run_result *r, const lc_result *allowed) {
  assert(r && allowed && allowed->nshown == r->nshown);
  r->model = allowed;
  r->nforbidden = 0;
  for (size_t i = 0; i < r->nbins; i++) {
    r->bins[i].allowed = run_state_allowed(allowed, r->bins[i].values);
    if (run_bin_classify(&r->bins[i]) == RUN_BIN_FORBIDDEN) r->nforbidden++;
  }
  return r->nforbidden;
}
