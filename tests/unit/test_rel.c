/* test_rel.c - rel_ sets and relations against a naive oracle.
 * SPDX-License-Identifier: MIT
 *
 * Like SQLite's bitvec self-test: every operation is recomputed on plain
 * bool matrices and compared bit for bit, on random values of sizes
 * around the 64-bit word boundaries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lc.h"
#include "rel.h"

/* ---- oracle ------------------------------------------------------------------ */

enum { MAXN = 130 };

typedef struct oset { size_t n; bool b[MAXN]; } oset;
typedef struct orel { size_t n; bool b[MAXN][MAXN]; } orel;

typedef struct rng { uint64_t s; } rng;

static uint64_t next(rng *r) {   /* xorshift64* */
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ULL;
}

/* density in 1/256ths */
static void rand_rel(rng *g, orel *o, rel_rel *r, unsigned density) {
  for (size_t a = 0; a < o->n; a++)
    for (size_t b = 0; b < o->n; b++) {
      o->b[a][b] = (next(g) & 255) < density;
      if (o->b[a][b]) rel_add(r, a, b);
    }
}

static void rand_set(rng *g, oset *o, rel_set *s) {
  for (size_t a = 0; a < o->n; a++) {
    o->b[a] = next(g) & 1;
    if (o->b[a]) rel_set_add(s, a);
  }
}

static void same_rel(const orel *o, const rel_rel *r) {
  assert_int_equal(o->n, r->n);
  size_t count = 0;
  for (size_t a = 0; a < o->n; a++)
    for (size_t b = 0; b < o->n; b++) {
      assert_int_equal(o->b[a][b], rel_has(r, a, b));
      count += o->b[a][b];
    }
  assert_int_equal(count, rel_count(r));   /* also: no stray bits past n */
}

static void same_set(const oset *o, const rel_set *s) {
  size_t count = 0;
  for (size_t a = 0; a < o->n; a++) {
    assert_int_equal(o->b[a], rel_set_has(s, a));
    count += o->b[a];
  }
  assert_int_equal(count, rel_set_count(s));
}

static void o_seq(const orel *a, const orel *b, orel *r) {
  r->n = a->n;
  for (size_t x = 0; x < a->n; x++)
    for (size_t z = 0; z < a->n; z++) {
      r->b[x][z] = false;
      for (size_t y = 0; y < a->n && !r->b[x][z]; y++) r->b[x][z] = a->b[x][y] && b->b[y][z];
    }
}

/* closure by repeated squaring-free iteration: r := r | r;a until stable */
static void o_plus(const orel *a, orel *r) {
  *r = *a;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t x = 0; x < a->n; x++)
      for (size_t y = 0; y < a->n; y++)
        if (r->b[x][y])
          for (size_t z = 0; z < a->n; z++)
            if (a->b[y][z] && !r->b[x][z]) r->b[x][z] = changed = true;
  }
}

static bool o_acyclic(const orel *a) {
  orel p;
  o_plus(a, &p);
  for (size_t x = 0; x < a->n; x++)
    if (p.b[x][x]) return false;
  return true;
}

static const size_t sizes[] = {0, 1, 2, 5, 63, 64, 65, 100, 128, 129, 130};

/* ---- tests ------------------------------------------------------------------ */

static void test_rel_binary_ops(void **state) {
  (void)state;
  rng g = {0x9e3779b97f4a7c15ULL};
  orel oa, ob, oc;
  for (size_t si = 0; si < LC_ARRAY_LEN(sizes); si++) {
    size_t n = sizes[si];
    oa.n = ob.n = oc.n = n;
    rel_rel *a = rel_new(n), *b = rel_new(n);
    rand_rel(&g, &oa, a, 40);
    rand_rel(&g, &ob, b, 40);
    rel_rel *u = rel_copy(a), *i = rel_copy(a), *d = rel_copy(a), *c = rel_copy(a);
    rel_union_into(u, b);
    rel_inter_into(i, b);
    rel_diff_into(d, b);
    rel_compl_into(c);
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) oc.b[x][y] = oa.b[x][y] || ob.b[x][y];
    same_rel(&oc, u);
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) oc.b[x][y] = oa.b[x][y] && ob.b[x][y];
    same_rel(&oc, i);
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) oc.b[x][y] = oa.b[x][y] && !ob.b[x][y];
    same_rel(&oc, d);
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) oc.b[x][y] = !oa.b[x][y];
    same_rel(&oc, c);
    rel_rel *s = rel_seq(a, b);
    o_seq(&oa, &ob, &oc);
    same_rel(&oc, s);
    rel_rel *v = rel_inverse(a);
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) oc.b[x][y] = oa.b[y][x];
    same_rel(&oc, v);
    assert_int_equal(rel_equal(a, a), true);
    assert_int_equal(rel_equal(u, i), rel_count(u) == rel_count(i));
    rel_free(a), rel_free(b), rel_free(u), rel_free(i), rel_free(d), rel_free(c);
    rel_free(s), rel_free(v);
  }
}

static void test_rel_closures(void **state) {
  (void)state;
  rng g = {12345};
  orel oa, oc;
  for (int round = 0; round < 3; round++)
    for (size_t si = 0; si < LC_ARRAY_LEN(sizes); si++) {
      size_t n = sizes[si];
      oa.n = n;
      rel_rel *a = rel_new(n);
      rand_rel(&g, &oa, a, n ? 256 / (n + 1) + 1 : 1);   /* sparse: long paths */
      rel_rel *p = rel_copy(a), *s = rel_copy(a), *o = rel_copy(a);
      rel_plus_into(p);
      rel_star_into(s);
      rel_opt_into(o);
      o_plus(&oa, &oc);
      same_rel(&oc, p);
      for (size_t x = 0; x < n; x++) oc.b[x][x] = true;
      same_rel(&oc, s);
      oc = oa;
      for (size_t x = 0; x < n; x++) oc.b[x][x] = true;
      same_rel(&oc, o);
      rel_free(a), rel_free(p), rel_free(s), rel_free(o);
    }
}

/* A reported cycle must be a real cycle of r, and one is reported exactly
 * when the oracle finds one. */
static void test_rel_acyclic_witness(void **state) {
  (void)state;
  rng g = {777};
  orel oa;
  size_t cyclic = 0, acyclic = 0;
  for (int round = 0; round < 40; round++) {
    size_t n = sizes[round % LC_ARRAY_LEN(sizes)];
    oa.n = n;
    rel_rel *a = rel_new(n);
    rand_rel(&g, &oa, a, n ? 300 / (n + 1) : 1);
    size_t *cyc = malloc((n ? n : 1) * sizeof *cyc), len = 0;
    bool ok = rel_acyclic(a, cyc, &len);
    assert_int_equal(ok, o_acyclic(&oa));
    ok ? acyclic++ : cyclic++;
    assert_int_equal(ok, rel_acyclic(a, NULL, NULL));
    if (!ok) {
      assert_true(len >= 1 && len <= n);
      for (size_t i = 0; i < len; i++) assert_true(oa.b[cyc[i]][cyc[(i + 1) % len]]);
    }
    bool irr = true;
    for (size_t x = 0; x < n; x++) irr = irr && !oa.b[x][x];
    assert_int_equal(irr, rel_irreflexive(a));
    free(cyc);
    rel_free(a);
  }
  assert_true(cyclic >= 5 && acyclic >= 5);   /* the sample exercises both answers */
}

static void test_rel_sets(void **state) {
  (void)state;
  rng g = {99};
  for (size_t si = 0; si < LC_ARRAY_LEN(sizes); si++) {
    size_t n = sizes[si];
    oset oa = {n, {0}}, ob = {n, {0}}, oc = {n, {0}};
    rel_set *a = rel_set_new(n), *b = rel_set_new(n);
    rand_set(&g, &oa, a);
    rand_set(&g, &ob, b);
    rel_set *u = rel_set_copy(a), *i = rel_set_copy(a), *d = rel_set_copy(a), *c = rel_set_copy(a);
    rel_set_union_into(u, b);
    rel_set_inter_into(i, b);
    rel_set_diff_into(d, b);
    rel_set_compl_into(c);
    for (size_t x = 0; x < n; x++) oc.b[x] = oa.b[x] || ob.b[x];
    same_set(&oc, u);
    for (size_t x = 0; x < n; x++) oc.b[x] = oa.b[x] && ob.b[x];
    same_set(&oc, i);
    for (size_t x = 0; x < n; x++) oc.b[x] = oa.b[x] && !ob.b[x];
    same_set(&oc, d);
    for (size_t x = 0; x < n; x++) oc.b[x] = !oa.b[x];
    same_set(&oc, c);
    size_t seen = 0, last = 0;
    REL_SET_FOREACH(x, a) {
      assert_true(oa.b[x]);
      assert_true(seen == 0 || x > last);
      last = x;
      seen++;
    }
    assert_int_equal(seen, rel_set_count(a));
    assert_int_equal(rel_set_empty(a), seen == 0);
    rel_set *full = rel_set_full(n);
    assert_int_equal(rel_set_count(full), n);
    rel_set_free(a), rel_set_free(b), rel_set_free(u), rel_set_free(i), rel_set_free(d);
    rel_set_free(c), rel_set_free(full);
  }
}

static void test_rel_sets_to_relations(void **state) {
  (void)state;
  rng g = {4242};
  orel oc, or_;
  for (size_t si = 0; si < LC_ARRAY_LEN(sizes); si++) {
    size_t n = sizes[si];
    oset oa = {n, {0}}, ob = {n, {0}};
    rel_set *a = rel_set_new(n), *b = rel_set_new(n);
    rand_set(&g, &oa, a);
    rand_set(&g, &ob, b);
    rel_rel *p = rel_product(a, b), *id = rel_idset(a);
    oc.n = n;
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) oc.b[x][y] = oa.b[x] && ob.b[y];
    same_rel(&oc, p);
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) oc.b[x][y] = x == y && oa.b[x];
    same_rel(&oc, id);
    or_.n = n;
    rel_rel *r = rel_new(n);
    rand_rel(&g, &or_, r, 20);
    rel_set *dom = rel_domain(r), *ran = rel_range(r);
    oset od = {n, {0}}, orr = {n, {0}};
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++)
        if (or_.b[x][y]) od.b[x] = orr.b[y] = true;
    same_set(&od, dom);
    same_set(&orr, ran);
    rel_restrict_into(r, a, b);
    for (size_t x = 0; x < n; x++)
      for (size_t y = 0; y < n; y++) or_.b[x][y] = or_.b[x][y] && oa.b[x] && ob.b[y];
    same_rel(&or_, r);
    size_t fa, fb;
    bool any = rel_first_pair(r, &fa, &fb);
    assert_int_equal(any, !rel_empty(r));
    if (any) {
      assert_true(or_.b[fa][fb]);
      for (size_t x = 0; x <= fa; x++)
        for (size_t y = 0; y < n && (x < fa || y < fb); y++) assert_false(or_.b[x][y]);
    }
    rel_rel *full = rel_full(n), *idn = rel_id(n);
    assert_int_equal(rel_count(full), n * n);
    assert_int_equal(rel_count(idn), n);
    rel_set_free(a), rel_set_free(b), rel_set_free(dom), rel_set_free(ran);
    rel_free(p), rel_free(id), rel_free(r), rel_free(full), rel_free(idn);
  }
}

static void test_rel_free_null(void **state) {
  (void)state;
  rel_free(NULL);
  rel_set_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_rel_binary_ops),
    cmocka_unit_test(test_rel_closures),
    cmocka_unit_test(test_rel_acyclic_witness),
    cmocka_unit_test(test_rel_sets),
    cmocka_unit_test(test_rel_sets_to_relations),
    cmocka_unit_test(test_rel_free_null),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
