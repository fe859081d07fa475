/* cat_lin.h - herd's linearisations(S, r), for the backends (cat_rel.c).
 * SPDX-License-Identifier: MIT
 *
 * Internal to src/cat/ (and its unit tests).
 */
#ifndef CAT_LIN_H
#define CAT_LIN_H

#include "lc.h"
#include "rel.h"

/* At most this many orders per `with ... from linearisations`, and this
 * many choices tried per candidate execution in all (cat_rel_eval). */
#define CAT_MAX_LINEARISATIONS 100000

/* The strict total orders of S that include r+ & (S * S): n of them, each
 * a permutation of elems[0..k) (indices into elems) at perms + i * k.
 * None when r+ has a cycle within S; one, empty, when S is empty. */
typedef struct cat_lin {
  size_t *elems, k;
  size_t *perms, n;
} cat_lin;

/* Fills *out; returns 0, or -1 when there are more than cap orders (*out
 * then holds S's members and no order). */
int cat_lin_orders(const rel_set *s, const rel_rel *r, size_t cap, cat_lin *out);
/* Order i as a relation over n events (new). */
rel_rel *cat_lin_order(const cat_lin *l, size_t i, size_t n);
void cat_lin_fini(cat_lin *l);

/* Bounds of the orders: may = the pairs of two members of may_s, must =
 * (must_r+ & (must_s * must_s)) & may, into may and must. */
void cat_lin_bounds(const rel_set *may_s, const rel_set *must_s, const rel_rel *must_r, rel_rel *may,
                    rel_rel *must);

#endif
