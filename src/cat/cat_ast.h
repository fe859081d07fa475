/* cat_ast.h - the model language as written: tokens, syntax tree, parser.
 * SPDX-License-Identifier: MIT
 *
 * Internal to src/cat/ (and its unit tests).  The parser keeps what the
 * text says; names are resolved and types checked later by cat_load.c.
 * Every node carries the position of the token that identifies it (the
 * operator of a binary expression, the first token otherwise), so errors
 * found after parsing still point into the source.  All nodes and strings
 * of one file live in the arena given to cat_parse.
 */
#ifndef CAT_AST_H
#define CAT_AST_H

#include "cat/cat.h"

/* ---- tokens ------------------------------------------------------------ */

typedef enum {
  CAT_T_EOF,
  CAT_T_NAME, CAT_T_STRING,
  CAT_T_ZERO,      /* 0 */
  CAT_T_ALL,       /* _ */
  CAT_T_LPAREN, CAT_T_RPAREN, CAT_T_LBRACK, CAT_T_RBRACK, CAT_T_COMMA, CAT_T_EQ,
  CAT_T_BAR, CAT_T_SEMI, CAT_T_BSLASH, CAT_T_AMP, CAT_T_STAR,
  CAT_T_PLUS, CAT_T_QMARK, CAT_T_INV, /* ^-1 */ CAT_T_TILDE,
  /* keywords */
  CAT_T_LET, CAT_T_REC, CAT_T_AND, CAT_T_AS, CAT_T_INCLUDE,
  CAT_T_ACYCLIC, CAT_T_IRREFLEXIVE, CAT_T_EMPTY, CAT_T_FLAG,
  /* herd's functional sublanguage (`{`, `}`, `++`, `->`, `'tag`, a number
   * other than 0): read so that a definition using it can be skipped
   * whole (cat_parse.c, opaque definitions) */
  CAT_T_OTHER
} cat_tok_kind;

typedef struct cat_tok {
  cat_tok_kind kind;
  const char *text;   /* NAME: the name; STRING: the contents; else the spelling */
  lc_loc loc;
} cat_tok;

/* Splits text into tokens ending with CAT_T_EOF; strings live in `a`.
 * Returns the count, or 0 after reporting a lexical error to d. */
size_t cat_lex(lc_arena *a, const char *file, const char *text, size_t len,
               cat_tok **out, lc_diag *d);

/* How a token is named in messages: 'po', 'let', ';', "x.cat", end of file. */
void cat_tok_describe(lc_buf *b, const cat_tok *t);

/* ---- expressions --------------------------------------------------------- */

typedef enum {
  CAT_X_NAME,      /* name */
  CAT_X_ALL,       /* _ */
  CAT_X_ZERO,      /* 0 */
  CAT_X_UNION, CAT_X_SEQ, CAT_X_DIFF, CAT_X_INTER, CAT_X_PRODUCT,   /* a op b */
  CAT_X_COMPL,     /* ~a */
  CAT_X_PLUS, CAT_X_STAR, CAT_X_OPT, CAT_X_INV,                    /* a op */
  CAT_X_IDSET,     /* [a] */
  CAT_X_CALL,      /* name(args): user functions, domain, range, fencerel */
  CAT_X_LET,       /* let b1 and b2 ... in a */
  CAT_X_TRY        /* try a with b: a, unless a names what is not defined */
} cat_expr_kind;

typedef struct cat_expr {
  cat_expr_kind kind;
  lc_loc loc;
  const char *name;          /* NAME, CALL */
  struct cat_expr *a, *b;    /* operands */
  struct cat_expr **args;    /* CALL */
  size_t nargs;
  struct cat_binding *binds; /* LET */
  size_t nbinds;
  int height;                /* nodes on the longest path down (1: a leaf); the
                                parser bounds it, as every walk over it recurses */
} cat_expr;

/* ---- statements -------------------------------------------------------- */

typedef enum {
  CAT_S_LET,       /* let name = e */
  CAT_S_FUN,       /* let name(params) = e */
  CAT_S_REC,       /* let rec b1 and b2 ... */
  CAT_S_INCLUDE,   /* include "path" */
  CAT_S_CHECK,     /* acyclic|irreflexive|empty e as name; flag ~empty e as name */
  CAT_S_OPTION,    /* option name value1 value2 ...: params are the values */
  CAT_S_SHOW,      /* show ... / unshow ...: pictures in herd, nothing here */
  CAT_S_PROC,      /* procedure name(params) = body end */
  CAT_S_CALL,      /* call name(args) [as name] */
  CAT_S_IF,        /* if "variant" body [else els] end: `cond` is its value */
  CAT_S_WITH,      /* with name from e */
  CAT_S_COHERENCE, /* coherence total | coherence partial: name is the word */
  CAT_S_OPAQUE     /* a definition in herd's functional sublanguage: names only */
} cat_stmt_kind;

typedef struct cat_binding {
  const char *name;
  lc_loc loc;                /* of the name */
  cat_expr *e;
} cat_binding;

typedef struct cat_stmt {
  cat_stmt_kind kind;
  lc_loc loc;                /* first token */
  cat_binding *binds;        /* LET, FUN: one; REC: nbinds */
  size_t nbinds;
  const char **params;       /* FUN */
  lc_loc *param_locs;
  size_t nparams;
  const char *path;          /* INCLUDE */
  cat_check_kind check;      /* CHECK */
  bool flag;
  cat_expr *e;               /* CHECK */
  const char *name;          /* CHECK: the name after `as` (NULL: none); OPTION: the
                                option's name; PROC, CALL, WITH: the name it defines,
                                calls or binds; OPAQUE: what it cannot read;
                                COHERENCE: "total" or "partial" */
  lc_loc name_loc;           /* CHECK: of that name; INCLUDE: of the file name;
                                OPAQUE: of the construct it cannot read */
  bool undef;                /* CHECK: herd's `undefined_unless` (a flag) */
  bool asserted;             /* CHECK: herd's `assert` (a flag raised when it fails) */
  bool negated;              /* CHECK: herd's `~acyclic E`, ...: holds when the check fails */
  struct cat_stmt **body;    /* PROC; IF: the branch taken */
  size_t nbody;
  struct cat_expr **args;    /* CALL */
  size_t nargs;
  const char *as;            /* CALL: the name after `as`, or NULL */
  bool cond;                 /* IF: the variant condition's value (variants are unset) */
} cat_stmt;

typedef struct cat_file {
  const char *model_name;    /* header string or name; NULL when absent */
  const char *header_word;   /* the header's first word (herd's architecture when it
                                has two: `AArch64 ...`, `C RC11`), or NULL */
  cat_stmt **stmts;
  size_t nstmts;
} cat_file;

/* Parses one file.  `file` is the name positions carry (borrowed: it must
 * outlive the tree).  Returns NULL after reporting the first error to d. */
cat_file *cat_parse(lc_arena *a, const char *file, const char *text, size_t len, lc_diag *d);
/* The same with herd's variants `variants` (NULL-terminated) set: an
 * `if "v"` takes its then-branch for those (cat_load: settings "variant:v"). */
cat_file *cat_parse_variants(lc_arena *a, const char *file, const char *text, size_t len,
                             const char *const *variants, lc_diag *d);

/* Fully parenthesised form of an expression, e.g. `(a | (b ; (c & d)))`,
 * `po*`, `~(a | b)`, `[W]`, `f(a, b)`; tests use it to pin precedence. */
void cat_expr_print(lc_buf *b, const cat_expr *e);

#endif
