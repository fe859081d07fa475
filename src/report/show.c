/* show.c - litmus-check --show as text and JSON (the pictures: graph.c).
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/show.h"
#include "report/why.h"

bool report_show_symmetric(const rel_rel *r) {
  assert(r);
  rel_rel *inv = rel_inverse(r);
  bool same = rel_equal(inv, r);
  rel_free(inv);
  return same;
}

/* Immediate steps of an order (co as herd prints it); fr to the writes
 * co-after the first one it reaches is implied, and left out too. */
static rel_rel *steps(const rel_rel *r) {
  rel_rel *two = rel_seq(r, r), *s = rel_copy(r);
  rel_diff_into(s, two);
  rel_free(two);
  return s;
}

static rel_rel *fr_steps(const rel_rel *fr, const rel_rel *co) {
  rel_rel *implied = rel_seq(fr, co), *s = rel_copy(fr);
  rel_diff_into(s, implied);
  rel_free(implied);
  return s;
}

static void header(lc_buf *out, const lc_show_result *s) {
  lc_buf_printf(out, "Executions of %s", s->prog->test->name);
  if (s->has_state) {
    lc_buf_puts(out, " giving ");
    lc_state_print(out, s->prog, &s->state);
  }
  lc_buf_puts(out, ": ");
  if (s->stopped) lc_buf_printf(out, "at least %zu allowed, %zu shown; the search stopped: %s", s->count, s->n,
                                s->message ? s->message : "?");
  else if (!s->count) lc_buf_puts(out, "none allowed");
  else if (s->capped) lc_buf_printf(out, "at least %zu allowed (counting stops there), the first %zu shown", s->count, s->n);
  else if (!s->n) lc_buf_printf(out, "%zu allowed, none shown (--show-limit 0)", s->count);
  else if (s->count > s->n) lc_buf_printf(out, "%zu allowed, the first %zu shown (--show-limit %zu)", s->count, s->n, s->limit);
  else lc_buf_printf(out, "%zu allowed, all shown", s->count);
  lc_buf_printf(out, "; model %s, explicit engine\n", s->model);
  if (s->prog->has_cut)
    lc_buf_printf(out, "Note: executions that take a loop more than --unroll %u times are not listed\n",
                  s->prog->unroll);
  if (s->incomplete)
    lc_buf_puts(out, "Note: values guessed around a cycle of dependencies may have missed executions "
                     "whose values come out of thin air\n");
  if (!s->count) return;
  lc_buf_puts(out, "Relations:");
  for (size_t i = 0; i < s->nrels; i++) lc_buf_printf(out, " %s", s->rel_names[i]);
  if (!s->nrels) lc_buf_puts(out, " none");
  if (s->rels_default) lc_buf_puts(out, " (those the model's checks name; --show-rel to choose)");
  lc_buf_putc(out, '\n');
}

/* A relation's pairs; one that relates events both ways (ms, race), each
 * pair once: `a<->d`. */
static void symmetric_pairs(lc_buf *out, const lx_program *p, const rel_rel *r) {
  bool sym = report_show_symmetric(r);
  for (size_t a = 0; a < r->n; a++)
    for (size_t b = sym ? a : 0; b < r->n; b++) {
      if (!rel_has(r, a, b)) continue;
      lc_buf_putc(out, ' ');
      report_event_name(out, p, (int)a);
      lc_buf_puts(out, sym && a != b ? "<->" : "->");
      report_event_name(out, p, (int)b);
    }
}

static void execution(lc_buf *out, const lc_show_result *s, size_t k) {
  const lx_program *p = s->prog;
  const lc_witness *w = s->ex[k].w;
  lc_state st;
  lc_state_of_values(p, w->obs, &st);
  lc_buf_printf(out, "Execution %zu of %zu%s: ", k + 1, s->count, s->capped ? "+" : "");
  lc_state_print(out, p, &st);
  lc_state_fini(&st);
  lc_buf_putc(out, '\n');
  report_execution_events(out, p, w, "  ");
  rel_rel *base[LC_NBASE];
  lc_witness_base(p, w, base);
  rel_rel *co = steps(base[2]), *fr = fr_steps(base[3], base[2]);
  lc_buf_puts(out, "  ");
  size_t at = out->n;
  report_pairs(out, p, "rf", base[1]);
  report_pairs(out, p, "co", co);
  report_pairs(out, p, "fr", fr);
  report_pairs(out, p, "rmw", base[4]);
  report_pairs(out, p, "sc", base[5]);
  report_pairs(out, p, "sync_bar", base[6]);
  while (out->n > at && out->s[out->n - 1] == ' ') out->s[--out->n] = '\0';
  lc_buf_putc(out, '\n');
  rel_free(co);
  rel_free(fr);
  for (size_t i = 0; i < LC_NBASE; i++) rel_free(base[i]);
  for (size_t i = 0; i < s->nrels; i++) {
    const rel_rel *r = s->ex[k].rels[i];
    if (rel_empty(r)) continue;
    lc_buf_printf(out, "  %s", s->rel_names[i]);
    symmetric_pairs(out, p, r);
    lc_buf_putc(out, '\n');
  }
}

void report_show_text(lc_buf *out, const lc_show_result *s) {
  assert(out && s);
  header(out, s);
  for (size_t k = 0; k < s->n; k++) execution(out, s, k);
  if (s->count > s->n && !s->stopped && !s->capped)
    lc_buf_printf(out, "(%zu more execution%s not shown: --show-limit N shows more)\n", s->count - s->n,
                  s->count - s->n == 1 ? "" : "s");
}

/* ---- JSON ------------------------------------------------------------------------------- */

static json_t *pairs_json(const lx_program *p, const rel_rel *r) {
  json_t *a = json_array();
  for (size_t x = 0; x < r->n; x++)
    for (size_t y = 0; y < r->n; y++)
      if (rel_has(r, x, y)) {
        lc_buf n1, n2;
        lc_buf_init(&n1), lc_buf_init(&n2);
        report_event_name(&n1, p, (int)x);
        report_event_name(&n2, p, (int)y);
        json_array_append_new(a, json_pack("[ss]", n1.s, n2.s));
        lc_buf_fini(&n1), lc_buf_fini(&n2);
      }
  return a;
}

static json_t *events_json(const lx_program *p, const lc_witness *w) {
  json_t *a = json_array();
  for (size_t ev = p->ninit; ev < p->nevents; ev++) {
    if (!lc_witness_runs(p, w, (int)ev)) continue;
    lc_buf n, e, i;
    lc_buf_init(&n), lc_buf_init(&e), lc_buf_init(&i);
    report_event_name(&n, p, (int)ev);
    report_event_effect(&e, p, w, (int)ev);
    report_event_instr(&i, p, (int)ev);
    json_array_append_new(a, json_pack("{sssissss}", "name", n.s, "thread", p->threads[p->events[ev].thread].id,
                                       "effect", e.s, "instr", i.s));
    lc_buf_fini(&n), lc_buf_fini(&e), lc_buf_fini(&i);
  }
  return a;
}

static json_t *execution_json(const lc_show_result *s, size_t k) {
  const lx_program *p = s->prog;
  const lc_witness *w = s->ex[k].w;
  json_t *o = json_object();
  lc_state st;
  lc_state_of_values(p, w->obs, &st);
  lc_buf b;
  lc_buf_init(&b);
  lc_state_print(&b, p, &st);
  lc_state_fini(&st);
  json_object_set_new(o, "state", json_string(b.s));
  lc_buf_fini(&b);
  json_object_set_new(o, "events", events_json(p, w));
  rel_rel *base[LC_NBASE];
  lc_witness_base(p, w, base);
  rel_rel *co = steps(base[2]), *fr = fr_steps(base[3], base[2]);
  json_object_set_new(o, "rf", pairs_json(p, base[1]));
  json_object_set_new(o, "co", pairs_json(p, co));
  json_object_set_new(o, "fr", pairs_json(p, fr));
  json_object_set_new(o, "rmw", pairs_json(p, base[4]));
  json_object_set_new(o, "sc", pairs_json(p, base[5]));
  json_object_set_new(o, "sync_bar", pairs_json(p, base[6]));
  rel_free(co);
  rel_free(fr);
  for (size_t i = 0; i < LC_NBASE; i++) rel_free(base[i]);
  json_t *rels = json_object();
  for (size_t i = 0; i < s->nrels; i++) {
    const rel_rel *r = s->ex[k].rels[i];
    if (rel_empty(r)) continue;
    json_object_set_new(rels, s->rel_names[i], pairs_json(p, r));
  }
  json_object_set_new(o, "relations", rels);
  return o;
}

json_t *report_show_json(const lc_show_result *s) {
  assert(s);
  json_t *o = json_object();
  if (s->has_state) {
    lc_buf b;
    lc_buf_init(&b);
    lc_state_print(&b, s->prog, &s->state);
    json_object_set_new(o, "state", json_string(b.s));
    lc_buf_fini(&b);
  } else {
    json_object_set_new(o, "state", json_null());
  }
  json_object_set_new(o, "count", json_integer((json_int_t)s->count));
  json_object_set_new(o, "shown", json_integer((json_int_t)s->n));
  json_object_set_new(o, "limit", json_integer((json_int_t)s->limit));
  json_object_set_new(o, "cut", json_boolean(s->count > s->n));
  json_object_set_new(o, "count_capped", json_boolean(s->capped));
  json_object_set_new(o, "complete", json_boolean(!s->stopped && !s->capped && !s->incomplete && !s->prog->has_cut));
  if (s->stopped) json_object_set_new(o, "message", json_string(s->message ? s->message : ""));
  json_object_set_new(o, "model", json_string(s->model));
  json_t *names = json_array();
  for (size_t i = 0; i < s->nrels; i++) json_array_append_new(names, json_string(s->rel_names[i]));
  json_object_set_new(o, "relations", names);
  json_object_set_new(o, "relations_default", json_boolean(s->rels_default));
  json_t *list = json_array();
  for (size_t k = 0; k < s->n; k++) json_array_append_new(list, execution_json(s, k));
  json_object_set_new(o, "executions", list);
  return o;
}
