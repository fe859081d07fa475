/* cat_lin.c - herd's linearisations(S, r): the strict total orders of S
 * that include r+ & (S * S), enumerated, and their may/must bounds.
 * SPDX-License-Identifier: MIT
 *
 * herd enumerates them as the topological sorts of S under the transitive
 * closure of r (lib/innerRel.ml, all_topos_kont_rel); so does this, with
 * an explicit stack (a sort is as deep as S is large), up to a cap: the
 * number of orders is factorial in the size of S when r says little.
 */
#include "cat/cat_lin.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* r+ & (S * S): what every order must include. */
static rel_rel *required(const rel_set *s, const rel_rel *r) {
  rel_rel *req = rel_copy(r);
  rel_plus_into(req);
  rel_rel *ss = rel_product(s, s);
  rel_inter_into(req, ss);
  rel_free(ss);
  return req;
}

int cat_lin_orders(const rel_set *s, const rel_rel *r, size_t cap, cat_lin *out) {
  assert(s && r && out && s->n == r->n);
  memset(out, 0, sizeof *out);
  size_t n = s->n, k = 0;
  size_t *es = lc_xmalloc((n ? n : 1) * sizeof *es);
  for (size_t i = 0; i < n; i++)
    if (rel_set_has(s, i)) es[k++] = i;
  out->k = k;
  out->elems = es;
  rel_rel *req = required(s, r);
  for (size_t i = 0; i < k; i++)
    if (rel_has(req, es[i], es[i])) {   /* a cycle within S: no order */
      rel_free(req);
      return 0;
    }
  /* indeg[i]: the members before i not yet placed */
  size_t *indeg = lc_xcalloc(k ? k : 1, sizeof *indeg);
  size_t *perm = lc_xcalloc(k + 1, sizeof *perm);
  size_t *next = lc_xcalloc(k + 1, sizeof *next);
  bool *used = lc_xcalloc(k ? k : 1, sizeof *used);
  for (size_t i = 0; i < k; i++)
    for (size_t j = 0; j < k; j++)
      if (rel_has(req, es[j], es[i])) indeg[i]++;
  LC_VEC(size_t) all = {0};
  size_t depth = 0;
  int rc = 0;
  for (;;) {
    if (depth == k) {
      if (out->n == cap) {
        rc = -1;
        break;
      }
      for (size_t i = 0; i < k; i++) lc_vec_push(&all, perm[i]);
      out->n++;
      if (depth == 0) break;   /* S is empty: one order, the empty one */
    } else {
      size_t i = next[depth];
      while (i < k && (used[i] || indeg[i])) i++;
      if (i < k) {
        perm[depth] = i;
        used[i] = true;
        for (size_t j = 0; j < k; j++)
          if (rel_has(req, es[i], es[j])) indeg[j]--;
        next[depth] = i + 1;
        next[++depth] = 0;
        continue;
      }
      if (depth == 0) break;
    }
    /* back: undo the member placed last */
    size_t i = perm[--depth];
    used[i] = false;
    for (size_t j = 0; j < k; j++)
      if (rel_has(req, es[i], es[j])) indeg[j]++;
  }
  rel_free(req);
  free(indeg);
  free(perm);
  free(next);
  free(used);
  out->perms = all.v;
  if (rc < 0) {
    free(out->perms);
    out->perms = NULL;
    out->n = 0;
  }
  return rc;
}

rel_rel *cat_lin_order(const cat_lin *l, size_t i, size_t n) {
  assert(l && i < l->n);
  rel_rel *o = rel_new(n);
  const size_t *p = l->perms + i * l->k;
  for (size_t a = 0; a < l->k; a++)
    for (size_t b = a + 1; b < l->k; b++) rel_add(o, l->elems[p[a]], l->elems[p[b]]);
  return o;
}

void cat_lin_fini(cat_lin *l) {
  if (!l) return;
  free(l->elems);
  free(l->perms);
  memset(l, 0, sizeof *l);
}

void cat_lin_bounds(const rel_set *may_s, const rel_set *must_s, const rel_rel *must_r, rel_rel *may,
                    rel_rel *must) {
  /* may: any pair of two members; must: what every order includes */
  rel_rel *p = rel_product(may_s, may_s);
  rel_assign(may, p);
  rel_free(p);
  rel_rel *req = required(must_s, must_r);
  rel_assign(must, req);
  rel_free(req);
  for (size_t i = 0; i < may->n; i++) {
    rel_del(may, i, i);
    rel_del(must, i, i);
  }
  rel_inter_into(must, may);
}
