/* enum_sym.c - symmetry between identical threads: twins in one CTA.
 * SPDX-License-Identifier: MIT
 *
 * Two threads are twins when they sit in the same CTA, cluster and GPU
 * and their lowered programs are one up to the renaming of their events:
 * path by path, position by position, every event alike (kind, tags,
 * scope, proxy, location, register, barrier operands, the value written
 * as an expression over the reads, the partner of an rmw), every path's
 * conditions, flags (cut, undefined behaviour, blocked, paused) and
 * observed registers alike, and the swap of their events an automorphism
 * of every static relation of the program (po, dependencies, locations,
 * scopes, exclusivity, issue order).  That is exactly what an engine and a
 * model can see of a thread, so the swap maps each candidate execution to
 * one with the same verdicts, its final state to the state with the two
 * threads' observed registers exchanged, and its racy pairs to their
 * images (sym_automorphism checks it whole).  A PTX test's twins must also
 * have the same code, cell by cell as printed, and the same initial
 * registers; a C++ test's (the CUDA C++ dialect, and a kernel's threads,
 * which differ only by the constants of threadIdx and blockIdx) are
 * compared as lowered, so that two threads whose ids only chose the same
 * code, or fed registers nobody observes, are twins, and two whose ids
 * reach an address, a value written or an observed register are not.
 *
 * So a frame whose paths are a permutation of another's gives the
 * permuted states and racy pairs, and only frames whose twins take their
 * paths in ascending order need to be searched, each state and pair
 * found then being added with its images (enum_search.c).  A class of k
 * twins divides the frames by up to k!.  Twin CTAs (every thread of one
 * the twin of the one of the other at the same rank, in one GPU and one
 * cluster or none written) are swapped whole: block 0 and block 1 of a
 * kernel running the same code on the same locations.  Locations are
 * never renamed: two CTAs or threads that touch different locations
 * (their own __shared__ copies, data[blockIdx.x]) are no twins.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"
#include "litmus/ast.h"

/* Placed alike: in one CTA unless `other_cta`, where the two must be in
 * CTAs of one GPU and of one cluster, or of none written; and for a PTX
 * test, the same code and initial registers. */
static bool same_code(const lx_program *p, size_t a, size_t b, bool other_cta) {
  const lt_test *t = p->code;
  const lt_thread *x = &t->threads[a], *y = &t->threads[b];
  if (x->gpu != y->gpu || x->cluster != y->cluster) return false;
  if (other_cta ? x->cta == y->cta : x->cta != y->cta) return false;
  if (p->test->cpp) return true;   /* compared as lowered only (swap_maps) */
  if (x->ncells != y->ncells) return false;
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

/* Are x and y one expression once the reads of x are renamed by ev?  An
 * explicit stack: expressions may be deep (a counter's sum over a loop). */
static bool same_expr_mapped(const lx_expr *x, const lx_expr *y, const int *ev) {
  if (!x || !y) return !x && !y;
  LC_VEC(const lx_expr *) st = {0};
  lc_vec_push(&st, x);
  lc_vec_push(&st, y);
  bool same = true;
  while (same && st.n) {
    const lx_expr *b = st.v[--st.n], *a = st.v[--st.n];
    if (a->kind != b->kind) {
      same = false;
      continue;
    }
    switch (a->kind) {
    case LX_X_CONST: same = a->c == b->c; break;
    case LX_X_READ: same = ev[a->event] == b->event; break;
    case LX_X_BIN:
      same = a->op == b->op;
      lc_vec_push(&st, a->a);
      lc_vec_push(&st, b->a);
      if (a->b || b->b) {
        same &= a->b && b->b;
        if (same) {
          lc_vec_push(&st, a->b);
          lc_vec_push(&st, b->b);
        }
      }
      break;
    }
  }
  lc_vec_free(&st);
  return same;
}

static bool same_str(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* Events e and ev[e] alike in all an engine reads of one (enum_sym.c's
 * head), their operands renamed by ev.  The register a read fills is not
 * compared: what a register ends with is the path's (same_path compares
 * the observed ones), and threads whose ids picked the same code in
 * different branches number their registers differently. */
static bool same_event(const lx_program *p, const lx_event *x, const lx_event *y, const int *ev) {
  if (x->kind != y->kind || x->tags != y->tags || x->scope != y->scope || x->proxy != y->proxy ||
      x->vloc != y->vloc || x->ploc != y->ploc || x->va != y->va || x->pos != y->pos ||
      x->bar_n != y->bar_n || x->bar_k != y->bar_k || x->bar_blocked != y->bar_blocked ||
      x->bar_cluster != y->bar_cluster || x->aop != y->aop || x->done_pos != y->done_pos)
    return false;
  if ((x->rmw < 0) != (y->rmw < 0) || (x->rmw >= 0 && ev[x->rmw] != y->rmw)) return false;
  (void)p;
  return same_expr_mapped(x->value, y->value, ev) && same_expr_mapped(x->bar_id, y->bar_id, ev) &&
         same_expr_mapped(x->bar_count, y->bar_count, ev);
}

/* Paths px and py alike, their events renamed by ev; `slots` marks the
 * register slots some observable shows. */
static bool same_path(const lx_path *px, const lx_path *py, const int *ev, const bool *slots, size_t nregs) {
  if (px->nconds != py->nconds || px->cut != py->cut || !same_str(px->ub, py->ub) || px->blocked != py->blocked ||
      px->paused != py->paused || px->iter_pos != py->iter_pos)
    return false;
  for (size_t i = 0; i < px->nconds; i++) {
    const lx_cond *a = &px->conds[i], *b = &py->conds[i];
    if (a->cmp != b->cmp || a->branch_pos != b->branch_pos || !same_expr_mapped(a->a, b->a, ev) ||
        !same_expr_mapped(a->b, b->b, ev))
      return false;
  }
  for (size_t r = 0; r < nregs; r++)
    if (slots[r] && !same_expr_mapped(px->regs[r], py->regs[r], ev)) return false;
  return true;
}

/* Is the permutation ev of the events an automorphism of the program:
 * moved events and paths alike (same_event, same_path), and every static
 * relation kept?  The relations are compared row by row for the moved
 * events only (the others keep their pairs among themselves); a program
 * too large for that (more than SYM_WORK pair tests) gets no symmetry. */
enum { SYM_WORK = 200000000 };
static bool sym_automorphism(const lx_program *p, const int *ev) {
  const rel_rel *rels[] = {p->po, p->intra, p->ext, p->exclusive, p->loc, p->vloc, p->rmw, p->addr, p->data,
                           p->ctrl, p->scta, p->scluster, p->sgpu, p->incl, p->sr, p->id, p->iss};
  size_t nrels = LC_ARRAY_LEN(rels), moved = 0;
  for (size_t e = 0; e < p->nevents; e++) {
    if (ev[e] == (int)e) continue;
    if (ev[e] < 0 || ev[ev[e]] != (int)e) return false;   /* a swap of events, or nothing */
    if (!same_event(p, &p->events[e], &p->events[ev[e]], ev)) return false;
    moved++;
  }
  if ((double)moved * (double)p->nevents * (double)nrels * 2 > SYM_WORK) return false;
  for (size_t e = 0; e < p->nevents; e++) {
    size_t x = (size_t)ev[e];
    if (x == e) continue;
    for (size_t f = 0; f < p->nevents; f++) {
      size_t y = (size_t)ev[f];
      for (size_t k = 0; k < nrels; k++)
        if (rels[k] && (rel_has(rels[k], e, f) != rel_has(rels[k], x, y) || rel_has(rels[k], f, e) != rel_has(rels[k], y, x)))
          return false;
    }
  }
  return true;
}

/* The event and observable maps of swapping threads a and b; false when
 * their lowering differs after all. */
static bool swap_maps(const lx_program *p, size_t a, size_t b, int *ev, int *obs) {
  const lx_thread *x = &p->threads[a], *y = &p->threads[b];
  if (x->npaths != y->npaths) return false;
  if (!p->test->cpp && (x->nregs != y->nregs || memcmp(x->regs, y->regs, x->nregs * sizeof(int)) != 0)) return false;
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
  /* alike event by event and path by path, reads renamed (the relations
   * are the whole permutation's: sym_automorphism) */
  bool *slots = lc_xcalloc(x->nregs + 1, sizeof(bool));
  bool alike = true;
  for (size_t o = 0; o < p->nobs; o++)
    if (p->obs[o].kind == LX_OBS_REG && (size_t)p->obs[o].thread == a) {
      slots[p->obs[o].slot] = true;
      alike &= (size_t)p->obs[o].slot < y->nregs;   /* else the observables tell them apart */
    }
  for (size_t k = 0; k < x->npaths && alike; k++) {
    const lx_path *px = &p->paths[x->paths[k]], *py = &p->paths[y->paths[k]];
    alike = same_path(px, py, ev, slots, x->nregs);
    for (size_t i = 0; i < px->nevents && alike; i++)
      alike = same_event(p, &p->events[px->events[i]], &p->events[py->events[i]], ev);
  }
  free(slots);
  if (!alike) return false;
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
  g->th = lc_xcalloc(p->nthreads + 1, sizeof(int));
  memcpy(g->ev, ev, p->nevents * sizeof(int));
  memcpy(g->obs, obs, p->nobs * sizeof(int));
  for (size_t t = 0; t < p->nthreads; t++) g->th[t] = (int)t;
  for (size_t e = 0; e < p->nevents; e++)
    if (p->events[e].thread >= 0 && p->events[ev[e]].thread >= 0) g->th[p->events[e].thread] = p->events[ev[e]].thread;
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
  const lt_test *t = p->code;
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
        twins = same_code(p, ta[k], tb[k], true) && swap_maps(p, ta[k], tb[k], ev, obs);
        for (size_t e = 0; twins && e < p->nevents; e++)
          if (ev[e] != (int)e) total_ev[e] = ev[e];
        for (size_t o = 0; twins && o < p->nobs; o++)
          if (obs[o] != (int)o) total_obs[o] = obs[o];
      }
      if (!twins || !sym_automorphism(p, total_ev)) continue;
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
  const lt_test *t = p->code;
  if (!t || !p->test || t->nthreads != p->nthreads || p->nthreads < 2) return NULL;
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
      if (placed[b] || !same_code(p, last, b, false) || !swap_maps(p, last, b, ev, obs) || !sym_automorphism(p, ev))
        continue;
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
    free(s->gens[i].th);
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
    const lt_test *lt = p->code;
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

/* The length of the longest class of twins; with bits, the sum of
 * log2(k!) over the classes too. */
static size_t twin_classes(const lx_program *p, double *bits) {
  enum_sym *s = enum_sym_new(p);
  size_t most = 1, nt = p->nthreads;
  size_t *len = lc_xcalloc(nt + 1, sizeof(size_t));
  *bits = 0;
  for (int pass = 0; s && pass < 2; pass++) {
    const int *before = pass ? s->cta_before : s->before;
    for (size_t t = 0; before && t < nt; t++) {
      len[t] = before[t] >= 0 ? len[before[t]] + 1 : 1;
      if (len[t] > most) most = len[t];
      *bits += log2((double)len[t]);   /* k! = 1 * 2 * ... * k along the chain */
    }
  }
  free(len);
  enum_sym_free(s);
  return most;
}

size_t enum_twins_largest(const lx_program *p) {
  assert(p);
  double bits;
  return twin_classes(p, &bits);
}

double enum_twins_log2(const lx_program *p) {
  assert(p);
  double bits;
  twin_classes(p, &bits);
  return bits;
}

/* The position of path pi among its thread's paths. */
static size_t path_pos(const lx_program *p, int pi) {
  const lx_thread *th = &p->threads[p->paths[pi].thread];
  for (size_t k = 0; k < th->npaths; k++)
    if (th->paths[k] == pi) return k;
  return th->npaths;
}

/* Choosing rf up to symmetry.  Frames are searched up to the swaps of
 * twins (enum_sym_canonical); within a frame, a swap that maps the frame
 * onto itself (twins at the same path position) still maps each choice
 * of rf onto another of the same frame, with the same verdicts and the
 * swapped states.  Order the frame's choices of rf lexicographically,
 * read by read in the search's order, each source by frame index: the
 * least choice of every orbit under the swaps is at most its image under
 * each of them, so a choice greater than one of its images can be left
 * out - the least of its orbit is searched (or cut only where nothing new
 * lies below it: the states and racy pairs found are kept closed under
 * the swaps), and its states bring the whole orbit's.  Comparing with the
 * images of the generating swaps alone, not of the whole group, leaves
 * out fewer choices, never one that is the least.  IRIW's readers, twin
 * by twin: 4^8 choices of rf for eight readers in two classes of four, of
 * which 35^2 are left (each class's sources sorted). */
enum_sym_rf *enum_sym_rf_new(const enum_sym *s, const enum_frame *f) {
  if (!s) return NULL;
  const lx_program *p = f->p;
  size_t *read_of = lc_xcalloc(f->n + 1, sizeof(size_t)), *pos = lc_xcalloc(p->nthreads + 1, sizeof(size_t));
  for (size_t i = 0; i < f->nreads; i++) read_of[f->reads[i]] = i;
  for (size_t t = 0; t < p->nthreads; t++) pos[t] = path_pos(p, f->paths[t]);
  enum_sym_rf *r = lc_xcalloc(1, sizeof *r);
  r->wmap = lc_xcalloc(s->ngens + 1, sizeof(int *));
  r->rmap = lc_xcalloc(s->ngens + 1, sizeof(size_t *));
  for (size_t g = 0; g < s->ngens; g++) {
    const enum_sym_gen *gen = &s->gens[g];
    bool fixes = true;
    for (size_t t = 0; t < p->nthreads && fixes; t++) fixes = pos[t] == pos[gen->th[t]];
    int *wmap = fixes ? lc_xcalloc(f->n + 1, sizeof(int)) : NULL;
    for (size_t i = 0; fixes && i < f->n; i++) {
      wmap[i] = f->idx[gen->ev[f->orig[i]]];
      fixes = wmap[i] >= 0;
    }
    if (!fixes) {
      free(wmap);
      continue;
    }
    size_t *rmap = lc_xcalloc(f->nreads + 1, sizeof(size_t));
    for (size_t i = 0; i < f->nreads; i++) rmap[i] = read_of[wmap[f->reads[i]]];
    r->wmap[r->ngens] = wmap;
    r->rmap[r->ngens++] = rmap;
  }
  free(read_of);
  free(pos);
  if (!r->ngens) {
    enum_sym_rf_free(r);
    return NULL;
  }
  return r;
}

void enum_sym_rf_free(enum_sym_rf *r) {
  if (!r) return;
  for (size_t g = 0; g < r->ngens; g++) {
    free(r->wmap[g]);
    free(r->rmap[g]);
  }
  free(r->wmap);
  free(r->rmap);
  free(r);
}

bool enum_sym_rf_least(const enum_sym_rf *r, const int *rf, const size_t *order, size_t k) {
  for (size_t g = 0; r && g < r->ngens; g++) {
    const int *wmap = r->wmap[g];
    const size_t *rmap = r->rmap[g];
    for (size_t j = 0; j < k; j++) {
      size_t i = order[j];
      int other = rf[rmap[i]];
      if (rf[i] < 0 || other < 0) break;   /* undecided so far */
      int mine = rf[i], image = wmap[other];   /* the image's source for read i */
      if (mine < image) break;
      if (mine > image) return false;
    }
  }
  return true;
}
