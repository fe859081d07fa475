/* kn_coll.c - the block's collectives of a kernel: __syncthreads_count,
 * __syncthreads_and and __syncthreads_or (docs/kernels.md).
 * SPDX-License-Identifier: MIT
 *
 * Each is __syncthreads() that also combines a predicate over the block's
 * threads (CUDA C++ Programming Guide, "Synchronization Functions").  The
 * event model has no barrier that carries values, so the combination goes
 * through memory the reader adds, one int per thread of the block in a
 * __shared__ array per call as written (__votes_LlineCcol, named
 * __votes_LlineCcol_bB in answers):
 *
 *   v[tid] = (p) != 0;   __syncthreads();
 *   x = v[0] + ... + v[n - 1];   (and: == n, or: != 0)
 *   __syncthreads();
 *
 * The first barrier orders every thread's write before every read, so each
 * read has one write it may read (the one of this call) and the value is
 * exact in both engines; the second orders this call's reads before the
 * next call's writes.  Neither orders more than the call's own barrier
 * does: between them a thread only reads the slots.  So the memory effects
 * are those of __syncthreads(), and no access of the slots races.
 */
#include <string.h>

#include "kernel/kn_int.h"

static const struct {
  const char *name;
  kn_coll kind;
} COLLS[] = {
    {"__syncthreads_count", KN_COLL_COUNT},
    {"__syncthreads_and", KN_COLL_AND},
    {"__syncthreads_or", KN_COLL_OR},
};

kn_coll kn_coll_of(const kn_tok *t) {
  if (t->kind != KT_ID) return KN_COLL_NONE;
  for (size_t k = 0; k < LC_ARRAY_LEN(COLLS); k++)
    if (kn_is(t, COLLS[k].name)) return COLLS[k].kind;
  return KN_COLL_NONE;
}

void kn_coll_block(lc_buf *b, kn_coll c, const char *slots, int tid, int n, const char *target, const char *pred) {
  lc_buf_printf(b, "%s[%d] = (%s) != 0; __syncthreads();", slots, tid, pred);
  if (target) {
    lc_buf_printf(b, " %s = (", target);
    for (int k = 0; k < n; k++) lc_buf_printf(b, "%s%s[%d]", k ? " + " : "", slots, k);
    lc_buf_puts(b, c == KN_COLL_AND ? ") == " : c == KN_COLL_OR ? ") != 0" : ")");
    if (c == KN_COLL_AND) lc_buf_printf(b, "%d", n);
    lc_buf_puts(b, "; __syncthreads();");
  }
}

/* Bytes of an element of an extern __shared__ array, by its type as
 * type_text writes it; 0 when not known. */
int kn_type_size(const char *type) {
  static const struct {
    const char *type;
    int size;
  } sizes[] = {
      {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"int8_t", 1}, {"uint8_t", 1}, {"bool", 1},
      {"short", 2}, {"unsigned short", 2}, {"int16_t", 2}, {"uint16_t", 2},
      {"int", 4}, {"unsigned", 4}, {"unsigned int", 4}, {"signed", 4}, {"int32_t", 4}, {"uint32_t", 4},
      {"float", 4},
      {"long", 8}, {"unsigned long", 8}, {"long long", 8}, {"unsigned long long", 8}, {"int64_t", 8},
      {"uint64_t", 8}, {"size_t", 8}, {"double", 8},
  };
  const char *t = type;
  if (!strncmp(t, "volatile ", 9)) t += 9;
  for (size_t k = 0; k < LC_ARRAY_LEN(sizes); k++)
    if (!strcmp(t, sizes[k].type)) return sizes[k].size;
  return 0;
}
