/* lex.c - the lexer of the litmus dialect.
 * SPDX-License-Identifier: MIT
 *
 * The input is checked once, up front, for NUL bytes and UTF-8 (so every
 * later stage may assume text); after that only ASCII is meaningful
 * outside comments and the header's free text.
 */
#include "litmus/lex.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- positions and errors ---------------------------------------------- */

/* The line of the file the user wrote (lc_source.line_of). */
static int src_line(const lc_source *src, int line) {
  return src->line_of && line >= 1 && (size_t)line <= src->nline_of ? src->line_of[line - 1] : line;
}

static lc_loc here(const lt_lexer *ls, const char *at) {
  lc_loc l = {ls->src->name, src_line(ls->src, ls->line), (int)(at - ls->bol) + 1};
  return l;
}

/* Moves past one byte, keeping line and column right. */
static void advance(lt_lexer *ls) {
  if (*ls->p == '\n') {
    ls->line++;
    ls->bol = ls->p + 1;
  }
  ls->p++;
}

static int peekc(const lt_lexer *ls, size_t k) {
  return ls->p + k < ls->end ? (unsigned char)ls->p[k] : -1;
}

/* Names one input character for a message: 'x', 'é', or byte 0x07. */
static void describe_char(const char *p, const char *end, char *buf, size_t n) {
  unsigned char c = (unsigned char)*p;
  if (c >= 0x21 && c < 0x7f) {
    snprintf(buf, n, "character '%c'", c);
  } else if (c >= 0xc2) {
    int len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    if (end - p < len) len = (int)(end - p);
    snprintf(buf, n, "character '%.*s'", len, p);
  } else {
    snprintf(buf, n, "byte 0x%02x", c);
  }
}

/* ---- encoding ------------------------------------------------------------ */

/* Length of the well-formed UTF-8 sequence at p (Unicode table 3-7), or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end) {
  unsigned char c = p[0];
  size_t n;
  unsigned char lo = 0x80, hi = 0xbf;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) n = 3;
  else if (c >= 0xf0 && c <= 0xf4) n = 4;
  else return 0;
  if (c == 0xe0) lo = 0xa0;
  if (c == 0xed) hi = 0x9f;
  if (c == 0xf0) lo = 0x90;
  if (c == 0xf4) hi = 0x8f;
  if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xbf) return 0;
  return n;
}

static int check_encoding(lt_lexer *ls) {
  const unsigned char *p = (const unsigned char *)ls->p, *end = (const unsigned char *)ls->end;
  int line = 1;
  const unsigned char *bol = (const unsigned char *)ls->src->text;
  while (p < end) {
    size_t n = *p ? utf8_len(p, end) : 0;
    if (n == 0) {
      lc_loc at = {ls->src->name, src_line(ls->src, line), (int)(p - bol) + 1};
      if (*p == 0)
        lc_error(ls->d, at, "binary input: NUL byte");
      else
        lc_error(ls->d, at, "input is not valid UTF-8: byte 0x%02x", *p);
      return -1;
    }
    if (*p == '\n') {
      line++;
      bol = p + 1;
    }
    p += n;
  }
  return 0;
}

int lt_lex_init(lt_lexer *ls, const lc_source *src, lc_diag *d) {
  assert(ls && src && src->text && d);
  memset(ls, 0, sizeof *ls);
  ls->src = src;
  ls->d = d;
  ls->p = ls->bol = src->text;
  ls->end = src->text + src->len;
  ls->line = 1;
  ls->t.kind = LT_TOK_EOF;
  if (check_encoding(ls) < 0) return -1;
  /* A byte-order mark is not text; columns still count it so that they
   * match what an editor shows as bytes. */
  if (src->len >= 3 && memcmp(src->text, "\xef\xbb\xbf", 3) == 0) ls->p += 3;
  return 0;
}

/* ---- whitespace and comments -------------------------------------------- */

static bool is_space(int c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Skips a (* comment *), nested ones included; p is at the '('. */
static int skip_comment(lt_lexer *ls) {
  lc_loc open = here(ls, ls->p);
  size_t depth = 0;
  while (ls->p < ls->end) {
    if (peekc(ls, 0) == '(' && peekc(ls, 1) == '*') {
      depth++;
      advance(ls);
      advance(ls);
    } else if (peekc(ls, 0) == '*' && peekc(ls, 1) == ')') {
      advance(ls);
      advance(ls);
      if (--depth == 0) return 0;
    } else {
      advance(ls);
    }
  }
  lc_error(ls->d, open, "unterminated comment");
  return -1;
}

/* Skips a C comment; p is at the '/'. */
static int skip_c_comment(lt_lexer *ls) {
  lc_loc open = here(ls, ls->p);
  if (peekc(ls, 1) == '/') {
    while (ls->p < ls->end && *ls->p != '\n') advance(ls);
    return 0;
  }
  advance(ls);
  advance(ls);
  while (ls->p < ls->end) {
    if (peekc(ls, 0) == '*' && peekc(ls, 1) == '/') {
      advance(ls);
      advance(ls);
      return 0;
    }
    advance(ls);
  }
  lc_error(ls->d, open, "unterminated comment");
  return -1;
}

static int skip_space(lt_lexer *ls) {
  for (;;) {
    if (ls->p < ls->end && is_space(peekc(ls, 0)))
      advance(ls);
    else if (ls->cpp && peekc(ls, 0) == '/' && (peekc(ls, 1) == '/' || peekc(ls, 1) == '*')) {
      if (skip_c_comment(ls) < 0) return -1;
    } else if (!ls->cpp && peekc(ls, 0) == '(' && peekc(ls, 1) == '*') {
      if (skip_comment(ls) < 0) return -1;
    } else
      return 0;
  }
}

/* ---- tokens -------------------------------------------------------------- */

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }

static bool all_digits(const char *s, size_t n) {
  if (n == 0) return false;
  for (size_t i = 0; i < n; i++)
    if (!is_digit((unsigned char)s[i])) return false;
  return true;
}

/* The number written in n decimal digits, or -1 when above max. */
static int64_t small_number(const char *s, size_t n, int64_t max) {
  int64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    v = v * 10 + (s[i] - '0');
    if (v > max) return -1;
  }
  return v;
}

/* word -> alpha {alnum} {'.' alnum {alnum}} ; also rK and PN */
static int read_word(lt_lexer *ls, lt_token *t) {
  bool dotted = false;
  while (ls->p < ls->end && is_alnum(peekc(ls, 0))) advance(ls);
  while (ls->cpp && peekc(ls, 0) == ':' && peekc(ls, 1) == ':' && peekc(ls, 2) >= 0 &&
         is_alpha(peekc(ls, 2))) {
    dotted = true;
    advance(ls);
    advance(ls);
    while (ls->p < ls->end && is_alnum(peekc(ls, 0))) advance(ls);
  }
  /* PTX qualifiers may hold `::` (`.shared::cluster`, `.mbarrier::complete_tx::bytes`). */
  while (!ls->cpp && peekc(ls, 0) == '.' && peekc(ls, 1) >= 0 && is_alnum(peekc(ls, 1))) {
    dotted = true;
    advance(ls);
    while (ls->p < ls->end && is_alnum(peekc(ls, 0))) advance(ls);
    while (peekc(ls, 0) == ':' && peekc(ls, 1) == ':' && peekc(ls, 2) >= 0 && is_alpha(peekc(ls, 2))) {
      advance(ls);
      advance(ls);
      while (ls->p < ls->end && is_alnum(peekc(ls, 0))) advance(ls);
    }
  }
  t->kind = LT_TOK_WORD;
  t->len = (size_t)(ls->p - t->text);
  if (dotted || t->len < 2 || (t->text[0] != 'r' && t->text[0] != 'P') ||
      !all_digits(t->text + 1, t->len - 1))
    return 0;
  bool reg = t->text[0] == 'r';
  int64_t max = reg ? LT_MAX_REG : LT_MAX_ID;
  t->kind = reg ? LT_TOK_REG : LT_TOK_THREAD;
  t->value = small_number(t->text + 1, t->len - 1, max);
  if (t->value >= 0) return 0;
  char what[64];
  lc_error(ls->d, t->at, "%s %s out of range (%s0..%s%lld)", reg ? "register" : "thread",
           lt_tok_desc(t, what, sizeof what), reg ? "r" : "P", reg ? "r" : "P", (long long)max);
  return -1;
}

/* C++: a floating-point literal, ['-'] digits ['.' digits] [e [+-] digits]
 * [f] (or '.' digits first), when what follows the digits makes it one.
 * Values are floats (binary32): a literal with the `f` suffix is rounded to
 * float (strtof, one rounding); one without is a double, read only when
 * the float holds it exactly (0.5, 2.0, 1e3: double arithmetic is not
 * modelled, and a double constant that is not a float would be a silent
 * difference).  Returns 0 when the text is no float literal (t untouched),
 * 1 when read, -1 on an error. */
static int read_float(lt_lexer *ls, lt_token *t) {
  const char *p = ls->p + (ls->p < ls->end && *ls->p == '-');
  const char *q = p;
  bool fl = false;
  while (q < ls->end && is_digit((unsigned char)*q)) q++;
  if (q < ls->end && *q == '.' && !(q > p && q + 1 < ls->end && q[1] == '.')) {
    fl = true;
    q++;
    while (q < ls->end && is_digit((unsigned char)*q)) q++;
  }
  if (q == p || (q == p + 1 && *p == '.')) return 0;
  if (q < ls->end && (*q == 'e' || *q == 'E')) {
    const char *e = q + 1;
    if (e < ls->end && (*e == '+' || *e == '-')) e++;
    if (e < ls->end && is_digit((unsigned char)*e)) {
      fl = true;
      q = e;
      while (q < ls->end && is_digit((unsigned char)*q)) q++;
    }
  }
  bool fsuffix = fl && q < ls->end && (*q == 'f' || *q == 'F');
  if (!fl || (p[0] == '0' && p + 1 < ls->end && (p[1] == 'x' || p[1] == 'X'))) return 0;
  size_t n = (size_t)(q - ls->p);
  char buf[128];
  if (n >= sizeof buf) {
    lc_error(ls->d, t->at, "a floating-point literal of %zu characters", n);
    return -1;
  }
  memcpy(buf, ls->p, n);
  buf[n] = 0;
  while (ls->p < q + fsuffix) advance(ls);
  if (ls->p < ls->end && is_alnum(peekc(ls, 0))) {
    lc_error(ls->d, t->at, "malformed number %s...", buf);
    return -1;
  }
  t->kind = LT_TOK_INT;
  t->len = (size_t)(ls->p - t->text);
  t->int_float = true;
  float f;
  if (fsuffix) {
    f = strtof(buf, NULL);
  } else {
    double d = strtod(buf, NULL);
    f = (float)d;
    if ((double)f != d) {
      lc_error(ls->d, t->at, "%s is a double that no float holds exactly: doubles are not modelled (write %sf)",
               buf, buf);
      return -1;
    }
  }
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  t->value = (int64_t)bits;
  return 1;
}

/* number -> ['-'] digit {alnum}, then checked to be decimal or 0x hex */
static int read_number(lt_lexer *ls, lt_token *t) {
  t->int_float = false;
  if (ls->cpp) {
    int f = read_float(ls, t);
    if (f != 0) return f < 0 ? -1 : 0;
  }
  if (peekc(ls, 0) == '-') advance(ls);
  while (ls->p < ls->end && is_alnum(peekc(ls, 0))) advance(ls);
  t->kind = LT_TOK_INT;
  t->len = (size_t)(ls->p - t->text);
  char what[64];
  lt_tok_desc(t, what, sizeof what);
  const char *s = t->text + (t->text[0] == '-');
  size_t n = t->len - (size_t)(s - t->text);
  bool hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  size_t suffix = 0;   /* C++: 1u, 2UL, 0x10ull (the value is the same) */
  while (ls->cpp && suffix < 3 && n - suffix > 1 && strchr("uUlL", s[n - suffix - 1])) suffix++;
  t->int_unsigned = false;
  t->int_longs = 0;
  t->int_hex = hex;
  for (size_t i = n - suffix; i < n; i++) {
    if (s[i] == 'u' || s[i] == 'U') t->int_unsigned = true;
    else t->int_longs++;
  }
  n -= suffix;
  for (size_t i = hex ? 2 : 0; i < n; i++) {
    int c = (unsigned char)s[i];
    bool ok = hex ? is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') : is_digit(c);
    if (!ok) {
      lc_error(ls->d, t->at, "malformed number %s", what);
      return -1;
    }
  }
  if (lc_parse_int64(t->text, t->len - suffix, &t->value) == 0) return 0;
  lc_error(ls->d, t->at, "number %s does not fit in 64 bits", what);
  return -1;
}

/* Operators of one or two characters; the longest match wins. */
static const struct {
  const char *s;
  lt_tok_kind kind;
} punct[] = {
  {"/\\", LT_TOK_AND}, {"\\/", LT_TOK_OR}, {"&&", LT_TOK_AND}, {"||", LT_TOK_OR},
  {"==", LT_TOK_EQEQ}, {"!=", LT_TOK_NE}, {"<=", LT_TOK_LE}, {">=", LT_TOK_GE},
  {"{", LT_TOK_LBRACE}, {"}", LT_TOK_RBRACE}, {"(", LT_TOK_LPAREN}, {")", LT_TOK_RPAREN},
  {"[", LT_TOK_LBRACKET}, {"]", LT_TOK_RBRACKET}, {"|", LT_TOK_BAR}, {";", LT_TOK_SEMI},
  {",", LT_TOK_COMMA}, {":", LT_TOK_COLON}, {"@", LT_TOK_AT}, {"&", LT_TOK_AMP},
  {"=", LT_TOK_EQ}, {"<", LT_TOK_LT}, {">", LT_TOK_GT}, {"~", LT_TOK_NOT}, {"!", LT_TOK_NOT},
};

/* C++ mode: operators the PTX dialect does not have (tried after punct,
 * whose two-character operators win: `/\` stays a conjunction). */
static const struct {
  char c;
  lt_tok_kind kind;
} cpp_punct[] = {
  {'*', LT_TOK_STAR}, {'+', LT_TOK_PLUS}, {'-', LT_TOK_MINUS}, {'/', LT_TOK_SLASH},
  {'%', LT_TOK_PERCENT}, {'^', LT_TOK_CARET}, {'.', LT_TOK_DOT}, {'?', LT_TOK_QUESTION},
};

/* C++ mode: two-character operators, tried first (C++ reads the longest
 * operator: `a--b` is a decrement of a, never a - -b). */
static const struct {
  const char *s;
  lt_tok_kind kind;
} cpp_punct2[] = {
  {"->", LT_TOK_ARROW}, {"++", LT_TOK_INC}, {"--", LT_TOK_DEC}, {"+=", LT_TOK_OP_EQ},
  {"-=", LT_TOK_OP_EQ}, {"&=", LT_TOK_OP_EQ}, {"|=", LT_TOK_OP_EQ}, {"^=", LT_TOK_OP_EQ},
  {"*=", LT_TOK_OP_EQ}, {"/=", LT_TOK_OP_EQ}, {"%=", LT_TOK_OP_EQ},
};

static int read_punct(lt_lexer *ls, lt_token *t) {
  for (size_t i = 0; ls->cpp && i < LC_ARRAY_LEN(cpp_punct2); i++)
    if (ls->end - ls->p >= 2 && memcmp(ls->p, cpp_punct2[i].s, 2) == 0) {
      t->kind = cpp_punct2[i].kind;
      t->len = 2;
      advance(ls);
      advance(ls);
      return 0;
    }
  for (size_t i = 0; ls->cpp && i < LC_ARRAY_LEN(cpp_punct); i++)
    if (*ls->p == cpp_punct[i].c && !(*ls->p == '/' && peekc(ls, 1) == '\\')) {
      t->kind = cpp_punct[i].kind;
      t->len = 1;
      advance(ls);
      return 0;
    }
  for (size_t i = 0; i < LC_ARRAY_LEN(punct); i++) {
    size_t n = strlen(punct[i].s);
    if ((size_t)(ls->end - ls->p) >= n && memcmp(ls->p, punct[i].s, n) == 0) {
      t->kind = punct[i].kind;
      t->len = n;
      while (n--) advance(ls);
      return 0;
    }
  }
  char what[32];
  describe_char(ls->p, ls->end, what, sizeof what);
  lc_error(ls->d, t->at, "unexpected %s", what);
  return -1;
}

static bool after_operand(const lt_lexer *ls);

static int read_one(lt_lexer *ls, lt_token *t) {
  if (skip_space(ls) < 0) return -1;
  memset(t, 0, sizeof *t);
  t->text = ls->p;
  t->at = here(ls, ls->p);
  if (ls->p >= ls->end) {
    t->kind = LT_TOK_EOF;
    return 0;
  }
  int c = peekc(ls, 0);
  if (is_alpha(c)) return read_word(ls, t);
  if (is_digit(c) || (c == '-' && peekc(ls, 1) >= 0 && is_digit(peekc(ls, 1)) && !after_operand(ls)))
    return read_number(ls, t);
  if (ls->cpp && c == '.' && peekc(ls, 1) >= 0 && is_digit(peekc(ls, 1)))   /* .5f */
    return read_number(ls, t);
  return read_punct(ls, t);
}

/* C++ mode: `r0-1` is a subtraction, `= -1` a negative number. */
static bool after_operand(const lt_lexer *ls) {
  if (!ls->cpp) return false;
  switch (ls->last) {
  case LT_TOK_WORD: case LT_TOK_REG: case LT_TOK_THREAD: case LT_TOK_INT:
  case LT_TOK_RPAREN: case LT_TOK_RBRACKET: return true;
  default: return false;
  }
}

static int read_token(lt_lexer *ls, lt_token *t) {
  int rc = read_one(ls, t);
  ls->last = t->kind;
  return rc;
}

int lt_lex_next(lt_lexer *ls) {
  if (ls->has_ahead) {
    ls->t = ls->ahead;
    ls->has_ahead = false;
    return 0;
  }
  return read_token(ls, &ls->t);
}

int lt_lex_peek(lt_lexer *ls) {
  if (ls->has_ahead) return 0;
  if (read_token(ls, &ls->ahead) < 0) return -1;
  ls->has_ahead = true;
  return 0;
}

/* ---- the header ------------------------------------------------------------ */

static bool is_name_char(int c) {
  return is_alnum(c) || c == '+' || c == '-' || c == '.' || c == ',';
}

int lt_lex_name(lt_lexer *ls, lt_token *name) {
  assert(ls && name);
  if (skip_space(ls) < 0) return -1;
  memset(name, 0, sizeof *name);
  name->kind = LT_TOK_WORD;
  name->text = ls->p;
  name->at = here(ls, ls->p);
  while (ls->p < ls->end && is_name_char(peekc(ls, 0))) advance(ls);
  name->len = (size_t)(ls->p - name->text);
  int c = peekc(ls, 0);
  bool end_ok = c < 0 || is_space(c) || c == '"' || c == '{' || (c == '(' && peekc(ls, 1) == '*');
  if (name->len > 0 && end_ok) return 0;
  char what[32];
  if (c < 0)
    snprintf(what, sizeof what, "end of file");
  else
    describe_char(ls->p, ls->end, what, sizeof what);
  if (name->len == 0)
    lc_error(ls->d, name->at, "expected the test name after '%.*s', found %s", (int)ls->t.len,
             ls->t.text, what);
  else
    lc_error(ls->d, here(ls, ls->p), "unexpected %s in the test name (names use letters, "
             "digits and + - _ . ,)", what);
  return -1;
}

/* Skips a "string"; p is at the opening quote. */
static int skip_string(lt_lexer *ls) {
  lc_loc open = here(ls, ls->p);
  advance(ls);
  while (ls->p < ls->end && *ls->p != '"') advance(ls);
  if (ls->p < ls->end) {
    advance(ls);
    return 0;
  }
  lc_error(ls->d, open, "unterminated string");
  return -1;
}

int lt_lex_doc(lt_lexer *ls, const char **doc, size_t *len) {
  assert(ls && doc && len);
  const char *start = ls->p;
  while (ls->p < ls->end && *ls->p != '{') {
    int r = 0;
    if (*ls->p == '"')
      r = skip_string(ls);
    else if (peekc(ls, 0) == '(' && peekc(ls, 1) == '*')
      r = skip_comment(ls);
    else
      advance(ls);
    if (r < 0) return -1;
  }
  if (ls->p >= ls->end) {
    lc_error(ls->d, here(ls, ls->p), "expected '{' to open the init block, found end of file");
    return -1;
  }
  const char *stop = ls->p;
  while (start < stop && is_space((unsigned char)*start)) start++;
  while (stop > start && is_space((unsigned char)stop[-1])) stop--;
  *doc = start;
  *len = (size_t)(stop - start);
  return 0;
}

const char *lt_tok_desc(const lt_token *t, char *buf, size_t n) {
  assert(t && buf && n > 0);
  if (t->kind == LT_TOK_EOF)
    snprintf(buf, n, "end of file");
  else if (t->len > 40)
    snprintf(buf, n, "'%.37s...'", t->text);
  else
    snprintf(buf, n, "'%.*s'", (int)t->len, t->text);
  return buf;
}
