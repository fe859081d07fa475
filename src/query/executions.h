/* executions.h - litmus-check --show: every allowed execution of a test,
 * or of one of its states, with the model's named relations in each, as
 * herd7's -show draws them.  The explicit engine lists them
 * (enum_each_execution); reports print and draw them (report/show.h).
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_EXECUTIONS_H
#define LC_EXECUTIONS_H

#include "cat/cat.h"
#include "exec/exec.h"
#include "rel.h"
#include "witness.h"

typedef struct lc_shown {
  lc_witness *w;
  rel_rel **rels;           /* per relation of the result: its pairs in w (event ids) */
} lc_shown;

typedef struct lc_show_result {
  const lx_program *prog;   /* borrowed */
  const char *model;        /* borrowed from the model */
  size_t count;             /* executions found giving the state */
  size_t count_cap;         /* counting stops there: max(limit, LC_SHOW_COUNT_CAP) */
  bool capped;              /* ... and it did: count is a lower bound */
  lc_shown *ex;             /* the first `limit` of them */
  size_t n, limit;
  size_t nrels;
  const char **rel_names;   /* borrowed from the model */
  bool rels_default;        /* the relations the model's checks name (no --show-rel) */
  bool incomplete;          /* values out of thin air may have been missed */
  bool stopped;             /* the time limit ended the search: count is a lower bound */
  char *message;            /* why it stopped */
  bool has_state;
  lc_state state;           /* the state asked for (has_state) */
} lc_show_result;

/* Counting goes on past the executions kept up to this many (SB with
 * fence.sc in 7 threads has 65,562 executions, 11 s of CPU): beyond, the
 * count is a lower bound. */
enum { LC_SHOW_COUNT_CAP = 10000 };

/* The allowed executions of p under m that give `state` (NULL: all),
 * the first `limit` kept with the named relations `rels` (a comma list;
 * "all": every named relation; NULL: those the checks name themselves).
 * Returns NULL with *msg when a relation named is not the model's. */
lc_show_result *lc_show(const lx_program *p, const cat_model *m, const lc_state *state, size_t limit,
                        const char *rels, double timeout, char **msg);
/* The same, of the executions whose final state makes prop (the test's
 * condition or filter; NULL: any) `holds` (herd7's -show prop and neg). */
lc_show_result *lc_show_where(const lx_program *p, const cat_model *m, const lc_state *state, const lt_prop *prop,
                              bool holds, size_t limit, const char *rels, double timeout, char **msg);
void lc_show_free(lc_show_result *s);

#endif
