/* cat_parse.c - recursive-descent parser of the model language.
 * SPDX-License-Identifier: MIT
 *
 * Binding follows herd's modelParser, loosest first: `|`, `;`, `\`, `&`,
 * the product `*`, prefix `~`, then the postfix operators.  Binary
 * operators associate to the left.  A `*` is the product when the token
 * after it can start an expression, and the postfix closure otherwise
 * (`po* ; rf` is a closure, `M * M` and `M*M` products).  The parser stops
 * at the first error.
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
} parser;

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

/* primary -> NAME | NAME '(' args ')' | '_' | '0' | '(' expr ')' | '[' expr ']' */
static cat_expr *primary(parser *p) {
  cat_tok *t = peek(p);
  switch (t->kind) {
  case CAT_T_NAME:
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
static cat_expr *expr(parser *p) { return assoc(p, seq, CAT_T_BAR, CAT_X_UNION); }

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
  if (peek(p)->kind == CAT_T_LPAREN) return let_fun(p, at, name);
  if (!expect(p, CAT_T_EQ, "'=' or '('")) return NULL;
  cat_stmt *s = mk_stmt(p, CAT_S_LET, at);
  s->nbinds = 1;
  s->binds = lc_arena_alloc(p->arena, sizeof *s->binds);
  s->binds[0] = (cat_binding){name->text, name->loc, expr(p)};
  return s->binds[0].e ? s : NULL;
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
  if (!expect(p, CAT_T_AS, "'as' and the check's name")) return NULL;
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

static cat_stmt *statement(parser *p) {
  if (is_option_word(peek(p))) return option(p);
  switch (peek(p)->kind) {
  case CAT_T_LET: return let(p);
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
  default:
    expected(p, "a statement (let, include, acyclic, irreflexive, empty, flag or option)");
    return NULL;
  }
}

/* model -> [ STRING | NAME ] { statement } */
cat_file *cat_parse(lc_arena *a, const char *file, const char *text, size_t len, lc_diag *d) {
  cat_tok *toks;
  if (cat_lex(a, file, text, len, &toks, d) == 0) return NULL;
  parser p = {a, toks, 0, d, false, 0};
  cat_file *f = lc_arena_alloc(a, sizeof *f);
  if (peek(&p)->kind == CAT_T_STRING || peek(&p)->kind == CAT_T_NAME) f->model_name = next(&p)->text;
  LC_VEC(cat_stmt *) stmts = {0};
  while (peek(&p)->kind != CAT_T_EOF) {
    cat_stmt *s = statement(&p);
    if (!s) {
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
