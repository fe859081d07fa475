/* cat_lex.c - tokens of the model language.
 * SPDX-License-Identifier: MIT
 *
 * The whole file is split up front: the parser needs two tokens of
 * lookahead to tell a postfix `*` from the product `*`, and models are
 * small.  Names follow herd: letters, digits, `_`, `-` and `.`, not
 * starting with a digit, so `po-loc` is one name and there is no binary
 * minus.
 */
#include "cat/cat_ast.h"

#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  lc_arena *arena;
  const char *file, *p, *end;
  int line;
  const char *line_start;
  lc_diag *d;
  LC_VEC(cat_tok) toks;
  bool dartagnan;     /* a C-style comment was read: comments do not nest */
} lexer;

static const struct {
  const char *word;
  cat_tok_kind kind;
} keywords[] = {
  {"let", CAT_T_LET},         {"rec", CAT_T_REC},         {"and", CAT_T_AND},
  {"as", CAT_T_AS},           {"include", CAT_T_INCLUDE}, {"acyclic", CAT_T_ACYCLIC},
  {"irreflexive", CAT_T_IRREFLEXIVE}, {"empty", CAT_T_EMPTY}, {"flag", CAT_T_FLAG},
};

static lc_loc here(const lexer *lx) {
  return (lc_loc){lx->file, lx->line, (int)(lx->p - lx->line_start) + 1};
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_name_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '-' || c == '.';
}

/* Advances over one character, keeping line and column right. */
static void step(lexer *lx) {
  if (*lx->p == '\n') {
    lx->line++;
    lx->line_start = lx->p + 1;
  }
  lx->p++;
}

/* (* ... *) with nesting, as herd reads it; lx->p is on the opening '('.
 * Dartagnan's comments do not nest (its vmm.cat has a `(*` inside one):
 * in a file that has used Dartagnan's C-style comment, a comment ends at
 * its first `*)`. */
static int skip_block_comment(lexer *lx) {
  lc_loc open = here(lx);
  int depth = 0;
  do {
    if (lx->p >= lx->end) {
      lc_error(lx->d, open, "unterminated comment (opened here)");
      return -1;
    }
    if (lx->p + 1 < lx->end && lx->p[0] == '(' && lx->p[1] == '*') {
      depth = lx->dartagnan ? 1 : depth + 1;
      step(lx);
    } else if (lx->p + 1 < lx->end && lx->p[0] == '*' && lx->p[1] == ')') {
      depth--;
      step(lx);
    }
    step(lx);
  } while (depth > 0);
  return 0;
}

/* Skips blanks and comments; -1 on an unterminated comment. */
static int skip_space(lexer *lx) {
  while (lx->p < lx->end) {
    char c = *lx->p;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      step(lx);
    } else if (c == '(' && lx->p + 1 < lx->end && lx->p[1] == '*') {
      if (skip_block_comment(lx) < 0) return -1;
    } else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
      /* Dartagnan's C-style comment (its vmm.cat begins with one) */
      lc_loc open = here(lx);
      lx->dartagnan = true;
      step(lx), step(lx);
      while (lx->p + 1 < lx->end && !(lx->p[0] == '*' && lx->p[1] == '/')) step(lx);
      if (lx->p + 1 >= lx->end) {
        lc_error(lx->d, open, "unterminated comment (opened here)");
        return -1;
      }
      step(lx), step(lx);
    } else if ((c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') || c == '#') {
      /* herd's lexer takes `#` to the end of the line as a comment too */
      while (lx->p < lx->end && *lx->p != '\n') step(lx);
    } else {
      return 0;
    }
  }
  return 0;
}

static void push(lexer *lx, cat_tok_kind kind, const char *s, size_t n, lc_loc at) {
  cat_tok t = {kind, lc_arena_strndup(lx->arena, s, n), at};
  lc_vec_push(&lx->toks, t);
}

static void lex_word(lexer *lx, lc_loc at) {
  const char *s = lx->p;
  while (lx->p < lx->end && is_name_char(*lx->p)) lx->p++;
  size_t n = (size_t)(lx->p - s);
  cat_tok_kind kind = CAT_T_NAME;
  if (n == 1 && s[0] == '_') kind = CAT_T_ALL;
  for (size_t i = 0; i < LC_ARRAY_LEN(keywords); i++)
    if (strlen(keywords[i].word) == n && memcmp(keywords[i].word, s, n) == 0) kind = keywords[i].kind;
  push(lx, kind, s, n, at);
}

/* Only 0 (the empty set or relation) is an expression; herd's other
 * numbers appear in its functional sublanguage and are kept as OTHER. */
static int lex_number(lexer *lx, lc_loc at) {
  const char *s = lx->p;
  while (lx->p < lx->end && is_name_char(*lx->p)) lx->p++;
  size_t n = (size_t)(lx->p - s);
  push(lx, n == 1 && s[0] == '0' ? CAT_T_ZERO : CAT_T_OTHER, s, n, at);
  return 0;
}

static int lex_string(lexer *lx, lc_loc at) {
  const char *s = ++lx->p;
  while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n') lx->p++;
  if (lx->p >= lx->end || *lx->p != '"') {
    lc_error(lx->d, at, "unterminated string");
    return -1;
  }
  push(lx, CAT_T_STRING, s, (size_t)(lx->p - s), at);
  lx->p++;
  return 0;
}

static int lex_punct(lexer *lx, lc_loc at) {
  static const char chars[] = "()[],=|;\\&*+?~";
  static const cat_tok_kind kinds[] = {
    CAT_T_LPAREN, CAT_T_RPAREN, CAT_T_LBRACK, CAT_T_RBRACK, CAT_T_COMMA, CAT_T_EQ, CAT_T_BAR,
    CAT_T_SEMI, CAT_T_BSLASH, CAT_T_AMP, CAT_T_STAR, CAT_T_PLUS, CAT_T_QMARK, CAT_T_TILDE};
  char c = *lx->p;
  if (c == '^') {
    /* herd's `^` and `-1` are two tokens: blanks may stand between them */
    const char *q = lx->p + 1;
    while (q < lx->end && (*q == ' ' || *q == '\t')) q++;
    if (lx->end - q >= 2 && q[0] == '-' && q[1] == '1') {
      push(lx, CAT_T_INV, lx->p, (size_t)(q + 2 - lx->p), at);
      lx->p = q + 2;
      return 0;
    }
    lc_error(lx->d, at, "'^' must be followed by '-1' (inverse)");
    return -1;
  }
  /* herd's functional sublanguage: `{` `}` `++` `->` `'tag` `:` `!` */
  size_t other = 0;
  if (c == '+' && lx->end - lx->p >= 2 && lx->p[1] == '+') other = 2;
  else if (c == '-' && lx->end - lx->p >= 2 && lx->p[1] == '>') other = 2;
  else if (c == '{' || c == '}' || c == ':' || c == '!') other = 1;
  else if (c == '\'') {
    other = 1;
    while (lx->p + other < lx->end && is_name_char(lx->p[other])) other++;
  }
  if (other) {
    push(lx, CAT_T_OTHER, lx->p, other, at);
    lx->p += other;
    return 0;
  }
  const char *hit = c ? strchr(chars, c) : NULL;
  if (!hit) {
    unsigned char u = (unsigned char)c;
    if (c == '-' && lx->end - lx->p >= 2 && lx->p[1] == '1')   /* herd's uniproc-normw-cat.cat */
      lc_error(lx->d, at, "unexpected '-1': an inverse is written r^-1 (herd7 rejects this '-1' too)");
    else if (u >= 0x21 && u < 0x7f) lc_error(lx->d, at, "unexpected character '%c'", c);
    else lc_error(lx->d, at, "unexpected byte 0x%02x", u);
    return -1;
  }
  push(lx, kinds[hit - chars], lx->p, 1, at);
  lx->p++;
  return 0;
}

size_t cat_lex(lc_arena *a, const char *file, const char *text, size_t len,
               cat_tok **out, lc_diag *d) {
  lexer lx = {a, file, text, text + len, 1, text, d, {0}, false};
  int rc = 0;
  for (;;) {
    if ((rc = skip_space(&lx)) < 0) break;
    lc_loc at = here(&lx);
    if (lx.p >= lx.end) {
      push(&lx, CAT_T_EOF, "", 0, at);
      break;
    }
    char c = *lx.p;
    if (is_alpha(c) || c == '_') lex_word(&lx, at);
    else if (is_digit(c)) rc = lex_number(&lx, at);
    else if (c == '"') rc = lex_string(&lx, at);
    else rc = lex_punct(&lx, at);
    if (rc < 0) break;
  }
  if (rc < 0) {
    lc_vec_free(&lx.toks);
    *out = NULL;
    return 0;
  }
  /* The tokens move into the arena so the caller has one owner for all. */
  cat_tok *toks = lc_arena_alloc(a, lx.toks.n * sizeof *toks);
  memcpy(toks, lx.toks.v, lx.toks.n * sizeof *toks);
  size_t n = lx.toks.n;
  lc_vec_free(&lx.toks);
  *out = toks;
  return n;
}

void cat_tok_describe(lc_buf *b, const cat_tok *t) {
  switch (t->kind) {
  case CAT_T_EOF: lc_buf_puts(b, "end of file"); break;
  case CAT_T_STRING: lc_buf_printf(b, "string \"%s\"", t->text); break;
  default: lc_buf_printf(b, "'%s'", t->text); break;
  }
}
