/* report.c - herd-style text and JSON reports of an engine's result.
 * SPDX-License-Identifier: MIT
 */
#include "report/report.h"

#include <assert.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "progress.h"
#include "term.h"
#include "unroll_hint.h"

const char *report_kind(lt_quant q) {
  switch (q) {
  case LT_COND_EXISTS: return "Allowed";
  case LT_COND_NOT_EXISTS: return "Forbidden";
  case LT_COND_FORALL: return "Required";
  }
  return "Allowed";
}

const char *report_observation(const lc_verdict *v) {
  assert(v);
  if (v->unfinished) return "Unfinished";
  if (v->positive == 0) return "Never";
  if (v->negative == 0) return "Always";
  return "Sometimes";
}

const char *report_quant(lt_quant q) {
  switch (q) {
  case LT_COND_EXISTS: return "exists";
  case LT_COND_NOT_EXISTS: return "~exists";
  case LT_COND_FORALL: return "forall";
  }
  return "exists";
}

void report_event(lc_buf *out, const lx_program *p, int ev) {
  assert(out && p && ev >= 0 && (size_t)ev < p->nevents);
  const lx_event *e = &p->events[ev];
  if (e->thread < 0) {
    lc_buf_printf(out, "the initial value of %s", p->plocs[e->ploc].name);
    return;
  }
  if (p->test->cpp) {
    report_cpp_event(out, p, ev);
    return;
  }
  lc_buf_printf(out, "P%d line %d: ", p->threads[e->thread].id, e->at.line);
  if (e->instr) lt_print_instr(out, e->instr);
}

static void print_state(lc_buf *out, const lc_result *r, size_t i) {
  const lx_val *s = lc_result_state(r, i);
  for (size_t k = 0; k < r->nshown; k++) {
    if (k) lc_buf_putc(out, ' ');   /* not printf: a report may list 100,000 states */
    lc_buf_puts(out, r->prog->obs[k].label);
    lc_buf_putc(out, '=');
    lx_print_obs(out, r->prog, k, s[k]);
    lc_buf_putc(out, ';');
  }
  lc_buf_putc(out, '\n');
}

void report_condition(lc_buf *out, const lt_test *t) {
  assert(out && t && t->cond);
  lc_buf_printf(out, "Condition %s %s", report_quant(t->quant), t->cond->parens ? "" : "(");
  lt_print_test_prop(out, t, t->cond);
  if (!t->cond->parens) lc_buf_putc(out, ')');
}

static void print_condition(lc_buf *out, const lt_test *t) {
  report_condition(out, t);
  lc_buf_putc(out, '\n');
}

/* A raised flag's pairs: all of them when the engine listed them, else
 * the one witness it gave (possibly none). */
static size_t flag_npairs(const lc_flag *fl) {
  if (!fl->raised) return 0;
  return fl->npairs ? fl->npairs : fl->ev_a >= 0;
}

static void flag_pair(const lc_flag *fl, size_t i, int *a, int *b) {
  *a = fl->npairs ? fl->pairs[2 * i] : fl->ev_a;
  *b = fl->npairs ? fl->pairs[2 * i + 1] : fl->ev_b;
}

/* Two events come from the same source when they are copies of one
 * instruction on different paths (or the same initial write). */
static bool same_source(const lx_program *p, int x, int y) {
  const lx_event *a = &p->events[x], *b = &p->events[y];
  return a->instr == b->instr && (a->instr || a->ploc == b->ploc);
}

/* Is pair i a repeat, at the source level, of an earlier pair? */
static bool repeated_pair(const lx_program *p, const lc_flag *fl, size_t i) {
  int a, b;
  flag_pair(fl, i, &a, &b);
  for (size_t j = 0; j < i; j++) {
    int c, d;
    flag_pair(fl, j, &c, &d);
    if ((same_source(p, a, c) && same_source(p, b, d)) || (same_source(p, a, d) && same_source(p, b, c)))
      return true;
  }
  return false;
}

/* The pairs of a raised flag worth a line: one per pair of instructions
 * (repeated_pair), and of those each whose two events, as report_event
 * writes them (in either order), no earlier listed pair has: distinct
 * instructions can print alike (nvcc's PTX has a helper's instructions
 * twice on one source line), and a listing that repeats itself hides the
 * pairs that differ.  Returns the indices; the caller frees them. */
static size_t listed_pairs(const lx_program *p, const lc_flag *fl, size_t **out) {
  size_t n = flag_npairs(fl), nlisted = 0;
  *out = NULL;
  if (!n) return 0;
  size_t *keep = lc_xmalloc(n * sizeof *keep);
  char **text = lc_xmalloc(2 * n * sizeof *text);   /* of the listed pairs: a's, b's */
  for (size_t i = 0; i < n; i++) {
    int a, b;
    flag_pair(fl, i, &a, &b);
    if (repeated_pair(p, fl, i)) continue;
    lc_buf ta, tb;
    lc_buf_init(&ta);
    lc_buf_init(&tb);
    report_event(&ta, p, a);
    report_event(&tb, p, b);
    bool seen = false;
    for (size_t j = 0; j < nlisted && !seen; j++) {
      const char *c = text[2 * j], *d = text[2 * j + 1];
      seen = (strcmp(ta.s, c) == 0 && strcmp(tb.s, d) == 0) || (strcmp(ta.s, d) == 0 && strcmp(tb.s, c) == 0);
    }
    if (seen) {
      lc_buf_fini(&ta);
      lc_buf_fini(&tb);
      continue;
    }
    text[2 * nlisted] = lc_buf_take(&ta);
    text[2 * nlisted + 1] = lc_buf_take(&tb);
    lc_buf_fini(&ta);
    lc_buf_fini(&tb);
    keep[nlisted++] = i;
  }
  for (size_t j = 0; j < 2 * nlisted; j++) free(text[j]);
  free(text);
  *out = keep;
  return nlisted;
}

/* Is a flag a data race, whose pairs a C++ report explains with
 * report_cpp_race_reason?  Known by name, as the models write it:
 * cuda-cpp.cat's `undefined-behaviour` (its relation `race`), the PTX
 * models' `data-race`, herd's `Dr` and `dataRace`, Dat3M's `data_race`,
 * `racy`, `w-data-race`.  An unsequenced race is within one thread, and any
 * other flag (`rmw-own-write`, `thin-air`, a user's) makes no such claim. */
static bool flag_is_race(const lc_flag *fl) {
  const char *n = fl->name;
  if (strcmp(n, "undefined-behaviour") == 0 || strcmp(n, "Dr") == 0) return true;
  bool race = false, unseq = false;
  for (const char *q = n; *q; q++) {
    if (strncasecmp(q, "race", 4) == 0 || strncasecmp(q, "racy", 4) == 0) race = true;
    if (strncasecmp(q, "unsequenced", 11) == 0) unseq = true;
  }
  return race && !unseq;
}

/* One line per racy pair of instructions (or per raised flag when the
 * engine gave no pair). */
static void print_flag(lc_buf *out, const lc_result *r, const lc_flag *fl) {
  if (!fl->raised) return;
  size_t *listed;
  size_t n = listed_pairs(r->prog, fl, &listed);
  for (size_t k = 0; k < (n ? n : 1); k++) {
    int a = -1, b = -1;
    if (n) flag_pair(fl, listed[k], &a, &b);
    lc_buf_printf(out, "Flag %s", fl->name);
    if (a >= 0) {
      lc_buf_puts(out, ": ");
      report_event(out, r->prog, a);
      /* a pair of one event (a cycle through it: thin-air) is no race */
      if (b != a) {
        lc_buf_puts(out, " and ");
        report_event(out, r->prog, b);
        if (r->prog->test->cpp && flag_is_race(fl)) report_cpp_race_reason(out, r->prog, a, b);
      }
    }
    lc_buf_putc(out, '\n');
  }
  free(listed);
}

/* --progress: a line per model, naming it unless it is the default alone. */
static void print_progress(lc_buf *out, const lc_result *r) {
  for (size_t i = 0; i < r->nterms; i++) {
    const lc_term_answer *a = &r->terms[i];
    bool named = r->nterms > 1 || a->progress != LC_PROGRESS_FAIR;
    const char *name = lc_progress_name((lc_progress)a->progress);
    lc_buf_printf(out, "Termination: %s", lc_term_name((lc_term_verdict)a->verdict));
    lc_buf_printf(out, named ? " (%s)\n" : "\n", name);
    if (!a->witness) continue;
    lc_buf_puts(out, a->verdict == LC_TERM_UNKNOWN ? "Why" : "Hang");
    lc_buf_printf(out, named ? " (%s)" : "", name);
    lc_buf_printf(out, ": %s\n", a->witness);
  }
}

void report_text(lc_buf *out, const lc_result *r) {
  assert(out && r && r->prog);
  const lt_test *t = r->prog->test;
  lc_verdict v = lc_result_verdict(r);
  lc_buf_printf(out, "Test %s %s\n", t->name, report_kind(t->quant));
  lc_buf_printf(out, "States %zu\n", r->nstates);
  for (size_t i = 0; i < r->nstates; i++) print_state(out, r, i);
  /* no state: no verdict, not an ordinary No (or a vacuous Ok) */
  lc_buf_puts(out, !v.unfinished                  ? (v.ok ? "Ok\n" : "No\n")
                  : lc_some_path_waits(r->prog) ? "No verdict: no execution finishes\n"
                                                : "No verdict: the model allows no execution\n");
  lc_buf_puts(out, "Witnesses\n");
  lc_buf_printf(out, "Positive: %zu Negative: %zu\n", v.positive, v.negative);
  for (size_t f = 0; f < r->nflags; f++) print_flag(out, r, &r->flags[f]);
  print_condition(out, t);
  lc_buf_printf(out, "Observation %s %s %zu %zu\n", t->name, report_observation(&v), v.positive, v.negative);
  if (v.unfinished) {
    lc_buf_puts(out, "Unfinished: ");
    lc_unfinished_text(out, r);
    lc_buf_putc(out, '\n');
  }
  if (r->nterms) {
    print_progress(out, r);
  } else if (r->termination != LC_TERM_NOT_ASKED) {
    lc_buf_printf(out, "Termination: %s\n", lc_term_name((lc_term_verdict)r->termination));
    if (r->termination_witness)
      lc_buf_printf(out, "%s: %s\n", r->termination == LC_TERM_UNKNOWN ? "Why" : "Hang", r->termination_witness);
  }
  lc_buf_printf(out, "Time %s %.2f\n", t->name, r->seconds);
}

/* ---- herd7's format ------------------------------------------------------------- */

/* An observable as herd7 writes it: `1:r2` for a register (herd numbers
 * threads without the P), `[x]` for a memory location. */
static void herd_label(lc_buf *out, const lx_obs *o) {
  const char *l = o->label;
  if (o->kind == LX_OBS_REG) {
    if (l[0] == 'P' && l[1] >= '0' && l[1] <= '9') l++;
    lc_buf_puts(out, l);
  } else {
    lc_buf_printf(out, "[%s]", l);
  }
}

void report_herd(lc_buf *out, const lc_result *r) {
  assert(out && r && r->prog);
  const lt_test *t = r->prog->test;
  lc_verdict v = lc_result_verdict(r);
  lc_buf_printf(out, "Test %s %s\n", t->name, report_kind(t->quant));
  lc_buf_printf(out, "States %zu\n", r->nstates);
  for (size_t i = 0; i < r->nstates; i++) {
    const lx_val *st = lc_result_state(r, i);
    for (size_t k = 0; k < r->nshown; k++) {
      herd_label(out, &r->prog->obs[k]);
      lc_buf_putc(out, '=');
      lx_print_obs(out, r->prog, k, st[k]);
      lc_buf_puts(out, "; ");
    }
    if (r->nshown) out->s[--out->n] = '\0';   /* herd: `0:r0=0; 1:r0=1;` */
    lc_buf_putc(out, '\n');
  }
  /* herd names a failed undefined_unless `*undef*` (its Flag.Undef),
   * once, whatever the check's name, and then says Undef for Ok or No
   * (top_herd.ml, has_bad_execs); a flag statement by its name */
  bool undef = false;
  for (size_t f = 0; f < r->nflags; f++) undef = undef || (r->flags[f].raised && r->flags[f].undef);
  lc_buf_puts(out, undef ? "Undef\n" : v.ok ? "Ok\n" : "No\n");
  lc_buf_puts(out, "Witnesses\n");
  /* herd counts witnesses of the test's condition, ~exists p's those of
   * ~p, while its Observation line counts p's (as ours does both) */
  bool neg = t->quant == LT_COND_NOT_EXISTS;
  lc_buf_printf(out, "Positive: %zu Negative: %zu\n", neg ? v.negative : v.positive, neg ? v.positive : v.negative);
  if (undef) lc_buf_puts(out, "Flag *undef*\n");
  for (size_t f = 0; f < r->nflags; f++)
    if (r->flags[f].raised && !r->flags[f].undef) lc_buf_printf(out, "Flag %s\n", r->flags[f].name);
  /* the condition with herd's `=` and thread numbers */
  lc_buf c;
  lc_buf_init(&c);
  report_condition(&c, t);
  for (const char *q = c.s; *q; q++) {
    if (strncmp(q, " == ", 4) == 0) {
      lc_buf_putc(out, '=');
      q += 3;
    } else if (*q == 'P' && q[1] >= '0' && q[1] <= '9' && (q == c.s || !isalnum((unsigned char)q[-1]) )) {
      const char *d = q + 1;
      while (*d >= '0' && *d <= '9') d++;
      if (*d != ':') lc_buf_putc(out, *q);
    } else {
      lc_buf_putc(out, *q);
    }
  }
  lc_buf_fini(&c);
  lc_buf_putc(out, '\n');
  lc_buf_printf(out, "Observation %s %s %zu %zu\n", t->name, report_observation(&v), v.positive, v.negative);
  lc_buf_printf(out, "Time %s %.2f\n", t->name, r->seconds);
}

/* ---- JSON ------------------------------------------------------------------------ */

json_t *report_value_json(const lx_program *p, lx_val v) {
  assert(p);
  if (lx_addr_loc(p, v) < 0) return json_integer((json_int_t)v);
  lc_buf b;
  lc_buf_init(&b);
  lx_print_value(&b, p, v);
  json_t *s = json_string(b.s);
  lc_buf_fini(&b);
  return s;
}

json_t *report_obs_json(const lx_program *p, size_t k, lx_val v) {
  assert(p);
  if (k < p->nobs && p->obs[k].fp) return json_real((double)lx_float_of(v));
  return report_value_json(p, v);
}

static json_t *event_json(const lx_program *p, int ev) {
  const lx_event *e = &p->events[ev];
  json_t *o = json_object();
  lc_buf b;
  lc_buf_init(&b);
  if (e->thread >= 0) {
    json_object_set_new(o, "thread", json_integer(p->threads[e->thread].id));
    json_object_set_new(o, "line", json_integer(e->at.line));
    json_object_set_new(o, "column", json_integer(e->at.col));
    if (p->test->cpp) {   /* the C++ access in words, after "P0 line 5: " */
      report_cpp_event(&b, p, ev);
      json_object_set_new(o, "access", json_string(strchr(b.s, ':') + 2));
    } else {
      if (e->instr) lt_print_instr(&b, e->instr);
      json_object_set_new(o, "instruction", json_string(b.s));
    }
  } else {
    json_object_set_new(o, "initial", json_string(p->plocs[e->ploc].name));
  }
  if (e->ploc >= 0) json_object_set_new(o, "location", json_string(p->plocs[e->ploc].name));
  lc_buf_fini(&b);
  return o;
}

static json_t *states_json(const lc_result *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->nstates; i++) {
    json_t *s = json_object();
    const lx_val *vals = lc_result_state(r, i);
    json_t *values = json_object();
    for (size_t k = 0; k < r->nshown; k++)
      json_object_set_new(values, r->prog->obs[k].label, report_obs_json(r->prog, k, vals[k]));
    json_object_set_new(s, "values", values);
    json_object_set_new(s, "positive", json_boolean(lc_result_state_positive(r, i)));
    json_array_append_new(a, s);
  }
  return a;
}

/* --progress with several models: {"fair": {"verdict": ..., "witness": ...}, ...}. */
static json_t *progress_json(const lc_result *r) {
  json_t *all = json_object();
  for (size_t i = 0; i < r->nterms; i++) {
    json_t *one = json_object();
    json_object_set_new(one, "verdict", json_string(lc_term_name((lc_term_verdict)r->terms[i].verdict)));
    if (r->terms[i].witness)
      json_object_set_new(one, r->terms[i].verdict == LC_TERM_UNKNOWN ? "why" : "witness",
                          json_string(r->terms[i].witness));
    json_object_set_new(all, lc_progress_name((lc_progress)r->terms[i].progress), one);
  }
  return all;
}

static json_t *flags_json(const lc_result *r, bool *race) {
  json_t *all = json_array();
  for (size_t f = 0; f < r->nflags; f++) {
    const lc_flag *fl = &r->flags[f];
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(fl->name));
    json_object_set_new(o, "raised", json_boolean(fl->raised));
    if (fl->raised) {
      json_t *pairs = json_array();
      /* per pair, for a C++ test's data race only */
      json_t *reasons = r->prog->test->cpp && flag_is_race(fl) ? json_array() : NULL;
      size_t *listed;
      size_t n = listed_pairs(r->prog, fl, &listed);
      for (size_t k = 0; k < n; k++) {
        int a, b;
        flag_pair(fl, listed[k], &a, &b);
        json_t *pair = json_array();
        json_array_append_new(pair, event_json(r->prog, a));
        json_array_append_new(pair, event_json(r->prog, b));
        if (reasons) {   /* " (reason)" without its parentheses */
          lc_buf why;
          lc_buf_init(&why);
          report_cpp_race_reason(&why, r->prog, a, b);
          json_array_append_new(reasons, json_stringn(why.s + 2, why.n > 3 ? why.n - 3 : 0));
          lc_buf_fini(&why);
        }
        json_array_append_new(pairs, pair);
      }
      free(listed);
      json_object_set_new(o, "pairs", pairs);
      if (reasons) json_object_set_new(o, "reasons", reasons);
    }
    /* PTX's data-race; C++'s undefined-behaviour (models/cuda-cpp.cat); herd's undefined_unless */
    if (fl->raised && (fl->undef || strstr(fl->name, "race") || strcmp(fl->name, "undefined-behaviour") == 0))
      *race = true;
    json_array_append_new(all, o);
  }
  return all;
}

json_t *report_json(const lc_result *r) {
  assert(r && r->prog);
  const lt_test *t = r->prog->test;
  json_t *o = json_object();
  json_object_set_new(o, "test", json_string(t->name));
  json_object_set_new(o, "file", json_string(t->file ? t->file : ""));
  json_object_set_new(o, "model", json_string(r->model ? r->model : ""));
  json_object_set_new(o, "engine", json_string(r->engine));
  json_object_set_new(o, "kind", json_string(report_kind(t->quant)));
  lc_buf b;
  lc_buf_init(&b);
  lt_print_test_prop(&b, t, t->cond);
  json_t *cond = json_object();
  json_object_set_new(cond, "quantifier", json_string(report_quant(t->quant)));
  json_object_set_new(cond, "proposition", json_string(b.s));
  json_object_set_new(o, "condition", cond);
  lc_buf_fini(&b);
  if (r->status != LC_RESULT_OK) {
    json_object_set_new(o, "status", json_string(r->status == LC_RESULT_UNKNOWN ? "unknown" : "error"));
    json_object_set_new(o, "message", json_string(r->message ? r->message : ""));
    return o;
  }
  json_object_set_new(o, "status", json_string("ok"));
  json_t *obs = json_array();
  for (size_t k = 0; k < r->nshown; k++) json_array_append_new(obs, json_string(r->prog->obs[k].label));
  json_object_set_new(o, "observables", obs);
  json_object_set_new(o, "states", states_json(r));
  lc_verdict v = lc_result_verdict(r);
  json_object_set_new(o, "verdict", json_string(v.unfinished ? "none" : v.ok ? "Ok" : "No"));
  if (v.unfinished) {
    lc_buf why;
    lc_buf_init(&why);
    lc_unfinished_text(&why, r);
    json_object_set_new(o, "unfinished", json_string(why.s));
    lc_buf_fini(&why);
  }
  json_object_set_new(o, "positive", json_integer((json_int_t)v.positive));
  json_object_set_new(o, "negative", json_integer((json_int_t)v.negative));
  json_object_set_new(o, "observation", json_string(report_observation(&v)));
  bool race = false;
  json_object_set_new(o, "flags", flags_json(r, &race));
  json_object_set_new(o, "race", json_boolean(race));
  json_object_set_new(o, "unroll", json_integer(r->prog->unroll));
  json_object_set_new(o, "bound_reached", json_boolean(r->bound_reached));
  json_object_set_new(o, "events", json_integer((json_int_t)r->prog->nevents));
  json_object_set_new(o, "solver_checks", json_integer((json_int_t)r->solver_checks));
  if (r->termination != LC_TERM_NOT_ASKED) {
    json_t *term = json_object();
    json_object_set_new(term, "verdict", json_string(lc_term_name((lc_term_verdict)r->termination)));
    if (r->termination_witness)
      json_object_set_new(term, r->termination == LC_TERM_UNKNOWN ? "why" : "witness",
                          json_string(r->termination_witness));
    if (r->nterms) json_object_set_new(term, "progress", json_string(lc_progress_name((lc_progress)r->terms[0].progress)));
    json_object_set_new(o, "termination", term);
  }
  if (r->nterms > 1) json_object_set_new(o, "termination_by_progress", progress_json(r));
  json_object_set_new(o, "seconds", json_real(r->seconds));
  json_t *phases = json_object();
  json_object_set_new(phases, "lower", json_real(r->seconds_lower));
  json_object_set_new(phases, "encode", json_real(r->seconds_encode));
  json_object_set_new(phases, "flags", json_real(r->seconds_flags));
  json_object_set_new(phases, "states", json_real(r->seconds_states));
  if (r->termination != LC_TERM_NOT_ASKED)
    json_object_set_new(phases, "termination", json_real(r->seconds_termination));
  json_object_set_new(o, "seconds_by_phase", phases);
  return o;
}
