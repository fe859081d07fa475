/* cat_parse.c - recursive-descent parser of the model language.
 * SPDX-License-Identifier: MIT
 *
 * Binding follows herd's modelParser, loosest first: `|`, `;`, `\`, `&`,
 * the product `*`, prefix `~`, then the postfix operators.  Binary
 * operators associate to the left.  A `*` is the product when the token
 * after it can start an expression, and the postfix closure otherwise
 * (`po* ; rf` is a closure, `M * M` and `M*M` products).  The parser stops
 * at the first error.
 *
 * herd's statements (show, procedure/call, if "variant", with ... from,
 * undefined_unless, let ... in) are read too.  A `let` written in herd's
 * functional language (match, fun, sets of sets, curried functions, ...)
 * is not parsed: its extent is found by brackets and keywords and it is
 * kept as an opaque statement with the names it defines and the first
 * construct that made it opaque, so that herd's library files load and a
 * use of such a name is one error naming it (cat_load.c).
 */
#include "cat/cat_ast.h"

#include <stdlib.h>
#include <string.h>

typedef struct parser {
  lc_arena *arena;
  cat_tok *toks;
  size_t pos;
  lc_diag *d;
  bool failed;
  int depth;        /* parentheses, brackets, calls and `~` open: the parser's recursion */
  int nest;         /* statements, let bodies and variant conditions open: its other recursion */
  const char *const *variants;   /* herd's variants set (--variant), NULL-terminated, or NULL */
} parser;

static bool variant_set(const parser *p, const char *v) {
  for (size_t i = 0; p->variants && p->variants[i]; i++)
    if (strcmp(p->variants[i], v) == 0) return true;
  return false;
}

/* The parser recurses once per parenthesis (30,000 overflowed the stack),
 * the loader, type checks and engines once per node on a path: both are
 * bounded.  Chains of an associative operator (`|`, `;`, `&`) are built
 * balanced, so that a chain of 100,000 terms is 17 nodes deep; other
 * chains (`\`, postfix operators) count in full. */
enum { MAX_DEPTH = 256, MAX_HEIGHT = 1000, BALANCE_FROM = 16 };

static cat_tok *peek(parser *p) { return &p->toks[p->pos]; }
static cat_tok *peek2(parser *p) {
  return p->toks[p->pos].kind == CAT_T_EOF ? &p->toks[p->pos] : &p->toks[p->pos + 1];
}
static cat_tok *next(parser *p) {
  cat_tok *t = &p->toks[p->pos];
  if (t->kind != CAT_T_EOF) p->pos++;
  return t;
}

/* Reports "unexpected X; expected WHAT" at the current token, once. */
static void expected(parser *p, const char *what) {
  if (p->failed) return;
  p->failed = true;
  lc_buf b;
  lc_buf_init(&b);
  cat_tok_describe(&b, peek(p));
  lc_error(p->d, peek(p)->loc, "syntax error: unexpected %s; expected %s", b.s, what);
  lc_buf_fini(&b);
}

static cat_tok *expect(parser *p, cat_tok_kind kind, const char *what) {
  if (peek(p)->kind == kind) return next(p);
  expected(p, what);
  return NULL;
}

static bool starts_expr(cat_tok_kind k) {
  return k == CAT_T_NAME || k == CAT_T_ALL || k == CAT_T_ZERO || k == CAT_T_LPAREN ||
         k == CAT_T_LBRACK || k == CAT_T_TILDE;
}

static int height(const cat_expr *e) { return e ? e->height : 0; }

/* Reports an error at `at`, once. */
static void too_deep(parser *p, lc_loc at, const char *what, int limit) {
  if (p->failed) return;
  p->failed = true;
  lc_error(p->d, at, "expression too deep (more than %d %s)", limit, what);
}

/* NULL (after an error) when the node would be more than MAX_HEIGHT deep. */
static cat_expr *mk(parser *p, cat_expr_kind kind, lc_loc at, cat_expr *a, cat_expr *b) {
  int h = 1 + (height(a) > height(b) ? height(a) : height(b));
  if (h > MAX_HEIGHT) {
    too_deep(p, at, "operators on one path", MAX_HEIGHT);
    return NULL;
  }
  cat_expr *e = lc_arena_alloc(p->arena, sizeof *e);
  e->kind = kind;
  e->loc = at;
  e->a = a;
  e->b = b;
  e->height = h;
  return e;
}

/* One more level of the parser's recursion at `at`: false (after an error)
 * past MAX_DEPTH; the caller then returns NULL without leave(). */
static bool enter(parser *p, lc_loc at) {
  if (++p->depth <= MAX_DEPTH) return true;
  too_deep(p, at, "nested parentheses, brackets, calls or '~'", MAX_DEPTH);
  p->depth--;
  return false;
}

static void leave(parser *p) { p->depth--; }

/* One more level of nested expressions, statements or variant conditions:
 * false (after an error) past MAX_DEPTH.  Unlike enter(), the caller
 * always gives the level back (p->nest--), failed or not. */
static bool nest(parser *p) {
  if (++p->nest <= MAX_DEPTH) return true;
  if (!p->failed) {
    p->failed = true;
    lc_error(p->d, p->toks[p->pos].loc, "nested too deeply (more than %d levels)", MAX_DEPTH);
  }
  return false;
}

static cat_expr *expr(parser *p);

/* args -> expr { ',' expr } */
static cat_expr *call(parser *p, cat_tok *name) {
  cat_expr *e = mk(p, CAT_X_CALL, name->loc, NULL, NULL);
  e->name = name->text;
  cat_tok *open = next(p);
  LC_VEC(cat_expr *) args = {0};
  if (!enter(p, open->loc)) return NULL;
  if (peek(p)->kind != CAT_T_RPAREN) {
    do {
      cat_expr *a = expr(p);
      if (!a) goto fail;
      if (a->height >= e->height) e->height = a->height + 1;
      lc_vec_push(&args, a);
    } while (peek(p)->kind == CAT_T_COMMA && next(p));
  }
  leave(p);
  if (e->height > MAX_HEIGHT) {
    too_deep(p, name->loc, "operators on one path", MAX_HEIGHT);
    lc_vec_free(&args);
    return NULL;
  }
  if (peek(p)->kind != CAT_T_RPAREN) {
    char what[80];
    snprintf(what, sizeof what, "',' or ')' (to close '(' at line %d)", open->loc.line);
    expected(p, what);
    goto fail;
  }
  next(p);
  e->nargs = args.n;
  e->args = lc_arena_alloc(p->arena, (args.n ? args.n : 1) * sizeof *e->args);
  if (args.n) memcpy(e->args, args.v, args.n * sizeof *e->args);
  lc_vec_free(&args);
  return e;
fail:
  leave(p);
  lc_vec_free(&args);
  return NULL;
}

/* Parses the inside of ( ) or [ ] and the closing token. */
static cat_expr *bracketed(parser *p, cat_tok *open, cat_tok_kind close, const char *closing) {
  if (!enter(p, open->loc)) return NULL;
  cat_expr *e = expr(p);
  leave(p);
  if (!e) return NULL;
  if (peek(p)->kind != close) {
    char what[80];
    snprintf(what, sizeof what, "'%s' (to close '%s' at line %d)", closing, open->text, open->loc.line);
    expected(p, what);
    return NULL;
  }
  next(p);
  return e;
}

static bool variant_or(parser *p, bool *ok);
static bool is_word(const cat_tok *t, const char *w);

/* try expr with expr: herd evaluates the first and, when it fails (a name
 * that is not defined, e.g. a fence set of another architecture), the
 * second.  Which one is decided where the names are resolved (cat_load). */
static cat_expr *try_with(parser *p, cat_tok *t) {
  next(p);
  if (!enter(p, t->loc)) return NULL;
  cat_expr *a = expr(p);
  leave(p);
  if (!a) return NULL;
  if (!is_word(peek(p), "with")) {
    expected(p, "'with' (herd's try E with E)");
    return NULL;
  }
  next(p);
  if (!enter(p, t->loc)) return NULL;
  cat_expr *b = expr(p);
  leave(p);
  return b ? mk(p, CAT_X_TRY, t->loc, a, b) : NULL;
}

/* if "variant" then expr else expr: the variant condition is decided here
 * (herd's variants, litmus-check --variant); both branches are read, the
 * one taken is kept. */
static cat_expr *if_expr(parser *p, cat_tok *t) {
  next(p);
  bool ok = true;
  if (!nest(p)) return NULL;
  bool cond = variant_or(p, &ok);
  p->nest--;
  if (!ok) return NULL;
  if (!is_word(peek(p), "then")) {
    expected(p, "'then' (an expression 'if' tests herd's variants: if \"v\" then E else E)");
    return NULL;
  }
  next(p);
  if (!enter(p, t->loc)) return NULL;
  cat_expr *a = expr(p);
  leave(p);
  if (!a) return NULL;
  if (!is_word(peek(p), "else")) {
    expected(p, "'else'");
    return NULL;
  }
  next(p);
  if (!enter(p, t->loc)) return NULL;
  cat_expr *b = expr(p);
  leave(p);
  if (!b) return NULL;
  return cond ? a : b;
}

static bool starts_variant(const cat_tok *t) {
  return t->kind == CAT_T_STRING || t->kind == CAT_T_TILDE || t->kind == CAT_T_LPAREN || is_word(t, "not");
}

/* primary -> NAME | NAME '(' args ')' | '_' | '0' | '{' '}' | '(' expr ')' | '[' expr ']'
 *          | 'try' expr 'with' expr | 'if' variant 'then' expr 'else' expr */
static cat_expr *primary(parser *p) {
  cat_tok *t = peek(p);
  switch (t->kind) {
  case CAT_T_NAME:
    if (is_word(t, "try")) return try_with(p, t);
    if (is_word(t, "if") && starts_variant(peek2(p))) return if_expr(p, t);
    next(p);
    if (peek(p)->kind == CAT_T_LPAREN) return call(p, t);
    cat_expr *e = mk(p, CAT_X_NAME, t->loc, NULL, NULL);
    e->name = t->text;
    return e;
  case CAT_T_ALL: next(p); return mk(p, CAT_X_ALL, t->loc, NULL, NULL);
  case CAT_T_ZERO: next(p); return mk(p, CAT_X_ZERO, t->loc, NULL, NULL);
  case CAT_T_LPAREN: next(p); return bracketed(p, t, CAT_T_RPAREN, ")");
  case CAT_T_LBRACK: {
    next(p);
    cat_expr *in = bracketed(p, t, CAT_T_RBRACK, "]");
    return in ? mk(p, CAT_X_IDSET, t->loc, in, NULL) : NULL;
  }
  case CAT_T_OTHER:
    if (strcmp(t->text, "{") == 0 && peek2(p)->kind == CAT_T_OTHER && strcmp(peek2(p)->text, "}") == 0) {
      next(p);
      next(p);
      return mk(p, CAT_X_ZERO, t->loc, NULL, NULL);   /* herd's empty set {} */
    }
    if (t->text[0] >= '0' && t->text[0] <= '9') {
      p->failed = true;
      lc_error(p->d, t->loc, "invalid token '%s' (the only number is 0, the empty relation)", t->text);
      return NULL;
    }
    /* fall through */
  default:
    expected(p, "an expression");
    return NULL;
  }
}

/* postfix -> primary { '+' | '*' | '?' | '^-1' }   ('*' only when no operand follows) */
static cat_expr *postfix(parser *p) {
  cat_expr *e = primary(p);
  while (e) {
    cat_tok *t = peek(p);
    cat_expr_kind kind;
    if (t->kind == CAT_T_PLUS) kind = CAT_X_PLUS;
    else if (t->kind == CAT_T_QMARK) kind = CAT_X_OPT;
    else if (t->kind == CAT_T_INV) kind = CAT_X_INV;
    else if (t->kind == CAT_T_STAR && !starts_expr(peek2(p)->kind)) kind = CAT_X_STAR;
    else break;
    next(p);
    e = mk(p, kind, t->loc, e, NULL);
  }
  return e;
}

/* unary -> '~' unary | postfix */
static cat_expr *unary(parser *p) {
  if (peek(p)->kind != CAT_T_TILDE) return postfix(p);
  cat_tok *t = next(p);
  if (!enter(p, t->loc)) return NULL;
  cat_expr *a = unary(p);
  leave(p);
  return a ? mk(p, CAT_X_COMPL, t->loc, a, NULL) : NULL;
}

/* One level of left-associative binary operators. */
typedef cat_expr *(*level_fn)(parser *);

static cat_expr *binary(parser *p, level_fn sub, cat_tok_kind op, cat_expr_kind kind) {
  cat_expr *e = sub(p);
  while (e && peek(p)->kind == op) {
    cat_tok *t = next(p);
    cat_expr *r = sub(p);
    e = r ? mk(p, kind, t->loc, e, r) : NULL;
  }
  return e;
}

/* The operands ops[lo..hi) joined by the operators between them
 * (at[i] between ops[i] and ops[i + 1]), halving: depth log2 of the count. */
static cat_expr *balanced(parser *p, cat_expr_kind kind, cat_expr **ops, const lc_loc *at, size_t lo, size_t hi) {
  if (hi - lo == 1) return ops[lo];
  size_t mid = lo + (hi - lo) / 2;
  cat_expr *a = balanced(p, kind, ops, at, lo, mid);
  cat_expr *b = a ? balanced(p, kind, ops, at, mid, hi) : NULL;
  return b ? mk(p, kind, at[mid - 1], a, b) : NULL;
}

/* A level of an associative operator: left-associated as written up to
 * BALANCE_FROM operands (so models print as before), balanced beyond. */
static cat_expr *assoc(parser *p, level_fn sub, cat_tok_kind op, cat_expr_kind kind) {
  cat_expr *first = sub(p);
  if (!first || peek(p)->kind != op) return first;
  LC_VEC(cat_expr *) ops = {0};
  LC_VEC(lc_loc) at = {0};
  lc_vec_push(&ops, first);
  while (peek(p)->kind == op) {
    lc_vec_push(&at, next(p)->loc);
    cat_expr *r = sub(p);
    if (!r) break;
    lc_vec_push(&ops, r);
  }
  cat_expr *e = NULL;
  if (ops.n == at.n + 1 && ops.n <= BALANCE_FROM) {
    e = ops.v[0];
    for (size_t i = 1; i < ops.n && e; i++) e = mk(p, kind, at.v[i - 1], e, ops.v[i]);
  } else if (ops.n == at.n + 1) {
    e = balanced(p, kind, ops.v, at.v, 0, ops.n);
  }
  lc_vec_free(&ops);
  lc_vec_free(&at);
  return e;
}

static cat_expr *product(parser *p) { return binary(p, unary, CAT_T_STAR, CAT_X_PRODUCT); }
static cat_expr *inter(parser *p) { return assoc(p, product, CAT_T_AMP, CAT_X_INTER); }
static cat_expr *diff(parser *p) { return binary(p, inter, CAT_T_BSLASH, CAT_X_DIFF); }
static cat_expr *seq(parser *p) { return assoc(p, diff, CAT_T_SEMI, CAT_X_SEQ); }
static cat_expr *union_expr(parser *p) { return assoc(p, seq, CAT_T_BAR, CAT_X_UNION); }

static bool is_word(const cat_tok *t, const char *w) {
  return t->kind == CAT_T_NAME && strcmp(t->text, w) == 0;
}

static bool binding(parser *p, struct cat_binding *b);

/* expr -> 'let' binding { 'and' binding } 'in' expr | union.  Each
 * binding sees the scope outside the let (herd's non-recursive let). */
static cat_expr *let_in(parser *p);
static cat_expr *expr(parser *p) {
  /* parentheses count their own level (enter); a let's body is a level */
  if (peek(p)->kind != CAT_T_LET) return union_expr(p);
  cat_expr *e = nest(p) ? let_in(p) : NULL;
  p->nest--;
  return e;
}

static cat_expr *let_in(parser *p) {
  cat_expr *e = mk(p, CAT_X_LET, next(p)->loc, NULL, NULL);
  if (peek(p)->kind == CAT_T_REC) {
    expected(p, "a name ('let rec ... in' is not supported; define the group with a top-level let rec)");
    return NULL;
  }
  LC_VEC(cat_binding) bs = {0};
  do {
    cat_binding b = {0};
    if (!binding(p, &b)) goto fail;
    lc_vec_push(&bs, b);
  } while (peek(p)->kind == CAT_T_AND && next(p));
  if (!is_word(peek(p), "in")) {
    expected(p, "'and' or 'in'");
    goto fail;
  }
  next(p);
  e->nbinds = bs.n;
  e->binds = lc_arena_alloc(p->arena, bs.n * sizeof *e->binds);
  memcpy(e->binds, bs.v, bs.n * sizeof *e->binds);
  lc_vec_free(&bs);
  e->a = expr(p);
  if (!e->a) return NULL;
  /* mk() saw no operands: the walks recurse through the body and bindings */
  int h = e->a->height;
  for (size_t i = 0; i < e->nbinds; i++)
    if (e->binds[i].e && e->binds[i].e->height > h) h = e->binds[i].e->height;
  e->height = h + 1;
  if (e->height > MAX_HEIGHT) {
    too_deep(p, e->loc, "operators on one path", MAX_HEIGHT);
    return NULL;
  }
  return e;
fail:
  lc_vec_free(&bs);
  return NULL;
}

/* ---- statements ---------------------------------------------------------- */

static cat_stmt *mk_stmt(parser *p, cat_stmt_kind kind, lc_loc at) {
  cat_stmt *s = lc_arena_alloc(p->arena, sizeof *s);
  s->kind = kind;
  s->loc = at;
  return s;
}

/* binding -> NAME '=' expr */
static bool binding(parser *p, cat_binding *b) {
  cat_tok *name = expect(p, CAT_T_NAME, "a name");
  if (!name) return false;
  b->name = name->text;
  b->loc = name->loc;
  if (!expect(p, CAT_T_EQ, "'='")) return false;
  b->e = expr(p);
  return b->e != NULL;
}

/* let rec binding { 'and' binding } */
static cat_stmt *check(parser *p);
static bool is_check_word(const cat_tok *t) {
  return t->kind == CAT_T_ACYCLIC || t->kind == CAT_T_IRREFLEXIVE || t->kind == CAT_T_EMPTY;
}

static cat_stmt *let_rec(parser *p, lc_loc at) {
  cat_stmt *s = mk_stmt(p, CAT_S_REC, at);
  LC_VEC(cat_binding) bs = {0};
  do {
    cat_binding b = {0};
    if (peek(p)->kind == CAT_T_NAME && peek2(p)->kind == CAT_T_LPAREN) {
      next(p);
      expected(p, "'=' (a let rec defines values, not functions)");
    }
    if (p->failed || !binding(p, &b)) {
      lc_vec_free(&bs);
      return NULL;
    }
    lc_vec_push(&bs, b);
  } while (peek(p)->kind == CAT_T_AND && next(p));
  s->nbinds = bs.n;
  s->binds = lc_arena_alloc(p->arena, bs.n * sizeof *s->binds);
  memcpy(s->binds, bs.v, bs.n * sizeof *s->binds);
  lc_vec_free(&bs);
  if (is_word(peek(p), "when") && is_check_word(peek2(p))) {
    /* herd's `let rec ... when acyclic E as Name`: the iteration fails
     * once the check fails; the iterates grow, so that is the check on
     * the fixed point, read as the statement after the definition */
    next(p);
    cat_stmt *c = check(p);
    if (!c) return NULL;
    s->nbody = 1;
    s->body = lc_arena_alloc(p->arena, sizeof *s->body);
    s->body[0] = c;
  }
  return s;
}

/* params -> NAME { ',' NAME } ; the function body follows '=' */
static cat_stmt *let_fun(parser *p, lc_loc at, cat_tok *name) {
  cat_stmt *s = mk_stmt(p, CAT_S_FUN, at);
  next(p);   /* ( */
  LC_VEC(cat_tok *) ps = {0};
  do {
    cat_tok *t = expect(p, CAT_T_NAME, "a parameter name");
    if (!t) goto fail;
    lc_vec_push(&ps, t);
  } while (peek(p)->kind == CAT_T_COMMA && next(p));
  if (!expect(p, CAT_T_RPAREN, "',' or ')'") || !expect(p, CAT_T_EQ, "'='")) goto fail;
  s->nparams = ps.n;
  s->params = lc_arena_alloc(p->arena, ps.n * sizeof *s->params);
  s->param_locs = lc_arena_alloc(p->arena, ps.n * sizeof *s->param_locs);
  for (size_t i = 0; i < ps.n; i++) {
    s->params[i] = ps.v[i]->text;
    s->param_locs[i] = ps.v[i]->loc;
  }
  lc_vec_free(&ps);
  s->nbinds = 1;
  s->binds = lc_arena_alloc(p->arena, sizeof *s->binds);
  s->binds[0] = (cat_binding){name->text, name->loc, expr(p)};
  return s->binds[0].e ? s : NULL;
fail:
  lc_vec_free(&ps);
  return NULL;
}

/* let -> 'let' 'rec' ... | 'let' NAME '(' params ')' '=' expr | 'let' NAME '=' expr */
static cat_stmt *let(parser *p) {
  lc_loc at = next(p)->loc;
  if (peek(p)->kind == CAT_T_REC) {
    next(p);
    return let_rec(p, at);
  }
  cat_tok *name = expect(p, CAT_T_NAME, "a name or 'rec'");
  if (!name) return NULL;
  if (peek(p)->kind == CAT_T_LPAREN) {
    cat_stmt *f = let_fun(p, at, name);
    if (!f || peek(p)->kind != CAT_T_AND) return f;
    /* herd's `let f(x) = e and g(y) = e'`: the definitions one after the
     * other, held by an `if` whose condition holds */
    LC_VEC(cat_stmt *) fs = {0};
    lc_vec_push(&fs, f);
    while (f && peek(p)->kind == CAT_T_AND) {
      next(p);
      cat_tok *n = expect(p, CAT_T_NAME, "a function's name");
      if (!n || !(n = n, peek(p)->kind == CAT_T_LPAREN)) {
        if (n) expected(p, "'(' (after 'and', another function)");
        f = NULL;
        break;
      }
      f = let_fun(p, at, n);
      if (f) lc_vec_push(&fs, f);
    }
    cat_stmt *s = NULL;
    if (f) {
      s = mk_stmt(p, CAT_S_IF, at);
      s->cond = true;
      s->nbody = fs.n;
      s->body = lc_arena_alloc(p->arena, fs.n * sizeof *s->body);
      memcpy(s->body, fs.v, fs.n * sizeof *s->body);
    }
    lc_vec_free(&fs);
    return s;
  }
  if (!expect(p, CAT_T_EQ, "'=' or '('")) return NULL;
  cat_stmt *s = mk_stmt(p, CAT_S_LET, at);
  LC_VEC(cat_binding) bs = {0};
  cat_binding first = {name->text, name->loc, expr(p)};
  lc_vec_push(&bs, first);
  /* herd's `let a = e and b = f`: both see the scope above the let */
  while (bs.v[bs.n - 1].e && peek(p)->kind == CAT_T_AND) {
    next(p);
    cat_binding b = {0};
    if (!binding(p, &b)) break;
    lc_vec_push(&bs, b);
  }
  bool ok = !p->failed && bs.v[bs.n - 1].e;
  s->nbinds = bs.n;
  s->binds = lc_arena_alloc(p->arena, bs.n * sizeof *s->binds);
  memcpy(s->binds, bs.v, bs.n * sizeof *s->binds);
  lc_vec_free(&bs);
  return ok ? s : NULL;
}

/* check -> ('acyclic'|'irreflexive'|'empty') expr 'as' NAME | 'flag' '~' 'empty' expr 'as' NAME */
static cat_stmt *check(parser *p) {
  cat_tok *t = next(p);
  cat_stmt *s = mk_stmt(p, CAT_S_CHECK, t->loc);
  if (t->kind == CAT_T_FLAG) {
    s->flag = true;
    if (!expect(p, CAT_T_TILDE, "'~' (flags are written 'flag ~empty E as name')") ||
        !expect(p, CAT_T_EMPTY, "'empty' (flags are written 'flag ~empty E as name')"))
      return NULL;
    s->check = CAT_CHECK_EMPTY;
  } else {
    s->check = t->kind == CAT_T_ACYCLIC ? CAT_CHECK_ACYCLIC
             : t->kind == CAT_T_IRREFLEXIVE ? CAT_CHECK_IRREFLEXIVE : CAT_CHECK_EMPTY;
  }
  if (!(s->e = expr(p))) return NULL;
  if (peek(p)->kind != CAT_T_AS) return s;   /* herd: unnamed (cat_load names it) */
  next(p);
  cat_tok *name = expect(p, CAT_T_NAME, "the check's name");
  if (!name) return NULL;
  s->name = name->text;
  s->name_loc = name->loc;
  return s;
}

static bool is_option_word(const cat_tok *t) {
  return t->kind == CAT_T_NAME && strcmp(t->text, "option") == 0;
}

/* option -> 'option' NAME NAME {NAME}: the option and its values, the
 * first the default.  `option` is not reserved: it starts a statement
 * only where no other can start. */
static cat_stmt *option(parser *p) {
  cat_stmt *s = mk_stmt(p, CAT_S_OPTION, next(p)->loc);
  cat_tok *name = expect(p, CAT_T_NAME, "the option's name");
  if (!name) return NULL;
  s->name = name->text;
  s->name_loc = name->loc;
  LC_VEC(const char *) vals = {0};
  LC_VEC(lc_loc) locs = {0};
  while (peek(p)->kind == CAT_T_NAME && !is_option_word(peek(p))) {
    cat_tok *v = next(p);
    lc_vec_push(&vals, v->text);
    lc_vec_push(&locs, v->loc);
  }
  if (vals.n == 0) expected(p, "the option's values (the first is the default)");
  s->nparams = vals.n;
  s->params = lc_arena_alloc(p->arena, (vals.n ? vals.n : 1) * sizeof *s->params);
  s->param_locs = lc_arena_alloc(p->arena, (vals.n ? vals.n : 1) * sizeof *s->param_locs);
  if (vals.n) {
    memcpy(s->params, vals.v, vals.n * sizeof *s->params);
    memcpy(s->param_locs, locs.v, vals.n * sizeof *s->param_locs);
  }
  lc_vec_free(&vals);
  lc_vec_free(&locs);
  return s->nparams ? s : NULL;
}

/* ---- herd's statements ------------------------------------------------------ */

/* Words that start a statement of herd's cat.  They are not reserved:
 * a name in that place starts nothing else. */
static bool starts_herd_stmt(const cat_tok *t) {
  static const char *const words[] = {
    "show", "unshow", "procedure", "call", "with", "if", "undefined_unless", "requires",
    "assert", "enum", "instructions", "default", "forall", "debug", "end", "else", "option",
    "coherence", "catdep"};
  for (size_t i = 0; i < LC_ARRAY_LEN(words); i++)
    if (is_word(t, words[i])) return true;
  return false;
}

/* After which tokens a `let` is a nested `let ... in` rather than the
 * next statement: wherever an operand is expected. */
static bool operand_expected_after(const cat_tok *t) {
  switch (t->kind) {
  case CAT_T_EQ: case CAT_T_LPAREN: case CAT_T_LBRACK: case CAT_T_COMMA: case CAT_T_BAR:
  case CAT_T_SEMI: case CAT_T_BSLASH: case CAT_T_AMP: case CAT_T_TILDE:   /* not `*`: a closure */
  case CAT_T_AND:
    return true;
  case CAT_T_OTHER: return strcmp(t->text, "->") == 0 || strcmp(t->text, "++") == 0 ||
                           strcmp(t->text, "{") == 0;
  case CAT_T_NAME:
    return is_word(t, "in") || is_word(t, "then") || is_word(t, "else") || is_word(t, "with");
  default: return false;
  }
}

static bool is_kw_word(const cat_tok *t) {
  return is_word(t, "in") || is_word(t, "then") || is_word(t, "else") || is_word(t, "with") ||
         is_word(t, "end");
}
static bool ends_operand(const cat_tok *t) {
  return (t->kind == CAT_T_NAME && !is_kw_word(t) && !is_word(t, "match") && !is_word(t, "fun") &&
          !is_word(t, "try") && !is_word(t, "begin") && !is_word(t, "if") && !is_word(t, "not")) ||
         t->kind == CAT_T_RPAREN || t->kind == CAT_T_RBRACK || t->kind == CAT_T_ALL || t->kind == CAT_T_ZERO;
}
static bool starts_operand(const cat_tok *t) {
  return (t->kind == CAT_T_NAME && !is_kw_word(t)) || t->kind == CAT_T_ALL || t->kind == CAT_T_ZERO ||
         t->kind == CAT_T_LBRACK;
}

/* The extent of the `let` statement at p->pos, by brackets and keywords
 * (herd's grammar has no terminator), and the first construct of herd's
 * functional sublanguage inside it (match, fun, sets of sets, curried or
 * recursive functions, tuples), or NULL when the parser reads it all. */
static const cat_tok *let_extent(parser *p, size_t *end) {
  size_t i = p->pos + 1;
  const cat_tok *toks = p->toks, *odd = NULL;
  bool rec = toks[i].kind == CAT_T_REC;
  if (rec) i++;
  if (toks[i].kind == CAT_T_LPAREN) {
    odd = &toks[i];   /* a tuple pattern: let (a, b) = ... */
  } else if (!rec && toks[i].kind == CAT_T_NAME && toks[i + 1].kind == CAT_T_NAME) {
    size_t j = i + 1;   /* a curried function: let f x y = ... */
    while (toks[j].kind == CAT_T_NAME) j++;
    if (toks[j].kind == CAT_T_EQ) odd = &toks[i + 1];
  }
  int depth = 0, pending = 0;   /* brackets and let/match/begin; try..with and then..else */
  int vif = 0;                  /* variant ifs waiting for their `then` */
  bool body = false;            /* past the head's '=' */
  for (; toks[i].kind != CAT_T_EOF; i++) {
    const cat_tok *t = &toks[i];
    if (depth == 0 && i > p->pos + 1) {
      if (t->kind == CAT_T_LET && !operand_expected_after(&toks[i - 1])) break;
      if (t->kind == CAT_T_INCLUDE || t->kind == CAT_T_ACYCLIC || t->kind == CAT_T_IRREFLEXIVE ||
          t->kind == CAT_T_EMPTY || t->kind == CAT_T_FLAG)
        break;
      if (is_word(t, "in")) { i++; break; }   /* herd's optional `in` after a top-level let */
      if (starts_herd_stmt(t) && !(pending > 0 && (is_word(t, "with") || is_word(t, "else"))) &&
          !(is_word(t, "if") && operand_expected_after(&toks[i - 1])))
        break;
    }
    if (depth == 0 && rec && is_word(t, "when") && is_check_word(&toks[i + 1])) {
      /* let rec ... when CHECK: the check ends the definition */
      size_t j = i + 2;
      int d = 0;
      for (; toks[j].kind != CAT_T_EOF; j++) {
        if (toks[j].kind == CAT_T_LPAREN || toks[j].kind == CAT_T_LBRACK) d++;
        else if ((toks[j].kind == CAT_T_RPAREN || toks[j].kind == CAT_T_RBRACK) && d > 0) d--;
        else if (d == 0 && toks[j].kind == CAT_T_AS) {
          if (toks[j + 1].kind == CAT_T_NAME) j++;
          j++;
          break;
        } else if (d == 0 && (toks[j].kind == CAT_T_LET || toks[j].kind == CAT_T_INCLUDE ||
                              starts_herd_stmt(&toks[j]) || is_check_word(&toks[j])))
          break;
      }
      i = j;
      break;
    }
    const char *x = t->text;
    if (t->kind == CAT_T_EQ) body = true;
    if (t->kind == CAT_T_OTHER && strcmp(x, "{") == 0 && toks[i + 1].kind == CAT_T_OTHER &&
        strcmp(toks[i + 1].text, "}") == 0) {
      i++;         /* {}: the empty set, read (primary) */
    } else if (t->kind == CAT_T_LPAREN || t->kind == CAT_T_LBRACK || (t->kind == CAT_T_OTHER && strcmp(x, "{") == 0)) {
      depth++;
      if (!odd && t->kind == CAT_T_OTHER) odd = t;   /* { e }: a set of sets */
    } else if (t->kind == CAT_T_RPAREN || t->kind == CAT_T_RBRACK || (t->kind == CAT_T_OTHER && strcmp(x, "}") == 0)) {
      if (depth > 0) depth--;
    } else if (t->kind == CAT_T_LET && i > p->pos + 1) {
      depth++;
      size_t j = i + 1;   /* herd's nested forms we do not read: let rec, functions, tuples */
      if (!odd && (toks[j].kind == CAT_T_REC || toks[j].kind == CAT_T_LPAREN ||
                   (toks[j].kind == CAT_T_NAME && (toks[j + 1].kind == CAT_T_NAME || toks[j + 1].kind == CAT_T_LPAREN))))
        odd = &toks[j];
    } else if (is_word(t, "in")) {
      if (depth > 0) depth--;
    } else if (is_word(t, "match") || is_word(t, "begin")) {
      depth++;
      if (!odd) odd = t;
    } else if (is_word(t, "end")) {
      if (depth > 0) depth--;
    } else if (is_word(t, "try")) {
      pending++;   /* try E with E: read (primary) */
    } else if (is_word(t, "if") && starts_variant(&toks[i + 1])) {
      vif++;       /* if "variant" then E else E: read (primary) */
    } else if (is_word(t, "then")) {
      pending++;
      if (vif > 0) vif--;
      else if (!odd) odd = t;
    } else if ((is_word(t, "with") || is_word(t, "else")) && pending > 0) {
      pending--;
    } else if (!odd && ((t->kind == CAT_T_OTHER && !(x[0] >= '0' && x[0] <= '9')) || is_word(t, "fun"))) {
      odd = t;
    } else if (!odd && body && ends_operand(&toks[i - 1]) && starts_operand(t)) {
      odd = t;   /* application by juxtaposition: `f x` */
    }
  }
  *end = i;
  return odd;
}

/* A definition the parser does not read (a function of herd's standard
 * library such as generate_cos in cross.cat): its names are remembered
 * so that a use of one is an error naming the construct. */
static cat_stmt *opaque(parser *p, const cat_tok *odd, size_t end) {
  cat_stmt *s = mk_stmt(p, CAT_S_OPAQUE, peek(p)->loc);
  s->name = odd->kind == CAT_T_EOF ? "end of file" : odd->text;
  if (odd > p->toks && ends_operand(odd - 1) && starts_operand(odd)) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s %s", odd[-1].text, odd->text);
    s->name = lc_arena_strdup(p->arena, b.s);
    lc_buf_fini(&b);
  }
  s->name_loc = odd->loc;
  LC_VEC(const char *) names = {0};
  LC_VEC(lc_loc) locs = {0};
  size_t i = p->pos + 1;
  if (p->toks[i].kind == CAT_T_REC) i++;
  int depth = 0;
  for (bool want = true; i < end; i++) {
    const cat_tok *t = &p->toks[i];
    if (want && t->kind == CAT_T_NAME && depth == 0) {
      lc_vec_push(&names, t->text);
      lc_vec_push(&locs, t->loc);
    }
    want = depth == 0 && t->kind == CAT_T_AND;
    if (t->kind == CAT_T_LPAREN || t->kind == CAT_T_LET || is_word(t, "match")) depth++;
    else if ((t->kind == CAT_T_RPAREN || is_word(t, "in") || is_word(t, "end")) && depth > 0) depth--;
  }
  s->nparams = names.n;
  s->params = lc_arena_alloc(p->arena, (names.n ? names.n : 1) * sizeof *s->params);
  s->param_locs = lc_arena_alloc(p->arena, (names.n ? names.n : 1) * sizeof *s->param_locs);
  if (names.n) {
    memcpy(s->params, names.v, names.n * sizeof *s->params);
    memcpy(s->param_locs, locs.v, names.n * sizeof *s->param_locs);
  }
  lc_vec_free(&names);
  lc_vec_free(&locs);
  p->pos = end;
  return s;
}

static cat_stmt *statement(parser *p);

/* Statements up to (not including) the word `end` or `else`. */
static bool statements_until_end(parser *p, cat_stmt ***out, size_t *n, const char *what) {
  LC_VEC(cat_stmt *) v = {0};
  while (!is_word(peek(p), "end") && !is_word(peek(p), "else")) {
    if (peek(p)->kind == CAT_T_EOF) {
      expected(p, what);
      break;
    }
    cat_stmt *s = statement(p);
    if (!s) break;
    lc_vec_push(&v, s);
  }
  *n = v.n;
  *out = lc_arena_alloc(p->arena, (v.n ? v.n : 1) * sizeof **out);
  if (v.n) memcpy(*out, v.v, v.n * sizeof **out);
  lc_vec_free(&v);
  return !p->failed;
}

/* show e {, e} | show e as NAME | unshow NAME {, NAME}: herd draws these;
 * here they are read and ignored. */
static cat_stmt *show(parser *p) {
  cat_stmt *s = mk_stmt(p, CAT_S_SHOW, next(p)->loc);
  do {
    if (!expr(p)) return NULL;
  } while (peek(p)->kind == CAT_T_COMMA && next(p));
  if (peek(p)->kind == CAT_T_AS) {
    next(p);
    if (!expect(p, CAT_T_NAME, "a name")) return NULL;
  }
  return s;
}

/* procedure NAME '(' [NAME {, NAME}] ')' '=' statements 'end' */
static cat_stmt *procedure(parser *p) {
  cat_stmt *s = mk_stmt(p, CAT_S_PROC, next(p)->loc);
  if (peek(p)->kind == CAT_T_REC) {
    expected(p, "the procedure's name (recursive procedures are not supported)");
    return NULL;
  }
  cat_tok *name = expect(p, CAT_T_NAME, "the procedure's name");
  if (!name || !expect(p, CAT_T_LPAREN, "'(' and the parameters")) return NULL;
  s->name = name->text;
  s->name_loc = name->loc;
  LC_VEC(cat_tok *) ps = {0};
  if (peek(p)->kind != CAT_T_RPAREN) {
    do {
      cat_tok *t = expect(p, CAT_T_NAME, "a parameter name");
      if (!t) break;
      lc_vec_push(&ps, t);
    } while (peek(p)->kind == CAT_T_COMMA && next(p));
  }
  if (!p->failed && expect(p, CAT_T_RPAREN, "',' or ')'")) expect(p, CAT_T_EQ, "'='");
  s->nparams = ps.n;
  s->params = lc_arena_alloc(p->arena, (ps.n ? ps.n : 1) * sizeof *s->params);
  s->param_locs = lc_arena_alloc(p->arena, (ps.n ? ps.n : 1) * sizeof *s->param_locs);
  for (size_t i = 0; i < ps.n; i++) {
    s->params[i] = ps.v[i]->text;
    s->param_locs[i] = ps.v[i]->loc;
  }
  lc_vec_free(&ps);
  if (p->failed || !statements_until_end(p, &s->body, &s->nbody, "'end' (closing the procedure)"))
    return NULL;
  if (!is_word(peek(p), "end")) {
    expected(p, "'end' (closing the procedure)");
    return NULL;
  }
  next(p);
  return s;
}

/* call NAME '(' args ')' [as NAME] */
static cat_stmt *call_stmt(parser *p) {
  cat_stmt *s = mk_stmt(p, CAT_S_CALL, next(p)->loc);
  cat_tok *name = expect(p, CAT_T_NAME, "the procedure's name");
  if (!name) return NULL;
  if (peek(p)->kind != CAT_T_LPAREN) {
    expected(p, "'(' and the arguments");
    return NULL;
  }
  cat_expr *c = call(p, name);
  if (!c) return NULL;
  s->name = name->text;
  s->name_loc = name->loc;
  s->args = c->args;
  s->nargs = c->nargs;
  if (peek(p)->kind == CAT_T_AS) {
    next(p);
    cat_tok *as = expect(p, CAT_T_NAME, "a name");
    if (!as) return NULL;
    s->as = as->text;
  }
  return s;
}

/* A variant condition: herd's variants are options of its command line;
 * none is set here, so "v" is false, and `~`, `not`, `&`, `&&`, `|`,
 * `||` and parentheses combine as usual. */
static bool variant_or(parser *p, bool *ok);
static bool variant_atom(parser *p, bool *ok) {
  cat_tok *t = peek(p);
  if (t->kind == CAT_T_STRING) { next(p); return variant_set(p, t->text); }
  if (!nest(p)) {
    p->nest--;
    *ok = false;
    return false;
  }
  p->nest--;
  if (t->kind == CAT_T_TILDE || is_word(t, "not")) {
    next(p);
    p->nest++;
    bool v = !variant_atom(p, ok);
    p->nest--;
    return v;
  }
  if (t->kind == CAT_T_LPAREN) {
    next(p);
    p->nest++;
    bool v = variant_or(p, ok);
    p->nest--;
    if (!expect(p, CAT_T_RPAREN, "')'")) *ok = false;
    return v;
  }
  expected(p, "a variant name in double quotes");
  *ok = false;
  return false;
}
static bool variant_and(parser *p, bool *ok) {
  bool v = variant_atom(p, ok);
  while (*ok && peek(p)->kind == CAT_T_AMP) {
    next(p);
    if (peek(p)->kind == CAT_T_AMP) next(p);
    bool r = variant_atom(p, ok);
    v = v && r;
  }
  return v;
}
static bool variant_or(parser *p, bool *ok) {
  bool v = variant_and(p, ok);
  while (*ok && peek(p)->kind == CAT_T_BAR) {
    next(p);
    if (peek(p)->kind == CAT_T_BAR) next(p);
    bool r = variant_and(p, ok);
    v = v || r;
  }
  return v;
}

/* if VARIANT statements [else statements] end: only the branch taken is
 * kept (both are parsed). */
static cat_stmt *if_stmt(parser *p) {
  cat_stmt *s = mk_stmt(p, CAT_S_IF, next(p)->loc);
  bool ok = true;
  s->cond = variant_or(p, &ok);
  if (!ok) return NULL;
  cat_stmt **then_b, **else_b = NULL;
  size_t nthen, nelse = 0;
  if (!statements_until_end(p, &then_b, &nthen, "'else' or 'end' (closing the if)")) return NULL;
  if (is_word(peek(p), "else")) {
    next(p);
    if (!statements_until_end(p, &else_b, &nelse, "'end' (closing the if)")) return NULL;
  }
  if (!is_word(peek(p), "end")) {
    expected(p, "'end' (closing the if)");
    return NULL;
  }
  next(p);
  s->body = s->cond ? then_b : else_b;
  s->nbody = s->cond ? nthen : nelse;
  return s;
}

/* with NAME from expr */
static cat_stmt *with_stmt(parser *p) {
  cat_stmt *s = mk_stmt(p, CAT_S_WITH, next(p)->loc);
  cat_tok *name = expect(p, CAT_T_NAME, "a name");
  if (!name) return NULL;
  s->name = name->text;
  s->name_loc = name->loc;
  if (!is_word(peek(p), "from")) {
    expected(p, "'from'");
    return NULL;
  }
  next(p);
  /* herd's functional language after `from` (aarch64.cat: `with
   * TLBI-after from (all-TLBI-Imp_TTD_R-enums local-hw-reqs)`, an
   * application by juxtaposition): the name is opaque, an error where a
   * check needs it */
  if (peek(p)->kind == CAT_T_LPAREN) {
    int depth = 0;
    for (size_t i = p->pos; p->toks[i].kind != CAT_T_EOF; i++) {
      const cat_tok *t = &p->toks[i];
      if (t->kind == CAT_T_LPAREN) depth++;
      else if (t->kind == CAT_T_RPAREN && --depth == 0) break;
      else if (i > p->pos && ends_operand(t - 1) && starts_operand(t)) {
        while (p->toks[i].kind != CAT_T_EOF && depth > 0) {
          if (p->toks[i].kind == CAT_T_LPAREN) depth++;
          else if (p->toks[i].kind == CAT_T_RPAREN) depth--;
          i++;
        }
        if (depth > 0) break;   /* never closed: the expression's syntax error */
        s->kind = CAT_S_OPAQUE;
        s->nparams = 1;
        s->params = lc_arena_alloc(p->arena, sizeof *s->params);
        s->param_locs = lc_arena_alloc(p->arena, sizeof *s->param_locs);
        s->params[0] = name->text;
        s->param_locs[0] = name->loc;
        lc_buf b;
        lc_buf_init(&b);
        lc_buf_printf(&b, "%s %s", t[-1].text, t->text);
        s->name = lc_arena_strdup(p->arena, b.s);
        lc_buf_fini(&b);
        s->name_loc = t->loc;
        p->pos = i;
        return s;
      }
    }
  }
  return (s->e = expr(p)) ? s : NULL;
}

/* undefined_unless (or requires) empty E [as NAME]: herd marks an
 * execution that fails it as undefined; here it is a flag raised when E
 * is not empty. */
static cat_stmt *undefined_unless(parser *p) {
  cat_tok *kw = next(p);
  cat_stmt *s = mk_stmt(p, CAT_S_CHECK, kw->loc);
  s->flag = s->undef = true;
  s->check = CAT_CHECK_EMPTY;
  if (peek(p)->kind != CAT_T_EMPTY) {
    expected(p, "'empty' (only 'undefined_unless empty E' is supported)");
    return NULL;
  }
  next(p);
  if (!(s->e = expr(p))) return NULL;
  if (peek(p)->kind == CAT_T_AS) {
    next(p);
    cat_tok *name = expect(p, CAT_T_NAME, "the check's name");
    if (!name) return NULL;
    s->name = name->text;
    s->name_loc = name->loc;
  }
  return s;
}

/* coherence total | coherence partial: what the model assumes of the
 * engine's co (docs/model-language.md, "Coherence"). */
static cat_stmt *coherence(parser *p) {
  cat_stmt *s = mk_stmt(p, CAT_S_COHERENCE, next(p)->loc);
  cat_tok *w = peek(p);
  if (!is_word(w, "total") && !is_word(w, "partial")) {
    expected(p, "'total' or 'partial' after 'coherence'");
    return NULL;
  }
  next(p);
  s->name = w->text;
  s->name_loc = w->loc;
  return s;
}

/* assert acyclic|irreflexive|empty E [as NAME]: herd stops on an execution
 * that fails it; here it is a flag raised when the check fails. */
static cat_stmt *check(parser *p);
static cat_stmt *assert_stmt(parser *p) {
  cat_tok *kw = next(p);
  cat_tok_kind k = peek(p)->kind;
  if (k != CAT_T_ACYCLIC && k != CAT_T_IRREFLEXIVE && k != CAT_T_EMPTY) {
    expected(p, "'acyclic', 'irreflexive' or 'empty' after 'assert'");
    return NULL;
  }
  cat_stmt *s = check(p);
  if (!s) return NULL;
  s->asserted = true;
  s->loc = kw->loc;
  return s;
}

static cat_stmt *herd_statement(parser *p) {
  cat_tok *t = peek(p);
  if (is_word(t, "assert")) return assert_stmt(p);
  if (is_word(t, "catdep")) {   /* herd: dependencies come from the model; here a builtin */
    return mk_stmt(p, CAT_S_SHOW, next(p)->loc);
  }
  if (is_word(t, "show") || is_word(t, "unshow")) return show(p);
  if (is_word(t, "procedure")) return procedure(p);
  if (is_word(t, "call")) return call_stmt(p);
  if (is_word(t, "if")) return if_stmt(p);
  if (is_word(t, "with")) return with_stmt(p);
  if (is_word(t, "coherence")) return coherence(p);
  if (is_word(t, "undefined_unless") || is_word(t, "requires")) return undefined_unless(p);
  if (starts_herd_stmt(t) && !is_word(t, "end") && !is_word(t, "else")) {
    p->failed = true;
    lc_error(p->d, t->loc, "herd's '%s' statement is not supported (docs/model-language.md lists herd's constructs that are)",
             t->text);
    return NULL;
  }
  expected(p, "a statement (let, include, acyclic, irreflexive, empty, flag, option, coherence, show, procedure, call, if, with or undefined_unless)");
  return NULL;
}

static cat_stmt *statement_in(parser *p);
static cat_stmt *statement(parser *p) {
  cat_stmt *s = nest(p) ? statement_in(p) : NULL;
  p->nest--;
  return s;
}

static cat_stmt *statement_in(parser *p) {
  if (is_option_word(peek(p))) return option(p);
  switch (peek(p)->kind) {
  case CAT_T_LET: {
    size_t end;
    const cat_tok *odd = let_extent(p, &end);
    if (odd) return opaque(p, odd, end);
    cat_stmt *s = let(p);
    if (s && is_word(peek(p), "in")) next(p);   /* herd's optional `in` */
    return s;
  }
  case CAT_T_INCLUDE: {
    cat_stmt *s = mk_stmt(p, CAT_S_INCLUDE, next(p)->loc);
    cat_tok *path = expect(p, CAT_T_STRING, "a file name in double quotes");
    if (!path) return NULL;
    s->path = path->text;
    s->name_loc = path->loc;
    return s;
  }
  case CAT_T_ACYCLIC:
  case CAT_T_IRREFLEXIVE:
  case CAT_T_EMPTY:
  case CAT_T_FLAG: return check(p);
  case CAT_T_TILDE: {
    /* herd's negated check: `~acyclic E` holds when E has a cycle */
    cat_tok *tilde = next(p);
    cat_tok_kind k = peek(p)->kind;
    if (k != CAT_T_ACYCLIC && k != CAT_T_IRREFLEXIVE && k != CAT_T_EMPTY) {
      expected(p, "'acyclic', 'irreflexive' or 'empty' after '~' (a negated check)");
      return NULL;
    }
    cat_stmt *s = check(p);
    if (!s) return NULL;
    s->negated = true;
    s->loc = tilde->loc;
    return s;
  }
  default: return herd_statement(p);
  }
}

/* model -> [ STRING | NAME | NAME NAME | NAME STRING ] { statement }
 * (herd's header: the architecture, then the model's name) */
cat_file *cat_parse(lc_arena *a, const char *file, const char *text, size_t len, lc_diag *d) {
  return cat_parse_variants(a, file, text, len, NULL, d);
}

cat_file *cat_parse_variants(lc_arena *a, const char *file, const char *text, size_t len,
                             const char *const *variants, lc_diag *d) {
  cat_tok *toks;
  if (cat_lex(a, file, text, len, &toks, d) == 0) return NULL;
  parser p = {a, toks, 0, d, false, 0, 0, variants};
  cat_file *f = lc_arena_alloc(a, sizeof *f);
  if (peek(&p)->kind == CAT_T_STRING) {
    f->model_name = f->header_word = next(&p)->text;
  } else if (peek(&p)->kind == CAT_T_NAME && !is_option_word(peek(&p)) && !starts_herd_stmt(peek(&p))) {
    f->model_name = f->header_word = next(&p)->text;
    if ((peek(&p)->kind == CAT_T_NAME && !is_option_word(peek(&p)) && !starts_herd_stmt(peek(&p))) ||
        peek(&p)->kind == CAT_T_STRING)
      f->model_name = next(&p)->text;
  }
  LC_VEC(cat_stmt *) stmts = {0};
  while (peek(&p)->kind != CAT_T_EOF) {
    cat_stmt *s = is_word(peek(&p), "end") || is_word(peek(&p), "else") ? NULL : statement(&p);
    if (!s) {
      if (!p.failed) expected(&p, "a statement ('end' or 'else' without 'if' or 'procedure')");
      lc_vec_free(&stmts);
      return NULL;
    }
    lc_vec_push(&stmts, s);
  }
  f->nstmts = stmts.n;
  f->stmts = lc_arena_alloc(a, (stmts.n ? stmts.n : 1) * sizeof *f->stmts);
  if (stmts.n) memcpy(f->stmts, stmts.v, stmts.n * sizeof *f->stmts);
  lc_vec_free(&stmts);
  return f;
}

/* ---- printing ------------------------------------------------------------ */

static const char *binop_text(cat_expr_kind k) {
  switch (k) {
  case CAT_X_UNION: return " | ";
  case CAT_X_SEQ: return " ; ";
  case CAT_X_DIFF: return " \\ ";
  case CAT_X_INTER: return " & ";
  default: return " * ";
  }
}

static const char *postfix_text(cat_expr_kind k) {
  switch (k) {
  case CAT_X_PLUS: return "+";
  case CAT_X_STAR: return "*";
  case CAT_X_OPT: return "?";
  default: return "^-1";
  }
}

static bool is_binary(cat_expr_kind k) { return k >= CAT_X_UNION && k <= CAT_X_PRODUCT; }

static bool is_atomic(cat_expr_kind k) {
  return k == CAT_X_NAME || k == CAT_X_ALL || k == CAT_X_ZERO || k == CAT_X_IDSET || k == CAT_X_CALL;
}

/* The operand of `~` is parenthesised unless atomic, the operand of a
 * postfix operator when it is a `~`, so the printed form shows the tree:
 * `~(a+)`, `(~a)+`.  Binary operations print their own parentheses. */
static void print_operand(lc_buf *b, const cat_expr *e, bool after_tilde) {
  bool paren = after_tilde ? !is_atomic(e->kind) && !is_binary(e->kind) : e->kind == CAT_X_COMPL;
  if (paren) lc_buf_putc(b, '(');
  cat_expr_print(b, e);
  if (paren) lc_buf_putc(b, ')');
}

void cat_expr_print(lc_buf *b, const cat_expr *e) {
  switch (e->kind) {
  case CAT_X_NAME: lc_buf_puts(b, e->name); break;
  case CAT_X_ALL: lc_buf_putc(b, '_'); break;
  case CAT_X_ZERO: lc_buf_putc(b, '0'); break;
  case CAT_X_COMPL: lc_buf_putc(b, '~'); print_operand(b, e->a, true); break;
  case CAT_X_PLUS: case CAT_X_STAR: case CAT_X_OPT: case CAT_X_INV:
    print_operand(b, e->a, false);
    lc_buf_puts(b, postfix_text(e->kind));
    break;
  case CAT_X_IDSET: lc_buf_putc(b, '['); cat_expr_print(b, e->a); lc_buf_putc(b, ']'); break;
  case CAT_X_CALL:
    lc_buf_printf(b, "%s(", e->name);
    for (size_t i = 0; i < e->nargs; i++) {
      if (i) lc_buf_puts(b, ", ");
      cat_expr_print(b, e->args[i]);
    }
    lc_buf_putc(b, ')');
    break;
  case CAT_X_TRY:
    lc_buf_puts(b, "(try ");
    cat_expr_print(b, e->a);
    lc_buf_puts(b, " with ");
    cat_expr_print(b, e->b);
    lc_buf_putc(b, ')');
    break;
  case CAT_X_LET:
    lc_buf_puts(b, "(let ");
    for (size_t i = 0; i < e->nbinds; i++) {
      lc_buf_printf(b, "%s%s = ", i ? " and " : "", e->binds[i].name);
      cat_expr_print(b, e->binds[i].e);
    }
    lc_buf_puts(b, " in ");
    cat_expr_print(b, e->a);
    lc_buf_putc(b, ')');
    break;
  default:
    if (is_binary(e->kind)) {
      lc_buf_putc(b, '(');
      cat_expr_print(b, e->a);
      lc_buf_puts(b, binop_text(e->kind));
      cat_expr_print(b, e->b);
      lc_buf_putc(b, ')');
    }
    break;
  }
}
