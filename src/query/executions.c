/* executions.c - every allowed execution of a test, or of one of its
 * states, with the model's named relations (litmus-check --show, like
 * herd7's -show).
 * SPDX-License-Identifier: MIT
 *
 * The explicit engine lists them (enum_each_execution): every one is
 * counted, the first `limit` are kept, and the model is evaluated again
 * on each kept one for the relations shown.  By default those are the
 * relations the model's checks name themselves (cause, po_loc, ... in the
 * PTX models; hb, psc, ... in cuda-cpp): what the axioms are stated over.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum.h"
#include "executions.h"

typedef struct collect {
  lc_show_result *s;
  const lt_prop *prop;      /* NULL, or only executions where it is `holds` */
  bool holds;
} collect;

static bool keep(void *ctx, const lc_witness *w) {
  collect *c = ctx;
  lc_show_result *s = c->s;
  if (c->prop && lx_prop_eval(s->prog, c->prop, w->obs) != c->holds) return true;
  if (s->n < s->limit) {
    s->ex = lc_xrealloc(s->ex, (s->n + 1) * sizeof *s->ex);
    s->ex[s->n].w = lc_witness_copy(s->prog, w);
    s->ex[s->n].rels = NULL;
    s->n++;
  }
  s->count++;
  if (s->count < s->count_cap) return true;
  s->capped = true;
  return false;
}

/* The value ids of the relations asked for, or -1 with *msg naming one
 * the model does not define. */
static int pick_relations(const cat_model *m, const char *rels, size_t **vals, size_t *n, char **msg) {
  if (!rels || !strcmp(rels, "all")) {
    *n = cat_model_relations(m, !rels, vals);
    return 0;
  }
  *vals = lc_xcalloc(strlen(rels) + 1, sizeof(size_t));
  *n = 0;
  for (const char *q = rels; *q;) {
    size_t len = strcspn(q, ", ");
    if (!len) {
      q++;
      continue;
    }
    char *name = lc_xstrndup(q, len);
    q += len;
    bool found = cat_model_find_relation(m, name, &(*vals)[*n]);
    if (!found) {
      lc_buf b;
      lc_buf_init(&b);
      lc_buf_printf(&b, "the model %s defines no relation '%s'", cat_model_name(m), name);
      *msg = lc_buf_take(&b);
      lc_buf_fini(&b);
      free(name);
      free(*vals);
      *vals = NULL;
      return -1;
    }
    free(name);
    (*n)++;
  }
  return 0;
}

lc_show_result *lc_show(const lx_program *p, const cat_model *m, const lc_state *state, size_t limit,
                        const char *rels, double timeout, char **msg) {
  return lc_show_where(p, m, state, NULL, false, limit, rels, timeout, msg);
}

lc_show_result *lc_show_where(const lx_program *p, const cat_model *m, const lc_state *state, const lt_prop *prop,
                              bool holds, size_t limit, const char *rels, double timeout, char **msg) {
  assert(p && m && msg);
  size_t *vals = NULL, nvals = 0;
  if (pick_relations(m, rels, &vals, &nvals, msg) < 0) return NULL;
  lc_show_result *s = lc_xcalloc(1, sizeof *s);
  s->prog = p;
  s->model = cat_model_name(m);
  s->limit = limit;
  s->count_cap = limit > LC_SHOW_COUNT_CAP ? limit : LC_SHOW_COUNT_CAP;
  s->rels_default = !rels;
  s->nrels = nvals;
  s->rel_names = lc_xcalloc(nvals + 1, sizeof(char *));
  for (size_t i = 0; i < nvals; i++) s->rel_names[i] = cat_model_value_name(m, vals[i]);
  if (state) {
    s->has_state = true;
    lc_state_copy(state, &s->state);
  }
  enum_options o = {timeout, false, false, false};
  collect c = {s, prop, holds};
  char *why = NULL;
  if (enum_each_execution(p, m, &o, state, keep, &c, &s->incomplete, &why) < 0) {
    s->stopped = true;
    s->message = why;
  }
  for (size_t k = 0; k < s->n; k++) {
    s->ex[k].rels = lc_xcalloc(nvals + 1, sizeof(rel_rel *));
    char *err = NULL;
    if (enum_eval_relations(p, m, s->ex[k].w, vals, nvals, s->ex[k].rels, &err) < 0) {
      /* the engine's own execution: its model evaluates (enum_eval_witness) */
      free(err);
      for (size_t i = 0; i < nvals; i++) s->ex[k].rels[i] = rel_new(p->nevents);
    }
  }
  free(vals);
  return s;
}

void lc_show_free(lc_show_result *s) {
  if (!s) return;
  for (size_t k = 0; k < s->n; k++) {
    lc_witness_free(s->ex[k].w);
    for (size_t i = 0; s->ex[k].rels && i < s->nrels; i++) rel_free(s->ex[k].rels[i]);
    free(s->ex[k].rels);
  }
  free(s->ex);
  free(s->rel_names);
  free(s->message);
  if (s->has_state) lc_state_fini(&s->state);
  free(s);
}
