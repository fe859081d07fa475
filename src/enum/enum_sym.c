/* enum_sym.c - symmetry between identical threads: twins in one CTA.
 * SPDX-License-Identifier: MIT
 *
 * Two threads are twins when they run the same code (cell by cell, as
 * printed), start with the same registers, sit in the same CTA, cluster
 * and GPU, and lowered to the same paths.  Swapping them is then an
 * automorphism of everything a model sees: the events of one map to
 * those of the other (path by path, position by position), the scope tree
 * stays, and the locations are the same.  So a frame whose paths are a
 * permutation of another's gives the permuted states and racy pairs, and
 * only frames whose twins take their paths in ascending order need to be
 * searched, each state and pair found then being added with its images
 * (enum_search.c).  A class of k twins divides the frames by up to k!.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"
#include "litmus/ast.h"

/* Same code and registers; in one CTA too unless `other_cta`, where the
 * two must be in CTAs of one GPU and of one cluster, or of none written. */
static bool same_code(const lt_test *t, size_t a, size_t b, bool other_cta) {
  const lt_thread *x = &t->threads[a], *y = &t->threads[b];
  if (x->gpu != y->gpu || x->ncells != y->ncells || x->cluster != y->cluster) return false;
  if (other_cta ? x->cta == y->cta : x->cta != y->cta) return false;
  bool same = true;
  for (size_t i = 0; i < x->ncells && same; i++) {
    const lt_cell *cx = &x->cells[i], *cy = &y->cells[i];
    if (!cx->label != !cy->label || (cx->label && strcmp(cx->label, cy->label) != 0) || !cx->instr != !cy->instr)
      return false;
    if (!cx->instr) continue;
    lc_buf bx, by;
    lc_buf_init(&bx);
    lc_buf_init(&by);
    lt_print_instr(&bx, cx->instr);
    lt_print_instr(&by, cy->instr);
    same = bx.n == by.n && (!bx.n || memcmp(bx.s, by.s, bx.n) == 0);
    lc_buf_fini(&bx);
    lc_buf_fini(&by);
  }
  /* registers given values in the init block: the same ones, alike */
  for (size_t i = 0; i < t->ninits && same; i++) {
    const lt_init *in = &t->inits[i];
    if (in->kind != LT_INIT_REG || (in->thread != x->id && in->thread != y->id)) continue;
    int other = in->thread == x->id ? y->id : x->id;
    bool found = false;
    for (size_t j = 0; j < t->ninits && !found; j++) {
      const lt_init *o = &t->inits[j];
      found = o->kind == LT_INIT_REG && o->thread == other && o->reg == in->reg && o->value == in->value &&
              !o->value_loc == !in->value_loc && (!o->value_loc || strcmp(o->value_loc, in->value_loc) == 0);
    }
    same = found;
  }
  return same;
}

/* The event and observable maps of swapping threads a and b; false when
 * their lowering differs after all. */
static bool swap_maps(const lx_program *p, size_t a, size_t b, int *ev, int *obs) {
  const lx_thread *x = &p->threads[a], *y = &p->threads[b];
  if (x->npaths != y->npaths || x->nregs != y->nregs || memcmp(x->regs, y->regs, x->nregs * sizeof(int)) != 0)
    return false;
  for (size_t e = 0; e < p->nevents; e++) ev[e] = -1;
  for (size_t k = 0; k < x->npaths; k++) {
    const lx_path *px = &p->paths[x->paths[k]], *py = &p->paths[y->paths[k]];
    if (px->nevents != py->nevents || px->cut != py->cut || px->ub != py->ub) return false;
    for (size_t i = 0; i < px->nevents; i++) {
      int ea = px->events[i], eb = py->events[i];
      if (p->events[ea].kind != p->events[eb].kind || p->events[ea].ploc != p->events[eb].ploc) return false;
      if ((ev[ea] >= 0 && ev[ea] != eb) || (ev[eb] >= 0 && ev[eb] != ea)) return false;
      ev[ea] = eb;
      ev[eb] = ea;
    }
  }
  for (size_t e = 0; e < p->nevents; e++)
    if (ev[e] < 0) ev[e] = (int)e;
  for (size_t o = 0; o < p->nobs; o++) {
    const lx_obs *ob = &p->obs[o];
    obs[o] = (int)o;
    if (ob->kind != LX_OBS_REG || ((size_t)ob->thread != a && (size_t)ob->thread != b)) continue;
    int want = (size_t)ob->thread == a ? (int)b : (int)a;
    obs[o] = -1;
    for (size_t q = 0; q < p->nobs && obs[o] < 0; q++)
      if (p->obs[q].kind == LX_OBS_REG && p->obs[q].thread == want && p->obs[q].slot == ob->slot &&
          p->obs[q].shown == ob->shown && (q < p->nshown) == (o < p->nshown))
        obs[o] = (int)q;
    if (obs[o] < 0) return false;
  }
  return true;
}

static void add_gen(enum_sym *s, const lx_program *p, const int *ev, const int *obs) {
  s->gens = realloc(s->gens, (s->ngens + 1) * sizeof *s->gens);
  if (!s->gens) abort();
  enum_sym_gen *g = &s->gens[s->ngens++];
  g->ev = lc_xcalloc(p->nevents + 1, sizeof(int));
  g->obs = lc_xcalloc(p->nobs + 1, sizeof(int));
  memcpy(g->ev, ev, p->nevents * sizeof(int));
  memcpy(g->obs, obs, p->nobs * sizeof(int));
}

/* The threads of CTA c, in column order; their number. */
static size_t cta_threads(const lt_test *t, int c, int gpu, size_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < t->nthreads; i++)
    if (t->threads[i].cta == c && t->threads[i].gpu == gpu) out[n++] = i;
  return n;
}

/* Twin CTAs: two CTAs whose threads, taken in column order, are twins one
 * for one (same code, one GPU, one cluster or none written), swapped
 * whole.  Each CTA is paired with the twin CTA before it (cta_before). */
static void cta_twins(enum_sym *s, const lx_program *p, int *ev, int *obs) {
  const lt_test *t = p->test;
  size_t nt = p->nthreads;
  size_t *ta = lc_xcalloc(nt, sizeof(size_t)), *tb = lc_xcalloc(nt, sizeof(size_t));
  int *total_ev = lc_xcalloc(p->nevents + 1, sizeof(int)), *total_obs = lc_xcalloc(p->nobs + 1, sizeof(int));
  bool *done = lc_xcalloc(nt, sizeof(bool));   /* the first thread of a CTA already paired */
  s->cta_before = lc_xcalloc(nt, sizeof(int));
  for (size_t i = 0; i < nt; i++) s->cta_before[i] = -1;
  for (size_t i = 0; i < nt; i++) {
    if (done[i]) continue;
    size_t na = cta_threads(t, t->threads[i].cta, t->threads[i].gpu, ta), last = i;
    if (ta[0] != i) continue;   /* not the CTA's first thread */
    for (size_t j = i + 1; j < nt; j++) {
      if (done[j] || t->threads[j].cta == t->threads[last].cta) continue;
      size_t nb = cta_threads(t, t->threads[j].cta, t->threads[j].gpu, tb);
      if (tb[0] != j || nb != na) continue;
      bool twins = true;
      for (size_t e = 0; e < p->nevents; e++) total_ev[e] = (int)e;
      for (size_t o = 0; o < p->nobs; o++) total_obs[o] = (int)o;
      for (size_t k = 0; k < na && twins; k++) {
        twins = same_code(t, ta[k], tb[k], true) && swap_maps(p, ta[k], tb[k], ev, obs);
        for (size_t e = 0; twins && e < p->nevents; e++)
          if (ev[e] != (int)e) total_ev[e] = ev[e];
        for (size_t o = 0; twins && o < p->nobs; o++)
          if (obs[o] != (int)o) total_obs[o] = obs[o];
      }
      if (!twins) continue;
      add_gen(s, p, total_ev, total_obs);
      s->cta_before[j] = (int)last;
      done[j] = true;
      last = j;
      memcpy(ta, tb, nb * sizeof(size_t));
    }
  }
  free(ta);
  free(tb);
  free(total_ev);
  free(total_obs);
  free(done);
}

enum_sym *enum_sym_new(const lx_program *p) {
  const lt_test *t = p->test;
  if (!t || t->cpp || t->nthreads != p->nthreads || p->nthreads < 2) return NULL;
  enum_sym *s = lc_xcalloc(1, sizeof *s);
  s->before = lc_xcalloc(p->nthreads, sizeof(int));
  for (size_t a = 0; a < p->nthreads; a++) s->before[a] = -1;
  bool *placed = lc_xcalloc(p->nthreads, sizeof(bool));
  int *ev = lc_xcalloc(p->nevents + 1, sizeof(int));
  int *obs = lc_xcalloc(p->nobs + 1, sizeof(int));
  /* each thread is swapped with the next twin of its class */
  for (size_t a = 0; a < p->nthreads; a++) {
    if (placed[a]) continue;
    size_t last = a;
    for (size_t b = a + 1; b < p->nthreads; b++) {
      if (placed[b] || !same_code(t, last, b, false) || !swap_maps(p, last, b, ev, obs)) continue;
      placed[b] = true;
      add_gen(s, p, ev, obs);
      s->before[b] = (int)last;
      last = b;
    }
  }
  free(placed);
  cta_twins(s, p, ev, obs);
  free(ev);
  free(obs);
  if (!s->ngens) {
    enum_sym_free(s);
    return NULL;
  }
  return s;
}

void enum_sym_free(enum_sym *s) {
  if (!s) return;
  for (size_t i = 0; i < s->ngens; i++) {
    free(s->gens[i].ev);
    free(s->gens[i].obs);
  }
  free(s->gens);
  free(s->before);
  free(s->cta_before);
  free(s);
}

bool enum_sym_canonical(const enum_sym *s, const size_t *k, size_t nthreads, const lx_program *p) {
  for (size_t t = 0; s && t < nthreads; t++)
    if (s->before[t] >= 0 && k[s->before[t]] > k[t]) return false;
  /* twin CTAs: the path positions of the earlier one's threads, in column
   * order, lexicographically at most the later one's */
  for (size_t t = 0; s && s->cta_before && t < nthreads; t++) {
    if (s->cta_before[t] < 0) continue;
    const lt_test *lt = p->test;
    size_t a = (size_t)s->cta_before[t];
    int ca = lt->threads[a].cta, cb = lt->threads[t].cta, g = lt->threads[t].gpu;
    size_t i = a, j = t;
    for (;;) {
      if (k[i] != k[j]) {
        if (k[i] > k[j]) return false;
        break;
      }
      do i++; while (i < nthreads && !(lt->threads[i].cta == ca && lt->threads[i].gpu == g));
      do j++; while (j < nthreads && !(lt->threads[j].cta == cb && lt->threads[j].gpu == g));
      if (i >= nthreads || j >= nthreads) break;
    }
  }
  return true;
}

size_t enum_sym_image(const enum_sym *s, size_t g, const lx_program *p, size_t pi) {
  assert(s && g < s->ngens && pi < p->npaths);
  const lx_path *c = &p->paths[pi];
  if (!c->nevents) return pi;
  int e = s->gens[g].ev[c->events[0]];
  int y = p->events[e].thread;
  if (y == c->thread || y < 0) return pi;
  /* twins' paths correspond one for one, in order (swap_maps) */
  const lx_thread *x = &p->threads[c->thread], *ty = &p->threads[y];
  for (size_t k = 0; k < x->npaths && k < ty->npaths; k++)
    if ((size_t)x->paths[k] == pi) return (size_t)ty->paths[k];
  return pi;
}

size_t enum_twins_largest(const lx_program *p) {
  assert(p);
  enum_sym *s = enum_sym_new(p);
  size_t most = 1, nt = p->nthreads;
  size_t *len = lc_xcalloc(nt + 1, sizeof(size_t));
  for (int pass = 0; s && pass < 2; pass++) {
    const int *before = pass ? s->cta_before : s->before;
    for (size_t t = 0; before && t < nt; t++) {
      len[t] = before[t] >= 0 ? len[before[t]] + 1 : 1;
      if (len[t] > most) most = len[t];
    }
  }
  free(len);
  enum_sym_free(s);
  return most;
}
