/* kp_grid.c - where the kernel's flattened PTX is cooperative groups' grid
 * barrier, instruction for instruction (docs/via-nvcc.md, "The grid's
 * barrier").
 * SPDX-License-Identifier: MIT
 *
 * this_grid().sync() compiles for sm_70 and later (CUDA's
 * cooperative_groups/details/sync.h, sync_grids) to
 *
 *       barrier.sync 0;
 *   @%p bra L_END;                          (not the CTA's master thread)
 *       ...                                 (the barrier word's address)
 *       atom.add.release.gpu.u32 %old, [W], %nb;
 *   L_POLL:
 *       ld.acquire.gpu.u32 %cur, [W];
 *       xor.b32 %x, %cur, %old;
 *       setp.gt.s32 %q, %x, -1;             (the top bit has not flipped)
 *   @%q bra L_POLL;
 *   L_END:
 *       ...                                 (register arithmetic nvcc put here)
 *       barrier.sync 0;
 *
 * This file finds that shape and nothing looser: the "..." are register
 * arithmetic only (no memory, no branch, no label, no guard), no other
 * branch goes to L_POLL or L_END, and %old, %cur, %x and %q are read
 * nowhere else.  kp_gen.c then checks, per thread, what only the
 * evaluation knows (the master is the CTA's thread 0, W the grid
 * workspace's barrier word, %nb what sync_grids adds) before it writes the
 * test's grid.sync in its place.
 */
#include "kptx/kp_int.h"

#include <ctype.h>
#include <string.h>

static bool op_is(const char *op, const char *h) {
  size_t n = strlen(h);
  return op && !strncmp(op, h, n) && (op[n] == '.' || !op[n]);
}

static bool part(const char *op, const char *p) {
  size_t n = strlen(p);
  for (const char *q = strchr(op, '.'); q; q = strchr(q + 1, '.'))
    if (!strncmp(q + 1, p, n) && (q[1 + n] == '.' || !q[1 + n])) return true;
  return false;
}

static bool is_ins(const kp_ins *in) { return !in->label && in->op; }

/* barrier.sync 0 / bar.sync 0 (bar.cta.sync, .aligned), unguarded */
static bool cta_barrier(const kp_ins *in) {
  if (!is_ins(in) || in->guard || in->nops != 1 || strcmp(in->ops[0], "0")) return false;
  if (!op_is(in->op, "barrier") && !op_is(in->op, "bar")) return false;
  for (const char *q = strchr(in->op, '.'); q; q = strchr(q + 1, '.')) {
    size_t n = strcspn(q + 1, ".");
    if (!((n == 4 && !strncmp(q + 1, "sync", 4)) || (n == 3 && !strncmp(q + 1, "cta", 3)) ||
          (n == 7 && !strncmp(q + 1, "aligned", 7))))
      return false;
  }
  return part(in->op, "sync");
}

/* register arithmetic: no memory, no branch, no side effect */
static bool arith(const kp_ins *in) {
  static const char *const ok[] = {"mov", "add", "sub", "mul", "mad", "cvt", "cvta", "shl", "shr", "and",
                                   "or",  "xor", "not", "neg", "bfi", "bfe", "min", "max", "selp", "setp"};
  if (!is_ins(in) || in->guard) return false;
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
    if (op_is(in->op, ok[i])) return !part(in->op, "f32") && !part(in->op, "f64");
  return false;
}

static bool is_label(const kp_ins *in, const char *name) { return in->label && !strcmp(in->label, name); }

/* operand s names register r (a whole name: %r2 is not in %r27) */
static bool names(const char *s, const char *r) {
  size_t n = strlen(r);
  for (const char *p = strstr(s, r); p; p = strstr(p + 1, r)) {
    bool before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '%' || p[-1] == '$');
    bool after = isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$';
    if (!before && !after) return true;
  }
  return false;
}

/* register r is read by an instruction outside [from, to] */
static bool read_outside(const kp_code *c, size_t from, size_t to, const char *r) {
  for (size_t i = 0; i < c->n; i++) {
    if (i >= from && i <= to) continue;
    const kp_ins *in = &c->v[i];
    if (in->label) continue;
    if (in->guard && names(in->guard, r)) return true;
    for (int k = 0; k < in->nops; k++)
      if (names(in->ops[k], r)) return true;
  }
  return false;
}

static bool branched_to(const kp_code *c, const char *label, size_t except1, size_t except2) {
  for (size_t i = 0; i < c->n; i++)
    if (i != except1 && i != except2 && is_ins(&c->v[i]) && op_is(c->v[i].op, "bra") && c->v[i].nops > 0 &&
        !strcmp(c->v[i].ops[0], label))
      return true;
  return false;
}

bool kp_grid_barrier_at(const kp_code *c, size_t b1, kp_grid_seq *s) {
  const kp_ins *v = c->v;
  size_t n = c->n, i = b1;
  if (i + 9 >= n || !cta_barrier(&v[i])) return false;
  const kp_ins *skip = &v[++i];
  if (!is_ins(skip) || !op_is(skip->op, "bra") || !skip->guard || skip->nops != 1) return false;
  s->skip = i;
  while (++i < n && arith(&v[i])) {}
  if (i + 7 >= n) return false;
  const kp_ins *at = &v[i];
  if (!op_is(at->op, "atom") || at->guard || at->nops != 3 || !part(at->op, "add") || !part(at->op, "release") ||
      !part(at->op, "gpu") || !part(at->op, "u32") || part(at->op, "shared"))
    return false;
  s->atom = i;
  const char *old = at->ops[0], *word = at->ops[1];
  const kp_ins *poll = &v[i + 1], *ld = &v[i + 2], *x = &v[i + 3], *q = &v[i + 4], *back = &v[i + 5], *end = &v[i + 6];
  if (!poll->label) return false;
  if (!is_ins(ld) || ld->guard || !op_is(ld->op, "ld") || ld->nops != 2 || !part(ld->op, "acquire") ||
      !part(ld->op, "gpu") || !part(ld->op, "u32") || part(ld->op, "shared") || strcmp(ld->ops[1], word))
    return false;
  const char *cur = ld->ops[0];
  if (!is_ins(x) || x->guard || strcmp(x->op, "xor.b32") || x->nops != 3 ||
      !((!strcmp(x->ops[1], cur) && !strcmp(x->ops[2], old)) || (!strcmp(x->ops[1], old) && !strcmp(x->ops[2], cur))))
    return false;
  if (!is_ins(q) || q->guard || strcmp(q->op, "setp.gt.s32") || q->nops != 3 || strcmp(q->ops[1], x->ops[0]) ||
      strcmp(q->ops[2], "-1"))
    return false;
  if (!is_ins(back) || !op_is(back->op, "bra") || !back->guard || back->neg || strcmp(back->guard, q->ops[0]) ||
      back->nops != 1 || strcmp(back->ops[0], poll->label))
    return false;
  if (!is_label(end, skip->ops[0])) return false;
  s->end = i + 6;
  for (i = s->end + 1; i < n && arith(&v[i]); i++) {}
  if (i >= n || !cta_barrier(&v[i])) return false;
  s->b2 = i;
  /* nothing else enters the sequence, nothing after it reads what it computed */
  if (branched_to(c, poll->label, s->atom + 5, s->atom + 5) || branched_to(c, end->label, s->skip, s->skip))
    return false;
  const char *own[] = {old, cur, x->ops[0], q->ops[0]};
  for (size_t k = 0; k < 4; k++)
    if (read_outside(c, s->atom, s->atom + 5, own[k])) return false;
  return true;
}
