/* rel.h - sets and binary relations over events 0..n-1 as bitsets.
 * SPDX-License-Identifier: MIT
 *
 * A set is one bit row; a relation is n rows of `words` 64-bit words, row a
 * holding the successors of a.  Litmus tests have tens to a few hundred
 * events, so dense rows are both the simplest and the fastest choice.
 * Operations that produce a value return a new object the caller frees;
 * the *_into variants write into an existing object of the same size.
 */
#ifndef REL_H
#define REL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rel_set {
  size_t n, words;
  uint64_t *w;
} rel_set;

typedef struct rel_rel {
  size_t n, words;
  uint64_t *w;     /* n * words */
} rel_rel;

/* ---- sets --------------------------------------------------------------- */
rel_set *rel_set_new(size_t n);               /* empty */
rel_set *rel_set_full(size_t n);
rel_set *rel_set_copy(const rel_set *s);
void rel_set_free(rel_set *s);
static inline bool rel_set_has(const rel_set *s, size_t i) {
  return (s->w[i >> 6] >> (i & 63)) & 1u;
}
static inline void rel_set_add(rel_set *s, size_t i) { s->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void rel_set_del(rel_set *s, size_t i) { s->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
void rel_set_union_into(rel_set *d, const rel_set *s);
void rel_set_inter_into(rel_set *d, const rel_set *s);
void rel_set_diff_into(rel_set *d, const rel_set *s);
void rel_set_compl_into(rel_set *d);
bool rel_set_equal(const rel_set *a, const rel_set *b);
bool rel_set_empty(const rel_set *s);
size_t rel_set_count(const rel_set *s);
/* Next member >= i, or n when none. */
size_t rel_set_next(const rel_set *s, size_t i);
#define REL_SET_FOREACH(i, s) for (size_t i = rel_set_next((s), 0); i < (s)->n; i = rel_set_next((s), i + 1))

/* ---- relations ------------------------------------------------------------ */
rel_rel *rel_new(size_t n);                   /* empty */
rel_rel *rel_full(size_t n);
rel_rel *rel_id(size_t n);
rel_rel *rel_copy(const rel_rel *r);
void rel_free(rel_rel *r);
static inline uint64_t *rel_row(const rel_rel *r, size_t a) { return r->w + a * r->words; }
static inline bool rel_has(const rel_rel *r, size_t a, size_t b) {
  return (rel_row(r, a)[b >> 6] >> (b & 63)) & 1u;
}
static inline void rel_add(rel_rel *r, size_t a, size_t b) {
  rel_row(r, a)[b >> 6] |= (uint64_t)1 << (b & 63);
}
static inline void rel_del(rel_rel *r, size_t a, size_t b) {
  rel_row(r, a)[b >> 6] &= ~((uint64_t)1 << (b & 63));
}
void rel_clear(rel_rel *r);
void rel_assign(rel_rel *d, const rel_rel *s);
void rel_union_into(rel_rel *d, const rel_rel *s);
void rel_inter_into(rel_rel *d, const rel_rel *s);
void rel_diff_into(rel_rel *d, const rel_rel *s);
void rel_compl_into(rel_rel *d);
rel_rel *rel_seq(const rel_rel *a, const rel_rel *b);
rel_rel *rel_inverse(const rel_rel *r);
/* The same into d, which must be neither operand. */
void rel_seq_into(rel_rel *d, const rel_rel *a, const rel_rel *b);
void rel_inverse_into(rel_rel *d, const rel_rel *r);
void rel_plus_into(rel_rel *r);               /* transitive closure in place */
void rel_star_into(rel_rel *r);               /* reflexive-transitive closure */
void rel_opt_into(rel_rel *r);                /* r | id */
rel_rel *rel_product(const rel_set *a, const rel_set *b);
rel_rel *rel_idset(const rel_set *s);
rel_set *rel_domain(const rel_rel *r);
rel_set *rel_range(const rel_rel *r);
/* Restricts r to pairs (a,b) with a in da and b in rb (either may be NULL). */
void rel_restrict_into(rel_rel *r, const rel_set *da, const rel_set *rb);
bool rel_equal(const rel_rel *a, const rel_rel *b);
bool rel_empty(const rel_rel *r);
bool rel_subset(const rel_rel *a, const rel_rel *b);   /* same n */
size_t rel_count(const rel_rel *r);
bool rel_irreflexive(const rel_rel *r);
/* Acyclic; when not and cycle != NULL, writes one cycle's events into
 * cycle (capacity n) and its length into *ncycle. */
bool rel_acyclic(const rel_rel *r, size_t *cycle, size_t *ncycle);
/* First pair (a,b) in r, in row-major order; false when empty. */
bool rel_first_pair(const rel_rel *r, size_t *a, size_t *b);

#endif
