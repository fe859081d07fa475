/* gen_edge.c - reading diy's edges and checking cycles (gen_cycle.h).
 * SPDX-License-Identifier: MIT
 *
 * The spellings follow herd's gen/edge.ml where it has one: Rf/Fr/Ws
 * (Co) with i/e, Po{s,d}XY, DpAddr/DpData/DpCtrl{s,d}Y, a fence's name then
 * s/d then XY, and annotations as two atoms after the edge, the source's
 * then the target's (herd's a1 a2).  PTX's own: fences `Fence{s,d}.sc`
 * and `.acq_rel` with an optional scope, `Membar{s,d}.{cta,gl,sys}`,
 * atoms P Rlx Acq Rel Sc each with an optional `.scope`, and `@unit` on an
 * external edge for where its two threads run.
 *
 * diy's C vocabulary (diyone7 -arch C -show edges, herd's gen/edge.ml and
 * CArch_gen.ml): fences Fence{Sc,Acq,Rel,AR,Rlx,Con}{s,d}XY and the strong
 * Fence{s,d}XY, a fence alone (FenceSc: diy's Insert), directions '*'
 * (taken from the neighbouring edge), Dp{s,d}Y (address for a read, data
 * for a write) and Ctrl{s,d}Y, Rmw (= Exch) and Fetch.Add, Hat, the
 * Leave/Back communication edges, the pseudo edges R W Read Write Store,
 * an annotation alone (Na, Rlx, ...), and the atoms Na (plain, as P), AR,
 * Con and A (= Sc).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_cycle.h"

static int fail(char **err, const char *edge, const char *fmt, const char *arg) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "edge '%s': ", edge);
  lc_buf_printf(&b, fmt, arg);
  *err = lc_buf_take(&b);
  lc_buf_fini(&b);
  return -1;
}

static bool eat(const char **p, const char *word) {
  size_t n = strlen(word);
  if (strncmp(*p, word, n) != 0) return false;
  *p += n;
  return true;
}

static bool dir(const char **p, char *d) {
  if (**p != 'R' && **p != 'W') return false;
  *d = *(*p)++;
  return true;
}

/* R, W, or '*' (either: *any set, *d left '?' until resolved). */
static bool dir_any(const char **p, char *d, bool *any) {
  if (**p == '*') {
    *d = '?';
    *any = true;
    ++*p;
    return true;
  }
  return dir(p, d);
}

/* diy's lower-case s or d only (after a fence's order: FenceScdWR). */
static bool sd_lower(const char **p, bool *same) {
  if (**p != 's' && **p != 'd') return false;
  *same = *(*p)++ == 's';
  return true;
}

/* s or d (S, D too): same or different location. */
static bool sd(const char **p, bool *same) {
  char c = **p;
  if (c != 's' && c != 'd' && c != 'S' && c != 'D') return false;
  *same = c == 's' || c == 'S';
  ++*p;
  return true;
}

static const char *const scope_words[] = {"cta", "cluster", "gpu", "sys"};

/* `.cta` etc. when present (else *scope stays NONE). */
static bool opt_scope(const char **p, lt_scope *scope) {
  *scope = LT_SCOPE_NONE;
  if (**p != '.') return true;
  for (size_t i = 0; i < LC_ARRAY_LEN(scope_words); i++) {
    const char *q = *p + 1;
    if (eat(&q, scope_words[i]) && !(*q >= 'a' && *q <= 'z')) {
      *scope = (lt_scope)(LT_SCOPE_CTA + i);
      *p = q;
      return true;
    }
  }
  return false;
}

static bool atom(const char **p, gen_ann *a) {
  /* longest first where one is a prefix of another (AR, Acq, A) */
  static const struct { const char *w; lt_sem sem; bool con; } atoms[] = {
    {"Rlx", LT_SEM_RELAXED, false}, {"Acq", LT_SEM_ACQUIRE, false}, {"Rel", LT_SEM_RELEASE, false},
    {"Sc", LT_SEM_SC, false}, {"P", LT_SEM_WEAK, false},     {"Na", LT_SEM_WEAK, false},
    {"AR", LT_SEM_ACQ_REL, false}, {"Con", LT_SEM_ACQUIRE, true}, {"A", LT_SEM_SC, false},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(atoms); i++)
    if (eat(p, atoms[i].w)) {
      a->set = true;
      a->sem = atoms[i].sem;
      a->consume = atoms[i].con;
      return opt_scope(p, &a->scope);
    }
  return false;
}

static int com_edge(const char **p, gen_edge *e) {
  static const struct { const char *w; gen_edge_kind k; char src, dst; } coms[] = {
    {"Rf", GEN_E_RF, 'W', 'R'}, {"Fr", GEN_E_FR, 'R', 'W'},
    {"Ws", GEN_E_WS, 'W', 'W'}, {"Co", GEN_E_WS, 'W', 'W'},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(coms); i++) {
    const char *q = *p;
    if (!eat(&q, coms[i].w)) continue;
    bool leave = eat(&q, "Leave");
    if (leave || eat(&q, "Back")) {   /* RfLeave ... CoBack: out of a thread, back into it */
      e->kind = leave ? GEN_E_LEAVE : GEN_E_BACK;
      e->com = coms[i].k;
      e->src = coms[i].src;
      e->dst = coms[i].dst;
      e->ext = true;
      e->same = true;
      *p = q;
      return 1;
    }
    if (*q != 'e' && *q != 'i') continue;
    e->kind = coms[i].k;
    e->src = coms[i].src;
    e->dst = coms[i].dst;
    e->ext = *q == 'e';
    e->same = true;
    *p = q + 1;
    return 1;
  }
  return 0;
}

/* diy's order of a fence: Sc Acq Rel AR Rlx Con (CArch_gen.ml); none is
 * the strong fence, Sc.  Returns false when no order is written. */
static bool fence_order(const char **p, gen_edge *e) {
  static const struct { const char *w; lt_sem sem; bool con; } orders[] = {
    {"Sc", LT_SEM_SC, false},       {"Acq", LT_SEM_ACQUIRE, false}, {"Rel", LT_SEM_RELEASE, false},
    {"AR", LT_SEM_ACQ_REL, false},  {"Rlx", LT_SEM_RELAXED, false}, {"Con", LT_SEM_ACQUIRE, true},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(orders); i++)
    if (eat(p, orders[i].w)) {
      e->fence_sem = orders[i].sem;
      e->consume = orders[i].con;
      return true;
    }
  return false;
}

/* diy's fences: Fence[ORDER]{s,d}XY, and Fence ORDER alone (an Insert). */
static int diy_fence(const char **p, gen_edge *e, char **err) {
  e->kind = GEN_E_FENCE;
  e->diy_fence = true;
  e->fence_sem = LT_SEM_SC;
  bool ordered = fence_order(p, e);
  if (ordered && (!**p || (**p >= 'A' && **p <= 'Z' && **p != 'R' && **p != 'W'))) {
    e->kind = GEN_E_INSERT;   /* FenceSc: a fence between two accesses, no edge of its own */
    return 1;
  }
  if (!sd_lower(p, &e->same))
    return fail(err, e->text, "expected s or d (same or different location) after the fence's order (%s)",
                "FenceScdWR, FencedWW, FenceSc alone");
  if (!dir_any(p, &e->src, &e->src_any) || !dir_any(p, &e->dst, &e->dst_any))
    return fail(err, e->text, "expected two directions (%s) after the fence", "R, W or *");
  return 1;
}

/* Fence{s,d}.sc[.scope] or .acq_rel[.scope]; Membar{s,d}.{cta,gl,sys}. */
static int fence_edge(const char **p, gen_edge *e, char **err) {
  bool membar = eat(p, "Membar");
  if (!membar && !eat(p, "Fence")) return 0;
  if (!membar && !((**p == 's' || **p == 'd' || **p == 'S' || **p == 'D') && (*p)[1] == '.'))
    return diy_fence(p, e, err);
  e->kind = GEN_E_FENCE;
  e->membar = membar;
  e->fence_sem = LT_SEM_SC;
  if (!sd(p, &e->same)) return fail(err, e->text, "expected s or d (same or different location) after '%s'",
                                    membar ? "Membar" : "Fence");
  if (membar) {
    static const char *const levels[] = {".cta", ".gl", ".sys"};
    static const lt_scope scopes[] = {LT_SCOPE_CTA, LT_SCOPE_GPU, LT_SCOPE_SYS};
    size_t i = 0;
    while (i < LC_ARRAY_LEN(levels) && !eat(p, levels[i])) i++;
    if (i == LC_ARRAY_LEN(levels)) return fail(err, e->text, "expected %s after Membar's s or d", ".cta, .gl or .sys");
    e->fence_scope = scopes[i];
  } else {
    if (eat(p, ".acq_rel")) e->fence_sem = LT_SEM_ACQ_REL;
    else if (eat(p, ".acquire")) e->fence_sem = LT_SEM_ACQUIRE;
    else if (eat(p, ".release")) e->fence_sem = LT_SEM_RELEASE;
    else if (!eat(p, ".sc")) return fail(err, e->text, "expected %s after Fence's s or d", ".sc, .acq_rel, .acquire or .release");
    if (!opt_scope(p, &e->fence_scope)) return fail(err, e->text, "unknown scope (%s)", "cta, cluster, gpu, sys");
  }
  if (!dir(p, &e->src) || !dir(p, &e->dst))
    return fail(err, e->text, "expected two directions (%s) after the fence", "RR, RW, WR or WW");
  return 1;
}

/* Dp{Addr,Data,Ctrl}{s,d}Y; diy's defaults Dp{s,d}Y (an address
 * dependency to a read or '*', a data dependency to a write: CDep's
 * ddr_default, ddw_default) and Ctrl{s,d}Y. */
static int dp_edge(const char **p, gen_edge *e, char **err) {
  bool ctrl = eat(p, "Ctrl");
  if (!ctrl && !eat(p, "Dp")) return 0;
  e->kind = GEN_E_DP;
  e->src = 'R';
  bool dflt = false;
  if (ctrl) e->dp = GEN_DP_CTRL;
  else if (eat(p, "Addr")) e->dp = GEN_DP_ADDR;
  else if (eat(p, "Data")) e->dp = GEN_DP_DATA;
  else if (eat(p, "Ctrl")) e->dp = GEN_DP_CTRL;
  else if (**p == 's' || **p == 'd') dflt = true;
  else return fail(err, e->text, "expected %s after Dp", "Addr, Data or Ctrl (or diy's s or d: Dpd*)");
  if (!sd(p, &e->same)) return fail(err, e->text, "expected s or d (same or different location) %s", "after the dependency");
  if (dflt ? !dir_any(p, &e->dst, &e->dst_any) : !dir(p, &e->dst))
    return fail(err, e->text, "expected the target's direction (%s)", dflt ? "R, W or *" : "R or W");
  if (dflt) e->dp = e->dst == 'W' ? GEN_DP_DATA : GEN_DP_ADDR;
  if (e->dp == GEN_DP_DATA && e->dst != 'W')
    return fail(err, e->text, "a data dependency ends on a write (%s)", "DpDatadW, DpDatasW");
  return 1;
}

/* The edges named by a word alone (pseudo edges and diy's fancy ones). */
static int word_edge(const char **p, gen_edge *e) {
  static const struct { const char *w; gen_edge_kind k; char src, dst; bool ext, whole; gen_rmw_op rmw; } words[] = {
    {"Read", GEN_E_NODE, 'R', 'R', false, true, 0},   {"Write", GEN_E_NODE, 'W', 'W', false, true, 0},
    {"R", GEN_E_NODE, 'R', 'R', false, true, 0},      {"W", GEN_E_NODE, 'W', 'W', false, true, 0},
    {"Store", GEN_E_STORE, 'W', 'W', false, true, 0}, {"Hat", GEN_E_HAT, 'R', 'R', true, false, 0},
    {"Rmw", GEN_E_RMW, 'R', 'W', false, false, GEN_RMW_EXCH}, {"Exch", GEN_E_RMW, 'R', 'W', false, false, GEN_RMW_EXCH},
    {"Fetch.Add", GEN_E_RMW, 'R', 'W', false, false, GEN_RMW_ADD},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(words); i++) {
    const char *q = *p;
    if (!eat(&q, words[i].w) || (words[i].whole && *q)) continue;
    e->kind = words[i].k;
    e->src = words[i].src;
    e->dst = words[i].dst;
    e->ext = words[i].ext;
    e->same = true;
    e->rmw = words[i].rmw;
    *p = q;
    return 1;
  }
  return 0;
}

static int base_edge(const char **p, gen_edge *e, char **err) {
  int rc = word_edge(p, e);
  if (!rc) rc = com_edge(p, e);
  if (!rc && eat(p, "Po")) {
    e->kind = GEN_E_PO;
    if (!sd(p, &e->same)) return fail(err, e->text, "expected s or d (same or different location) after '%s'", "Po");
    if (!dir_any(p, &e->src, &e->src_any) || !dir_any(p, &e->dst, &e->dst_any))
      return fail(err, e->text, "expected two directions (%s) after Pos or Pod", "R, W or *");
    rc = 1;
  }
  if (!rc) rc = fence_edge(p, e, err);
  if (!rc) rc = dp_edge(p, e, err);
  if (!rc) {   /* an annotation alone (diy's Id): the access between two edges */
    const char *q = *p;
    gen_ann a = {0};
    if (atom(&q, &a) && !*q) {
      e->kind = GEN_E_ID;
      e->src = e->dst = '?';
      e->src_any = e->dst_any = true;
      e->same = true;
      e->a1 = e->a2 = a;
      *p = q;
      return 0;
    }
  }
  if (!rc)
    return fail(err, e->text, "unknown edge (%s)",
                "Rfe Rfi Fre Fri Wse Wsi Coe Coi, Rf/Fr/Co Leave/Back, Hat, Rmw Exch Fetch.Add, Pod/Pos, "
                "Fence, Membar, DpAddr/DpData/DpCtrl, Dp, Ctrl, R W Read Write Store, an annotation");
  return rc < 0 ? -1 : 0;
}

static int check_ann(const gen_edge *e, const gen_ann *a, char d, char **err) {
  if (!a->set || d == '?') return 0;   /* '*': checked once resolved (gen_cycle.c) */
  if (a->sem == LT_SEM_ACQUIRE && d != 'R') return fail(err, e->text, "%s annotates a read only", "Acq");
  if (a->sem == LT_SEM_RELEASE && d != 'W') return fail(err, e->text, "%s annotates a write only", "Rel");
  if (a->sem == LT_SEM_ACQ_REL) return fail(err, e->text, "%s annotates a read-modify-write's pair (RmwAcqRel) only", "AR");
  if (a->sem == LT_SEM_WEAK && a->scope != LT_SCOPE_NONE)
    return fail(err, e->text, "%s (a plain access) takes no scope", "P");
  return 0;
}

int gen_edge_parse(const char *s, gen_edge *e, char **err) {
  memset(e, 0, sizeof *e);
  snprintf(e->text, sizeof e->text, "%s", s);
  if (strlen(s) >= sizeof e->text) return fail(err, e->text, "too long (%s)", "63 characters at most");
  const char *p = s;
  if (base_edge(&p, e, err) < 0) return -1;
  e->base = (unsigned char)(p - s);
  if (*p && *p != '@' && e->kind != GEN_E_ID) {
    if (e->kind == GEN_E_NODE || e->kind == GEN_E_INSERT || e->kind == GEN_E_STORE)
      return fail(err, e->text, "unexpected '%s' at the end (a pseudo edge takes no annotations)", p);
    if (!atom(&p, &e->a1) || !atom(&p, &e->a2))
      return fail(err, e->text, "expected two annotations (source then target: %s) after the edge",
                  "P, Rlx, Acq, Rel or Sc, each with an optional .cta .cluster .gpu .sys");
  }
  if (*p == '@') {
    p++;
    size_t i = 0;
    while (i < LC_ARRAY_LEN(scope_words) && strcmp(p, scope_words[i])) i++;
    if (i == LC_ARRAY_LEN(scope_words)) return fail(err, e->text, "unknown placement after '@' (%s)", "cta, cluster, gpu, sys");
    if (!e->ext) return fail(err, e->text, "only an external edge (%s) places threads", "Rfe, Fre, Wse");
    e->place = (lt_scope)(LT_SCOPE_CTA + i);
    p += strlen(p);
  }
  if (*p) return fail(err, e->text, "unexpected '%s' at the end", p);
  if (e->kind == GEN_E_RMW) {
    /* one instruction: diy's tr_atom_rmw pairs (Sc Sc, Rlx Rlx, Acq Rel, Acq Rlx, Rlx Rel) */
    const gen_ann *r = &e->a1, *w = &e->a2;
    if (r->set != w->set || (r->set && r->sem == LT_SEM_WEAK) || (w->set && w->sem == LT_SEM_WEAK))
      return fail(err, e->text, "a read-modify-write's two annotations are %s", "Sc Sc, Rlx Rlx, Acq Rel, Acq Rlx or Rlx Rel");
    if (r->set && !((r->sem == LT_SEM_SC) == (w->sem == LT_SEM_SC) &&
                    (r->sem == LT_SEM_SC || ((r->sem == LT_SEM_RELAXED || r->sem == LT_SEM_ACQUIRE) &&
                                             (w->sem == LT_SEM_RELAXED || w->sem == LT_SEM_RELEASE)))))
      return fail(err, e->text, "a read-modify-write's two annotations are %s", "Sc Sc, Rlx Rlx, Acq Rel, Acq Rlx or Rlx Rel");
    return 0;
  }
  if (e->kind == GEN_E_ID) return 0;
  if (e->a1.consume && e->src != 'R') return fail(err, e->text, "%s annotates a read only", "Con");
  if (check_ann(e, &e->a1, e->src, err) < 0 || check_ann(e, &e->a2, e->dst, err) < 0) return -1;
  return 0;
}

int gen_edges_parse(const char *text, gen_edge **edges, size_t *n, char **err) {
  LC_VEC(gen_edge) v = {0};
  const char *p = text;
  for (;;) {
    while (*p == ' ' || *p == ',' || *p == '\t' || *p == '\n') p++;
    if (!*p) break;
    size_t len = strcspn(p, " ,\t\n");
    char *word = lc_xstrndup(p, len);
    gen_edge e;
    int rc = gen_edge_parse(word, &e, err);
    free(word);
    if (rc < 0) {
      lc_vec_free(&v);
      return -1;
    }
    lc_vec_push(&v, e);
    p += len;
  }
  if (!v.n) {
    *err = lc_xstrdup("no edges given");
    return -1;
  }
  *edges = v.v;
  *n = v.n;
  return 0;
}
