/* cat_derive.c - why a check fails in one execution, told in the model's
 * own relations: the cycle (or pair) of the check's expression, each step
 * named by the relation the expression names there, and each step of a
 * `let` derived from that let's definition, down to the builtins.
 * SPDX-License-Identifier: MIT
 *
 * Coherence of cuda-cpp.cat is `irreflexive hb; eco?`: its failure is
 * a -hb-> h -eco-> a, hb's step a -sb-> b -sw-> g -sb-> h (the closure's
 * shortest path), sw's b -sb-> d -strong-rf-> e -sb-> g, and so on.  A
 * cycle of builtins alone (po, rf, fr) would not say which relations the
 * check counts, nor that a fence makes an rf edge synchronise.
 *
 * A pair is derived by the structure of the expression over the values
 * it has in the execution (all computed here, concretely): a union by
 * the first operand that has the pair, a sequence by a middle event
 * (the identity first, so that `[Rel]; ...` costs no step), a closure by
 * a shortest path, an intersection or a difference by the operand that
 * depends on the execution (rf, co, fr, sc, sync_bar; `sw & sr` is told
 * by sw, `ms & (relpat; obs; acqpat)` by the sequence), else the first.
 * A step from an event to itself says nothing and is left out.  Products
 * and complements have no steps: the step is named by the expression's
 * text.  Members of a `let rec` are not derived (a pair may rest on
 * itself through the recursion).
 */
#include "cat/cat_int.h"
#include "cat/cat_rel.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef LC_VEC(cat_step) step_vec;

typedef struct memo {
  const cat_node *node;
  void *v;
} memo;

typedef struct dctx {
  const cat_model *m;
  size_t n;
  void **vals;              /* per model value: its value here, or NULL when unreached */
  bool *reach;
  signed char *dyn;         /* per value: -1 not known yet, 0 static, 1 depends on the execution */
  LC_VEC(memo) memos;
  LC_VEC(cat_deriv_line) lines;
  LC_VEC(size_t) line_val;  /* per line: the value it derives */
  lc_arena *arena;
  lc_diag *d;
  bool failed;
} dctx;

/* ---- values --------------------------------------------------------------------------- */

static void reach_from(dctx *x, const cat_node *root) {
  LC_VEC(const cat_node *) todo = {0};
  lc_vec_push(&todo, root);
  while (todo.n) {
    const cat_node *k = todo.v[--todo.n];
    if (k->kind == CAT_N_OP) {
      if (k->a) lc_vec_push(&todo, k->a);
      if (k->b) lc_vec_push(&todo, k->b);
      continue;
    }
    if (x->reach[k->ref]) continue;
    const cat_val *v = &x->m->vals.v[k->ref];
    if (v->group != CAT_NONE) {
      const cat_group *g = &x->m->groups.v[v->group];
      for (size_t i = 0; i < g->n; i++) {
        x->reach[g->members[i]] = true;
        lc_vec_push(&todo, x->m->vals.v[g->members[i]].body);
      }
    } else {
      x->reach[k->ref] = true;
      if (v->kind == CAT_V_DEF) lc_vec_push(&todo, v->body);
    }
  }
  lc_vec_free(&todo);
}

/* The value of a node, computed once (references: the model's value). */
static const void *value(dctx *x, const cat_node *k) {
  if (k->kind == CAT_N_REF) return x->vals[k->ref];
  for (size_t i = 0; i < x->memos.n; i++)
    if (x->memos.v[i].node == k) return x->memos.v[i].v;
  const void *a = k->a ? value(x, k->a) : NULL, *b = k->b ? value(x, k->b) : NULL;
  memo e = {k, cat_rel_op(x->n, k->op, k->type, a, b)};
  lc_vec_push(&x->memos, e);
  return e.v;
}

static bool has(dctx *x, const cat_node *k, size_t a, size_t b) {
  return rel_has(value(x, k), a, b);
}

/* Does the node's value depend on the execution (rf, co, fr, sc,
 * sync_bar), not only on the events and their program order? */
static bool dynamic_val(dctx *x, size_t v);

static bool dynamic(dctx *x, const cat_node *k) {
  if (k->kind == CAT_N_REF) return dynamic_val(x, k->ref);
  return (k->a && dynamic(x, k->a)) || (k->b && dynamic(x, k->b));
}

static bool dynamic_val(dctx *x, size_t v) {
  if (x->dyn[v] >= 0) return x->dyn[v];
  const cat_val *val = &x->m->vals.v[v];
  if (val->kind == CAT_V_BUILTIN) {
    static const char *const exec[] = {"rf", "co", "fr", "sc", "sync_bar"};
    x->dyn[v] = 0;
    for (size_t i = 0; i < sizeof exec / sizeof *exec; i++)
      if (strcmp(val->name, exec[i]) == 0) x->dyn[v] = 1;
    return x->dyn[v];
  }
  x->dyn[v] = 1;   /* a recursive definition: say yes while it is being looked at */
  x->dyn[v] = val->group != CAT_NONE || (val->body->kind == CAT_N_OP && val->body->op == CAT_OP_LINEAR) ||
              dynamic(x, val->body);
  return x->dyn[v];
}

/* ---- the text of an expression ---------------------------------------------------------- */

static int prec(const cat_node *k) {
  if (k->kind == CAT_N_REF) return 9;
  switch (k->op) {
  case CAT_OP_UNION: return 1;
  case CAT_OP_SEQ: return 2;
  case CAT_OP_DIFF: return 3;
  case CAT_OP_INTER: return 4;
  case CAT_OP_PRODUCT: return 5;
  case CAT_OP_COMPL: return 6;
  case CAT_OP_INVERSE: case CAT_OP_PLUS: case CAT_OP_STAR: case CAT_OP_OPT: return 7;
  default: return 9;
  }
}

static bool binary(const cat_node *k) {
  return k->kind == CAT_N_OP && (k->op == CAT_OP_UNION || k->op == CAT_OP_SEQ || k->op == CAT_OP_DIFF ||
                                 k->op == CAT_OP_INTER || k->op == CAT_OP_PRODUCT);
}

/* Parentheses where precedence needs them, and around an operand of a
 * binary operator that is another binary operator: `(W * W) & loc`,
 * `(a & b) \ c`, read without the table of precedences. */
static void print_node(lc_buf *b, const cat_model *m, const cat_node *k, int want) {
  bool paren = prec(k) < want;
  if (paren) lc_buf_putc(b, '(');
  if (k->kind == CAT_N_REF) {
    lc_buf_puts(b, m->vals.v[k->ref].name);
  } else {
    static const char *const infix[] = {[CAT_OP_UNION] = " | ", [CAT_OP_SEQ] = "; ", [CAT_OP_DIFF] = " \\ ",
                                        [CAT_OP_INTER] = " & ", [CAT_OP_PRODUCT] = " * "};
    int p = prec(k);
    switch (k->op) {
    case CAT_OP_UNION: case CAT_OP_SEQ: case CAT_OP_DIFF: case CAT_OP_INTER: case CAT_OP_PRODUCT:
      print_node(b, m, k->a, binary(k->a) && k->a->op != k->op ? 9 : p);
      lc_buf_puts(b, infix[k->op]);
      print_node(b, m, k->b, binary(k->b) && (k->b->op != k->op || k->op == CAT_OP_DIFF) ? 9 : p);
      break;
    case CAT_OP_COMPL: lc_buf_putc(b, '~'); print_node(b, m, k->a, p); break;
    case CAT_OP_INVERSE: print_node(b, m, k->a, 8); lc_buf_puts(b, "^-1"); break;
    case CAT_OP_PLUS: print_node(b, m, k->a, 8); lc_buf_putc(b, '+'); break;
    case CAT_OP_STAR: print_node(b, m, k->a, 8); lc_buf_putc(b, '*'); break;
    case CAT_OP_OPT: print_node(b, m, k->a, 8); lc_buf_putc(b, '?'); break;
    case CAT_OP_IDSET: lc_buf_putc(b, '['); print_node(b, m, k->a, 0); lc_buf_putc(b, ']'); break;
    case CAT_OP_DOMAIN: lc_buf_puts(b, "domain("); print_node(b, m, k->a, 0); lc_buf_putc(b, ')'); break;
    case CAT_OP_RANGE: lc_buf_puts(b, "range("); print_node(b, m, k->a, 0); lc_buf_putc(b, ')'); break;
    case CAT_OP_EMPTY: lc_buf_putc(b, '0'); break;
    case CAT_OP_LINEAR:
      lc_buf_puts(b, "linearisations(");
      print_node(b, m, k->a, 0);
      lc_buf_puts(b, ", ");
      print_node(b, m, k->b, 0);
      lc_buf_putc(b, ')');
      break;
    }
  }
  if (paren) lc_buf_putc(b, ')');
}

static const char *text_of(dctx *x, const cat_node *k) {
  lc_buf b;
  lc_buf_init(&b);
  print_node(&b, x->m, k, 0);
  const char *s = lc_arena_strdup(x->arena, b.s);
  lc_buf_fini(&b);
  return s;
}

/* ---- derivations -------------------------------------------------------------------------- */

static void push_step(step_vec *v, size_t a, size_t b, const char *name, const char *base, size_t line) {
  cat_step s = {a, b, name, base, false, line};
  lc_vec_push(v, s);
}

/* The builtin a `let` stands for when its body is a name (let sb = po),
 * through any number of such aliases; else NULL. */
static const char *alias_of(const cat_model *m, size_t v) {
  for (size_t hops = 0; hops <= m->vals.n; hops++) {
    const cat_val *val = &m->vals.v[v];
    if (val->kind == CAT_V_BUILTIN) return val->name;
    if (val->group != CAT_NONE || val->body->kind != CAT_N_REF) return NULL;
    v = val->body->ref;
  }
  return NULL;
}

/* The line deriving a from -name-> to of value v, added when new. */
static size_t line_of(dctx *x, size_t v, size_t a, size_t b) {
  for (size_t i = 0; i < x->lines.n; i++)
    if (x->line_val.v[i] == v && x->lines.v[i].from == a && x->lines.v[i].to == b) return i;
  cat_deriv_line l = {a, b, x->m->vals.v[v].name, NULL, 0};
  lc_vec_push(&x->lines, l);
  lc_vec_push(&x->line_val, v);
  return x->lines.n - 1;
}

static int derive(dctx *x, const cat_node *k, size_t a, size_t b, step_vec *out);

/* A closure's pair: the shortest path of steps of k->a (a cycle when a == b). */
static int derive_path(dctx *x, const cat_node *k, size_t a, size_t b, step_vec *out) {
  const rel_rel *r = value(x, k->a);
  size_t n = x->n;
  size_t *prev = lc_xcalloc(n + 1, sizeof(size_t)), *queue = lc_xcalloc(n + 1, sizeof(size_t));
  for (size_t i = 0; i < n; i++) prev[i] = SIZE_MAX;
  size_t head = 0, tail = 0;
  queue[tail++] = a;
  bool found = false;
  while (head < tail && !found) {
    size_t u = queue[head++];
    for (size_t y = 0; y < n && !found; y++) {
      if (!rel_has(r, u, y) || prev[y] != SIZE_MAX || (y == a && a != b)) continue;
      prev[y] = u;
      if (y == b) found = true;
      else queue[tail++] = y;
    }
  }
  int rc = -1;
  if (found) {
    size_t len = 0;
    size_t y = b;
    do {
      queue[len++] = y;   /* the queue is done with: the path backwards */
      y = prev[y];
    } while (y != a);
    rc = 1;
    for (size_t u = a; len-- > 0 && rc >= 0; u = queue[len]) {
      int one = derive(x, k->a, u, queue[len], out);
      if (one == 0) push_step(out, u, queue[len], text_of(x, k->a), NULL, CAT_DERIV_LEAF);
      rc = one < 0 ? -1 : rc;
    }
  }
  free(prev);
  free(queue);
  return rc;
}

/* Does the let k relate e to itself only through an identity ([S], r?,
 * r*: rs of a release that heads its own sequence), not by a cycle (hb
 * in load buffering with release and acquire)?  Lines its derivation
 * adds are dropped again. */
static bool reflexive_only(dctx *x, const cat_node *k, size_t e) {
  const cat_val *v = &x->m->vals.v[k->ref];
  if (v->kind != CAT_V_DEF || v->group != CAT_NONE) return false;
  size_t lines = x->lines.n;
  step_vec tmp = {0};
  int rc = derive(x, v->body, e, e, &tmp);
  bool none = rc >= 0 && tmp.n == 0;
  lc_vec_free(&tmp);
  x->lines.n = x->line_val.n = lines;
  return none;
}

static int derive_seq(dctx *x, const cat_node *k, size_t a, size_t b, step_vec *out) {
  size_t mid = SIZE_MAX;
  if (has(x, k->a, a, a) && has(x, k->b, a, b)) mid = a;
  else if (has(x, k->a, a, b) && has(x, k->b, b, b)) mid = b;
  for (size_t c = 0; c < x->n && mid == SIZE_MAX; c++)
    if (has(x, k->a, a, c) && has(x, k->b, c, b)) mid = c;
  if (mid == SIZE_MAX) return -1;
  const cat_node *part[2] = {k->a, k->b};
  size_t from[2] = {a, mid}, to[2] = {mid, b};
  for (size_t i = 0; i < 2; i++) {
    if (from[i] == to[i] && part[i]->kind != CAT_N_REF) {
      /* the identity part of [S], r? or r*: no step */
      if (derive(x, part[i], from[i], to[i], out) < 0) return -1;
      continue;
    }
    if (from[i] == to[i] && reflexive_only(x, part[i], from[i])) continue;   /* nor a let's identity part */
    int rc = derive(x, part[i], from[i], to[i], out);
    if (rc < 0) return -1;
    if (rc == 0) push_step(out, from[i], to[i], text_of(x, part[i]), NULL, CAT_DERIV_LEAF);
  }
  return 1;
}

/* 1: steps added to out; 0: no steps for this node (a product, a
 * complement: the caller names the step by the expression); -1: the pair
 * is not in the node's value. */
static int derive(dctx *x, const cat_node *k, size_t a, size_t b, step_vec *out) {
  if (!has(x, k, a, b)) return -1;
  if (k->kind == CAT_N_REF) {
    const cat_val *v = &x->m->vals.v[k->ref];
    bool unnamed = !v->name || strchr(v->name, '(');
    if (v->kind == CAT_V_DEF && v->group == CAT_NONE && unnamed)
      return derive(x, v->body, a, b, out);   /* a function's argument: its expression */
    const char *base = alias_of(x->m, k->ref);
    /* a choice of herd's `with x from linearisations(...)` is a leaf */
    bool choice = v->kind == CAT_V_DEF && v->body->kind == CAT_N_OP && v->body->op == CAT_OP_LINEAR;
    bool expand = !base && v->group == CAT_NONE && !choice;
    push_step(out, a, b, v->name ? v->name : "?", base, expand ? line_of(x, k->ref, a, b) : CAT_DERIV_LEAF);
    return 1;
  }
  switch (k->op) {
  case CAT_OP_UNION:
    return derive(x, has(x, k->a, a, b) ? k->a : k->b, a, b, out);
  case CAT_OP_INTER: {
    bool da = dynamic(x, k->a), db = dynamic(x, k->b);
    return derive(x, !da && db ? k->b : k->a, a, b, out);
  }
  case CAT_OP_DIFF: {
    int rc = derive(x, k->a, a, b, out);
    if (rc == 0) push_step(out, a, b, text_of(x, k->a), NULL, CAT_DERIV_LEAF), rc = 1;
    return rc;
  }
  case CAT_OP_SEQ: return derive_seq(x, k, a, b, out);
  case CAT_OP_PLUS: return derive_path(x, k, a, b, out);
  case CAT_OP_STAR:
  case CAT_OP_OPT:
    if (a == b) return 1;
    return k->op == CAT_OP_OPT ? derive(x, k->a, a, b, out) : derive_path(x, k, a, b, out);
  case CAT_OP_IDSET: return 1;
  case CAT_OP_INVERSE: {
    size_t at = out->n;
    int rc = derive(x, k->a, b, a, out);
    if (rc == 0) push_step(out, b, a, text_of(x, k->a), NULL, CAT_DERIV_LEAF), rc = 1;
    if (rc < 0) return rc;
    /* the steps b ... a, reversed: a ... b, each against its relation
     * (none when the pair is an identity part: [S]^-1, r?^-1) */
    for (size_t i = at, j = out->n; i + 1 < j; i++, j--) {
      cat_step t = out->v[i];
      out->v[i] = out->v[j - 1];
      out->v[j - 1] = t;
    }
    for (size_t i = at; i < out->n; i++) {
      size_t t = out->v[i].from;
      out->v[i].from = out->v[i].to;
      out->v[i].to = t;
      out->v[i].inverse = !out->v[i].inverse;
    }
    return 1;
  }
  default: return 0;
  }
}

/* The steps of a pair of node k, an unnamed step when it has none. */
static bool steps_of(dctx *x, const cat_node *k, size_t a, size_t b, step_vec *out) {
  int rc = derive(x, k, a, b, out);
  if (rc == 0) push_step(out, a, b, text_of(x, k), NULL, CAT_DERIV_LEAF);
  if (rc < 0) {
    lc_error(x->d, k->loc, "the derivation of a pair the evaluation gave failed");
    x->failed = true;
  }
  return rc >= 0;
}

static void free_lines(cat_deriv_line *l, size_t n) {
  for (size_t i = 0; i < n; i++) free(l[i].steps);
  free(l);
}

int cat_rel_derive(const cat_model *m, size_t check, size_t n, cat_rel_builtin_fn builtin, void *uctx,
                   const cat_rel_check *failed, cat_derivation *out, lc_diag *d) {
  assert(m && check < m->checks.n && builtin && failed && out && d);
  memset(out, 0, sizeof *out);
  const cat_check *c = &m->checks.v[check];
  size_t nv = m->vals.n ? m->vals.n : 1;
  dctx x = {m, n, lc_xcalloc(nv, sizeof(void *)), lc_xcalloc(nv, sizeof(bool)), lc_xcalloc(nv, 1),
            {0}, {0}, {0}, lc_arena_new(), d, false};
  memset(x.dyn, -1, nv);
  reach_from(&x, c->e);
  size_t *ids = lc_xcalloc(nv, sizeof(size_t)), k = 0;
  for (size_t i = 0; i < m->vals.n; i++)
    if (x.reach[i]) ids[k++] = i;
  void **got = lc_xcalloc(k + 1, sizeof(void *));
  x.failed = cat_rel_eval_values(m, n, builtin, uctx, ids, k, got, d) < 0;
  for (size_t i = 0; i < k; i++) x.vals[ids[i]] = got[i];
  free(got);
  step_vec top = {0};
  out->expr = text_of(&x, c->e);
  if (!x.failed) {
    if (c->kind == CAT_CHECK_ACYCLIC) {
      for (size_t i = 0; i < failed->ncycle && !x.failed; i++)
        steps_of(&x, c->e, failed->cycle[i], failed->cycle[(i + 1) % failed->ncycle], &top);
    } else {
      steps_of(&x, c->e, failed->a, failed->b, &top);
      /* a pair of the identity part alone ([S]^-1, r?): the step is the
       * check's expression */
      if (!x.failed && top.n == 0) push_step(&top, failed->a, failed->b, text_of(&x, c->e), NULL, CAT_DERIV_LEAF);
      if (c->kind == CAT_CHECK_EMPTY && c->e->kind == CAT_N_OP && c->e->op == CAT_OP_DIFF)
        out->unless = text_of(&x, c->e->b);
    }
  }
  /* each let's line in turn; deriving one may add more */
  for (size_t i = 0; i < x.lines.n && !x.failed; i++) {
    step_vec s = {0};
    size_t v = x.line_val.v[i];
    steps_of(&x, m->vals.v[v].body, x.lines.v[i].from, x.lines.v[i].to, &s);
    x.lines.v[i].steps = s.v;
    x.lines.v[i].nsteps = s.n;
  }
  for (size_t i = 0; i < m->vals.n; i++)
    if (x.vals[i]) cat_rel_free(m->vals.v[i].type, x.vals[i]);
  for (size_t i = 0; i < x.memos.n; i++) cat_rel_free(x.memos.v[i].node->rtype, x.memos.v[i].v);
  lc_vec_free(&x.memos);
  lc_vec_free(&x.line_val);
  free(x.vals), free(x.reach), free(x.dyn), free(ids);
  out->top = top.v;
  out->ntop = top.n;
  out->lines = x.lines.v;
  out->nlines = x.lines.n;
  out->arena = x.arena;
  if (x.failed) {
    cat_derivation_fini(out);
    return -1;
  }
  return 0;
}

void cat_derivation_fini(cat_derivation *x) {
  if (!x) return;
  free(x->top);
  free_lines(x->lines, x->nlines);
  if (x->arena) lc_arena_free(x->arena);
  memset(x, 0, sizeof *x);
}

rel_rel *cat_rel_value(const cat_model *m, const char *name, size_t n, cat_rel_builtin_fn builtin, void *uctx,
                       lc_diag *d) {
  assert(m && name && builtin && d);
  size_t v = SIZE_MAX;
  for (size_t i = m->vals.n; i-- > 0 && v == SIZE_MAX;)
    if (m->vals.v[i].type == CAT_TY_REL && strcmp(m->vals.v[i].name, name) == 0) v = i;
  if (v == SIZE_MAX) {
    lc_error(d, (lc_loc){0}, "the model has no relation '%s'", name);
    return NULL;
  }
  void *out = NULL;
  if (cat_rel_eval_values(m, n, builtin, uctx, &v, 1, &out, d) < 0) return NULL;
  return out;
}
