/* kn_int.h - what the kernel reader's two halves share: tokens, the
 * preprocessor (kn_pp.c) and the error exit.
 * SPDX-License-Identifier: MIT
 */
#ifndef KN_INT_H
#define KN_INT_H

#include <setjmp.h>

#include "kernel/kernel.h"

typedef enum { KT_EOF, KT_ID, KT_NUM, KT_STR, KT_CHR, KT_PUNCT } kn_tok_kind;

typedef struct kn_tok {
  kn_tok_kind kind;
  const char *s;       /* text (into the source or the arena), not NUL-terminated */
  size_t n;
  int line, col;       /* where it was written (a macro's tokens: where the macro was used) */
  int lline;           /* logical line (a backslash-newline continues it): directives end there */
  bool bol;            /* first token of its logical line */
} kn_tok;

typedef LC_VEC(kn_tok) kn_toks;

/* A header comment `// @Launch: ...`: its text and where the text starts. */
typedef struct kn_header {
  const char *text;
  int line, col;
} kn_header;

typedef struct kn_reader {
  const lc_source *src;
  const kn_options *o;
  lc_diag *d;
  lc_arena *a;
  jmp_buf fail;
  kn_toks toks;        /* the file after preprocessing, ending in KT_EOF */
  LC_VEC(kn_header) launch, input, output, filter;
} kn_reader;

LC_NORETURN void kn_error(kn_reader *K, int line, int col, const char *fmt, ...) LC_PRINTF(4, 5);
bool kn_is(const kn_tok *t, const char *s);
char *kn_str(kn_reader *K, const kn_tok *t);

/* Tokenises and preprocesses K->src into K->toks and collects the header
 * comments.  Errors leave through K->fail. */
void kn_preprocess(kn_reader *K);

/* Evaluates a constant integer expression toks[*i ..] (C's operators),
 * advancing *i; `defined` and unknown names only where pp is set. */
int64_t kn_const_expr(kn_reader *K, const kn_tok *toks, size_t n, size_t *i, bool pp);

/* The block's collectives (kn_coll.c): __syncthreads_count, _and, _or. */
typedef enum { KN_COLL_NONE, KN_COLL_COUNT, KN_COLL_AND, KN_COLL_OR } kn_coll;
#define KN_COLL_SLOTS "__votes"   /* the __shared__ arrays they combine through: __votes_LlineCcol */

kn_coll kn_coll_of(const kn_tok *t);

/* The statements of one call by thread tid of a block of n threads, whose
 * predicate is the text pred and whose value goes to target (NULL: the
 * value is not used), the block's slots named `slots`. */
void kn_coll_block(lc_buf *b, kn_coll c, const char *slots, int tid, int n, const char *target, const char *pred);

/* Bytes of one element of type (as written, `volatile` allowed); 0 when
 * not known.  Sizes an extern __shared__ array by the launch. */
int kn_type_size(const char *type);

#endif
