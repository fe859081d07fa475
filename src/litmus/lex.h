/* lex.h - the lexer of the litmus dialect (docs/litmus-format.md).
 * SPDX-License-Identifier: MIT
 *
 * Tokens are produced on demand, one at a time, with one token of
 * lookahead (the parser needs it to tell a label `L:` from the memory map
 * `x: shared`).  The header is not regular: the test name and the free text
 * up to `{` are read raw by lt_lex_name and lt_lex_doc.
 *
 * A dotted word such as `ld.acquire.gpu.global.u32` is ONE token
 * (LT_TOK_WORD); the parser splits it.  `r<digits>` is a register and
 * `P<digits>` a thread, both with their number in `value`.  Every error is
 * reported through lc_error and makes the call return -1.
 */
#ifndef LT_LEX_H
#define LT_LEX_H

#include "lc.h"

/* Bounds of the numbers that name things (docs/litmus-format.md). */
#define LT_MAX_REG 65535        /* r0 .. r65535 */
#define LT_MAX_ID 1048575       /* threads, CTAs, clusters, GPUs: 0 .. 2^20-1 */

typedef enum {
  LT_TOK_EOF,
  LT_TOK_WORD,      /* identifier, possibly with .suffixes */
  LT_TOK_REG,       /* rK */
  LT_TOK_THREAD,    /* PN */
  LT_TOK_INT,       /* decimal or 0x hex, optional leading '-' */
  LT_TOK_LBRACE, LT_TOK_RBRACE, LT_TOK_LPAREN, LT_TOK_RPAREN,
  LT_TOK_LBRACKET, LT_TOK_RBRACKET,
  LT_TOK_BAR, LT_TOK_SEMI, LT_TOK_COMMA, LT_TOK_COLON, LT_TOK_AT, LT_TOK_AMP,
  LT_TOK_EQ,        /* =  */
  LT_TOK_EQEQ,      /* == */
  LT_TOK_NE,        /* != */
  LT_TOK_LT, LT_TOK_LE, LT_TOK_GT, LT_TOK_GE,
  LT_TOK_NOT,       /* ~ or ! */
  LT_TOK_AND,       /* /\ or && */
  LT_TOK_OR,        /* \/ or || */
  /* C++ mode only (lt_lexer.cpp): */
  LT_TOK_STAR, LT_TOK_PLUS, LT_TOK_MINUS, LT_TOK_SLASH, LT_TOK_PERCENT, LT_TOK_CARET,
  LT_TOK_DOT,
  LT_TOK_ARROW,     /* -> */
  LT_TOK_INC,       /* ++ */
  LT_TOK_DEC,       /* -- (a decrement, as in C++: never two minus signs) */
  LT_TOK_OP_EQ,     /* += -= &= |= ^= *= /= %=: the operator is text[0] */
  LT_TOK_QUESTION   /* ? */
} lt_tok_kind;

typedef struct lt_token {
  lt_tok_kind kind;
  const char *text;   /* into the source text, not NUL-terminated */
  size_t len;
  lc_loc at;
  int64_t value;      /* INT (values above INT64_MAX wrap, as lc_parse_int64), REG, THREAD */
  /* INT in C++: written with a `u` suffix, how many `l`s, in hex (C's
   * type of the literal, lt_ctype, follows from them and the value) */
  bool int_unsigned, int_hex;
  int int_longs;
  /* INT in C++: a floating-point literal (1.5f, 2.0, 1e3f); value holds the
   * IEEE-754 binary32 bits of the float it is, zero-extended */
  bool int_float;
} lt_token;

typedef struct lt_lexer {
  const lc_source *src;
  lc_diag *d;
  const char *p, *end;   /* next byte to read */
  int line;
  const char *bol;       /* first byte of the current line */
  lt_token t;            /* the current token */
  lt_token ahead;        /* valid when has_ahead */
  bool has_ahead;
  /* C++ mode (set by the parser after a `C` or `CUDA` header): words take
   * `::` instead of dots (`cuda::std::memory_order_relaxed` is one word),
   * `. * + - / % ^` are operators (`~` stays LT_TOK_NOT), so are
   * `-> ++ -- += -= &= |= ^= *= /= %= ?` (the longest match, as in C++), comments are
   * C's two kinds (not the parenthesised one: `(*x)` is code), and a `-`
   * joins a number only where no operand precedes it. */
  bool cpp;
  lt_tok_kind last;      /* the kind of the token read last (C++ mode) */
} lt_lexer;

/* Checks that the whole text is UTF-8 without NUL bytes (reporting the
 * first bad byte) and prepares to read it.  The current token is undefined
 * until the first lt_lex_next.  Returns 0 or -1. */
int lt_lex_init(lt_lexer *ls, const lc_source *src, lc_diag *d);

/* Reads the next token into ls->t.  Returns 0 or -1. */
int lt_lex_next(lt_lexer *ls);

/* Reads the token after ls->t into ls->ahead without consuming it. */
int lt_lex_peek(lt_lexer *ls);

/* Raw reads for the header, right after the current token (no lookahead
 * may be pending).  lt_lex_name reads the test name (letters, digits and
 * `+ - _ . ,`); lt_lex_doc reads everything up to the `{` that opens the
 * init block, skipping `{` inside "strings" and (* comments *), and returns
 * it trimmed (possibly empty).  Neither touches ls->t; after them the next
 * lt_lex_next reads the `{`. */
int lt_lex_name(lt_lexer *ls, lt_token *name);
int lt_lex_doc(lt_lexer *ls, const char **doc, size_t *len);

/* "'text'" for a token, or "end of file"; writes into buf (size n). */
const char *lt_tok_desc(const lt_token *t, char *buf, size_t n);

#endif
