/* gen_cycle.c - the test of a relaxation cycle (gen_cycle.h).
 * SPDX-License-Identifier: MIT
 *
 * Event i of a cycle of n edges is the target of edge i-1 and the source
 * of edge i.  Threads: each external edge ends one, so a test has as many
 * threads as the cycle has external edges, each running its events in
 * cycle order.  Locations: each edge to a different location starts a new
 * one, so the events of a location form one run of the cycle (its "chain";
 * a cycle with no such edge has one location, its chain starting after a
 * program-order edge, so that every communication edge runs forward along
 * it).  The writes of a chain take the values 1, 2, ... in chain order,
 * which is the coherence order the cycle asks for; a read reached by Rf
 * returns its source's value, a read leaving by Fr the value just before
 * its target's (0 for the first write), and a location whose coherence
 * order the cycle speaks of (a Ws edge, an Fr to a later write) ends with
 * its last value.  That conjunction is the condition: its state exists
 * only in executions that have every edge of the cycle.
 *
 * Threads are ordered as diy orders them (gen/normaliser.ml): each thread
 * gets the key of its first and last accesses, W < WW < RR < RW < WR < R,
 * and the rotation with the smallest keys comes first; the family name
 * (MP, SB, ...) is looked up from the keys, as diy does.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_cycle.h"
#include "gen/gen_int.h"

enum { MAX_EDGES = 16, MAX_WRITTEN = 2 * MAX_EDGES };

typedef struct cev {
  char dir;
  int thread, pos;           /* thread in walk order; position in it */
  int loc, value;            /* a write's value: 1, 2, ... along its chain */
  int reg;                   /* a read's register, or -1 */
  int want;                  /* a read's value in the condition, or -1 */
  int stored;                /* a write's value in memory (a fetch-add's sum), else value */
  gen_ann ann;
} cev;

typedef struct layout {
  const gen_edge *e;         /* the cycle's edges, pseudo edges resolved (re) */
  size_t n;
  gen_edge re[MAX_EDGES];
  cev ev[MAX_EDGES];
  int nthreads, nlocs, rot;  /* rot: walk thread rot is the test's P0 */
  int len[MAX_EDGES];        /* per walk thread: its events */
  int tev[MAX_EDGES][MAX_EDGES];  /* per walk thread: its events in program order (a
                                     thread left by a Leave goes on after its Back) */
  bool inner[MAX_EDGES];     /* per walk thread: entered by a Leave (diy leaves it out of names) */
  int writes[MAX_EDGES];     /* per location */
  bool final[MAX_EDGES];     /* per location: the condition names its final value */
  int cta[MAX_EDGES], cluster[MAX_EDGES], gpu[MAX_EDGES];   /* per walk thread */
  int locname[MAX_EDGES];    /* per location: its name's index (x, y, z, ...) */
  bool diy;                  /* names in diy's C spelling (GEN_DIALECT_C) */
  size_t loc_start;          /* the event the locations' chains start at */
} layout;

static int error(char **err, const char *fmt, ...) LC_PRINTF(2, 3);
static int error(char **err, const char *fmt, ...) {
  lc_buf b;
  lc_buf_init(&b);
  va_list ap;
  va_start(ap, fmt);
  lc_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  *err = lc_buf_take(&b);
  lc_buf_fini(&b);
  return -1;
}

static size_t prev(size_t i, size_t n) { return (i + n - 1) % n; }

/* Leave and Back are communication edges (RF, FR or WS) with a thread change. */
static gen_edge_kind com_of(const gen_edge *e) {
  return e->kind == GEN_E_LEAVE || e->kind == GEN_E_BACK ? e->com : e->kind;
}
static bool leave_back(const gen_edge *e) { return e->kind == GEN_E_LEAVE || e->kind == GEN_E_BACK; }

static bool ann_same(const gen_ann *a, const gen_ann *b) {
  return a->sem == b->sem && a->scope == b->scope && a->consume == b->consume;
}

static bool is_po(const gen_edge *e) {
  return e->kind == GEN_E_PO || e->kind == GEN_E_FENCE || e->kind == GEN_E_DP || e->kind == GEN_E_RMW;
}

/* ---- diy's pseudo edges and '*' directions --------------------------------------- */

static bool pseudo(const gen_edge *e) {
  return e->kind == GEN_E_ID || e->kind == GEN_E_NODE || e->kind == GEN_E_INSERT;
}

/* The nearest edge before (step n-1) or after (step 1) i that is not a pseudo edge. */
static size_t real_near(const gen_edge *e, size_t n, size_t i, size_t step) {
  size_t j = (i + step) % n;
  for (size_t k = 0; k < n && pseudo(&e[j]); k++) j = (j + step) % n;
  return j;
}

static int check_resolved_ann(const gen_edge *e, size_t i, char **err) {
  const gen_ann *a[2] = {&e->a1, &e->a2};
  char d[2] = {e->src, e->dst};
  if (e->kind == GEN_E_RMW) return 0;
  for (int k = 0; k < 2; k++) {
    if (!a[k]->set) continue;
    if ((a[k]->sem == LT_SEM_ACQUIRE || a[k]->consume) && d[k] != 'R')
      return error(err, "edge %zu '%s': %s annotates a read only", i + 1, e->text, a[k]->consume ? "Con" : "Acq");
    if (a[k]->sem == LT_SEM_RELEASE && d[k] != 'W')
      return error(err, "edge %zu '%s': Rel annotates a write only", i + 1, e->text);
    if (a[k]->sem == LT_SEM_ACQ_REL)
      return error(err, "edge %zu '%s': AR annotates a read-modify-write's pair only", i + 1, e->text);
  }
  return 0;
}

/* diy's reading of a cycle (gen/cycle.ml: set_dir, remove_store): a '*'
 * takes the direction of the neighbouring edge's end; an annotation alone
 * (Id) annotates the access between its neighbours; R, W, Read, Write
 * (Node) name the access between two external edges; a fence alone
 * (Insert) goes at the start or the end of a thread, next to an external
 * edge.  The real edges go to out[0..*m). */
static int resolve_pseudo(const gen_edge *in, size_t n, gen_edge *out, size_t *m, char **err) {
  gen_edge e[MAX_WRITTEN];
  memcpy(e, in, n * sizeof *e);
  size_t nreal = 0;
  for (size_t i = 0; i < n; i++) {
    if (e[i].kind == GEN_E_STORE)
      return error(err, "edge %zu 'Store': diy's extra store at a thread's start is not supported", i + 1);
    if (leave_back(&e[i]) && e[i].place != LT_SCOPE_NONE)
      return error(err, "edge %zu '%s': a Leave or Back takes no placement", i + 1, e[i].text);
    nreal += !pseudo(&e[i]);
  }
  if (nreal == 0) return error(err, "a cycle of pseudo edges alone (%s) has no access", in[0].text);
  /* directions: the node's own, else a neighbour's end; twice round for chains */
  for (int round = 0; round < 2; round++)
    for (size_t i = 0; i < n; i++) {
      if (pseudo(&e[i])) continue;
      if (e[i].src_any) {
        size_t j = (i + n - 1) % n;
        while (j != i && (e[j].kind == GEN_E_ID || e[j].kind == GEN_E_INSERT)) j = (j + n - 1) % n;
        if (e[j].dst != '?') e[i].src = e[j].dst, e[i].src_any = false;
      }
      if (e[i].dst_any) {
        size_t j = (i + 1) % n;
        while (j != i && (e[j].kind == GEN_E_ID || e[j].kind == GEN_E_INSERT)) j = (j + 1) % n;
        if (e[j].src != '?') e[i].dst = e[j].src, e[i].dst_any = false;
      }
    }
  for (size_t i = 0; i < n; i++) {
    if (pseudo(&e[i])) continue;
    if (e[i].src == '?' || e[i].dst == '?')
      return error(err, "edge %zu '%s': ambiguous direction ('*' next to an edge that leaves its end open too)",
                   i + 1, e[i].text);
  }
  for (size_t i = 0; i < n; i++) {
    const gen_edge *p = &e[real_near(e, n, i, n - 1)], *q = &e[real_near(e, n, i, 1)];
    if (e[i].kind == GEN_E_NODE && e[i].src == 'W') {
      /* diy drops a write node before it looks at its neighbours (remove_store) */
    } else if (e[i].kind == GEN_E_NODE) {
      if (!p->ext || !q->ext)
        return error(err, "edge %zu '%s' names an access between %s and %s: both must be external edges "
                          "(diy: a thread of that access alone)", i + 1, e[i].text, p->text, q->text);
      if (p->dst != e[i].src || q->src != e[i].src)
        return error(err, "edge %zu '%s': the access between %s and %s is not a %s", i + 1, e[i].text, p->text,
                     q->text, e[i].src == 'R' ? "read" : "write");
    } else if (e[i].kind == GEN_E_INSERT && !p->ext && !q->ext) {
      return error(err, "edge %zu '%s': a fence alone goes next to an external edge (else write Fence%sd.. "
                        "between the accesses)", i + 1, e[i].text, "Sc");
    } else if (e[i].kind == GEN_E_INSERT && p->ext && (p->kind == GEN_E_RF || p->kind == GEN_E_FR)) {
      return error(err, "edge %zu '%s': a fence alone cannot follow %s (diy: Insert after an external "
                        "communication edge)", i + 1, e[i].text, p->text);
    }
  }
  size_t k = 0;
  size_t map[MAX_WRITTEN];
  for (size_t i = 0; i < n; i++) {
    map[i] = k;
    if (!pseudo(&e[i])) {
      if (k == MAX_EDGES) return error(err, "a cycle of more than %d edges", MAX_EDGES);
      out[k++] = e[i];
    }
  }
  *m = k;
  for (size_t i = 0; i < n; i++) {
    if (e[i].kind == GEN_E_ID) {
      gen_edge *p = &out[(map[i] + k - 1) % k], *q = &out[map[i] % k];
      if ((p->a2.set && !ann_same(&p->a2, &e[i].a1)) || (q->a1.set && !ann_same(&q->a1, &e[i].a1)))
        return error(err, "edge %zu '%s' annotates the access between %s and %s differently from them", i + 1,
                     e[i].text, p->text, q->text);
      p->a2 = q->a1 = e[i].a1;
    } else if (e[i].kind == GEN_E_INSERT) {
      gen_edge *p = &out[(map[i] + k - 1) % k], *q = &out[map[i] % k];
      if (p->ext) q->ins_before = e[i].fence_sem, q->ins_before_con = e[i].consume;
      else p->ins_after = e[i].fence_sem, p->ins_after_con = e[i].consume;
    }
  }
  for (size_t i = 0; i < k; i++)
    if (check_resolved_ann(&out[i], i, err) < 0) return -1;
  return 0;
}

/* ---- checking ------------------------------------------------------------------- */

static int check_links(const gen_edge *e, size_t n, char **err) {
  for (size_t i = 0; i < n; i++) {
    const gen_edge *a = &e[i], *b = &e[(i + 1) % n];
    if (a->dst != b->src)
      return error(err, "edge %zu '%s' ends on a %s, but edge %zu '%s' starts from a %s", i + 1, a->text,
                   a->dst == 'R' ? "read" : "write", (i + 1) % n + 1, b->text, b->src == 'R' ? "read" : "write");
    if (a->a2.set && b->a1.set && !ann_same(&a->a2, &b->a1))
      return error(err, "edges %zu '%s' and %zu '%s' annotate the access between them differently", i + 1,
                   a->text, (i + 1) % n + 1, b->text);
  }
  return 0;
}

static int check_counts(const gen_edge *e, size_t n, char **err) {
  size_t ext = 0, diff = 0, one_diff = 0, one_ext = 0, po = 0;
  for (size_t i = 0; i < n; i++) {
    po += is_po(&e[i]);
    if (e[i].ext) ext++, one_ext = i;
    if (!e[i].same) diff++, one_diff = i;
  }
  if (ext == 0)
    return error(err, "no external edge (Rfe, Fre, Wse): a cycle of one thread's edges has no test");
  if (ext == 1)
    return error(err, "edge %zu '%s' is the only external edge: it would lead from a thread back to itself "
                      "(use Rfi, Fri or Wsi, or add a second external edge)", one_ext + 1, e[one_ext].text);
  if (!po)
    return error(err, "no program-order edge (Po, Fence, Membar, Dp): a cycle of communication edges alone "
                      "is a coherence cycle every model forbids, with nothing to test");
  if (diff == 1)
    return error(err, "edge %zu '%s' is the only change of location: the cycle cannot return to its "
                      "first location (change location at two edges or none)", one_diff + 1, e[one_diff].text);
  return 0;
}

/* Where the chain of a cycle on one location starts: after a
 * program-order edge, else after an Fr (see the top of the file). */
static size_t one_loc_start(const gen_edge *e, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (is_po(&e[i]) && e[i].kind != GEN_E_RMW) return (i + 1) % n;
  for (size_t i = 0; i < n; i++)
    if (com_of(&e[i]) == GEN_E_FR) return (i + 1) % n;
  return 0;
}

/* Threads: an external edge starts a new one, but a Leave's thread goes
 * on after the matching Back (gen/cycle.ml, merge_changes). */
static int walk_threads(layout *L, char **err) {
  size_t n = L->n, k0 = SIZE_MAX;
  for (size_t i = 0; i < n && k0 == SIZE_MAX; i++)
    if (L->e[i].ext && !leave_back(&L->e[i])) k0 = i;
  if (k0 == SIZE_MAX)
    return error(err, "no external edge but Leave and Back (%s): a cycle needs Rfe, Fre, Coe or Hat", L->e[0].text);
  int stack[MAX_EDGES], depth = 0, t = 0, next = 1;
  for (size_t s = 0; s < n; s++) {
    size_t j = (k0 + 1 + s) % n;
    L->ev[j].thread = t;
    L->ev[j].pos = L->len[t];
    L->tev[t][L->len[t]++] = (int)j;
    if (!L->e[j].ext || s + 1 == n) continue;
    if (L->e[j].kind == GEN_E_BACK) {
      if (!depth) return error(err, "edge %zu '%s' comes back to a thread no Leave left", j + 1, L->e[j].text);
      t = stack[--depth];
    } else {
      if (L->e[j].kind == GEN_E_LEAVE) stack[depth++] = t;
      t = next++;
      L->inner[t] = depth > 0;
    }
  }
  if (depth) return error(err, "a Leave with no Back (diy: Leave/Back are not balanced)");
  L->nthreads = next;
  return 0;
}

/* Event p of walk thread t. */
static size_t ev_at(const layout *L, int t, int p) { return (size_t)L->tev[t][p]; }

static void walk_locations(layout *L) {
  size_t n = L->n, start = SIZE_MAX;
  for (size_t i = 0; i < n && start == SIZE_MAX; i++)
    if (!L->e[i].same) start = (i + 1) % n;
  if (start == SIZE_MAX) start = one_loc_start(L->e, n);
  L->loc_start = start;
  int loc = 0;
  for (size_t s = 0; s < n; s++) {
    size_t j = (start + s) % n;
    cev *v = &L->ev[j];
    v->loc = loc;
    if (v->dir == 'W') v->value = ++L->writes[loc];
    if (!L->e[j].same && s + 1 < n) loc++;
  }
  L->nlocs = loc + 1;
}

/* The value a write leaves in memory: its own, or for a fetch-add the
 * value before it (the write before it in its chain) plus its own, as
 * diy's compute_rmw. */
static void stored_values(layout *L) {
  size_t n = L->n;
  for (size_t j = 0; j < n; j++) L->ev[j].stored = L->ev[j].value;
  for (int l = 0; l < L->nlocs; l++) {
    int last = 0;
    for (int v = 1; v <= L->writes[l]; v++)
      for (size_t j = 0; j < n; j++)
        if (L->ev[j].loc == l && L->ev[j].dir == 'W' && L->ev[j].value == v) {
          const gen_edge *in = &L->e[prev(j, n)];
          if (in->kind == GEN_E_RMW && in->rmw == GEN_RMW_ADD) L->ev[j].stored = last + v;
          last = L->ev[j].stored;
        }
  }
}

/* The stored value of the write before value v of location l (0: the initial one). */
static int stored_before(const layout *L, int l, int v) {
  for (size_t j = 0; j < L->n; j++)
    if (L->ev[j].loc == l && L->ev[j].dir == 'W' && L->ev[j].value == v - 1) return L->ev[j].stored;
  return 0;
}

static int conditions(layout *L, char **err) {
  size_t n = L->n;
  stored_values(L);
  for (size_t j = 0; j < n; j++) {
    cev *v = &L->ev[j];
    v->want = -1;
    const gen_edge *in = &L->e[prev(j, n)], *out = &L->e[j];
    const cev *nx = &L->ev[(j + 1) % n];
    if (v->dir == 'R' && com_of(in) == GEN_E_RF) v->want = L->ev[prev(j, n)].stored;
    else if (v->dir == 'R' && com_of(out) == GEN_E_FR) v->want = stored_before(L, nx->loc, nx->value);
    if (com_of(out) == GEN_E_WS || (com_of(out) == GEN_E_FR && nx->value > 1))
      L->final[v->loc] = L->writes[v->loc] >= 2;
    if (out->kind == GEN_E_RMW && nx->value > 1) L->final[v->loc] = L->writes[v->loc] >= 2;
  }
  /* diy7 names the final value of every location the cycle writes twice
   * or more, also when no coherence edge orders the writes (PosWW, or a
   * read then a write of the location: Rfe PosRW, Rfe DpDatasW); the
   * condition then says which write is last (top_gen.ml, check_writes,
   * Cycle mode without optimised conditions) */
  for (int l = 0; l < L->nlocs; l++)
    if (L->writes[l] >= 2) L->final[l] = true;
  /* Hat: the target reads what the source reads (diy: no chains of reads
   * without a write's value at their head) */
  for (size_t round = 0; round < n; round++)
    for (size_t j = 0; j < n; j++) {
      cev *f = &L->ev[j], *t = &L->ev[(j + 1) % n];
      if (L->e[j].kind != GEN_E_HAT || (f->want < 0 && t->want < 0)) continue;
      if (f->want >= 0 && t->want >= 0 && f->want != t->want)
        return error(err, "edge %zu '%s': its two reads would read different values", j + 1, L->e[j].text);
      f->want = t->want = f->want >= 0 ? f->want : t->want;
    }
  /* The final value names the last write of a location only: a
   * coherence edge between two earlier writes would need an observer
   * thread (diy7 fails such a cycle the same way: "Observer"). */
  for (size_t j = 0; j < n; j++) {
    const cev *t = &L->ev[(j + 1) % n];
    bool hidden = L->writes[t->loc] >= 3 && t->value < L->writes[t->loc] &&
                  (com_of(&L->e[j]) == GEN_E_WS || (com_of(&L->e[j]) == GEN_E_FR && t->value >= 2));
    if (hidden)
      return error(err, "edge %zu '%s' orders two writes of a location of %d writes, neither the last one: "
                        "the final state cannot show it (diy7: it needs an observer thread)", j + 1, L->e[j].text,
                   L->writes[t->loc]);
  }
  for (size_t j = 0; j < n; j++)
    if (L->e[j].kind == GEN_E_HAT && L->ev[j].want < 0)
      return error(err, "edge %zu '%s': the reads of a Hat read no write of the cycle (diy: read "
                        "chains are not allowed; put an Rf before them or an Fr after them)", j + 1, L->e[j].text);
  return 0;
}

/* The level two threads share: CTA, CLUSTER (clusters written), GPU, SYS. */
static lt_scope level(const layout *L, int a, int b, bool clusters) {
  if (L->gpu[a] != L->gpu[b]) return LT_SCOPE_SYS;
  if (L->cta[a] == L->cta[b]) return LT_SCOPE_CTA;
  if (clusters && L->cluster[a] == L->cluster[b]) return LT_SCOPE_CLUSTER;
  return LT_SCOPE_GPU;
}

static lt_scope place_of(const gen_edge *e) { return e->place == LT_SCOPE_NONE ? LT_SCOPE_GPU : e->place; }

/* The external edge that ends walk thread t. */
static size_t ext_after(const layout *L, int t) {
  return ev_at(L, t, L->len[t] - 1);
}

static bool uses_clusters(const layout *L) {
  for (size_t i = 0; i < L->n; i++)
    if (L->e[i].place == LT_SCOPE_CLUSTER) return true;
  return false;
}

static int find(int *up, int x) {
  while (up[x] != x) x = up[x] = up[up[x]];
  return x;
}

/* Walk thread t and t+1 share a unit of each level the edge between
 * them allows: classes of threads joined that way, numbered into ids. */
static void classes(layout *L, lt_scope upto, int *ids) {
  int up[MAX_EDGES], T = L->nthreads;
  for (int t = 0; t < T; t++) up[t] = t;
  for (int t = 0; t < T; t++)
    if (place_of(&L->e[ext_after(L, t)]) <= upto) up[find(up, t)] = find(up, (t + 1) % T);
  for (int t = 0; t < T; t++) ids[t] = find(up, t);
}

static int place_threads(layout *L, char **err) {
  bool clusters = uses_clusters(L);
  classes(L, LT_SCOPE_CTA, L->cta);
  classes(L, LT_SCOPE_CLUSTER, L->cluster);
  classes(L, LT_SCOPE_GPU, L->gpu);
  static const char *const what[] = {"", "in one CTA", "in different CTAs of one cluster",
                                     "in different CTAs of one GPU", "on different GPUs"};
  for (int t = 0; t < L->nthreads; t++) {
    size_t i = ext_after(L, t);
    lt_scope want = place_of(&L->e[i]), got = level(L, t, (t + 1) % L->nthreads, clusters);
    if (want != got)
      return error(err, "edge %zu '%s' asks for its threads %s, but the other placements of the cycle put "
                        "them %s", i + 1, L->e[i].text, what[want], what[got]);
  }
  if (!clusters)
    for (int t = 0; t < L->nthreads; t++) L->cluster[t] = -1;
  return 0;
}

static int key_index(const layout *L, int t) {
  char a = L->ev[ev_at(L, t, 0)].dir, b = L->ev[ev_at(L, t, L->len[t] - 1)].dir;
  if (L->len[t] == 1) return a == 'W' ? 0 : 10;
  if (a == 'W') return b == 'W' ? 1 : 8;
  return b == 'R' ? 2 : 6;
}

static const char *key_name(const layout *L, int t) {
  switch (key_index(L, t)) {
  case 0: return "W";
  case 1: return "WW";
  case 2: return "RR";
  case 6: return "RW";
  case 8: return "WR";
  default: return "R";
  }
}

/* diy's order of edges for ties (gen/normaliser.ml, compare_edges):
 * fences before dependencies before po and rf, else the order of the
 * constructors and fields of herd's edge type (Rf Fr Ws Po Fenced Dp;
 * Int before Ext, Same before Diff, W before R, Addr Data Ctrl). */
static int edge_rank(const gen_edge *e) {
  static const int kinds[] = {[GEN_E_RF] = 0, [GEN_E_FR] = 1, [GEN_E_WS] = 2,
                              [GEN_E_PO] = 3, [GEN_E_FENCE] = 4, [GEN_E_DP] = 5,
                              [GEN_E_HAT] = 6, [GEN_E_RMW] = 7};
  int r = (size_t)e->kind < LC_ARRAY_LEN(kinds) ? kinds[e->kind] : 8;
  r = r * 2 + (e->kind == GEN_E_RMW && e->rmw == GEN_RMW_ADD);
  r = r * 2 + e->ext;
  r = r * 2 + !e->same;
  r = r * 2 + (e->src == 'R');
  r = r * 2 + (e->dst == 'R');
  /* a diy fence in MemOrder's order: Acq Rel AR Sc Rlx Con */
  static const int mo[] = {[LT_SEM_ACQUIRE] = 0, [LT_SEM_RELEASE] = 1, [LT_SEM_ACQ_REL] = 2,
                           [LT_SEM_SC] = 3, [LT_SEM_RELAXED] = 4};
  int f = e->kind != GEN_E_FENCE ? 0
          : !e->diy_fence ? (int)e->fence_sem
          : e->consume ? 5 : (size_t)e->fence_sem < LC_ARRAY_LEN(mo) ? mo[e->fence_sem] : 6;
  r = r * 8 + (e->kind == GEN_E_DP ? (int)e->dp : f);
  return r * 8 + (int)e->fence_scope;
}

static int group(const gen_edge *e) {
  return e->kind == GEN_E_FENCE ? 0 : e->kind == GEN_E_DP ? 1 : e->kind == GEN_E_PO || e->kind == GEN_E_RF ? 2 : 3;
}

static int compare_edges(const gen_edge *a, const gen_edge *b) {
  int ga = group(a), gb = group(b);
  if ((ga < 2 || gb < 2) && ga != gb) return ga - gb;
  return edge_rank(a) - edge_rank(b);
}

/* An access's annotation in diy's order: none (or plain) first, then
 * MemOrder's Acq Rel AR Sc Rlx Con; scopes after. */
static int atom_rank(const gen_ann *a) {
  if (!a->set || a->sem == LT_SEM_WEAK) return 0;
  int r = a->consume ? 6 : a->sem == LT_SEM_ACQUIRE ? 1 : a->sem == LT_SEM_RELEASE ? 2 : a->sem == LT_SEM_ACQ_REL ? 3
          : a->sem == LT_SEM_SC ? 4 : 5;
  return r * 8 + (int)a->scope;
}

/* The cycles read from the first events of walk threads a and b. */
static int compare_from(const layout *L, int a, int b) {
  int ia = L->len[a] - 1, ib = L->len[b] - 1;   /* internal edges before the first external one */
  if (ia != ib) return ia - ib;
  for (size_t s = 0; s < L->n; s++) {
    size_t i = (ev_at(L, a, 0) + s) % L->n, j = (ev_at(L, b, 0) + s) % L->n;
    int c = compare_edges(&L->e[i], &L->e[j]);
    /* then the annotations of the two ends, as diy's records compare */
    if (!c) c = atom_rank(&L->ev[i].ann) - atom_rank(&L->ev[j].ann);
    if (!c) c = atom_rank(&L->ev[(i + 1) % L->n].ann) - atom_rank(&L->ev[(j + 1) % L->n].ann);
    if (c) return c;
  }
  return 0;
}

static void normalise(layout *L) {
  int T = L->nthreads, best = 0;
  for (int r = 1; r < T; r++) {
    int c = 0;
    for (int k = 0; k < T && !c; k++) c = key_index(L, (r + k) % T) - key_index(L, (best + k) % T);
    if (!c) c = compare_from(L, r, best);
    if (c < 0) best = r;
  }
  L->rot = best;
}

/* Test thread k is walk thread (rot + k) mod T. */
static int walk_of(const layout *L, int k) { return (L->rot + k) % L->nthreads; }

/* Locations named in order of first use, P0 first; reads numbered per thread. */
static void name_things(layout *L) {
  int next = 0;
  for (int l = 0; l < L->nlocs; l++) L->locname[l] = -1;
  for (int k = 0; k < L->nthreads; k++) {
    int t = walk_of(L, k), reg = 0;
    for (int p = 0; p < L->len[t]; p++) {
      cev *v = &L->ev[ev_at(L, t, p)];
      if (L->locname[v->loc] < 0) L->locname[v->loc] = next++;
      v->reg = v->dir == 'R' ? reg++ : -1;
    }
  }
}

/* CTAs, clusters and GPUs numbered from 0 in the test's thread order. */
static void renumber(int *ids, const layout *L) {
  int map[MAX_EDGES], next = 0;
  for (int i = 0; i < MAX_EDGES; i++) map[i] = -1;
  for (int k = 0; k < L->nthreads; k++) {
    int *id = &ids[walk_of(L, k)];
    if (*id < 0) continue;
    if (map[*id] < 0) map[*id] = next++;
    *id = map[*id];
  }
}

static int build_layout(layout *L, const gen_edge *written, size_t nwritten, char **err) {
  memset(L, 0, sizeof *L);
  if (nwritten > MAX_WRITTEN) return error(err, "a cycle of %zu edges: %d at most", nwritten, MAX_EDGES);
  size_t n = 0;
  if (nwritten && resolve_pseudo(written, nwritten, L->re, &n, err) < 0) return -1;
  if (n < 2) return error(err, "a cycle needs two edges at least");
  const gen_edge *e = L->re;
  L->e = e;
  L->n = n;
  if (check_links(e, n, err) < 0 || check_counts(e, n, err) < 0) return -1;
  for (size_t i = 0; i < n; i++) {
    L->ev[i].dir = e[i].src;
    L->ev[i].ann = e[i].a1.set ? e[i].a1 : e[prev(i, n)].a2;
  }
  if (walk_threads(L, err) < 0) return -1;
  walk_locations(L);
  if (conditions(L, err) < 0) return -1;
  if (place_threads(L, err) < 0) return -1;
  normalise(L);
  renumber(L->cta, L);
  renumber(L->cluster, L);
  renumber(L->gpu, L);
  name_things(L);
  return 0;
}

/* ---- names ---------------------------------------------------------------------- */

static const struct { const char *key, *name; } families[] = {
  {"WW+RR", "MP"},   {"WR+WR", "SB"},        {"RW+RW", "LB"},        {"W+RR+W+RR", "IRIW"},
  {"W+RW+RR", "WRC"}, {"WW+RW+RR", "ISA2"},  {"WW+WW", "2+2W"},      {"WW+WR", "R"},
  {"WW+RW", "S"},    {"W+RR+WR", "RWC"},     {"WR+WR+WR", "3.SB"},   {"RW+RW+RW", "3.LB"},
  {"WR+WR+WR+WR", "4.SB"}, {"RW+RW+RW+RW", "4.LB"}, {"W+RW+WR", "WRW+WR"}, {"W+RR+WW", "WRR+2W"},
  {"W+RW+RW", "WWC"}, {"WW+WW+WW", "3.2W"},  {"W+RW+WW", "WRW+2W"},  {"WW+RR+WR", "W+RWC"},
  {"W+RR+W+RW", "IRRWIW"}, {"W+RW+W+RR", "IRRWIW"}, {"W+RW+W+RW", "IRWIW"},
  {"WW+RW+WR", "Z6.0"}, {"WW+WW+RW", "Z6.1"}, {"WW+RW+RW", "Z6.2"}, {"WW+WW+RR", "Z6.3"},
  {"WW+WR+WR", "Z6.4"}, {"WW+WW+WR", "Z6.5"},
};

static const struct { const char *key, *name; } one_loc_families[] = {
  {"WW", "CoWW"}, {"RW", "CoRW1"}, {"W+RW", "CoRW2"}, {"W+WR", "CoWR"}, {"W+RR", "CoRR"}, {"WR", "CoWR0"},
};

/* `Rel.gpu`, as written in an edge. */
static void ann_word(lc_buf *b, const gen_ann *a) {
  static const char *const w[] = {"", "P", "Rlx", "Acq", "Rel", "", "Sc"};
  static const char *const s[] = {"", "cta", "cluster", "gpu", "sys"};
  lc_buf_puts(b, (size_t)a->sem < LC_ARRAY_LEN(w) ? w[a->sem] : "");
  if (a->scope != LT_SCOPE_NONE) lc_buf_printf(b, ".%s", s[a->scope]);
}

/* diy's name of an internal edge (gen/namer.ml), with its annotations. */
/* An annotation diy names: a C order (Na, plain, is diy's none). */
static bool ann_on(const gen_ann *a) { return a->set && a->sem != LT_SEM_WEAK; }

/* diy's word of a C order (MemOrder.pp_mem_order_short), lower case. */
static const char *diy_order(lt_sem sem, bool consume) {
  switch (sem) {
  case LT_SEM_SC: return "sc";
  case LT_SEM_ACQUIRE: return consume ? "con" : "acq";
  case LT_SEM_RELEASE: return "rel";
  case LT_SEM_ACQ_REL: return "ar";
  case LT_SEM_RELAXED: return "rlx";
  default: return "na";
  }
}

static void edge_name(lc_buf *b, const layout *L, const gen_edge *e, const cev *src, const cev *dst) {
  static const char *const s[] = {"", "cta", "cluster", "gpu", "sys"};
  static const char *const dps[] = {"addr", "data", "ctrl"};
  /* a fence alone: diy writes [fencesc], a test name here has no brackets */
  if (e->ins_before != LT_SEM_NONE) lc_buf_printf(b, "fence%s-", diy_order(e->ins_before, e->ins_before_con));
  if (L->diy && e->kind == GEN_E_FENCE && !e->membar) {
    lc_buf_printf(b, "fence%s%s", diy_order(e->fence_sem, e->consume), e->same ? "s" : "");
  } else switch (e->kind) {
  case GEN_E_RMW: lc_buf_puts(b, e->rmw == GEN_RMW_ADD ? "fetch.add" : "rmw"); break;
  case GEN_E_RF: lc_buf_puts(b, "rfi"); break;
  case GEN_E_FR: lc_buf_puts(b, "fri"); break;
  case GEN_E_WS: lc_buf_puts(b, "coi"); break;
  case GEN_E_PO: lc_buf_puts(b, e->same ? "pos" : "po"); break;
  case GEN_E_DP: lc_buf_printf(b, "%s%s", dps[e->dp], e->same ? "s" : ""); break;
  case GEN_E_FENCE:
    if (e->membar) lc_buf_printf(b, "membar.%s", e->fence_scope == LT_SCOPE_GPU ? "gl" : s[e->fence_scope]);
    else lc_buf_printf(b, "fence.%s%s%s", lt_sem_name(e->fence_sem), e->fence_scope ? "." : "", s[e->fence_scope]);
    if (e->same) lc_buf_putc(b, 's');
    break;
  default: break;
  }
  if (L->diy) {
    if (ann_on(&src->ann) || ann_on(&dst->ann)) {
      lc_buf_puts(b, ann_on(&src->ann) ? diy_order(src->ann.sem, src->ann.consume) : "na");
      lc_buf_puts(b, ann_on(&dst->ann) ? diy_order(dst->ann.sem, dst->ann.consume) : "na");
    }
  } else if (src->ann.set || dst->ann.set) {
    gen_ann dflt = {true, LT_SEM_RELAXED, LT_SCOPE_NONE, false};   /* what an unannotated access is */
    ann_word(b, src->ann.set ? &src->ann : &dflt);
    ann_word(b, dst->ann.set ? &dst->ann : &dflt);
  }
  if (e->ins_after != LT_SEM_NONE) lc_buf_printf(b, "-fence%s", diy_order(e->ins_after, e->ins_after_con));
}

static void test_name(const layout *L, lc_buf *b) {
  lc_buf key;
  lc_buf_init(&key);
  bool one_loc = L->nlocs == 1;
  for (int k = 0, any = 0; k < L->nthreads; k++)
    if (!L->inner[walk_of(L, k)]) lc_buf_printf(&key, "%s%s", any++ ? "+" : "", key_name(L, walk_of(L, k)));
  const char *family = NULL;
  for (size_t i = 0; one_loc && i < LC_ARRAY_LEN(one_loc_families); i++)
    if (!strcmp(key.s, one_loc_families[i].key)) family = one_loc_families[i].name;
  for (size_t i = 0; !one_loc && i < LC_ARRAY_LEN(families); i++)
    if (!strcmp(key.s, families[i].key)) family = families[i].name;
  /* no diy name: the keys themselves, as diy does (W+RR+poR-po) */
  lc_buf_puts(b, family ? family : key.s);
  lc_buf_fini(&key);
  /* diy: the threads' internal edges, '-' between a thread's, '+' between
   * threads; nothing when all are plain po, "Xs" when all are X */
  LC_VEC(char *) parts = {0};
  LC_VEC(char *) lone = {0};
  for (int k = 0; k < L->nthreads; k++) {
    int t = walk_of(L, k);
    if (L->inner[t]) continue;
    lc_buf p;
    lc_buf_init(&p);
    for (int q = 0; q + 1 < L->len[t]; q++) {
      size_t i = ev_at(L, t, q);
      if (q) lc_buf_putc(&p, '-');
      if (ev_at(L, t, q + 1) != (i + 1) % L->n) {
        /* a Leave ... Back: diy's [rf-po-fr], here without brackets */
        static const char *const coms[] = {[GEN_E_RF] = "rf", [GEN_E_FR] = "fr", [GEN_E_WS] = "co"};
        for (size_t j = i, first = 1; j != ev_at(L, t, q + 1); j = (j + 1) % L->n, first = 0) {
          if (!first) lc_buf_putc(&p, '-');
          if (leave_back(&L->e[j])) lc_buf_puts(&p, coms[L->e[j].com]);
          else if (L->e[j].ext) lc_buf_puts(&p, coms[com_of(&L->e[j])]), lc_buf_putc(&p, 'e');
          else edge_name(&p, L, &L->e[j], &L->ev[j], &L->ev[(j + 1) % L->n]);
        }
        continue;
      }
      edge_name(&p, L, &L->e[i], &L->ev[i], &L->ev[(i + 1) % L->n]);
      /* diy names the access between two edges that could end or start
       * on either when they follow each other: poR-po */
      const gen_edge *nx = &L->e[(i + 1) % L->n];
      if (q + 2 < L->len[t] && L->e[i].kind != GEN_E_RF && L->e[i].kind != GEN_E_FR && L->e[i].kind != GEN_E_WS &&
          L->e[i].kind != GEN_E_RMW &&
          (nx->kind == GEN_E_PO || nx->kind == GEN_E_FENCE))
        lc_buf_putc(&p, L->e[i].dst);
    }
    if (L->len[t] > 1) {
      lc_vec_push(&parts, lc_buf_take(&p));
    } else {
      const cev *v = &L->ev[ev_at(L, t, 0)];
      if (L->diy) {   /* diy (namer.ml, isolated_writes): the atoms, Na for a plain one */
        static const char *const w[] = {"Na", "Na", "Rlx", "Acq", "Rel", "AR", "Sc"};
        lc_buf_puts(&p, ann_on(&v->ann) ? (v->ann.consume ? "Con" : w[v->ann.sem]) : "Na");
        lc_vec_push(&lone, lc_buf_take(&p));
      } else {
        if (v->ann.set) ann_word(&p, &v->ann);
        if (p.n) lc_vec_push(&lone, lc_buf_take(&p));
      }
    }
    lc_buf_fini(&p);
  }
  bool all_same = parts.n > 0;
  for (size_t i = 1; i < parts.n; i++) all_same &= !strcmp(parts.v[i], parts.v[0]);
  if (all_same && (!strcmp(parts.v[0], "po") || (parts.n == 1 && !strcmp(parts.v[0], "pos")))) {
  } else if (all_same && parts.n > 1) {
    lc_buf_printf(b, "+%ss", parts.v[0]);
  } else {
    for (size_t i = 0; i < parts.n; i++) lc_buf_printf(b, "+%s", parts.v[i]);
  }
  if (L->diy) {   /* one part, none when all are plain */
    bool plain = true;
    for (size_t i = 0; i < lone.n; i++) plain &= !strcmp(lone.v[i], "Na");
    if (!plain) lc_buf_putc(b, '+');
    for (size_t i = 0; i < lone.n && !plain; i++) lc_buf_puts(b, lone.v[i]);
  } else {
    for (size_t i = 0; i < lone.n; i++) lc_buf_printf(b, "+%s", lone.v[i]);
  }
  for (size_t i = 0; i < parts.n; i++) free(parts.v[i]);
  for (size_t i = 0; i < lone.n; i++) free(lone.v[i]);
  lc_vec_free(&parts);
  lc_vec_free(&lone);
  /* placements other than the default, in the words of litmus/'s names */
  bool placed = false, same = true;
  lt_scope first = LT_SCOPE_NONE;
  for (size_t i = 0; i < L->n; i++) {
    if (!L->e[i].ext) continue;
    if (first == LT_SCOPE_NONE) first = place_of(&L->e[i]);
    same &= place_of(&L->e[i]) == first;
    placed |= L->e[i].place != LT_SCOPE_NONE && L->e[i].place != LT_SCOPE_GPU;
  }
  static const char *const tag[] = {"", "same-cta", "diff-cta", "diff-cta", "diff-gpu"};
  if (placed && same) lc_buf_printf(b, "+%s", first == LT_SCOPE_CLUSTER ? "same-cluster" : tag[first]);
  else if (placed) {
    static const char *const s[] = {"", "cta", "cluster", "gpu", "sys"};
    lc_buf_puts(b, "+at");
    for (int k = 0; k < L->nthreads; k++) lc_buf_printf(b, "-%s", s[place_of(&L->e[ext_after(L, walk_of(L, k))])]);
  }
}

static void cycle_text(const gen_edge *e, size_t n, lc_buf *b) {
  for (size_t i = 0; i < n; i++) lc_buf_printf(b, "%s%s", i ? " " : "", e[i].text);
}

/* ---- the PTX test ------------------------------------------------------------------ */

static const char *loc_name(int i) {
  static const char *const names[] = {"x", "y", "z", "a", "b", "c", "d", "e",
                                      "f", "g", "h", "i", "j", "k", "l", "m"};
  return names[i];
}

static lt_scope scope_or(lt_scope s, const gen_cycle_options *o) { return s == LT_SCOPE_NONE ? o->scope : s; }

/* The read of a read-modify-write (its write is the next event, and
 * writes no row of its own). */
static bool rmw_read(const layout *L, size_t i) { return L->e[i].kind == GEN_E_RMW; }
static bool rmw_write(const layout *L, size_t i) { return L->e[prev(i, L->n)].kind == GEN_E_RMW; }

/* An RMW's order from its read's and write's annotations (CArch_gen.ml,
 * tr_atom_rmw): Acq Rel is acq_rel, Acq Rlx acquire, Rlx Rel release. */
static lt_sem rmw_sem(const cev *r, const cev *w) {
  lt_sem a = r->ann.set ? r->ann.sem : LT_SEM_RELAXED, b = w->ann.set ? w->ann.sem : LT_SEM_RELAXED;
  if (a == LT_SEM_SC || b == LT_SEM_SC) return LT_SEM_SC;
  if (a == LT_SEM_ACQUIRE && b == LT_SEM_RELEASE) return LT_SEM_ACQ_REL;
  if (a == LT_SEM_ACQUIRE) return LT_SEM_ACQUIRE;
  if (b == LT_SEM_RELEASE) return LT_SEM_RELEASE;
  return LT_SEM_RELAXED;
}

/* The rows an edge into an event adds before it (a fence, a branch, data). */
static int rows_before(const gen_edge *in) {
  if (in->kind == GEN_E_FENCE || (in->kind == GEN_E_DP && in->dp == GEN_DP_CTRL)) return 1;
  if (in->kind == GEN_E_DP && in->dp == GEN_DP_DATA) return 2;
  if (in->kind == GEN_E_DP && in->dp == GEN_DP_ADDR) return 2;
  return 0;
}

static bool ann_sc(const gen_ann *a) { return a->set && a->sem == LT_SEM_SC; }

static int check_dialect(const layout *L, const gen_cycle_options *o, char **err) {
  bool c = o->dialect == GEN_DIALECT_C;
  for (size_t i = 0; i < L->n; i++) {
    const gen_edge *e = &L->e[i];
    if (o->dialect == GEN_DIALECT_PTX && e->kind == GEN_E_DP && e->dp == GEN_DP_ADDR)
      return error(err, "edge %zu '%s': an address dependency needs an address computed from a value read, "
                        "and a PTX test here has every address known before it runs; use DpData or DpCtrl "
                        "(or --dialect c or cpp)", i + 1, e->text);
    if (o->dialect != GEN_DIALECT_PTX && e->membar)
      return error(err, "edge %zu '%s': membar is PTX; a C++ test takes Fence{s,d}.sc or .acq_rel", i + 1, e->text);
    if (o->dialect == GEN_DIALECT_PTX && (ann_sc(&e->a1) || ann_sc(&e->a2)) && e->kind != GEN_E_RMW)
      return error(err, "edge %zu '%s': PTX has no sc loads or stores (Sc annotates C++ accesses); "
                        "use a Fence{s,d}.sc edge", i + 1, e->text);
    if (o->dialect == GEN_DIALECT_PTX && e->kind == GEN_E_RMW && (ann_sc(&e->a1) || ann_sc(&e->a2)))
      return error(err, "edge %zu '%s': PTX has no sc read-modify-write (atom has .relaxed .acquire .release "
                        ".acq_rel); use a fence.sc before it", i + 1, e->text);
    if (o->dialect == GEN_DIALECT_PTX && e->kind == GEN_E_FENCE && e->fence_scope == LT_SCOPE_CLUSTER && e->membar)
      return error(err, "edge %zu '%s': membar has no cluster scope", i + 1, e->text);
    bool rlx = (e->kind == GEN_E_FENCE && e->fence_sem == LT_SEM_RELAXED) || e->ins_before == LT_SEM_RELAXED ||
               e->ins_after == LT_SEM_RELAXED;
    if (o->dialect == GEN_DIALECT_PTX && rlx)
      return error(err, "edge %zu '%s': PTX has no relaxed fence (FenceRlx is C's "
                        "atomic_thread_fence(memory_order_relaxed), which orders nothing)", i + 1, e->text);
    if (c && (e->fence_scope != LT_SCOPE_NONE || e->a1.scope != LT_SCOPE_NONE || e->a2.scope != LT_SCOPE_NONE ||
              e->place != LT_SCOPE_NONE))
      return error(err, "edge %zu '%s': herd's C dialect has no scopes (--dialect cpp writes them)", i + 1, e->text);
    if (c && e->kind == GEN_E_RMW && !e->a1.set)
      return error(err, "edge %zu '%s': a read-modify-write of herd's C dialect is atomic: annotate it "
                        "(%sRlxRlx, ...; diy: non atomic RMW)", i + 1, e->text, e->text);
  }
  if (c) {   /* a location of a C test is atomic_int or volatile int (diy: type mismatch) */
    for (int l = 0; l < L->nlocs; l++) {
      int plain = -1, atomic = -1;
      for (size_t j = 0; j < L->n; j++) {
        if (L->ev[j].loc != l) continue;
        bool na = !L->ev[j].ann.set || L->ev[j].ann.sem == LT_SEM_WEAK;
        if (rmw_read(L, j) || rmw_write(L, j)) na = false;
        if (na) plain = (int)j;
        else atomic = (int)j;
      }
      if (plain >= 0 && atomic >= 0)
        return error(err, "location %s is accessed plainly (edge %d '%s') and atomically (edge %d '%s'): a "
                          "location of herd's C dialect is atomic_int or volatile int (diy: type mismatch)",
                     loc_name(L->locname[l]), plain + 1, L->e[plain].text, atomic + 1, L->e[atomic].text);
    }
  }
  return 0;
}

static lt_sem access_sem(const cev *v, const gen_cycle_options *o) {
  if (v->ann.set) return v->ann.sem;
  return o->dialect == GEN_DIALECT_C ? LT_SEM_WEAK : LT_SEM_RELAXED;
}

static lt_instr *access(gen_build *b, const layout *L, const cev *v, const gen_cycle_options *o, lt_operand val) {
  lt_sem sem = access_sem(v, o);
  lt_scope scope = sem == LT_SEM_WEAK ? LT_SCOPE_NONE : scope_or(v->ann.scope, o);
  const char *loc = loc_name(L->locname[v->loc]);
  return v->dir == 'R' ? gen_ld(b, sem, scope, v->reg, loc) : gen_st(b, sem, scope, loc, val);
}

static void ptx_fence(gen_build *b, size_t k, int *row, lt_sem sem, lt_scope scope, bool membar) {
  lt_instr *f = gen_fence(b, sem, scope);
  f->membar = membar;
  gen_put(b, k, (size_t)(*row)++, f);
}

static void ptx_thread(gen_build *b, const layout *L, int k, const gen_cycle_options *o, int *label) {
  int t = walk_of(L, k), row = 0, scratch = 0;
  for (int p = 0; p < L->len[t]; p++)
    if (L->ev[ev_at(L, t, p)].dir == 'R') scratch++;
  for (int p = 0; p < L->len[t]; p++) {
    size_t i = ev_at(L, t, p);
    const cev *v = &L->ev[i];
    lt_operand val = gen_imm(v->value);
    const char *lab = NULL;
    char labbuf[16];
    if (L->e[i].ins_before != LT_SEM_NONE) ptx_fence(b, (size_t)k, &row, L->e[i].ins_before, o->scope, false);
    if (p > 0) {
      const gen_edge *in = &L->e[prev(i, L->n)];
      const cev *from = &L->ev[prev(i, L->n)];
      if (in->kind == GEN_E_FENCE) {
        ptx_fence(b, (size_t)k, &row, in->fence_sem, scope_or(in->fence_scope, o), in->membar);
      } else if (in->kind == GEN_E_DP && in->dp == GEN_DP_DATA) {
        lt_instr *x = gen_alu(b, LT_ALU_XOR, scratch, gen_reg(from->reg), gen_reg(from->reg));
        x->type = LT_TYPE_B32;
        gen_put(b, (size_t)k, (size_t)row++, x);
        lt_instr *a = gen_alu(b, LT_ALU_ADD, scratch, gen_reg(scratch), gen_imm(v->value));
        a->type = LT_TYPE_S32;
        gen_put(b, (size_t)k, (size_t)row++, a);
        val = gen_reg(scratch++);
      } else if (in->kind == GEN_E_DP && in->dp == GEN_DP_CTRL) {
        snprintf(labbuf, sizeof labbuf, "LC%02d", (*label)++);
        lab = labbuf;
        gen_put(b, (size_t)k, (size_t)row++, gen_branch(b, LT_CMP_EQ, gen_reg(from->reg), gen_reg(from->reg), lab));
      }
    }
    if (lab) gen_label(b, (size_t)k, (size_t)row, lab);
    if (rmw_write(L, i)) {
      /* written by the RMW of the read before it */
    } else if (rmw_read(L, i)) {
      const cev *w = &L->ev[(i + 1) % L->n];
      lt_rmw_op op = L->e[i].rmw == GEN_RMW_ADD ? LT_RMW_ADD : LT_RMW_EXCH;
      gen_put(b, (size_t)k, (size_t)row++,
              gen_rmw(b, rmw_sem(v, w), scope_or(v->ann.scope, o), op, v->reg, loc_name(L->locname[v->loc]),
                      gen_imm(w->value), gen_imm(0)));
    } else {
      gen_put(b, (size_t)k, (size_t)row++, access(b, L, v, o, val));
    }
    if (L->e[prev(i, L->n)].ins_after != LT_SEM_NONE)
      ptx_fence(b, (size_t)k, &row, L->e[prev(i, L->n)].ins_after, o->scope, false);
  }
}

static int nrows(const layout *L) {
  int most = 0;
  for (int t = 0; t < L->nthreads; t++) {
    int rows = 0;
    for (int p = 0; p < L->len[t]; p++) {
      size_t i = ev_at(L, t, p);
      rows += !rmw_write(L, i) + (p > 0 ? rows_before(&L->e[prev(i, L->n)]) : 0);
      rows += L->e[i].ins_before != LT_SEM_NONE;
      rows += L->e[prev(i, L->n)].ins_after != LT_SEM_NONE;
    }
    if (rows > most) most = rows;
  }
  return most;
}

static void add_locations(gen_build *b, const layout *L);

/* diy writes the final values first (C), litmus-gen's PTX tests last. */
static void add_condition(gen_build *b, const layout *L) {
  if (L->diy) add_locations(b, L);
  for (int k = 0; k < L->nthreads; k++) {
    int t = walk_of(L, k);
    for (int p = 0; p < L->len[t]; p++) {
      const cev *v = &L->ev[ev_at(L, t, p)];
      if (v->dir == 'R' && v->want >= 0) gen_cond_reg(b, k, v->reg, LT_CMP_EQ, v->want);
    }
  }
  if (!L->diy) add_locations(b, L);
}

static void add_locations(gen_build *b, const layout *L) {
  for (int name = 0; name < L->nlocs; name++)
    for (int l = 0; l < L->nlocs; l++)
      if (L->locname[l] == name && L->final[l]) {
        int last = 0;   /* the stored value of the last write */
        for (size_t j = 0; j < L->n; j++)
          if (L->ev[j].loc == l && L->ev[j].dir == 'W' && L->ev[j].value == L->writes[l]) last = L->ev[j].stored;
        gen_cond_loc(b, loc_name(name), LT_CMP_EQ, last);
      }
}

static char *doc_of(const gen_edge *e, size_t n) {
  lc_buf d;
  lc_buf_init(&d);
  lc_buf_puts(&d, "\"Cycle ");
  cycle_text(e, n, &d);
  lc_buf_puts(&d, " (litmus-gen): the condition is the final state of the cycle.\"");
  char *s = lc_buf_take(&d);
  lc_buf_fini(&d);
  return s;
}

static lt_test *ptx_test(const layout *L, const gen_cycle_options *o, const char *name, const char *doc) {
  gen_build b;
  gen_begin(&b, name, doc, (size_t)L->nthreads, (size_t)nrows(L));
  for (int k = 0; k < L->nthreads; k++) {
    int t = walk_of(L, k);
    gen_place(&b, (size_t)k, L->cta[t], L->cluster[t], L->gpu[t]);
  }
  for (int l = 0; l < L->nlocs; l++) gen_init_loc(&b, loc_name(l), 0);
  int label = 0;
  for (int k = 0; k < L->nthreads; k++) ptx_thread(&b, L, k, o, &label);
  add_condition(&b, L);
  return gen_finish(&b, LT_COND_EXISTS);
}

/* ---- the C++ tests: written as text, read back by the front end ------------------ */

static const char *cpp_scope(lt_scope s) {
  static const char *const n[] = {"device", "block", "cluster", "device", "system"};
  return n[s];
}

static const char *cpp_order(lt_sem s, bool consume) {
  switch (s) {
  case LT_SEM_ACQUIRE: return consume ? "consume" : "acquire";
  case LT_SEM_RELEASE: return "release";
  case LT_SEM_ACQ_REL: return "acq_rel";
  case LT_SEM_SC: return "seq_cst";
  default: return "relaxed";
  }
}

/* An atomic access's call: CUDA C++ through cuda::atomic_ref at its
 * scope, herd's C11 through the _explicit functions (diy's spelling). */
static void cxx_atomic(lc_buf *b, const gen_cycle_options *o, const char *fn, const char *loc, const char *arg,
                       lt_sem sem, bool consume, lt_scope scope) {
  if (o->dialect == GEN_DIALECT_C) {
    lc_buf_printf(b, "atomic_%s_explicit(%s,%s%smemory_order_%s)", fn, loc, arg ? arg : "", arg ? "," : "",
                  cpp_order(sem, consume));
  } else {
    lc_buf_printf(b, "cuda::atomic_ref<int, cuda::thread_scope_%s>(*%s).%s(%s%scuda::memory_order_%s)",
                  cpp_scope(scope_or(scope, o)), loc, fn, arg ? arg : "", arg ? ", " : "", cpp_order(sem, consume));
  }
}

static void cxx_fence(lc_buf *b, const gen_cycle_options *o, int depth, lt_sem sem, bool consume, lt_scope scope) {
  if (o->dialect == GEN_DIALECT_C)
    lc_buf_printf(b, "%*satomic_thread_fence(memory_order_%s);\n", 2 * depth, "", cpp_order(sem, consume));
  else
    lc_buf_printf(b, "%*scuda::atomic_thread_fence(cuda::memory_order_%s, cuda::thread_scope_%s);\n", 4 * depth, "",
                  cpp_order(sem, consume), cpp_scope(scope_or(scope, o)));
}

static void cxx_access(lc_buf *b, const layout *L, size_t i, const gen_cycle_options *o, const char *val,
                       const char *loc, bool declared) {
  const cev *v = &L->ev[i];
  lt_sem sem = access_sem(v, o);
  if (rmw_read(L, i)) {
    const cev *w = &L->ev[(i + 1) % L->n];
    char arg[32];
    snprintf(arg, sizeof arg, "%d", w->value);
    lc_buf_printf(b, declared ? "r%d = " : "int r%d = ", v->reg);
    cxx_atomic(b, o, L->e[i].rmw == GEN_RMW_ADD ? (o->dialect == GEN_DIALECT_C ? "fetch_add" : "fetch_add")
                                                : "exchange", loc, arg, rmw_sem(v, w), false, v->ann.scope);
    lc_buf_puts(b, ";\n");
  } else if (v->dir == 'R') {
    lc_buf_printf(b, declared ? "r%d = " : "int r%d = ", v->reg);
    if (sem == LT_SEM_WEAK) lc_buf_printf(b, "*%s;\n", loc);
    else cxx_atomic(b, o, "load", loc, NULL, sem, v->ann.consume, v->ann.scope), lc_buf_puts(b, ";\n");
  } else if (sem == LT_SEM_WEAK) {
    lc_buf_printf(b, "*%s = %s;\n", loc, val);
  } else {
    cxx_atomic(b, o, "store", loc, val, sem, false, v->ann.scope);
    lc_buf_puts(b, ";\n");
  }
}

/* Is location l atomic in the test (herd's C dialect types it so)? */
static bool loc_atomic(const layout *L, int l) {
  for (size_t j = 0; j < L->n; j++)
    if (L->ev[j].loc == l && ((L->ev[j].ann.set && L->ev[j].ann.sem != LT_SEM_WEAK) || rmw_read(L, j) || rmw_write(L, j)))
      return true;
  return false;
}

static void cxx_thread(lc_buf *b, const layout *L, int k, const gen_cycle_options *o) {
  bool c = o->dialect == GEN_DIALECT_C;
  int t = walk_of(L, k), unit = c ? 2 : 4;
  if (c) {
    lc_buf_printf(b, "\nP%d (", k);
  } else {
    lc_buf_printf(b, "\nP%d@cta %d,", k, L->cta[t]);
    if (L->cluster[t] >= 0) lc_buf_printf(b, "cluster %d,", L->cluster[t]);
    lc_buf_printf(b, "gpu %d (", L->gpu[t]);
  }
  bool uses[MAX_EDGES] = {false};
  for (int p = 0; p < L->len[t]; p++) uses[L->locname[L->ev[ev_at(L, t, p)].loc]] = true;
  if (c) {   /* diy: the last location first, `volatile int*` or `atomic_int*` */
    for (int l = L->nlocs - 1, first = 1; l >= 0; l--) {
      if (!uses[l]) continue;
      int loc = 0;
      while (L->locname[loc] != l) loc++;
      lc_buf_printf(b, "%s%s %s", first ? "" : ",", loc_atomic(L, loc) ? "atomic_int*" : "volatile int*", loc_name(l));
      first = 0;
    }
  } else {
    for (int l = 0, first = 1; l < L->nlocs; l++)
      if (uses[l]) lc_buf_printf(b, "%sint* %s", first ? "" : ", ", loc_name(l)), first = 0;
  }
  lc_buf_puts(b, ") {\n");
  int depth = 1;
  for (int p = 0; p < L->len[t]; p++) {
    size_t i = ev_at(L, t, p);
    const cev *v = &L->ev[i];
    char val[64], loc[64];
    snprintf(val, sizeof val, "%d", v->value);
    snprintf(loc, sizeof loc, "%s", loc_name(L->locname[v->loc]));
    bool declared = false;
    if (L->e[i].ins_before != LT_SEM_NONE) cxx_fence(b, o, depth, L->e[i].ins_before, L->e[i].ins_before_con, LT_SCOPE_NONE);
    if (p > 0) {
      const gen_edge *in = &L->e[prev(i, L->n)];
      const cev *from = &L->ev[prev(i, L->n)];
      if (in->kind == GEN_E_FENCE) {
        cxx_fence(b, o, depth, in->fence_sem, in->consume, in->fence_scope);
      } else if (in->kind == GEN_E_DP && in->dp == GEN_DP_DATA) {
        if (c) snprintf(val, sizeof val, "%d + (r%d & 128)", v->value, from->reg);
        else snprintf(val, sizeof val, "(r%d ^ r%d) + %d", from->reg, from->reg, v->value);
      } else if (in->kind == GEN_E_DP && in->dp == GEN_DP_ADDR) {
        /* diy's address dependency: an offset of 0 computed from the value read */
        snprintf(loc, sizeof loc, "(%s + (r%d & 128))", loc_name(L->locname[v->loc]), from->reg);
      } else if (in->kind == GEN_E_DP) {
        /* the rest of the thread under a test of the value read (diy: the value the cycle gives it) */
        if (v->dir == 'R' && !c) lc_buf_printf(b, "%*sint r%d = 0;\n", unit * depth, "", v->reg), declared = true;
        if (c) lc_buf_printf(b, "%*sif (r%d == %d) {\n", unit * depth, "", from->reg, from->want >= 0 ? from->want : 0);
        else lc_buf_printf(b, "%*sif (r%d == r%d) {\n", unit * depth, "", from->reg, from->reg);
        depth++;
      }
    }
    if (!rmw_write(L, i)) {
      lc_buf_printf(b, "%*s", unit * depth, "");
      cxx_access(b, L, i, o, val, loc, declared);
    }
    if (L->e[prev(i, L->n)].ins_after != LT_SEM_NONE && p > 0)
      cxx_fence(b, o, depth, L->e[prev(i, L->n)].ins_after, L->e[prev(i, L->n)].ins_after_con, LT_SCOPE_NONE);
  }
  while (--depth > 0) lc_buf_printf(b, "%*s}\n", unit * depth, "");
  lc_buf_puts(b, "}\n");
}

static int cpp_test(const layout *L, const gen_cycle_options *o, const char *name, const char *doc, char **text,
                    char **err) {
  lc_buf b;
  lc_buf_init(&b);
  if (o->dialect == GEN_DIALECT_C) {
    lc_buf_printf(&b, "C %s\n%s\n{}\n", name, doc);
  } else {
    lc_buf_printf(&b, "CUDA %s\n%s\n{\n", name, doc);
    for (int l = 0; l < L->nlocs; l++) lc_buf_printf(&b, "    [%s] = 0;\n", loc_name(l));
    lc_buf_puts(&b, "}\n");
  }
  for (int k = 0; k < L->nthreads; k++) cxx_thread(&b, L, k, o);
  /* the condition, through the PTX builder's proposition printer */
  gen_build cb;
  gen_begin(&cb, name, NULL, (size_t)L->nthreads, 0);
  add_condition(&cb, L);
  lt_test *ct = gen_finish(&cb, LT_COND_EXISTS);
  lc_buf_puts(&b, "\nexists ");
  lt_print_prop(&b, ct->cond);
  lc_buf_putc(&b, '\n');
  lt_test_free(ct);
  lc_source src;
  lc_source_from_string(&src, name, b.s, b.n);
  lc_diag d;
  lc_diag_init(&d, &src, NULL);
  lt_test *t = lt_parse(&src, &d);
  int rc = 0;
  if (!t) {
    const char *m = lc_diag_first_error(&d);
    rc = error(err, "the C++ test of the cycle does not read back (%s):\n%s", m ? m : "?", b.s);
  } else {
    lc_buf out;
    lc_buf_init(&out);
    lt_print(&out, t);
    *text = lc_buf_take(&out);
    lc_buf_fini(&out);
    lt_test_free(t);
  }
  lc_diag_fini(&d);
  lc_source_fini(&src);
  lc_buf_fini(&b);
  return rc;
}

/* ---- entry points ------------------------------------------------------------------ */

int gen_cycle_check(const gen_edge *e, size_t n, const gen_cycle_options *o, char **err) {
  assert(e && o && err);
  layout L;
  if (build_layout(&L, e, n, err) < 0) return -1;
  return check_dialect(&L, o, err);
}

/* diy's C target has no optimised conditions (final.ml, show_in_cond):
 * every read is in the condition, one the cycle leaves free with the
 * value of the write before it in its location's chain (0: the initial
 * value), as diy computes it (cycle.ml, do_set_read_v). */
static void every_read(layout *L) {
  int last[MAX_EDGES] = {0};
  for (size_t s = 0; s < L->n; s++) {
    cev *v = &L->ev[(L->loc_start + s) % L->n];
    if (v->dir == 'W') last[v->loc] = v->stored;
    else if (v->want < 0) v->want = last[v->loc];
  }
}

/* The test, called `force` when not NULL, else by its diy name. */
static int named_test(const gen_edge *e, size_t n, const gen_cycle_options *o, const char *force, char **name,
                      char **text, char **err) {
  layout L;
  if (build_layout(&L, e, n, err) < 0 || check_dialect(&L, o, err) < 0) return -1;
  L.diy = o->dialect == GEN_DIALECT_C;
  if (L.diy) every_read(&L);
  lc_buf nm;
  lc_buf_init(&nm);
  if (force) lc_buf_puts(&nm, force);
  else test_name(&L, &nm);
  char *doc = doc_of(e, n);
  int rc = 0;
  if (o->dialect != GEN_DIALECT_PTX) {
    rc = cpp_test(&L, o, nm.s, doc, text, err);
  } else {
    lt_test *t = ptx_test(&L, o, nm.s, doc);
    lc_buf out;
    lc_buf_init(&out);
    lt_print(&out, t);
    *text = lc_buf_take(&out);
    lc_buf_fini(&out);
    lt_test_free(t);
  }
  free(doc);
  if (rc == 0) *name = lc_buf_take(&nm);
  lc_buf_fini(&nm);
  return rc;
}

int gen_cycle_test(const gen_edge *e, size_t n, const gen_cycle_options *o, char **name, char **text,
                   char **err) {
  assert(e && o && name && text && err);
  return named_test(e, n, o, NULL, name, text, err);
}

/* ---- every cycle of a family ---------------------------------------------------- */

typedef struct each {
  const gen_edge *pool;
  size_t npool, nrelax;
  const gen_cycle_options *o;
  const gen_cycles_options *co;   /* diy7's rules (gen_cycles_diy), else NULL */
  gen_cycle_emit emit;
  void *arg;
  size_t idx[MAX_EDGES];
  gen_edge cyc[MAX_EDGES];
  LC_VEC(char *) names;
  int rc;
} each;

/* Is idx[0..m) the smallest of its rotations (each cycle once)? */
static bool least_rotation(const size_t *idx, size_t m) {
  for (size_t r = 1; r < m; r++)
    for (size_t k = 0; k < m; k++) {
      size_t a = idx[k], b = idx[(r + k) % m];
      if (a != b) {
        if (b < a) return false;
        break;
      }
    }
  return true;
}

static bool seen(each *E, const char *name) {
  for (size_t i = 0; i < E->names.n; i++)
    if (!strcmp(E->names.v[i], name)) return true;
  return false;
}

static bool diy_cycle_ok(const each *E, size_t m);
static void diy_cycle_text(const gen_edge *e, size_t n, const gen_cycle_options *o, lc_buf *b);

static void emit_cycle(each *E, size_t m) {
  if (!least_rotation(E->idx, m)) return;
  if (E->co) {
    if (!diy_cycle_ok(E, m)) return;
  } else {
    bool relaxed = false;
    for (size_t k = 0; k < m; k++) relaxed |= E->idx[k] < E->nrelax;
    if (!relaxed) return;
  }
  for (size_t k = 0; k < m; k++) E->cyc[k] = E->pool[E->idx[k]];
  char *name = NULL, *text = NULL, *err = NULL;
  if (gen_cycle_test(E->cyc, m, E->o, &name, &text, &err) < 0) {
    free(err);   /* not a cycle this dialect can test: skipped */
    return;
  }
  lc_buf cy;
  lc_buf_init(&cy);
  if (E->co) diy_cycle_text(E->cyc, m, E->o, &cy);
  else cycle_text(E->cyc, m, &cy);
  if (seen(E, name)) {
    /* two cycles, one diy name: the later one is called by its edges */
    lc_buf alt;
    lc_buf_init(&alt);
    for (size_t k = 0; k < m; k++) lc_buf_printf(&alt, "%s%s", k ? "+" : "", E->cyc[k].text);
    free(name);
    free(text);
    name = text = NULL;
    if (named_test(E->cyc, m, E->o, alt.s, &name, &text, &err) < 0) free(err);
    lc_buf_fini(&alt);
  }
  if (text) {
    E->rc = E->emit(name, text, cy.s, E->arg);
    lc_vec_push(&E->names, name);
    name = NULL;
  }
  free(name);
  free(text);
  lc_buf_fini(&cy);
}

/* Edges after idx[0..k): each starting where the last one ends, none
 * below the first (the first is the cycle's least). */
static bool diy_follows(const each *E, const gen_edge *a, const gen_edge *b);
static bool diy_prefix_ok(const each *E, size_t k);

static void extend(each *E, size_t k, unsigned min, unsigned max) {
  if (E->rc) return;
  if (k >= min && E->pool[E->idx[k - 1]].dst == E->pool[E->idx[0]].src) emit_cycle(E, k);
  if (k == max) return;
  for (size_t i = k ? E->idx[0] : 0; i < E->npool && !E->rc; i++) {
    if (k && E->pool[i].src != E->pool[E->idx[k - 1]].dst) continue;
    if (E->co && k && !diy_follows(E, &E->pool[E->idx[k - 1]], &E->pool[i])) continue;
    E->idx[k] = i;
    if (E->co && !diy_prefix_ok(E, k + 1)) continue;
    E->idx[k] = i;
    extend(E, k + 1, min, max);
  }
}

int gen_cycles_each(const gen_edge *pool, size_t npool, size_t nrelax, unsigned min, unsigned max,
                    const gen_cycle_options *o, gen_cycle_emit emit, void *arg) {
  assert(pool && o && emit && min >= 2 && min <= max && max <= MAX_EDGES && nrelax <= npool);
  each E = {.pool = pool, .npool = npool, .nrelax = nrelax, .o = o, .emit = emit, .arg = arg};
  extend(&E, 0, min, max);
  for (size_t i = 0; i < E.names.n; i++) free(E.names.v[i]);
  lc_vec_free(&E.names);
  return E.rc;
}

/* ---- diy7's enumeration ------------------------------------------------------------ */

void gen_cycles_options_init(gen_cycles_options *co) {
  co->mode = GEN_MODE_DEFAULT;
  co->nprocs = 4;
  co->max_ins = 4;
}

int gen_cycles_mode_parse(const char *s, gen_cycles_mode *m) {
  static const char *const names[] = {"default", "sc", "critical", "free", "uni", "thin"};
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++)
    if (!strcmp(s, names[i])) {
      *m = (gen_cycles_mode)i;
      return 0;
    }
  if (!strcmp(s, "total")) {
    *m = GEN_MODE_THIN;
    return 0;
  }
  return -1;
}

static bool internal(const gen_edge *e) { return !e->ext; }
static bool com(const gen_edge *e) { return e->kind == GEN_E_RF || e->kind == GEN_E_FR || e->kind == GEN_E_WS; }
static bool po_diff(const gen_edge *e) { return e->kind == GEN_E_PO && !e->same; }

/* Is Po(same, d1, d2) one of the safe edges (diy's po_safe, mode sc)? */
static bool po_safe(const each *E, bool same, char d1, char d2) {
  for (size_t i = E->nrelax; i < E->npool; i++) {
    const gen_edge *s = &E->pool[i];
    if (s->kind == GEN_E_PO && s->same == same && s->src == d1 && s->dst == d2 && !s->a1.set && !s->a2.set) return true;
  }
  return false;
}

/* alt.ml: choice_sc, choice_default, choice_critical, choice_free_alt,
 * choice_uni, choice_id, after pair_ok's own rules. */
static bool diy_follows(const each *E, const gen_edge *a, const gen_edge *b) {
  if (a->a2.set && b->a1.set && !ann_same(&a->a2, &b->a1)) return false;
  if ((a->kind == GEN_E_HAT && b->kind == GEN_E_HAT) || (a->kind == GEN_E_WS && b->kind == GEN_E_WS) ||
      (a->kind == GEN_E_FR && b->kind == GEN_E_WS) || (a->kind == GEN_E_RF && b->kind == GEN_E_FR))
    return a->ext != b->ext;
  bool ia = internal(a), ib = internal(b);
  bool rmw = a->kind == GEN_E_RMW || b->kind == GEN_E_RMW;
  switch (E->co->mode) {
  case GEN_MODE_DEFAULT: {
    bool com_int_a = ia && com(a), com_int_b = ib && com(b);
    if ((com_int_a || a->kind == GEN_E_INSERT) && (b->kind == GEN_E_DP || po_diff(b))) return true;
    if ((a->kind == GEN_E_DP || po_diff(a)) && com_int_b) return true;
    if (a->kind == GEN_E_DP && !a->same && po_diff(b)) return true;
    if (po_diff(a) && b->kind == GEN_E_DP && !b->same) return true;
    if (a->kind == GEN_E_RF && ia && b->kind == GEN_E_PO && b->same) return true;
    if (a->kind == GEN_E_PO && a->same && b->kind == GEN_E_RF && ib) return true;
    if (rmw) return true;
    return !(ia && ib);
  }
  case GEN_MODE_SC: {
    if ((a->kind == GEN_E_RF && ia && b->kind == GEN_E_DP) || (a->kind == GEN_E_DP && b->kind == GEN_E_RF && ib)) return true;
    if (a->kind == GEN_E_DP && ib && (b->kind == GEN_E_WS || b->kind == GEN_E_FR)) return !po_safe(E, a->same, a->src, b->dst);
    if (a->kind == GEN_E_PO && b->kind == GEN_E_DP)
      return !po_safe(E, a->same, a->src, a->dst) && !po_safe(E, a->same && b->same, a->src, b->dst);
    if (a->kind == GEN_E_DP && b->kind == GEN_E_PO)
      return !po_safe(E, b->same, b->src, b->dst) && !po_safe(E, a->same && b->same, a->src, b->dst);
    if (a->kind == GEN_E_PO && b->kind == GEN_E_PO) return !po_safe(E, a->same && b->same, a->src, b->dst);
    if (a->kind == GEN_E_RF && ia && b->kind == GEN_E_PO)
      return po_safe(E, b->same, b->src, b->dst) && !po_safe(E, b->same, a->src, b->dst);
    if (a->kind == GEN_E_PO && b->kind == GEN_E_RF && ib)
      return po_safe(E, a->same, a->src, a->dst) && !po_safe(E, a->same, a->src, b->dst);
    if (rmw) return true;
    return !(ia && ib);
  }
  case GEN_MODE_CRITICAL:
    if ((a->kind == GEN_E_WS || a->kind == GEN_E_FR) && b->kind == GEN_E_RF) return true;
    if (rmw) return true;
    return ia != ib;
  case GEN_MODE_UNI:
    if (a->kind == GEN_E_RF && b->kind == GEN_E_HAT) return ia != ib;
    if (a->kind == GEN_E_HAT && b->kind == GEN_E_FR) return ia != ib;
    return !(a->kind == GEN_E_PO && b->kind == GEN_E_PO);
  case GEN_MODE_FREE:
  case GEN_MODE_THIN:
    return true;
  }
  return true;
}

/* The relax edges a prefix uses: one kind at most (diy7 builds a cycle
 * around one relaxation); threads at most nprocs; internal edges in a
 * row (a thread's) below max_ins. */
static bool diy_prefix_ok(const each *E, size_t k) {
  size_t relax = SIZE_MAX, ext = 0, run = 0;
  for (size_t j = 0; j < k; j++) {
    size_t i = E->idx[j];
    if (i < E->nrelax) {
      if (relax != SIZE_MAX && relax != i) return false;
      relax = i;
    }
    if (E->pool[i].ext) ext++, run = 0;
    else if (++run > E->co->max_ins - 1) return false;
  }
  return ext <= E->co->nprocs;
}

/* Cycles diy7 leaves out: "Forbidden po vs. com" (gen/cycle.ml,
 * proc_back; diy7 -mode default, sc, critical, thin): a thread whose
 * first and last accesses are at one location, the last with the smaller
 * value (a read's value is the one it reads) - coherence forbids it
 * already; and "Observer" (CCompile_gen.ml, -obs avoid): a location of
 * three writes or more. */
static bool forbidden_back(const each *E, size_t m) {
  gen_edge cyc[MAX_EDGES];
  for (size_t k = 0; k < m; k++) cyc[k] = E->pool[E->idx[k]];
  layout *L = lc_xcalloc(1, sizeof *L);
  char *err = NULL;
  bool back = false;
  if (build_layout(L, cyc, m, &err) == 0) {
    /* diy7 -obs avoid: a location of three writes or more would need an observer */
    for (int l = 0; l < L->nlocs; l++) back |= L->writes[l] >= 3;
    if (E->co->mode == GEN_MODE_FREE || E->co->mode == GEN_MODE_UNI) L->nthreads = 0;
    for (int t = 0; t < L->nthreads && !back; t++) {
      if (L->len[t] < 2) continue;
      const cev *a = &L->ev[ev_at(L, t, 0)], *b = &L->ev[ev_at(L, t, L->len[t] - 1)];
      int va = a->dir == 'R' ? (a->want < 0 ? 0 : a->want) : a->value;
      int vb = b->dir == 'R' ? (b->want < 0 ? 0 : b->want) : b->value;
      /* diy compares the events themselves: the value, then the
       * direction, W before R - a read of the thread's own later write */
      back = a->loc == b->loc && (vb < va || (vb == va && b->dir == 'W' && a->dir == 'R'));
    }
  }
  free(err);
  free(L);
  return back;
}

static bool diy_cycle_ok(const each *E, size_t m) {
  const gen_edge *first = &E->pool[E->idx[0]], *last = &E->pool[E->idx[m - 1]];
  if (!diy_follows(E, last, first)) return false;
  size_t ext = 0, changes = 0, relax = 0, run = 0, lead = 0;
  bool seen_ext = false;
  for (size_t j = 0; j < m; j++) {
    const gen_edge *e = &E->pool[E->idx[j]];
    relax += E->idx[j] < E->nrelax;
    changes += !e->same;
    if (e->ext) {
      ext++;
      seen_ext = true;
      run = 0;
    } else {
      run++;
      if (!seen_ext) lead++;
    }
  }
  if (run + lead > E->co->max_ins - 1) return false;   /* the thread across the cut */
  if (forbidden_back(E, m)) return false;
  if (E->nrelax && !relax) return false;
  if ((E->co->mode == GEN_MODE_DEFAULT || E->co->mode == GEN_MODE_SC) && (ext <= 1 || changes < 2)) return false;
  return ext >= 1;
}

/* diy's spelling of an edge whose text left something to the reader ('*',
 * Dp's and Ctrl's defaults, the strong fence): as diy7 prints it. */
static void diy_spelling(gen_edge *e) {
  static const char *const dps[] = {"Addr", "Data", "Ctrl"};
  char ann[32] = "";
  const char *at = e->text;
  if (e->kind == GEN_E_PO) {
    const char *tail = e->text + 5;
    snprintf(ann, sizeof ann, "%s", tail);
    snprintf(e->text, sizeof e->text, "Po%c%c%c%s", e->same ? 's' : 'd', e->src, e->dst, ann);
  } else if (e->kind == GEN_E_DP && (strncmp(at, "DpAddr", 6) && strncmp(at, "DpData", 6) && strncmp(at, "DpCtrl", 6))) {
    const char *tail = e->text + (strncmp(at, "Ctrl", 4) ? 4 : 6);
    snprintf(ann, sizeof ann, "%s", tail);
    snprintf(e->text, sizeof e->text, "Dp%s%c%c%s", dps[e->dp], e->same ? 's' : 'd', e->dst, ann);
  } else if (e->kind == GEN_E_DP) {
    const char *tail = e->text + 8;
    snprintf(ann, sizeof ann, "%s", tail);
    snprintf(e->text, sizeof e->text, "Dp%s%c%c%s", dps[e->dp], e->same ? 's' : 'd', e->dst, ann);
  } else if (e->kind == GEN_E_FENCE && e->diy_fence) {
    static const struct { lt_sem sem; bool con; const char *w; } ords[] = {
      {LT_SEM_SC, false, "Sc"}, {LT_SEM_ACQUIRE, false, "Acq"}, {LT_SEM_RELEASE, false, "Rel"},
      {LT_SEM_ACQ_REL, false, "AR"}, {LT_SEM_RELAXED, false, "Rlx"}, {LT_SEM_ACQUIRE, true, "Con"},
    };
    const char *w = "Sc";
    for (size_t i = 0; i < LC_ARRAY_LEN(ords); i++)
      if (ords[i].sem == e->fence_sem && ords[i].con == e->consume) w = ords[i].w;
    /* the tail after the two directions */
    const char *p = e->text + 5;
    while (*p && *p != 's' && *p != 'd') p++;
    const char *tail = *p ? p + 3 : p;
    snprintf(ann, sizeof ann, "%s", tail);
    snprintf(e->text, sizeof e->text, "Fence%s%c%c%c%s", w, e->same ? 's' : 'd', e->src, e->dst, ann);
  }
  if (e->kind == GEN_E_PO || e->kind == GEN_E_DP || (e->kind == GEN_E_FENCE && e->diy_fence))
    e->base = (unsigned char)(strlen(e->text) - strlen(ann));
}

int gen_cycles_diy(const gen_edge *pool, size_t npool, size_t nrelax, unsigned min, unsigned max,
                   const gen_cycle_options *o, const gen_cycles_options *co, gen_cycle_emit emit, void *arg) {
  assert(pool && o && co && emit && min >= 2 && min <= max && max <= MAX_EDGES && nrelax <= npool);
  /* '*' expanded: R then W for each (diy's expand_edges); relax edges first */
  LC_VEC(gen_edge) x = {0};
  size_t xrelax = 0;
  for (size_t i = 0; i < npool; i++) {
    const gen_edge *e = &pool[i];
    if (pseudo(e) || e->kind == GEN_E_STORE || e->kind == GEN_E_LEAVE || e->kind == GEN_E_BACK) continue;
    for (int s = 0; s < (e->src_any ? 2 : 1); s++)
      for (int d = 0; d < (e->dst_any ? 2 : 1); d++) {
        gen_edge c = *e;
        if (e->src_any) c.src = "RW"[s], c.src_any = false;
        if (e->dst_any) c.dst = "RW"[d], c.dst_any = false;
        if (e->kind == GEN_E_DP && e->dst_any && strncmp(e->text, "Ctrl", 4) && strncmp(e->text, "DpCtrl", 6))
          c.dp = GEN_DP_ADDR;   /* Dpd*: diy's address default either way */
        if (e->src_any || e->dst_any || e->kind == GEN_E_DP || (e->kind == GEN_E_FENCE && e->diy_fence)) diy_spelling(&c);
        bool dup = false;
        for (size_t j = 0; j < x.n && !dup; j++) dup = !strcmp(x.v[j].text, c.text);
        if (dup) continue;
        lc_vec_push(&x, c);
        if (i < nrelax) xrelax = x.n;
      }
  }
  int rc = 0;
  if (x.n) {
    each E = {.pool = x.v, .npool = x.n, .nrelax = xrelax, .o = o, .co = co, .emit = emit, .arg = arg};
    extend(&E, 0, min, max);
    for (size_t i = 0; i < E.names.n; i++) free(E.names.v[i]);
    lc_vec_free(&E.names);
    rc = E.rc;
  }
  lc_vec_free(&x);
  return rc;
}

/* A cycle as diy7 prints it (its Orig= line): each edge with the
 * annotations of both its accesses, taken from its neighbours where it
 * writes none (gen/cycle.ml, patch_edges), Na (P outside C) for a plain
 * or unannotated one; no annotations when neither access has one. */
static void diy_cycle_text(const gen_edge *e, size_t n, const gen_cycle_options *o, lc_buf *b) {
  for (size_t i = 0; i < n; i++) {
    const gen_edge *x = &e[i];
    const gen_ann *a1 = x->a1.set ? &x->a1 : &e[prev(i, n)].a2, *a2 = x->a2.set ? &x->a2 : &e[(i + 1) % n].a1;
    if (x->kind == GEN_E_RMW) a1 = &x->a1, a2 = &x->a2;
    if (i) lc_buf_putc(b, ' ');
    const char *at = strchr(x->text, '@');
    lc_buf_putn(b, x->text, x->base);
    if (ann_on(a1) || ann_on(a2)) {
      const gen_ann *as[2] = {a1, a2};
      for (int k = 0; k < 2; k++) {
        static const char *const w[] = {"", "", "Rlx", "Acq", "Rel", "AR", "Sc"};
        if (!ann_on(as[k])) lc_buf_puts(b, o->dialect == GEN_DIALECT_C ? "Na" : "P");
        else lc_buf_puts(b, as[k]->consume ? "Con" : w[as[k]->sem]);
        static const char *const sc[] = {"", ".cta", ".cluster", ".gpu", ".sys"};
        if (as[k]->set && as[k]->scope != LT_SCOPE_NONE) lc_buf_puts(b, sc[as[k]->scope]);
      }
    }
    if (at) lc_buf_puts(b, at);
  }
}
