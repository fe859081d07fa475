/* cat_onevent.c - herd's C read-modify-write as one event, for herd's C
 * models.
 * SPDX-License-Identifier: MIT
 *
 * herd makes a C11 read-modify-write one event that both reads and writes
 * (herd/CSem.ml, Act.RMW); its `rmw` relation holds only pairs of distinct
 * events (mem.ml, make_atomic_load_store: "get rid of C RMW"), so it is
 * empty on a C test, and its fr leaves out the pair of an RMW with itself
 * (memUtils.ml, make_fr).  Here a read-modify-write is two events, a read
 * r and a write w with rmw(r, w).  A model written for herd's view
 * (c11_base.cat's atomicity `irreflexive mo; mo; rf^-1`, simple-c11.cat's
 * `empty (rf; [RMW]) \ cosucc`) means something else over two events.
 *
 * So such a model is evaluated over herd's view of the same execution:
 * each pair is one event, represented by its read r; w is hidden.  With
 * fold = [V] | rmw^-1 (every visible event to itself, w to r; V the
 * events that are not the write of an rmw):
 *   - a builtin set S is range([S]; fold);
 *   - a builtin relation q is fold^-1; (q \ (rmw | rmw^-1)); fold: the
 *     pairs between the two halves of one RMW are the one event's
 *     internal order (po, data), or its own read from (fr) herd leaves out;
 *     a pair an event has with itself (loc) stays;
 *   - the order sets follow herd's one annotation per event: the halves
 *     of an acq_rel RMW are an acquire read and a release write here
 *     (lower_cpp.c), one ACQ_REL event in herd, and so on;
 *   - RMW (herd's C RMW events) is domain(rmw), rmw stays ours (the model
 *     does not read it), and `_` and complements are taken over V.
 * The values the engines choose (rf, co) are unchanged, so are the final
 * states; only what the model sees is herd's.  One thing herd cannot
 * have: an RMW that reads its own write; the check rmw-own-write
 * (empty rf & rmw^-1) rules it out, and the flag thin-air marks the
 * values herd would leave symbolic (below).  The loader decides when a model gets
 * this view (cat_load.c, herd_rmw).
 */
#include "cat/cat_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  cat_model *m;
  lc_loc at;
  size_t rmw;        /* the builtin rmw (ours, unfolded) */
  size_t visible;    /* the set V */
  size_t fold;       /* the relation fold */
  size_t n0;         /* the model's values before the view */
  size_t *raw;       /* per value < n0: its unfolded copy, or CAT_NONE */
} view;

static cat_node *mk(view *x, cat_node_kind kind, cat_op op, cat_type type, cat_type rtype, cat_node *a,
                    cat_node *b) {
  cat_node *n = lc_arena_alloc(x->m->arena, sizeof *n);
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->op = op;
  n->type = type;
  n->rtype = rtype;
  n->a = a;
  n->b = b;
  n->ref = CAT_NONE;
  n->group = CAT_NONE;
  n->loc = x->at;
  return n;
}

static cat_node *ref(view *x, size_t v) {
  cat_node *n = mk(x, CAT_N_REF, CAT_OP_EMPTY, x->m->vals.v[v].type, x->m->vals.v[v].type, NULL, NULL);
  n->ref = v;
  return n;
}

/* set op set -> set, rel op rel -> rel */
static cat_node *sop(view *x, cat_op op, cat_node *a, cat_node *b) {
  return mk(x, CAT_N_OP, op, CAT_TY_SET, CAT_TY_SET, a, b);
}
static cat_node *rop(view *x, cat_op op, cat_node *a, cat_node *b) {
  return mk(x, CAT_N_OP, op, CAT_TY_REL, CAT_TY_REL, a, b);
}
static cat_node *idset(view *x, cat_node *s) { return mk(x, CAT_N_OP, CAT_OP_IDSET, CAT_TY_SET, CAT_TY_REL, s, NULL); }
static cat_node *dom(view *x, cat_node *r) { return mk(x, CAT_N_OP, CAT_OP_DOMAIN, CAT_TY_REL, CAT_TY_SET, r, NULL); }
static cat_node *ran(view *x, cat_node *r) { return mk(x, CAT_N_OP, CAT_OP_RANGE, CAT_TY_REL, CAT_TY_SET, r, NULL); }

static size_t def(view *x, const char *name, cat_type type, cat_node *body) {
  cat_val v = {CAT_V_DEF, name, body, CAT_NONE, type, x->at, 0};
  lc_vec_push(&x->m->vals, v);
  return x->m->vals.n - 1;
}

/* Our (unfolded) builtin `name`: the copy of the model's, else a new one. */
static size_t builtin(view *x, const char *name, cat_type type) {
  for (size_t i = 0; i < x->n0; i++)
    if (x->raw[i] != CAT_NONE && strcmp(x->m->vals.v[i].name, name) == 0) return x->raw[i];
  for (size_t i = x->n0; i < x->m->vals.n; i++)
    if (x->m->vals.v[i].kind == CAT_V_BUILTIN && strcmp(x->m->vals.v[i].name, name) == 0) return i;
  cat_val v = {CAT_V_BUILTIN, lc_arena_strdup(x->m->arena, name), NULL, CAT_NONE, type, x->at, 0};
  lc_vec_push(&x->m->vals, v);
  return x->m->vals.n - 1;
}

/* range([S]; fold) */
static cat_node *fold_set(view *x, cat_node *s) {
  return ran(x, rop(x, CAT_OP_SEQ, idset(x, s), ref(x, x->fold)));
}

/* herd's order sets over the folded events: r's and w's annotations
 * (lx_cpp_rmw_sems) combined into the RMW's one.  raw(name) is ours. */
static cat_node *order_set(view *x, const char *name, size_t raw) {
  cat_node *plain = sop(x, CAT_OP_INTER, ref(x, raw), ref(x, x->visible));
  cat_node *acq_rel = dom(x, rop(x, CAT_OP_SEQ, idset(x, ref(x, builtin(x, "ACQ", CAT_TY_SET))),
                                 rop(x, CAT_OP_SEQ, ref(x, x->rmw), idset(x, ref(x, builtin(x, "REL", CAT_TY_SET))))));
  if (strcmp(name, "ACQ_REL") == 0) return sop(x, CAT_OP_UNION, plain, acq_rel);
  if (strcmp(name, "ACQ") == 0)   /* an acquire read whose write is not release */
    return sop(x, CAT_OP_DIFF, plain, acq_rel);
  if (strcmp(name, "REL") == 0)   /* a release write's RMW, unless its read acquires */
    return sop(x, CAT_OP_DIFF, fold_set(x, ref(x, raw)), acq_rel);
  /* RLX: both halves relaxed */
  cat_node *strong = dom(x, rop(x, CAT_OP_SEQ, ref(x, x->rmw),
                                idset(x, sop(x, CAT_OP_COMPL, ref(x, raw), NULL))));
  return sop(x, CAT_OP_DIFF, plain, strong);
}

static bool is_order_set(const char *name) {
  return strcmp(name, "ACQ") == 0 || strcmp(name, "REL") == 0 || strcmp(name, "ACQ_REL") == 0 ||
         strcmp(name, "RLX") == 0;
}

static int cmp_ptr(const void *a, const void *b) {
  const cat_node *p = *(cat_node *const *)a, *q = *(cat_node *const *)b;
  return p < q ? -1 : p > q;
}

typedef LC_VEC(cat_node *) node_vec;

/* Every complement node of the model's values and checks (each once). */
static void complements(const cat_model *m, node_vec *out) {
  node_vec st = {0};
  for (size_t i = 0; i < m->vals.n; i++)
    if (m->vals.v[i].kind == CAT_V_DEF && m->vals.v[i].body) lc_vec_push(&st, m->vals.v[i].body);
  for (size_t i = 0; i < m->checks.n; i++) lc_vec_push(&st, m->checks.v[i].e);
  while (st.n) {
    cat_node *n = st.v[--st.n];
    if (n->kind != CAT_N_OP) continue;
    if (n->op == CAT_OP_COMPL) lc_vec_push(out, n);
    if (n->a) lc_vec_push(&st, n->a);
    if (n->b) lc_vec_push(&st, n->b);
  }
  lc_vec_free(&st);
  if (out->n) qsort(out->v, out->n, sizeof *out->v, cmp_ptr);
  size_t k = 0;
  for (size_t i = 0; i < out->n; i++)
    if (!k || out->v[k - 1] != out->v[i]) out->v[k++] = out->v[i];
  out->n = k;
}

void cat_one_event_view(cat_model *m, lc_loc at) {
  view x = {m, at, CAT_NONE, CAT_NONE, CAT_NONE, m->vals.n, NULL};
  node_vec compl = {0};
  complements(m, &compl);
  /* the unfolded copy of each builtin (rmw stays ours: the model does not
   * read it) */
  x.raw = lc_xmalloc((x.n0 ? x.n0 : 1) * sizeof *x.raw);
  for (size_t i = 0; i < x.n0; i++) {
    x.raw[i] = CAT_NONE;
    if (m->vals.v[i].kind != CAT_V_BUILTIN) continue;
    if (strcmp(m->vals.v[i].name, "rmw") == 0) {
      x.rmw = i;
      continue;
    }
    cat_val copy = m->vals.v[i];
    lc_vec_push(&m->vals, copy);
    x.raw[i] = m->vals.n - 1;
  }
  if (x.rmw == CAT_NONE) x.rmw = builtin(&x, "rmw", CAT_TY_REL);
  /* V = ~range(rmw); fold = [V] | rmw^-1 */
  x.visible = def(&x, "(one-event view) V", CAT_TY_SET,
                  sop(&x, CAT_OP_COMPL, ran(&x, ref(&x, x.rmw)), NULL));
  x.fold = def(&x, "(one-event view) fold", CAT_TY_REL,
               rop(&x, CAT_OP_UNION, idset(&x, ref(&x, x.visible)),
                   rop(&x, CAT_OP_INVERSE, ref(&x, x.rmw), NULL)));
  /* _ and ~E over the visible events */
  for (size_t i = 0; i < compl.n; i++) {
    cat_node *c = compl.v[i];
    cat_node *inner = mk(&x, CAT_N_OP, CAT_OP_COMPL, c->type, c->rtype, c->a, NULL);
    inner->group = c->group;
    cat_node *within = c->rtype == CAT_TY_SET
                           ? ref(&x, x.visible)
                           : mk(&x, CAT_N_OP, CAT_OP_PRODUCT, CAT_TY_SET, CAT_TY_REL, ref(&x, x.visible),
                                ref(&x, x.visible));
    c->op = CAT_OP_INTER;
    c->type = c->rtype;
    c->a = inner;
    c->b = within;
  }
  lc_vec_free(&compl);
  /* each builtin of the model becomes its folded value over its copy */
  size_t pair = def(&x, "(one-event view) rmw pairs", CAT_TY_REL,
                    rop(&x, CAT_OP_UNION, ref(&x, x.rmw), rop(&x, CAT_OP_INVERSE, ref(&x, x.rmw), NULL)));
  for (size_t i = 0; i < x.n0; i++) {
    size_t r = x.raw[i];
    if (r == CAT_NONE) continue;
    const char *name = m->vals.v[i].name;
    cat_node *body;
    if (m->vals.v[i].type == CAT_TY_SET) {
      body = is_order_set(name) ? order_set(&x, name, r) : fold_set(&x, ref(&x, r));
    } else {
      cat_node *inside = rop(&x, CAT_OP_DIFF, ref(&x, r), ref(&x, pair));
      body = rop(&x, CAT_OP_SEQ, rop(&x, CAT_OP_INVERSE, ref(&x, x.fold), NULL),
                 rop(&x, CAT_OP_SEQ, inside, ref(&x, x.fold)));
    }
    m->vals.v[i].kind = CAT_V_DEF;
    m->vals.v[i].body = body;
  }
  /* herd's C RMW events: the merged ones (the standard names' RMW is
   * domain(rmw) | range(rmw)) */
  for (size_t i = 0; i < x.n0; i++) {
    cat_val *v = &m->vals.v[i];
    if (v->kind == CAT_V_DEF && x.raw[i] == CAT_NONE && v->name && strcmp(v->name, "RMW") == 0 && v->loc.file &&
        v->loc.file[0] == '(')
      v->body = dom(&x, ref(&x, x.rmw));
  }
  const char *name = "rmw-own-write";
  for (size_t i = 0; i < m->checks.n; i++)
    if (m->checks.v[i].name && strcmp(m->checks.v[i].name, name) == 0) name = "rmw-own-write (one-event view)";
  cat_check c = {CAT_CHECK_EMPTY, false, false, name,
                 rop(&x, CAT_OP_INTER, ref(&x, builtin(&x, "rf", CAT_TY_REL)),
                     rop(&x, CAT_OP_INVERSE, ref(&x, x.rmw), NULL)),
                 at};
  lc_vec_push(&m->checks, c);
  /* A value out of thin air: a read whose value comes, through data
   * dependencies and rf, from itself.  herd leaves such a value symbolic
   * (its state shows S1, S2, ...; herdtools7's C13); here it takes each
   * value of the location's domain (docs/model-language.md) that the
   * cycle reproduces, so the states of such an execution are not herd7's:
   * the flag thin-air says so.  Over our events (an RMW's write depends
   * on its read). */
  size_t data = builtin(&x, "data", CAT_TY_REL);
  cat_node *cyc = rop(&x, CAT_OP_PLUS,
                      rop(&x, CAT_OP_SEQ, ref(&x, data), ref(&x, builtin(&x, "rf", CAT_TY_REL))), NULL);
  cat_node *self = rop(&x, CAT_OP_INTER, cyc, ref(&x, builtin(&x, "id", CAT_TY_REL)));
  const char *flag = "thin-air";
  for (size_t i = 0; i < m->checks.n; i++)
    if (m->checks.v[i].name && strcmp(m->checks.v[i].name, flag) == 0) flag = "thin-air (one-event view)";
  cat_check f = {CAT_CHECK_EMPTY, true, false, flag, self, at};
  lc_vec_push(&m->checks, f);
  free(x.raw);
}
