/* exhaustive.c - every small C++ program within a bound, and its check
 * against a table on whole outcome sets (exhaustive.h; docs/mappings.md,
 * "Exhaustive search").
 * SPDX-License-Identifier: MIT
 *
 * Pruning (each rule drops programs that cannot show anything a kept
 * program does not):
 * - at least two threads; every location is accessed by two threads and
 *   written by one (a location one thread owns orders nothing across
 *   threads); the threads are connected through locations (otherwise the
 *   outcomes are a product of smaller programs');
 * - a cycle: some thread accesses one location twice, or threads and
 *   locations form a cycle, or there is one location.  Every behaviour the
 *   C++ model forbids is a cycle of program order and communication, and
 *   such a cycle needs one of these (Shasha and Snir's critical cycles);
 * - a fence stands between two accesses of its thread (a fence with
 *   nothing on one side orders nothing).
 * A PTX bound with any=1 (--diff-models --exhaustive, where either model
 * may forbid anything) keeps only the first rule's connectedness, the
 * last, and symmetry: one thread, a location one thread owns, a read-only
 * one and programs without a cycle are all enumerated.
 */
#include "map/exhaustive.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/ast.h"
#include "map/map_lower.h"

/* ---- bounds -------------------------------------------------------------------------- */

/* The orders C++ gives each kind. */
static const unsigned cpp_orders[EX_NKINDS] = {
  [EX_R] = 1u << MAP_NA | 1u << MAP_RLX | 1u << MAP_ACQ | 1u << MAP_SC,
  [EX_W] = 1u << MAP_NA | 1u << MAP_RLX | 1u << MAP_REL | 1u << MAP_SC,
  [EX_U] = 1u << MAP_RLX | 1u << MAP_ACQ | 1u << MAP_REL | 1u << MAP_ACQ_REL | 1u << MAP_SC,
  [EX_C] = 1u << MAP_RLX | 1u << MAP_ACQ | 1u << MAP_REL | 1u << MAP_ACQ_REL | 1u << MAP_SC,
  [EX_F] = 1u << MAP_ACQ | 1u << MAP_REL | 1u << MAP_ACQ_REL | 1u << MAP_SC,
};

/* The orders PTX gives each kind: ld and st .weak (MAP_NA), .relaxed,
 * .acquire (ld), .release (st); atom .relaxed to .acq_rel; fence.acq_rel
 * and fence.sc (fence.proxy.alias goes with aliases=1). */
static const unsigned ptx_orders[EX_NKINDS] = {
  [EX_R] = 1u << MAP_NA | 1u << MAP_RLX | 1u << MAP_ACQ,
  [EX_W] = 1u << MAP_NA | 1u << MAP_RLX | 1u << MAP_REL,
  [EX_U] = 1u << MAP_RLX | 1u << MAP_ACQ | 1u << MAP_REL | 1u << MAP_ACQ_REL,
  [EX_C] = 1u << MAP_RLX | 1u << MAP_ACQ | 1u << MAP_REL | 1u << MAP_ACQ_REL,
  [EX_F] = 1u << MAP_ACQ_REL | 1u << MAP_SC,
};

void ex_bound_default_ptx(ex_bound *b) {
  memset(b, 0, sizeof *b);
  b->threads = 2;
  b->accesses = 2;
  b->locs = 2;
  b->fences = 1;
  b->scopes = 1u << MAP_DEVICE;
  b->strong = 32;
  b->rmws = 1;
  b->ptx = b->any = b->aliases = true;
  b->ctas = 2;
  b->events = 4;
  for (int k = 0; k < EX_NKINDS; k++) b->orders[k] = ptx_orders[k];
}

void ex_bound_default(ex_bound *b) {
  memset(b, 0, sizeof *b);
  b->threads = 3;
  b->accesses = 2;
  b->locs = 2;
  b->fences = 0;
  b->ctrl = false;
  b->cas = false;
  b->scopes = 1u << MAP_DEVICE;
  b->strong = 3;
  b->rmws = 8;
  for (int k = 0; k < EX_NKINDS; k++) b->orders[k] = cpp_orders[k] & ~(1u << MAP_NA);
}

static const char *const order_short[MAP_NORDERS] = {"na", "rlx", "acq", "rel", "acq_rel", "sc"};
/* PTX's words for them (.weak for non-atomic) */
static const char *const order_ptx[MAP_NORDERS] = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc"};
static const char *const scope_ptx[MAP_NSCOPES] = {"thread", "cta", "cluster", "gpu", "sys"};

static int parse_orders(const char *v, size_t n, unsigned *mask) {
  *mask = 0;
  while (n) {
    size_t w = 0;
    while (w < n && v[w] != '+') w++;
    int o = -1;
    for (int i = 0; i < MAP_NORDERS; i++)   /* MAP_VOL has no name here: not a bound's order */
      if (order_short[i] && ((strlen(order_short[i]) == w && !memcmp(order_short[i], v, w)) ||
                             (strlen(order_ptx[i]) == w && !memcmp(order_ptx[i], v, w))))
        o = i;
    if (o < 0) return -1;
    *mask |= 1u << o;
    v += w;
    n -= w;
    if (n) { v++; n--; }
  }
  return *mask ? 0 : -1;
}

static int parse_scopes(const char *v, size_t n, unsigned *mask) {
  *mask = 0;
  while (n) {
    size_t w = 0;
    while (w < n && v[w] != '+') w++;
    int s = -1;
    for (int i = 0; i < MAP_NSCOPES; i++)
      if ((strlen(map_cscope_name(i)) == w && !memcmp(map_cscope_name(i), v, w)) ||
          (i != MAP_THREAD && strlen(scope_ptx[i]) == w && !memcmp(scope_ptx[i], v, w)))
        s = i;
    if (s < 0) return -1;
    *mask |= 1u << s;
    v += w;
    n -= w;
    if (n) { v++; n--; }
  }
  return *mask ? 0 : -1;
}

static int bad_bound(char **err, const char *what, const char *s, size_t n) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "--bound: %s in '%.*s'", what, (int)n, s);
  *err = lc_buf_take(&b);
  lc_buf_fini(&b);
  return -1;
}

int ex_bound_parse(const char *spec, ex_bound *b, char **err) {
  *err = NULL;
  const char *s = spec;
  while (*s) {
    size_t n = strcspn(s, ",");
    const char *eq = memchr(s, '=', n);
    if (!eq) return bad_bound(err, "expected NAME=VALUE", s, n);
    size_t kn = (size_t)(eq - s), vn = n - kn - 1;
    const char *v = eq + 1;
    char num[16] = {0};
    memcpy(num, v, vn < sizeof num - 1 ? vn : sizeof num - 1);
    char *end;
    long x = strtol(num, &end, 10);
    bool isnum = vn && vn < sizeof num && *end == '\0';
#define KEY(k) (kn == strlen(k) && !memcmp(s, k, kn))
    if (KEY("threads") && isnum && x >= (b->ptx ? 1 : 2) && x <= EX_MAX_THREADS) b->threads = (int)x;
    else if (KEY("accesses") && isnum && x >= 1 && x <= 4) b->accesses = (int)x;
    else if (KEY("locs") && isnum && x >= 1 && x <= EX_MAX_LOCS) b->locs = (int)x;
    else if (KEY("fences") && isnum && x >= 0 && x <= 3) b->fences = (int)x;
    else if (KEY("ctrl") && isnum && (x == 0 || (x == 1 && !b->ptx))) b->ctrl = x;
    else if (KEY("aliases") && isnum && b->ptx && (x == 0 || x == 1)) b->aliases = x;
    else if (KEY("ctas") && isnum && b->ptx && x >= 1 && x <= EX_MAX_THREADS) b->ctas = (int)x;
    else if (KEY("events") && isnum && x >= 1 && x <= EX_MAX_THREADS * EX_MAX_EVENTS) b->events = (int)x;
    else if (KEY("cas") && isnum && (x == 0 || x == 1)) b->cas = x;
    else if (KEY("strong") && isnum && x >= 0 && x <= 32) b->strong = (int)x;
    else if (KEY("rmws") && isnum && x >= 0 && x <= 32) b->rmws = (int)x;
    else if (KEY("scopes")) { if (parse_scopes(v, vn, &b->scopes)) return bad_bound(err, "unknown scope", s, n); }
    else if (KEY("orders")) {
      unsigned m;
      if (parse_orders(v, vn, &m)) return bad_bound(err, "unknown order", s, n);
      for (int k = 0; k < EX_NKINDS; k++) b->orders[k] = (b->ptx ? ptx_orders : cpp_orders)[k] & m;
    }
    else return bad_bound(err, "unknown name or value out of range", s, n);
#undef KEY
    s += n;
    if (*s) s++;
  }
  if (b->accesses + b->fences > EX_MAX_EVENTS) return bad_bound(err, "too many events per thread", spec, strlen(spec));
  if (b->ptx && !(b->scopes & ~(1u << MAP_THREAD))) return bad_bound(err, "PTX has no thread scope", spec, strlen(spec));
  if (b->ptx) b->scopes &= ~(1u << MAP_THREAD);
  return 0;
}

static void bound_print_ptx(lc_buf *out, const ex_bound *b) {
  lc_buf_printf(out, "threads=%d,accesses=%d,fences=%d,locs=%d,aliases=%d,ctas=%d,cas=%d,strong=%d,rmws=%d,scopes=",
                b->threads, b->accesses, b->fences, b->locs, b->aliases, b->ctas, b->cas, b->strong, b->rmws);
  const char *sep = "";
  for (int s = 0; s < MAP_NSCOPES; s++)
    if (b->scopes >> s & 1) { lc_buf_printf(out, "%s%s", sep, scope_ptx[s]); sep = "+"; }
  unsigned all = 0;
  for (int k = 0; k < EX_NKINDS; k++) all |= b->orders[k];
  lc_buf_puts(out, ",orders=");
  sep = "";
  for (int o = 0; o < MAP_NORDERS; o++)
    if (all >> o & 1) { lc_buf_printf(out, "%s%s", sep, order_ptx[o]); sep = "+"; }
  if (b->events) lc_buf_printf(out, ",events=%d", b->events);
}

void ex_bound_print(lc_buf *out, const ex_bound *b) {
  if (b->ptx) { bound_print_ptx(out, b); return; }
  lc_buf_printf(out, "threads=%d,accesses=%d,locs=%d,fences=%d,ctrl=%d,cas=%d,strong=%d,rmws=%d,scopes=", b->threads,
                b->accesses, b->locs, b->fences, b->ctrl, b->cas, b->strong, b->rmws);
  const char *sep = "";
  for (int s = 0; s < MAP_NSCOPES; s++)
    if (b->scopes >> s & 1) { lc_buf_printf(out, "%s%s", sep, map_cscope_name(s)); sep = "+"; }
  unsigned all = 0;
  for (int k = 0; k < EX_NKINDS; k++) all |= b->orders[k];
  lc_buf_puts(out, ",orders=");
  sep = "";
  for (int o = 0; o < MAP_NORDERS; o++)
    if (all >> o & 1) { lc_buf_printf(out, "%s%s", sep, order_short[o]); sep = "+"; }
}

void ex_bound_fit(ex_bound *b, const map_table *m) {
  static const map_kind kinds[EX_NKINDS] = {MAP_LOAD, MAP_STORE, MAP_RMW, MAP_RMW, MAP_FENCE};
  for (int k = 0; k < EX_NKINDS; k++)
    for (int o = 0; o < MAP_NORDERS; o++)
      if (!m->rows[kinds[k]][o].nalts) b->orders[k] &= ~(1u << o);
  for (int s = 0; s < MAP_NSCOPES; s++)
    if (m->scope[s] == LT_SCOPE_NONE) b->scopes &= ~(1u << s);
  /* non-atomic accesses race unless a read guards them */
  if (!b->ctrl) { b->orders[EX_R] &= ~(1u << MAP_NA); b->orders[EX_W] &= ~(1u << MAP_NA); }
  else { b->orders[EX_R] |= cpp_orders[EX_R] & (1u << MAP_NA); b->orders[EX_W] |= cpp_orders[EX_W] & (1u << MAP_NA); }
  if (!b->fences) b->orders[EX_F] = 0;
  if (!b->cas) b->orders[EX_C] = 0;
}

/* ---- encoding and symmetry ----------------------------------------------------------- */

static bool is_read(const ex_event *e) { return e->kind == EX_R || e->kind == EX_U || e->kind == EX_C; }
static bool is_write(const ex_event *e) { return e->kind == EX_W || e->kind == EX_U || e->kind == EX_C; }
static bool needs_ref(const ex_event *e) { return e->guarded || e->expect_ref; }

/* flip: bit l swaps location l's name and its alias's */
static unsigned ev_code(const ex_event *e, const unsigned char *locperm, unsigned flip) {
  unsigned loc = e->kind == EX_F ? 0 : locperm[e->loc];
  unsigned alias = e->kind == EX_F ? 0 : (e->alias ^ (flip >> e->loc & 1));
  return (unsigned)e->kind << 20 | (unsigned)e->order << 16 | (unsigned)e->scope << 12 | loc << 8 |
         alias << 2 | (unsigned)e->guarded << 1 | (unsigned)e->expect_ref;
}

/* Compares thread a of p with thread b of q under location maps. */
static int thread_cmp(const ex_prog *p, int a, const unsigned char *pa, const ex_prog *q, int b,
                      const unsigned char *pb) {
  if (p->n[a] != q->n[b]) return p->n[a] < q->n[b] ? -1 : 1;
  for (int i = 0; i < p->n[a]; i++) {
    unsigned x = ev_code(&p->ev[a][i], pa, 0), y = ev_code(&q->ev[b][i], pb, 0);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/* The program's encoding under thread order sigma (new i is old sigma[i])
 * and location map pi: the threads' skeletons, then their CTAs (numbered
 * in order of first use, so that CTA names are no freedom either), then
 * the references.  The skeletons come first: the least encoding has its
 * threads in menu order, which is the order ex_enumerate builds them in. */
static size_t encode(const ex_prog *p, const int *sigma, const unsigned char *pi, unsigned flip, unsigned *out) {
  size_t n = 0;
  int inv[EX_MAX_THREADS];
  for (int i = 0; i < p->nthreads; i++) inv[sigma[i]] = i;
  for (int i = 0; i < p->nthreads; i++) {
    int t = sigma[i];
    out[n++] = p->n[t];
    for (int k = 0; k < p->n[t]; k++) out[n++] = ev_code(&p->ev[t][k], pi, flip);
  }
  unsigned char cta[EX_MAX_THREADS];
  memset(cta, 0xff, sizeof cta);
  unsigned char next = 0;
  for (int i = 0; i < p->nthreads; i++) {
    int c = p->cta[sigma[i]];
    if (cta[c] == 0xff) cta[c] = next++;
    out[n++] = cta[c];
  }
  for (int i = 0; i < p->nthreads; i++) {
    int t = sigma[i];
    for (int k = 0; k < p->n[t]; k++)
      if (needs_ref(&p->ev[t][k])) out[n++] = (unsigned)inv[p->ev[t][k].ref_t] << 8 | (unsigned)p->ev[t][k].ref_p;
  }
  return n;
}

static bool next_perm(int *a, int n) {
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return false;
  int j = n - 1;
  while (a[j] <= a[i]) j--;
  int t = a[i]; a[i] = a[j]; a[j] = t;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) { t = a[l]; a[l] = a[r]; a[r] = t; }
  return true;
}

enum { MAX_CODE = EX_MAX_THREADS * (EX_MAX_EVENTS * 2 + 2) };

/* The locations some access reaches through their alias: swapping the
 * two names of one of them (a flip) is a symmetry like renaming. */
static unsigned aliased(const ex_prog *p) {
  unsigned m = 0;
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++)
      if (p->ev[t][k].kind != EX_F && p->ev[t][k].alias) m |= 1u << p->ev[t][k].loc;
  return m;
}

/* The next subset of mask after f (f == mask: none). */
static bool next_flip(unsigned *f, unsigned mask) {
  if (*f == mask) return false;
  *f = (*f - mask) & mask;
  return true;
}

static bool canonical(const ex_prog *p, int nlocs) {
  unsigned id[MAX_CODE], other[MAX_CODE];
  unsigned am = aliased(p);
  int sigma[EX_MAX_THREADS], lp[EX_MAX_LOCS];
  unsigned char pi[EX_MAX_LOCS];
  for (int i = 0; i < p->nthreads; i++) sigma[i] = i;
  for (int l = 0; l < EX_MAX_LOCS; l++) pi[l] = (unsigned char)l;
  size_t n = encode(p, sigma, pi, 0, id);
  for (int l = 0; l < nlocs; l++) lp[l] = l;
  do {
    for (int l = 0; l < nlocs; l++) pi[l] = (unsigned char)lp[l];
    unsigned flip = 0;
    do {
      for (int i = 0; i < p->nthreads; i++) sigma[i] = i;
      do {
        encode(p, sigma, pi, flip, other);
        int c = 0;
        for (size_t i = 0; i < n; i++)
          if (other[i] != id[i]) { c = other[i] < id[i] ? -1 : 1; break; }
        if (c < 0) return false;
      } while (next_perm(sigma, p->nthreads));
    } while (next_flip(&flip, am));
  } while (next_perm(lp, nlocs));
  return true;
}

_Static_assert(EX_KEY_MAX == MAX_CODE, "a key is an encoding");

void ex_prog_key(const ex_prog *p, unsigned key[EX_KEY_MAX]) {
  unsigned other[MAX_CODE];
  int sigma[EX_MAX_THREADS], lp[EX_MAX_LOCS];
  unsigned char pi[EX_MAX_LOCS];
  int nlocs = 0;
  unsigned am = aliased(p);
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++)
      if (p->ev[t][k].kind != EX_F && p->ev[t][k].loc + 1 > nlocs) nlocs = p->ev[t][k].loc + 1;
  memset(key, 0, EX_KEY_MAX * sizeof *key);
  bool first = true;
  for (int l = 0; l < nlocs; l++) lp[l] = l;
  for (int l = nlocs; l < EX_MAX_LOCS; l++) pi[l] = (unsigned char)l;
  do {
    for (int l = 0; l < nlocs; l++) pi[l] = (unsigned char)lp[l];
    unsigned flip = 0;
    do {
      for (int i = 0; i < p->nthreads; i++) sigma[i] = i;
      do {
        memset(other, 0, sizeof other);
        encode(p, sigma, pi, flip, other);
        if (first || memcmp(other, key, EX_KEY_MAX * sizeof *key) < 0) memcpy(key, other, EX_KEY_MAX * sizeof *key);
        first = false;
      } while (next_perm(sigma, p->nthreads));
    } while (next_flip(&flip, am));
  } while (next_perm(lp, nlocs));
}

size_t ex_weakenings(const ex_prog *p, const ex_bound *b, ex_prog *out) {
  size_t n = 0;
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++) {
      const ex_event *e = &p->ev[t][k];
      int to[2] = {-1, -1};
      switch (e->order) {
      case MAP_SC:
        to[0] = e->kind == EX_R ? MAP_ACQ : e->kind == EX_W ? MAP_REL : MAP_ACQ_REL;
        break;
      case MAP_ACQ_REL: to[0] = MAP_ACQ; to[1] = MAP_REL; break;
      case MAP_ACQ: case MAP_REL: to[0] = MAP_RLX; break;
      case MAP_RLX: to[0] = MAP_NA; break;
      default: break;
      }
      for (int i = 0; i < 2; i++)
        if (to[i] >= 0 && (b->orders[e->kind] >> to[i] & 1)) {
          out[n] = *p;
          out[n].ev[t][k].order = (unsigned char)to[i];
          if (to[i] == MAP_NA) out[n].ev[t][k].scope = MAP_DEVICE;   /* no scope: as enumerated */
          n++;
        }
      if (e->order == MAP_NA || e->order == MAP_VOL) continue;   /* no scope to narrow */
      for (int s = (int)e->scope - 1; s >= 0; s--)
        if (b->scopes >> s & 1) {
          out[n] = *p;
          out[n].ev[t][k].scope = (unsigned char)s;
          n++;
          break;
        }
    }
  return n;
}

/* ---- pruning --------------------------------------------------------------------------- */

static int used_locs(const ex_prog *p, unsigned *readers, unsigned *writers, unsigned *touch, bool *repeat) {
  int nl = 0;
  *repeat = false;
  memset(readers, 0, EX_MAX_LOCS * sizeof *readers);
  memset(writers, 0, EX_MAX_LOCS * sizeof *writers);
  memset(touch, 0, EX_MAX_LOCS * sizeof *touch);
  for (int t = 0; t < p->nthreads; t++) {
    unsigned seen = 0;
    for (int k = 0; k < p->n[t]; k++) {
      const ex_event *e = &p->ev[t][k];
      if (e->kind == EX_F) continue;
      if (seen >> e->loc & 1) *repeat = true;
      seen |= 1u << e->loc;
      touch[e->loc] |= 1u << t;
      if (is_read(e)) readers[e->loc] |= 1u << t;
      if (is_write(e)) writers[e->loc] |= 1u << t;
      if (e->loc + 1 > nl) nl = e->loc + 1;
    }
  }
  return nl;
}

static int popcount(unsigned x) { int n = 0; for (; x; x &= x - 1) n++; return n; }

/* Union-find over threads and locations: connected, and with a cycle? */
static int uf_find(int *u, int x) { while (u[x] != x) x = u[x] = u[u[x]]; return x; }

/* Some access of each location through its own name: a location reached
 * only through its alias is the same program with the names swapped. */
static bool named(const ex_prog *p, int nl) {
  unsigned own = 0;
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++)
      if (p->ev[t][k].kind != EX_F && !p->ev[t][k].alias) own |= 1u << p->ev[t][k].loc;
  return own == (1u << nl) - 1;
}

static bool keep(const ex_prog *p, bool any) {
  unsigned readers[EX_MAX_LOCS], writers[EX_MAX_LOCS], touch[EX_MAX_LOCS];
  bool repeat;
  int nl = used_locs(p, readers, writers, touch, &repeat);
  for (int l = 0; l < nl; l++) {
    if (!touch[l]) return false;     /* locations 0..nl-1, each used */
    if (!any && (popcount(touch[l]) < 2 || !writers[l])) return false;
  }
  if (any && !named(p, nl)) return false;
  int u[EX_MAX_THREADS + EX_MAX_LOCS];
  for (int i = 0; i < p->nthreads + nl; i++) u[i] = i;
  bool cycle = false;
  int comps = p->nthreads + nl;
  for (int l = 0; l < nl; l++)
    for (int t = 0; t < p->nthreads; t++)
      if (touch[l] >> t & 1) {
        int a = uf_find(u, t), b = uf_find(u, p->nthreads + l);
        if (a == b) cycle = true;
        else { u[a] = b; comps--; }
      }
  if (comps != 1) return false;
  return any || cycle || repeat || nl == 1;
}

/* ---- the threads one may write ---------------------------------------------------------- */

typedef LC_VEC(ex_event) evvec;
typedef struct menu { ex_prog *v; size_t n, cap; } menu;   /* one-thread programs */

static void access_options(const ex_bound *b, evvec *out) {
  for (int k = 0; k < EX_F; k++)
    for (int l = 0; l < b->locs && (k != EX_C || b->cas || !b->ptx); l++)
      for (int o = 0; o < MAP_NORDERS; o++) {
        if (!(b->orders[k] >> o & 1)) continue;
        for (int s = 0; s < MAP_NSCOPES; s++) {
          if (!(b->scopes >> s & 1)) continue;
          for (int x = 0; x < (k == EX_C ? 2 : 1); x++)
            for (int al = 0; al <= (b->aliases ? 1 : 0); al++) {
              ex_event e = {(unsigned char)k, (unsigned char)l, (unsigned char)o,
                            (unsigned char)(o == MAP_NA ? MAP_DEVICE : s), false, x == 1, -1, -1,
                            (unsigned char)al};
              lc_vec_push(out, e);
            }
          if (o == MAP_NA) break;   /* no scope */
        }
      }
}

static void fence_options(const ex_bound *b, evvec *out) {
  for (int o = 0; o < MAP_NORDERS; o++)
    if (b->orders[EX_F] >> o & 1)
      for (int s = 0; s < MAP_NSCOPES; s++)
        if (b->scopes >> s & 1) {
          ex_event e = {EX_F, 0, (unsigned char)o, (unsigned char)s, false, false, -1, -1, 0};
          lc_vec_push(out, e);
        }
  if (b->ptx && b->aliases && b->fences) {   /* fence.proxy.alias: no order, no scope */
    ex_event e = {EX_F, 0, MAP_NA, MAP_DEVICE, false, false, -1, -1, 0};
    lc_vec_push(out, e);
  }
}

static bool is_strong(const ex_event *e) { return e->order != MAP_NA && e->order != MAP_RLX; }

static int strong_count(const ex_prog *p) {
  int n = 0;
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++) n += is_strong(&p->ev[t][k]);
  return n;
}

static int rmw_count(const ex_prog *p) {
  int n = 0;
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++) n += p->ev[t][k].kind == EX_U || p->ev[t][k].kind == EX_C;
  return n;
}

/* An acquire with nothing after it in its thread, or a release with
 * nothing before it, orders nothing under the C++ model (sequential
 * consistency and read-modify-writes aside): the thread with it relaxed (acq_rel: the other half)
 * stands for it. */
static bool idle_order(const ex_prog *t) {
  int n = t->n[0];
  for (int k = 0; k < n; k++) {
    const ex_event *e = &t->ev[0][k];
    bool acq = e->order == MAP_ACQ || e->order == MAP_ACQ_REL, rel = e->order == MAP_REL || e->order == MAP_ACQ_REL;
    /* an RMW's halves work together: what its acquire brings, its release passes on */
    if (e->kind == EX_F || e->kind == EX_U || e->kind == EX_C) continue;
    if (acq && k == n - 1) return true;
    if (rel && k == 0) return true;
  }
  return false;
}

/* Threads of `left` more accesses after the prefix in cur. */
static void grow(const ex_bound *b, const evvec *acc, const evvec *fen, ex_prog *cur, int accesses,
                 int fences, menu *out) {
  if (accesses && (b->any || !idle_order(cur)) && strong_count(cur) <= b->strong && rmw_count(cur) <= b->rmws) {
    ex_prog keep_one;
    memset(&keep_one, 0, sizeof keep_one);   /* programs compare as bytes */
    keep_one.nthreads = 1;
    keep_one.n[0] = cur->n[0];
    memcpy(keep_one.ev[0], cur->ev[0], cur->n[0] * sizeof *cur->ev[0]);
    lc_vec_push(out, keep_one);
  }
  if (accesses == b->accesses) return;
  int n = cur->n[0];
  ex_event *prev = n ? &cur->ev[0][n - 1] : NULL;
  /* an optional fence between the last access and the next */
  for (size_t f = 0; f <= (accesses && fences < b->fences ? fen->n : 0); f++) {
    int m = n;
    if (f) cur->ev[0][m++] = fen->v[f - 1];
    for (size_t a = 0; a < acc->n; a++) {
      for (int g = 0; g < (b->ctrl && !f && prev && is_read(prev) ? 2 : 1); g++) {
        cur->ev[0][m] = acc->v[a];
        cur->ev[0][m].guarded = g;
        cur->n[0] = (unsigned char)(m + 1);
        grow(b, acc, fen, cur, accesses + 1, fences + (f ? 1 : 0), out);
      }
    }
    cur->n[0] = (unsigned char)n;
  }
}

static int menu_cmp(const void *x, const void *y) {
  static const unsigned char id[EX_MAX_LOCS] = {0, 1, 2};
  return thread_cmp(x, 0, id, y, 0, id);
}

/* ---- programs ------------------------------------------------------------------------------ */

typedef LC_VEC(ex_prog) progvec;

/* Every way to give each reference a write of another thread to the
 * location the reference reads (a guard: the read before it). */
static void resolve(ex_prog *p, int t, int k, int nlocs, progvec *out) {
  while (t < p->nthreads && (k >= p->n[t] || !needs_ref(&p->ev[t][k]))) {
    if (k + 1 < p->n[t]) k++;
    else { t++; k = 0; }
  }
  if (t == p->nthreads) {
    if (canonical(p, nlocs)) lc_vec_push(out, *p);
    return;
  }
  ex_event *e = &p->ev[t][k];
  int loc = e->guarded ? p->ev[t][k - 1].loc : e->loc;
  int nt = k + 1 < p->n[t] ? t : t + 1, nk = k + 1 < p->n[t] ? k + 1 : 0;
  for (int u = 0; u < p->nthreads; u++) {
    if (u == t) continue;
    for (int j = 0; j < p->n[u]; j++) {
      const ex_event *w = &p->ev[u][j];
      if (w->kind == EX_F || w->loc != loc || !is_write(w)) continue;
      e->ref_t = (signed char)u;
      e->ref_p = (signed char)j;
      resolve(p, nt, nk, nlocs, out);
    }
  }
  e->ref_t = e->ref_p = -1;
}

/* Smaller first (the first counterexample found is a smallest one); of
 * one size, fewer strong orders first, so that the weaker programs an
 * order is compared with are mostly checked already. */
static int size_cmp(const void *x, const void *y) {
  const ex_prog *a = x, *b = y;
  size_t ea = ex_prog_events(a), eb = ex_prog_events(b);
  if (ea != eb) return ea < eb ? -1 : 1;
  if (a->nthreads != b->nthreads) return a->nthreads < b->nthreads ? -1 : 1;
  int sa = strong_count(a), sb = strong_count(b);
  if (sa != sb) return sa < sb ? -1 : 1;
  return 0;
}

/* The threads' CTAs, as restricted growth strings (thread 0 in CTA 0, each
 * next thread in a CTA used before or the next new one): every placement
 * up to CTA names; canonical() takes out those equal up to thread order. */
static void place(ex_prog *p, int t, int used, int ctas, int nlocs, progvec *out) {
  if (t == p->nthreads) {
    resolve(p, 0, 0, nlocs, out);
    return;
  }
  for (int c = 0; c <= used && c < ctas; c++) {
    p->cta[t] = (unsigned char)c;
    place(p, t + 1, c == used ? used + 1 : used, ctas, nlocs, out);
  }
  p->cta[t] = 0;
}

/* The program of the menu entries idx[0..nt-1], when the bound keeps it. */
static void assemble(const ex_bound *b, const menu *m, const size_t *idx, int nt, progvec *all) {
  ex_prog p;
  memset(&p, 0, sizeof p);
  p.nthreads = (unsigned char)nt;
  for (int i = 0; i < nt; i++) {
    p.n[i] = m->v[idx[i]].n[0];
    memcpy(p.ev[i], m->v[idx[i]].ev[0], sizeof p.ev[i]);
  }
  if (strong_count(&p) > b->strong || rmw_count(&p) > b->rmws || !keep(&p, b->any)) return;
  unsigned r[EX_MAX_LOCS], w[EX_MAX_LOCS], tch[EX_MAX_LOCS];
  bool rep;
  int nl = used_locs(&p, r, w, tch, &rep);
  if (b->ctas > 1 && nt > 1) place(&p, 1, 1, b->ctas, nl, all);
  else resolve(&p, 0, 0, nl, all);
}

/* Every non-decreasing tuple of menu entries for threads i..nt-1 (the
 * menu is in order of length, so a tuple past the event budget ends the
 * loop); the depth is the number of threads, at most EX_MAX_THREADS. */
static void tuples(const ex_bound *b, const menu *m, size_t *idx, int i, int nt, int events, progvec *all) {
  if (i == nt) {
    if (!b->min_events || events >= b->min_events) assemble(b, m, idx, nt, all);
    return;
  }
  for (size_t j = i ? idx[i - 1] : 0; j < m->n; j++) {
    int e = events + m->v[j].n[0];
    /* each thread after this one has at least as many events */
    if (b->events && e + (nt - i - 1) * m->v[j].n[0] > b->events) break;
    idx[i] = j;
    tuples(b, m, idx, i + 1, nt, e, all);
  }
}

size_t ex_enumerate(const ex_bound *b, ex_prog **out) {
  evvec acc = {0}, fen = {0};
  access_options(b, &acc);
  fence_options(b, &fen);
  menu m = {0};
  ex_prog cur;
  memset(&cur, 0, sizeof cur);
  cur.nthreads = 1;
  grow(b, &acc, &fen, &cur, 0, 0, &m);
  qsort(m.v, m.n, sizeof *m.v, menu_cmp);
  progvec all = {0};
  size_t idx[EX_MAX_THREADS];
  for (int nt = b->any ? 1 : 2; nt <= b->threads; nt++) tuples(b, &m, idx, 0, nt, 0, &all);
  qsort(all.v, all.n, sizeof *all.v, size_cmp);   /* stable enough: ties keep no meaning */
  free(acc.v);
  free(fen.v);
  free(m.v);
  *out = all.v;
  return all.n;
}

static int prog_cmp(const void *x, const void *y) {
  int c = size_cmp(x, y);
  return c ? c : memcmp(x, y, sizeof(ex_prog));
}

long ex_enumerate_spec(const char *spec, const map_table *m, ex_prog **out, lc_buf *printed, char **err) {
  progvec all = {0};
  const char *s = spec ? spec : "";
  *err = NULL;
  do {
    size_t n = strcspn(s, ";");
    char *one = lc_xstrndup(s, n);
    ex_bound b;
    ex_bound_default(&b);
    int rc = ex_bound_parse(one, &b, err);
    free(one);
    if (rc) { free(all.v); return -1; }
    ex_bound_fit(&b, m);
    if (printed->n) lc_buf_puts(printed, ";");
    ex_bound_print(printed, &b);
    ex_prog *v = NULL;
    size_t k = ex_enumerate(&b, &v);
    lc_vec_reserve(&all, all.n + k);
    memcpy(all.v + all.n, v, k * sizeof *v);
    all.n += k;
    free(v);
    s += n;
    if (*s) s++;
  } while (*s);
  qsort(all.v, all.n, sizeof *all.v, prog_cmp);
  size_t w = 0;
  for (size_t i = 0; i < all.n; i++)
    if (!w || memcmp(&all.v[w - 1], &all.v[i], sizeof *all.v)) all.v[w++] = all.v[i];
  *out = all.v;
  return (long)w;
}

/* ---- text -------------------------------------------------------------------------------------- */

size_t ex_prog_events(const ex_prog *p) {
  size_t n = 0;
  for (int t = 0; t < p->nthreads; t++) n += p->n[t];
  return n;
}

static const char kind_letter[EX_NKINDS] = {'R', 'W', 'U', 'C', 'F'};

void ex_prog_name(lc_buf *out, const ex_prog *p) {
  for (int t = 0; t < p->nthreads; t++) {
    if (t) lc_buf_putc(out, '+');
    for (int k = 0; k < p->n[t]; k++) {
      const ex_event *e = &p->ev[t][k];
      if (k) lc_buf_putc(out, '.');
      if (e->guarded) lc_buf_puts(out, "if-");
      lc_buf_printf(out, "%c%s", kind_letter[e->kind], order_short[e->order]);
      if (e->kind != EX_F) lc_buf_printf(out, "-%c", 'x' + e->loc);
      if (e->scope != MAP_DEVICE && e->order != MAP_NA) lc_buf_printf(out, "-%s", map_cscope_name(e->scope));
    }
  }
}

/* The value each write stores: 1, 2, ... in thread and program order. */
static int value_of(const ex_prog *p, int t, int k) {
  int v = 0;
  for (int u = 0; u < p->nthreads; u++)
    for (int j = 0; j < p->n[u]; j++) {
      if (is_write(&p->ev[u][j])) v++;
      if (u == t && j == k) return v;
    }
  return 0;
}

static const char *const cpp_order[MAP_NORDERS] = {
  "", "memory_order_relaxed", "memory_order_acquire", "memory_order_release", "memory_order_acq_rel",
  "memory_order_seq_cst"};

static const char *scope_text(int s) {
  static const char *const names[MAP_NSCOPES] = {"thread_scope_thread", "thread_scope_block",
    "thread_scope_cluster", "thread_scope_device", "thread_scope_system"};
  return names[s];
}

static void access_text(lc_buf *b, const ex_prog *p, int t, int k, const char *reg, bool declared) {
  const ex_event *e = &p->ev[t][k];
  char x = (char)('x' + e->loc);
  const char *decl = declared ? "" : "int ";
  int v = value_of(p, t, k);
  const char *o = cpp_order[e->order], *s = scope_text(e->scope);
  switch (e->kind) {
  case EX_R:
    if (e->order == MAP_NA) lc_buf_printf(b, "%s%s = *%c;", decl, reg, x);
    else lc_buf_printf(b, "%s%s = atomic_load_explicit(%c, %s, %s);", decl, reg, x, o, s);
    break;
  case EX_W:
    if (e->order == MAP_NA) lc_buf_printf(b, "*%c = %d;", x, v);
    else lc_buf_printf(b, "atomic_store_explicit(%c, %d, %s, %s);", x, v, o, s);
    break;
  case EX_U:
    lc_buf_printf(b, "%s%s = atomic_exchange_explicit(%c, %d, %s, %s);", decl, reg, x, v, o, s);
    break;
  case EX_C: {
    /* the failure order: the success order without its release part */
    int f = e->order == MAP_ACQ_REL ? MAP_ACQ : e->order == MAP_REL ? MAP_RLX : e->order;
    int want = e->expect_ref ? value_of(p, e->ref_t, e->ref_p) : 0;
    lc_buf_printf(b, "%s%s = %d;\n        atomic_compare_exchange_strong_explicit(%c, &%s, %d, %s, %s, %s);",
                  decl, reg, want, x, reg, v, o, cpp_order[f], s);
    break;
  }
  default:
    lc_buf_printf(b, "atomic_thread_fence(%s, %s);", o, s);
  }
}

char *ex_prog_text(const ex_prog *p, const char *extra, const char *comment) {
  lc_buf b, obs;
  lc_buf_init(&b);
  lc_buf_init(&obs);
  unsigned r[EX_MAX_LOCS], w[EX_MAX_LOCS], tch[EX_MAX_LOCS];
  bool rep;
  int nl = used_locs(p, r, w, tch, &rep);
  bool na[EX_MAX_LOCS] = {false};
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++)
      if (p->ev[t][k].kind != EX_F && p->ev[t][k].order == MAP_NA) na[p->ev[t][k].loc] = true;
  lc_buf_puts(&b, "CUDA ");
  ex_prog_name(&b, p);
  lc_buf_printf(&b, "\n\"%s\"\n{\n", comment ? comment : "A program of the exhaustive search.");
  for (int l = 0; l < nl; l++) lc_buf_printf(&b, "    %c = 0;\n", 'x' + l);
  lc_buf_puts(&b, "}\n");
  for (int t = 0; t < p->nthreads; t++) {
    lc_buf_printf(&b, "\nP%d@cta %d,gpu 0 (", t, t);
    for (int l = 0; l < nl; l++) lc_buf_printf(&b, "%s%s %c", l ? ", " : "", na[l] ? "int*" : "atomic_int*", 'x' + l);
    lc_buf_puts(&b, ") {\n");
    for (int k = 0; k < p->n[t]; k++) {
      const ex_event *e = &p->ev[t][k];
      char reg[8];
      snprintf(reg, sizeof reg, "r%d", k);
      if (is_read(e)) lc_buf_printf(&obs, "%s%d:%s", obs.n ? "; " : "", t, reg);
      if (e->guarded) {
        if (is_read(e)) lc_buf_printf(&b, "    int %s = -1;\n", reg);
        lc_buf_printf(&b, "    if (r%d == %d) {\n        ", k - 1, value_of(p, e->ref_t, e->ref_p));
        access_text(&b, p, t, k, reg, is_read(e));
        lc_buf_puts(&b, "\n    }\n");
      } else {
        lc_buf_puts(&b, "    ");
        access_text(&b, p, t, k, reg, false);
        lc_buf_putc(&b, '\n');
      }
    }
    lc_buf_puts(&b, "}\n");
  }
  /* x stands in the placeholder condition, the rest in locations */
  for (int l = 1; l < nl; l++) lc_buf_printf(&obs, "%s%c", obs.n ? "; " : "", 'x' + l);
  if (extra) {
    /* "P0:r0=1; x=2;" -> exists (0:r0 == 1 /\ x == 2) */
    lc_buf_puts(&b, "\nexists (");
    const char *s = extra;
    bool first = true;
    while (*s) {
      while (*s == ' ') s++;
      if (!*s) break;
      const char *eq = strchr(s, '='), *semi = strchr(s, ';');
      if (!eq || !semi) break;
      const char *name = s[0] == 'P' && strchr(s, ':') && strchr(s, ':') < eq ? s + 1 : s;
      lc_buf_printf(&b, "%s%.*s == %.*s", first ? "" : " /\\ ", (int)(eq - name), name, (int)(semi - eq - 1), eq + 1);
      first = false;
      s = semi + 1;
    }
    lc_buf_puts(&b, ")\n");
  } else {
    if (obs.n) lc_buf_printf(&b, "\nlocations [%s;]", obs.s);
    lc_buf_puts(&b, "\nexists (x == 0)\n");
  }
  lc_buf_fini(&obs);
  char *text = lc_buf_take(&b);
  lc_buf_fini(&b);
  return text;
}

/* ---- PTX programs (--diff-models --exhaustive) --------------------------------------------- */

void ex_prog_ptx_name(lc_buf *out, const ex_prog *p) {
  bool shared = false;
  for (int t = 0; t < p->nthreads; t++) {
    if (t) lc_buf_putc(out, '+');
    for (int u = 0; u < t; u++) shared |= p->cta[u] == p->cta[t];
    for (int k = 0; k < p->n[t]; k++) {
      const ex_event *e = &p->ev[t][k];
      if (k) lc_buf_putc(out, '.');
      if (e->kind == EX_F && e->order == MAP_NA) { lc_buf_puts(out, "Falias"); continue; }
      lc_buf_printf(out, "%c%s", kind_letter[e->kind], e->order == MAP_NA ? "weak" : order_short[e->order]);
      if (e->kind != EX_F) lc_buf_printf(out, "-%c%s", 'x' + e->loc, e->alias ? "a" : "");
      if (e->scope != MAP_DEVICE && e->order != MAP_NA) lc_buf_printf(out, "-%s", scope_ptx[e->scope]);
    }
  }
  if (shared) {
    lc_buf_puts(out, "+cta");
    for (int t = 0; t < p->nthreads; t++) lc_buf_printf(out, "%s%d", t ? "." : "", p->cta[t]);
  }
}

/* ld.relaxed.gpu, st.weak, atom.acq_rel.gpu, fence.sc.cta */
static void ptx_op(lc_buf *b, const char *op, const ex_event *e) {
  lc_buf_printf(b, "%s.%s", op, order_ptx[e->order]);
  if (e->order != MAP_NA) lc_buf_printf(b, ".%s", scope_ptx[e->scope]);
}

static void ptx_access(lc_buf *b, const ex_prog *p, int t, int k) {
  const ex_event *e = &p->ev[t][k];
  char x[4] = {(char)('x' + e->loc), e->alias ? 'a' : '\0', '\0', '\0'};
  int v = value_of(p, t, k);
  switch (e->kind) {
  case EX_R: ptx_op(b, "ld", e); lc_buf_printf(b, " r%d, %s", k, x); break;
  case EX_W: ptx_op(b, "st", e); lc_buf_printf(b, " %s, %d", x, v); break;
  case EX_U: ptx_op(b, "atom", e); lc_buf_printf(b, ".exch r%d, %s, %d", k, x, v); break;
  case EX_C:
    ptx_op(b, "atom", e);
    lc_buf_printf(b, ".cas r%d, %s, %d, %d", k, x, e->expect_ref ? value_of(p, e->ref_t, e->ref_p) : 0, v);
    break;
  default:
    if (e->order == MAP_NA) lc_buf_puts(b, "fence.proxy.alias");
    else { lc_buf_printf(b, "fence.%s.%s", order_ptx[e->order], scope_ptx[e->scope]); }
  }
}

char *ex_prog_ptx_text(const ex_prog *p, const char *state, const char *comment) {
  lc_buf b, obs;
  lc_buf_init(&b);
  lc_buf_init(&obs);
  unsigned r[EX_MAX_LOCS], w[EX_MAX_LOCS], tch[EX_MAX_LOCS];
  bool rep;
  int nl = used_locs(p, r, w, tch, &rep);
  bool alias[EX_MAX_LOCS] = {false};
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++)
      if (p->ev[t][k].kind != EX_F && p->ev[t][k].alias) alias[p->ev[t][k].loc] = true;
  lc_buf_puts(&b, "PTX ");
  ex_prog_ptx_name(&b, p);
  lc_buf_printf(&b, "\n\"%s\"\n{\n", comment ? comment : "A program of the exhaustive search.");
  for (int l = 0; l < nl; l++) {
    lc_buf_printf(&b, "%c = 0;\n", 'x' + l);
    if (alias[l]) lc_buf_printf(&b, "%ca @ generic aliases %c;\n", 'x' + l, 'x' + l);
  }
  lc_buf_puts(&b, "}\n");
  /* one thread per column would need widths; a thread per block of rows
   * reads as well and is what the parser takes: P0 ... ; rows with | */
  size_t rows = 0;
  for (int t = 0; t < p->nthreads; t++) rows = p->n[t] > rows ? p->n[t] : rows;
  for (int t = 0; t < p->nthreads; t++)
    lc_buf_printf(&b, "%s P%d@cta %d,gpu 0", t ? " |" : "", t, p->cta[t]);
  lc_buf_puts(&b, " ;\n");
  for (size_t k = 0; k < rows; k++) {
    for (int t = 0; t < p->nthreads; t++) {
      if (t) lc_buf_puts(&b, " |");
      if ((int)k < p->n[t]) { lc_buf_putc(&b, ' '); ptx_access(&b, p, t, (int)k); }
    }
    lc_buf_puts(&b, " ;\n");
  }
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++)
      if (is_read(&p->ev[t][k])) lc_buf_printf(&obs, "P%d:r%d; ", t, k);
  for (int l = 0; l < nl; l++) lc_buf_printf(&obs, "%c; ", 'x' + l);
  if (obs.n) { obs.n--; obs.s[obs.n] = '\0'; }   /* the last space */
  lc_buf_printf(&b, "locations [%s]\n", obs.s);
  if (state) {
    /* "P0:r0=1; x=2;" -> exists (P0:r0 == 1 /\ x == 2) */
    lc_buf_puts(&b, "exists (");
    const char *s = state;
    bool first = true;
    while (*s) {
      while (*s == ' ') s++;
      const char *eq = strchr(s, '='), *semi = strchr(s, ';');
      if (!*s || !eq || !semi || semi < eq) break;
      lc_buf_printf(&b, "%s%.*s == %.*s", first ? "" : " /\\ ", (int)(eq - s), s, (int)(semi - eq - 1), eq + 1);
      first = false;
      s = semi + 1;
    }
    lc_buf_puts(&b, ")\n");
  } else {
    lc_buf_puts(&b, "exists (x == 0)\n");
  }
  lc_buf_fini(&obs);
  char *text = lc_buf_take(&b);
  lc_buf_fini(&b);
  return text;
}

/* ---- the check ------------------------------------------------------------------------------- */

/* A program parsed, planned, and checked under the C++ model. */
typedef struct built {
  lc_source src;
  lt_test *t;
  lc_arena *a;
  const lt_test *ct;
  map_plan plan;
  bool planned;
  lx_program *prog;
  lc_result *cpp;
  const char *racy;
} built;

static void built_fini(built *b) {
  lc_result_free(b->cpp);
  lx_program_free(b->prog);
  if (b->planned) map_plan_fini(&b->plan);
  lc_arena_free(b->a);
  lt_test_free(b->t);
  lc_source_fini(&b->src);
  memset(b, 0, sizeof *b);
}

/* 0, or -1 with the first error in *message. */
static int build(const ex_prog *p, const map_table *m, const map_check_options *o, built *b, char **message) {
  memset(b, 0, sizeof *b);
  char *text = ex_prog_text(p, NULL, NULL);
  lc_source_from_string(&b->src, "exhaustive", text, strlen(text));
  free(text);
  lc_diag d;
  lc_diag_init(&d, &b->src, NULL);
  b->a = lc_arena_new();
  int rc = -1;
  if ((b->t = lt_parse(&b->src, &d)) && (b->ct = map_cpp_cells(b->t, b->a, &d)) &&
      map_plan_make(b->ct, m, &b->plan, &d) == 0) {
    b->planned = true;
    b->cpp = map_check_cpp(b->t, o, &b->prog, &b->racy, &d);
    rc = b->cpp ? 0 : -1;
  }
  if (rc && message) {
    const char *e = lc_diag_first_error(&d);
    *message = lc_xstrdup(e ? e : "the program could not be built");
  }
  lc_diag_fini(&d);
  return rc;
}

static bool cpp_ok(const built *b) { return b->cpp && b->cpp->status == LC_RESULT_OK; }

/* PTX outcome of combination c that the C++ model forbids: 1 (extra set),
 * 0 none, -1 no answer. */
static int ptx_extra(const built *b, const size_t *c, const map_check_options *o, char **extra) {
  lt_test *ptx = map_compile(b->ct, &b->plan, c);
  char *message = NULL;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = map_check_ptx(ptx, b->cpp, o, extra, &message, &d);
  lc_diag_fini(&d);
  map_compiled_free(ptx);
  free(message);
  return rc != 0 ? -1 : *extra ? 1 : 0;
}

/* A smaller program: event (t,k) weakened to relaxed (weaken) or removed.
 * False when that is not a program (a reference would dangle). */
static bool reduce(const ex_prog *p, int t, int k, bool weaken, ex_prog *q) {
  *q = *p;
  const ex_event *e = &p->ev[t][k];
  if (weaken) {
    if (e->kind == EX_F || e->order == MAP_NA || e->order == MAP_RLX) return false;
    q->ev[t][k].order = MAP_RLX;
    return true;
  }
  for (int u = 0; u < p->nthreads; u++)
    for (int j = 0; j < p->n[u]; j++)
      if (needs_ref(&p->ev[u][j]) && p->ev[u][j].ref_t == t && p->ev[u][j].ref_p == k) return false;
  if (k + 1 < p->n[t] && p->ev[t][k + 1].guarded) return false;
  for (int j = k; j + 1 < p->n[t]; j++) q->ev[t][j] = p->ev[t][j + 1];
  q->n[t]--;
  for (int u = 0; u < q->nthreads; u++)
    for (int j = 0; j < q->n[u]; j++)
      if (needs_ref(&q->ev[u][j]) && q->ev[u][j].ref_t == t && q->ev[u][j].ref_p > k) q->ev[u][j].ref_p--;
  if (q->n[t] == 0) {
    for (int u = t; u + 1 < q->nthreads; u++) {
      q->n[u] = q->n[u + 1];
      memcpy(q->ev[u], q->ev[u + 1], sizeof q->ev[u]);
    }
    q->nthreads--;
    for (int u = 0; u < q->nthreads; u++)
      for (int j = 0; j < q->n[u]; j++)
        if (needs_ref(&q->ev[u][j]) && q->ev[u][j].ref_t > t) q->ev[u][j].ref_t--;
  }
  return q->nthreads >= 1;
}

/* The reductions of p, each built once when first needed. */
typedef struct reductions {
  size_t n;
  ex_prog *q;
  size_t *site;      /* the site of p reduced */
  bool *weaken;
  built *b;
  signed char *state;   /* 0 not built, 1 built, -1 failed */
} reductions;

static void reductions_make(const ex_prog *p, reductions *r) {
  size_t most = 2 * ex_prog_events(p) + 1;
  r->n = 0;
  r->q = lc_xcalloc(most, sizeof *r->q);
  r->site = lc_xcalloc(most, sizeof *r->site);
  r->weaken = lc_xcalloc(most, sizeof *r->weaken);
  r->b = lc_xcalloc(most, sizeof *r->b);
  r->state = lc_xcalloc(most, sizeof *r->state);
  size_t site = 0;
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++, site++)
      for (int w = 1; w >= 0; w--)
        if (reduce(p, t, k, w, &r->q[r->n])) { r->site[r->n] = site; r->weaken[r->n] = w; r->n++; }
}

static void reductions_fini(reductions *r) {
  for (size_t i = 0; i < r->n; i++) built_fini(&r->b[i]);
  free(r->q); free(r->site); free(r->weaken); free(r->b); free(r->state);
}

static built *reduction(reductions *r, size_t i, const map_table *m, const map_check_options *o) {
  if (!r->state[i]) r->state[i] = build(&r->q[i], m, o, &r->b[i], NULL) == 0 ? 1 : -1;
  return r->state[i] > 0 ? &r->b[i] : NULL;
}

/* Does a reduction of p, compiled as combination c compiles the rest,
 * still violate? */
static bool reducible(reductions *r, const size_t *c, size_t nsites, const map_table *m,
                      const map_check_options *o) {
  size_t *c2 = lc_xcalloc(nsites + 1, sizeof *c2);
  bool found = false;
  for (size_t i = 0; i < r->n && !found; i++) {
    built *b = reduction(r, i, m, o);
    if (!b || !cpp_ok(b) || b->racy) continue;
    size_t n = 0;
    for (size_t s = 0; s < nsites; s++) {
      if (s != r->site[i]) c2[n++] = c[s];
      else if (r->weaken[i]) c2[n++] = 0;
    }
    if (n != b->plan.n) continue;
    for (size_t s = 0; s < n; s++)
      if (b->plan.v[s].row && c2[s] >= b->plan.v[s].row->nalts) c2[s] = 0;
    char *extra = NULL;
    found = ptx_extra(b, c2, o, &extra) == 1;
    free(extra);
  }
  free(c2);
  return found;
}

/* ---- the C++ model's answers, shared ---------------------------------------------------- */

/* A program's C++ result in brief: whether it races and a hash of its
 * outcome set (FNV-1a over the sorted states; equal sets, equal hashes,
 * and a collision of 64-bit hashes is the only way to a wrong "equal"). */
typedef struct summary { bool ok, racy; size_t nstates; uint64_t hash; } summary;

typedef struct centry { unsigned key[MAX_CODE]; size_t len; summary s; bool used; } centry;

struct ex_cache {
  pthread_mutex_t lock;
  centry *v;
  size_t cap, n;
};

ex_cache *ex_cache_new(void) {
  ex_cache *c = lc_xcalloc(1, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
  c->cap = 1024;
  c->v = lc_xcalloc(c->cap, sizeof *c->v);
  return c;
}

void ex_cache_free(ex_cache *c) {
  if (!c) return;
  pthread_mutex_destroy(&c->lock);
  free(c->v);
  free(c);
}

static uint64_t fnv(const void *data, size_t n, uint64_t h) {
  const unsigned char *b = data;
  for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211u; }
  return h;
}

static size_t prog_key(const ex_prog *p, unsigned *key) {
  int sigma[EX_MAX_THREADS];
  unsigned char pi[EX_MAX_LOCS];
  for (int i = 0; i < p->nthreads; i++) sigma[i] = i;
  for (int l = 0; l < EX_MAX_LOCS; l++) pi[l] = (unsigned char)l;
  return encode(p, sigma, pi, 0, key);
}

static centry *slot(ex_cache *c, const unsigned *key, size_t len) {
  size_t h = (size_t)fnv(key, len * sizeof *key, 1469598103934665603u);
  for (size_t i = h % c->cap;; i = (i + 1) % c->cap)
    if (!c->v[i].used || (c->v[i].len == len && !memcmp(c->v[i].key, key, len * sizeof *key))) return &c->v[i];
}

static bool cache_get(ex_cache *c, const ex_prog *p, summary *s) {
  unsigned key[MAX_CODE];
  size_t len = prog_key(p, key);
  pthread_mutex_lock(&c->lock);
  centry *e = slot(c, key, len);
  bool found = e->used;
  if (found) *s = e->s;
  pthread_mutex_unlock(&c->lock);
  return found;
}

static void cache_put(ex_cache *c, const ex_prog *p, const summary *s) {
  unsigned key[MAX_CODE];
  size_t len = prog_key(p, key);
  pthread_mutex_lock(&c->lock);
  if (2 * (c->n + 1) > c->cap) {
    centry *old = c->v;
    size_t oldcap = c->cap;
    c->cap *= 2;
    c->v = lc_xcalloc(c->cap, sizeof *c->v);
    for (size_t i = 0; i < oldcap; i++)
      if (old[i].used) *slot(c, old[i].key, old[i].len) = old[i];
    free(old);
  }
  centry *e = slot(c, key, len);
  if (!e->used) {
    memcpy(e->key, key, len * sizeof *key);
    e->len = len;
    e->used = true;
    c->n++;
  }
  e->s = *s;
  pthread_mutex_unlock(&c->lock);
}

static summary summarize(const built *b) {
  summary s = {cpp_ok(b), b->racy != NULL, 0, 1469598103934665603u};
  if (s.ok) {
    s.nstates = b->cpp->nstates;
    s.hash = fnv(b->cpp->states, b->cpp->nstates * b->cpp->nshown * sizeof(lx_val), s.hash);
  }
  return s;
}

static bool summary_of(const ex_prog *q, const map_table *m, const map_check_options *o, ex_cache *c,
                       summary *s) {
  if (cache_get(c, q, s)) return s->ok;
  built b;
  int rc = build(q, m, o, &b, NULL);
  if (rc == 0) {
    *s = summarize(&b);
    cache_put(c, q, s);
  }
  built_fini(&b);
  return rc == 0 && s->ok;
}

/* True when some access's order (or fence) changes nothing under the
 * C++ model: the program with it relaxed (removed) has the same
 * outcomes and races.  A minimal violation needs every order it has, and
 * a weaker compilation allows at least what a stronger one does, so such
 * a program is left to the weaker one. */
static bool order_idle(const ex_prog *p, const summary *mine, const map_table *m, const map_check_options *o,
                       ex_cache *c) {
  for (int t = 0; t < p->nthreads; t++)
    for (int k = 0; k < p->n[t]; k++) {
      const ex_event *e = &p->ev[t][k];
      ex_prog q;
      bool fence = e->kind == EX_F;
      if (!(fence ? reduce(p, t, k, false, &q) : reduce(p, t, k, true, &q))) continue;
      summary w;
      if (!summary_of(&q, m, o, c, &w)) continue;
      if (w.racy == mine->racy && w.nstates == mine->nstates && w.hash == mine->hash) return true;
    }
  return false;
}

static bool next_combo(const map_plan *p, size_t *c) {
  for (size_t i = p->n; i-- > 0;) {
    if (++c[i] < (p->v[i].row ? p->v[i].row->nalts : 1)) return true;
    c[i] = 0;
  }
  return false;
}

void ex_check(const ex_prog *p, const map_table *m, const map_check_options *o, ex_cache *cache,
              ex_result *r) {
  memset(r, 0, sizeof *r);
  built b;
  if (build(p, m, o, &b, &r->message)) {
    r->verdict = MAP_V_ERROR;
    built_fini(&b);
    return;
  }
  reductions red;
  reductions_make(p, &red);
  summary mine = summarize(&b);
  cache_put(cache, p, &mine);
  if (!cpp_ok(&b)) {
    r->verdict = MAP_V_UNKNOWN;
    r->message = lc_xstrdup(b.cpp->message ? b.cpp->message : "the C++ model gave no answer");
  } else if (b.racy) {
    r->verdict = MAP_V_RACY;
  } else if (order_idle(p, &mine, m, o, cache)) {
    r->verdict = MAP_V_SOUND;
    r->reducible = (size_t)-1;   /* left to a weaker program */
  } else {
    r->verdict = MAP_V_SOUND;
    size_t *c = lc_xcalloc(b.plan.n + 1, sizeof *c);
    do {
      r->combinations++;
      for (size_t i = 0; i < b.plan.n; i++)
        if (b.plan.v[i].row) {
          int id = b.plan.v[i].row->alts[c[i]].id;
          if (id <= MAP_MAX_ALT) r->used[b.plan.v[i].kind][b.plan.v[i].order][id] = 1;
        }
      char *extra = NULL;
      int x = ptx_extra(&b, c, o, &extra);
      if (x < 0) {
        r->verdict = MAP_V_UNKNOWN;
        free(r->message);
        r->message = lc_xstrdup("the PTX model gave no answer");
      } else if (x > 0 && reducible(&red, c, b.plan.n, m, o)) {
        r->reducible++;
        free(extra);
      } else if (x > 0) {
        if (r->verdict == MAP_V_SOUND) r->verdict = MAP_V_VIOLATION;
        r->v = lc_xrealloc(r->v, (r->nv + 1) * sizeof *r->v);
        ex_violation *v = &r->v[r->nv++];
        v->extra = extra;
        v->nrows = b.plan.n;
        v->rows = lc_xcalloc(b.plan.n + 1, sizeof *v->rows);
        for (size_t i = 0; i < b.plan.n; i++) {
          const map_site *s = &b.plan.v[i];
          v->rows[i] = (ex_row_use){(unsigned char)s->kind, (unsigned char)s->order,
                                    (unsigned char)(s->row ? s->row->alts[c[i]].id : 0)};
        }
      }
    } while (next_combo(&b.plan, c));
    free(c);
  }
  reductions_fini(&red);
  built_fini(&b);
}

void ex_result_fini(ex_result *r) {
  for (size_t i = 0; i < r->nv; i++) { free(r->v[i].extra); free(r->v[i].rows); }
  free(r->v);
  free(r->message);
  memset(r, 0, sizeof *r);
}
