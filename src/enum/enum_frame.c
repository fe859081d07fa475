/* enum_frame.c - one combination of paths, renumbered, with its static
 * relations restricted to the events that run.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"

static const char *const static_names[ENUM_NSTATIC] = {
  "id", "po", "int", "ext", "loc", "vloc", "rmw", "addr", "data", "ctrl",
  "scta", "scluster", "sgpu", "incl", "sr", "iss",
};

static const rel_rel *program_static(const lx_program *p, size_t k) {
  const rel_rel *const rels[ENUM_NSTATIC] = {
    p->id, p->po, p->intra, p->ext, p->loc, p->vloc, p->rmw, p->addr, p->data, p->ctrl,
    p->scta, p->scluster, p->sgpu, p->incl, p->sr, p->iss,
  };
  return rels[k];
}

static rel_set *restrict_set(const enum_frame *f, const rel_set *s) {
  rel_set *r = rel_set_new(f->n);
  for (size_t i = 0; i < f->n; i++)
    if (rel_set_has(s, (size_t)f->orig[i])) rel_set_add(r, i);
  return r;
}

static rel_rel *restrict_rel(const enum_frame *f, const rel_rel *x) {
  rel_rel *r = rel_new(f->n);
  for (size_t i = 0; i < f->n; i++)
    for (size_t j = 0; j < f->n; j++)
      if (rel_has(x, (size_t)f->orig[i], (size_t)f->orig[j])) rel_add(r, i, j);
  return r;
}

/* Initial writes, then each chosen path's events in program order. */
static void number_events(enum_frame *f) {
  const lx_program *p = f->p;
  f->orig = lc_xcalloc(p->nevents ? p->nevents : 1, sizeof(int));
  f->idx = lc_xcalloc(p->nevents ? p->nevents : 1, sizeof(int));
  for (size_t i = 0; i < p->nevents; i++) f->idx[i] = -1;
  size_t n = 0;
  for (size_t i = 0; i < p->ninit; i++) f->orig[n++] = (int)i;
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[f->paths[t]];
    f->cut |= path->cut;
    f->ub |= path->ub != NULL;
    for (size_t k = 0; k < path->nevents; k++) f->orig[n++] = path->events[k];
  }
  f->n = n;
  for (size_t i = 0; i < n; i++) f->idx[f->orig[i]] = (int)i;
}

static bool same_ploc_write(const enum_frame *f, size_t w, size_t r) {
  const lx_event *ew = enum_frame_event(f, w), *er = enum_frame_event(f, r);
  return ew->kind == LX_EV_WRITE && ew->ploc == er->ploc && w != r;
}

static void collect_reads(enum_frame *f) {
  f->reads = lc_xcalloc(f->n ? f->n : 1, sizeof(size_t));
  f->cands = lc_xcalloc(f->n ? f->n : 1, sizeof(size_t *));
  f->ncands = lc_xcalloc(f->n ? f->n : 1, sizeof(size_t));
  for (size_t r = 0; r < f->n; r++) {
    if (enum_frame_event(f, r)->kind != LX_EV_READ) continue;
    size_t i = f->nreads++;
    f->reads[i] = r;
    f->cands[i] = lc_xcalloc(f->n, sizeof(size_t));
    for (size_t w = 0; w < f->n; w++)
      if (same_ploc_write(f, w, r)) f->cands[i][f->ncands[i]++] = w;
  }
}

/* Does e read event ev and no other? */
static bool reads_only(const lx_expr *e, int ev, bool *some) {
  switch (e->kind) {
  case LX_X_CONST: return true;
  case LX_X_READ: return (*some = true, e->event == ev);
  case LX_X_BIN: return reads_only(e->a, ev, some) && reads_only(e->b, ev, some);
  }
  return false;
}

static bool constant(const lx_expr *e) {
  bool some = false;
  return reads_only(e, -1, &some) && !some;
}

/* Would reading the value v make a condition of the read's own path that
 * depends on that read alone fail?  Such a source gives no candidate
 * execution whatever the other choices are, so it is no candidate: the
 * search then meets a loop's exit condition when it picks the read, not
 * after every source of the reads before it (a spin loop whose exit no
 * write allows ends its frame at once). */
static bool cond_refutes(const enum_frame *f, int ev, lx_val v, lx_val *scratch) {
  const lx_event *e = &f->p->events[ev];
  const lx_path *path = &f->p->paths[f->paths[e->thread]];
  scratch[ev] = v;
  for (size_t c = 0; c < path->nconds; c++) {
    const lx_cond *k = &path->conds[c];
    bool sa = false, sb = false;
    if (!reads_only(k->a, ev, &sa) || !reads_only(k->b, ev, &sb) || !(sa || sb)) continue;
    if (!lx_cmp_apply(k->cmp, lx_expr_eval(k->a, scratch), lx_expr_eval(k->b, scratch))) return true;
  }
  return false;
}

static void filter_cands(enum_frame *f) {
  lx_val *scratch = lc_xcalloc(f->p->nevents, sizeof(lx_val));
  for (size_t i = 0; i < f->nreads; i++) {
    int ev = f->orig[f->reads[i]];
    size_t kept = 0;
    for (size_t c = 0; c < f->ncands[i]; c++) {
      const lx_expr *x = enum_frame_event(f, f->cands[i][c])->value;
      if (constant(x) && cond_refutes(f, ev, lx_expr_eval(x, scratch), scratch)) continue;
      f->cands[i][kept++] = f->cands[i][c];
    }
    f->ncands[i] = kept;
  }
  free(scratch);
}

/* The domains of co (per location, initial write apart: it comes first)
 * and of the Fence-SC order. */
static void collect_orders(enum_frame *f) {
  f->codom = rel_new(f->n);
  f->iwco = rel_new(f->n);
  f->scdom = rel_new(f->n);
  f->fsc = lc_xcalloc(f->n ? f->n : 1, sizeof(size_t));
  for (size_t a = 0; a < f->n; a++) {
    const lx_event *ea = enum_frame_event(f, a);
    if (lx_has(ea, LX_T_F) && lx_has(ea, LX_T_SC)) f->fsc[f->nfsc++] = a;
    if (ea->kind != LX_EV_WRITE) continue;
    for (size_t b = 0; b < f->n; b++) {
      const lx_event *eb = enum_frame_event(f, b);
      if (a == b || eb->kind != LX_EV_WRITE || eb->ploc != ea->ploc || eb->path < 0) continue;
      if (ea->path < 0) rel_add(f->iwco, a, b);
      else rel_add(f->codom, a, b);
    }
  }
  for (size_t i = 0; i < f->nfsc; i++)
    for (size_t j = 0; j < f->nfsc; j++)
      if (i != j) rel_add(f->scdom, f->fsc[i], f->fsc[j]);
}

enum_frame *enum_frame_new(const lx_program *p, const int *paths) {
  assert(p && paths);
  enum_frame *f = lc_xcalloc(1, sizeof *f);
  f->p = p;
  f->paths = paths;
  number_events(f);
  for (int t = 0; t < LX_NTAGS; t++) f->tags[t] = restrict_set(f, p->tagset[t]);
  f->all = rel_set_full(f->n);
  for (size_t k = 0; k < ENUM_NSTATIC; k++) f->stat[k] = restrict_rel(f, program_static(p, k));
  collect_reads(f);
  filter_cands(f);
  collect_orders(f);
  return f;
}

void enum_frame_free(enum_frame *f) {
  if (!f) return;
  for (int t = 0; t < LX_NTAGS; t++) rel_set_free(f->tags[t]);
  rel_set_free(f->all);
  for (size_t k = 0; k < ENUM_NSTATIC; k++) rel_free(f->stat[k]);
  for (size_t i = 0; i < f->nreads; i++) free(f->cands[i]);
  free(f->cands);
  free(f->ncands);
  free(f->reads);
  free(f->fsc);
  rel_free(f->codom);
  rel_free(f->iwco);
  rel_free(f->scdom);
  free(f->orig);
  free(f->idx);
  free(f);
}

void *enum_frame_static(const enum_frame *f, const char *name, cat_type *type) {
  assert(f && name && type);
  lx_tag tag;
  if (strcmp(name, "_") == 0) {
    *type = CAT_TY_SET;
    return rel_set_copy(f->all);
  }
  if (strcmp(name, "M") == 0) {
    *type = CAT_TY_SET;
    rel_set *s = rel_set_copy(f->tags[LX_T_R]);
    rel_set_union_into(s, f->tags[LX_T_W]);
    return s;
  }
  if (lx_tag_lookup(name, &tag)) {
    *type = CAT_TY_SET;
    return rel_set_copy(f->tags[tag]);
  }
  for (size_t k = 0; k < ENUM_NSTATIC; k++)
    if (strcmp(static_names[k], name) == 0) {
      *type = CAT_TY_REL;
      return rel_copy(f->stat[k]);
    }
  return NULL;
}
