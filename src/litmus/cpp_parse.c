/* cpp_parse.c - the C++ dialect: herd's C11 tests (header `C`) and CUDA
 * C++ tests (header `CUDA`), docs/litmus-format.md "C++ tests".
 * SPDX-License-Identifier: MIT
 *
 * Reads what lies between the header and the tail: the init block and the
 * threads, each a function `P0[@cta N,gpu N] (params) { statements }`.
 * The header, the tail and the error conventions are the PTX parser's
 * (parse_int.h); the lexer runs in its C++ mode.  Expressions follow C's
 * precedence.  The sugar of the CUDA library (cuda::atomic_ref, cuda::std::
 * names, OpenCL scope names) becomes the same nodes as the C11 spelling.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/cpp_ast.h"
#include "litmus/parse_int.h"

#define MAX_NEST 200   /* statements and expressions nest at most this deep */

typedef struct cpp_state {
  lt_cpp *cpp;
  size_t thread_cap, init_cap;
  int cur;                 /* index of the thread being read */
  size_t local_cap;
  int depth;
} cpp_state;

#define CS ((cpp_state *)ps->cpp)

static bool is(parser *ps, lt_tok_kind k) { return TOK.kind == k; }

/* A word, register or thread token used as a C identifier (`r0` is a REG
 * token, but a local's name here). */
static bool ident_tok(const lt_token *t) {
  return t->kind == LT_TOK_WORD || t->kind == LT_TOK_REG || t->kind == LT_TOK_THREAD;
}

static bool tok_eq(const lt_token *t, const char *w) {
  return t->len == strlen(w) && memcmp(t->text, w, t->len) == 0;
}

/* The name without a `cuda::std::`, `cuda::` or `std::` prefix. */
static void strip_ns(const char **s, size_t *n) {
  static const char *const pre[] = {"cuda::std::", "cuda::", "std::"};
  for (size_t i = 0; i < LC_ARRAY_LEN(pre); i++) {
    size_t k = strlen(pre[i]);
    if (*n > k && memcmp(*s, pre[i], k) == 0) {
      *s += k;
      *n -= k;
      return;
    }
  }
}

static bool name_is(const lt_token *t, const char *w) {
  if (t->kind != LT_TOK_WORD) return false;
  const char *s = t->text;
  size_t n = t->len;
  strip_ns(&s, &n);
  return n == strlen(w) && memcmp(s, w, n) == 0;
}

static void nest(parser *ps, lc_loc at) {
  if (++CS->depth > MAX_NEST) lt_p_error(ps, at, "code nested too deeply (more than %d levels)", MAX_NEST);
}

/* ---- types ------------------------------------------------------------------ */

static bool type_word(const lt_token *t) {
  static const char *const w[] = {
    "int", "unsigned", "signed", "long", "short", "char", "volatile", "const", "atomic_int",
    "atomic_uint", "atomic_long", "atomic_bool", "_Atomic", "int32_t", "uint32_t", "int64_t",
    "uint64_t", "bool", "atomic", "atomic_ref", "atomic_intptr_t", "intptr_t", "__shared__",
    "__device__", "__int128", "__int128_t", "__uint128_t", "int128_t", "uint128_t"};
  if (t->kind != LT_TOK_WORD) return false;
  const char *s = t->text;
  size_t n = t->len;
  strip_ns(&s, &n);
  for (size_t i = 0; i < LC_ARRAY_LEN(w); i++)
    if (n == strlen(w[i]) && memcmp(s, w[i], n) == 0) return true;
  return false;
}

/* An arena-backed string that grows: the parser longjmps out on any error
 * (a lexer error mid-type included), so nothing it builds may live on the
 * heap (parse_int.h). */
typedef struct astr { char *s; size_t n, cap; } astr;

static void astr_putn(parser *ps, astr *b, const char *s, size_t n) {
  while (b->n + n + 1 > b->cap) b->s = lt_p_grow(ps, b->s, &b->cap, 1);
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}

static void astr_tok(parser *ps, astr *b, const lt_token *t) { astr_putn(ps, b, t->text, t->len); }

/* type -> typeword {typeword | '<' ... '>'} {'*'}: returned with single
 * spaces between words and the stars attached ("atomic_int*"). */
static const char *type_name(parser *ps) {
  astr b = {0};
  while (type_word(&TOK)) {
    if (b.n) astr_putn(ps, &b, " ", 1);
    astr_tok(ps, &b, &TOK);
    lt_p_next(ps);
    if (is(ps, LT_TOK_LT)) {
      int d = 0;
      do {
        if (is(ps, LT_TOK_EOF)) lt_p_error(ps, TOK.at, "unterminated template argument list");
        if (is(ps, LT_TOK_LT)) d++;
        if (is(ps, LT_TOK_GT)) d--;
        if (is(ps, LT_TOK_COMMA)) astr_putn(ps, &b, ", ", 2);
        else astr_tok(ps, &b, &TOK);
        lt_p_next(ps);
      } while (d > 0);
    }
  }
  while (is(ps, LT_TOK_STAR)) {
    astr_putn(ps, &b, "*", 1);
    lt_p_next(ps);
  }
  return b.s ? b.s : "";
}

/* ---- names -------------------------------------------------------------------- */

static lt_cpp_thread *cur_thread(parser *ps) { return &CS->cpp->threads[CS->cur]; }

static int find_local(const lt_cpp_thread *th, const char *s, size_t n) {
  for (size_t i = 0; i < th->nlocals; i++)
    if (strlen(th->locals[i]) == n && memcmp(th->locals[i], s, n) == 0) return (int)i;
  return -1;
}

/* Declares a local, or finds it again: C scoping is not modelled, a name
 * declared twice (in two branches, say) is one variable. */
static int declare_local(parser *ps, const lt_token *name) {
  lt_cpp_thread *th = cur_thread(ps);
  int k = find_local(th, name->text, name->len);
  if (k >= 0) return k;
  if (th->nlocals >= LT_MAX_REG) lt_p_error(ps, name->at, "too many locals (at most %d)", LT_MAX_REG);
  /* locals and local_at grow in step: one count, one capacity */
  size_t cap = CS->local_cap, cap2 = CS->local_cap;
  *PUSH(ps, th->locals, th->nlocals, cap) = lt_p_str(ps, name);
  th->nlocals--;
  *PUSH(ps, th->local_at, th->nlocals, cap2) = name->at;
  CS->local_cap = cap;
  return (int)th->nlocals - 1;
}

static bool is_param(const lt_cpp_thread *th, const lt_token *t) {
  for (size_t i = 0; i < th->nparams; i++)
    if (tok_eq(t, th->params[i].name)) return true;
  return false;
}

static bool is_init_loc(const lt_test *t, const lt_token *tok) {
  for (size_t i = 0; i < t->ninits; i++)
    if (t->inits[i].kind == LT_INIT_LOC && tok_eq(tok, t->inits[i].loc)) return true;
  return false;
}

/* ---- init block ------------------------------------------------------------------ */

static void init_value(parser *ps, lt_init *e) {
  if (is(ps, LT_TOK_INT)) {
    e->value = TOK.value;
    lt_p_next(ps);
    return;
  }
  if (is(ps, LT_TOK_AMP)) {
    e->value_amp = true;
    lt_p_next(ps);
  }
  e->target_at = TOK.at;
  e->value_loc = lt_p_location(ps, "a constant or a location (&x)");
}

static lt_init *new_init(parser *ps, size_t *cap, const char *loc, lc_loc at) {
  lt_test *t = ps->t;
  lt_init *e = PUSH(ps, t->inits, t->ninits, *cap);
  e->kind = LT_INIT_LOC;
  e->loc = loc;
  e->at = at;
  return e;
}

/* centry -> '[' name ']' '=' value | name '=' value
 *         | type name ['[' INT ']'] ['=' (value | '{' value {',' value} '}')] */
static void init_entry(parser *ps, size_t *cap) {
  lt_cpp *cpp = CS->cpp;
  lt_cinit *ci = PUSH(ps, cpp->inits, cpp->ninits, CS->init_cap);
  ci->at = TOK.at;
  ci->first = ps->t->ninits;
  ci->array_len = -1;
  if (is(ps, LT_TOK_LBRACKET)) {
    ci->bracketed = true;
    lt_p_next(ps);
  } else if (type_word(&TOK)) {
    ci->type = type_name(ps);
  }
  lc_loc at = TOK.at;
  if (!ident_tok(&TOK))
    lt_p_error(ps, TOK.at, "expected a location in the init block, found %s", lt_p_desc(ps, &TOK));
  const char *name = lt_p_str(ps, &TOK);
  lt_p_next(ps);
  if (ci->bracketed) lt_p_expect(ps, LT_TOK_RBRACKET, "']'");
  if (ci->type && is(ps, LT_TOK_LBRACKET)) {
    lt_p_next(ps);
    if (!is(ps, LT_TOK_INT) || TOK.value < 1 || TOK.value > 1024)
      lt_p_error(ps, TOK.at, "expected the array length (1..1024), found %s", lt_p_desc(ps, &TOK));
    ci->array_len = (long)TOK.value;
    lt_p_next(ps);
    lt_p_expect(ps, LT_TOK_RBRACKET, "']'");
  }
  long n = ci->array_len < 0 ? 1 : ci->array_len;
  for (long k = 0; k < n; k++) {
    const char *el = name;
    if (k > 0) {
      char idx[32];
      astr b = {0};
      astr_putn(ps, &b, name, strlen(name));
      int len = snprintf(idx, sizeof idx, "[%ld]", k);
      astr_putn(ps, &b, idx, (size_t)len);
      el = b.s;
    }
    new_init(ps, cap, el, at);
  }
  ci->n = (size_t)n;
  if (!is(ps, LT_TOK_EQ)) {
    if (!ci->type) lt_p_expect(ps, LT_TOK_EQ, "'='");
    return;
  }
  lt_p_next(ps);
  if (ci->array_len < 0) {
    init_value(ps, &ps->t->inits[ci->first]);
    return;
  }
  lc_loc open = TOK.at;
  lt_p_expect(ps, LT_TOK_LBRACE, "'{' opening the array's values");
  for (long k = 0; k < n; k++) {
    init_value(ps, &ps->t->inits[ci->first + (size_t)k]);
    if (!is(ps, LT_TOK_COMMA)) break;
    lt_p_next(ps);
  }
  lt_p_check_match(ps, LT_TOK_RBRACE, "}", "{", open);
}

/* init -> '{' { [centry] ';' } '}' [';'] */
static void init_block(parser *ps) {
  lc_loc open = TOK.at;
  size_t cap = 0;
  lt_p_expect(ps, LT_TOK_LBRACE, "'{' opening the init block");
  while (!is(ps, LT_TOK_RBRACE)) {
    if (is(ps, LT_TOK_SEMI)) {
      lt_p_next(ps);
      continue;
    }
    if (is(ps, LT_TOK_EOF)) lt_p_check_match(ps, LT_TOK_RBRACE, "}", "{", open);
    init_entry(ps, &cap);
    if (!is(ps, LT_TOK_SEMI) && !is(ps, LT_TOK_RBRACE))
      lt_p_error(ps, TOK.at, "expected ';' or '}' after an init entry, found %s", lt_p_desc(ps, &TOK));
  }
  lt_p_next(ps);
  if (is(ps, LT_TOK_SEMI)) lt_p_next(ps);
}

/* ---- expressions ------------------------------------------------------------------ */

static lt_cexpr *expr(parser *ps);

static lt_cexpr *new_expr(parser *ps, lt_cexpr_kind k, lc_loc at) {
  lt_cexpr *e = lc_arena_alloc(ps->a, sizeof *e);
  e->kind = k;
  e->at = at;
  return e;
}

static lt_mo mo_arg(parser *ps, lc_loc *at) {
  static const struct { const char *n; lt_mo mo; } mos[] = {
    {"memory_order_relaxed", LT_MO_RELAXED}, {"memory_order_consume", LT_MO_CONSUME},
    {"memory_order_acquire", LT_MO_ACQUIRE}, {"memory_order_release", LT_MO_RELEASE},
    {"memory_order_acq_rel", LT_MO_ACQ_REL}, {"memory_order_seq_cst", LT_MO_SEQ_CST}};
  *at = TOK.at;
  for (size_t i = 0; i < LC_ARRAY_LEN(mos); i++)
    if (name_is(&TOK, mos[i].n)) {
      lt_p_next(ps);
      return mos[i].mo;
    }
  lt_p_error(ps, TOK.at, "expected a memory order (memory_order_relaxed, _acquire, _release, "
             "_acq_rel, _seq_cst or _consume), found %s", lt_p_desc(ps, &TOK));
}

static bool scope_name(const lt_token *t, lt_ts *s) {
  static const struct { const char *n; lt_ts s; } scopes[] = {
    {"thread_scope_thread", LT_TS_THREAD}, {"thread_scope_block", LT_TS_BLOCK},
    {"thread_scope_cluster", LT_TS_CLUSTER}, {"thread_scope_device", LT_TS_DEVICE},
    {"thread_scope_system", LT_TS_SYSTEM}, {"memory_scope_work_item", LT_TS_THREAD},
    {"memory_scope_work_group", LT_TS_BLOCK}, {"memory_scope_device", LT_TS_DEVICE},
    {"memory_scope_all_svm_devices", LT_TS_SYSTEM}, {"memory_scope_all_devices", LT_TS_SYSTEM}};
  for (size_t i = 0; i < LC_ARRAY_LEN(scopes); i++)
    if (name_is(t, scopes[i].n)) {
      *s = scopes[i].s;
      return true;
    }
  return false;
}

static lt_ts scope_arg(parser *ps, lc_loc *at) {
  lt_ts s;
  *at = TOK.at;
  if (!scope_name(&TOK, &s))
    lt_p_error(ps, TOK.at, "expected a thread scope (thread_scope_block, _cluster, _device, "
               "_system or _thread), found %s", lt_p_desc(ps, &TOK));
  lt_p_next(ps);
  return s;
}

static void comma(parser *ps) { lt_p_expect(ps, LT_TOK_COMMA, "','"); }

/* The failure order C++ derives from a success order. */
static lt_mo fail_order(lt_mo mo) {
  if (mo == LT_MO_ACQ_REL) return LT_MO_ACQUIRE;
  if (mo == LT_MO_RELEASE) return LT_MO_RELAXED;
  return mo;
}

/* The expected operand of a compare-exchange: a pointer (`e`, `&r`) in the
 * C11 form; an lvalue (`r`, `*e`) in the member form. */
static const lt_cexpr *expected_lvalue(parser *ps, const lt_cexpr *e) {
  if (e->kind == LT_CE_DEREF) return e->a;
  if (e->kind == LT_CE_LOCAL) {
    lt_cexpr *a = new_expr(ps, LT_CE_ADDR, e->at);
    a->local = e->local;
    return a;
  }
  lt_p_error(ps, e->at, "the expected value must be a local or *pointer");
}

static const struct { const char *n; lt_catomic_kind k; lt_rmw_op op; } ops[] = {
  {"load", LT_CA_LOAD, LT_RMW_NONE}, {"store", LT_CA_STORE, LT_RMW_NONE},
  {"exchange", LT_CA_EXCHANGE, LT_RMW_EXCH}, {"fetch_add", LT_CA_FETCH, LT_RMW_ADD},
  {"fetch_sub", LT_CA_FETCH, LT_RMW_SUB}, {"fetch_and", LT_CA_FETCH, LT_RMW_AND},
  {"fetch_or", LT_CA_FETCH, LT_RMW_OR}, {"fetch_xor", LT_CA_FETCH, LT_RMW_XOR},
  {"fetch_min", LT_CA_FETCH, LT_RMW_MIN}, {"fetch_max", LT_CA_FETCH, LT_RMW_MAX},
  {"compare_exchange_strong", LT_CA_CAS, LT_RMW_CAS},
  {"compare_exchange_weak", LT_CA_CAS, LT_RMW_CAS},
};

/* The operation named s[0..n), or -1. */
static int find_op(const char *s, size_t n) {
  for (size_t i = 0; i < LC_ARRAY_LEN(ops); i++)
    if (n == strlen(ops[i].n) && memcmp(s, ops[i].n, n) == 0) return (int)i;
  return -1;
}

/* The arguments after the object (and, for the C11 form, its comma):
 * operands, then orders (defaulting to seq_cst), then, in the C11 form
 * (not `member`), a scope. */
static void atomic_args(parser *ps, lt_catomic *a, bool member) {
  bool first = true;
  if (a->kind == LT_CA_STORE || a->kind == LT_CA_EXCHANGE || a->kind == LT_CA_FETCH) {
    a->val = expr(ps);
    first = false;
  } else if (a->kind == LT_CA_CAS) {
    const lt_cexpr *e = expr(ps);
    a->expected = member ? expected_lvalue(ps, e) : e;
    comma(ps);
    a->desired = expr(ps);
    first = false;
  }
  a->mo = LT_MO_SEQ_CST;
  a->mo_fail = LT_MO_SEQ_CST;
  if (is(ps, LT_TOK_RPAREN)) return;
  if (!first) comma(ps);
  a->mo = mo_arg(ps, &a->mo_at);
  a->mo_fail = fail_order(a->mo);
  if (a->kind == LT_CA_CAS && is(ps, LT_TOK_COMMA) && !scope_name(lt_p_peek(ps), &a->scope)) {
    lc_loc at;
    lt_p_next(ps);
    a->mo_fail = mo_arg(ps, &at);
  }
  if (!member && is(ps, LT_TOK_COMMA)) {
    lt_p_next(ps);
    a->scope = scope_arg(ps, &a->scope_at);
  }
}

/* The orders C++ allows each operation ([atomics.types.operations]);
 * mo_fail means something for a compare-exchange only (NA elsewhere). */
static void check_orders(parser *ps, lt_catomic *a) {
  if (a->kind != LT_CA_CAS) a->mo_fail = LT_MO_NA;
  bool rel = a->mo == LT_MO_RELEASE || a->mo == LT_MO_ACQ_REL;
  if (a->kind == LT_CA_LOAD && rel)
    lt_p_error(ps, a->mo_at, "a load cannot be %s", lt_mo_name(a->mo));
  if (a->kind == LT_CA_STORE && a->mo != LT_MO_RELAXED && a->mo != LT_MO_RELEASE && a->mo != LT_MO_SEQ_CST)
    lt_p_error(ps, a->mo_at, "a store cannot be %s (relaxed, release or seq_cst)", lt_mo_name(a->mo));
  if (a->kind == LT_CA_CAS && (a->mo_fail == LT_MO_RELEASE || a->mo_fail == LT_MO_ACQ_REL))
    lt_p_error(ps, a->mo_at, "the failure order of a compare-exchange cannot be %s",
               lt_mo_name(a->mo_fail));
}

/* call -> atomic_OP[_explicit] '(' obj ',' args ')' | atomic_thread_fence '(' mo [',' scope] ')' */
static lt_cexpr *c11_call(parser *ps, const char *s, size_t n) {
  lt_cexpr *e = new_expr(ps, LT_CE_ATOMIC, TOK.at);
  lt_catomic *a = &e->atomic;
  lt_token fn = TOK;
  lt_p_next(ps);
  lc_loc open = TOK.at;
  lt_p_expect(ps, LT_TOK_LPAREN, "'('");
  if (n == strlen("thread_fence") && memcmp(s, "thread_fence", n) == 0) {
    a->kind = LT_CA_FENCE;
    a->mo = mo_arg(ps, &a->mo_at);
    if (is(ps, LT_TOK_COMMA)) {
      lt_p_next(ps);
      a->scope = scope_arg(ps, &a->scope_at);
    }
    lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", open);
    return e;
  }
  bool explicit_ = n > 9 && memcmp(s + n - 9, "_explicit", 9) == 0;
  int k = find_op(s, explicit_ ? n - 9 : n);
  if (k < 0) lt_p_error(ps, fn.at, "unknown atomic operation '%.*s'", (int)fn.len, fn.text);
  a->kind = ops[k].k;
  a->op = ops[k].op;
  a->weak = strstr(ops[k].n, "weak") != NULL;
  a->obj = expr(ps);
  if (explicit_ && is(ps, LT_TOK_RPAREN))
    lt_p_error(ps, TOK.at, "'%.*s' needs a memory order", (int)fn.len, fn.text);
  if (explicit_ || a->kind != LT_CA_LOAD) comma(ps);
  if (!explicit_) {
    /* atomic_load(x), atomic_store(x, v): seq_cst, no order argument */
    if (a->kind == LT_CA_STORE || a->kind == LT_CA_EXCHANGE || a->kind == LT_CA_FETCH) a->val = expr(ps);
    else if (a->kind == LT_CA_CAS) {
      a->expected = expr(ps);
      comma(ps);
      a->desired = expr(ps);
    }
    a->mo = a->mo_fail = LT_MO_SEQ_CST;
  } else {
    atomic_args(ps, a, false);
    if (a->mo_at.line == 0) lt_p_error(ps, TOK.at, "'%.*s' needs a memory order", (int)fn.len, fn.text);
  }
  lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", open);
  check_orders(ps, a);
  return e;
}

/* ref -> atomic_ref '<' type [',' scope] '>' '(' obj ')' '.' OP '(' args ')' */
static lt_cexpr *ref_call(parser *ps) {
  lt_cexpr *e = new_expr(ps, LT_CE_ATOMIC, TOK.at);
  lt_catomic *a = &e->atomic;
  lt_p_next(ps);
  lt_p_expect(ps, LT_TOK_LT, "'<' after atomic_ref");
  while (!is(ps, LT_TOK_COMMA) && !is(ps, LT_TOK_GT)) {
    if (!type_word(&TOK)) lt_p_error(ps, TOK.at, "expected a type, found %s", lt_p_desc(ps, &TOK));
    lt_p_next(ps);
  }
  lt_ts scope = LT_TS_NONE;
  lc_loc scope_at = {0};
  if (is(ps, LT_TOK_COMMA)) {
    lt_p_next(ps);
    scope = scope_arg(ps, &scope_at);
  }
  lt_p_expect(ps, LT_TOK_GT, "'>'");
  lc_loc open = TOK.at;
  lt_p_expect(ps, LT_TOK_LPAREN, "'('");
  const lt_cexpr *obj = expr(ps);
  a->obj = obj->kind == LT_CE_DEREF ? obj->a : obj;
  lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", open);
  lt_p_expect(ps, LT_TOK_DOT, "'.' and an operation (load, store, fetch_add, ...)");
  int k = ident_tok(&TOK) ? find_op(TOK.text, TOK.len) : -1;
  if (k < 0) lt_p_error(ps, TOK.at, "expected an atomic_ref operation (load, store, exchange, "
                        "fetch_add, ..., compare_exchange_strong), found %s", lt_p_desc(ps, &TOK));
  a->kind = ops[k].k;
  a->op = ops[k].op;
  a->weak = strstr(ops[k].n, "weak") != NULL;
  lt_p_next(ps);
  open = TOK.at;
  lt_p_expect(ps, LT_TOK_LPAREN, "'('");
  atomic_args(ps, a, true);
  lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", open);
  a->scope = scope;
  a->scope_at = scope_at;
  if (a->mo_at.line == 0) a->mo_at = e->at;
  check_orders(ps, a);
  return e;
}

/* primary -> INT | name | '(' expr ')' | call | ref */
/* Linux-kernel primitives (herd's linux.def) that appear in herd's C
 * tests of the LKMM, which is not C11. */
static bool lkmm_word(const lt_token *t) {
  static const char *const w[] = {
    "WRITE_ONCE", "READ_ONCE", "smp_store_release", "smp_load_acquire", "smp_mb", "smp_rmb",
    "smp_wmb", "smp_store_mb", "smp_mb__before_atomic", "smp_mb__after_atomic", "xchg",
    "xchg_relaxed", "xchg_acquire", "xchg_release", "cmpxchg", "cmpxchg_relaxed",
    "cmpxchg_acquire", "cmpxchg_release", "spin_lock", "spin_unlock", "spin_trylock",
    "rcu_read_lock", "rcu_read_unlock", "synchronize_rcu", "rcu_dereference",
    "rcu_assign_pointer", "srcu_read_lock", "srcu_read_unlock", "synchronize_srcu"};
  for (size_t i = 0; i < LC_ARRAY_LEN(w); i++)
    if (tok_eq(t, w[i])) return true;
  return false;
}

static lt_cexpr *primary(parser *ps) {
  lc_loc at = TOK.at;
  if (is(ps, LT_TOK_INT)) {
    lt_cexpr *e = new_expr(ps, LT_CE_CONST, at);
    e->value = TOK.value;
    lt_p_next(ps);
    return e;
  }
  if (is(ps, LT_TOK_LPAREN)) {
    lt_p_next(ps);
    lt_cexpr *e = expr(ps);
    lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", at);
    e->parens = true;
    return e;
  }
  if (!ident_tok(&TOK))
    lt_p_error(ps, TOK.at, "expected an expression, found %s", lt_p_desc(ps, &TOK));
  const char *s = TOK.text;
  size_t n = TOK.len;
  strip_ns(&s, &n);
  if (TOK.kind == LT_TOK_WORD && n > 7 && memcmp(s, "atomic_", 7) == 0 &&
      !(n == 10 && memcmp(s, "atomic_ref", 10) == 0))
    return c11_call(ps, s + 7, n - 7);
  if (name_is(&TOK, "atomic_ref")) return ref_call(ps);
  if (name_is(&TOK, "true") || name_is(&TOK, "false")) {
    lt_cexpr *e = new_expr(ps, LT_CE_CONST, at);
    e->value = name_is(&TOK, "true");
    lt_p_next(ps);
    return e;
  }
  lt_cpp_thread *th = cur_thread(ps);
  int k = find_local(th, TOK.text, TOK.len);
  if (k >= 0) {
    lt_cexpr *e = new_expr(ps, LT_CE_LOCAL, at);
    e->local = k;
    lt_p_next(ps);
    return e;
  }
  if (!is_param(th, &TOK) && !is_init_loc(ps->t, &TOK)) {
    if (lkmm_word(&TOK))
      lt_p_error(ps, TOK.at, "%s is a Linux-kernel (LKMM) primitive: C tests here use C11 atomics "
                 "(herd7 too reads it only with its Linux-kernel macros and model)", lt_p_desc(ps, &TOK));
    lt_p_error(ps, TOK.at, "unknown name %s: not a local, a parameter or a location of the init "
               "block", lt_p_desc(ps, &TOK));
  }
  lt_cexpr *e = new_expr(ps, LT_CE_LOC, at);
  e->loc = lt_p_str(ps, &TOK);
  lt_p_next(ps);
  return e;
}

/* C++ reads "--" as a decrement, which the dialect does not have: read
 * as two minus signs it would silently mean something else (--x is x,
 * a--b is a + b). */
static void no_decrement(parser *ps) {
  const lt_token *n = lt_p_peek(ps);
  bool minus_next = n->kind == LT_TOK_MINUS || (n->kind == LT_TOK_INT && n->len && n->text[0] == '-');
  if (is(ps, LT_TOK_MINUS) && minus_next && n->at.line == TOK.at.line && n->at.col == TOK.at.col + 1)
    lt_p_error(ps, TOK.at, "'--' is a decrement in C++, which tests cannot use; "
                           "for two minus signs write '- -'");
}

/* unary -> ('-' | '!' | '~' | '*' | '&') unary | primary */
static lt_cexpr *unary(parser *ps) {
  lc_loc at = TOK.at;
  lt_cexpr *e;
  no_decrement(ps);
  if (is(ps, LT_TOK_MINUS) || is(ps, LT_TOK_NOT)) {
    e = new_expr(ps, LT_CE_UNARY, at);
    e->op = is(ps, LT_TOK_MINUS) ? LT_COP_NEG : TOK.text[0] == '~' ? LT_COP_BITNOT : LT_COP_NOT;
  } else if (is(ps, LT_TOK_STAR)) {
    e = new_expr(ps, LT_CE_DEREF, at);
  } else if (is(ps, LT_TOK_AMP)) {
    lt_p_next(ps);
    lt_cexpr *x = unary(ps);
    if (x->kind == LT_CE_DEREF) return (lt_cexpr *)x->a;   /* &*p is p */
    if (x->kind == LT_CE_LOC) return x;                     /* &x, x a location: its address */
    if (x->kind != LT_CE_LOCAL) lt_p_error(ps, at, "'&' needs a local or a location");
    lt_cexpr *a = new_expr(ps, LT_CE_ADDR, at);
    a->local = x->local;
    return a;
  } else {
    return primary(ps);
  }
  nest(ps, at);
  lt_p_next(ps);
  e->a = unary(ps);
  CS->depth--;
  return e;
}

/* Binary operators by precedence level, loosest first (C's table). */
static const struct binop { lt_tok_kind tok; int level; lt_cop op; } binops[] = {
  {LT_TOK_OR, 0, LT_COP_LOR}, {LT_TOK_AND, 1, LT_COP_LAND}, {LT_TOK_BAR, 2, LT_COP_OR},
  {LT_TOK_CARET, 3, LT_COP_XOR}, {LT_TOK_AMP, 4, LT_COP_AND},
  {LT_TOK_EQEQ, 5, LT_COP_EQ}, {LT_TOK_NE, 5, LT_COP_NE},
  {LT_TOK_LT, 6, LT_COP_LT}, {LT_TOK_LE, 6, LT_COP_LE}, {LT_TOK_GT, 6, LT_COP_GT},
  {LT_TOK_GE, 6, LT_COP_GE}, {LT_TOK_PLUS, 7, LT_COP_ADD}, {LT_TOK_MINUS, 7, LT_COP_SUB},
  {LT_TOK_STAR, 8, LT_COP_MUL}, {LT_TOK_SLASH, 8, LT_COP_DIV}, {LT_TOK_PERCENT, 8, LT_COP_REM},
};
#define NLEVELS 9

static const struct binop *binop_at(parser *ps, int level) {
  for (size_t i = 0; i < LC_ARRAY_LEN(binops); i++)
    if (binops[i].tok == TOK.kind && binops[i].level == level) return &binops[i];
  return NULL;
}

static lt_cexpr *binary(parser *ps, int level) {
  if (level == NLEVELS) return unary(ps);
  lt_cexpr *l = binary(ps, level + 1);
  const struct binop *b;
  while ((b = binop_at(ps, level)) != NULL) {
    lc_loc at = TOK.at;
    no_decrement(ps);
    nest(ps, at);
    lt_p_next(ps);
    lt_cexpr *e = new_expr(ps, LT_CE_BINARY, l->at);
    e->op = b->op;
    e->a = l;
    e->b = binary(ps, level + 1);
    CS->depth--;
    l = e;
  }
  return l;
}

static lt_cexpr *expr(parser *ps) {
  nest(ps, TOK.at);
  lt_cexpr *e = binary(ps, 0);
  CS->depth--;
  return e;
}

/* ---- statements ---------------------------------------------------------------------- */

static lt_cstmt *stmt(parser *ps);
static bool ends_threads(parser *ps);

static lt_cstmt *new_stmt(parser *ps, lt_cstmt_kind k, lc_loc at) {
  lt_cstmt *s = lc_arena_alloc(ps->a, sizeof *s);
  s->kind = k;
  s->at = at;
  return s;
}

static void semi(parser *ps) { lt_p_expect(ps, LT_TOK_SEMI, "';'"); }

/* block -> '{' { stmt } '}' */
static void block(parser *ps, lt_cblock *b) {
  lc_loc open = TOK.at;
  size_t cap = 0;
  lt_p_expect(ps, LT_TOK_LBRACE, "'{'");
  nest(ps, open);
  while (!is(ps, LT_TOK_RBRACE)) {
    if (is(ps, LT_TOK_EOF) || is(ps, LT_TOK_THREAD) || ends_threads(ps))   /* a body left open */
      lt_p_check_match(ps, LT_TOK_RBRACE, "}", "{", open);
    if (is(ps, LT_TOK_SEMI)) {
      lt_p_next(ps);
      continue;
    }
    *PUSH(ps, b->v, b->n, cap) = stmt(ps);
  }
  CS->depth--;
  lt_p_next(ps);
}

/* A branch or loop body: a block, or one statement (kept as a block of one). */
static void body(parser *ps, lt_cblock *b) {
  if (is(ps, LT_TOK_LBRACE)) {
    block(ps, b);
    return;
  }
  b->v = lc_arena_alloc(ps->a, sizeof *b->v);
  b->v[0] = stmt(ps);
  b->n = 1;
}

static void paren_cond(parser *ps, lt_cstmt *s) {
  lc_loc open = TOK.at;
  lt_p_expect(ps, LT_TOK_LPAREN, "'('");
  s->e = expr(ps);
  lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", open);
}

/* stmt -> block | 'if' '(' expr ')' body ['else' body] | 'while' '(' expr ')' body
 *       | '__syncthreads' '(' ')' ';' | type name ['=' expr] ';' | name '=' expr ';'
 *       | '*' unary '=' expr ';' | expr ';' */
static lt_cstmt *stmt(parser *ps) {
  lc_loc at = TOK.at;
  lt_cstmt *s;
  nest(ps, at);
  if (is(ps, LT_TOK_LBRACE)) {
    s = new_stmt(ps, LT_CS_BLOCK, at);
    block(ps, &s->body);
  } else if (lt_p_is_word(ps, "if")) {
    s = new_stmt(ps, LT_CS_IF, at);
    lt_p_next(ps);
    paren_cond(ps, s);
    body(ps, &s->body);
    if (lt_p_is_word(ps, "else")) {
      lt_p_next(ps);
      s->has_else = true;
      body(ps, &s->els);
    }
  } else if (lt_p_is_word(ps, "while")) {
    s = new_stmt(ps, LT_CS_WHILE, at);
    lt_p_next(ps);
    paren_cond(ps, s);
    body(ps, &s->body);
  } else if (lt_p_is_word(ps, "__syncthreads")) {
    s = new_stmt(ps, LT_CS_SYNC, at);
    lt_p_next(ps);
    lt_p_expect(ps, LT_TOK_LPAREN, "'('");
    lt_p_expect(ps, LT_TOK_RPAREN, "')'");
    semi(ps);
  } else if (type_word(&TOK) && !name_is(&TOK, "atomic_ref")) {   /* atomic_ref<..>(x).op() is code */
    s = new_stmt(ps, LT_CS_DECL, at);
    s->type = type_name(ps);
    if (!ident_tok(&TOK)) lt_p_error(ps, TOK.at, "expected a local's name, found %s", lt_p_desc(ps, &TOK));
    lt_token name = TOK;
    lt_p_next(ps);
    if (is(ps, LT_TOK_EQ)) {
      lt_p_next(ps);
      s->e = expr(ps);
    }
    s->local = declare_local(ps, &name);   /* after the initialiser: `int r = r;` is an error */
    semi(ps);
  } else if (is(ps, LT_TOK_STAR)) {
    s = new_stmt(ps, LT_CS_STORE, at);
    lt_p_next(ps);
    s->ptr = unary(ps);
    lt_p_expect(ps, LT_TOK_EQ, "'=' (a store *p = value;)");
    s->e = expr(ps);
    semi(ps);
  } else if (ident_tok(&TOK) && lt_p_peek(ps)->kind == LT_TOK_EQ) {
    s = new_stmt(ps, LT_CS_ASSIGN, at);
    s->local = find_local(cur_thread(ps), TOK.text, TOK.len);
    if (s->local < 0)
      lt_p_error(ps, TOK.at, "%s is not a local of P%d (declare it: int %.*s = ...;)",
                 lt_p_desc(ps, &TOK), ps->t->threads[CS->cur].id, (int)TOK.len, TOK.text);
    lt_p_next(ps);
    lt_p_next(ps);
    s->e = expr(ps);
    semi(ps);
  } else {
    s = new_stmt(ps, LT_CS_EXPR, at);
    s->e = expr(ps);
    semi(ps);
  }
  CS->depth--;
  return s;
}

/* ---- threads ------------------------------------------------------------------------- */

/* param -> type name */
static void param(parser *ps, lt_cpp_thread *th, size_t *cap) {
  lt_cparam *p = PUSH(ps, th->params, th->nparams, *cap);
  p->at = TOK.at;
  if (!type_word(&TOK)) lt_p_error(ps, TOK.at, "expected a parameter type (atomic_int*, int*, ...), "
                                   "found %s", lt_p_desc(ps, &TOK));
  p->type = type_name(ps);
  if (!ident_tok(&TOK)) lt_p_error(ps, TOK.at, "expected a parameter name, found %s", lt_p_desc(ps, &TOK));
  p->name = lt_p_str(ps, &TOK);
  lt_p_next(ps);
}

/* cthread -> THREAD ['@' 'cta' INT [',' 'cluster' INT] ',' 'gpu' INT] '(' [param {',' param}] ')' block */
static void cthread(parser *ps, size_t *cap) {
  lt_test *t = ps->t;
  lt_cpp *cpp = CS->cpp;
  size_t tcap = *cap;
  lt_thread *th = PUSH(ps, t->threads, t->nthreads, tcap);
  t->nthreads--;
  lt_cpp_thread *ct = PUSH(ps, cpp->threads, t->nthreads, CS->thread_cap);
  *cap = tcap;
  CS->cur = (int)t->nthreads - 1;
  CS->local_cap = 0;
  th->id = (int)TOK.value;
  th->at = TOK.at;
  th->cluster = -1;
  lt_p_next(ps);
  if (is(ps, LT_TOK_AT)) {
    lt_p_next(ps);
    ct->placed = true;
    lt_p_placement(ps, th);
  }
  lc_loc open = TOK.at;
  lt_p_expect(ps, LT_TOK_LPAREN, "'(' opening the parameters");
  size_t pcap = 0;
  while (!is(ps, LT_TOK_RPAREN)) {
    param(ps, ct, &pcap);
    if (!is(ps, LT_TOK_COMMA)) break;
    lt_p_next(ps);
  }
  lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", open);
  block(ps, &ct->body);
}

static bool ends_threads(parser *ps) {
  return is(ps, LT_TOK_EOF) || is(ps, LT_TOK_NOT) || lt_p_is_word(ps, "exists") ||
         lt_p_is_word(ps, "forall") || lt_p_is_word(ps, "not") || lt_p_is_word(ps, "locations") ||
         lt_p_is_word(ps, "filter") || lt_p_is_word(ps, "regions");
}

/* The condition's `N:name`. */
static int local_reg(parser *ps, int thread, const lt_token *name) {
  const lt_test *t = ps->t;
  for (size_t i = 0; i < t->nthreads; i++) {
    if (t->threads[i].id != thread) continue;
    int k = find_local(&t->cpp->threads[i], name->text, name->len);
    if (k < 0)
      lt_p_error(ps, name->at, "P%d has no local %s", thread, lt_p_desc(ps, name));
    return k;
  }
  lt_p_error(ps, name->at, "no thread P%d", thread);
}

void lt_cpp_parse_body(parser *ps) {
  cpp_state st = {0};
  st.cpp = lc_arena_alloc(ps->a, sizeof *st.cpp);
  st.cpp->dialect = ps->t->arch[0] == 'C' && ps->t->arch[1] == 0 ? LT_CPP_C11 : LT_CPP_CUDA;
  ps->cpp = &st;
  ps->t->cpp = st.cpp;
  init_block(ps);
  size_t cap = 0;
  if (!is(ps, LT_TOK_THREAD))
    lt_p_error(ps, TOK.at, "expected a thread (P0 (atomic_int* x) { ... }), found %s",
               lt_p_desc(ps, &TOK));
  while (!ends_threads(ps)) {
    if (!is(ps, LT_TOK_THREAD))
      lt_p_error(ps, TOK.at, "expected a thread (P%zu (...) { ... }) or the condition, found %s",
                 ps->t->nthreads, lt_p_desc(ps, &TOK));
    cthread(ps, &cap);
  }
  ps->local_reg = local_reg;
  ps->cpp = NULL;   /* st dies here; local_reg reads the test only */
}

/* What lt_validate checks of a PTX test that a C++ test shares: thread ids
 * 0..n-1 in order; placements either on every thread or on none (then
 * every thread gets a CTA of its own on GPU 0). */
void lt_cpp_finish(parser *ps) {
  lt_test *t = ps->t;
  const lt_cpp *cpp = t->cpp;
  for (size_t i = 0; i < t->nthreads; i++) {
    lt_thread *th = &t->threads[i];
    if (th->id != (int)i)
      lt_p_error(ps, th->at, "thread P%d out of order: expected P%zu", th->id, i);
    if (cpp->threads[i].placed != cpp->threads[0].placed)
      lt_p_error(ps, th->at, "P%d has %s placement but P0 has %s: place every thread or none",
                 th->id, cpp->threads[i].placed ? "a" : "no", cpp->threads[0].placed ? "one" : "none");
    if (!cpp->threads[i].placed) {
      th->cta = (int)i;
      th->gpu = 0;
    }
  }
}
