/* mutants.c - a test's mutants run and scored (litmus-run --mutants).
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "run/mutants.h"
#include "run/run_model.h"

/* Instances whose outcome satisfies the condition's proposition. */
static uint64_t weak_instances(const run_result *rr) {
  uint64_t n = 0;
  for (size_t b = 0; b < rr->nbins; b++)
    if (rr->bins[b].positive) n += rr->bins[b].count;
  return n;
}

/* One mutant: false when the model does not allow its weak outcome (or
 * it does not load), else true with the backend's status in *rc and, when
 * it ran, *weak and *instances. */
static bool run_one(const gen_mutant *mu, const cat_model *m, const lc_check_options *co, run_mutant_fn fn,
                    void *ctx, run_status *rc, uint64_t *weak, uint64_t *instances) {
  lc_source src;
  lc_source_from_string(&src, mu->name, mu->text, strlen(mu->text));
  lc_diag d;
  lc_diag_init(&d, &src, NULL);
  lt_test *t = lt_parse(&src, &d);
  lx_program *prog = NULL;
  /* under --timeout, a hard bound as on the test itself */
  lc_result *allowed = t ? run_model_check(t, m, co, false, NULL, &prog, &d) : NULL;
  bool ran = allowed && allowed->status == LC_RESULT_OK && lc_result_verdict(allowed).positive > 0;
  if (ran) {
    run_result rr;
    run_result_init(&rr, prog, "mutant");
    *rc = fn(ctx, prog, allowed, &rr);
    if (*rc == RUN_OK && run_result_finish(&rr, &d) < 0) *rc = RUN_FAILED;
    if (*rc == RUN_OK) run_compare(&rr, allowed);
    *weak = *rc == RUN_OK ? weak_instances(&rr) : 0;
    *instances = *rc == RUN_OK ? rr.instances : 0;
    run_result_fini(&rr);
  }
  lc_result_free(allowed);
  lx_program_free(prog);
  lt_test_free(t);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return ran;
}

run_status run_mutants(const lt_test *t, const lc_source *src, const cat_model *m, const lc_check_options *co,
                       run_mutant_fn fn, void *ctx, lc_buf *text, json_t **json, run_mutant_score *score) {
  assert(t && src && m && co && fn && text && json && score);
  gen_mutants ms = {0};
  if (t->quant == LT_COND_NOT_EXISTS) gen_mutants_of(t, src, &ms);
  json_t *list = json_array();
  size_t total = 0, observed = 0;
  run_status status = RUN_OK;
  lc_buf lines;
  lc_buf_init(&lines);
  for (size_t i = 0; i < ms.n; i++) {
    uint64_t weak = 0, inst = 0;
    run_status rc = RUN_OK;
    if (!run_one(&ms.v[i], m, co, fn, ctx, &rc, &weak, &inst)) continue;
    if (rc < status) status = rc;
    if (rc != RUN_OK) continue;
    total++;
    observed += weak > 0;
    lc_buf_printf(&lines, "  %s (%s): ", ms.v[i].name, ms.v[i].what);
    if (weak) lc_buf_printf(&lines, "weak outcome in %" PRIu64 " of %" PRIu64 " instances\n", weak, inst);
    else lc_buf_printf(&lines, "never in %" PRIu64 " instances\n", inst);
    json_array_append_new(list, json_pack("{s:s, s:s, s:I, s:I}", "name", ms.v[i].name, "mutation", ms.v[i].what,
                                          "weak", (json_int_t)weak, "instances", (json_int_t)inst));
  }
  if (total) {
    lc_buf_printf(text, "Mutants %s: %zu of %zu showed their weak outcome\n%s", t->name, observed, total, lines.s);
    *json = json_pack("{s:{s:s, s:I, s:I, s:o}}", "mutants", "test", t->name, "total", (json_int_t)total, "observed",
                      (json_int_t)observed, "list", list);
  } else {
    json_decref(list);
    *json = NULL;
  }
  score->total += total;
  score->observed += observed;
  lc_buf_fini(&lines);
  gen_mutants_free(&ms);
  return status;
}
