/* result.c - engine results and the verdict of a test's condition.
 * SPDX-License-Identifier: MIT
 */
#include "result.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

lc_result *lc_result_new(const lx_program *p, const char *engine, const char *model) {
  assert(p && engine);
  lc_result *r = lc_xcalloc(1, sizeof *r);
  r->prog = p;
  r->engine = engine;
  r->model = model;
  r->nshown = p->nshown;
  return r;
}

void lc_result_free(lc_result *r) {
  if (!r) return;
  free(r->states);
  free(r->cut_reached);
  for (size_t f = 0; f < r->nflags; f++) free(r->flags[f].pairs);
  free(r->flags);
  free(r->message);
  free(r->termination_witness);
  for (size_t i = 0; i < r->nterms; i++) free(r->terms[i].witness);
  free(r->terms);
  free(r);
}

void lc_result_mark_cut(lc_result *r, size_t path) {
  assert(r && path < r->prog->npaths);
  if (!r->cut_reached) r->cut_reached = lc_xcalloc(r->prog->npaths, 1);
  r->cut_reached[path] = 1;
}

void lc_result_add_state(lc_result *r, const lx_val *values) {
  assert(r && (values || r->nshown == 0));
  size_t w = r->nshown ? r->nshown : 1;
  r->states = lc_xrealloc(r->states, (r->nstates + 1) * w * sizeof(lx_val));
  memcpy(r->states + r->nstates * w, values, r->nshown * sizeof(lx_val));
  r->nstates++;
}

const lx_val *lc_result_state(const lc_result *r, size_t i) {
  assert(r && i < r->nstates);
  return r->states + i * (r->nshown ? r->nshown : 1);
}

static int compare_states(const lx_val *a, const lx_val *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* Insertion sort over rows: states number in the thousands at most and
 * this keeps the row width out of a global for qsort. */
void lc_result_sort(lc_result *r) {
  assert(r);
  size_t w = r->nshown ? r->nshown : 1;
  lx_val *tmp = lc_xmalloc(w * sizeof(lx_val));
  for (size_t i = 1; i < r->nstates; i++) {
    memcpy(tmp, r->states + i * w, w * sizeof(lx_val));
    size_t j = i;
    for (; j > 0 && compare_states(r->states + (j - 1) * w, tmp, r->nshown) > 0; j--)
      memcpy(r->states + j * w, r->states + (j - 1) * w, w * sizeof(lx_val));
    memcpy(r->states + j * w, tmp, w * sizeof(lx_val));
  }
  free(tmp);
  size_t out = 0;
  for (size_t i = 0; i < r->nstates; i++) {
    if (out > 0 && compare_states(r->states + (out - 1) * w, r->states + i * w, r->nshown) == 0) continue;
    if (out != i) memcpy(r->states + out * w, r->states + i * w, w * sizeof(lx_val));
    out++;
  }
  r->nstates = out;
}

void lc_result_fail(lc_result *r, lc_result_status status, const char *fmt, ...) {
  assert(r && fmt && status != LC_RESULT_OK);
  lc_buf b;
  lc_buf_init(&b);
  va_list ap;
  va_start(ap, fmt);
  lc_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  free(r->message);
  r->message = lc_buf_take(&b);
  lc_buf_fini(&b);
  r->status = status;
}

bool lc_result_state_positive(const lc_result *r, size_t i) {
  assert(r && r->prog && i < r->nstates);
  const lx_program *p = r->prog;
  lx_val *all = lc_xcalloc(p->nobs ? p->nobs : 1, sizeof(lx_val));
  memcpy(all, lc_result_state(r, i), r->nshown * sizeof(lx_val));
  bool pos = lx_prop_eval(p, p->test->cond, all);
  free(all);
  return pos;
}

lc_verdict lc_result_verdict(const lc_result *r) {
  assert(r && r->prog);
  lc_verdict v = {0, 0, false, r->status == LC_RESULT_OK && r->nstates == 0};
  for (size_t i = 0; i < r->nstates; i++) {
    if (lc_result_state_positive(r, i)) v.positive++;
    else v.negative++;
  }
  switch (r->prog->test->quant) {
  case LT_COND_EXISTS: v.ok = v.positive > 0; break;
  case LT_COND_NOT_EXISTS: v.ok = v.positive == 0; break;
  case LT_COND_FORALL: v.ok = v.negative == 0; break;
  }
  return v;
}

static bool flag_has(const lc_flag *f, int a, int b) {
  for (size_t i = 0; i < f->npairs; i++)
    if (f->pairs[2 * i] == a && f->pairs[2 * i + 1] == b) return true;
  return false;
}

void lc_flag_add_pair(lc_flag *f, int a, int b) {
  assert(f && a >= 0 && b >= 0);
  if (flag_has(f, a, b) || flag_has(f, b, a)) return;
  f->pairs = lc_xrealloc(f->pairs, (f->npairs + 1) * 2 * sizeof(int));
  size_t i = f->npairs++;
  for (; i > 0 && (f->pairs[2 * (i - 1)] > a || (f->pairs[2 * (i - 1)] == a && f->pairs[2 * (i - 1) + 1] > b)); i--) {
    f->pairs[2 * i] = f->pairs[2 * (i - 1)];
    f->pairs[2 * i + 1] = f->pairs[2 * (i - 1) + 1];
  }
  f->pairs[2 * i] = a;
  f->pairs[2 * i + 1] = b;
  f->raised = true;
  f->ev_a = f->pairs[0];
  f->ev_b = f->pairs[1];
}

bool lc_flag_has_pair(const lc_flag *f, int a, int b) { return flag_has(f, a, b) || flag_has(f, b, a); }
