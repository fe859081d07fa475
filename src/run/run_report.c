/* run_report.c - litmus7-style text and JSON reports of a run.
 * SPDX-License-Identifier: MIT
 */
#include "run/run_report.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "run/run_term.h"
#include "term.h"

static const char *test_name(const run_result *r) { return r->prog->test->name; }

/* Positive and negative instances, and whether the condition holds of what
 * was observed (litmus7's "is validated"). */
typedef struct run_totals {
  uint64_t positive, negative, forbidden, unexplored;
  size_t nforbidden, nunexplored, nunobserved;
  bool validated;
} run_totals;

static bool bin_observed(const run_result *r, const lx_val *state) {
  for (size_t i = 0; i < r->nbins; i++)
    if (r->nshown == 0 || memcmp(r->bins[i].values, state, r->nshown * sizeof(lx_val)) == 0) return true;
  return false;
}

static run_totals totals(const run_result *r) {
  run_totals t = {0};
  for (size_t i = 0; i < r->nbins; i++) {
    const run_bin *b = &r->bins[i];
    if (b->positive) t.positive += b->count;
    else t.negative += b->count;
    if (!r->model) continue;
    run_bin_status st = run_bin_classify(b);
    if (st == RUN_BIN_FORBIDDEN) t.nforbidden++, t.forbidden += b->count;
    if (st == RUN_BIN_UNEXPLORED) t.nunexplored++, t.unexplored += b->count;
  }
  for (size_t s = 0; r->model && s < r->model->nstates; s++)
    if (!bin_observed(r, lc_result_state(r->model, s))) t.nunobserved++;
  switch (r->prog->test->quant) {
  case LT_COND_EXISTS: t.validated = t.positive > 0; break;
  case LT_COND_NOT_EXISTS: t.validated = t.positive == 0; break;
  case LT_COND_FORALL: t.validated = t.negative == 0; break;
  }
  return t;
}

static const char *observation(const run_totals *t) {
  if (t->positive == 0) return "Never";
  if (t->negative == 0) return "Always";
  return "Sometimes";
}

/* ---- text ------------------------------------------------------------------------- */

static void print_values(lc_buf *out, const run_result *r, const lx_val *v) {
  for (size_t k = 0; k < r->nshown; k++) {
    lc_buf_printf(out, "%s%s=", k ? " " : "", r->prog->obs[k].label);
    lx_print_obs(out, r->prog, k, v[k]);
    lc_buf_putc(out, ';');
  }
}

static void print_where(lc_buf *out, const run_result *r, const run_sample *s) {
  for (size_t t = 0; t < r->prog->nthreads; t++) {
    lc_buf_printf(out, "%sP%d", t ? ", " : "", r->prog->threads[t].id);
    if (s->ctas) lc_buf_printf(out, " cta %d", s->ctas[t]);
    if (s->threads) lc_buf_printf(out, " thread %d", s->threads[t]);
    if (s->sms) lc_buf_printf(out, " sm %d", s->sms[t]);
    if (s->cpus) lc_buf_printf(out, " cpu %d", s->cpus[t]);
  }
}

static const char *unit(const run_result *r) {
  return r->backend && strcmp(r->backend, "cuda") == 0 ? "the GPU" : "the CPU";
}

static void print_headline(lc_buf *out, const run_result *r, const run_totals *t) {
  run_term_headline(out, r, unit(r));
  if (!t->nforbidden) return;
  lc_buf_printf(out, "!!! %s: %s showed %zu outcome%s that %s forbids (%" PRIu64 " instance%s)\n",
                test_name(r), unit(r), t->nforbidden, t->nforbidden == 1 ? "" : "s",
                r->model->model ? r->model->model : "the model", t->forbidden, t->forbidden == 1 ? "" : "s");
  for (size_t i = 0; i < r->nsamples; i++) {
    const run_sample *s = &r->samples[i];
    lc_buf_printf(out, "!!! sample: iteration %" PRIu64 ", instance %" PRIu64 ": ", s->iteration, s->instance);
    print_values(out, r, s->values);
    lc_buf_puts(out, " (");
    print_where(out, r, s);
    lc_buf_puts(out, ")\n");
  }
  for (size_t i = 0; i < r->nbins; i++)
    if (r->bins[i].why) {
      lc_buf_puts(out, "!!! why ");
      print_values(out, r, r->bins[i].values);
      lc_buf_printf(out, " %s\n", r->bins[i].why);
    }
}

static char bin_flag(const run_result *r, const run_bin *b) {
  if (!r->model) return ' ';
  switch (run_bin_classify(b)) {
  case RUN_BIN_FORBIDDEN: return '!';
  case RUN_BIN_UNEXPLORED: return '?';
  default: return ' ';
  }
}

static void print_histogram(lc_buf *out, const run_result *r) {
  lc_buf_printf(out, "Histogram (%zu state%s)\n", r->nbins, r->nbins == 1 ? "" : "s");
  for (size_t i = 0; i < r->nbins; i++) {
    const run_bin *b = &r->bins[i];
    char count[32];
    snprintf(count, sizeof count, "%" PRIu64, b->count);
    lc_buf_printf(out, "%-6s%c%c>", count, bin_flag(r, b), b->positive ? '*' : ':');
    print_values(out, r, b->values);
    lc_buf_putc(out, '\n');
  }
}

static void print_condition(lc_buf *out, const run_result *r, bool validated) {
  report_condition(out, r->prog->test);
  lc_buf_printf(out, " is %svalidated\n", validated ? "" : "NOT ");
}

static void print_model(lc_buf *out, const run_result *r, const run_totals *t) {
  if (!r->model) return;
  const char *name = test_name(r);
  lc_buf_printf(out, "Model %s %s: %zu allowed, %zu observed, %zu forbidden observed\n", name,
                r->model->model ? r->model->model : "?", r->model->nstates, r->nbins, t->nforbidden);
  lc_buf_printf(out, "Never observed %s %zu\n", name, t->nunobserved);
  for (size_t s = 0; s < r->model->nstates; s++) {
    const lx_val *state = lc_result_state(r->model, s);
    if (bin_observed(r, state)) continue;
    lc_buf_puts(out, "  ");
    print_values(out, r, state);
    lc_buf_putc(out, '\n');
  }
  if (t->nunexplored)
    lc_buf_printf(out, "Unexplored %s %zu outcome%s (%" PRIu64 " instance%s) seen only when a loop ran "
                  "more than --unroll %u times; the model did not explore %s\n", name, t->nunexplored,
                  t->nunexplored == 1 ? "" : "s", t->unexplored, t->unexplored == 1 ? "" : "s", r->prog->unroll,
                  t->nunexplored == 1 ? "it" : "them");
}

static void print_counts(lc_buf *out, const run_result *r) {
  const char *name = test_name(r);
  run_term_lines(out, r);
  if (r->filtered)
    lc_buf_printf(out, "Filtered %s %" PRIu64 " (instances the filter rejects; not in the histogram)\n",
                  name, r->filtered);
  for (size_t i = 0; i < r->notes.n; i++) lc_buf_printf(out, "Note %s: %s\n", name, r->notes.v[i]);
}

static void print_machine(lc_buf *out, const run_result *r) {
  const char *name = test_name(r);
  lc_buf_printf(out, "Machine %s %s: %s", name, r->backend ? r->backend : "?",
                r->device_name ? r->device_name : "unknown device");
  if (r->sm_major) lc_buf_printf(out, " sm_%d%d", r->sm_major, r->sm_minor);
  if (r->driver_version || r->compiler_version) {
    lc_buf_printf(out, " (%s", r->driver_version ? r->driver_version : "");
    lc_buf_printf(out, "%s%s)", r->driver_version && r->compiler_version ? ", " : "",
                  r->compiler_version ? r->compiler_version : "");
  }
  lc_buf_putc(out, '\n');
  double rate = r->seconds > 0 ? (double)r->instances / r->seconds : 0;
  lc_buf_printf(out, "Instances %s %" PRIu64 " in %.2f s (%.0f per second), %" PRIu64 " iterations\n", name,
                r->instances, r->seconds, rate, r->iterations);
  lc_buf_printf(out, "Seed %s 0x%016" PRIx64 "\n", name, r->params.seed);
  lc_buf_printf(out, "Time %s %.2f\n", name, r->seconds);
}

void run_report_text(lc_buf *out, const run_result *r) {
  assert(out && r && r->prog);
  const lt_test *t = r->prog->test;
  run_totals tot = totals(r);
  lc_buf_printf(out, "Test %s %s\n", t->name, report_kind(t->quant));
  print_headline(out, r, &tot);
  print_histogram(out, r);
  lc_buf_puts(out, tot.validated ? "Ok\n" : "No\n");
  lc_buf_puts(out, "Witnesses\n");
  lc_buf_printf(out, "Positive: %" PRIu64 ", Negative: %" PRIu64 "\n", tot.positive, tot.negative);
  print_condition(out, r, tot.validated);
  lc_buf_printf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", t->name, observation(&tot), tot.positive,
                tot.negative);
  print_model(out, r, &tot);
  print_counts(out, r);
  print_machine(out, r);
}

/* ---- JSON ------------------------------------------------------------------------- */

static json_t *values_json(const run_result *r, const lx_val *v) {
  json_t *o = json_object();
  for (size_t k = 0; k < r->nshown; k++)
    json_object_set_new(o, r->prog->obs[k].label, report_obs_json(r->prog, k, v[k]));
  return o;
}

static json_t *u64_json(uint64_t v) { return json_integer((json_int_t)v); }

static json_t *hex_json(uint64_t v) {
  char s[32];
  snprintf(s, sizeof s, "0x%016" PRIx64, v);
  return json_string(s);
}

static json_t *params_json(const run_params *p) {
  json_t *o = json_object();
  json_object_set_new(o, "seed", hex_json(p->seed));
  json_object_set_new(o, "iterations", u64_json(p->iterations));
  json_object_set_new(o, "seconds", json_real(p->seconds));
  json_object_set_new(o, "instances", json_integer(p->instances));
  json_object_set_new(o, "device", json_integer(p->device));
  json_object_set_new(o, "mem_stress", json_boolean(p->mem_stress));
  json_object_set_new(o, "pre_stress", json_boolean(p->pre_stress));
  json_object_set_new(o, "stress_pattern", json_integer(p->stress_pattern));
  json_object_set_new(o, "stress_lines", json_integer(p->stress_lines));
  json_object_set_new(o, "stress_iterations", json_integer(p->stress_iterations));
  json_object_set_new(o, "pre_stress_pattern", json_integer(p->pre_stress_pattern));
  json_object_set_new(o, "pre_stress_lines", json_integer(p->pre_stress_lines));
  json_object_set_new(o, "pre_stress_iterations", json_integer(p->pre_stress_iterations));
  json_object_set_new(o, "loc_offset", json_integer(p->loc_offset));
  json_object_set_new(o, "barrier", json_boolean(p->barrier));
  json_object_set_new(o, "shuffle", json_boolean(p->shuffle));
  json_object_set_new(o, "testing_pct", json_integer(p->testing_pct));
  json_object_set_new(o, "stride", json_integer(p->stride));
  json_object_set_new(o, "threads_per_cta", json_integer(p->threads_per_cta));
  json_object_set_new(o, "max_forbidden", json_integer(p->max_forbidden));
  json_object_set_new(o, "spin_limit", json_integer(p->spin_limit));
  json_object_set_new(o, "watchdog", json_real(p->watchdog));
  json_object_set_new(o, "pin", json_boolean(p->pin));
  return o;
}

static json_t *device_json(const run_result *r) {
  json_t *o = json_object();
  json_object_set_new(o, "backend", json_string(r->backend ? r->backend : ""));
  json_object_set_new(o, "name", r->device_name ? json_string(r->device_name) : json_null());
  if (r->sm_major) {
    char sm[32];
    snprintf(sm, sizeof sm, "%d.%d", r->sm_major, r->sm_minor);
    json_object_set_new(o, "sm", json_string(sm));
  } else {
    json_object_set_new(o, "sm", json_null());
  }
  json_object_set_new(o, "driver", r->driver_version ? json_string(r->driver_version) : json_null());
  json_object_set_new(o, "compiler", r->compiler_version ? json_string(r->compiler_version) : json_null());
  return o;
}

static const char *status_name(const run_result *r, const run_bin *b) {
  if (!r->model) return "unknown";
  switch (run_bin_classify(b)) {
  case RUN_BIN_FORBIDDEN: return "forbidden";
  case RUN_BIN_UNEXPLORED: return "unexplored";
  default: return "allowed";
  }
}

static json_t *histogram_json(const run_result *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->nbins; i++) {
    const run_bin *b = &r->bins[i];
    json_t *o = json_object();
    json_object_set_new(o, "values", values_json(r, b->values));
    json_object_set_new(o, "count", u64_json(b->count));
    json_object_set_new(o, "positive", json_boolean(b->positive));
    json_object_set_new(o, "allowed", r->model ? json_boolean(b->allowed) : json_null());
    json_object_set_new(o, "status", json_string(status_name(r, b)));
    json_object_set_new(o, "unexplored", u64_json(b->unexplored));
    if (b->why) json_object_set_new(o, "why", json_string(b->why));
    json_array_append_new(a, o);
  }
  return a;
}

static json_t *ints_json(const int *v, size_t i) { return v ? json_integer(v[i]) : json_null(); }

static json_t *samples_json(const run_result *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->nsamples; i++) {
    const run_sample *s = &r->samples[i];
    json_t *o = json_object();
    json_object_set_new(o, "iteration", u64_json(s->iteration));
    json_object_set_new(o, "instance", u64_json(s->instance));
    json_object_set_new(o, "values", values_json(r, s->values));
    json_t *where = json_array();
    for (size_t t = 0; t < r->prog->nthreads; t++) {
      json_t *w = json_object();
      char name[24];
      snprintf(name, sizeof name, "P%d", r->prog->threads[t].id);
      json_object_set_new(w, "thread", json_string(name));
      json_object_set_new(w, "cta", ints_json(s->ctas, t));
      json_object_set_new(w, "thread_index", ints_json(s->threads, t));
      json_object_set_new(w, "cpu", ints_json(s->cpus, t));
      if (s->sms) json_object_set_new(w, "sm", ints_json(s->sms, t));
      json_array_append_new(where, w);
    }
    json_object_set_new(o, "where", where);
    json_array_append_new(a, o);
  }
  return a;
}

static json_t *unobserved_json(const run_result *r) {
  json_t *a = json_array();
  for (size_t s = 0; r->model && s < r->model->nstates; s++) {
    const lx_val *state = lc_result_state(r->model, s);
    if (!bin_observed(r, state)) json_array_append_new(a, values_json(r, state));
  }
  return a;
}

static json_t *condition_json(const lt_test *t) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print_test_prop(&b, t, t->cond);
  json_t *o = json_object();
  json_object_set_new(o, "quantifier", json_string(report_quant(t->quant)));
  json_object_set_new(o, "proposition", json_string(b.s));
  lc_buf_fini(&b);
  return o;
}

static json_t *timings_json(const run_result *r) {
  json_t *o = json_object();
  json_object_set_new(o, "run_seconds", json_real(r->seconds));
  double rate = r->seconds > 0 ? (double)r->instances / r->seconds : 0;
  json_object_set_new(o, "instances_per_second", json_real(rate));
  json_object_set_new(o, "model_seconds", r->model ? json_real(r->model->seconds) : json_null());
  return o;
}

static json_t *model_json(const run_result *r, const run_totals *t) {
  if (!r->model) return json_null();
  json_t *o = json_object();
  json_object_set_new(o, "name", json_string(r->model->model ? r->model->model : ""));
  json_object_set_new(o, "engine", json_string(r->model->engine ? r->model->engine : ""));
  json_object_set_new(o, "allowed_states", json_integer((json_int_t)r->model->nstates));
  json_object_set_new(o, "unroll", json_integer(r->prog->unroll));
  json_object_set_new(o, "forbidden_outcomes", json_integer((json_int_t)t->nforbidden));
  json_object_set_new(o, "forbidden_instances", u64_json(t->forbidden));
  json_object_set_new(o, "unexplored_outcomes", json_integer((json_int_t)t->nunexplored));
  return o;
}

static json_t *termination_json(const run_result *r) {
  if (r->termination == LC_TERM_NOT_ASKED) return json_null();
  json_t *o = json_object();
  json_object_set_new(o, "verdict", json_string(lc_term_name((lc_term_verdict)r->termination)));
  json_object_set_new(o, "witness", r->termination_witness ? json_string(r->termination_witness) : json_null());
  json_object_set_new(o, "unexpected_hangs", u64_json(run_unexpected_hangs(r)));
  return o;
}

json_t *run_report_json(const run_result *r) {
  assert(r && r->prog);
  const lt_test *t = r->prog->test;
  run_totals tot = totals(r);
  json_t *o = json_object();
  json_object_set_new(o, "test", json_string(t->name));
  json_object_set_new(o, "file", json_string(t->file ? t->file : ""));
  json_object_set_new(o, "kind", json_string(report_kind(t->quant)));
  json_object_set_new(o, "condition", condition_json(t));
  json_object_set_new(o, "device", device_json(r));
  json_object_set_new(o, "seed", hex_json(r->params.seed));
  json_object_set_new(o, "params", params_json(&r->params));
  json_t *obs = json_array();
  for (size_t k = 0; k < r->nshown; k++) json_array_append_new(obs, json_string(r->prog->obs[k].label));
  json_object_set_new(o, "observables", obs);
  json_object_set_new(o, "histogram", histogram_json(r));
  json_object_set_new(o, "instances", u64_json(r->instances));
  json_object_set_new(o, "iterations", u64_json(r->iterations));
  json_object_set_new(o, "incomplete", u64_json(r->incomplete));
  json_object_set_new(o, "hung", u64_json(r->hung));
  json_object_set_new(o, "cut", u64_json(r->incomplete - r->hung));
  json_object_set_new(o, "halted", json_boolean(r->halted));
  json_object_set_new(o, "termination", termination_json(r));
  json_object_set_new(o, "filtered", u64_json(r->filtered));
  json_object_set_new(o, "positive", u64_json(tot.positive));
  json_object_set_new(o, "negative", u64_json(tot.negative));
  json_object_set_new(o, "observation", json_string(observation(&tot)));
  json_object_set_new(o, "verdict", json_string(tot.validated ? "Ok" : "No"));
  json_object_set_new(o, "model", model_json(r, &tot));
  json_object_set_new(o, "forbidden_samples", samples_json(r));
  json_object_set_new(o, "unobserved_allowed", unobserved_json(r));
  json_t *notes = json_array();
  for (size_t i = 0; i < r->notes.n; i++) json_array_append_new(notes, json_string(r->notes.v[i]));
  json_object_set_new(o, "notes", notes);
  json_object_set_new(o, "timings", timings_json(r));
  return o;
}
