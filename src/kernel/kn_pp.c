/* kn_pp.c - a kernel file's tokens and its preprocessor.
 * SPDX-License-Identifier: MIT
 *
 * A small preprocessor of our own rather than `cpp` or nvcc -E: a kernel
 * is checked without the CUDA headers (they declare what the C++ dialect
 * already knows by name), positions must stay those of the file the user
 * wrote, and the checker must not run programs on its input.  It does
 * what kernels use: #include of the known headers (skipped), #define of
 * object-like and function-like macros (no # or ##), #undef, #if, #ifdef,
 * #ifndef, #elif, #else, #endif, #pragma (ignored), #error, and -D.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kn_int.h"

#define MAX_IF 64        /* #if nesting */
#define MAX_EXPAND 64    /* macros expanding inside macros */
#define MAX_EXPR 200     /* parentheses in a constant expression */
#define MAX_TOKENS 2000000

void kn_error(kn_reader *K, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lc_vreport(K->d, LC_SEV_ERROR, (lc_loc){K->src->name, line, col}, fmt, ap);
  va_end(ap);
  longjmp(K->fail, 1);
}

bool kn_is(const kn_tok *t, const char *s) {
  return t->kind != KT_EOF && t->kind != KT_STR && strlen(s) == t->n && memcmp(t->s, s, t->n) == 0;
}

char *kn_str(kn_reader *K, const kn_tok *t) { return lc_arena_strndup(K->a, t->s, t->n); }

/* ---- tokens ---------------------------------------------------------------------- */

static const char *const PUNCT3[] = {"<<=", ">>=", "..."};
static const char *const PUNCT2[] = {"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
                                     "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};

static bool id_start(int c) { return isalpha(c) || c == '_'; }
static bool id_char(int c) { return isalnum(c) || c == '_'; }

/* `// @Launch: <<<2, 1>>>` and its siblings (Dartagnan's @Config too). */
static void header_comment(kn_reader *K, const char *p, const char *eol, int line, const char *bol) {
  while (p < eol && (*p == ' ' || *p == '\t')) p++;
  if (p >= eol || *p != '@') return;
  static const char *const names[] = {"Launch:", "Input:", "Output:", "Filter:"};
  for (size_t k = 0; k < LC_ARRAY_LEN(names); k++) {
    size_t n = strlen(names[k]);
    if ((size_t)(eol - p - 1) < n || memcmp(p + 1, names[k], n) != 0) continue;
    const char *v = p + 1 + n;
    while (v < eol && (*v == ' ' || *v == '\t')) v++;
    const char *end = eol;
    while (end > v && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
    kn_header h = {lc_arena_strndup(K->a, v, (size_t)(end - v)), line, (int)(v - bol) + 1};
    if (k == 0) lc_vec_push(&K->launch, h);
    if (k == 1) lc_vec_push(&K->input, h);
    if (k == 2) lc_vec_push(&K->output, h);
    if (k == 3) lc_vec_push(&K->filter, h);
  }
}

/* Splits the text into tokens; `a::b::c` (no spaces) is one identifier,
 * as the litmus lexer reads it. */
static void tokenize(kn_reader *K, kn_toks *out) {
  const char *p = K->src->text, *end = p + K->src->len, *bol = p;
  int line = 1, lline = 1;
  bool at_bol = true;
  while (p < end) {
    int c = (unsigned char)*p;
    if (c == '\n') {
      line++, lline++;
      bol = ++p;
      at_bol = true;
      continue;
    }
    if (c == '\\' && p + 1 < end && (p[1] == '\n' || (p[1] == '\r' && p + 2 < end && p[2] == '\n'))) {
      p += p[1] == '\n' ? 2 : 3;   /* continues the logical line */
      line++;
      bol = p;
      continue;
    }
    if (isspace(c)) {
      p++;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '/') {
      const char *eol = p;
      while (eol < end && *eol != '\n') eol++;
      header_comment(K, p + 2, eol, line, bol);
      p = eol;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '*') {
      int l0 = line, c0 = (int)(p - bol) + 1;
      p += 2;
      while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
        if (*p == '\n') line++, lline++, bol = p + 1;
        p++;
      }
      if (p + 1 >= end) kn_error(K, l0, c0, "unterminated comment");
      p += 2;
      continue;
    }
    if (out->n >= MAX_TOKENS) kn_error(K, line, (int)(p - bol) + 1, "more than %d tokens", MAX_TOKENS);
    kn_tok t = {KT_PUNCT, p, 1, line, (int)(p - bol) + 1, lline, at_bol};
    at_bol = false;
    if (id_start(c)) {
      const char *q = p;
      for (;;) {
        while (q < end && id_char((unsigned char)*q)) q++;
        if (q + 2 < end && q[0] == ':' && q[1] == ':' && id_start((unsigned char)q[2])) q += 2;
        else break;
      }
      t.kind = KT_ID;
      t.n = (size_t)(q - p);
    } else if (c == ':' && p + 2 < end && p[1] == ':' && id_start((unsigned char)p[2])) {
      const char *q = p + 2;   /* ::name, the global namespace */
      for (;;) {
        while (q < end && id_char((unsigned char)*q)) q++;
        if (q + 2 < end && q[0] == ':' && q[1] == ':' && id_start((unsigned char)q[2])) q += 2;
        else break;
      }
      t.kind = KT_ID;
      t.s = p + 2;
      t.n = (size_t)(q - p - 2);
      p = q;
      lc_vec_push(out, t);
      continue;
    } else if (isdigit(c) || (c == '.' && p + 1 < end && isdigit((unsigned char)p[1]))) {
      const char *q = p;
      while (q < end && (isalnum((unsigned char)*q) || *q == '.' || *q == '_' ||
                         ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E') &&
                          !(p[0] == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X')))))
        q++;
      t.kind = KT_NUM;
      t.n = (size_t)(q - p);
    } else if (c == '"' || c == '\'') {
      const char *q = p + 1;
      while (q < end && *q != c && *q != '\n') q += (*q == '\\' && q + 1 < end) ? 2 : 1;
      if (q >= end || *q != c)
        kn_error(K, line, t.col, "unterminated %s literal", c == '"' ? "string" : "character");
      t.kind = c == '"' ? KT_STR : KT_CHR;
      t.n = (size_t)(q + 1 - p);
    } else {
      for (size_t k = 0; k < LC_ARRAY_LEN(PUNCT3) && t.n == 1; k++)
        if (end - p >= 3 && memcmp(p, PUNCT3[k], 3) == 0) t.n = 3;
      for (size_t k = 0; k < LC_ARRAY_LEN(PUNCT2) && t.n == 1; k++)
        if (end - p >= 2 && memcmp(p, PUNCT2[k], 2) == 0) t.n = 2;
      if (t.n == 1 && !strchr("{}()[];,.:?~!+-*/%^&|<>=#", c))
        kn_error(K, line, t.col, "unexpected character '%c'", isprint(c) ? c : '?');
    }
    p = t.s + t.n;
    lc_vec_push(out, t);
  }
  kn_tok eof = {KT_EOF, "", 0, line, (int)(p - bol) + 1, lline + 1, true};
  lc_vec_push(out, eof);
}

/* ---- constant expressions ----------------------------------------------------------- */

typedef struct cexpr {
  kn_reader *K;
  const kn_tok *t;
  size_t n, i;
  bool pp;
  int depth;
} cexpr;

static int64_t ce_cond(cexpr *c);

static const kn_tok *ce_tok(cexpr *c) { return &c->t[c->i < c->n ? c->i : c->n - 1]; }

static int64_t number(kn_reader *K, const kn_tok *t) {
  char buf[64];
  size_t n = t->n < sizeof buf - 1 ? t->n : sizeof buf - 1;
  memcpy(buf, t->s, n);
  buf[n] = 0;
  char *e;
  unsigned long long v = strtoull(buf, &e, 0);
  while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L') e++;
  if (*e) kn_error(K, t->line, t->col, "'%s' is not an integer (floating-point values are not modelled)", buf);
  return (int64_t)v;
}

static int64_t char_value(kn_reader *K, const kn_tok *t) {
  if (t->n == 3) return (unsigned char)t->s[1];
  if (t->n == 4 && t->s[1] == '\\') {
    switch (t->s[2]) {
    case 'n': return '\n';
    case 't': return '\t';
    case '0': return 0;
    case '\\': return '\\';
    case '\'': return '\'';
    default: break;
    }
  }
  kn_error(K, t->line, t->col, "character literal %.*s is not modelled", (int)t->n, t->s);
}

static int64_t ce_primary(cexpr *c) {
  const kn_tok *t = ce_tok(c);
  if (kn_is(t, "(")) {
    if (++c->depth > MAX_EXPR) kn_error(c->K, t->line, t->col, "parentheses nest too deep");
    c->i++;
    int64_t v = ce_cond(c);
    if (!kn_is(ce_tok(c), ")")) kn_error(c->K, ce_tok(c)->line, ce_tok(c)->col, "expected ')' to close '(' at line %d", t->line);
    c->i++;
    c->depth--;
    return v;
  }
  if (kn_is(t, "!") || kn_is(t, "-") || kn_is(t, "~") || kn_is(t, "+")) {
    if (++c->depth > MAX_EXPR) kn_error(c->K, t->line, t->col, "operators nest too deep");
    c->i++;
    int64_t v = ce_primary(c);
    c->depth--;
    return kn_is(t, "!") ? !v : kn_is(t, "-") ? (int64_t)(0 - (uint64_t)v) : kn_is(t, "~") ? ~v : v;
  }
  if (t->kind == KT_NUM) {
    c->i++;
    return number(c->K, t);
  }
  if (t->kind == KT_CHR) {
    c->i++;
    return char_value(c->K, t);
  }
  if (t->kind == KT_ID && c->pp) {   /* what is left of a name after expansion is 0 (C11 6.10.1) */
    c->i++;
    if (kn_is(t, "true")) return 1;
    return 0;
  }
  if (kn_is(t, "true") || kn_is(t, "false")) {
    c->i++;
    return kn_is(t, "true");
  }
  if (t->kind == KT_EOF || c->i >= c->n) kn_error(c->K, t->line, t->col, "expected a constant expression");
  kn_error(c->K, t->line, t->col, "expected a constant, found '%.*s'", (int)t->n, t->s);
}

/* Binary operators by C's precedence, loosest first. */
static const char *const LEVELS[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"},
    {"*", "/", "%"}};

static int64_t ce_binary(cexpr *c, size_t level) {
  if (level == LC_ARRAY_LEN(LEVELS)) return ce_primary(c);
  int64_t v = ce_binary(c, level + 1);
  for (;;) {
    const kn_tok *t = ce_tok(c);
    const char *op = NULL;
    for (size_t k = 0; k < 4 && LEVELS[level][k]; k++)
      if (c->i < c->n && t->kind == KT_PUNCT && kn_is(t, LEVELS[level][k])) op = LEVELS[level][k];
    if (!op) return v;
    c->i++;
    int64_t w = ce_binary(c, level + 1);
    uint64_t a = (uint64_t)v, b = (uint64_t)w;
    if (!strcmp(op, "||")) v = v || w;
    else if (!strcmp(op, "&&")) v = v && w;
    else if (!strcmp(op, "|")) v = (int64_t)(a | b);
    else if (!strcmp(op, "^")) v = (int64_t)(a ^ b);
    else if (!strcmp(op, "&")) v = (int64_t)(a & b);
    else if (!strcmp(op, "==")) v = v == w;
    else if (!strcmp(op, "!=")) v = v != w;
    else if (!strcmp(op, "<")) v = v < w;
    else if (!strcmp(op, ">")) v = v > w;
    else if (!strcmp(op, "<=")) v = v <= w;
    else if (!strcmp(op, ">=")) v = v >= w;
    else if (!strcmp(op, "<<")) v = (int64_t)(a << (b & 63));
    else if (!strcmp(op, ">>")) v = v >> (b & 63);
    else if (!strcmp(op, "+")) v = (int64_t)(a + b);
    else if (!strcmp(op, "-")) v = (int64_t)(a - b);
    else if (!strcmp(op, "*")) v = (int64_t)(a * b);
    else {
      if (w == 0) kn_error(c->K, t->line, t->col, "division by zero in a constant expression");
      if (v == INT64_MIN && w == -1) v = !strcmp(op, "/") ? v : 0;
      else v = !strcmp(op, "/") ? v / w : v % w;
    }
  }
}

static int64_t ce_cond(cexpr *c) {
  int64_t v = ce_binary(c, 0);
  const kn_tok *q = ce_tok(c);
  if (c->i < c->n && kn_is(q, "?")) {
    if (++c->depth > MAX_EXPR) kn_error(c->K, q->line, q->col, "'?' nests too deep");
    c->i++;
    int64_t a = ce_cond(c);
    if (!kn_is(ce_tok(c), ":")) kn_error(c->K, ce_tok(c)->line, ce_tok(c)->col, "expected ':' after '?'");
    c->i++;
    int64_t b = ce_cond(c);
    c->depth--;
    return v ? a : b;
  }
  return v;
}

int64_t kn_const_expr(kn_reader *K, const kn_tok *toks, size_t n, size_t *i, bool pp) {
  cexpr c = {K, toks, n, *i, pp, 0};
  int64_t v = ce_cond(&c);
  *i = c.i;
  return v;
}

/* ---- macros ------------------------------------------------------------------------ */

typedef struct macro {
  const kn_tok *name;
  bool func;
  LC_VEC(const kn_tok *) params;
  kn_toks body;
  bool active;       /* being expanded (a macro never expands inside itself) */
} macro;

typedef struct cond {
  bool active;    /* lines here are read */
  bool taken;     /* a branch of this #if was taken */
  bool seen_else;
  int line, col;
} cond;

typedef struct pp {
  kn_reader *K;
  cond conds[MAX_IF];
  int nconds;
  LC_VEC(macro) macros;
  kn_toks out;
  kn_toks scratch;   /* an #if line being read */
  int depth;
} pp;

static macro *find_macro(pp *P, const kn_tok *t) {
  if (t->kind != KT_ID) return NULL;
  for (size_t i = P->macros.n; i-- > 0;)
    if (P->macros.v[i].name && P->macros.v[i].name->n == t->n && memcmp(P->macros.v[i].name->s, t->s, t->n) == 0)
      return &P->macros.v[i];
  return NULL;
}

static void undef(pp *P, const kn_tok *t) {
  macro *m = find_macro(P, t);
  if (m) m->name = NULL;
}

static void define(pp *P, const kn_tok *t, size_t n) {
  kn_reader *K = P->K;
  if (n == 0 || t[0].kind != KT_ID) kn_error(K, t[-1].line, t[-1].col, "#define needs a name");
  undef(P, &t[0]);
  /* pushed first and filled there: an error half-way leaves it to the
   * macros kn_preprocess frees */
  macro blank = {0};
  lc_vec_push(&P->macros, blank);
  macro *m = &P->macros.v[P->macros.n - 1];
  size_t i = 1;
  /* a function-like macro has its '(' right after the name */
  if (n > 1 && kn_is(&t[1], "(") && t[1].col == t[0].col + (int)t[0].n && t[1].line == t[0].line) {
    m->func = true;
    i = 2;
    while (i < n && !kn_is(&t[i], ")")) {
      if (t[i].kind != KT_ID) kn_error(K, t[i].line, t[i].col, "expected a macro parameter name");
      lc_vec_push(&m->params, &t[i]);
      i++;
      if (i < n && kn_is(&t[i], ",")) i++;
    }
    if (i >= n) kn_error(K, t[0].line, t[0].col, "unterminated parameter list of macro '%.*s'", (int)t[0].n, t[0].s);
    i++;
  }
  for (; i < n; i++) {
    if (kn_is(&t[i], "#") || kn_is(&t[i], "##"))
      kn_error(K, t[i].line, t[i].col, "'%.*s' in a macro is not supported", (int)t[i].n, t[i].s);
    lc_vec_push(&m->body, t[i]);
  }
  m->name = &t[0];   /* defined once whole */
}

/* Appends t, expanding macros; toks[*i] is a name or a token, and a
 * function-like macro's arguments follow it in toks[.. n). */
static void expand(pp *P, const kn_tok *toks, size_t n, size_t *i, const kn_tok *use);

static void expand_list(pp *P, const kn_tok *toks, size_t n, const kn_tok *use) {
  for (size_t i = 0; i < n;) expand(P, toks, n, &i, use);
}

/* NV_IF_TARGET(Q, (then)[, (else)]) and NV_IF_ELSE_TARGET(Q, (then),
 * (else)) of <nv/target>: the branch the --sm target (a device) takes,
 * without its parentheses.  Q is NV_PROVIDES_SM_N, NV_IS_EXACTLY_SM_N,
 * NV_IS_DEVICE, NV_IS_HOST, NV_ANY_TARGET or NV_NO_TARGET.  Written here:
 * <nv/target> builds these from macros the preprocessor does not read. */
static bool nv_target(pp *P, const kn_tok *toks, size_t n, size_t *i, const kn_tok *use) {
  kn_reader *K = P->K;
  const kn_tok *t = &toks[*i];
  if (!(kn_is(t, "NV_IF_TARGET") || kn_is(t, "NV_IF_ELSE_TARGET")) || *i + 1 >= n || !kn_is(&toks[*i + 1], "("))
    return false;
  size_t open = *i + 1, k = open, depth = 0, cuts[4], ncuts = 0;
  for (; k < n; k++) {
    if (kn_is(&toks[k], "(")) depth++;
    else if (kn_is(&toks[k], ")") && --depth == 0) break;
    else if (kn_is(&toks[k], ",") && depth == 1) {
      if (ncuts == 3) kn_error(K, toks[k].line, toks[k].col, "%.*s takes at most 3 arguments", (int)t->n, t->s);
      cuts[ncuts++] = k;
    }
  }
  if (k >= n) kn_error(K, t->line, t->col, "unterminated call of '%.*s'", (int)t->n, t->s);
  if (ncuts < 1) kn_error(K, t->line, t->col, "%.*s(QUERY, (CODE)[, (CODE)])", (int)t->n, t->s);
  cuts[ncuts] = k;
  const kn_tok *q = &toks[open + 1];
  if (cuts[0] != open + 2 || q->kind != KT_ID)
    kn_error(K, q->line, q->col, "expected NV_PROVIDES_SM_N, NV_IS_EXACTLY_SM_N, NV_IS_DEVICE or NV_IS_HOST");
  int sm = K->o && K->o->sm ? K->o->sm : 70;
  bool yes;
  char *w = kn_str(K, q);
  if (!strncmp(w, "NV_PROVIDES_SM_", 15) && isdigit((unsigned char)w[15])) yes = sm >= atoi(w + 15);
  else if (!strncmp(w, "NV_IS_EXACTLY_SM_", 17) && isdigit((unsigned char)w[17])) yes = sm == atoi(w + 17);
  else if (!strcmp(w, "NV_IS_DEVICE") || !strcmp(w, "NV_ANY_TARGET")) yes = true;
  else if (!strcmp(w, "NV_IS_HOST") || !strcmp(w, "NV_NO_TARGET")) yes = false;
  else kn_error(K, q->line, q->col, "'%s' is not a target query of <nv/target> read here", w);
  size_t arg = yes ? 1 : 2;
  *i = k + 1;
  if (arg > ncuts) return true;   /* no else branch */
  size_t from = cuts[arg - 1] + 1, to = cuts[arg];
  if (to <= from || !kn_is(&toks[from], "(") || !kn_is(&toks[to - 1], ")"))
    kn_error(K, toks[from < n ? from : k].line, toks[from < n ? from : k].col, "expected (CODE) in %.*s",
             (int)t->n, t->s);
  if (P->depth >= MAX_EXPAND) kn_error(K, t->line, t->col, "macros expand more than %d deep", MAX_EXPAND);
  P->depth++;
  expand_list(P, toks + from + 1, to - from - 2, use);
  P->depth--;
  return true;
}

static void expand(pp *P, const kn_tok *toks, size_t n, size_t *i, const kn_tok *use) {
  kn_reader *K = P->K;
  const kn_tok *t = &toks[*i];
  macro *m = find_macro(P, t);
  if (!m && nv_target(P, toks, n, i, use)) return;
  if (!m || m->active || (m->func && (*i + 1 >= n || !kn_is(&toks[*i + 1], "(")))) {
    kn_tok c = *t;
    if (use) c.line = use->line, c.col = use->col;
    if (P->out.n >= MAX_TOKENS) kn_error(K, c.line, c.col, "more than %d tokens after macro expansion", MAX_TOKENS);
    lc_vec_push(&P->out, c);
    (*i)++;
    return;
  }
  if (P->depth >= MAX_EXPAND) kn_error(K, t->line, t->col, "macros expand more than %d deep", MAX_EXPAND);
  const kn_tok *at = use ? use : t;
  (*i)++;
  P->depth++;
  m->active = true;
  if (!m->func) {
    expand_list(P, m->body.v, m->body.n, at);
  } else {
    /* the arguments: toks between the parentheses, split at top-level
     * commas (the cuts live in the arena: an error leaves by longjmp) */
    size_t open = *i, depth = 0, k = open, ncommas = 0;
    for (; k < n; k++) {
      if (kn_is(&toks[k], "(")) depth++;
      else if (kn_is(&toks[k], ")") && --depth == 0) break;
      else if (kn_is(&toks[k], ",") && depth == 1) ncommas++;
    }
    if (k >= n) kn_error(K, t->line, t->col, "unterminated call of macro '%.*s'", (int)t->n, t->s);
    struct { size_t *v, n; } cuts = {lc_arena_alloc(K->a, (ncommas + 1) * sizeof(size_t)), 0};
    depth = 0;
    for (size_t q = open; q < k; q++) {
      if (kn_is(&toks[q], "(")) depth++;
      else if (kn_is(&toks[q], ")")) depth--;
      else if (kn_is(&toks[q], ",") && depth == 1) cuts.v[cuts.n++] = q;
    }
    size_t nargs = (k == open + 1) ? 0 : cuts.n + 1;
    if (nargs != m->params.n)
      kn_error(K, t->line, t->col, "macro '%.*s' takes %zu arguments, given %zu", (int)t->n, t->s, m->params.n, nargs);
    for (size_t b = 0; b < m->body.n;) {
      size_t p = 0;
      for (; p < m->params.n; p++)
        if (m->body.v[b].kind == KT_ID && m->body.v[b].n == m->params.v[p]->n &&
            memcmp(m->body.v[b].s, m->params.v[p]->s, m->body.v[b].n) == 0)
          break;
      if (p == m->params.n) {
        expand(P, m->body.v, m->body.n, &b, at);
        continue;
      }
      size_t from = p == 0 ? open + 1 : cuts.v[p - 1] + 1, to = p + 1 < nargs ? cuts.v[p] : k;
      m->active = false;   /* an argument is expanded as if outside the macro */
      expand_list(P, toks + from, to - from, at);
      m->active = true;
      b++;
    }
    *i = k + 1;
  }
  m->active = false;
  P->depth--;
}

/* ---- directives ----------------------------------------------------------------------- */

/* The CUDA and C headers a kernel includes: what they declare is known to
 * the reader by name, so they are not read. */
static const char *const KNOWN_HEADERS[] = {
    "cuda/atomic", "cuda/std/atomic", "cuda/barrier", "cuda/std/barrier", "cuda/semaphore",
    "cuda/std/semaphore", "cuda/latch", "cuda/std/latch", "cuda/std/cstdint", "cuda/std/cstddef",
    "cuda/std/type_traits", "cuda/annotated_ptr", "cooperative_groups.h", "cooperative_groups/reduce.h",
    "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h", "device_functions.h",
    "sm_60_atomic_functions.h", "cassert", "assert.h", "cstdio", "stdio.h", "cstdint", "stdint.h", "cstdlib",
    "stdlib.h", "cstddef", "stddef.h", "climits", "limits.h", "cstring", "string.h", "atomic", "stdatomic.h",
    "nv/target", "helper_cuda.h", "iostream", "vector", "algorithm"};


static size_t line_end(const kn_toks *in, size_t i) {
  size_t j = i;
  while (j < in->n && in->v[j].kind != KT_EOF && in->v[j].lline == in->v[i].lline) j++;
  return j;
}

/* The tokens of an #if line with `defined X` and `defined(X)` replaced and macros expanded. */
static int64_t pp_if(pp *P, const kn_tok *t, size_t n, const kn_tok *dir) {
  kn_reader *K = P->K;
  kn_toks *pre = &P->scratch;   /* freed by kn_preprocess, an error or not */
  pre->n = 0;
  for (size_t i = 0; i < n; i++) {
    if (kn_is(&t[i], "defined")) {
      size_t j = i + 1;
      bool paren = j < n && kn_is(&t[j], "(");
      if (paren) j++;
      if (j >= n || t[j].kind != KT_ID) kn_error(K, t[i].line, t[i].col, "'defined' needs a macro name");
      kn_tok v = t[i];
      v.kind = KT_NUM;
      v.s = find_macro(P, &t[j]) ? "1" : "0";
      v.n = 1;
      lc_vec_push(pre, v);
      i = j + (paren ? 1 : 0);
      continue;
    }
    lc_vec_push(pre, t[i]);
  }
  size_t before = P->out.n;
  for (size_t i = 0; i < pre->n;) expand(P, pre->v, pre->n, &i, NULL);
  size_t i = before;
  if (i == P->out.n) {
    P->out.n = before;
    kn_error(K, dir->line, dir->col, "#%.*s without an expression", (int)dir->n, dir->s);
  }
  int64_t v = kn_const_expr(K, P->out.v + before, P->out.n - before, &(size_t){0}, true);
  P->out.n = before;
  return v;
}

static void directive(pp *P, const kn_toks *in, size_t i, size_t end, cond *conds, int *nconds) {
  kn_reader *K = P->K;
  const kn_tok *hash = &in->v[i];
  if (i + 1 >= end) return;   /* the null directive */
  const kn_tok *d = &in->v[i + 1];
  const kn_tok *rest = &in->v[i + 2];
  size_t nrest = end - i - 2;
  bool active = *nconds == 0 || conds[*nconds - 1].active;
  if (kn_is(d, "if") || kn_is(d, "ifdef") || kn_is(d, "ifndef")) {
    if (*nconds >= MAX_IF) kn_error(K, d->line, d->col, "#if nests more than %d deep", MAX_IF);
    bool v = false;
    if (active) {
      if (kn_is(d, "if")) {
        v = pp_if(P, rest, nrest, d) != 0;
      } else {
        if (nrest == 0 || rest[0].kind != KT_ID) kn_error(K, d->line, d->col, "#%.*s needs a macro name", (int)d->n, d->s);
        v = (find_macro(P, &rest[0]) != NULL) == kn_is(d, "ifdef");
      }
    }
    conds[(*nconds)++] = (cond){active && v, active && v, false, hash->line, hash->col};
    return;
  }
  if (kn_is(d, "elif") || kn_is(d, "else") || kn_is(d, "endif")) {
    if (*nconds == 0) kn_error(K, d->line, d->col, "#%.*s without #if", (int)d->n, d->s);
    cond *c = &conds[*nconds - 1];
    bool outer = *nconds < 2 || conds[*nconds - 2].active;
    if (kn_is(d, "endif")) {
      (*nconds)--;
    } else if (c->seen_else) {
      kn_error(K, d->line, d->col, "#%.*s after #else", (int)d->n, d->s);
    } else if (kn_is(d, "else")) {
      c->seen_else = true;
      c->active = outer && !c->taken;
      c->taken = c->taken || c->active;
    } else {
      c->active = outer && !c->taken && pp_if(P, rest, nrest, d) != 0;
      c->taken = c->taken || c->active;
    }
    return;
  }
  if (!active) return;
  if (kn_is(d, "define")) {
    define(P, rest, nrest);
  } else if (kn_is(d, "undef")) {
    if (nrest > 0) undef(P, &rest[0]);
  } else if (kn_is(d, "include")) {
    if (nrest >= 1 && rest[0].kind == KT_STR)
      kn_error(K, rest[0].line, rest[0].col, "#include %.*s: a kernel file is read alone (put what it needs in the file)",
               (int)rest[0].n, rest[0].s);
    if (nrest < 3 || !kn_is(&rest[0], "<") || !kn_is(&rest[nrest - 1], ">"))
      kn_error(K, d->line, d->col, "expected #include <header>");
    /* the header's name, as written between < and > */
    const char *s = rest[1].s, *e = rest[nrest - 1].s;
    for (size_t k = 0; k < LC_ARRAY_LEN(KNOWN_HEADERS); k++)
      if (strlen(KNOWN_HEADERS[k]) == (size_t)(e - s) && memcmp(KNOWN_HEADERS[k], s, (size_t)(e - s)) == 0) return;
    kn_error(K, rest[1].line, rest[1].col, "unknown header <%.*s>: the CUDA and C standard headers are known "
             "(docs/kernels.md), others are not read", (int)(e - s), s);
  } else if (kn_is(d, "pragma") || kn_is(d, "line") || kn_is(d, "warning")) {
    /* nothing to model: #pragma unroll changes no semantics */
  } else if (kn_is(d, "error")) {
    kn_error(K, hash->line, hash->col, "#error%s%.*s", nrest ? " " : "",
             nrest ? (int)(in->v[end - 1].s + in->v[end - 1].n - rest[0].s) : 0, nrest ? rest[0].s : "");
  } else {
    kn_error(K, d->line, d->col, "unknown directive #%.*s", (int)d->n, d->s);
  }
}

static void add_define(pp *P, const char *def, kn_toks *keep) {
  /* -D NAME[=VALUE]: a line `#define NAME VALUE` (VALUE 1 when not given) */
  kn_reader *K = P->K;
  const char *eq = strchr(def, '=');
  size_t nlen = eq ? (size_t)(eq - def) : strlen(def);
  if (nlen == 0 || !id_start((unsigned char)def[0])) {
    lc_error(K->d, (lc_loc){0}, "-D %s: expected NAME or NAME=VALUE", def);
    longjmp(K->fail, 1);
  }
  for (size_t k = 0; k < nlen; k++)
    if (!id_char((unsigned char)def[k])) {
      lc_error(K->d, (lc_loc){0}, "-D %s: expected NAME or NAME=VALUE", def);
      longjmp(K->fail, 1);
    }
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "%.*s %s", (int)nlen, def, eq ? eq + 1 : "1");
  char *text = lc_arena_strdup(K->a, b.s);
  lc_buf_fini(&b);
  lc_source s = {K->src->name, text, strlen(text), NULL, 0};
  kn_reader sub = *K;
  sub.src = &s;
  kn_toks t = {0};
  if (setjmp(sub.fail)) {
    lc_vec_free(&t);
    longjmp(K->fail, 1);
  }
  tokenize(&sub, &t);
  for (size_t k = 0; k + 1 < t.n; k++) t.v[k].line = 0, t.v[k].col = 0;
  for (size_t k = 0; k < t.n; k++) lc_vec_push(keep, t.v[k]);
  lc_vec_free(&t);
}

void kn_preprocess(kn_reader *K) {
  kn_toks in = {0};
  pp P = {0};
  P.K = K;
  kn_toks defs = {0};
  jmp_buf outer;
  memcpy(&outer, &K->fail, sizeof outer);
  if (setjmp(K->fail)) {
    for (size_t m = 0; m < P.macros.n; m++) {
      lc_vec_free(&P.macros.v[m].params);
      lc_vec_free(&P.macros.v[m].body);
    }
    lc_vec_free(&P.macros);
    lc_vec_free(&P.out);
    lc_vec_free(&P.scratch);
    lc_vec_free(&in);
    lc_vec_free(&defs);
    memcpy(&K->fail, &outer, sizeof outer);
    longjmp(K->fail, 1);
  }
  tokenize(K, &in);
  /* built in: what nvcc defines for device code, then -D */
  char arch[64];
  snprintf(arch, sizeof arch, "__CUDA_ARCH__=%d", (K->o && K->o->sm ? K->o->sm : 70) * 10);
  const char *builtin[] = {"__CUDACC__", "__NVCC__", arch, "NULL=0"};
  size_t nbuiltin = LC_ARRAY_LEN(builtin);
  size_t ndefs = nbuiltin + (K->o ? K->o->ndefines : 0);
  size_t *starts = lc_arena_alloc(K->a, ndefs * sizeof *starts);
  for (size_t k = 0; k < ndefs; k++) {
    starts[k] = defs.n;
    add_define(&P, k < nbuiltin ? builtin[k] : K->o->defines[k - nbuiltin], &defs);
  }
  for (size_t k = 0; k < ndefs; k++) {
    size_t from = starts[k], to = from;
    while (to < defs.n && defs.v[to].kind != KT_EOF) to++;
    define(&P, defs.v + from, to - from);
  }
  for (size_t i = 0; i < in.n && in.v[i].kind != KT_EOF;) {
    const kn_tok *t = &in.v[i];
    if (t->bol && kn_is(t, "#")) {
      size_t end = line_end(&in, i);
      directive(&P, &in, i, end, P.conds, &P.nconds);
      i = end;
      continue;
    }
    if (P.nconds > 0 && !P.conds[P.nconds - 1].active) {
      i++;
      continue;
    }
    /* a function-like macro's arguments may run over lines, not into directives */
    size_t stop = i + 1;
    while (stop < in.n && in.v[stop].kind != KT_EOF && !(in.v[stop].bol && kn_is(&in.v[stop], "#"))) stop++;
    expand(&P, in.v, stop, &i, NULL);
  }
  if (P.nconds > 0) kn_error(K, P.conds[P.nconds - 1].line, P.conds[P.nconds - 1].col, "#if without #endif");
  lc_vec_push(&P.out, in.v[in.n - 1]);
  K->toks = P.out;
  /* macro bodies and -D texts point into `in` and `defs`: the output copies
   * tokens, whose text is the source's or the arena's */
  for (size_t m = 0; m < P.macros.n; m++) {
      lc_vec_free(&P.macros.v[m].params);
      lc_vec_free(&P.macros.v[m].body);
    }
  lc_vec_free(&P.macros);
  lc_vec_free(&P.scratch);
  lc_vec_free(&in);
  lc_vec_free(&defs);
  memcpy(&K->fail, &outer, sizeof outer);
}
