/* diff.c - the states two models disagree on, and the checks that forbid
 * them (diff.h).
 * SPDX-License-Identifier: MIT
 */
#include "diff.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

/* Is `values` (nshown of them) among r's states?  Both are sorted the
 * same way (lc_result_sort), so a binary search would do; the sets are
 * small and a linear one is plain. */
static bool has_state(const lc_result *r, const lx_val *values) {
  for (size_t i = 0; i < r->nstates; i++)
    if (!memcmp(lc_result_state(r, i), values, r->nshown * sizeof *values)) return true;
  return false;
}

/* "Causality" or "Coherence + FenceSC or SC-per-Location": each minimal
 * set of checks, its names joined by " + ", the sets by " or ". */
static char *reasons_text(const lc_explanation *e) {
  lc_buf b;
  lc_buf_init(&b);
  for (size_t i = 0; i < e->nreasons; i++) {
    if (i) lc_buf_puts(&b, " or ");
    for (size_t j = 0; j < e->reasons[i].n; j++) {
      const lc_violation *v = &e->reasons[i].why[j].v;
      if (j) lc_buf_puts(&b, " + ");
      if (v->name) lc_buf_puts(&b, v->name);
      else lc_buf_printf(&b, "(%s)", v->expr ? v->expr : "an unnamed check");
    }
  }
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

static void explain_state(const lx_program *p, const cat_model *m, const lc_check_options *o, const lx_val *values,
                          lc_diff_state *d) {
  lc_state st;
  lc_state_of_values(p, values, &st);
  lc_explain_result *x = lc_explain(p, m, o->engine, o->timeout, &st, 1, NULL);
  const lc_explanation *e = x->n ? &x->ex[0] : NULL;
  if (e && e->kind == LC_EXPLAIN_FORBIDDEN && e->nreasons) d->why = reasons_text(e);
  else d->message = lc_xstrdup(e && e->message ? e->message : "no set of checks found that forbids it");
  lc_explain_free(x);
  lc_state_fini(&st);
}

void lc_diff_test(const lt_test *t, const cat_model *const m[2], const lc_check_options *o, bool explain,
                  size_t max_explained, lc_diff *out) {
  lc_diff_test_phases(t, m, o, explain, max_explained, NULL, NULL, out);
}

void lc_diff_test_phases(const lt_test *t, const cat_model *const m[2], const lc_check_options *o, bool explain,
                         size_t max_explained, void (*phase)(void *ctx), void *ctx, lc_diff *out) {
  assert(t && m && m[0] && m[1] && o && out);
  memset(out, 0, sizeof *out);
  if (phase) phase(ctx);
  double start = lc_now();
  lc_check_options co = *o;
  co.termination = false;
  co.progress = 0;
  co.lowered = NULL;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lx_program *p = lc_lower_test(t, &co, lc_spin_reduce(m[0], &co) && lc_spin_reduce(m[1], &co), start, &d);
  lc_result *r[2] = {NULL, NULL};
  if (!p) {
    const char *e = lc_diag_first_error(&d);
    out->kind = LC_DIFF_UNKNOWN;
    out->message = lc_xstrdup(e ? e : "the test could not be lowered");
    goto done;
  }
  for (int i = 0; i < 2; i++) {
    r[i] = lc_check_lowered(t, p, m[i], &co, start, &d);
    if (r[i]->status != LC_RESULT_OK) {
      out->kind = LC_DIFF_UNKNOWN;
      lc_buf b;
      lc_buf_init(&b);
      lc_buf_printf(&b, "%s: %s", cat_model_name(m[i]),
                    r[i]->message ? r[i]->message : "no answer");
      out->message = lc_buf_take(&b);
      lc_buf_fini(&b);
      goto done;
    }
    out->nstates[i] = r[i]->nstates;
  }
  out->kind = LC_DIFF_SAME;
  size_t explained = 0;
  for (int i = 0; i < 2; i++)
    for (size_t s = 0; s < r[i]->nstates; s++) {
      const lx_val *v = lc_result_state(r[i], s);
      if (has_state(r[1 - i], v)) continue;
      out->kind = LC_DIFF_DIFFER;
      out->v = lc_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
      lc_diff_state *ds = &out->v[out->n++];
      memset(ds, 0, sizeof *ds);
      ds->allowed_by = i;
      lc_state st;
      lc_state_of_values(p, v, &st);
      lc_buf b;
      lc_buf_init(&b);
      lc_state_print(&b, p, &st);
      ds->state = lc_buf_take(&b);
      lc_buf_fini(&b);
      lc_state_fini(&st);
      if (explain && (!max_explained || explained < max_explained)) {
        if (phase) phase(ctx);
        explain_state(p, m[1 - i], &co, v, ds);
        explained++;
      }
    }
done:
  out->seconds = lc_now() - start;
  for (int i = 0; i < 2; i++) lc_result_free(r[i]);
  lx_program_free(p);
  lc_diag_fini(&d);
}

void lc_diff_fini(lc_diff *d) {
  for (size_t i = 0; i < d->n; i++) {
    free(d->v[i].state);
    free(d->v[i].why);
    free(d->v[i].message);
  }
  free(d->v);
  free(d->message);
  memset(d, 0, sizeof *d);
}
