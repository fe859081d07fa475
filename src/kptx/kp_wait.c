/* kp_wait.c - libcu++'s blocking waits in nvcc's PTX made one spin loop
 * (docs/via-nvcc.md, "Blocking waits").
 * SPDX-License-Identifier: MIT
 *
 * cuda::std::atomic<T>::wait, atomic_ref::wait, latch::wait and the
 * semaphores' acquire poll one word until it satisfies a condition:
 * nvcc unrolls libcu++'s 16 polls (__cccl_thread_poll_with_backoff), then
 * a back-off loop polls on with %globaltimer and nanosleep.  Followed as
 * written, each failed poll is a branch of the test, more than the 4096
 * paths a thread may have.  A poll is
 *
 *     ld.Q R, [A];  setp.C.T P, R, S;  @P bra EXIT;     (or R as setp's second operand)
 *
 * and the wait at such a poll P0 is what runs from its fall-through
 * without passing EXIT.  When that wait W
 *
 *   - reads only A, each time with P0's load (the same qualifiers), and
 *     writes no memory, fences, waits at no barrier and calls nothing (its
 *     other instructions: arithmetic, setp/selp, branches, clock reads,
 *     nanosleep);
 *   - leaves only for EXIT, and only right after a poll of the same
 *     condition (the value loaded, compared with S as P0 does; a
 *     fall-through into EXIT after the opposite test counts);
 *   - writes no register read after EXIT before it is written again, nor
 *     A's or S's;
 *   - and leaves in a bounded number of steps when every load reads a
 *     value that satisfies the condition (its polls taken the way the
 *     condition goes, any other branch - on a counter, on the clock -
 *     either way, it has no cycle),
 *
 * then every run of P0 and W is a sequence of loads of A, each with P0's
 * qualifiers, that ends at EXIT after a load whose value satisfies the
 * condition, or never ends (which it does exactly when the value memory
 * ends with fails the condition: with one that satisfies it, the wait
 * leaves once its loads read it, under fair memory).
 * That is also what `L: P0; bra L` does, with no bound on the loads before
 * the last; P0's fall-through is made that branch.  The loads between
 * (the failed polls, and a load of the back-off loop that satisfies the
 * condition but only leads to another poll) leave nothing behind but the
 * events they are: under a model closed under deleting reads
 * (cat_model_deletion_closed) an execution of either program with any
 * number of them has the final state, the flagged pairs and the hang of
 * one with a single failed load, or none, which both programs have.  The
 * caller folds only for such a model (kp_options.fold_waits).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kptx/kp_int.h"

static bool op_is(const char *op, const char *h) {
  size_t n = strlen(h);
  return op && !strncmp(op, h, n) && (op[n] == '.' || op[n] == '\0');
}

static bool op_has(const char *op, const char *p) {
  size_t n = strlen(p);
  for (const char *s = op ? strchr(op, '.') : NULL; s; s = strchr(s + 1, '.'))
    if (!strncmp(s + 1, p, n) && (s[1 + n] == '.' || s[1 + n] == '\0')) return true;
  return false;
}

/* the comparisons setp names, and each one's negation and its mirror (a op b = b op' a) */
static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
static const int cmp_negated[] = {1, 0, 5, 4, 3, 2, 9, 8, 7, 6};
static const int cmp_mirrored[] = {0, 1, 4, 5, 2, 3, 8, 9, 6, 7};

/* The condition a poll's way into EXIT is taken on: cmp(loaded value, s), at type. */
typedef struct cond {
  int cmp;
  const char *type;   /* setp's type: "s32" */
  const char *s;      /* the operand compared with */
} cond;

typedef struct ctx {
  kp_code *c;
  lc_names rdef;      /* a register's one writing instruction; MULTI when more */
  unsigned char *local;  /* in the wait, or before P0 with no label or branch between */
  size_t *target;     /* a branch's label's index; (size_t)-1 */
  unsigned char *in;  /* in the wait */
  size_t *stack;
} ctx;

#define MULTI ((size_t)-2)

/* The register an address operand (`[%rd9]`, `[%rd9+4]`) reads, followed back
 * through the copies of it made in the wait or just before P0 (libcu++'s atomic_ref
 * copies its pointer before each poll: `mov.u64 %rd9, %rd37`), each the one
 * instruction that writes its register: the loads of the wait read the same
 * address when these are the same register, which neither the wait nor the code
 * between such a copy and P0 writes (checked by the caller). */
static bool addr_key(const ctx *X, const char *op, char *key, size_t n) {
  if (op[0] != '[') return false;
  const char *p = op + 1, *e = p;
  while (*e && *e != '+' && *e != ']') e++;
  if ((size_t)(e - p) >= n) return false;
  memcpy(key, p, (size_t)(e - p));
  key[e - p] = '\0';
  for (int steps = 0; steps < 16; steps++) {
    size_t d = lc_names_get(&X->rdef, key, strlen(key));
    if (d == MULTI || d == LC_NAMES_NONE || !X->local[d]) break;
    const kp_ins *in = &X->c->v[d];
    if (!op_is(in->op, "mov") || in->guard || in->nops != 2 || in->ops[1][0] != '%' || strlen(in->ops[1]) >= n) break;
    strcpy(key, in->ops[1]);
  }
  size_t k = strlen(key);
  if (k + strlen(e) >= n) return false;
  strcpy(key + k, e);
  return true;
}

static bool same_addr(const ctx *X, const char *a, const char *b) {
  char x[128], y[128];
  if (!strcmp(a, b)) return true;
  return addr_key(X, a, x, sizeof x) && addr_key(X, b, y, sizeof y) && !strcmp(x, y);
}

static const char *last_part(const char *op) {
  const char *d = strrchr(op, '.');
  return d ? d + 1 : op;
}

/* The setp at i compares the register r with an operand: its condition with r first. */
static bool setp_cond(const kp_ins *s, const char *r, cond *out) {
  if (!s->op || !op_is(s->op, "setp") || s->guard || s->nops != 3) return false;
  if (op_has(s->op, "and") || op_has(s->op, "or") || op_has(s->op, "xor") || strchr(s->ops[0], '|')) return false;
  int ci = -1;
  for (int k = 0; k < (int)(sizeof cmps / sizeof *cmps); k++)
    if (op_has(s->op, cmps[k])) ci = k;
  /* a float's comparisons are not negated by their opposites (NaN): not followed */
  if (ci < 0 || last_part(s->op)[0] == 'f') return false;
  if (!strcmp(s->ops[1], r) && strcmp(s->ops[2], r)) *out = (cond){ci, last_part(s->op), s->ops[2]};
  else if (!strcmp(s->ops[2], r) && strcmp(s->ops[1], r)) *out = (cond){cmp_mirrored[ci], last_part(s->op), s->ops[1]};
  else return false;
  return true;
}

static bool cond_eq(const cond *a, const cond *b) {
  return a->cmp == b->cmp && !strcmp(a->type, b->type) && !strcmp(a->s, b->s);
}

/* A poll at i: ld; setp on its value; a branch on the setp's predicate.  *taken is
 * the condition the branch is taken on. */
static bool poll_at(const kp_code *c, size_t i, cond *taken) {
  if (i + 2 >= c->n) return false;
  const kp_ins *l = &c->v[i], *s = &c->v[i + 1], *b = &c->v[i + 2];
  if (!l->op || !op_is(l->op, "ld") || l->guard || l->nops != 2 || l->ops[1][0] != '[') return false;
  if (op_has(l->op, "param") || op_has(l->op, "local") || op_has(l->op, "v2") || op_has(l->op, "v4")) return false;
  if (!b->op || !op_is(b->op, "bra") || !b->guard || strcmp(b->guard, s->ops[0] ? s->ops[0] : "")) return false;
  if (!setp_cond(s, l->ops[0], taken)) return false;
  if (b->neg) taken->cmp = cmp_negated[taken->cmp];
  return true;
}

/* The identifiers of s (registers, named or %-named), each passed to f. */
static bool names_any(const char *s, bool (*f)(void *, const char *, size_t), void *arg) {
  for (const char *p = s; p && *p;) {
    if (isdigit((unsigned char)*p)) {
      while (isalnum((unsigned char)*p) || *p == '_') p++;
    } else if (isalpha((unsigned char)*p) || *p == '_' || *p == '$' || *p == '%') {
      const char *w = p++;
      while (isalnum((unsigned char)*p) || *p == '_' || *p == '$' || *p == '@') p++;
      if (f(arg, w, (size_t)(p - w))) return true;
    } else {
      p++;
    }
  }
  return false;
}

static bool in_names(void *t, const char *w, size_t n) { return lc_names_get(t, w, n) != LC_NAMES_NONE; }

/* w is the register that the address key names */
static bool in_names_eq(void *key, const char *w, size_t n) {
  const char *k = key;
  size_t m = strcspn(k, "+]");
  return m == n && !strncmp(k, w, n);
}
/* What a wait may hold besides its loads, setps and branches: no memory, no barrier. */
static bool harmless(const char *op) {
  static const char *const ok[] = {"mov", "add", "sub", "mul", "mad", "shl", "shr", "cvt", "and", "or", "xor",
                                   "not", "neg", "abs", "min", "max", "selp", "nanosleep", "kp.mov"};
  for (size_t k = 0; k < sizeof ok / sizeof *ok; k++)
    if (op_is(op, ok[k])) return true;
  return false;
}

static bool writes(const char *op) {
  return op && !op_is(op, "bra") && !op_is(op, "nanosleep") && !op_is(op, "st") && !op_is(op, "red");
}

/* The ways out of i within the wait when every load reads a value that satisfies
 * the condition: a poll of the wait's word on the condition, or its negation, goes
 * the way the condition takes; any other branch (on a counter, the clock) either way. */
static int true_ways(const ctx *X, size_t i, const kp_ins *ld0, const cond *want, size_t succ[2]) {
  const kp_code *c = X->c;
  const kp_ins *in = &c->v[i];
  size_t w[2];
  int nw = 0, ns = 0;
  if (!in->label && op_is(in->op, "bra")) {
    cond tk;
    bool taken = true, fall = in->guard != NULL;
    if (i >= 2 && in->guard && poll_at(c, i - 2, &tk) && !strcmp(c->v[i - 2].op, ld0->op) &&
        same_addr(X, c->v[i - 2].ops[1], ld0->ops[1])) {
      cond neg = tk;
      neg.cmp = cmp_negated[tk.cmp];
      if (cond_eq(&tk, want)) fall = false;
      else if (cond_eq(&neg, want)) taken = false;
    }
    if (taken) w[nw++] = X->target[i];
    if (fall) w[nw++] = i + 1;
  } else {
    w[nw++] = i + 1;
  }
  for (int k = 0; k < nw; k++)
    if (w[k] < c->n && X->in[w[k]]) succ[ns++] = w[k];
  return ns;
}

/* Whether register r may be read on some way from pc before it is written. */
static bool live_after(ctx *X, size_t pc, const char *r) {
  const kp_code *c = X->c;
  size_t n = c->n, sp = 0;
  unsigned char *seen = lc_xcalloc(n, 1);
  size_t *stack = lc_xcalloc(n + 1, sizeof *stack);
  stack[sp++] = pc;
  seen[pc] = 1;
  bool live = false;
  while (sp && !live) {
    size_t i = stack[--sp], succ[2];
    const kp_ins *in = &c->v[i];
    int ns = 0;
    if (!in->label) {
      if (in->guard && names_any(in->guard, in_names_eq, (void *)r)) live = true;
      bool w = writes(in->op) && in->nops && in->ops[0][0] != '[';
      for (int k = op_is(in->op, "bra") ? in->nops : (w ? 1 : 0); k < in->nops && !live; k++)
        if (names_any(in->ops[k], in_names_eq, (void *)r)) live = true;
      if (w && !in->guard && !strcmp(in->ops[0], r)) continue;   /* written again: dead past here */
      if (op_is(in->op, "ret") || op_is(in->op, "exit") || op_is(in->op, "kp.assert")) continue;
    }
    if (!in->label && op_is(in->op, "bra")) {
      if (X->target[i] == (size_t)-1) live = true;
      else succ[ns++] = X->target[i];
      if (in->guard) succ[ns++] = i + 1;
    } else {
      succ[ns++] = i + 1;
    }
    for (int k = 0; k < ns; k++)
      if (succ[k] < n && !seen[succ[k]]) seen[succ[k]] = 1, stack[sp++] = succ[k];
  }
  free(stack);
  free(seen);
  return live;
}

/* NULL when the poll at p0 heads a wait the checker may fold (the file's comment);
 * else why not, *at the instruction that says so. */
static const char *why_not(ctx *X, size_t p0, size_t exit_pc, size_t *at) {
  kp_code *c = X->c;
  size_t n = c->n;
  const kp_ins *ld0 = &c->v[p0];
  cond want;
  *at = p0;
  if (!poll_at(c, p0, &want)) return "not a poll";
  memset(X->in, 0, n);
  /* the wait: from the fall-through, not past EXIT */
  size_t sp = 0;
  for (size_t k = p0; k < p0 + 3; k++) X->in[k] = 1;
  if (p0 + 3 >= n || p0 + 3 == exit_pc) return "nothing after it";
  X->stack[sp++] = p0 + 3;
  X->in[p0 + 3] = 1;
  bool ok = true;
  while (sp && ok) {
    size_t i = X->stack[--sp];
    const kp_ins *in = &c->v[i];
    size_t succ[2];
    int ns = 0;
    bool poll_exit = false;
    if (in->label) {
      succ[ns++] = i + 1;
    } else if (op_is(in->op, "bra")) {
      if (X->target[i] == (size_t)-1) return *at = i, "a branch to a label the kernel does not have";
      succ[ns++] = X->target[i];
      if (in->guard) succ[ns++] = i + 1;
      cond tk;
      if (i >= 2 && in->guard && poll_at(c, i - 2, &tk)) {
        const kp_ins *l = &c->v[i - 2];
        bool same = !strcmp(l->op, ld0->op);   /* its address: below */
        cond fall = tk;
        fall.cmp = cmp_negated[tk.cmp];
        /* the way into EXIT must be taken exactly on P0's condition */
        if (X->target[i] == exit_pc) poll_exit = same && cond_eq(&tk, &want) && i + 1 != exit_pc;
        else if (i + 1 == exit_pc) poll_exit = same && cond_eq(&fall, &want);
      }
    } else if (op_is(in->op, "ld")) {
      if (strcmp(in->op, ld0->op) || in->nops != 2 || in->guard) return *at = i, "a load other than its first poll's";
      succ[ns++] = i + 1;
    } else if (op_is(in->op, "setp") || harmless(in->op)) {
      if (in->guard && !op_is(in->op, "nanosleep")) return *at = i, "a guarded instruction";
      succ[ns++] = i + 1;
    } else {
      return *at = i, "an instruction that is no load of the word, arithmetic or branch";   /* a write, fence, barrier, call, ret, exit, assert, ... */
    }
    for (int s = 0; s < ns; s++) {
      if (succ[s] >= n) return *at = i, "a way to the kernel's end";
      if (succ[s] == exit_pc) {
        if (!poll_exit) return *at = i, "a way out that is not a poll of its condition";
        continue;
      }
      if (!X->in[succ[s]]) {
        X->in[succ[s]] = 1;
        X->stack[sp++] = succ[s];
      }
    }
  }
  /* the registers the wait writes: not A's, not S's, read nowhere else */
  lc_names defs = {0};
  for (size_t i = 0; i < n; i++)
    if (X->in[i] && !c->v[i].label && writes(c->v[i].op) && c->v[i].nops > 0)
      lc_names_put(&defs, c->v[i].ops[0], strlen(c->v[i].ops[0]), i);
  /* every load of the wait reads P0's address: a register neither the wait nor the
   * code from a copy of it before P0 writes */
  memcpy(X->local, X->in, n);
  size_t start = p0;
  while (start > 0 && !c->v[start - 1].label && !op_is(c->v[start - 1].op, "bra")) start--;
  for (size_t j = start; j < p0; j++) X->local[j] = 1;
  char key0[128], key[128];
  ok = addr_key(X, ld0->ops[1], key0, sizeof key0) && !names_any(key0, in_names, &defs) &&
       !names_any(want.s, in_names, &defs);
  for (size_t j = start; j < p0 && ok; j++)
    if (writes(c->v[j].op) && c->v[j].nops && names_any(c->v[j].ops[0], in_names_eq, key0)) ok = false;
  for (size_t i = 0; i < n && ok; i++)
    if (X->in[i] && !c->v[i].label && op_is(c->v[i].op, "ld"))
      ok = addr_key(X, c->v[i].ops[1], key, sizeof key) && !strcmp(key, key0);
  /* no register the wait writes is read after EXIT before it is written again */
  for (size_t i = 0; i < n && ok; i++)
    if (X->in[i] && !c->v[i].label && writes(c->v[i].op) && c->v[i].nops && c->v[i].ops[0][0] != '[')
      ok = !live_after(X, exit_pc, c->v[i].ops[0]);
  lc_names_fini(&defs);
  if (!ok) return "loads of other addresses, or registers it writes read after it";
  /* when every load reads a value that satisfies the condition, the wait leaves:
   * the wait with only those ways of its polls is acyclic (Kahn) */
  size_t *indeg = lc_xcalloc(n, sizeof *indeg);
  size_t nodes = 0, removed = 0, succ[2];
  for (size_t i = 0; i < n; i++) {
    if (!X->in[i]) continue;
    nodes++;
    for (int s = 0, ns = true_ways(X, i, ld0, &want, succ); s < ns; s++) indeg[succ[s]]++;
  }
  sp = 0;
  for (size_t i = 0; i < n; i++)
    if (X->in[i] && !indeg[i]) X->stack[sp++] = i;
  while (sp) {
    size_t i = X->stack[--sp];
    removed++;
    for (int s = 0, ns = true_ways(X, i, ld0, &want, succ); s < ns; s++)
      if (--indeg[succ[s]] == 0) X->stack[sp++] = succ[s];
  }
  free(indeg);
  return removed == nodes ? NULL : "a cycle it may take for ever when its loads satisfy the condition";
}

/* Whether the poll at p0 looks like a wait (for the error that names one left as
 * written): another load of its word with its opcode follows before EXIT. */
static bool wait_like(ctx *X, size_t p0, size_t exit_pc) {
  const kp_code *c = X->c;
  size_t n = c->n, sp = 0;
  memset(X->in, 0, n);
  if (p0 + 3 >= n) return false;
  X->stack[sp++] = p0 + 3;
  X->in[p0 + 3] = 1;
  while (sp) {
    size_t i = X->stack[--sp], succ[2];
    const kp_ins *in = &c->v[i];
    int ns = 0;
    if (!in->label && op_is(in->op, "ld") && !strcmp(in->op, c->v[p0].op) && in->nops == 2) {
      char a[128], b[128];
      memset(X->local, 1, n);   /* any copy: this names, it does not fold */
      if (addr_key(X, in->ops[1], a, sizeof a) && addr_key(X, c->v[p0].ops[1], b, sizeof b) && !strcmp(a, b))
        return true;
    }
    if (!in->label && (op_is(in->op, "ret") || op_is(in->op, "exit"))) continue;
    if (!in->label && op_is(in->op, "bra")) {
      if (X->target[i] != (size_t)-1) succ[ns++] = X->target[i];
      if (in->guard) succ[ns++] = i + 1;
    } else {
      succ[ns++] = i + 1;
    }
    for (int k = 0; k < ns; k++)
      if (succ[k] < n && succ[k] != exit_pc && !X->in[succ[k]]) X->in[succ[k]] = 1, X->stack[sp++] = succ[k];
  }
  return false;
}

int kp_fold_waits(kp_module *m, kp_unfolded *note) {
  kp_code *c = &m->code;
  size_t n = c->n;
  if (n < 3) return 0;
  lc_names labels = {0};
  for (size_t i = 0; i < n; i++)
    if (c->v[i].label) lc_names_put(&labels, c->v[i].label, strlen(c->v[i].label), i);
  ctx X = {c, {0}, lc_xcalloc(n, 1), lc_xcalloc(n, sizeof(size_t)), lc_xcalloc(n, 1), lc_xcalloc(n + 1, sizeof(size_t))};
  for (size_t i = 0; i < n; i++) {
    const kp_ins *in = &c->v[i];
    if (in->label || !writes(in->op) || !in->nops || in->ops[0][0] == '[') continue;
    size_t len = strlen(in->ops[0]);
    lc_names_put(&X.rdef, in->ops[0], len, lc_names_get(&X.rdef, in->ops[0], len) == LC_NAMES_NONE ? i : MULTI);
  }
  for (size_t i = 0; i < n; i++) {
    X.target[i] = (size_t)-1;
    const kp_ins *in = &c->v[i];
    if (!in->label && op_is(in->op, "bra") && in->nops >= 1)
      X.target[i] = lc_names_get(&labels, in->ops[0], strlen(in->ops[0]));
  }
  unsigned char *fold = lc_xcalloc(n, 1), *covered = lc_xcalloc(n, 1);
  int nfold = 0;
  for (size_t i = 0; i + 2 < n; i++) {
    cond tk;
    if (covered[i] || !poll_at(c, i, &tk) || X.target[i + 2] == (size_t)-1) continue;
    size_t exit_pc = X.target[i + 2];
    if (exit_pc == i || (i > 0 && c->v[i - 1].label && exit_pc == i - 1)) continue;   /* a spin loop already */
    size_t at;
    const char *why = why_not(&X, i, exit_pc, &at);
    if (why) {
      if (note && !note->ptx_line && wait_like(&X, i, exit_pc)) {
        note->ptx_line = c->v[i].ptx_line;
        note->src_line = c->v[i].src_line;
        note->at_ptx_line = c->v[at].ptx_line;
        snprintf(note->why, sizeof note->why, "%s", why);
      }
      continue;
    }
    fold[i] = 1;
    nfold++;
    for (size_t k = 0; k < n; k++)
      if (X.in[k]) covered[k] = 1;
  }
  if (nfold) {
    kp_code out = {0};
    int k = 0;
    for (size_t i = 0; i < n; i++) {
      if (fold[i]) {
        char name[48];
        snprintf(name, sizeof name, "$kp_wait_%d", k++);
        const char *l = lc_arena_strdup(m->a, name);
        lc_vec_push(&out, ((kp_ins){.label = l, .ptx_line = c->v[i].ptx_line, .src_line = c->v[i].src_line}));
        lc_vec_push(&out, c->v[i]);
        lc_vec_push(&out, c->v[i + 1]);
        lc_vec_push(&out, c->v[i + 2]);
        lc_vec_push(&out, ((kp_ins){.op = "bra.uni", .ops = {l}, .nops = 1, .ptx_line = c->v[i + 2].ptx_line,
                                    .src_line = c->v[i + 2].src_line}));
        i += 2;
        continue;
      }
      lc_vec_push(&out, c->v[i]);
    }
    lc_vec_free(c);
    *c = out;
  }
  free(fold);
  free(covered);
  free(X.target);
  free(X.in);
  free(X.local);
  free(X.stack);
  lc_names_fini(&labels);
  lc_names_fini(&X.rdef);
  return nfold;
}
