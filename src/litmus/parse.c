/* parse.c - recursive-descent parser of the litmus dialect.
 * SPDX-License-Identifier: MIT
 *
 * One function per rule, the rule written above it.  Like Lua's parser we
 * stop at the first error: lt_p_error reports it and longjmps back to
 * lt_parse, which frees the test.  That is safe because everything the
 * parser allocates lives in the test's arena, growing arrays included.
 *
 * The parser checks what the AST could not represent or what belongs to a
 * single token: the grammar, the qualifiers of a mnemonic (known, allowed
 * on that instruction, each category at most once), operand shapes, row
 * widths, and the ranges of the numbers that name threads and placements.
 * Everything else (thread ids, labels, references, sem/scope rules,
 * constant ranges) is lt_validate's job.
 */
#include "litmus/ast.h"
#include "litmus/lex.h"
#include "litmus/parse_int.h"

#include <assert.h>
#include <ctype.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* tref -> (THREAD | INT) ':' REG        (C++: a local's name for REG) */
static void thread_reg(parser *ps, int *thread, int *reg) {
  if (TOK.kind == LT_TOK_INT && (TOK.value < 0 || TOK.value > LT_MAX_ID))
    lt_p_error(ps, TOK.at, "thread %s out of range (0..%d)", lt_p_desc(ps, &TOK), LT_MAX_ID);
  if (TOK.kind != LT_TOK_THREAD && TOK.kind != LT_TOK_INT)
    lt_p_error(ps, TOK.at, "expected a thread (P0 or 0), found %s", lt_p_desc(ps, &TOK));
  *thread = (int)TOK.value;
  lt_p_next(ps);
  lt_p_expect(ps, LT_TOK_COLON, "':' between thread and register");
  if (ps->local_reg && (TOK.kind == LT_TOK_REG || TOK.kind == LT_TOK_WORD)) {
    *reg = ps->local_reg(ps, *thread, &TOK);
    lt_p_next(ps);
    return;
  }
  if (TOK.kind != LT_TOK_REG)
    lt_p_error(ps, TOK.at, "expected a register (r0, r1, ...), found %s", lt_p_desc(ps, &TOK));
  *reg = (int)TOK.value;
  lt_p_next(ps);
}

/* ---- header and init block ------------------------------------------------ */

/* `PTX` in any case. */
static bool is_ptx(const lt_token *t) {
  return t->kind == LT_TOK_WORD && t->len == 3 && (t->text[0] | 0x20) == 'p' &&
         (t->text[1] | 0x20) == 't' && (t->text[2] | 0x20) == 'x';
}

/* header -> ARCH NAME doc */
static void header(parser *ps) {
  lt_test *t = ps->t;
  lt_p_next(ps);
  if (TOK.kind == LT_TOK_EOF) {
    lc_loc start = {t->file, 1, 1};
    lt_p_error(ps, start, "empty input: expected a test starting with 'PTX'");
  }
  bool cpp = lt_p_is_word(ps, "C") || lt_p_is_word(ps, "CUDA");
  if (!is_ptx(&TOK) && !cpp) {
    if (lt_p_is_name(&TOK))
      lt_p_error(ps, TOK.at, "unsupported architecture %s: litmus-check reads PTX, CUDA and C "
                 "tests", lt_p_desc(ps, &TOK));
    lt_p_error(ps, TOK.at, "expected 'PTX' at the start of the test, found %s", lt_p_desc(ps, &TOK));
  }
  t->arch = lt_p_str(ps, &TOK);
  lt_token name;
  const char *doc;
  size_t len;
  if (lt_lex_name(&ps->ls, &name) < 0 || lt_lex_doc(&ps->ls, &doc, &len) < 0)
    longjmp(ps->fail, 1);
  t->name = lt_p_str(ps, &name);
  t->name_at = name.at;
  t->doc = lc_arena_strndup(ps->a, doc, len);
  ps->ls.cpp = cpp;
  lt_p_next(ps);
}

/* value -> INT | ['&'] name */
static void init_value(parser *ps, lt_init *e) {
  if (TOK.kind == LT_TOK_INT) {
    e->value = TOK.value;
    lt_p_next(ps);
    return;
  }
  if (TOK.kind == LT_TOK_AMP) {
    e->value_amp = true;
    lt_p_next(ps);
  }
  e->target_at = TOK.at;
  e->value_loc = lt_p_location(ps, "a constant or a location (&x)");
}

static lt_proxy proxy_kind(parser *ps) {
  static const char *const names[] = {"generic", "texture", "surface", "constant"};
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++)
    if (lt_p_is_word(ps, names[i])) {
      lt_p_next(ps);
      return (lt_proxy)i;
    }
  lt_p_error(ps, TOK.at, "expected a proxy (generic, texture, surface or constant), found %s",
           lt_p_desc(ps, &TOK));
}

/* entry -> tref '=' value | name '=' value | name '@' proxy 'aliases' name */
static void init_entry(parser *ps, lt_init *e) {
  e->at = TOK.at;
  if (TOK.kind == LT_TOK_THREAD || TOK.kind == LT_TOK_INT) {
    e->kind = LT_INIT_REG;
    thread_reg(ps, &e->thread, &e->reg);
    lt_p_expect(ps, LT_TOK_EQ, "'='");
    init_value(ps, e);
    return;
  }
  e->loc = lt_p_location(ps, "a location or a register (P0:r0) in the init block");
  if (TOK.kind == LT_TOK_AT) {
    e->kind = LT_INIT_ALIAS;
    lt_p_next(ps);
    e->proxy = proxy_kind(ps);
    if (!lt_p_is_word(ps, "aliases"))
      lt_p_error(ps, TOK.at, "expected 'aliases', found %s", lt_p_desc(ps, &TOK));
    lt_p_next(ps);
    e->target_at = TOK.at;
    e->target = lt_p_location(ps, "the aliased location");
    return;
  }
  e->kind = LT_INIT_LOC;
  lt_p_expect(ps, LT_TOK_EQ, "'=' or '@'");
  init_value(ps, e);
}

/* init -> '{' { [entry] ';' } [entry] '}' [';'] */
static void init_block(parser *ps) {
  lt_test *t = ps->t;
  lc_loc open = TOK.at;
  size_t cap = 0;
  lt_p_next(ps);
  while (TOK.kind != LT_TOK_RBRACE) {
    if (TOK.kind == LT_TOK_SEMI) {
      lt_p_next(ps);
      continue;
    }
    if (TOK.kind == LT_TOK_EOF) lt_p_check_match(ps, LT_TOK_RBRACE, "}", "{", open);
    /* `P0@`, `P0 |` and `P0 ;` start the thread row, never an entry
     * (P0:r0 = 1): the block's '}' is missing, and is what to name */
    if (TOK.kind == LT_TOK_THREAD && (lt_p_peek(ps)->kind == LT_TOK_AT || lt_p_peek(ps)->kind == LT_TOK_BAR ||
                                      lt_p_peek(ps)->kind == LT_TOK_SEMI))
      lt_p_error(ps, TOK.at, "expected '}' (to close '{' at line %d) before the thread row, found %s", open.line,
                 lt_p_desc(ps, &TOK));
    init_entry(ps, PUSH(ps, t->inits, t->ninits, cap));
    if (TOK.kind != LT_TOK_SEMI && TOK.kind != LT_TOK_RBRACE)
      lt_p_error(ps, TOK.at, "expected ';' or '}' after an init entry, found %s", lt_p_desc(ps, &TOK));
  }
  lt_p_next(ps);
  if (TOK.kind == LT_TOK_SEMI) lt_p_next(ps);
}

/* ---- threads ----------------------------------------------------------------- */

/* thread -> THREAD '@' placement */
static void thread(parser *ps, lt_thread *th) {
  if (TOK.kind != LT_TOK_THREAD)
    lt_p_error(ps, TOK.at, "expected a thread (P0, P1, ...), found %s", lt_p_desc(ps, &TOK));
  th->id = (int)TOK.value;
  th->at = TOK.at;
  th->cluster = -1;
  lt_p_next(ps);
  if (TOK.kind != LT_TOK_AT)
    lt_p_error(ps, TOK.at, "thread P%d has no placement: expected '@cta N,gpu N', found %s", th->id,
             lt_p_desc(ps, &TOK));
  lt_p_next(ps);
  lt_p_placement(ps, th);
}

/* threads -> thread { '|' thread } ';' */
static void threads(parser *ps) {
  lt_test *t = ps->t;
  size_t cap = 0;
  if (TOK.kind != LT_TOK_THREAD)
    lt_p_error(ps, TOK.at, "expected the thread row (P0@cta 0,gpu 0 | ...), found %s", lt_p_desc(ps, &TOK));
  for (;;) {
    thread(ps, PUSH(ps, t->threads, t->nthreads, cap));
    if (TOK.kind != LT_TOK_BAR) break;
    lt_p_next(ps);
  }
  if (TOK.kind != LT_TOK_SEMI)
    lt_p_error(ps, TOK.at, "expected '|' or ';' after a thread, found %s", lt_p_desc(ps, &TOK));
  lt_p_next(ps);
  ps->cellcap = lc_arena_alloc(ps->a, t->nthreads * sizeof *ps->cellcap);
}

/* ---- instructions --------------------------------------------------------------- */

enum form { F_LD, F_ST, F_ATOM, F_RED, F_FENCE, F_MEMBAR, F_BAR, F_GRID, F_ALU, F_BRANCH, F_GOTO,
            F_MBAR, F_CP, F_MAPA };

static const struct opcode {
  const char *name;
  enum form form;
  lt_proxy proxy;    /* memory operations */
  int sub;           /* ALU operation or branch comparison */
} opcodes[] = {
  {"ld", F_LD, LT_PROXY_GENERIC, 0},      {"tld", F_LD, LT_PROXY_TEXTURE, 0},
  {"suld", F_LD, LT_PROXY_SURFACE, 0},    {"cold", F_LD, LT_PROXY_CONSTANT, 0},
  {"st", F_ST, LT_PROXY_GENERIC, 0},      {"sust", F_ST, LT_PROXY_SURFACE, 0},
  {"atom", F_ATOM, LT_PROXY_GENERIC, 0},  {"suatom", F_ATOM, LT_PROXY_SURFACE, 0},
  {"red", F_RED, LT_PROXY_GENERIC, 0},    {"sured", F_RED, LT_PROXY_SURFACE, 0},
  {"fence", F_FENCE, 0, 0},               {"membar", F_MEMBAR, 0, 0},
  {"bar", F_BAR, 0, 0},                   {"barrier", F_BAR, 0, 0},
  {"mov", F_ALU, 0, LT_ALU_MOV},          {"add", F_ALU, 0, LT_ALU_ADD},
  {"sub", F_ALU, 0, LT_ALU_SUB},          {"mul", F_ALU, 0, LT_ALU_MUL},
  {"div", F_ALU, 0, LT_ALU_DIV},          {"rem", F_ALU, 0, LT_ALU_REM},
  {"and", F_ALU, 0, LT_ALU_AND},          {"or", F_ALU, 0, LT_ALU_OR},
  {"xor", F_ALU, 0, LT_ALU_XOR},          {"shl", F_ALU, 0, LT_ALU_SHL},
  {"shr", F_ALU, 0, LT_ALU_SHR},
  {"beq", F_BRANCH, 0, LT_CMP_EQ},        {"bne", F_BRANCH, 0, LT_CMP_NE},
  {"blt", F_BRANCH, 0, LT_CMP_LT},        {"bgt", F_BRANCH, 0, LT_CMP_GT},
  {"ble", F_BRANCH, 0, LT_CMP_LE},        {"bge", F_BRANCH, 0, LT_CMP_GE},
  {"goto", F_GOTO, 0, 0},
  {"mbarrier", F_MBAR, 0, 0},             {"cp", F_CP, 0, 0},
  {"mapa", F_MAPA, 0, 0},
  {"grid", F_GRID, 0, 0},
};

/* Qualifier categories: a mnemonic may carry each at most once. */
enum qcat { Q_SEM, Q_SCOPE, Q_SPACE, Q_TYPE, Q_CACHE, Q_OP, Q_MMIO, NQCAT };

static const char *const qcat_plural[NQCAT] = {
  "memory orders", "scopes", "state spaces", "types", "cache operators", "operations", "'.mmio'"
};

static const struct qual {
  const char *name;
  enum qcat cat;
  int val;
} quals[] = {
  {"weak", Q_SEM, LT_SEM_WEAK},       {"relaxed", Q_SEM, LT_SEM_RELAXED},
  {"acquire", Q_SEM, LT_SEM_ACQUIRE}, {"release", Q_SEM, LT_SEM_RELEASE},
  {"acq_rel", Q_SEM, LT_SEM_ACQ_REL}, {"sc", Q_SEM, LT_SEM_SC},
  {"volatile", Q_SEM, LT_SEM_VOLATILE}, {"mmio", Q_MMIO, 1},
  {"cta", Q_SCOPE, LT_SCOPE_CTA},     {"cluster", Q_SCOPE, LT_SCOPE_CLUSTER},
  {"gpu", Q_SCOPE, LT_SCOPE_GPU},     {"sys", Q_SCOPE, LT_SCOPE_SYS},
  {"global", Q_SPACE, LT_SPACE_GLOBAL}, {"shared", Q_SPACE, LT_SPACE_SHARED},
  {"shared::cta", Q_SPACE, LT_SPACE_SHARED | LT_SHARED_CTA << 8},
  {"shared::cluster", Q_SPACE, LT_SPACE_SHARED | LT_SHARED_CLUSTER << 8},
  {"b32", Q_TYPE, LT_TYPE_B32}, {"u32", Q_TYPE, LT_TYPE_U32}, {"s32", Q_TYPE, LT_TYPE_S32},
  {"b64", Q_TYPE, LT_TYPE_B64}, {"u64", Q_TYPE, LT_TYPE_U64}, {"s64", Q_TYPE, LT_TYPE_S64},
  {"ca", Q_CACHE, LT_CACHE_CA}, {"cg", Q_CACHE, LT_CACHE_CG}, {"cs", Q_CACHE, LT_CACHE_CS},
  {"lu", Q_CACHE, LT_CACHE_LU}, {"cv", Q_CACHE, LT_CACHE_CV}, {"wb", Q_CACHE, LT_CACHE_WB},
  {"wt", Q_CACHE, LT_CACHE_WT},
  {"add", Q_OP, LT_RMW_ADD}, {"sub", Q_OP, LT_RMW_SUB}, {"and", Q_OP, LT_RMW_AND},
  {"or", Q_OP, LT_RMW_OR},   {"xor", Q_OP, LT_RMW_XOR}, {"exch", Q_OP, LT_RMW_EXCH},
  {"min", Q_OP, LT_RMW_MIN}, {"max", Q_OP, LT_RMW_MAX}, {"inc", Q_OP, LT_RMW_INC},
  {"dec", Q_OP, LT_RMW_DEC}, {"cas", Q_OP, LT_RMW_CAS},
};

#define BIT(c) (1u << (c))

static unsigned allowed_quals(enum form f) {
  switch (f) {
  case F_LD: case F_ST:
    return BIT(Q_SEM) | BIT(Q_SCOPE) | BIT(Q_SPACE) | BIT(Q_TYPE) | BIT(Q_CACHE) | BIT(Q_MMIO);
  case F_ATOM: case F_RED: return BIT(Q_SEM) | BIT(Q_SCOPE) | BIT(Q_SPACE) | BIT(Q_TYPE) | BIT(Q_OP);
  case F_FENCE: return BIT(Q_SEM) | BIT(Q_SCOPE);
  case F_ALU: return BIT(Q_TYPE);
  case F_MBAR: return BIT(Q_SEM) | BIT(Q_SCOPE) | BIT(Q_SPACE) | BIT(Q_TYPE);
  default: return 0;
  }
}

/* Loads take .ca .cg .cs .lu .cv; stores .wb .cg .cs .wt. */
static bool cache_fits(enum form f, int c) {
  if (f == F_LD) return c != LT_CACHE_WB && c != LT_CACHE_WT;
  return c != LT_CACHE_CA && c != LT_CACHE_LU && c != LT_CACHE_CV;
}

/* One dot-separated part of a mnemonic, with its position (at the dot). */
typedef struct part {
  const char *s;
  size_t n;
  lc_loc at;
} part;

static bool next_part(const lt_token *w, size_t *off, part *p) {
  size_t i = *off;
  if (i >= w->len) return false;
  p->at = w->at;
  p->at.col += (int)i;
  if (w->text[i] == '.') i++;
  size_t j = i;
  while (j < w->len && w->text[j] != '.') j++;
  p->s = w->text + i;
  p->n = j - i;
  *off = j;
  return true;
}

static bool part_is(const part *p, const char *s) {
  return p->n == strlen(s) && memcmp(p->s, s, p->n) == 0;
}

/* The qualifiers of one mnemonic, by category. */
typedef struct qualset {
  bool seen[NQCAT];
  int val[NQCAT];
  part at[NQCAT];
} qualset;

static void qualifiers(parser *ps, const lt_token *w, size_t off, enum form f, qualset *q) {
  unsigned mask = allowed_quals(f);
  size_t baselen = off;
  part p;
  memset(q, 0, sizeof *q);
  while (next_part(w, &off, &p)) {
    const struct qual *qi = NULL;
    for (size_t i = 0; i < LC_ARRAY_LEN(quals) && !qi; i++)
      if (part_is(&p, quals[i].name)) qi = &quals[i];
    if (!qi)
      lt_p_error(ps, p.at, "unknown qualifier '.%.*s' in '%.*s'", (int)p.n, p.s, (int)w->len, w->text);
    if (!(mask & BIT(qi->cat)) || (qi->cat == Q_CACHE && !cache_fits(f, qi->val)))
      lt_p_error(ps, p.at, "qualifier '.%.*s' does not apply to '%.*s'", (int)p.n, p.s, (int)baselen,
               w->text);
    if (q->seen[qi->cat])
      lt_p_error(ps, p.at, "'%.*s' has two %s: '.%.*s' and '.%.*s'", (int)w->len, w->text,
               qcat_plural[qi->cat], (int)q->at[qi->cat].n, q->at[qi->cat].s, (int)p.n, p.s);
    q->seen[qi->cat] = true;
    q->val[qi->cat] = qi->val;
    q->at[qi->cat] = p;
  }
}

/* ---- operands ---- */

static void comma(parser *ps) { lt_p_expect(ps, LT_TOK_COMMA, "',' between operands"); }

/* reg -> REG */
static lt_operand reg_operand(parser *ps, const char *what) {
  lt_operand o = {0};
  if (TOK.kind != LT_TOK_REG)
    lt_p_error(ps, TOK.at, "expected %s (a register), found %s", what, lt_p_desc(ps, &TOK));
  o.kind = LT_OPND_REG;
  o.reg = (int)TOK.value;
  o.at = TOK.at;
  lt_p_next(ps);
  return o;
}

/* value -> REG | INT */
static lt_operand value_operand(parser *ps) {
  lt_operand o = {0};
  o.at = TOK.at;
  if (TOK.kind == LT_TOK_REG) {
    o.kind = LT_OPND_REG;
    o.reg = (int)TOK.value;
  } else if (TOK.kind == LT_TOK_INT) {
    o.kind = LT_OPND_IMM;
    o.imm = TOK.value;
  } else {
    lt_p_error(ps, TOK.at, "expected a register or a constant, found %s", lt_p_desc(ps, &TOK));
  }
  lt_p_next(ps);
  return o;
}

/* addr -> name | '[' name ']' | '[' REG ']' */
static lt_operand address(parser *ps) {
  lt_operand o = {0};
  o.at = TOK.at;
  if (lt_p_is_name(&TOK)) {
    o.kind = LT_OPND_LOC;
    o.loc = lt_p_location(ps, "an address");
    return o;
  }
  if (TOK.kind != LT_TOK_LBRACKET)
    lt_p_error(ps, TOK.at, "expected an address (x, [x] or [r1]), found %s", lt_p_desc(ps, &TOK));
  lc_loc open = TOK.at;
  o.bracketed = true;
  lt_p_next(ps);
  if (TOK.kind == LT_TOK_REG) {
    o.kind = LT_OPND_REGADDR;
    o.reg = (int)TOK.value;
    lt_p_next(ps);
  } else {
    o.kind = LT_OPND_LOC;
    o.loc = lt_p_location(ps, "a location or a register inside '[ ]'");
  }
  lt_p_check_match(ps, LT_TOK_RBRACKET, "]", "[", open);
  return o;
}

static void label_operand(parser *ps, lt_instr *in) {
  if (!lt_p_is_name(&TOK)) lt_p_error(ps, TOK.at, "expected a label, found %s", lt_p_desc(ps, &TOK));
  in->label_at = TOK.at;
  in->label = lt_p_str(ps, &TOK);
  lt_p_next(ps);
}

static void no_qualifiers(parser *ps, const lt_token *w, size_t off) {
  part p;
  if (next_part(w, &off, &p))
    lt_p_error(ps, p.at, "qualifier '.%.*s' does not apply to '%.*s'", (int)p.n, p.s,
             (int)(p.s - 1 - w->text), w->text);
}

/* ---- instruction forms ---- */

/* '.mmio' is spelled '.mmio.relaxed.sys' in full; the AST keeps LT_SEM_MMIO. */
static void mmio(parser *ps, lt_instr *in, const lt_token *w, const qualset *q) {
  if (!q->seen[Q_SEM] || q->val[Q_SEM] != LT_SEM_RELAXED || !q->seen[Q_SCOPE] ||
      q->val[Q_SCOPE] != LT_SCOPE_SYS)
    lt_p_error(ps, q->at[Q_MMIO].at, "'%.*s': '.mmio' goes with '.relaxed.sys' and nothing else",
             (int)w->len, w->text);
  in->sem = LT_SEM_MMIO;
  in->sem_at = q->at[Q_MMIO].at;
}

/* ld-like  -> MNEMONIC reg ',' addr       (bare `ld reg ',' value` is a mov)
 * st-like  -> MNEMONIC addr ',' value
 * atom     -> MNEMONIC reg ',' addr ',' value [',' value]   (the second for cas)
 * red      -> MNEMONIC addr ',' value */
static void memory_operands(parser *ps, lt_instr *in, bool bare_ld) {
  if (in->kind == LT_I_LD || in->kind == LT_I_ATOM) {
    in->dst = reg_operand(ps, "the destination");
    comma(ps);
  }
  /* The corpus writes `ld r0, 1` for "r0 := 1". */
  if (bare_ld && (TOK.kind == LT_TOK_INT || TOK.kind == LT_TOK_REG)) {
    in->kind = LT_I_ALU;
    in->alu = LT_ALU_MOV;
    in->a = value_operand(ps);
    return;
  }
  in->addr = address(ps);
  if (in->kind == LT_I_LD) return;
  comma(ps);
  in->a = value_operand(ps);
  if (in->rmw != LT_RMW_CAS) return;
  comma(ps);
  in->b = value_operand(ps);
}

static void memory_op(parser *ps, lt_instr *in, const struct opcode *op, const lt_token *w, size_t off) {
  static const lt_instr_kind kinds[] = {[F_LD] = LT_I_LD, [F_ST] = LT_I_ST, [F_ATOM] = LT_I_ATOM,
                                        [F_RED] = LT_I_RED};
  qualset q;
  qualifiers(ps, w, off, op->form, &q);
  in->kind = kinds[op->form];
  in->proxy = op->proxy;
  in->sem = (lt_sem)q.val[Q_SEM];
  in->scope = (lt_scope)q.val[Q_SCOPE];
  in->cache = (lt_cache)q.val[Q_CACHE];
  in->space = (lt_space)(q.val[Q_SPACE] & 0xff);
  in->shared = (lt_shared_kind)(q.val[Q_SPACE] >> 8);
  in->type = (lt_type)q.val[Q_TYPE];
  in->rmw = (lt_rmw_op)q.val[Q_OP];
  in->sem_at = q.at[Q_SEM].at;
  in->scope_at = q.at[Q_SCOPE].at;
  in->cache_at = q.at[Q_CACHE].at;
  if (q.seen[Q_MMIO]) mmio(ps, in, w, &q);
  if ((op->form == F_ATOM || op->form == F_RED) && !q.seen[Q_OP])
    lt_p_error(ps, w->at, "'%.*s' needs an operation such as '.add', '.exch' or '.cas'", (int)w->len,
             w->text);
  if (op->form == F_RED && in->rmw == LT_RMW_CAS)
    lt_p_error(ps, q.at[Q_OP].at, "'%.*s': '.cas' needs a result register; use atom", (int)w->len,
             w->text);
  memory_operands(ps, in, op->form == F_LD && op->proxy == LT_PROXY_GENERIC && off == w->len);
}

/* fence -> 'fence' {'.' sem | '.' scope} | 'fence.proxy.' PROXY | 'fence.proxy.alias' */
static void fence(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  static const char *const proxies[] = {"generic", "texture", "surface", "constant", "async"};
  part p, k;
  size_t start = off;
  if (next_part(w, &off, &p) && part_is(&p, "mbarrier_init")) {
    if (!next_part(w, &off, &k) || !part_is(&k, "release") || !next_part(w, &off, &k) ||
        !part_is(&k, "cluster"))
      lt_p_error(ps, w->at, "'%.*s': the only form is 'fence.mbarrier_init.release.cluster'", (int)w->len,
                 w->text);
    no_qualifiers(ps, w, off);
    in->kind = LT_I_FENCE;
    in->mbar_init_fence = true;
    in->sem = LT_SEM_RELEASE;
    in->scope = LT_SCOPE_CLUSTER;
    in->sem_at = in->scope_at = w->at;
    return;
  }
  off = start;
  if (next_part(w, &off, &p) && part_is(&p, "proxy")) {
    if (!next_part(w, &off, &k))
      lt_p_error(ps, w->at, "'%.*s' needs a proxy: .alias, .generic, .texture, .surface, .constant or .async",
               (int)w->len, w->text);
    in->kind = LT_I_FENCE_PROXY;
    if (part_is(&k, "alias"))
      in->kind = LT_I_FENCE_ALIAS;
    else {
      size_t i = 0;
      while (i < LC_ARRAY_LEN(proxies) && !part_is(&k, proxies[i])) i++;
      if (i == LC_ARRAY_LEN(proxies))
        lt_p_error(ps, k.at, "unknown proxy '.%.*s' in '%.*s'", (int)k.n, k.s, (int)w->len, w->text);
      in->proxy = (lt_proxy)i;
    }
    /* fence.proxy.async{.global | .shared::cta | .shared::cluster} */
    if (in->proxy == LT_PROXY_ASYNC && next_part(w, &off, &k)) {
      if (part_is(&k, "global"))
        in->space = LT_SPACE_GLOBAL;
      else if (part_is(&k, "shared::cta") || part_is(&k, "shared::cluster")) {
        in->space = LT_SPACE_SHARED;
        in->shared = part_is(&k, "shared::cta") ? LT_SHARED_CTA : LT_SHARED_CLUSTER;
      } else
        lt_p_error(ps, k.at, "'%.*s': fence.proxy.async takes .global, .shared::cta or .shared::cluster",
                   (int)w->len, w->text);
    }
    no_qualifiers(ps, w, off);
    return;
  }
  qualset q;
  qualifiers(ps, w, start, F_FENCE, &q);
  in->kind = LT_I_FENCE;
  if (!q.seen[Q_SEM] && !q.seen[Q_SCOPE])
    lt_p_error(ps, w->at, "'%.*s' needs a scope, as in 'fence.sc.gpu' or 'fence.acq_rel.cta'",
             (int)w->len, w->text);
  in->fence_no_sem = !q.seen[Q_SEM];
  in->sem = q.seen[Q_SEM] ? (lt_sem)q.val[Q_SEM] : LT_SEM_ACQ_REL;
  in->sem_at = q.seen[Q_SEM] ? q.at[Q_SEM].at : w->at;
  in->scope = (lt_scope)q.val[Q_SCOPE];
  in->scope_at = q.at[Q_SCOPE].at;
}

/* membar -> 'membar.cta' | 'membar.gl' | 'membar.sys' */
static void membar(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  static const struct { const char *name; lt_scope scope; } levels[] = {
    {"cta", LT_SCOPE_CTA}, {"gl", LT_SCOPE_GPU}, {"sys", LT_SCOPE_SYS}};
  part p;
  if (!next_part(w, &off, &p))
    lt_p_error(ps, w->at, "'membar' needs a level: .cta, .gl or .sys");
  size_t i = 0;
  while (i < LC_ARRAY_LEN(levels) && !part_is(&p, levels[i].name)) i++;
  if (i == LC_ARRAY_LEN(levels))
    lt_p_error(ps, p.at, "unknown membar level '.%.*s' (.cta, .gl or .sys)", (int)p.n, p.s);
  no_qualifiers(ps, w, off);
  in->kind = LT_I_FENCE;
  in->membar = true;
  in->sem = LT_SEM_SC;
  in->sem_at = w->at;
  in->scope = levels[i].scope;
  in->scope_at = p.at;
}

/* bar -> ('bar' | 'barrier') ['.cta'] ('.sync' | '.arrive') value [',' value [',' value]]
 * with barrier{.cta}.sync.aligned and .arrive.aligned as the PTX ISA spells
 * them: .aligned promises that the whole warp executes the same barrier,
 * which a test's thread, one arrival, always does, so it changes nothing. */
static void cluster_barrier(parser *ps, lt_instr *in, const lt_token *w, size_t off);

static void barrier(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  bool mode = false;
  part p;
  size_t start = off;
  if (w->len >= 7 && memcmp(w->text, "barrier", 7) == 0 && next_part(w, &off, &p) && part_is(&p, "cluster")) {
    cluster_barrier(ps, in, w, off);
    return;
  }
  off = start;
  while (next_part(w, &off, &p)) {
    if (part_is(&p, "cta") && !in->bar_cta_suffix && !mode)
      in->bar_cta_suffix = true;
    else if ((part_is(&p, "sync") || part_is(&p, "arrive")) && !mode) {
      mode = true;
      in->bar_arrive = part_is(&p, "arrive");
    } else if (part_is(&p, "aligned") && mode && !in->aligned && w->len >= 7 && memcmp(w->text, "barrier", 7) == 0)
      in->aligned = true;
    else
      lt_p_error(ps, p.at, "unexpected qualifier '.%.*s' in '%.*s' (expected bar.cta.sync, "
               "bar.cta.arrive or barrier.cta.sync.aligned)", (int)p.n, p.s, (int)w->len, w->text);
  }
  if (!mode) lt_p_error(ps, w->at, "'%.*s' needs '.sync' or '.arrive'", (int)w->len, w->text);
  in->kind = LT_I_BAR;
  lt_operand *ops[] = {&in->a, &in->b, &in->c};
  *ops[0] = value_operand(ps);
  in->nbar_operands = 1;
  while (in->nbar_operands < 3 && TOK.kind == LT_TOK_COMMA) {
    lt_p_next(ps);
    *ops[in->nbar_operands++] = value_operand(ps);
  }
}

/* grid -> 'grid.sync': the grid's barrier (cooperative_groups::this_grid().sync()),
 * no PTX instruction but the test's spelling of the barrier the C++ dialect
 * reads, which --via nvcc puts where nvcc's PTX has cooperative groups'
 * implementation of it (docs/via-nvcc.md): every thread of the GPU, one
 * instance per GPU, gpu-scoped; the test is launched cooperatively. */
static void grid_barrier(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  part p;
  if (!next_part(w, &off, &p) || !part_is(&p, "sync") || next_part(w, &off, &p))
    lt_p_error(ps, w->at, "unknown instruction '%.*s' (the grid's barrier is 'grid.sync')", (int)w->len, w->text);
  in->kind = LT_I_BAR;
  in->a.kind = LT_OPND_IMM;
  in->a.imm = 0;
  in->a.at = w->at;
  in->nbar_operands = 1;
  in->bar_grid = true;
  in->scope = LT_SCOPE_GPU;
  ps->t->cooperative = true;   /* as this_grid().sync() in the C++ dialect */
}

/* alu -> OP reg ',' value ',' value | 'mov' reg ',' value */
static void alu(parser *ps, lt_instr *in, const struct opcode *op, const lt_token *w, size_t off) {
  qualset q;
  qualifiers(ps, w, off, F_ALU, &q);
  in->kind = LT_I_ALU;
  in->alu = (lt_alu_op)op->sub;
  in->type = (lt_type)q.val[Q_TYPE];
  in->dst = reg_operand(ps, "the destination");
  comma(ps);
  in->a = value_operand(ps);
  if (in->alu == LT_ALU_MOV) return;
  comma(ps);
  in->b = value_operand(ps);
}

/* branch -> BCOND value ',' value ',' label | 'goto' label */
static void branch(parser *ps, lt_instr *in, const struct opcode *op, const lt_token *w, size_t off) {
  no_qualifiers(ps, w, off);
  if (op->form == F_GOTO) {
    in->kind = LT_I_GOTO;
  } else {
    in->kind = LT_I_BRANCH;
    in->cmp = (lt_cmp)op->sub;
    in->a = value_operand(ps);
    comma(ps);
    in->b = value_operand(ps);
    comma(ps);
  }
  label_operand(ps, in);
}

/* ---- Hopper synchronisation (docs/hopper.md) ---- */

/* barrier.cluster.arrive{.release | .relaxed}{.aligned}
 * barrier.cluster.wait{.acquire}{.aligned} */
static void cluster_barrier(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  part p;
  if (!next_part(w, &off, &p) || !(part_is(&p, "arrive") || part_is(&p, "wait")))
    lt_p_error(ps, w->at, "'%.*s' needs '.arrive' or '.wait'", (int)w->len, w->text);
  in->kind = LT_I_BAR;
  in->bar_cluster = true;
  in->bar_wait = part_is(&p, "wait");
  in->bar_arrive = !in->bar_wait;
  in->sem = in->bar_wait ? LT_SEM_ACQUIRE : LT_SEM_RELEASE;
  in->sem_at = w->at;
  bool sem = false;
  while (next_part(w, &off, &p)) {
    if (part_is(&p, "aligned") && !in->aligned) {
      in->aligned = true;
    } else if (!sem && !in->aligned && in->bar_arrive && (part_is(&p, "release") || part_is(&p, "relaxed"))) {
      sem = true;
      in->sem = part_is(&p, "release") ? LT_SEM_RELEASE : LT_SEM_RELAXED;
      in->sem_at = p.at;
    } else if (!sem && !in->aligned && in->bar_wait && part_is(&p, "acquire")) {
      sem = true;
      in->sem_at = p.at;
    } else {
      lt_p_error(ps, p.at, "unexpected qualifier '.%.*s' in '%.*s' (barrier.cluster.arrive{.release|.relaxed}"
                 "{.aligned}, barrier.cluster.wait{.acquire}{.aligned})", (int)p.n, p.s, (int)w->len, w->text);
    }
  }
  in->scope = LT_SCOPE_CLUSTER;
}

static const struct mbar_form {
  const char *name;
  lt_mbar_op op;
  bool arrive_sems;      /* .release / .relaxed, else waits: .acquire / .relaxed, or tx: .relaxed */
} mbar_forms[] = {
  {"init", LT_MB_INIT, false},           {"arrive", LT_MB_ARRIVE, true},
  {"expect_tx", LT_MB_EXPECT_TX, false}, {"complete_tx", LT_MB_COMPLETE_TX, false},
  {"arrive_drop", LT_MB_ARRIVE_DROP, true}, {"test_wait", LT_MB_TEST_WAIT, false},
  {"try_wait", LT_MB_TRY_WAIT, false},
};

static bool mbar_is_wait(lt_mbar_op op) { return op == LT_MB_TEST_WAIT || op == LT_MB_TRY_WAIT; }

/* Which memory orders each mbarrier operation takes (PTX ISA 8.x, the
 * mbarrier instruction pages). */
static bool mbar_sem_ok(lt_mbar_op op, lt_sem s) {
  switch (op) {
  case LT_MB_INIT: return false;
  case LT_MB_EXPECT_TX: case LT_MB_COMPLETE_TX: return s == LT_SEM_RELAXED;
  case LT_MB_TEST_WAIT: case LT_MB_TRY_WAIT: return s == LT_SEM_ACQUIRE || s == LT_SEM_RELAXED;
  default: return s == LT_SEM_RELEASE || s == LT_SEM_RELAXED;
  }
}

/* The state operand of an arrive: a register, or `_` (the only choice
 * on a remote mbarrier). */
static void mbar_state(parser *ps, lt_instr *in) {
  if (TOK.kind == LT_TOK_WORD && TOK.len == 1 && TOK.text[0] == '_') {
    in->sink = true;
    lt_p_next(ps);
  } else {
    in->dst = reg_operand(ps, "the state (a register or '_')");
  }
  comma(ps);
}

/* mbarrier.OP{.sem}{.scope}{.space}.b64 operands (docs/hopper.md lists
 * the forms). */
static void mbarrier(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  part p;
  const struct mbar_form *f = NULL;
  if (next_part(w, &off, &p))
    for (size_t i = 0; i < LC_ARRAY_LEN(mbar_forms) && !f; i++)
      if (part_is(&p, mbar_forms[i].name)) f = &mbar_forms[i];
  if (!f)
    lt_p_error(ps, w->at, "unknown instruction '%.*s' (mbarrier.init, .arrive, .arrive.expect_tx, .expect_tx, "
               ".complete_tx, .arrive_drop, .test_wait, .try_wait)", (int)w->len, w->text);
  in->kind = LT_I_MBAR;
  in->mbar = f->op;
  size_t save = off;
  if (f->op == LT_MB_ARRIVE && next_part(w, &off, &p) && part_is(&p, "expect_tx"))
    in->mbar = LT_MB_ARRIVE_EXPECT_TX;
  else if (mbar_is_wait(f->op) && next_part(w, &off, &p) && part_is(&p, "parity"))
    in->parity = true;
  else
    off = save;
  qualset q;
  qualifiers(ps, w, off, F_MBAR, &q);
  in->sem = (lt_sem)q.val[Q_SEM];
  in->scope = (lt_scope)q.val[Q_SCOPE];
  in->space = (lt_space)(q.val[Q_SPACE] & 0xff);
  in->shared = (lt_shared_kind)(q.val[Q_SPACE] >> 8);
  in->type = (lt_type)q.val[Q_TYPE];
  in->sem_at = q.at[Q_SEM].at;
  in->scope_at = q.at[Q_SCOPE].at;
  if (q.seen[Q_SEM] && !mbar_sem_ok(in->mbar, in->sem))
    lt_p_error(ps, q.at[Q_SEM].at, "'%.*s' cannot be .%s", (int)w->len, w->text, lt_sem_name(in->sem));
  /* The arrives are written mbarrier.arrive{.sem.scope}...: the ISA's
   * syntax takes the memory order and the scope together or not at all. */
  bool arrive = in->mbar == LT_MB_ARRIVE || in->mbar == LT_MB_ARRIVE_EXPECT_TX || in->mbar == LT_MB_ARRIVE_DROP;
  if (arrive && q.seen[Q_SEM] != q.seen[Q_SCOPE]) {
    int k = q.seen[Q_SEM] ? Q_SEM : Q_SCOPE;
    lt_p_error(ps, q.at[k].at, "'%.*s': .sem and .scope go together on an arrive (e.g. .release.cta, "
               ".relaxed.cluster) or are both left out (the default, .release.cta)", (int)w->len, w->text);
  }
  if (q.seen[Q_SCOPE] && (in->mbar == LT_MB_INIT || (in->scope != LT_SCOPE_CTA && in->scope != LT_SCOPE_CLUSTER)))
    lt_p_error(ps, q.at[Q_SCOPE].at, "'%.*s' cannot be .%s (mbarrier scopes: .cta, .cluster; none on init)",
               (int)w->len, w->text, lt_scope_name(in->scope));
  if (q.seen[Q_SPACE] && in->space != LT_SPACE_SHARED)
    lt_p_error(ps, q.at[Q_SPACE].at, "'%.*s': an mbarrier lives in shared memory (.shared, .shared::cta or "
               ".shared::cluster)", (int)w->len, w->text);
  if (in->shared == LT_SHARED_CLUSTER && (in->mbar == LT_MB_INIT || mbar_is_wait(in->mbar)))
    lt_p_error(ps, q.at[Q_SPACE].at, "'%.*s': only arrives and transaction counts may name a remote "
               "mbarrier (.shared::cluster)", (int)w->len, w->text);
  if (q.seen[Q_TYPE] && in->type != LT_TYPE_B64)
    lt_p_error(ps, q.at[Q_TYPE].at, "'%.*s': an mbarrier is a .b64 object", (int)w->len, w->text);
  switch (in->mbar) {
  case LT_MB_INIT: case LT_MB_EXPECT_TX: case LT_MB_COMPLETE_TX:
    in->addr = address(ps);
    comma(ps);
    in->a = value_operand(ps);
    return;
  case LT_MB_ARRIVE: case LT_MB_ARRIVE_DROP: case LT_MB_ARRIVE_EXPECT_TX:
    mbar_state(ps, in);
    if (in->shared == LT_SHARED_CLUSTER && !in->sink)
      lt_p_error(ps, in->dst.at, "'%.*s': an arrive on a remote mbarrier (.shared::cluster) returns no state; "
                 "write '_'", (int)w->len, w->text);
    in->addr = address(ps);
    if (in->mbar == LT_MB_ARRIVE_EXPECT_TX || TOK.kind == LT_TOK_COMMA) {
      comma(ps);
      in->a = value_operand(ps);
    }
    return;
  default:
    in->dst = reg_operand(ps, "the result (a register standing for the predicate)");
    comma(ps);
    in->addr = address(ps);
    comma(ps);
    in->a = value_operand(ps);
    if (in->mbar == LT_MB_TRY_WAIT && TOK.kind == LT_TOK_COMMA) {
      comma(ps);
      in->b = value_operand(ps);
    }
    return;
  }
}

static bool next_is(const lt_token *w, size_t *off, const char *s) {
  part p;
  size_t save = *off;
  if (next_part(w, off, &p) && part_is(&p, s)) return true;
  *off = save;
  return false;
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
 * cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size
 * cp.async.bulk.commit_group
 * cp.async.bulk.wait_group{.read} n */
static void bulk(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  if (!next_is(w, &off, "async") || !next_is(w, &off, "bulk"))
    lt_p_error(ps, w->at, "unknown instruction '%.*s' (cp.async.bulk forms only)", (int)w->len, w->text);
  in->kind = LT_I_BULK;
  in->proxy = LT_PROXY_ASYNC;
  if (next_is(w, &off, "commit_group")) {
    in->bulk = LT_BULK_COMMIT;
  } else if (next_is(w, &off, "wait_group")) {
    in->bulk = LT_BULK_WAIT;
    in->wait_read = next_is(w, &off, "read");
    no_qualifiers(ps, w, off);
    in->a = value_operand(ps);
    if (in->a.kind != LT_OPND_IMM || in->a.imm < 0 || in->a.imm > 63)
      lt_p_error(ps, in->a.at, "cp.async.bulk.wait_group takes a constant 0..63");
    return;
  } else if (next_is(w, &off, "shared::cluster") && next_is(w, &off, "global") &&
             next_is(w, &off, "mbarrier::complete_tx::bytes")) {
    in->bulk = LT_BULK_G2S;
    in->space = LT_SPACE_SHARED;
    in->shared = LT_SHARED_CLUSTER;
  } else if (next_is(w, &off, "global") && next_is(w, &off, "shared::cta") && next_is(w, &off, "bulk_group")) {
    in->bulk = LT_BULK_S2G;
    in->space = LT_SPACE_GLOBAL;
  } else {
    lt_p_error(ps, w->at, "'%.*s': expected cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes, "
               "cp.async.bulk.global.shared::cta.bulk_group, .commit_group or .wait_group", (int)w->len, w->text);
  }
  no_qualifiers(ps, w, off);
  if (in->bulk == LT_BULK_COMMIT) return;
  in->addr = address(ps);
  comma(ps);
  in->b = address(ps);
  comma(ps);
  in->a = value_operand(ps);
  if (in->a.kind != LT_OPND_IMM || in->a.imm <= 0 || in->a.imm % 16 != 0 || in->a.imm > (1 << 20) - 1)
    lt_p_error(ps, in->a.at, "the size of a bulk copy must be a constant multiple of 16 bytes below 2^20");
  if (in->bulk == LT_BULK_S2G) return;
  comma(ps);
  in->c = address(ps);
}

/* mapa.shared::cluster.{u32,u64} rD, x, rank */
static void mapa(parser *ps, lt_instr *in, const lt_token *w, size_t off) {
  if (!next_is(w, &off, "shared::cluster"))
    lt_p_error(ps, w->at, "'%.*s': litmus-check maps shared addresses only: mapa.shared::cluster.u32",
               (int)w->len, w->text);
  in->space = LT_SPACE_SHARED;
  in->shared = LT_SHARED_CLUSTER;
  if (next_is(w, &off, "u32"))
    in->type = LT_TYPE_U32;
  else if (next_is(w, &off, "u64"))
    in->type = LT_TYPE_U64;
  no_qualifiers(ps, w, off);
  in->kind = LT_I_MAPA;
  in->dst = reg_operand(ps, "the destination");
  comma(ps);
  if (TOK.kind == LT_TOK_REG) {
    in->addr = reg_operand(ps, "the address");
    in->addr.kind = LT_OPND_REGADDR;
  } else {
    in->addr = address(ps);
  }
  comma(ps);
  in->a = value_operand(ps);
}

/* instr -> MNEMONIC operands */
static lt_instr *instruction(parser *ps) {
  if (TOK.kind != LT_TOK_WORD)
    lt_p_error(ps, TOK.at, "expected an instruction, found %s", lt_p_desc(ps, &TOK));
  lt_token w = TOK;
  size_t off = 0;
  part base;
  next_part(&w, &off, &base);
  const struct opcode *op = NULL;
  for (size_t i = 0; i < LC_ARRAY_LEN(opcodes) && !op; i++)
    if (part_is(&base, opcodes[i].name)) op = &opcodes[i];
  if (!op) lt_p_error(ps, w.at, "unknown instruction '%.*s'", (int)w.len, w.text);
  lt_instr *in = lc_arena_alloc(ps->a, sizeof *in);
  in->at = w.at;
  in->mnemonic = lt_p_str(ps, &w);
  lt_p_next(ps);
  switch (op->form) {
  case F_LD: case F_ST: case F_ATOM: case F_RED: memory_op(ps, in, op, &w, off); break;
  case F_FENCE: fence(ps, in, &w, off); break;
  case F_MEMBAR: membar(ps, in, &w, off); break;
  case F_BAR: barrier(ps, in, &w, off); break;
  case F_GRID: grid_barrier(ps, in, &w, off); break;
  case F_ALU: alu(ps, in, op, &w, off); break;
  case F_BRANCH: case F_GOTO: branch(ps, in, op, &w, off); break;
  case F_MBAR: mbarrier(ps, in, &w, off); break;
  case F_CP: bulk(ps, in, &w, off); break;
  case F_MAPA: mapa(ps, in, &w, off); break;
  }
  return in;
}

/* ---- the code table ------------------------------------------------------------ */

/* Is the current token a label: a name followed by ':'? */
static bool at_label(parser *ps) {
  return lt_p_is_name(&TOK) && lt_p_peek(ps)->kind == LT_TOK_COLON;
}

/* cell -> [name ':'] [instr]       (label may already have been read) */
static void cell(parser *ps, size_t col, const lt_token *label) {
  lt_thread *th = &ps->t->threads[col];
  lt_cell *c = PUSH(ps, th->cells, th->ncells, ps->cellcap[col]);
  lt_token lab;
  if (!label && at_label(ps)) {
    lab = TOK;
    label = &lab;
    lt_p_next(ps);
    lt_p_next(ps);
  }
  c->at = label ? label->at : TOK.at;
  if (label) {
    c->label = lt_p_str(ps, label);
    c->label_at = label->at;
  }
  if (TOK.kind != LT_TOK_BAR && TOK.kind != LT_TOK_SEMI) c->instr = instruction(ps);
}

/* row -> cell { '|' cell } ';' */
static void row(parser *ps, const lt_token *label) {
  size_t n = ps->t->nthreads, col = 0;
  for (;;) {
    cell(ps, col, col == 0 ? label : NULL);
    col++;
    if (TOK.kind == LT_TOK_SEMI) break;
    if (TOK.kind != LT_TOK_BAR && ps->after.line > 0 && TOK.at.line > ps->after.line)
      lt_p_error(ps, ps->after, "expected ';' at the end of this row, found %s on line %d", lt_p_desc(ps, &TOK),
                 TOK.at.line);
    if (TOK.kind != LT_TOK_BAR)
      lt_p_error(ps, TOK.at, "expected '|' or ';' after a cell, found %s", lt_p_desc(ps, &TOK));
    if (col == n)
      lt_p_error(ps, TOK.at, "this row has more cells than the %zu thread%s of the header", n,
               n == 1 ? "" : "s");
    lt_p_next(ps);
  }
  if (col < n)
    lt_p_error(ps, TOK.at, "this row has %zu cell%s but the header has %zu threads", col,
             col == 1 ? "" : "s", n);
  lt_p_next(ps);
  ps->t->nrows++;
}

/* map -> mapent { ',' mapent } [';']      mapent -> location ':' ('shared' | 'global')
 * The first name and ':' have been read (an array element comes after it:
 * `x: shared, x[1]: shared`). */
static void memory_map(parser *ps, const char *loc, lc_loc at) {
  lt_test *t = ps->t;
  size_t cap = 0;
  for (;;) {
    lt_mapping *m = PUSH(ps, t->map, t->nmap, cap);
    m->loc = loc;
    m->at = at;
    if (lt_p_is_word(ps, "shared"))
      m->space = LT_SPACE_SHARED;
    else if (lt_p_is_word(ps, "global"))
      m->space = LT_SPACE_GLOBAL;
    else
      lt_p_error(ps, TOK.at, "expected 'shared' or 'global' after '%s:', found %s", m->loc,
               lt_p_desc(ps, &TOK));
    lt_p_next(ps);
    if (TOK.kind != LT_TOK_COMMA) break;
    lt_p_next(ps);
    at = TOK.at;
    loc = lt_p_location(ps, "a location in the memory map");
    lt_p_expect(ps, LT_TOK_COLON, "':'");
  }
  if (TOK.kind == LT_TOK_SEMI) lt_p_next(ps);
}

static bool ends_code(parser *ps) {
  return TOK.kind == LT_TOK_EOF || TOK.kind == LT_TOK_NOT || lt_p_is_word(ps, "exists") ||
         lt_p_is_word(ps, "forall") || lt_p_is_word(ps, "not") || lt_p_is_word(ps, "locations") ||
         lt_p_is_word(ps, "filter");
}

/* rows -> { row } [map]     (up to the condition, `locations` or `filter`) */
static void rows(parser *ps) {
  while (!ends_code(ps)) {
    if (!at_label(ps)) {
      row(ps, NULL);
      continue;
    }
    lt_token name = TOK;
    lt_p_next(ps);
    lt_p_next(ps);
    if (lt_p_is_word(ps, "shared") || lt_p_is_word(ps, "global")) {
      memory_map(ps, lt_p_str(ps, &name), name.at);
      return;
    }
    row(ps, &name);
  }
}

/* ---- propositions ------------------------------------------------------------- */

static lt_prop *prop(parser *ps, int *h);

static lt_prop *new_prop(parser *ps, lt_prop_kind kind, lc_loc at) {
  lt_prop *p = lc_arena_alloc(ps->a, sizeof *p);
  p->kind = kind;
  p->at = at;
  return p;
}

static void check_depth(parser *ps, int h, lc_loc at) {
  if (h > MAX_PROP_DEPTH)
    lt_p_error(ps, at, "proposition nested too deeply (more than %d levels)", MAX_PROP_DEPTH);
}

/* term -> tref | INT | name | '&' name */
static void term(parser *ps, lt_term *x) {
  x->at = TOK.at;
  if (TOK.kind == LT_TOK_THREAD || (TOK.kind == LT_TOK_INT && lt_p_peek(ps)->kind == LT_TOK_COLON)) {
    x->kind = LT_TERM_REG;
    thread_reg(ps, &x->thread, &x->reg);
  } else if (TOK.kind == LT_TOK_INT) {
    x->kind = LT_TERM_CONST;
    x->value = TOK.value;
    x->fp = TOK.int_float;
    lt_p_next(ps);
  } else if (TOK.kind == LT_TOK_AMP) {
    lt_p_next(ps);
    x->kind = LT_TERM_ADDR;
    x->loc = lt_p_location(ps, "a location after '&'");
  } else if (lt_p_is_name(&TOK)) {
    x->kind = LT_TERM_LOC;
    x->loc = lt_p_location(ps, "a location");
  } else if (TOK.kind == LT_TOK_LBRACKET && ps->ls.cpp) {   /* herd's C: [x] is x's value */
    lc_loc open = TOK.at;
    lt_p_next(ps);
    x->kind = LT_TERM_LOC;
    x->loc = lt_p_location(ps, "a location inside '[ ]'");
    lt_p_check_match(ps, LT_TOK_RBRACKET, "]", "[", open);
  } else {
    lt_p_error(ps, TOK.at, "expected a register (P0:r0), a location or a constant, found %s",
             lt_p_desc(ps, &TOK));
  }
}

static bool comparison(lt_tok_kind k, lt_cmp *c) {
  switch (k) {
  case LT_TOK_EQ: case LT_TOK_EQEQ: *c = LT_CMP_EQ; return true;
  case LT_TOK_NE: *c = LT_CMP_NE; return true;
  case LT_TOK_LT: *c = LT_CMP_LT; return true;
  case LT_TOK_LE: *c = LT_CMP_LE; return true;
  case LT_TOK_GT: *c = LT_CMP_GT; return true;
  case LT_TOK_GE: *c = LT_CMP_GE; return true;
  default: return false;
  }
}

/* primary -> '(' prop ')' | 'true' | 'false' | term cmp term
 * (a location named true or false is read as one when a comparison follows) */
static lt_prop *primary(parser *ps, int *h) {
  lt_cmp c;
  *h = 1;
  if (TOK.kind == LT_TOK_LPAREN) {
    lc_loc open = TOK.at;
    check_depth(ps, ++ps->nest, open);
    lt_p_next(ps);
    lt_prop *p = prop(ps, h);
    lt_p_check_match(ps, LT_TOK_RPAREN, ")", "(", open);
    ps->nest--;
    p->parens = true;
    return p;
  }
  if ((lt_p_is_word(ps, "true") || lt_p_is_word(ps, "false")) && !comparison(lt_p_peek(ps)->kind, &c)) {
    lt_prop *p = new_prop(ps, lt_p_is_word(ps, "true") ? LT_PROP_TRUE : LT_PROP_FALSE, TOK.at);
    lt_p_next(ps);
    return p;
  }
  lt_prop *p = new_prop(ps, LT_PROP_CMP, TOK.at);
  term(ps, &p->lhs);
  if (!comparison(TOK.kind, &p->cmp))
    lt_p_error(ps, TOK.at, "expected a comparison (==, !=, <, <=, >, >=), found %s", lt_p_desc(ps, &TOK));
  lt_p_next(ps);
  term(ps, &p->rhs);
  return p;
}

/* unary -> ('~' | '!' | 'not') unary | primary */
static lt_prop *unary(parser *ps, int *h) {
  if (TOK.kind != LT_TOK_NOT && !lt_p_is_word(ps, "not")) return primary(ps, h);
  lt_prop *p = new_prop(ps, LT_PROP_NOT, TOK.at);
  check_depth(ps, ++ps->nest, TOK.at);
  lt_p_next(ps);
  p->l = unary(ps, h);
  ps->nest--;
  check_depth(ps, ++*h, p->at);
  return p;
}

static lt_prop *binary(parser *ps, lt_prop_kind kind, lt_prop *l, int hl, lc_loc at, int *h,
                       lt_prop *(*operand)(parser *, int *)) {
  int hr;
  lt_prop *p = new_prop(ps, kind, l->at);
  p->l = l;
  p->r = operand(ps, &hr);
  *h = 1 + (hl > hr ? hl : hr);
  check_depth(ps, *h, at);
  return p;
}

/* conjunct -> unary { '/\' unary } */
static lt_prop *conjunct(parser *ps, int *h) {
  lt_prop *p = unary(ps, h);
  while (TOK.kind == LT_TOK_AND) {
    lc_loc at = TOK.at;
    lt_p_next(ps);
    p = binary(ps, LT_PROP_AND, p, *h, at, h, unary);
  }
  return p;
}

/* prop -> conjunct { '\/' conjunct } */
static lt_prop *prop(parser *ps, int *h) {
  lt_prop *p = conjunct(ps, h);
  while (TOK.kind == LT_TOK_OR) {
    lc_loc at = TOK.at;
    lt_p_next(ps);
    p = binary(ps, LT_PROP_OR, p, *h, at, h, conjunct);
  }
  return p;
}

static lt_prop *proposition(parser *ps) {
  int h;
  return prop(ps, &h);
}

/* ---- the tail ------------------------------------------------------------------ */

/* locations -> 'locations' '[' { [lterm] ';' } [lterm] ']'      lterm -> tref | name */
static void locations(parser *ps) {
  lt_test *t = ps->t;
  size_t cap = 0;
  lt_p_next(ps);
  lc_loc open = TOK.at;
  lt_p_expect(ps, LT_TOK_LBRACKET, "'[' after 'locations'");
  t->has_locations = true;
  while (TOK.kind != LT_TOK_RBRACKET) {
    if (TOK.kind == LT_TOK_SEMI) {
      lt_p_next(ps);
      continue;
    }
    lt_term *x = PUSH(ps, t->locations, t->nlocations, cap);
    x->at = TOK.at;
    if (lt_p_is_name(&TOK)) {
      x->kind = LT_TERM_LOC;
      x->loc = lt_p_location(ps, "a location");
    } else if (TOK.kind == LT_TOK_THREAD || TOK.kind == LT_TOK_INT) {
      x->kind = LT_TERM_REG;
      thread_reg(ps, &x->thread, &x->reg);
    } else {
      lt_p_error(ps, TOK.at, "expected a location or a register (P0:r0), found %s", lt_p_desc(ps, &TOK));
    }
    if (TOK.kind != LT_TOK_SEMI && TOK.kind != LT_TOK_RBRACKET)
      lt_p_check_match(ps, LT_TOK_RBRACKET, "]", "[", open);
  }
  lt_p_next(ps);
}

/* cond -> ('exists' | '~' 'exists' | 'not' 'exists' | 'forall') prop */
static void condition(parser *ps) {
  lt_test *t = ps->t;
  t->cond_at = TOK.at;
  if (TOK.kind == LT_TOK_EOF && ps->ls.cpp) {
    /* herd reads a C test without a condition as `forall (true)`: its
     * states, over the `locations` only */
    t->quant = LT_COND_FORALL;
    t->cond = new_prop(ps, LT_PROP_TRUE, TOK.at);
    return;
  }
  if (lt_p_is_word(ps, "exists")) {
    t->quant = LT_COND_EXISTS;
  } else if (lt_p_is_word(ps, "forall")) {
    t->quant = LT_COND_FORALL;
  } else if (TOK.kind == LT_TOK_NOT || lt_p_is_word(ps, "not")) {
    t->quant = LT_COND_NOT_EXISTS;
    lt_p_next(ps);
    if (!lt_p_is_word(ps, "exists"))
      lt_p_error(ps, TOK.at, "expected 'exists' after '~' or 'not', found %s", lt_p_desc(ps, &TOK));
  } else {
    lt_p_error(ps, TOK.at, "expected the final condition (exists, ~exists or forall), found %s",
             lt_p_desc(ps, &TOK));
  }
  lt_p_next(ps);
  t->cond = proposition(ps);
}

/* tail -> [locations] ['filter' prop] cond EOF */
void lt_p_tail(parser *ps) {
  /* herd's memory regions (`regions: x:PROP`) mean nothing to a C test,
   * as in herd */
  if (ps->ls.cpp && lt_p_is_word(ps, "regions")) {
    while (TOK.kind != LT_TOK_EOF && !lt_p_is_word(ps, "locations") && !lt_p_is_word(ps, "filter") &&
           !lt_p_is_word(ps, "exists") && !lt_p_is_word(ps, "forall") && !lt_p_is_word(ps, "not") &&
           TOK.kind != LT_TOK_NOT)
      lt_p_next(ps);
  }
  if (lt_p_is_word(ps, "locations")) locations(ps);
  if (lt_p_is_word(ps, "filter")) {
    lt_p_next(ps);
    ps->t->filter = proposition(ps);
  }
  condition(ps);
  if (TOK.kind != LT_TOK_EOF)
    lt_p_error(ps, TOK.at, "expected end of file after the condition, found %s", lt_p_desc(ps, &TOK));
}

/* test -> header init threads rows tail */
static void test(parser *ps) {
  header(ps);
  if (ps->ls.cpp) {
    lt_cpp_parse_body(ps);
    lt_p_tail(ps);
    lt_cpp_finish(ps);
    return;
  }
  init_block(ps);
  threads(ps);
  rows(ps);
  lt_p_tail(ps);
}

/* A cat model given where a test belongs: its name ends in .cat, or it
 * begins with a model's title string ("PTX v7.5"), which no test does
 * (a test begins with its architecture).  One message that says so, not
 * a lexer's complaint about the quote. */
static bool cat_model_given(const lc_source *src, lc_diag *d) {
  size_t n = strlen(src->name), i = 0;
  while (i < src->len && isspace((unsigned char)src->text[i])) i++;
  bool named = n > 4 && strcmp(src->name + n - 4, ".cat") == 0;
  if (!named && (i == src->len || src->text[i] != '"')) return false;
  lc_error(d, (lc_loc){src->name, 1, 1}, "%s, not a litmus test: models are given with --model FILE, tests "
           "begin with their architecture (PTX, CUDA, C)", named ? "a cat model (.cat)" :
           "this begins like a cat model (a title string)");
  return true;
}

static lt_test *parse_text(const lc_source *src, lc_diag *d);

lt_test *lt_parse(const lc_source *src, lc_diag *d) {
  assert(src && src->text && src->name && d);
  if (!lt_gpu_ptx_is(src)) return parse_text(src, d);
  /* herd's legacy GPU_PTX: rewritten into PTX, positions on the same lines */
  lc_loc at;
  const char *why = NULL;
  char *text = lt_gpu_ptx_rewrite(src, &at, &why);
  if (!text) {
    lc_error(d, at, "GPU_PTX: %s", why);
    return NULL;
  }
  lc_source ptx = {.name = src->name, .text = text, .len = strlen(text), .line_of = src->line_of,
                   .nline_of = src->nline_of};
  lt_test *t = parse_text(&ptx, d);
  free(text);
  return t;
}

static lt_test *parse_text(const lc_source *src, lc_diag *d) {
  if (cat_model_given(src, d)) return NULL;
  parser ps;
  memset(&ps, 0, sizeof ps);
  if (lt_lex_init(&ps.ls, src, d) < 0) return NULL;
  lc_arena *a = lc_arena_new();
  lt_test *t = lc_arena_alloc(a, sizeof *t);
  t->arena = a;
  t->file = src->name;
  ps.t = t;
  ps.a = a;
  ps.d = d;
  if (setjmp(ps.fail)) {
    lt_test_free(t);
    return NULL;
  }
  test(&ps);
  /* A C++ test is checked by lt_cpp_finish; its cells are not PTX as
   * written (sc loads, C++ orders) and need no PTX rules. */
  if (!t->cpp && lt_validate(t, d) < 0) {
    lt_test_free(t);
    return NULL;
  }
  return t;
}
