/* test_cat_parse.c - the model language: syntax, precedence, positions,
 * include resolution, and the exact text of every kind of load error.
 * SPDX-License-Identifier: MIT
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cat/cat_ast.h"
#include "cat/cat.h"

/* ---- helpers ------------------------------------------------------------------- */

/* Parses `let x = <text>` and returns the printed expression (caller frees). */
static char *print_expr(const char *text) {
  lc_arena *a = lc_arena_new();
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lc_buf src;
  lc_buf_init(&src);
  lc_buf_printf(&src, "let x = %s", text);
  cat_file *f = cat_parse(a, "t.cat", src.s, src.n, &d);
  if (!f) fail_msg("parse failed: %s", lc_diag_first_error(&d));
  assert_int_equal(f->nstmts, 1);
  lc_buf out;
  lc_buf_init(&out);
  cat_expr_print(&out, f->stmts[0]->binds[0].e);
  lc_buf_fini(&src);
  lc_diag_fini(&d);
  lc_arena_free(a);
  char *s = lc_buf_take(&out);
  lc_buf_fini(&out);
  return s;
}

static void expect_print(const char *text, const char *want) {
  char *got = print_expr(text);
  if (strcmp(got, want) != 0) fail_msg("`%s` printed as `%s`, want `%s`", text, got, want);
  free(got);
}

/* Loads a model from a string; returns the first error text or NULL. */
static char *load_error(const char *text) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("t.cat", text, NULL, &d);
  char *e = lc_diag_first_error(&d) ? lc_xstrdup(lc_diag_first_error(&d)) : NULL;
  assert_true((m == NULL) == (e != NULL));
  cat_model_free(m);
  lc_diag_fini(&d);
  return e;
}

/* ---- precedence and forms ------------------------------------------------------- */

static void test_cat_parse_precedence(void **state) {
  (void)state;
  static const char *const cases[][2] = {
    {"a | b ; c & d", "(a | (b ; (c & d)))"},
    {"a ; b | c", "((a ; b) | c)"},
    {"a \\ b & c", "(a \\ (b & c))"},
    {"a & b \\ c", "((a & b) \\ c)"},
    {"a ; b \\ c", "(a ; (b \\ c))"},
    {"a \\ b ; c", "((a \\ b) ; c)"},
    {"a | b | c", "((a | b) | c)"},
    {"a ; b ; c", "((a ; b) ; c)"},
    {"a \\ b \\ c", "((a \\ b) \\ c)"},
    {"W * M | M * W", "((W * M) | (M * W))"},
    {"let x = a | b and y = c in x ; y | d", "(let x = (a | b) and y = c in ((x ; y) | d))"},
    {"A * B & C", "((A * B) & C)"},
    {"A & B * C", "(A & (B * C))"},
    {"~a ; b", "(~a ; b)"},
    {"~a * b", "(~a * b)"},
    {"~a+", "~(a+)"},
    {"(~a)+", "(~a)+"},
    {"~~a", "~(~a)"},
    {"~(a | b)", "~(a | b)"},
    {"[R]; po; [W]", "(([R] ; po) ; [W])"},
    {"a^-1+", "a^-1+"},
    {"r?*", "r?*"},
    {"(a | b)*", "(a | b)*"},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(cases); i++) expect_print(cases[i][0], cases[i][1]);
}

static void test_cat_parse_star_postfix_or_product(void **state) {
  (void)state;
  expect_print("po* ; rf", "(po* ; rf)");
  expect_print("po*", "po*");
  expect_print("M * M", "(M * M)");
  expect_print("M*M", "(M * M)");
  expect_print("r*[S]", "(r * [S])");         /* '[' starts an operand: product */
  expect_print("r* (x)", "(r * x)");
  expect_print("r* ~x", "(r * ~x)");
  expect_print("a* * b", "(a* * b)");
  expect_print("_ * _", "(_ * _)");
  expect_print("0 * _", "(0 * _)");
  expect_print("(r*)", "r*");
  expect_print("r* | s", "(r* | s)");
  expect_print("r* \\ s*", "(r* \\ s*)");
  expect_print("f(r*, s)", "f(r*, s)");
}

static void test_cat_parse_atoms_and_calls(void **state) {
  (void)state;
  expect_print("_", "_");
  expect_print("0", "0");
  expect_print("po-loc", "po-loc");             /* '-' is part of a name */
  expect_print("a-b | c", "(a-b | c)");
  expect_print("x.y_z-1", "x.y_z-1");
  expect_print("_foo", "_foo");
  expect_print("domain(po)", "domain(po)");
  expect_print("f(a | b, c)", "f((a | b), c)");
  expect_print("f()", "f()");
  expect_print("[domain(rf) & W]", "[(domain(rf) & W)]");
  expect_print("fencerel(F & SC)", "fencerel((F & SC))");
  expect_print("po (* a (* nested *) comment *) ; rf", "(po ; rf)");
  expect_print("po // to the end of the line\n ; rf", "(po ; rf)");
}

/* Binary nodes carry the operator's position, the others their first token. */
static void test_cat_parse_positions(void **state) {
  (void)state;
  lc_arena *a = lc_arena_new();
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  const char *text = "\"m\"\nlet x =\n  po | [W]+\n";
  cat_file *f = cat_parse(a, "p.cat", text, strlen(text), &d);
  assert_non_null(f);
  const cat_stmt *s = f->stmts[0];
  assert_int_equal(s->loc.line, 2);
  assert_int_equal(s->loc.col, 1);
  assert_int_equal(s->binds[0].loc.col, 5);
  const cat_expr *u = s->binds[0].e;
  assert_int_equal(u->kind, CAT_X_UNION);
  assert_int_equal(u->loc.line, 3);
  assert_int_equal(u->loc.col, 6);
  assert_int_equal(u->a->loc.col, 3);
  assert_int_equal(u->b->kind, CAT_X_PLUS);
  assert_int_equal(u->b->loc.col, 11);
  assert_int_equal(u->b->a->kind, CAT_X_IDSET);
  assert_int_equal(u->b->a->loc.col, 8);
  assert_int_equal(u->b->a->a->loc.col, 9);
  assert_string_equal(u->loc.file, "p.cat");
  lc_diag_fini(&d);
  lc_arena_free(a);
}

static void test_cat_parse_statements(void **state) {
  (void)state;
  const char *text =
      "PTX\n"
      "include \"x.cat\"\n"
      "let a = po\n"
      "let f(p, q) = p ; q\n"
      "let rec r = r ; po | rf and s = s\n"
      "acyclic a as Ax\n"
      "irreflexive a as Ir\n"
      "empty a as Em\n"
      "flag ~empty a as fl-ag\n";
  lc_arena *ar = lc_arena_new();
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_file *f = cat_parse(ar, "s.cat", text, strlen(text), &d);
  assert_non_null(f);
  assert_string_equal(f->model_name, "PTX");
  assert_int_equal(f->nstmts, 8);
  assert_int_equal(f->stmts[0]->kind, CAT_S_INCLUDE);
  assert_string_equal(f->stmts[0]->path, "x.cat");
  assert_int_equal(f->stmts[0]->name_loc.col, 9);
  assert_int_equal(f->stmts[1]->kind, CAT_S_LET);
  assert_string_equal(f->stmts[1]->binds[0].name, "a");
  const cat_stmt *fn = f->stmts[2];
  assert_int_equal(fn->kind, CAT_S_FUN);
  assert_int_equal(fn->nparams, 2);
  assert_string_equal(fn->params[1], "q");
  assert_int_equal(fn->param_locs[1].col, 10);
  const cat_stmt *rec = f->stmts[3];
  assert_int_equal(rec->kind, CAT_S_REC);
  assert_int_equal(rec->nbinds, 2);
  assert_string_equal(rec->binds[1].name, "s");
  static const cat_check_kind kinds[] = {CAT_CHECK_ACYCLIC, CAT_CHECK_IRREFLEXIVE, CAT_CHECK_EMPTY,
                                         CAT_CHECK_EMPTY};
  static const char *const names[] = {"Ax", "Ir", "Em", "fl-ag"};
  for (size_t i = 0; i < 4; i++) {
    const cat_stmt *c = f->stmts[4 + i];
    assert_int_equal(c->kind, CAT_S_CHECK);
    assert_int_equal(c->check, kinds[i]);
    assert_int_equal(c->flag, i == 3);
    assert_string_equal(c->name, names[i]);
  }
  cat_file *g = cat_parse(ar, "s.cat", "\"PTX v7.5\"", 10, &d);
  assert_string_equal(g->model_name, "PTX v7.5");
  assert_int_equal(g->nstmts, 0);
  cat_file *h = cat_parse(ar, "s.cat", "(* only *) // a comment", 23, &d);
  assert_null(h->model_name);
  assert_int_equal(d.nerrors, 0);
  lc_diag_fini(&d);
  lc_arena_free(ar);
}

/* ---- load errors: one line per case, exact text -------------------------------- */

static const struct {
  const char *id, *text, *err;
} bad[] = {
  {"syntax-1", "let x = po ;", "t.cat:1:13: error: syntax error: unexpected end of file; expected an expression"},
  {"syntax-2", "let = po", "t.cat:1:5: error: syntax error: unexpected '='; expected a name or 'rec'"},
  {"syntax-3", "let x po", "t.cat:1:7: error: syntax error: unexpected 'po'; expected '=' or '('"},
  {"syntax-4", "~ let x = po", "t.cat:1:3: error: syntax error: unexpected 'let'; expected 'acyclic', 'irreflexive' or 'empty' after '~' (a negated check)"},
  {"syntax-5", "acyclic po as", "t.cat:1:14: error: syntax error: unexpected end of file; expected the check's name"},
  {"syntax-6", "flag empty po as r", "t.cat:1:6: error: syntax error: unexpected 'empty'; expected '~' (flags are written 'flag ~empty E as name')"},
  {"syntax-7", "let x = (po |\n rf", "t.cat:2:4: error: syntax error: unexpected end of file; expected ')' (to close '(' at line 1)"},
  {"syntax-8", "let x = [W", "t.cat:1:11: error: syntax error: unexpected end of file; expected ']' (to close '[' at line 1)"},
  {"syntax-9", "include x.cat", "t.cat:1:9: error: syntax error: unexpected 'x.cat'; expected a file name in double quotes"},
  {"syntax-10", "\"M\" shows po", "t.cat:1:5: error: syntax error: unexpected 'shows'; expected a statement (let, include, acyclic, irreflexive, empty, flag, option, coherence, show, procedure, call, if, with or undefined_unless)"},
  {"syntax-11", "let rec f(x) = x", "t.cat:1:10: error: syntax error: unexpected '('; expected '=' (a let rec defines values, not functions)"},
  {"syntax-12", "let f(a,) = a", "t.cat:1:9: error: syntax error: unexpected ')'; expected a parameter name"},
  {"syntax-13", "let x = f(po", "t.cat:1:13: error: syntax error: unexpected end of file; expected ',' or ')' (to close '(' at line 1)"},
  {"syntax-14", "let x = let", "t.cat:1:12: error: syntax error: unexpected end of file; expected a name"},
  {"syntax-15", "let x = \"s\"", "t.cat:1:9: error: syntax error: unexpected string \"s\"; expected an expression"},
  {"syntax-16", "let x = po )", "t.cat:1:12: error: syntax error: unexpected ')'; expected a statement (let, include, acyclic, irreflexive, empty, flag, option, coherence, show, procedure, call, if, with or undefined_unless)"},
  {"lex-1", "let x = po\n  (* open (* nested *)", "t.cat:2:3: error: unterminated comment (opened here)"},
  {"lex-2", "let x = \"str", "t.cat:1:9: error: unterminated string"},
  {"lex-3", "let x = po $ rf", "t.cat:1:12: error: unexpected character '$'"},
  {"lex-4", "let x = 12", "t.cat:1:9: error: invalid token '12' (the only number is 0, the empty relation)"},
  {"lex-5", "let x = po^1", "t.cat:1:11: error: '^' must be followed by '-1' (inverse)"},
  {"lex-6", "let x = po - rf", "t.cat:1:12: error: unexpected character '-'"},
  {"name-1", "let x = pox", "t.cat:1:9: error: unknown name 'pox'; did you mean 'po'?"},
  {"name-2", "let x = zzzz", "t.cat:1:9: error: unknown name 'zzzz' (neither defined above nor a builtin; see docs/model-language.md)"},
  {"name-3", "let myrel = po\nlet x = myrell", "t.cat:2:9: error: unknown name 'myrell'; did you mean 'myrel'?"},
  {"name-4", "let x = y\nlet y = po", "t.cat:1:9: error: unknown name 'y' (neither defined above nor a builtin; see docs/model-language.md)"},
  {"name-5", "let x = foo(po)", "t.cat:1:9: error: unknown function 'foo' (neither defined above nor a builtin; see docs/model-language.md)"},
  {"name-6", "let x = po(rf)", "t.cat:1:9: error: 'po' is not a function"},
  /* `let x = f` names the function again (herd's functions are values),
   * but a function is no relation */
  {"name-7", "let f(a) = a\nlet x = f | po", "t.cat:2:9: error: 'f' is a function; call it with 1 argument"},
  {"name-7b", "let f(a) = a\nlet x = f\nacyclic x as A", "t.cat:3:9: error: 'x' is a function; call it with 1 argument"},
  {"name-8", "let x = domain", "t.cat:1:9: error: 'domain' is a function; call it with 1 argument"},
  {"name-9", "let f(a) = bb", "t.cat:1:12: error: unknown name 'bb' (neither defined above nor a builtin; see docs/model-language.md)"},
  {"name-10", "let f(param) = parm", "t.cat:1:16: error: unknown name 'parm'; did you mean 'param'?"},
  {"type-1", "let x = W ; po", "t.cat:1:11: error: type error: ';' needs relations, but its left operand is a set"},
  {"type-2", "let x = [po]", "t.cat:1:9: error: type error: '[...]' needs a set, but its operand is a relation"},
  {"type-3", "let x = W | po", "t.cat:1:11: error: type error: '|' needs operands of one type, but its left operand is a set and its right operand is a relation"},
  {"type-4", "let x = po * W", "t.cat:1:12: error: type error: '*' (product) needs sets, but its left operand is a relation"},
  {"type-5", "let x = W+", "t.cat:1:10: error: type error: '+' needs a relation, but its operand is a set"},
  {"type-6", "let x = W^-1", "t.cat:1:10: error: type error: '^-1' needs a relation, but its operand is a set"},
  {"type-7", "let x = (W)*", "t.cat:1:12: error: type error: '*' (closure) needs a relation, but its operand is a set"},
  {"type-8", "let x = domain(W)", "t.cat:1:9: error: type error: 'domain' needs a relation, but its argument is a set"},
  {"type-9", "let x = fencerel(po)", "t.cat:1:9: error: type error: 'fencerel' needs a set, but its argument is a relation"},
  {"type-10", "acyclic W as A", "t.cat:1:1: error: type error: 'acyclic' needs a relation, but its operand is a set"},
  {"type-11", "irreflexive R & W as A", "t.cat:1:1: error: type error: 'irreflexive' needs a relation, but its operand is a set"},
  {"type-12", "let x = 0 | W\nlet y = x ; po", "t.cat:2:11: error: type error: ';' needs relations, but its left operand is a set"},
  {"type-13", "let rec a = [a] ; po", "t.cat:1:9: error: type error: 'a' is used as a set but defined as a relation"},
  {"type-14", "let f(a) = [a]\nlet x = f(po)", "t.cat:2:11: error: type error: argument 1 of 'f' must be a set, but it is a relation"},
  {"type-15", "let f(a, b) = a | b\nlet x = f(W, po)", "t.cat:1:17: error: type error: '|' needs operands of one type, but its left operand is a set and its right operand is a relation"},
  {"type-16", "let f(a) = [a] ; a", "t.cat:1:16: error: type error: ';' needs relations, but its right operand is a set"},
  {"type-17", "let x = W & R & po", "t.cat:1:15: error: type error: '&' needs operands of one type, but its left operand is a set and its right operand is a relation"},
  {"arity-1", "let f(a) = a\nlet x = f(po, rf)", "t.cat:2:9: error: wrong number of arguments: 'f' takes 1, given 2"},
  {"arity-2", "let x = range(po, rf)", "t.cat:1:9: error: wrong number of arguments: 'range' takes 1, given 2"},
  {"arity-3", "let f(a, b) = a\nlet x = f()", "t.cat:2:9: error: wrong number of arguments: 'f' takes 2, given 0"},
  {"dup-2", "let rec a = po and b = a and a = rf", "t.cat:1:30: error: 'a' is defined twice in this let rec"},
  {"dup-3", "let f(x, x) = x", "t.cat:1:10: error: parameter 'x' appears twice"},
  {"include-1", "include \"nope-not-there.cat\"", "t.cat:1:9: error: cannot find included file \"nope-not-there.cat\""},
  {"herd-1", "let rec m s = match s with || {} -> {} end\nacyclic m(po) as A", "t.cat:2:9: error: 'm' (t.cat:1) is defined with herd's functional language ('match' at line 1: match, fun, sets of sets, curried or recursive functions), which models here cannot evaluate"},
  {"herd-2", "let g(x) = f x\nlet h = g(po)\nacyclic h as A", "t.cat:3:9: error: 'h' uses 'g', which (t.cat:1) is defined with herd's functional language ('f x' at line 1: match, fun, sets of sets, curried or recursive functions), which models here cannot evaluate"},
  {"herd-3", "with co from classes(W)", "t.cat:1:14: error: 'with co from E' is supported for E = linearisations(S, R), generate_cos(R) or generate_orders(S, R) (herd's cross.cat: the coherence orders that include R) only"},
  {"herd-3b", "with s from linearisations(po, po)", "t.cat:1:28: error: type error: linearisations needs a set, but its first argument is a relation"},
  {"herd-3c", "with s from linearisations(W, W)", "t.cat:1:31: error: type error: linearisations needs a relation, but its second argument is a set"},
  {"herd-4", "with co from generate_cos(0)\nwith co from generate_cos(0)", "t.cat:2:1: error: a second 'with ... from': the engine chooses one coherence order"},
  {"herd-5", "procedure p() = call p() end\ncall p()", "t.cat:1:22: error: procedure 'p' calls itself (recursive procedures are not supported)"},
  {"herd-6", "call q(po)", "t.cat:1:6: error: unknown procedure 'q' (neither defined above nor a builtin; see docs/model-language.md)"},
  {"herd-7", "procedure p(a) = acyclic a end\ncall p(po, rf)", "t.cat:2:6: error: wrong number of arguments: 'p' takes 1, given 2"},
  {"herd-8", "procedure p(a) = acyclic a end\nlet x = p", "t.cat:2:9: error: 'p' is a procedure; use it as 'call p(...)'"},
  {"herd-9", "if \"v\" let x = po", "t.cat:1:18: error: syntax error: unexpected end of file; expected 'else' or 'end' (closing the if)"},
  {"herd-10", "undefined_unless acyclic po", "t.cat:1:18: error: syntax error: unexpected 'acyclic'; expected 'empty' (only 'undefined_unless empty E' is supported)"},
  {"herd-12", "with x from (f y)\nacyclic x as A", "t.cat:2:9: error: 'x' (t.cat:1) is defined with herd's functional language ('f y' at line 1: match, fun, sets of sets, curried or recursive functions), which models here cannot evaluate"},
  {"herd-13", "let x = IC.IVAU", "t.cat:1:9: error: unknown name 'IC.IVAU': the model is for AArch64, whose events (and the sets and relations naming them) litmus-check does not have; it checks PTX and C/C++ tests"},
  {"herd-14", "with x from (f y", "t.cat:1:16: error: syntax error: unexpected 'y'; expected ')' (to close '(' at line 1)"},
  {"herd-15", "let f(x) = linearisations(x, po)", "t.cat:1:12: error: herd's linearisations(S, r) is read only as 'with NAME from linearisations(S, r)' (herd's sets of relations are not values here)"},
  {"herd-11", "enum x = 'a || 'b", "t.cat:1:1: error: herd's 'enum' statement is not supported (docs/model-language.md lists herd's constructs that are)"},
  {"herd-12", "let x = po end", "t.cat:1:12: error: syntax error: unexpected 'end'; expected a statement ('end' or 'else' without 'if' or 'procedure')"},
  {"herd-13", "procedure p(a) = let b = a end\nlet y = b", "t.cat:2:9: error: unknown name 'b' (neither defined above nor a builtin; see docs/model-language.md)"},
};

static void test_cat_load_errors(void **state) {
  (void)state;
  for (size_t i = 0; i < LC_ARRAY_LEN(bad); i++) {
    char *e = load_error(bad[i].text);
    if (!e) fail_msg("%s: loaded without error", bad[i].id);
    if (strcmp(e, bad[i].err) != 0) fail_msg("%s:\n got  %s\n want %s", bad[i].id, e, bad[i].err);
    free(e);
  }
}

/* An error inside an expanded function body is followed by a note at the
 * call. */
static void test_cat_load_error_in_expansion_notes_call(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("t.cat", "let f(a, b) = a | b\nlet g(c, d) = f(c, d)\nlet x = g(W, po)", NULL, &d);
  assert_null(m);
  assert_int_equal(d.msgs.n, 3);
  assert_string_equal(d.msgs.v[0].text, "t.cat:1:17: error: type error: '|' needs operands of one type, but its left operand is a set and its right operand is a relation");
  assert_string_equal(d.msgs.v[1].text, "t.cat:2:15: note: in the expansion of 'f' called here");
  assert_string_equal(d.msgs.v[2].text, "t.cat:3:9: note: in the expansion of 'g' called here");
  assert_null(d.msgs.v[0].loc.file);   /* the file name died with the model */
  assert_int_equal(d.msgs.v[0].loc.line, 1);
  lc_diag_fini(&d);
}

static void test_cat_load_accepts(void **state) {
  (void)state;
  static const char *const good[] = {
    "",
    "let x = [0]",                          /* 0 as a set */
    "let x = 0 ; po",                       /* 0 as a relation */
    "let rec a = a",                        /* a relation by default */
    "let rec s = W | s and t = [s] ; po",   /* a set inferred through the group */
    "empty W as E",                         /* empty takes a set */
    "flag ~empty W & R as f",
    "let f(a, b) = a | b\nlet x = f(W, R)\nlet y = f(po, rf)",   /* polymorphic */
    "let po = po | rf\nacyclic po as A",    /* shadowing a builtin */
    "let domain = po\nlet x = domain",     /* a value named like a function */
    "let f(a) = a\nlet f = po\nlet x = f",
    "let x = ~_ * _ | ~(W * W)",
    "let g(x) = x+\nlet f(x) = g(x) ; g(x)\nacyclic f(po) as A",
    "let x = fencerel(F) ; domain(rf) * range(co)",
    /* herd's constructs */
    "C RC11\nlet x = po",                  /* header: architecture and name */
    "C \"A name\"\nlet x = po",
    "let x = let a = po and b = rf in a | b",
    "let x = let a = po in let b = a ; a in b+",
    "let f(r) = let s = r ; r in s | r\nacyclic f(po) as A",
    "let x = po in",                        /* herd's optional `in` */
    "let a = rf and b = po\nlet po = rf and r = po\nacyclic r & po as A",   /* simultaneous */
    "show po, rf\nshow po as p\nunshow rf",
    "procedure p() = acyclic po end\ncall p()",
    "procedure p(r, s) = let t = r | s\n acyclic t as T\n empty t & id end\ncall p(po, rf) as Q",
    "if \"v\" let x = po else let x = rf end\nacyclic x as A",
    "if ~\"v\" && (\"w\" || ~\"u\") acyclic po as A end",
    "with co from generate_cos(co0)",
    "with s from linearisations(W, po)\nirreflexive s ; po as S1",
    "with s from linearisations(W \\ IW, po)\nwith t from linearisations(R, s)\nacyclic t as T",
    "let p = pco",                          /* herd's precoherence */
    "let d = casdep | STRONG * STRONG",      /* Dartagnan's imm.cat */
    "with x from (f y)",                     /* herd's functional language: opaque */
    "let f(a, b) = g ({a}, b)",             /* a set of sets: opaque */
    "with mo from generate_orders(W, 0)\nacyclic mo as A",
    "undefined_unless empty po & ext as Dr\nrequires empty rf",
    "acyclic po\nacyclic po\nirreflexive rf",   /* unnamed checks */
    "let rec m s = match s with || {} -> {} || e ++ t -> m t end\nlet y = po",
    "let g = fun x -> x\nlet h(x) = g x\nlet ok = po",
    "let x = emptyset | FW | RMW | NA\nlet y = po-loc | rfe | rfi | co0",
    /* herd's functions as values, its stdlib procedures, its old I */
    "let imm = singlestep\nacyclic imm(po) as A",
    "let f(a, b) = a | b\nlet g = f\nlet h = g\nacyclic h(po, rf) as A",
    "let x = let h = singlestep and k = po in h(k)",
    "let asw = I * (M \\ I)\nlet c = ctrlcfence(ctrl, F)",
    "call subseteq(po, po)\ncall inclusion(rf, rf)\ncall total(po, W)",
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(good); i++) {
    char *e = load_error(good[i]);
    if (e) fail_msg("case %zu: %s", i, e);
  }
}

/* herd's checks: unnamed ones are named after the call (or the keyword),
 * a procedure called twice repeats its names with a suffix, and
 * undefined_unless is a flag that means undefined behaviour. */
static void test_cat_herd_check_names(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("t.cat",
      "C T\nprocedure p(r) = acyclic r\n irreflexive r as I end\ncall p(po) as Q\ncall p(rf)\n"
      "empty po\nundefined_unless empty po & ext as Dr\nshow po", NULL, &d);
  assert_non_null(m);
  assert_string_equal(cat_model_name(m), "T");
  static const char *const names[] = {"Q", "I", "p", "I-2", "empty", "Dr"};
  assert_int_equal(cat_model_nchecks(m), LC_ARRAY_LEN(names));
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++) {
    assert_string_equal(cat_model_check_name(m, i), names[i]);
    assert_int_equal(cat_model_check_is_flag(m, i), i == 5);
    assert_int_equal(cat_model_check_is_undef(m, i), i == 5);
  }
  cat_model_free(m);
  lc_diag_fini(&d);
}

/* An unnamed check in a procedure that another calls is named after the
 * outermost call without `as` (c11popl15's `call AtRMW()`, whose body
 * calls herd's stdlib subseteq: the check is AtRMW); herd's I is IW. */
static void test_cat_herd_nested_call_names(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("t.cat",
      "C T\nprocedure inner(r) = acyclic r end\n"
      "procedure outer() = call inner(po) call subseteq(rf, po) end\n"
      "call outer()\ncall outer() as Named\ncall inner(rf)\ncall subseteq(I * (M \\ I), po)\n", NULL, &d);
  assert_non_null(m);
  static const char *const names[] = {"outer", "outer-2", "Named", "Named-2", "inner", "subseteq"};
  assert_int_equal(cat_model_nchecks(m), LC_ARRAY_LEN(names));
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++) assert_string_equal(cat_model_check_name(m, i), names[i]);
  cat_model_free(m);
  lc_diag_fini(&d);
}

/* herd lets two checks share a name (c11_base.cat's NaRf): both apply,
 * the second named NAME-2; a negated check (`~empty E`) is a check. */
static void test_cat_herd_repeated_and_negated(void **state) {
  (void)state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_string("t.cat", "C T\nempty po as A\nacyclic rf as A\n~empty rf as A\n~acyclic po\n",
                                 NULL, &d);
  assert_non_null(m);
  static const char *const names[] = {"A", "A-2", "A-3", "acyclic"};
  assert_int_equal(cat_model_nchecks(m), LC_ARRAY_LEN(names));
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++) {
    assert_string_equal(cat_model_check_name(m, i), names[i]);
    assert_false(cat_model_check_is_flag(m, i));
  }
  cat_model_free(m);
  lc_diag_fini(&d);
}

/* Deep nesting is an error, not a deep recursion. */
static void test_cat_nesting_is_bounded(void **state) {
  (void)state;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, "let x = ");
  for (int i = 0; i < 5000; i++) lc_buf_putc(&b, '(');
  lc_buf_puts(&b, "po");
  char *e = load_error(b.s);
  assert_non_null(e);
  assert_non_null(strstr(e, "expression too deep (more than 256 nested parentheses"));
  free(e);
  b.n = 0;
  for (int i = 0; i < 5000; i++) lc_buf_puts(&b, "if \"v\" ");
  e = load_error(b.s);
  assert_non_null(e);
  assert_non_null(strstr(e, "nested too deeply"));
  free(e);
  b.n = 0;
  lc_buf_puts(&b, "let f0(a) = a\n");
  for (int i = 1; i < 120; i++) lc_buf_printf(&b, "let f%d(a) = f%d(a)\n", i, i - 1);
  e = load_error(b.s);
  assert_non_null(e);
  assert_non_null(strstr(e, "calls nested too deeply (more than 100 expansions)"));
  free(e);
  /* within the nesting bound, each level calling the one below twice:
   * 2^40 expansions, an error naming a function long before (22 levels
   * took 15 s and 5 GB; 40 never ended) */
  b.n = 0;
  lc_buf_puts(&b, "let f0(r) = r\n");
  for (int i = 1; i <= 40; i++) lc_buf_printf(&b, "let f%d(r) = f%d(r) | f%d(r ; r)\n", i, i - 1, i - 1);
  lc_buf_puts(&b, "acyclic f40(po)\n");
  double start = lc_now();
  e = load_error(b.s);
  assert_non_null(e);
  if (!strstr(e, "makes the model too large (more than 200000 nodes")) print_error("%s\n", e);
  assert_non_null(strstr(e, "makes the model too large (more than 200000 nodes"));
  assert_non_null(strstr(e, "error: expanding 'f"));
  assert_true(lc_now() - start < 10);
  free(e);
  /* procedures likewise */
  b.n = 0;
  lc_buf_puts(&b, "procedure p0(r) = acyclic r end\n");
  for (int i = 1; i <= 40; i++) lc_buf_printf(&b, "procedure p%d(r) = call p%d(r) call p%d(r ; r) end\n", i, i - 1, i - 1);
  lc_buf_puts(&b, "call p40(po)\n");
  e = load_error(b.s);
  assert_non_null(e);
  if (!strstr(e, "error: expanding 'p40' makes the model too large")) print_error("%s\n", e);
  assert_non_null(strstr(e, "error: expanding 'p40' makes the model too large"));
  free(e);
  lc_buf_fini(&b);
}

/* Unnamed checks, many: NAME-k continues from the last k of NAME (each
 * repeat counted from 2 again: 4,000 lines took 49 s). */
static void test_cat_many_unnamed_checks(void **state) {
  (void)state;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, "acyclic po as acyclic-3\n");   /* a name taken before its turn comes */
  for (int i = 0; i < 20000; i++) lc_buf_puts(&b, "acyclic po\n");
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  double start = lc_now();
  cat_model *m = cat_load_string("t.cat", b.s, NULL, &d);
  assert_non_null(m);
  assert_true(lc_now() - start < 10);
  assert_int_equal(cat_model_nchecks(m), 20001);
  assert_string_equal(cat_model_check_name(m, 1), "acyclic");
  assert_string_equal(cat_model_check_name(m, 2), "acyclic-2");
  assert_string_equal(cat_model_check_name(m, 3), "acyclic-4");
  assert_string_equal(cat_model_check_name(m, 20000), "acyclic-20001");
  cat_model_free(m);
  lc_diag_fini(&d);
  lc_buf_fini(&b);
}

/* ---- files: includes, search, cycles -------------------------------------------- */

typedef struct tmpdir {
  char path[64];
  LC_VEC(char *) files;
} tmpdir;

static void put(tmpdir *t, const char *name, const char *text) {
  lc_buf p;
  lc_buf_init(&p);
  lc_buf_printf(&p, "%s/%s", t->path, name);
  char *slash = strrchr(p.s, '/');
  *slash = '\0';
  mkdir(p.s, 0700);
  *slash = '/';
  FILE *f = fopen(p.s, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  lc_vec_push(&t->files, lc_buf_take(&p));
  lc_buf_fini(&p);
}

static int tmp_setup(void **state) {
  tmpdir *t = calloc(1, sizeof *t);
  strcpy(t->path, "/tmp/cat-test-XXXXXX");
  if (!mkdtemp(t->path)) return -1;
  put(t, "a.cat", "\"A model\"\ninclude \"b.cat\"\nacyclic x as X\n");
  put(t, "b.cat", "\"B is not the name\"\nlet x = po\n");
  put(t, "lib/c.cat", "let y = rf\n");
  put(t, "uses-lib.cat", "include \"c.cat\"\nacyclic y as Y\n");
  put(t, "sub/d.cat", "include \"e.cat\"\nacyclic z as Z\n");
  put(t, "sub/e.cat", "let z = po\n");
  put(t, "lib/e.cat", "let z = W\n");      /* a set: would fail the check if taken */
  put(t, "c1.cat", "include \"c2.cat\"\n");
  put(t, "c2.cat", "let q = po\ninclude \"c1.cat\"\n");
  put(t, "self.cat", "include \"self.cat\"\n");
  put(t, "diamond.cat", "include \"b.cat\"\ninclude \"b.cat\"\nacyclic x as X\n");
  put(t, "bad-inc.cat", "include \"sub/bad.cat\"\n");
  put(t, "sub/bad.cat", "let k = po\nlet j = W ; k\n");
  *state = t;
  return 0;
}

static int tmp_teardown(void **state) {
  tmpdir *t = *state;
  for (size_t i = t->files.n; i-- > 0;) {
    unlink(t->files.v[i]);
    free(t->files.v[i]);
  }
  lc_vec_free(&t->files);
  char sub[96];
  snprintf(sub, sizeof sub, "%s/lib", t->path);
  rmdir(sub);
  snprintf(sub, sizeof sub, "%s/sub", t->path);
  rmdir(sub);
  rmdir(t->path);
  free(t);
  return 0;
}

/* Loads NAME (relative to the temp dir) with the given search path. */
static cat_model *load_in(tmpdir *t, const char *name, const char *const *search, lc_diag *d,
                          char *errbuf, size_t errlen) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", t->path, name);
  size_t before = d->msgs.n;
  cat_model *m = cat_load(path, search, d);
  if (!m && errbuf) snprintf(errbuf, errlen, "%s", d->msgs.v[before].text);
  return m;
}

static void test_cat_include_beside_then_search(void **state) {
  tmpdir *t = *state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  char lib[96], err[512] = "";
  snprintf(lib, sizeof lib, "%s/lib", t->path);
  const char *search[] = {lib, NULL};
  cat_model *m = load_in(t, "a.cat", search, &d, err, sizeof err);
  assert_non_null(m);
  assert_string_equal(cat_model_name(m), "A model");   /* only the top file names the model */
  assert_int_equal(cat_model_nchecks(m), 1);
  cat_model_free(m);
  m = load_in(t, "uses-lib.cat", search, &d, err, sizeof err);
  assert_non_null(m);
  assert_string_equal(cat_model_name(m), "uses-lib");  /* no header: the file name */
  cat_model_free(m);
  m = load_in(t, "uses-lib.cat", NULL, &d, err, sizeof err);
  assert_null(m);
  assert_true(strstr(err, "uses-lib.cat:1:9: error: cannot find included file \"c.cat\""));
  /* beside the including file (sub/) wins over the search path */
  m = load_in(t, "sub/d.cat", search, &d, err, sizeof err);
  assert_non_null(m);
  cat_model_free(m);
  m = load_in(t, "diamond.cat", NULL, &d, err, sizeof err);
  assert_non_null(m);
  cat_model_free(m);
  lc_diag_fini(&d);
}

static void test_cat_include_cycle(void **state) {
  tmpdir *t = *state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  char err[512], want[512];
  assert_null(load_in(t, "c1.cat", NULL, &d, err, sizeof err));
  snprintf(want, sizeof want,
           "%s/c2.cat:2:9: error: include cycle: %s/c1.cat -> %s/c2.cat -> %s/c1.cat", t->path,
           t->path, t->path, t->path);
  assert_string_equal(err, want);
  assert_null(load_in(t, "self.cat", NULL, &d, err, sizeof err));
  snprintf(want, sizeof want, "%s/self.cat:1:9: error: include cycle: %s/self.cat -> %s/self.cat",
           t->path, t->path, t->path);
  assert_string_equal(err, want);
  lc_diag_fini(&d);
}

static void test_cat_include_error_position(void **state) {
  tmpdir *t = *state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  char err[512], want[512];
  assert_null(load_in(t, "bad-inc.cat", NULL, &d, err, sizeof err));
  snprintf(want, sizeof want,
           "%s/sub/bad.cat:2:11: error: type error: ';' needs relations, but its left operand is a set",
           t->path);
  assert_string_equal(err, want);
  lc_diag_fini(&d);
}

static void test_cat_load_by_name(void **state) {
  tmpdir *t = *state;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  char lib[96];
  snprintf(lib, sizeof lib, "%s/lib", t->path);
  const char *search[] = {lib, t->path, NULL};
  cat_model *m = cat_load("a", search, &d);
  assert_non_null(m);
  char want[128];
  snprintf(want, sizeof want, "%s/a.cat", t->path);
  assert_string_equal(cat_model_path(m), want);
  cat_model_free(m);
  assert_null(cat_load("nothere", search, &d));
  char msg[512];
  /* and the models there, sorted, each once: a misspelt name is one of them */
  snprintf(msg, sizeof msg, "error: model 'nothere' not found (looked for nothere.cat in: %s, %s); the models "
           "there: a, b, bad-inc, c, c1, c2, diamond, e, self, uses-lib", lib, t->path);
  assert_string_equal(lc_diag_first_error(&d), msg);
  lc_diag_fini(&d);
  lc_diag_init(&d, NULL, NULL);
  assert_null(cat_load("no-such-dir/missing.cat", NULL, &d));
  assert_string_equal(lc_diag_first_error(&d),
                      "no-such-dir/missing.cat: error: cannot read model file: No such file or directory");
  lc_diag_fini(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cat_parse_precedence),
    cmocka_unit_test(test_cat_parse_star_postfix_or_product),
    cmocka_unit_test(test_cat_parse_atoms_and_calls),
    cmocka_unit_test(test_cat_parse_positions),
    cmocka_unit_test(test_cat_parse_statements),
    cmocka_unit_test(test_cat_load_errors),
    cmocka_unit_test(test_cat_load_error_in_expansion_notes_call),
    cmocka_unit_test(test_cat_load_accepts),
    cmocka_unit_test(test_cat_herd_check_names),
    cmocka_unit_test(test_cat_herd_nested_call_names),
      cmocka_unit_test(test_cat_herd_repeated_and_negated),
    cmocka_unit_test(test_cat_nesting_is_bounded),
    cmocka_unit_test(test_cat_many_unnamed_checks),
    cmocka_unit_test(test_cat_include_beside_then_search),
    cmocka_unit_test(test_cat_include_cycle),
    cmocka_unit_test(test_cat_include_error_position),
    cmocka_unit_test(test_cat_load_by_name),
  };
  return cmocka_run_group_tests(tests, tmp_setup, tmp_teardown);
}
