/* why.c - explanations as text and JSON, and the labels of
 * events every picture and line uses.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <string.h>

#include "report/report.h"
#include "report/why.h"

/* ---- labels --------------------------------------------------------------------------- */

void report_event_name(lc_buf *out, const lx_program *p, int ev) {
  assert(out && p && ev >= 0 && (size_t)ev < p->nevents);
  const lx_event *e = &p->events[ev];
  size_t k = (size_t)ev - p->ninit;
  if (e->thread < 0) lc_buf_printf(out, "I%s", p->plocs[e->ploc].name);
  else if (k < 26) lc_buf_putc(out, (char)('a' + k));
  else lc_buf_printf(out, "e%zu", k);
}

void report_event_instr(lc_buf *out, const lx_program *p, int ev) {
  assert(out && p && ev >= 0 && (size_t)ev < p->nevents);
  const lx_event *e = &p->events[ev];
  if (e->instr && !report_cpp_instr(out, p, ev)) lt_print_instr(out, e->instr);
  else if (e->thread < 0) lc_buf_printf(out, "%s=", p->plocs[e->ploc].name), lx_print_value(out, p, p->plocs[e->ploc].init);
}

void report_event_effect(lc_buf *out, const lx_program *p, const lc_witness *w, int ev) {
  assert(out && p && w && ev >= 0 && (size_t)ev < p->nevents);
  const lx_event *e = &p->events[ev];
  switch (e->kind) {
  case LX_EV_READ:
    lc_buf_printf(out, "R %s=", p->plocs[e->ploc].name);
    lx_print_value(out, p, w ? w->val[ev] : 0);
    break;
  case LX_EV_WRITE:
    lc_buf_printf(out, "W %s=", p->plocs[e->ploc].name);
    lx_print_value(out, p, lx_expr_eval(e->value, w ? w->val : NULL));
    break;
  case LX_EV_FENCE: lc_buf_puts(out, "F"); break;
  case LX_EV_PROXY_FENCE:
  case LX_EV_ALIAS_FENCE: lc_buf_puts(out, "PF"); break;
  case LX_EV_BAR_ARRIVE: lc_buf_puts(out, "B arrive"); break;
  case LX_EV_BAR_WAIT: lc_buf_puts(out, "B wait"); break;
  }
}

/* ---- text ------------------------------------------------------------------------------- */

/* An edge of an expression the model does not name (a product, a
 * complement) is labelled by its text; names have no spaces. */
static bool unnamed(const char *rel) { return strpbrk(rel, " [~") != NULL; }

static void print_edge(lc_buf *out, const lx_program *p, const lc_edge *e, bool first) {
  if (first) report_event_name(out, p, e->from);
  bool paren = unnamed(e->rel) || e->inverse;
  lc_buf_printf(out, " -%s%s%s%s-> ", paren ? "(" : "", e->rel, paren ? ")" : "", e->inverse ? "^-1" : "");
  report_event_name(out, p, e->to);
}

static void print_chain(lc_buf *out, const lx_program *p, const lc_edge *e, size_t n) {
  for (size_t i = 0; i < n; i++) {
    bool chained = i > 0 && e[i - 1].to == e[i].from;
    if (i && !chained) lc_buf_puts(out, ", ");
    print_edge(out, p, &e[i], !chained);
  }
}

static void print_edges(lc_buf *out, const lx_program *p, const lc_violation *v) {
  print_chain(out, p, v->edges, v->nedges);
}

static void print_pairs(lc_buf *out, const lx_program *p, const char *name, const rel_rel *r) {
  bool any = false;
  for (size_t a = 0; a < r->n; a++)
    for (size_t b = 0; b < r->n; b++) {
      if (!rel_has(r, a, b)) continue;
      lc_buf_puts(out, any ? " " : name);
      if (!any) lc_buf_putc(out, ' ');
      report_event_name(out, p, (int)a);
      lc_buf_puts(out, "->");
      report_event_name(out, p, (int)b);
      any = true;
    }
  if (any) lc_buf_puts(out, "  ");
}

/* co without the pairs transitivity gives, as herd draws it. */
static rel_rel *co_steps(const rel_rel *co) {
  rel_rel *two = rel_seq(co, co), *r = rel_copy(co);
  rel_diff_into(r, two);
  rel_free(two);
  return r;
}

void report_execution_events(lc_buf *out, const lx_program *p, const lc_witness *w, const char *indent) {
  assert(out && p && w && indent);
  for (size_t ev = p->ninit; ev < p->nevents; ev++) {
    if (!lc_witness_runs(p, w, (int)ev)) continue;
    lc_buf_printf(out, "%s", indent);
    report_event_name(out, p, (int)ev);
    lc_buf_pad(out, strlen(indent) + 4);
    lc_buf_printf(out, "P%d  ", p->threads[p->events[ev].thread].id);
    size_t at = out->n;
    report_event_effect(out, p, w, (int)ev);
    while (out->n - at < 10) lc_buf_putc(out, ' ');
    lc_buf_puts(out, "  ");
    report_event_instr(out, p, (int)ev);
    lc_buf_putc(out, '\n');
  }
}

void report_pairs(lc_buf *out, const lx_program *p, const char *name, const rel_rel *r) {
  assert(out && p && name && r);
  print_pairs(out, p, name, r);
}

static void print_execution(lc_buf *out, const lx_program *p, const lc_witness *w, const char *indent) {
  report_execution_events(out, p, w, indent);
  rel_rel *rf = rel_new(p->nevents), *co = co_steps(w->co);
  for (size_t r = 0; r < p->nevents; r++)
    if (w->rf[r] >= 0) rel_add(rf, (size_t)w->rf[r], r);
  lc_buf_puts(out, indent);
  size_t at = out->n;
  print_pairs(out, p, "rf", rf);
  print_pairs(out, p, "co", co);
  print_pairs(out, p, "sc", w->sc);
  print_pairs(out, p, "sync_bar", w->bar);
  while (out->n > at && out->s[out->n - 1] == ' ') out->s[--out->n] = '\0';
  lc_buf_putc(out, '\n');
  rel_free(rf);
  rel_free(co);
}

/* A line of a let's edge is printed once: "x -A-> y = x -B-> y = <chain>"
 * when A's chain is one edge of the let B, then B's line with it. */
static void print_lines(lc_buf *out, const lx_program *p, const lc_violation *v) {
  bool *done = lc_xcalloc(v->nlines + 1, sizeof(bool));
  LC_VEC(int) todo = {0};
  for (size_t i = v->nedges; i-- > 0;)
    if (v->edges[i].line >= 0) lc_vec_push(&todo, v->edges[i].line);
  while (todo.n) {
    int k = todo.v[--todo.n];
    if (done[k]) continue;
    done[k] = true;
    const lc_deriv *l = &v->lines[k];
    lc_buf_puts(out, "        ");
    lc_edge self = {l->from, l->to, l->rel, false, NULL, k};
    print_edge(out, p, &self, true);
    while (l->nsteps == 1 && l->steps[0].line >= 0 && !l->steps[0].inverse && !done[l->steps[0].line]) {
      lc_buf_puts(out, " = ");
      print_edge(out, p, &l->steps[0], true);
      done[l->steps[0].line] = true;
      l = &v->lines[l->steps[0].line];
    }
    lc_buf_puts(out, " = ");
    print_chain(out, p, l->steps, l->nsteps);
    lc_buf_putc(out, '\n');
    for (size_t i = l->nsteps; i-- > 0;)
      if (l->steps[i].line >= 0 && !done[l->steps[i].line]) lc_vec_push(&todo, l->steps[i].line);
  }
  lc_vec_free(&todo);
  free(done);
}

/* An empty check's pair of a relation the model does not name, e.g.
 * `(W * W) & loc`: two writes to one location. */
static bool static_pair(const lc_violation *v) {
  return v->kind == CAT_CHECK_EMPTY && v->nedges == 1 && v->edges[0].line < 0 && unnamed(v->edges[0].rel);
}

/* "cycle a -hb-> h -eco-> a" (without `cycle`: the headline's), "pair
 * c, d: c -fr-> b -co-> d" or "pair b, e in (FSC * FSC) & ms, not in sc |
 * sc^-1". */
static void print_top(lc_buf *out, const lx_program *p, const lc_violation *v, bool cycle_word) {
  if (v->kind == CAT_CHECK_EMPTY) {
    lc_buf_puts(out, "pair ");
    report_event_name(out, p, v->a);
    lc_buf_puts(out, ", ");
    report_event_name(out, p, v->b);
    if (static_pair(v)) {
      lc_buf_printf(out, " in %s", v->edges[0].rel);
    } else {
      lc_buf_puts(out, ": ");
      print_edges(out, p, v);
    }
  } else {
    if (cycle_word) lc_buf_puts(out, "cycle ");
    print_edges(out, p, v);
  }
  if (v->unless) lc_buf_printf(out, ", not in %s", v->unless);
}

static void print_violation(lc_buf *out, const lx_program *p, const lc_violation *v) {
  static const char *const kinds[] = {"acyclic", "irreflexive", "empty"};
  lc_buf_puts(out, "      ");
  print_top(out, p, v, true);
  if (v->expr) lc_buf_printf(out, "  (%s %s)", kinds[v->kind], v->expr);
  lc_buf_putc(out, '\n');
  print_lines(out, p, v);
}

static void print_reason_names(lc_buf *out, const lc_reason *rs) {
  for (size_t k = 0; k < rs->n; k++) lc_buf_printf(out, "%s%s", k ? " + " : "", rs->why[k].v.name);
}

static void print_forbidden(lc_buf *out, const lx_program *p, const lc_explanation *e) {
  lc_buf_puts(out, "  Forbidden: ruled out by ");
  for (size_t i = 0; i < e->nreasons; i++) {
    if (i) lc_buf_puts(out, ", or by ");
    print_reason_names(out, &e->reasons[i]);
  }
  lc_buf_putc(out, '\n');
  for (size_t i = 0; i < e->nreasons; i++)
    for (size_t k = 0; k < e->reasons[i].n; k++) {
      const lc_why *y = &e->reasons[i].why[k];
      lc_buf_printf(out, "  %s fails in this execution giving the state", y->v.name);
      if (e->reasons[i].n > 1) {
        lc_buf_puts(out, " (it passes ");
        for (size_t j = 0, c = 0; j < e->reasons[i].n; j++)
          if (j != k) lc_buf_printf(out, "%s%s", c++ ? ", " : "", e->reasons[i].why[j].v.name);
        lc_buf_putc(out, ')');
      }
      lc_buf_puts(out, ":\n");
      print_execution(out, p, y->w, "      ");
      print_violation(out, p, &y->v);
    }
}

static void print_explanation(lc_buf *out, const lx_program *p, const lc_explanation *e) {
  lc_buf_puts(out, "Why ");
  lc_state_print(out, p, &e->state);
  lc_buf_putc(out, '\n');
  switch (e->kind) {
  case LC_EXPLAIN_ALLOWED:
    lc_buf_puts(out, "  Allowed: this execution gives it\n");
    print_execution(out, p, e->witness, "      ");
    break;
  case LC_EXPLAIN_FORBIDDEN: print_forbidden(out, p, e); break;
  case LC_EXPLAIN_NO_CANDIDATE:
    lc_buf_puts(out, "  Forbidden: no candidate execution gives it, whatever the model\n");
    break;
  case LC_EXPLAIN_ERROR: lc_buf_printf(out, "  No explanation: %s\n", e->message); break;
  case LC_EXPLAIN_UNFINISHED: lc_buf_printf(out, "  Never reached: %s\n", e->message); break;
  }
}

static void print_state_of(lc_buf *out, const lx_program *p, const lc_witness *w) {
  for (size_t k = 0; k < p->nshown; k++) {
    lc_buf_printf(out, "%s%s=", k ? " " : "", p->obs[k].label);
    lx_print_obs(out, p, k, w->obs[k]);
    lc_buf_putc(out, ';');
  }
}

static void print_race(lc_buf *out, const lx_program *p, const lc_race *r) {
  lc_buf_printf(out, "Race %s: ", r->flag);
  report_event_name(out, p, r->a);
  lc_buf_puts(out, " = ");
  report_event(out, p, r->a);
  lc_buf_puts(out, " and ");
  report_event_name(out, p, r->b);
  lc_buf_puts(out, " = ");
  report_event(out, p, r->b);
  lc_buf_putc(out, '\n');
  if (!r->w) {
    lc_buf_printf(out, "  No execution: %s\n", r->message ? r->message : "none found");
    return;
  }
  lc_buf_puts(out, "  in this allowed execution, final state ");
  print_state_of(out, p, r->w);
  lc_buf_putc(out, '\n');
  print_execution(out, p, r->w, "      ");
}

void report_explain_text(lc_buf *out, const lc_explain_result *x) {
  assert(out && x && x->prog);
  for (size_t i = 0; i < x->n; i++) print_explanation(out, x->prog, &x->ex[i]);
  for (size_t i = 0; i < x->nraces; i++) print_race(out, x->prog, &x->races[i]);
}

void report_explain_headline(lc_buf *out, const lc_explain_result *x) {
  assert(out && x && x->prog);
  for (size_t i = 0; i < x->n; i++) {
    const lc_explanation *e = &x->ex[i];
    if (e->kind == LC_EXPLAIN_NO_CANDIDATE) {
      lc_buf_puts(out, "no candidate execution gives it");
      return;
    }
    if (e->kind == LC_EXPLAIN_UNFINISHED) {
      lc_buf_puts(out, "no execution finishes");
      return;
    }
    if (e->kind != LC_EXPLAIN_FORBIDDEN || !e->nreasons) continue;
    lc_buf_puts(out, "ruled out by ");
    const lc_reason *rs = &e->reasons[0];
    print_reason_names(out, rs);
    /* the first cycle (or pair of named relations) of the set rather than
     * two writes a well-formedness check finds unordered */
    size_t k = 0;
    while (k + 1 < rs->n && static_pair(&rs->why[k].v)) k++;
    lc_buf_puts(out, " (");
    if (rs->n > 1) lc_buf_printf(out, "%s: ", rs->why[k].v.name);
    print_top(out, x->prog, &rs->why[k].v, false);
    lc_buf_putc(out, ')');
    return;
  }
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static json_t *pairs_json(const rel_rel *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->n; i++)
    for (size_t j = 0; j < r->n; j++)
      if (rel_has(r, i, j)) json_array_append_new(a, json_pack("[ii]", (int)i, (int)j));
  return a;
}

static json_t *execution_json(const lx_program *p, const lc_witness *w) {
  json_t *o = json_object(), *evs = json_array(), *state = json_object();
  for (size_t ev = 0; ev < p->nevents; ev++) {
    if (!lc_witness_runs(p, w, (int)ev)) continue;
    lc_buf name, eff, ins;
    lc_buf_init(&name), lc_buf_init(&eff), lc_buf_init(&ins);
    report_event_name(&name, p, (int)ev);
    report_event_effect(&eff, p, w, (int)ev);
    report_event_instr(&ins, p, (int)ev);
    int th = p->events[ev].thread;
    json_array_append_new(evs, json_pack("{s:i,s:s,s:i,s:s,s:s}", "id", (int)ev, "name", name.s, "thread",
                                         th < 0 ? -1 : p->threads[th].id, "effect", eff.s, "instruction", ins.s));
    lc_buf_fini(&name), lc_buf_fini(&eff), lc_buf_fini(&ins);
  }
  rel_rel *base[LC_NBASE];
  lc_witness_base(p, w, base);
  json_object_set_new(o, "events", evs);
  for (size_t i = 0; i < LC_NBASE; i++)
    if (i >= 1 && i <= 6 && i != 4) json_object_set_new(o, lc_base_names[i], pairs_json(base[i]));
  for (size_t i = 0; i < LC_NBASE; i++) rel_free(base[i]);
  for (size_t k = 0; k < p->nshown; k++) {
    lc_buf b;
    lc_buf_init(&b);
    lx_print_obs(&b, p, k, w->obs[k]);
    json_object_set_new(state, p->obs[k].label, json_string(b.s));
    lc_buf_fini(&b);
  }
  json_object_set_new(o, "state", state);
  return o;
}

static json_t *edges_json(const lc_edge *e, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) {
    json_t *o = json_pack("{s:i,s:i,s:s}", "from", e[i].from, "to", e[i].to, "relation", e[i].rel);
    if (e[i].inverse) json_object_set_new(o, "inverse", json_true());
    if (e[i].base && strcmp(e[i].base, e[i].rel) != 0) json_object_set_new(o, "builtin", json_string(e[i].base));
    json_array_append_new(a, o);
  }
  return a;
}

static json_t *violation_json(const lc_violation *v) {
  static const char *const kinds[] = {"acyclic", "irreflexive", "empty"};
  json_t *o = json_pack("{s:s,s:s,s:o}", "check", v->name, "kind", kinds[v->kind], "edges",
                        edges_json(v->edges, v->nedges));
  if (v->expr) json_object_set_new(o, "expression", json_string(v->expr));
  if (v->unless) json_object_set_new(o, "not_in", json_string(v->unless));
  json_t *lines = json_array();
  for (size_t i = 0; i < v->nlines; i++) {
    const lc_deriv *l = &v->lines[i];
    json_array_append_new(lines, json_pack("{s:i,s:i,s:s,s:o}", "from", l->from, "to", l->to, "relation", l->rel,
                                           "steps", edges_json(l->steps, l->nsteps)));
  }
  json_object_set_new(o, "derivations", lines);
  return o;
}

static json_t *explanation_json(const lx_program *p, const lc_explanation *e) {
  static const char *const kinds[] = {"allowed", "forbidden", "no-candidate", "error", "unfinished"};
  lc_buf b;
  lc_buf_init(&b);
  lc_state_print(&b, p, &e->state);
  json_t *o = json_pack("{s:s,s:s}", "state", b.s, "verdict", kinds[e->kind]);
  lc_buf_fini(&b);
  if (e->message) json_object_set_new(o, "message", json_string(e->message));
  if (e->witness) json_object_set_new(o, "execution", execution_json(p, e->witness));
  if (e->kind != LC_EXPLAIN_FORBIDDEN) return o;
  json_t *reasons = json_array();
  for (size_t i = 0; i < e->nreasons; i++) {
    json_t *names = json_array(), *why = json_array();
    for (size_t k = 0; k < e->reasons[i].n; k++) {
      const lc_why *y = &e->reasons[i].why[k];
      json_array_append_new(names, json_string(y->v.name));
      json_array_append_new(why, json_pack("{s:o,s:o}", "violation", violation_json(&y->v), "execution",
                                           execution_json(p, y->w)));
    }
    json_array_append_new(reasons, json_pack("{s:o,s:o}", "checks", names, "failures", why));
  }
  json_object_set_new(o, "reasons", reasons);
  return o;
}

json_t *report_explain_json(const lc_explain_result *x) {
  assert(x && x->prog);
  json_t *o = json_object(), *ex = json_array(), *races = json_array();
  for (size_t i = 0; i < x->n; i++) json_array_append_new(ex, explanation_json(x->prog, &x->ex[i]));
  for (size_t i = 0; i < x->nraces; i++) {
    const lc_race *r = &x->races[i];
    json_t *ro = json_pack("{s:s,s:i,s:i}", "flag", r->flag, "a", r->a, "b", r->b);
    if (r->w) json_object_set_new(ro, "execution", execution_json(x->prog, r->w));
    else json_object_set_new(ro, "message", json_string(r->message ? r->message : ""));
    json_array_append_new(races, ro);
  }
  json_object_set_new(o, "engine", json_string(x->engine));
  json_object_set_new(o, "states", ex);
  json_object_set_new(o, "races", races);
  return o;
}
