/* run_model.c - the model phase of litmus-run, in a child process under
 * --timeout.
 * SPDX-License-Identifier: MIT
 *
 * The child sends two fields: the result as JSON (jansson, as the reports;
 * reals are written with 17 digits and read back to the same double) and
 * the text of what it reported on the diagnostics' stream, which the
 * parent prints on its own.  A flag's name, borrowed from the model, is
 * sent as text and found again in the parent's model.
 */
#define _GNU_SOURCE   /* open_memstream */
#include "run/run_model.h"

#include <assert.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"
#include "term.h"

/* The engine, then the termination question for a test whose loops were
 * cut and which did not ask it already. */
static lc_result *check_lowered(const lt_test *t, const lx_program *p, const cat_model *m, const lc_check_options *o,
                                bool cut_termination, double start, lc_diag *d) {
  lc_result *r = lc_check_lowered(t, p, m, o, start, d);
  if (r->status == LC_RESULT_OK && cut_termination && !o->termination && p->has_cut)
    lc_check_termination(t, m, o, start, r, d);
  return r;
}

/* ---- the result as JSON ---------------------------------------------------------------- */

static json_t *json_string_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *dump_flag(const lc_flag *f) {
  json_t *o = json_object(), *pairs = json_array();
  for (size_t i = 0; i < 2 * f->npairs; i++) json_array_append_new(pairs, json_integer(f->pairs[i]));
  json_object_set_new(o, "name", json_string_or_null(f->name));
  json_object_set_new(o, "raised", json_boolean(f->raised));
  json_object_set_new(o, "a", json_integer(f->ev_a));
  json_object_set_new(o, "b", json_integer(f->ev_b));
  json_object_set_new(o, "pairs", pairs);
  return o;
}

static json_t *dump_term(const lc_term_answer *a) {
  json_t *o = json_object();
  json_object_set_new(o, "progress", json_integer(a->progress));
  json_object_set_new(o, "verdict", json_integer(a->verdict));
  json_object_set_new(o, "witness", json_string_or_null(a->witness));
  return o;
}

static void dump_seconds(json_t *o, const lc_result *r) {
  json_object_set_new(o, "seconds", json_real(r->seconds));
  json_object_set_new(o, "seconds_lower", json_real(r->seconds_lower));
  json_object_set_new(o, "seconds_encode", json_real(r->seconds_encode));
  json_object_set_new(o, "seconds_flags", json_real(r->seconds_flags));
  json_object_set_new(o, "seconds_states", json_real(r->seconds_states));
  json_object_set_new(o, "seconds_termination", json_real(r->seconds_termination));
}

char *run_model_result_dump(const lc_result *r) {
  assert(r);
  json_t *o = json_object(), *states = json_array(), *flags = json_array(), *terms = json_array();
  for (size_t s = 0; s < r->nstates; s++)
    for (size_t v = 0; v < r->nshown; v++) json_array_append_new(states, json_integer(lc_result_state(r, s)[v]));
  for (size_t f = 0; f < r->nflags; f++) json_array_append_new(flags, dump_flag(&r->flags[f]));
  for (size_t i = 0; i < r->nterms; i++) json_array_append_new(terms, dump_term(&r->terms[i]));
  json_object_set_new(o, "status", json_integer(r->status));
  json_object_set_new(o, "message", json_string_or_null(r->message));
  json_object_set_new(o, "engine", json_string_or_null(r->engine));
  json_object_set_new(o, "nstates", json_integer((json_int_t)r->nstates));
  json_object_set_new(o, "states", states);
  json_object_set_new(o, "flags", flags);
  json_object_set_new(o, "bound_reached", json_boolean(r->bound_reached));
  json_t *cut = json_array();
  for (size_t i = 0; r->cut_reached && i < r->prog->npaths; i++)
    if (r->cut_reached[i]) json_array_append_new(cut, json_integer((json_int_t)i));
  json_object_set_new(o, "cut_reached", r->cut_reached ? cut : (json_decref(cut), json_null()));
  json_object_set_new(o, "ub_reached", json_boolean(r->ub_reached));
  json_object_set_new(o, "ub_path", json_integer((json_int_t)r->ub_path));
  json_object_set_new(o, "termination", json_integer(r->termination));
  json_object_set_new(o, "witness", json_string_or_null(r->termination_witness));
  json_object_set_new(o, "terms", terms);
  dump_seconds(o, r);
  json_object_set_new(o, "solver_checks", json_integer((json_int_t)r->solver_checks));
  char *text = json_dumps(o, JSON_COMPACT);
  json_decref(o);
  return text;
}

static char *dup_or_null(const json_t *s) { return json_is_string(s) ? lc_xstrdup(json_string_value(s)) : NULL; }

/* The parent model's own copy of a flag's name, or NULL. */
static const char *model_flag(const cat_model *m, const char *name) {
  for (size_t i = 0; name && i < cat_model_nchecks(m); i++)
    if (cat_model_check_is_flag(m, i) && strcmp(cat_model_check_name(m, i), name) == 0)
      return cat_model_check_name(m, i);
  return NULL;
}

static bool load_flag(const json_t *o, const cat_model *m, lc_flag *f) {
  const json_t *pairs = json_object_get(o, "pairs");
  f->name = model_flag(m, json_string_value(json_object_get(o, "name")));
  if (!f->name || !json_is_array(pairs) || json_array_size(pairs) % 2) return false;
  f->ev_a = (int)json_integer_value(json_object_get(o, "a"));
  f->ev_b = (int)json_integer_value(json_object_get(o, "b"));
  f->npairs = json_array_size(pairs) / 2;
  f->pairs = f->npairs ? lc_xcalloc(2 * f->npairs, sizeof(int)) : NULL;
  for (size_t i = 0; i < 2 * f->npairs; i++) f->pairs[i] = (int)json_integer_value(json_array_get(pairs, i));
  f->raised = json_is_true(json_object_get(o, "raised"));
  return true;
}

static bool load_flags(const json_t *a, const cat_model *m, lc_result *r) {
  if (!json_is_array(a)) return false;
  r->nflags = json_array_size(a);
  r->flags = lc_xcalloc(r->nflags, sizeof(lc_flag));
  for (size_t f = 0; f < r->nflags; f++)
    if (!load_flag(json_array_get(a, f), m, &r->flags[f])) return false;
  return true;
}

static bool load_states(const json_t *o, lc_result *r) {
  const json_t *a = json_object_get(o, "states");
  json_int_t n = json_integer_value(json_object_get(o, "nstates"));
  if (!json_is_array(a) || n < 0 || json_array_size(a) != (size_t)n * r->nshown) return false;
  lx_val *row = lc_xcalloc(r->nshown, sizeof(lx_val));
  for (size_t s = 0; s < (size_t)n; s++) {
    for (size_t v = 0; v < r->nshown; v++) row[v] = json_integer_value(json_array_get(a, s * r->nshown + v));
    lc_result_add_state(r, row);
  }
  free(row);
  return true;
}

static bool load_terms(const json_t *a, lc_result *r) {
  if (!json_is_array(a)) return false;
  r->nterms = json_array_size(a);
  if (!r->nterms) return true;
  r->terms = lc_xcalloc(r->nterms, sizeof *r->terms);
  for (size_t i = 0; i < r->nterms; i++) {
    const json_t *t = json_array_get(a, i);
    r->terms[i].progress = (int)json_integer_value(json_object_get(t, "progress"));
    r->terms[i].verdict = (int)json_integer_value(json_object_get(t, "verdict"));
    r->terms[i].witness = dup_or_null(json_object_get(t, "witness"));
  }
  return true;
}

static void load_seconds(const json_t *o, lc_result *r) {
  r->seconds = json_real_value(json_object_get(o, "seconds"));
  r->seconds_lower = json_real_value(json_object_get(o, "seconds_lower"));
  r->seconds_encode = json_real_value(json_object_get(o, "seconds_encode"));
  r->seconds_flags = json_real_value(json_object_get(o, "seconds_flags"));
  r->seconds_states = json_real_value(json_object_get(o, "seconds_states"));
  r->seconds_termination = json_real_value(json_object_get(o, "seconds_termination"));
}

lc_result *run_model_result_load(const char *text, const lx_program *p, const cat_model *m) {
  assert(text && p && m);
  json_t *o = json_loads(text, 0, NULL);
  const char *engine = json_string_value(json_object_get(o, "engine"));
  json_int_t status = json_integer_value(json_object_get(o, "status"));
  if (!json_is_object(o) || !engine || status < LC_RESULT_OK || status > LC_RESULT_ERROR) {
    json_decref(o);
    return NULL;
  }
  /* the engine's name is a literal the result borrows */
  bool is_enum = strcmp(engine, lc_engine_name(LC_ENGINE_ENUM)) == 0;
  lc_result *r = lc_result_new(p, lc_engine_name(is_enum ? LC_ENGINE_ENUM : LC_ENGINE_SMT), cat_model_name(m));
  r->status = (lc_result_status)status;
  r->message = dup_or_null(json_object_get(o, "message"));
  r->bound_reached = json_is_true(json_object_get(o, "bound_reached"));
  const json_t *cut = json_object_get(o, "cut_reached");
  for (size_t i = 0; json_is_array(cut) && i < json_array_size(cut); i++) {
    json_int_t k = json_integer_value(json_array_get(cut, i));
    if (k >= 0 && (size_t)k < p->npaths) lc_result_mark_cut(r, (size_t)k);
  }
  r->ub_reached = json_is_true(json_object_get(o, "ub_reached"));
  r->ub_path = (size_t)json_integer_value(json_object_get(o, "ub_path"));
  r->termination = (int)json_integer_value(json_object_get(o, "termination"));
  r->termination_witness = dup_or_null(json_object_get(o, "witness"));
  load_seconds(o, r);
  r->solver_checks = (size_t)json_integer_value(json_object_get(o, "solver_checks"));
  bool ok = load_states(o, r) && load_flags(json_object_get(o, "flags"), m, r) &&
            load_terms(json_object_get(o, "terms"), r);
  json_decref(o);
  if (!ok) {
    lc_result_free(r);
    return NULL;
  }
  return r;
}

/* ---- the child and the parent ---------------------------------------------------------- */

typedef struct model_task {
  const lt_test *t;
  const lx_program *p;
  const cat_model *m;
  const lc_check_options *o;
  bool cut_termination;
  double start;
  const lc_diag *d;          /* the parent's: its source, stream and errors_only */
  lc_unroll_hint *hint;      /* wanted, or NULL */
  lc_result *r;              /* the parent's answer */
} model_task;

static bool wants_hint(const lc_unroll_hint *hint, const lc_result *r) {
  return hint && r->status == LC_RESULT_OK && r->bound_reached;
}

/* What a search for the hint that could try nothing says. */
static lc_unroll_hint no_hint(unsigned from) { return (lc_unroll_hint){from, 0, from, true}; }

/* In the child: the check, sent whole; then the hint's search, if wanted,
 * under a bound of its own, the check's answer standing should it be
 * killed. */
static void model_run(void *ctx, size_t i, int fd) {
  (void)i;
  model_task *k = ctx;
  char *text = NULL, hint[64] = "";
  size_t n = 0;
  FILE *err = k->d->out ? open_memstream(&text, &n) : NULL;
  lc_diag d;
  lc_diag_init(&d, k->d->src, err);
  d.errors_only = k->d->errors_only;
  lc_result *r = check_lowered(k->t, k->p, k->m, k->o, k->cut_termination, k->start, &d);
  lc_diag_fini(&d);
  if (err) fclose(err);
  char *js = run_model_result_dump(r);
  const char *fields[] = {js, text, hint};
  if (wants_hint(k->hint, r)) {
    char limit[32];
    snprintf(limit, sizeof limit, "%.17g", lc_iso_hard_limit(k->o->timeout));
    const char *in[] = {limit};
    lc_iso_send(fd, LC_ISO_FALLBACK, fields, 2);
    lc_iso_send(fd, LC_ISO_DEADLINE, in, 1);
    lc_unroll_hint h = lc_unroll_cover(k->t, k->m, k->o, k->p->unroll, lc_now());
    snprintf(hint, sizeof hint, "%u %u %u %d", h.from, h.covers, h.tried, h.stopped);
  }
  lc_iso_send(fd, LC_ISO_RESULT, fields, LC_ARRAY_LEN(fields));
  free(js);
  free(text);
  lc_result_free(r);
}

/* The result of a check that gave none. */
static lc_result *no_answer(const model_task *k, const lc_iso_outcome *x) {
  lc_engine e = k->o->engine == LC_ENGINE_AUTO ? lc_engine_choose(k->p) : k->o->engine;
  lc_result *r = lc_result_new(k->p, lc_engine_name(e), cat_model_name(k->m));
  if (x->end == LC_ISO_KILLED) lc_result_fail(r, LC_RESULT_UNKNOWN, RUN_MODEL_KILLED, k->o->timeout);
  else if (x->end == LC_ISO_NOT_RUN)
    lc_result_fail(r, LC_RESULT_ERROR, "cannot start a process for the check: %s", strerror(x->error));
  else if (x->end == LC_ISO_DONE) lc_result_fail(r, LC_RESULT_ERROR, "the check sent an answer that cannot be read");
  else if (x->signal) lc_result_fail(r, LC_RESULT_ERROR, "the check crashed (signal %d)", x->signal);
  else lc_result_fail(r, LC_RESULT_ERROR, "the check ended without an answer (exit status %d)", x->code);
  return r;
}

static void load_hint(const char *text, lc_unroll_hint *h) {
  int stopped = 1;
  if (!text || sscanf(text, "%u %u %u %d", &h->from, &h->covers, &h->tried, &stopped) != 4) return;
  h->stopped = stopped != 0;
}

/* In the parent, as the child ends: the check's answer, from its result
 * or, should the hint's search be killed, from the fallback. */
static void model_done(void *ctx, size_t i, const lc_iso_outcome *x) {
  (void)i;
  model_task *k = ctx;
  bool answered = x->end == LC_ISO_DONE ? x->nfields == 3 : x->end == LC_ISO_KILLED && x->nfields == 2;
  if (answered && x->fields[0]) {
    k->r = run_model_result_load(x->fields[0], k->p, k->m);
    if (k->r && x->fields[1] && k->d->out) {
      fputs(x->fields[1], k->d->out);
      fflush(k->d->out);
    }
  }
  if (!k->r) k->r = no_answer(k, x);
  else if (wants_hint(k->hint, k->r)) {
    *k->hint = no_hint(k->p->unroll);
    if (x->end == LC_ISO_DONE) load_hint(x->fields[2], k->hint);
  }
}

lc_result *run_model_check(const lt_test *t, const cat_model *m, const lc_check_options *o, bool cut_termination,
                           lc_unroll_hint *hint, lx_program **prog, lc_diag *d) {
  assert(t && m && o && prog && d);
  double start = lc_now();
  if (!(o->timeout > 0)) {
    lc_result *r = lc_check_test(t, m, o, prog, d);
    if (r && r->status == LC_RESULT_OK && cut_termination && !o->termination && (*prog)->has_cut)
      lc_check_termination(t, m, o, start, r, d);
    if (r && wants_hint(hint, r)) *hint = lc_unroll_cover(t, m, o, (*prog)->unroll, lc_now());
    return r;
  }
  lx_program *p = lc_lower_test(t, o, lc_spin_reduce(m, o), start, d);
  *prog = p;
  if (!p) return NULL;
  if (o->lowered) o->lowered(o->lowered_ctx, p);
  double lowered = lc_now() - start;
  model_task k = {t, p, m, o, cut_termination, start, d, hint, NULL};
  lc_iso_ops ops = {model_run, model_done};
  /* the bound counts from the test's start, as litmus-check's (lowering
   * keeps to S, well within it) */
  double limit = lc_iso_hard_limit(o->timeout) - (lc_now() - start);
  lc_isolate_run(1, 1, limit > 1e-3 ? limit : 1e-3, &ops, &k);
  k.r->seconds_lower = lowered;
  k.r->seconds += lowered;
  return k.r;
}
