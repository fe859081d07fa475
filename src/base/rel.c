/* rel.c - bitset sets and relations.
 * SPDX-License-Identifier: MIT
 */
#include "rel.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"

static size_t words_for(size_t n) { return (n + 63) / 64; }

/* Clears the bits beyond n in the last word of a row, so that complement
 * never invents members and counts stay exact. */
static void trim_row(uint64_t *row, size_t n, size_t words) {
  if (words == 0 || n % 64 == 0) return;
  row[words - 1] &= ((uint64_t)1 << (n % 64)) - 1;
}

/* ---- sets --------------------------------------------------------------- */

/* A set or relation and its words are one block: the explicit engine
 * makes and frees millions of them, and halving the calls to malloc and
 * free took a sixth off its time on the spin family. */
rel_set *rel_set_new(size_t n) {
  size_t words = words_for(n);
  rel_set *s = lc_xcalloc(1, sizeof *s + (words ? words : 1) * sizeof(uint64_t));
  s->n = n;
  s->words = words;
  s->w = (uint64_t *)(s + 1);
  return s;
}

rel_set *rel_set_full(size_t n) {
  rel_set *s = rel_set_new(n);
  rel_set_compl_into(s);
  return s;
}

rel_set *rel_set_copy(const rel_set *s) {
  assert(s);
  rel_set *c = rel_set_new(s->n);
  memcpy(c->w, s->w, s->words * sizeof(uint64_t));
  return c;
}

void rel_set_free(rel_set *s) { free(s); }

void rel_set_union_into(rel_set *d, const rel_set *s) {
  assert(d && s && d->n == s->n);
  for (size_t i = 0; i < d->words; i++) d->w[i] |= s->w[i];
}

void rel_set_inter_into(rel_set *d, const rel_set *s) {
  assert(d && s && d->n == s->n);
  for (size_t i = 0; i < d->words; i++) d->w[i] &= s->w[i];
}

void rel_set_diff_into(rel_set *d, const rel_set *s) {
  assert(d && s && d->n == s->n);
  for (size_t i = 0; i < d->words; i++) d->w[i] &= ~s->w[i];
}

void rel_set_compl_into(rel_set *d) {
  for (size_t i = 0; i < d->words; i++) d->w[i] = ~d->w[i];
  trim_row(d->w, d->n, d->words);
}

bool rel_set_equal(const rel_set *a, const rel_set *b) {
  return a->n == b->n && memcmp(a->w, b->w, a->words * sizeof(uint64_t)) == 0;
}

bool rel_set_empty(const rel_set *s) {
  for (size_t i = 0; i < s->words; i++)
    if (s->w[i]) return false;
  return true;
}

size_t rel_set_count(const rel_set *s) {
  size_t c = 0;
  for (size_t i = 0; i < s->words; i++) c += (size_t)__builtin_popcountll(s->w[i]);
  return c;
}

static size_t row_next(const uint64_t *row, size_t n, size_t i) {
  if (i >= n) return n;
  size_t wi = i >> 6;
  uint64_t word = row[wi] & (~(uint64_t)0 << (i & 63));
  size_t words = words_for(n);
  while (!word) {
    if (++wi >= words) return n;
    word = row[wi];
  }
  size_t r = wi * 64 + (size_t)__builtin_ctzll(word);
  return r < n ? r : n;
}

size_t rel_set_next(const rel_set *s, size_t i) { return row_next(s->w, s->n, i); }

/* ---- relations ------------------------------------------------------------ */

rel_rel *rel_new(size_t n) {
  size_t words = words_for(n), cells = n * words;
  rel_rel *r = lc_xcalloc(1, sizeof *r + (cells ? cells : 1) * sizeof(uint64_t));
  r->n = n;
  r->words = words;
  r->w = (uint64_t *)(r + 1);
  return r;
}

rel_rel *rel_full(size_t n) {
  rel_rel *r = rel_new(n);
  rel_compl_into(r);
  return r;
}

rel_rel *rel_id(size_t n) {
  rel_rel *r = rel_new(n);
  for (size_t i = 0; i < n; i++) rel_add(r, i, i);
  return r;
}

rel_rel *rel_copy(const rel_rel *r) {
  assert(r);
  rel_rel *c = rel_new(r->n);
  rel_assign(c, r);
  return c;
}

void rel_free(rel_rel *r) { free(r); }

void rel_clear(rel_rel *r) { memset(r->w, 0, r->n * r->words * sizeof(uint64_t)); }

void rel_assign(rel_rel *d, const rel_rel *s) {
  assert(d && s && d->n == s->n);
  memcpy(d->w, s->w, s->n * s->words * sizeof(uint64_t));
}

void rel_union_into(rel_rel *d, const rel_rel *s) {
  assert(d && s && d->n == s->n);
  for (size_t i = 0, m = d->n * d->words; i < m; i++) d->w[i] |= s->w[i];
}

void rel_inter_into(rel_rel *d, const rel_rel *s) {
  assert(d && s && d->n == s->n);
  for (size_t i = 0, m = d->n * d->words; i < m; i++) d->w[i] &= s->w[i];
}

void rel_diff_into(rel_rel *d, const rel_rel *s) {
  assert(d && s && d->n == s->n);
  for (size_t i = 0, m = d->n * d->words; i < m; i++) d->w[i] &= ~s->w[i];
}

void rel_compl_into(rel_rel *d) {
  for (size_t a = 0; a < d->n; a++) {
    uint64_t *row = rel_row(d, a);
    for (size_t i = 0; i < d->words; i++) row[i] = ~row[i];
    trim_row(row, d->n, d->words);
  }
}

static void row_or(uint64_t *d, const uint64_t *s, size_t words) {
  for (size_t i = 0; i < words; i++) d[i] |= s[i];
}

/* Rows never hold bits at or beyond n (trim_row), so a row's members are
 * its set bits, taken lowest first. */
#define ROW_FOREACH(y, row, words)                                                     \
  for (size_t wi_ = 0; wi_ < (words); wi_++)                                           \
    for (uint64_t bits_ = (row)[wi_], y; bits_ && (y = wi_ * 64 + (size_t)__builtin_ctzll(bits_), 1); \
         bits_ &= bits_ - 1)

void rel_seq_into(rel_rel *d, const rel_rel *a, const rel_rel *b) {
  assert(d && a && b && d != a && d != b && a->n == b->n && d->n == a->n);
  rel_clear(d);
  for (size_t x = 0; x < a->n; x++) {
    const uint64_t *ra = rel_row(a, x);
    uint64_t *rd = rel_row(d, x);
    ROW_FOREACH(y, ra, a->words) row_or(rd, rel_row(b, y), d->words);
  }
}

rel_rel *rel_seq(const rel_rel *a, const rel_rel *b) {
  rel_rel *r = rel_new(a->n);
  rel_seq_into(r, a, b);
  return r;
}

void rel_inverse_into(rel_rel *d, const rel_rel *r) {
  assert(d && r && d != r && d->n == r->n);
  rel_clear(d);
  for (size_t a = 0; a < r->n; a++) {
    const uint64_t *row = rel_row(r, a);
    ROW_FOREACH(b, row, r->words) rel_add(d, b, a);
  }
}

rel_rel *rel_inverse(const rel_rel *r) {
  rel_rel *v = rel_new(r->n);
  rel_inverse_into(v, r);
  return v;
}

/* Warshall's algorithm on bit rows: O(n^2 * n/64). */
void rel_plus_into(rel_rel *r) {
  for (size_t k = 0; k < r->n; k++) {
    const uint64_t *rk = rel_row(r, k);
    for (size_t i = 0; i < r->n; i++)
      if (rel_has(r, i, k)) row_or(rel_row(r, i), rk, r->words);
  }
}

void rel_opt_into(rel_rel *r) {
  for (size_t i = 0; i < r->n; i++) rel_add(r, i, i);
}

void rel_star_into(rel_rel *r) {
  rel_plus_into(r);
  rel_opt_into(r);
}

rel_rel *rel_product(const rel_set *a, const rel_set *b) {
  assert(a && b && a->n == b->n);
  rel_rel *r = rel_new(a->n);
  REL_SET_FOREACH(i, a) memcpy(rel_row(r, i), b->w, r->words * sizeof(uint64_t));
  return r;
}

rel_rel *rel_idset(const rel_set *s) {
  rel_rel *r = rel_new(s->n);
  REL_SET_FOREACH(i, s) rel_add(r, i, i);
  return r;
}

rel_set *rel_domain(const rel_rel *r) {
  rel_set *s = rel_set_new(r->n);
  for (size_t a = 0; a < r->n; a++) {
    const uint64_t *row = rel_row(r, a);
    for (size_t i = 0; i < r->words; i++)
      if (row[i]) {
        rel_set_add(s, a);
        break;
      }
  }
  return s;
}

rel_set *rel_range(const rel_rel *r) {
  rel_set *s = rel_set_new(r->n);
  for (size_t a = 0; a < r->n; a++) row_or(s->w, rel_row(r, a), r->words);
  return s;
}

void rel_restrict_into(rel_rel *r, const rel_set *da, const rel_set *rb) {
  assert(r && (!da || da->n == r->n) && (!rb || rb->n == r->n));
  for (size_t a = 0; a < r->n; a++) {
    uint64_t *row = rel_row(r, a);
    if (da && !rel_set_has(da, a)) {
      memset(row, 0, r->words * sizeof(uint64_t));
      continue;
    }
    if (rb)
      for (size_t i = 0; i < r->words; i++) row[i] &= rb->w[i];
  }
}

bool rel_equal(const rel_rel *a, const rel_rel *b) {
  return a->n == b->n && memcmp(a->w, b->w, a->n * a->words * sizeof(uint64_t)) == 0;
}

bool rel_subset(const rel_rel *a, const rel_rel *b) {
  assert(a && b && a->n == b->n);
  for (size_t i = 0, m = a->n * a->words; i < m; i++)
    if (a->w[i] & ~b->w[i]) return false;
  return true;
}

bool rel_empty(const rel_rel *r) {
  for (size_t i = 0, m = r->n * r->words; i < m; i++)
    if (r->w[i]) return false;
  return true;
}

size_t rel_count(const rel_rel *r) {
  size_t c = 0;
  for (size_t i = 0, m = r->n * r->words; i < m; i++) c += (size_t)__builtin_popcountll(r->w[i]);
  return c;
}

bool rel_irreflexive(const rel_rel *r) {
  for (size_t i = 0; i < r->n; i++)
    if (rel_has(r, i, i)) return false;
  return true;
}

/* Depth-first search with colours; on a back edge, walks the parent chain
 * to report the cycle. */
bool rel_acyclic(const rel_rel *r, size_t *cycle, size_t *ncycle) {
  assert(r);
  size_t n = r->n;
  /* Asked at nearly every node of the explicit engine's search, mostly
   * of small relations: their scratch is on the stack. */
  enum { SMALL = 64 };
  unsigned char small_colour[SMALL];
  size_t small[3 * SMALL];
  bool big = n > SMALL;
  unsigned char *colour = big ? lc_xcalloc(n, 1) : memset(small_colour, 0, n);   /* 0 new, 1 open, 2 done */
  size_t *parent = big ? lc_xmalloc(n * sizeof(size_t)) : small;
  size_t *stack = big ? lc_xmalloc(n * sizeof(size_t)) : small + SMALL;
  size_t *next = big ? lc_xmalloc(n * sizeof(size_t)) : small + 2 * SMALL;
  bool ok = true;
  for (size_t root = 0; root < n && ok; root++) {
    if (colour[root]) continue;
    size_t sp = 0;
    stack[sp++] = root;
    colour[root] = 1;
    next[root] = 0;
    parent[root] = n;
    while (sp && ok) {
      size_t v = stack[sp - 1];
      size_t w = row_next(rel_row(r, v), n, next[v]);
      if (w >= n) {
        colour[v] = 2;
        sp--;
        continue;
      }
      next[v] = w + 1;
      if (colour[w] == 1) {
        ok = false;
        if (cycle && ncycle) {
          size_t len = 0;
          for (size_t u = v; u != w && u < n; u = parent[u]) cycle[len++] = u;
          cycle[len++] = w;
          for (size_t i = 0; i < len / 2; i++) {
            size_t t = cycle[i];
            cycle[i] = cycle[len - 1 - i];
            cycle[len - 1 - i] = t;
          }
          *ncycle = len;
        }
      } else if (colour[w] == 0) {
        colour[w] = 1;
        parent[w] = v;
        next[w] = 0;
        stack[sp++] = w;
      }
    }
  }
  if (big) {
    free(colour);
    free(parent);
    free(stack);
    free(next);
  }
  return ok;
}

bool rel_first_pair(const rel_rel *r, size_t *a, size_t *b) {
  assert(r && a && b);
  for (size_t i = 0; i < r->n; i++) {
    size_t j = row_next(rel_row(r, i), r->n, 0);
    if (j < r->n) {
      *a = i;
      *b = j;
      return true;
    }
  }
  return false;
}
