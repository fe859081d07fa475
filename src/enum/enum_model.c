/* enum_model.c - the model over may/must bounds, re-evaluated many times
 * with few choices changing in between.
 * SPDX-License-Identifier: MIT
 *
 * The search asks at every inner node whether some check fails in every
 * completion.  Between two nodes usually one choice moved (a co pair, one
 * read's source), while most of a model does not depend on it: in the
 * PTX models causality depends on rf, sc and sync_bar but not on co.  So
 * every value the evaluator builds is remembered under its structure -
 * the builtin it is, or the operation and the values it was made from.
 * A builtin is rebuilt when a choice it depends on changed, an operation
 * when one of its operands' values moved (a rebuilt value equal to the
 * old one does not move).  Check verdicts are remembered per value.  After the
 * first check that fails for every completion, the rest of the evaluation
 * is skipped: the node is pruned whatever they say.
 *
 * Nothing here knows a model: dependencies come from the engine's
 * builtins (enum_model_deps_fn) and flow through the operations' values.
 *
 * Walking the model's expressions to find each value's entry again cost
 * more than the values themselves: nine in ten operations asked are up
 * to date, and on small tests (cycles of 6 to 8 edges) the walk - the
 * evaluator's recursion and scheduling, the lookups, their allocations -
 * was three fifths of the engine's time.  So one evaluation walks the
 * model and records the entries it visits, in order, with the checks and
 * the `let rec` convergence tests between them (a tape); the next ones,
 * in this frame and the next, replay the tape, rebuilding what is stale.
 * The walk's path depends on values only through the convergence tests:
 * a replay that sees one come out otherwise than recorded walks the
 * model again and records anew.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "enum/enum_int.h"

#define NONE ((size_t)-1)
enum { OP_BUILTIN = -1 };

typedef struct entry {
  int op;                   /* cat_op, or OP_BUILTIN */
  cat_type type;            /* the operands' type (the builtin's for a builtin) */
  size_t a, b;              /* operand entries, or NONE */
  const char *name;         /* builtin name (borrowed from the model) */
  unsigned deps;            /* a builtin's: the choices it depends on */
  cat_mm *val;              /* last value, or NULL */
  cat_mm *spare;            /* room of val's type to rebuild it in, or NULL */
  uint64_t at;              /* clock when val was last built or found up to date */
  uint64_t moved;           /* clock when val last became different */
  cat_mm_verdict verdict[3];/* per check kind, valid when vat[kind] == moved */
  uint64_t vat[3];
  uint64_t taped;           /* the recording that taped it (tape_id), or 0 */
  bool dyn;                 /* depends on a choice (else built once a frame) */
} entry;

/* One step of a tape: bring an entry up to date, give a check's verdict,
 * or compare two values as a `let rec` group's convergence test did. */
enum { ST_ENTRY, ST_CHECK, ST_SAME };
typedef struct step {
  unsigned char kind;
  unsigned char check_kind; /* ST_CHECK: cat_check_kind */
  bool flag;                /* ST_CHECK: a flag; ST_SAME: the answer recorded */
  size_t i;                 /* ST_CHECK: the check's index */
  size_t a, b;              /* ST_ENTRY: a; ST_CHECK: a (or NONE); ST_SAME: both */
} step;

/* What the evaluator holds is an entry's index, tagged so that it is
 * never NULL: 1 stands for "not computed" (after the node is decided,
 * values are never looked at). */
static cat_value enc(size_t e) { return (cat_value)(uintptr_t)(e == NONE ? 1 : e + 2); }
static size_t dec(cat_value v) { return (uintptr_t)v == 1 ? NONE : (size_t)((uintptr_t)v - 2); }

struct enum_model {
  const cat_model *m;
  size_t n;
  LC_VEC(entry) ents;
  size_t *slot;             /* open addressing: entry + 1, 0 empty */
  size_t nslots;
  LC_VEC(size_t) trace;     /* the entry the k-th lookup of the last evaluation found */
  size_t nlookups;          /* lookups so far in this evaluation */
  /* one evaluation */
  cat_mm_builtin_fn builtin;
  enum_model_deps_fn deps;
  void *uctx;
  const uint64_t *ver;      /* per choice: clock of its last change */
  uint64_t clock;
  cat_mm_verdict *out;
  size_t *check_ent;        /* per check: its value's entry in the last evaluation, or NONE */
  size_t ncheck;
  bool decided;             /* some check fails in every completion */
  bool every_check;         /* evaluate every check even so */
  const bool *skip;         /* per check: leave it unevaluated (NULL: none) */
  /* the tape of the model's walk */
  LC_VEC(step) tape;
  LC_VEC(step) dtape;       /* the same less the entries that depend on no choice */
  bool taped;               /* tape is whole and valid */
  bool static_built;        /* every entry of the tape has a value in this frame */
  bool recording;           /* this walk records it */
  uint64_t tape_id;         /* counts recordings, for entry.taped */
  size_t decided_at;        /* recording: the check that decided the node, or NONE */
  size_t work;              /* enum_model_work */
};

enum_model *enum_model_new(const cat_model *m) {
  assert(m);
  enum_model *em = lc_xcalloc(1, sizeof *em);
  em->m = m;
  return em;
}

/* A new frame's values are new, but its walk is the last frame's: the
 * entries (what each is made of) and the tape stay, their values go. */
void enum_model_reset(enum_model *em, size_t n) {
  assert(em);
  for (size_t i = 0; i < em->ents.n; i++) {
    entry *x = &em->ents.v[i];
    cat_mm_free(x->val);
    cat_mm_free(x->spare);
    x->val = x->spare = NULL;
    x->at = x->moved = 0;
    memset(x->vat, 0, sizeof x->vat);
  }
  em->static_built = false;
  if (em->check_ent)
    for (size_t i = 0; i < cat_model_nchecks(em->m); i++) em->check_ent[i] = NONE;
  em->n = n;
}

void enum_model_free(enum_model *em) {
  if (!em) return;
  enum_model_reset(em, 0);
  lc_vec_free(&em->ents);
  lc_vec_free(&em->trace);
  lc_vec_free(&em->tape);
  lc_vec_free(&em->dtape);
  free(em->slot);
  free(em->check_ent);
  free(em);
}

/* ---- entries by structure ------------------------------------------------------ */

static uint64_t key_hash(int op, cat_type type, size_t a, size_t b, const char *name) {
  uint64_t h = 1469598103934665603u;
  uint64_t parts[4] = {(uint64_t)(int64_t)op, (uint64_t)type, (uint64_t)a, (uint64_t)b};
  for (size_t i = 0; i < 4; i++) h = (h ^ parts[i]) * 1099511628211u;
  for (const char *c = name; c && *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211u;
  return h;
}

static bool key_is(const entry *x, int op, cat_type type, size_t a, size_t b, const char *name) {
  if (x->op != op || x->type != type || x->a != a || x->b != b) return false;
  return op != OP_BUILTIN || strcmp(x->name, name) == 0;
}

static size_t *slot_of(enum_model *em, int op, cat_type type, size_t a, size_t b, const char *name) {
  size_t mask = em->nslots - 1, i = (size_t)key_hash(op, type, a, b, name) & mask;
  for (;; i = (i + 1) & mask) {
    size_t k = em->slot[i];
    if (!k || key_is(&em->ents.v[k - 1], op, type, a, b, name)) return &em->slot[i];
  }
}

static void grow(enum_model *em) {
  free(em->slot);
  em->nslots = em->nslots ? em->nslots * 2 : 256;
  em->slot = lc_xcalloc(em->nslots, sizeof(size_t));
  for (size_t k = 0; k < em->ents.n; k++) {
    const entry *x = &em->ents.v[k];
    *slot_of(em, x->op, x->type, x->a, x->b, x->name) = k + 1;
  }
}

static size_t lookup(enum_model *em, int op, cat_type type, size_t a, size_t b, const char *name,
                     unsigned deps) {
  if ((em->ents.n + 1) * 2 > em->nslots) grow(em);
  size_t *slot = slot_of(em, op, type, a, b, name);
  if (*slot) return *slot - 1;
  bool dyn = op == OP_BUILTIN ? deps != 0
             : (a != NONE && em->ents.v[a].dyn) || (b != NONE && em->ents.v[b].dyn);
  entry x = {op, type, a, b, name, deps, NULL, NULL, 0, 0, {0}, {0}, 0, dyn};
  lc_vec_push(&em->ents, x);
  *slot = em->ents.n;
  return em->ents.n - 1;
}

/* Every evaluation walks the model in the same order, so the k-th lookup
 * almost always wants what the k-th lookup found last time: that is
 * checked first, and the hash table (a fifth of the engine's time on the
 * spin family) asked only when it differs. */
static size_t find(enum_model *em, int op, cat_type type, size_t a, size_t b, const char *name,
                   unsigned deps) {
  size_t k = em->nlookups++;
  if (k < em->trace.n) {
    const entry *x = &em->ents.v[em->trace.v[k]];
    if (x->op == op && x->type == type && x->a == a && x->b == b && x->name == name) return em->trace.v[k];
  }
  size_t e = lookup(em, op, type, a, b, name, deps);
  if (k < em->trace.n) em->trace.v[k] = e;
  else if (k == em->trace.n) lc_vec_push(&em->trace, e);
  return e;
}

/* Built after the last change of every choice it depends on? */
static bool fresh(const enum_model *em, const entry *x) {
  if (!x->val) return false;
  for (unsigned d = 0; d < ENUM_NCHOICES; d++)
    if ((x->deps >> d & 1u) && em->ver[d] > x->at) return false;
  return true;
}

/* A rebuilt value equal to the old one keeps the old one, and with it
 * the values built on it: a co pair decided one way changes co but
 * rarely every relation made from it, and what did not move is neither
 * rebuilt nor checked again. */
static void store(enum_model *em, entry *x, cat_mm *v) {
  em->work++;
  x->at = em->clock;
  if (x->val && cat_mm_same(x->val, v)) {
    if (!x->spare) x->spare = v;
    else cat_mm_free(v);
    return;
  }
  if (!x->spare) x->spare = x->val;
  else cat_mm_free(x->val);
  x->val = v;
  x->moved = em->clock;
}

/* Rebuilds an operation's value in its spare room, which then swaps
 * with the value if they differ: no allocation once both exist (malloc
 * and free were a quarter of the explicit engine's time). */
static void rebuild(enum_model *em, entry *x, cat_op op, cat_type type, const cat_mm *a, const cat_mm *b) {
  if (!x->val || !x->spare) {
    store(em, x, cat_mm_op(em->n, op, type, a, b));
    return;
  }
  cat_mm_op_into(em->n, op, type, a, b, x->spare);
  em->work++;
  x->at = em->clock;
  if (cat_mm_same(x->val, x->spare)) return;
  cat_mm *t = x->val;
  x->val = x->spare;
  x->spare = t;
  x->moved = em->clock;
}

/* An operation is up to date when neither operand moved since it was
 * built; operands are brought up to date before it is asked. */
static bool op_fresh(const enum_model *em, const entry *x, size_t ea, size_t eb) {
  if (!x->val) return false;
  if (ea != NONE && em->ents.v[ea].moved > x->at) return false;
  return eb == NONE || em->ents.v[eb].moved <= x->at;
}

/* ---- the backend ----------------------------------------------------------------- */

/* Recording: an entry's first visit in the walk.  Later visits in the
 * same walk find it up to date, so they are left off the tape. */
static void tape_entry(enum_model *em, size_t e) {
  em->work++;   /* a walk's visit */
  if (!em->recording || em->ents.v[e].taped == em->tape_id) return;
  em->ents.v[e].taped = em->tape_id;
  step st = {ST_ENTRY, 0, false, 0, e, NONE};
  lc_vec_push(&em->tape, st);
}

static cat_value be_builtin(void *ctx, const char *name, cat_type *type) {
  enum_model *em = ctx;
  if (em->decided) return enc(NONE);
  size_t e = find(em, OP_BUILTIN, *type, NONE, NONE, name, em->deps(em->uctx, name));
  tape_entry(em, e);
  if (fresh(em, &em->ents.v[e])) return enc(e);
  cat_mm *v = em->builtin(em->uctx, name, type);
  if (!v) return NULL;
  if (v->type != *type) {
    cat_mm_free(v);
    return NULL;
  }
  store(em, &em->ents.v[e], v);
  return enc(e);
}

static cat_value be_op(void *ctx, cat_op op, cat_type type, cat_value va, cat_value vb) {
  enum_model *em = ctx;
  size_t ea = va ? dec(va) : NONE, eb = vb ? dec(vb) : NONE;
  if (em->decided || (va && ea == NONE) || (vb && eb == NONE)) return enc(NONE);
  size_t e = find(em, (int)op, type, ea, eb, NULL, 0);
  tape_entry(em, e);
  if (op_fresh(em, &em->ents.v[e], ea, eb)) return enc(e);
  rebuild(em, &em->ents.v[e], op, type, va ? em->ents.v[ea].val : NULL, vb ? em->ents.v[eb].val : NULL);
  return enc(e);
}

static bool be_same(void *ctx, cat_type type, cat_value va, cat_value vb) {
  enum_model *em = ctx;
  size_t a = dec(va), b = dec(vb);
  (void)type;
  bool same = a == NONE || b == NONE || a == b || cat_mm_same(em->ents.v[a].val, em->ents.v[b].val);
  if (em->recording) {
    step st = {ST_SAME, 0, same, 0, a, b};
    lc_vec_push(&em->tape, st);
  }
  return same;
}

static bool holds(cat_check_kind kind, const rel_rel *r) {
  if (kind == CAT_CHECK_ACYCLIC) return rel_acyclic(r, NULL, NULL);
  if (kind == CAT_CHECK_IRREFLEXIVE) return rel_irreflexive(r);
  return rel_empty(r);
}

static cat_mm_verdict verdict(entry *x, cat_check_kind kind) {
  if (x->vat[kind] == x->moved && x->moved) return x->verdict[kind];
  cat_mm_verdict v = holds(kind, x->val->may) ? CAT_MM_HOLDS
                   : !holds(kind, x->val->must) ? CAT_MM_FAILS : CAT_MM_UNKNOWN;
  x->verdict[kind] = v;
  x->vat[kind] = x->moved;
  return v;
}

static void be_check(void *ctx, cat_check_kind kind, bool flag, cat_value v, const char *name, lc_loc at) {
  enum_model *em = ctx;
  size_t e = v ? dec(v) : NONE, i = em->ncheck++;
  (void)name;
  (void)at;
  em->check_ent[i] = e;
  if (em->recording) {
    step st = {ST_CHECK, (unsigned char)kind, flag, i, e, NONE};
    lc_vec_push(&em->tape, st);
  }
  if (!v || e == NONE) return;
  em->out[i] = verdict(&em->ents.v[e], kind);
  if (flag || em->out[i] != CAT_MM_FAILS || em->every_check) return;
  /* A recording walks on, to tape the checks after this one too; their
   * verdicts are dropped at the end, as a walk that stopped here gives. */
  if (!em->recording) em->decided = true;
  else if (em->decided_at == NONE) em->decided_at = i;
}

/* Replays the tape; false when a convergence test came out otherwise
 * than recorded, or a builtin failed (the walk then says why).  Once
 * every entry has its value in this frame, those that depend on no
 * choice are up to date for good, and only the rest are replayed (on
 * the PTX models, half of the tape). */
static bool replay(enum_model *em) {
  const step *tape = em->static_built ? em->dtape.v : em->tape.v;
  size_t n = em->static_built ? em->dtape.n : em->tape.n;
  for (size_t k = 0; k < n; k++) {
    const step *st = &tape[k];
    if (st->kind == ST_ENTRY) {
      entry *x = &em->ents.v[st->a];
      if (x->op == OP_BUILTIN) {
        if (fresh(em, x)) continue;
        cat_type t = x->type;
        cat_mm *v = em->builtin(em->uctx, x->name, &t);
        if (!v || v->type != x->type) {
          cat_mm_free(v);
          return false;
        }
        store(em, x, v);
      } else if (!op_fresh(em, x, x->a, x->b)) {
        rebuild(em, x, (cat_op)x->op, x->type, x->a != NONE ? em->ents.v[x->a].val : NULL,
                x->b != NONE ? em->ents.v[x->b].val : NULL);
      }
    } else if (st->kind == ST_SAME) {
      bool same = st->a == NONE || st->b == NONE || st->a == st->b ||
                  cat_mm_same(em->ents.v[st->a].val, em->ents.v[st->b].val);
      if (same != st->flag) return false;
    } else {
      em->check_ent[st->i] = st->a;
      if (st->a == NONE) continue;
      cat_mm_verdict v = verdict(&em->ents.v[st->a], (cat_check_kind)st->check_kind);
      em->out[st->i] = v;
      if (!st->flag && v == CAT_MM_FAILS && !em->every_check) return true;
    }
  }
  em->static_built = true;
  return true;
}

int enum_model_eval(enum_model *em, cat_mm_builtin_fn builtin, enum_model_deps_fn deps, void *uctx,
                    const uint64_t *ver, uint64_t clock, cat_mm_verdict *out, lc_diag *d) {
  assert(em && builtin && out && d);
  em->builtin = builtin;
  em->deps = deps;
  em->uctx = uctx;
  em->ver = ver;
  em->clock = clock;
  em->out = out;
  em->ncheck = 0;
  em->nlookups = 0;
  em->decided = false;
  if (!em->check_ent) em->check_ent = lc_xcalloc(cat_model_nchecks(em->m) + 1, sizeof(size_t));
  for (size_t i = 0; i < cat_model_nchecks(em->m); i++) {
    out[i] = CAT_MM_UNKNOWN;
    em->check_ent[i] = NONE;
  }
  if (em->taped && replay(em)) return 0;
  if (em->taped)   /* start again: what the replay brought up to date stays so */
    for (size_t i = 0; i < cat_model_nchecks(em->m); i++) {
      out[i] = CAT_MM_UNKNOWN;
      em->check_ent[i] = NONE;
    }
  em->tape.n = 0;
  em->taped = false;
  em->recording = true;
  em->tape_id++;
  em->decided_at = NONE;
  cat_backend be = {be_builtin, be_op, be_same, em->n * em->n + 1, be_check, NULL, em, em->skip};
  int rc = cat_eval(em->m, &be, d);
  em->recording = false;
  em->taped = rc == 0;
  em->static_built = rc == 0;
  em->dtape.n = 0;
  for (size_t k = 0; k < em->tape.n; k++)
    if (em->tape.v[k].kind != ST_ENTRY || em->ents.v[em->tape.v[k].a].dyn) lc_vec_push(&em->dtape, em->tape.v[k]);
  /* the verdicts a walk that stopped at the deciding check gives */
  for (size_t i = em->decided_at == NONE ? cat_model_nchecks(em->m) : em->decided_at + 1;
       i < cat_model_nchecks(em->m); i++) {
    out[i] = CAT_MM_UNKNOWN;
    em->check_ent[i] = NONE;
  }
  return rc;
}

void enum_model_every_check(enum_model *em, bool on) {
  assert(em);
  em->every_check = on;
}

void enum_model_skip(enum_model *em, const bool *skip) {
  assert(em);
  em->skip = skip;
  em->taped = false;
}

size_t enum_model_work(const enum_model *em) { return em ? em->work : 0; }

const rel_rel *enum_model_check_may(const enum_model *em, size_t i) {
  assert(em && i < cat_model_nchecks(em->m));
  size_t e = em->check_ent ? em->check_ent[i] : NONE;
  if (e == NONE || !em->ents.v[e].val) return NULL;
  return em->ents.v[e].val->may;
}
