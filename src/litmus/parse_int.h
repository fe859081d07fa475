/* parse_int.h - what the PTX parser (parse.c) shares with the C++ parser
 * (cpp_parse.c): the parser state, error handling, token helpers (parse_kit.c), the
 * placement keywords and the tail (locations, filter, condition).
 * SPDX-License-Identifier: MIT
 *
 * Every lt_p_ function that finds an error reports it and longjmps to
 * ps->fail; nothing the parser allocates needs freeing on the way (all of
 * it lives in the test's arena).
 */
#ifndef LT_PARSE_INT_H
#define LT_PARSE_INT_H

#include <setjmp.h>

#include "litmus/ast.h"
#include "litmus/lex.h"

/* Propositions may nest (parentheses, negations, chains of /\ and \/) at
 * most this deep: every later pass walks them recursively. */
#define MAX_PROP_DEPTH 1000

typedef struct parser parser;

struct parser {
  lt_lexer ls;
  lc_diag *d;
  lt_test *t;
  lc_arena *a;
  size_t *cellcap;     /* capacity of threads[i].cells */
  int nest;            /* current depth of ( and ~ */
  jmp_buf fail;
  char desc[64];
  /* C++ tests: the number of local `name` of thread `thread` in a
   * condition's `thread:name` (reports the error itself).  NULL for PTX. */
  int (*local_reg)(parser *ps, int thread, const lt_token *name);
  void *cpp;           /* the C++ parser's own state */
  lc_loc after;        /* just after the token before TOK (a missing ';' is reported there) */
};

#define TOK (ps->ls.t)

LC_NORETURN void lt_p_error(parser *ps, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);
void lt_p_next(parser *ps);
/* Like lt_p_expect for a token that ends a statement (';'): when TOK is on
 * a later line, the error is at the end of the line before, where the
 * token was forgotten, not at whatever begins the next. */
void lt_p_expect_end(parser *ps, lt_tok_kind kind, const char *what);
const lt_token *lt_p_peek(parser *ps);
const char *lt_p_desc(parser *ps, const lt_token *t);
void lt_p_expect(parser *ps, lt_tok_kind kind, const char *what);
/* Like expect for a closing bracket, naming the opening one when it is on
 * another line (Lua's check_match). */
void lt_p_check_match(parser *ps, lt_tok_kind kind, const char *close, const char *open, lc_loc at);
bool lt_p_is_word(parser *ps, const char *w);
/* A word without dots: a location or label name. */
bool lt_p_is_name(const lt_token *t);
const char *lt_p_str(parser *ps, const lt_token *t);
/* name -> WORD without dots */
const char *lt_p_location(parser *ps, const char *what);
/* placement number: KEYWORD INT */
int lt_p_place_id(parser *ps, const char *kw);
/* A thread's placement after its '@': 'cta' N [',' 'cluster' N] ',' 'gpu' N,
 * the same in both dialects. */
void lt_p_placement(parser *ps, lt_thread *th);
/* tail -> [locations] ['filter' prop] cond EOF */
void lt_p_tail(parser *ps);

/* Arena-backed growable arrays: PUSH returns a zeroed new last element. */
void *lt_p_grow(parser *ps, void *old, size_t *cap, size_t size);
#define PUSH(ps, arr, n, cap) \
  ((n) == (cap) ? (void)((arr) = lt_p_grow((ps), (arr), &(cap), sizeof *(arr))) : (void)0, &(arr)[(n)++])

/* cpp_parse.c: everything of a C++ test between its header and its tail
 * (init block, threads), and the compilation of its bodies to cells. */
void lt_cpp_parse_body(parser *ps);
void lt_cpp_finish(parser *ps);

/* gpu_ptx.c: herd's legacy GPU_PTX dialect.  Does src start with GPU_PTX?
 * Its text rewritten into the PTX dialect line for line (new), or NULL
 * with *err and *at on a malformed scope tree. */
bool lt_gpu_ptx_is(const lc_source *src);
char *lt_gpu_ptx_rewrite(const lc_source *src, lc_loc *at, const char **err);

#endif
