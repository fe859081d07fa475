/* parse_kit.c - what the PTX parser (parse.c) and the C++ parser
 * (cpp_parse.c) share: errors, tokens, arena-backed arrays, locations and
 * placements (parse_int.h).
 * SPDX-License-Identifier: MIT
 *
 * A file of its own so that each dialect's parser uses the kit and
 * neither the other's internals; parse.c alone asks cpp_parse.c for the
 * body of a C++ test.
 */
#include "litmus/parse_int.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

void lt_p_error(parser *ps, lc_loc at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lc_vreport(ps->d, LC_SEV_ERROR, at, fmt, ap);
  va_end(ap);
  longjmp(ps->fail, 1);
}

void lt_p_next(parser *ps) {
  lc_loc after = TOK.at;
  for (size_t i = 0; i < TOK.len; i++) {
    if (TOK.text[i] == '\n') after.line++, after.col = 1;
    else after.col++;
  }
  ps->after = after;
  if (lt_lex_next(&ps->ls) < 0) longjmp(ps->fail, 1);
}

void lt_p_expect_end(parser *ps, lt_tok_kind kind, const char *what) {
  if (TOK.kind != kind && ps->after.file && ps->after.line > 0 && TOK.at.line > ps->after.line)
    lt_p_error(ps, ps->after, "expected %s at the end of this line, found %s on line %d", what,
               lt_p_desc(ps, &TOK), TOK.at.line);
  lt_p_expect(ps, kind, what);
}

const lt_token *lt_p_peek(parser *ps) {
  if (lt_lex_peek(&ps->ls) < 0) longjmp(ps->fail, 1);
  return &ps->ls.ahead;
}

const char *lt_p_desc(parser *ps, const lt_token *t) {
  return lt_tok_desc(t, ps->desc, sizeof ps->desc);
}

void lt_p_expect(parser *ps, lt_tok_kind kind, const char *what) {
  if (TOK.kind != kind) lt_p_error(ps, TOK.at, "expected %s, found %s", what, lt_p_desc(ps, &TOK));
  lt_p_next(ps);
}

/* Like expect for a closing bracket, naming the opening one when it is on
 * another line (Lua's check_match). */
void lt_p_check_match(parser *ps, lt_tok_kind kind, const char *close, const char *open, lc_loc at) {
  if (TOK.kind == kind) {
    lt_p_next(ps);
    return;
  }
  if (at.line == TOK.at.line)
    lt_p_error(ps, TOK.at, "expected '%s', found %s", close, lt_p_desc(ps, &TOK));
  lt_p_error(ps, TOK.at, "expected '%s' (to close '%s' at line %d), found %s", close, open, at.line,
           lt_p_desc(ps, &TOK));
}

static bool tok_is(const lt_token *t, const char *w) {
  return t->kind == LT_TOK_WORD && t->len == strlen(w) && memcmp(t->text, w, t->len) == 0;
}

bool lt_p_is_word(parser *ps, const char *w) { return tok_is(&TOK, w); }

/* A word without dots: a location or label name. */
bool lt_p_is_name(const lt_token *t) {
  return t->kind == LT_TOK_WORD && memchr(t->text, '.', t->len) == NULL;
}

const char *lt_p_str(parser *ps, const lt_token *t) {
  return lc_arena_strndup(ps->a, t->text, t->len);
}

void *lt_p_grow(parser *ps, void *old, size_t *cap, size_t size) {
  size_t ncap = *cap ? *cap * 2 : 4;
  void *p = lc_arena_alloc(ps->a, ncap * size);
  if (*cap) memcpy(p, old, *cap * size);
  *cap = ncap;
  return p;
}

/* name -> WORD without dots          C++: WORD ['[' INT ']'], an array element */
const char *lt_p_location(parser *ps, const char *what) {
  if (!lt_p_is_name(&TOK)) lt_p_error(ps, TOK.at, "expected %s, found %s", what, lt_p_desc(ps, &TOK));
  const char *s = lt_p_str(ps, &TOK);
  lt_p_next(ps);
  if (TOK.kind == LT_TOK_LBRACKET) {
    lt_p_next(ps);
    if (TOK.kind != LT_TOK_INT || TOK.value < 0 || TOK.value > 1023)
      lt_p_error(ps, TOK.at, "expected an array index (0..1023), found %s", lt_p_desc(ps, &TOK));
    if (TOK.value > 0) {   /* element 0 of y is the location y (cpp_parse.c) */
      char buf[32];
      snprintf(buf, sizeof buf, "[%d]", (int)TOK.value);
      size_t n = strlen(s);
      char *e = lc_arena_alloc(ps->a, n + strlen(buf) + 1);
      memcpy(e, s, n);
      strcpy(e + n, buf);
      s = e;
    }
    lt_p_next(ps);
    lt_p_expect(ps, LT_TOK_RBRACKET, "']'");
  }
  return s;
}

/* ---- threads ------------------------------------------------------------ */

/* placement number: KEYWORD INT */
int lt_p_place_id(parser *ps, const char *kw) {
  if (!lt_p_is_word(ps, kw)) lt_p_error(ps, TOK.at, "expected '%s', found %s", kw, lt_p_desc(ps, &TOK));
  lt_p_next(ps);
  if (TOK.kind != LT_TOK_INT)
    lt_p_error(ps, TOK.at, "expected the %s number, found %s", kw, lt_p_desc(ps, &TOK));
  if (TOK.value < 0 || TOK.value > LT_MAX_ID)
    lt_p_error(ps, TOK.at, "%s %s out of range (0..%d)", kw, lt_p_desc(ps, &TOK), LT_MAX_ID);
  int v = (int)TOK.value;
  lt_p_next(ps);
  return v;
}

/* placement -> 'cta' INT [',' 'cluster' INT] ',' 'gpu' INT (after '@') */
void lt_p_placement(parser *ps, lt_thread *th) {
  th->cta = lt_p_place_id(ps, "cta");
  lt_p_expect(ps, LT_TOK_COMMA, "','");
  if (lt_p_is_word(ps, "cluster")) {
    th->cluster = lt_p_place_id(ps, "cluster");
    lt_p_expect(ps, LT_TOK_COMMA, "','");
  }
  th->gpu = lt_p_place_id(ps, "gpu");
}
