/* cpp_print.c - C++ tests in normal form, names.
 * SPDX-License-Identifier: MIT
 *
 * Normal form: the C11 `_explicit` spelling with the memory orders always
 * written and the scope only when written; `int` locals; bodies of if,
 * else and while always in braces; four spaces per level.  Printing then
 * parsing gives an equal test (lt_test_equal).
 */
#include <assert.h>
#include <string.h>

#include "litmus/cpp_ast.h"

const char *lt_mo_name(lt_mo mo) {
  static const char *const n[] = {"", "memory_order_relaxed", "memory_order_consume",
                                  "memory_order_acquire", "memory_order_release",
                                  "memory_order_acq_rel", "memory_order_seq_cst"};
  return (size_t)mo < LC_ARRAY_LEN(n) ? n[mo] : "";
}

const char *lt_mo_short(lt_mo mo) {
  static const char *const n[] = {"na", "rlx", "con", "acq", "rel", "acq_rel", "sc"};
  return (size_t)mo < LC_ARRAY_LEN(n) ? n[mo] : "";
}

const char *lt_ts_name(lt_ts s) {
  static const char *const n[] = {"", "thread_scope_thread", "thread_scope_block",
                                  "thread_scope_cluster", "thread_scope_device",
                                  "thread_scope_system"};
  return (size_t)s < LC_ARRAY_LEN(n) ? n[s] : "";
}

const char *lt_ts_short(lt_ts s) {
  static const char *const n[] = {"system", "thread", "block", "cluster", "device", "system"};
  return (size_t)s < LC_ARRAY_LEN(n) ? n[s] : "";
}

lt_scope lt_ts_scope(lt_ts s) {
  switch (s) {
  case LT_TS_BLOCK: return LT_SCOPE_CTA;
  case LT_TS_CLUSTER: return LT_SCOPE_CLUSTER;
  case LT_TS_DEVICE: return LT_SCOPE_GPU;
  case LT_TS_THREAD: return LT_SCOPE_NONE;
  default: return LT_SCOPE_SYS;
  }
}

/* ---- parameter types ----------------------------------------------------------- */

static bool has_word(const char *type, const char *w) {
  size_t n = strlen(w);
  for (const char *p = strstr(type, w); p; p = strstr(p + 1, w)) {
    bool start = p == type || !(p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
                                (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9'));
    char e = p[n];
    bool end = !(e == '_' || (e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9'));
    if (start && end) return true;
  }
  return false;
}

static const struct { const char *n; lt_ts s; } ts_words[] = {
  {"thread_scope_thread", LT_TS_THREAD}, {"thread_scope_block", LT_TS_BLOCK},
  {"thread_scope_cluster", LT_TS_CLUSTER}, {"thread_scope_device", LT_TS_DEVICE},
  {"thread_scope_system", LT_TS_SYSTEM}};

lt_param_type lt_cpp_param_type(const char *type) {
  lt_param_type pt = {0};
  if (!type) return pt;
  pt.pointer = strchr(type, '*') != NULL;
  pt.is_unsigned = has_word(type, "unsigned") || has_word(type, "uint32_t") ||
                   has_word(type, "atomic_uint") || has_word(type, "uint64_t");
  const char *lt = strchr(type, '<');
  if (lt && (has_word(type, "atomic") || has_word(type, "atomic_ref"))) {
    pt.kind = LT_PK_OBJECT;
    for (size_t i = 0; i < LC_ARRAY_LEN(ts_words); i++)
      if (has_word(lt, ts_words[i].n)) pt.scope = ts_words[i].s;
  } else if (has_word(type, "_Atomic") || strstr(type, "atomic_")) {
    pt.kind = LT_PK_C11;
  } else {
    /* volatile before the first `*` qualifies the int (`int* volatile p` is
     * a volatile pointer to a plain int) */
    const char *star = strchr(type, '*');
    size_t n = star ? (size_t)(star - type) : strlen(type);
    char head[128];
    snprintf(head, sizeof head, "%.*s", (int)(n < sizeof head ? n : sizeof head - 1), type);
    if (has_word(head, "volatile")) pt.kind = LT_PK_VOLATILE;
  }
  return pt;
}

lt_ctype lt_cpp_ctype(const char *type) {
  if (!type) return LT_CT_INT;
  if (strchr(type, '*')) return LT_CT_LLONG;
  static const char *const uns[] = {"unsigned", "uint32_t", "uint64_t", "size_t", "uintptr_t", "atomic_uint",
                                    "atomic_ulong", "atomic_ullong", "atomic_size_t", "uint"};
  static const char *const wide[] = {"long", "int64_t", "uint64_t", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
                                     "atomic_long", "atomic_ulong", "atomic_llong", "atomic_ullong", "atomic_size_t"};
  /* char, short and bool promote to int (their own widths are not modelled) */
  if (has_word(type, "char") || has_word(type, "short") || has_word(type, "bool")) return LT_CT_INT;
  if (has_word(type, "float")) return LT_CT_FLOAT;
  bool u = false, w = false;
  for (size_t i = 0; i < LC_ARRAY_LEN(uns); i++) u = u || has_word(type, uns[i]);
  for (size_t i = 0; i < LC_ARRAY_LEN(wide); i++) w = w || has_word(type, wide[i]);
  return w ? (u ? LT_CT_ULLONG : LT_CT_LLONG) : u ? LT_CT_UINT : LT_CT_INT;
}

long lt_cpp_param_index(const lt_cpp_thread *th, const char *s, size_t len) {
  assert(th && s);
  if (th->param_index.n) {   /* a search per use made 20,000 parameters take 7.6 s */
    size_t i = lc_names_get(&th->param_index, s, len);
    return i == LC_NAMES_NONE ? -1 : (long)i;
  }
  for (size_t i = 0; i < th->nparams; i++)
    if (strlen(th->params[i].name) == len && memcmp(th->params[i].name, s, len) == 0) return (long)i;
  return -1;
}

static const char *param_of(const lt_cpp_thread *th, const char *loc) {
  long i = lt_cpp_param_index(th, loc, strlen(loc));
  return i < 0 ? NULL : th->params[i].type;
}

lt_ctype lt_cpp_pointee_ctype(const char *type) {
  char head[160];
  const char *star = strchr(type, '*');
  size_t n = star ? (size_t)(star - type) : strlen(type);
  snprintf(head, sizeof head, "%.*s", (int)(n < sizeof head ? n : sizeof head - 1), type);
  return lt_cpp_ctype(head);
}

bool lt_cpp_loc_is_float(const lt_test *t, const char *loc) {
  if (!t || !t->cpp || !loc) return false;
  for (size_t i = 0; i < t->nthreads; i++) {
    const lt_cpp_thread *th = &t->cpp->threads[i];
    for (size_t k = 0; k < th->nparams; k++)
      if (strcmp(th->params[k].name, loc) == 0 && lt_cpp_pointee_ctype(th->params[k].type) == LT_CT_FLOAT)
        return true;
  }
  for (size_t i = 0; i < t->cpp->ninits; i++) {
    const lt_cinit *ci = &t->cpp->inits[i];
    if (ci->type && lt_cpp_ctype(ci->type) == LT_CT_FLOAT)
      for (size_t k = 0; k < ci->n; k++)
        if (ci->first + k < t->ninits && strcmp(t->inits[ci->first + k].loc, loc) == 0) return true;
  }
  return false;
}

bool lt_cpp_array_head(const lt_test *t, const char *loc) {
  if (!t || !loc) return false;
  for (size_t i = 0; i < t->narray_heads; i++)
    if (strcmp(t->array_heads[i], loc) == 0) return true;
  if (!t->cpp) return false;
  for (size_t i = 0; i < t->cpp->ninits; i++) {
    const lt_cinit *ci = &t->cpp->inits[i];
    if (ci->array_len >= 0 && ci->first < t->ninits && strcmp(t->inits[ci->first].loc, loc) == 0) return true;
  }
  return false;
}

const char *lt_cpp_param_of(const lt_test *t, size_t thread, const char *loc) {
  if (!t->cpp || thread >= t->nthreads || !loc) return NULL;
  return param_of(&t->cpp->threads[thread], loc);
}

/* ---- printing ---------------------------------------------------------------- */

typedef struct pctx {
  lc_buf *b;
  const lt_test *t;
  const lt_cpp_thread *th;
} pctx;

static const char *cop_text(lt_cop op) {
  static const char *const n[] = {"-", "!", "~", "+", "-", "*", "/", "%", "&", "|", "^",
                                  "==", "!=", "<", "<=", ">", ">=", "&&", "||", "<<", ">>"};
  return n[op];
}

static void pexpr(pctx *c, const lt_cexpr *e);

/* A CUDA atomic function or fence as written (lt_catomic.cuda_fn). */
static void cuda_call(pctx *c, const lt_catomic *a) {
  static const char *const fn[] = {[LT_RMW_ADD] = "Add", [LT_RMW_SUB] = "Sub", [LT_RMW_AND] = "And",
                                   [LT_RMW_OR] = "Or", [LT_RMW_XOR] = "Xor", [LT_RMW_MIN] = "Min",
                                   [LT_RMW_MAX] = "Max", [LT_RMW_INC] = "Inc", [LT_RMW_DEC] = "Dec",
                                   [LT_RMW_EXCH] = "Exch", [LT_RMW_CAS] = "CAS"};
  const char *suffix = a->scope == LT_TS_BLOCK ? "_block" : a->scope == LT_TS_SYSTEM ? "_system" : "";
  lc_buf *b = c->b;
  if (a->kind == LT_CA_FENCE) {
    lc_buf_printf(b, "__threadfence%s()", suffix);
    return;
  }
  lt_rmw_op op = a->kind == LT_CA_EXCHANGE ? LT_RMW_EXCH : a->kind == LT_CA_CAS ? LT_RMW_CAS : a->op;
  const char *name = (size_t)op < LC_ARRAY_LEN(fn) && fn[op] ? fn[op] : "Add";
  lc_buf_printf(b, "atomic%s%s(", name, suffix);
  pexpr(c, a->obj);
  lc_buf_puts(b, ", ");
  pexpr(c, a->kind == LT_CA_CAS ? a->expected : a->val);
  if (a->kind == LT_CA_CAS) {
    lc_buf_puts(b, ", ");
    pexpr(c, a->desired);
  }
  lc_buf_putc(b, ')');
}

static void atomic_call(pctx *c, const lt_catomic *a) {
  static const char *const fetch[] = {[LT_RMW_ADD] = "add", [LT_RMW_SUB] = "sub",
                                      [LT_RMW_AND] = "and", [LT_RMW_OR] = "or",
                                      [LT_RMW_XOR] = "xor", [LT_RMW_MIN] = "min",
                                      [LT_RMW_MAX] = "max"};
  lc_buf *b = c->b;
  if (a->cuda_fn) {
    cuda_call(c, a);
    return;
  }
  switch (a->kind) {
  case LT_CA_FENCE: lc_buf_puts(b, "atomic_thread_fence("); break;
  case LT_CA_LOAD: lc_buf_puts(b, "atomic_load_explicit("); break;
  case LT_CA_STORE: lc_buf_puts(b, "atomic_store_explicit("); break;
  case LT_CA_EXCHANGE: lc_buf_puts(b, "atomic_exchange_explicit("); break;
  case LT_CA_FETCH:
    lc_buf_printf(b, "atomic_fetch_%s_explicit(", (size_t)a->op < LC_ARRAY_LEN(fetch) && fetch[a->op] ? fetch[a->op] : "add");
    break;
  case LT_CA_CAS:
    lc_buf_printf(b, "atomic_compare_exchange_%s_explicit(", a->weak ? "weak" : "strong");
    break;
  }
  if (a->kind != LT_CA_FENCE) {
    /* an atomic object passed by reference (`cuda::atomic<int, S>& x`) is &x */
    const char *type = a->obj->kind == LT_CE_LOC ? param_of(c->th, a->obj->loc) : NULL;
    if (type && *type && type[strlen(type) - 1] == '&') lc_buf_putc(b, '&');
    pexpr(c, a->obj);
    lc_buf_puts(b, ", ");
  }
  if (a->val) {
    pexpr(c, a->val);
    lc_buf_puts(b, ", ");
  }
  if (a->kind == LT_CA_CAS) {
    pexpr(c, a->expected);
    lc_buf_puts(b, ", ");
    pexpr(c, a->desired);
    lc_buf_puts(b, ", ");
  }
  lc_buf_puts(b, lt_mo_name(a->mo));
  if (a->kind == LT_CA_CAS) lc_buf_printf(b, ", %s", lt_mo_name(a->mo_fail));
  if (a->scope != LT_TS_NONE) lc_buf_printf(b, ", %s", lt_ts_name(a->scope));
  lc_buf_putc(b, ')');
}

/* Whether a unary minus must be set apart from its operand: the lexer
 * reads `-5` as one negative literal (so `- 5` keeps the negation of 5 a
 * negation), and C++ reads `--` as a decrement (so `- -x`, `- -5`). */
static bool neg_needs_space(const lt_cexpr *a) {
  if (a->parens) return false;
  return a->kind == LT_CE_CONST || (a->kind == LT_CE_UNARY && a->op == LT_COP_NEG);
}

/* How tightly e binds as printed, C's precedence: 0 for ?:, 1 (||) to 9
 * (* / %) for the binary operators, 10 for the unary ones (a negative
 * literal is one), 11 for what never needs parentheses.  Shifts bind
 * between the comparisons and + -: 7.5, doubled with the rest below. */
static int binding(const lt_cexpr *e) {
  static const int level[] = {
    [LT_COP_LOR] = 2, [LT_COP_LAND] = 4, [LT_COP_OR] = 6, [LT_COP_XOR] = 8, [LT_COP_AND] = 10,
    [LT_COP_EQ] = 12, [LT_COP_NE] = 12, [LT_COP_LT] = 14, [LT_COP_LE] = 14, [LT_COP_GT] = 14,
    [LT_COP_GE] = 14, [LT_COP_SHL] = 15, [LT_COP_SHR] = 15, [LT_COP_ADD] = 16, [LT_COP_SUB] = 16,
    [LT_COP_MUL] = 18, [LT_COP_DIV] = 18, [LT_COP_REM] = 18};
  if (e->parens) return 22;
  switch (e->kind) {
  case LT_CE_COND: return 0;
  case LT_CE_BINARY: return (size_t)e->op < LC_ARRAY_LEN(level) ? level[e->op] : 0;
  case LT_CE_UNARY: case LT_CE_DEREF: case LT_CE_ADDR: return 20;
  case LT_CE_CONST: return e->value < 0 ? 20 : 22;
  default: return 22;
  }
}

bool lt_cexpr_needs_parens(const lt_cexpr *parent, int slot, const lt_cexpr *child) {
  assert(parent && child && slot >= 0 && slot <= 2);
  int k = binding(child);
  switch (parent->kind) {
  case LT_CE_BINARY: {   /* left-associative: a - (b - c) keeps its parentheses */
    int p = binding(&(lt_cexpr){.kind = LT_CE_BINARY, .op = parent->op});
    return slot == 0 ? k < p : k <= p;
  }
  case LT_CE_UNARY: case LT_CE_DEREF: return k < 20;
  case LT_CE_COND: return slot == 0 && k == 0;   /* the middle is any expression, ?: nests to the right */
  default: return false;
  }
}

/* e as an operand of parent (slot 0, 1, 2: its a, b, c): in parentheses
 * when written so or when precedence needs them (the parser sets parens
 * where it builds a node from other syntax, `a[i - 1]` as *(a + (i - 1)),
 * so that what prints here reads back as the same tree). */
static void operand(pctx *c, const lt_cexpr *parent, int slot, const lt_cexpr *e) {
  bool need = !e->parens && lt_cexpr_needs_parens(parent, slot, e);
  if (need) lc_buf_putc(c->b, '(');
  pexpr(c, e);
  if (need) lc_buf_putc(c->b, ')');
}

static void pexpr(pctx *c, const lt_cexpr *e) {
  lc_buf *b = c->b;
  if (e->parens) lc_buf_putc(b, '(');
  switch (e->kind) {
  case LT_CE_CONST: {
    if (e->ctype == LT_CT_FLOAT) {
      lt_print_float(b, e->value);
      break;
    }
    /* the suffix that gives the literal its type again (lt_ctype) */
    bool fits_int = e->value >= INT32_MIN && e->value <= INT32_MAX;
    const char *suffix = e->ctype == LT_CT_UINT ? "u" : e->ctype == LT_CT_ULLONG ? "ull"
                       : e->ctype == LT_CT_LLONG && fits_int ? "ll" : "";
    if (e->ctype == LT_CT_ULLONG) lc_buf_printf(b, "%llu%s", (unsigned long long)e->value, suffix);
    else lc_buf_printf(b, "%lld%s", (long long)e->value, suffix);
    break;
  }
  case LT_CE_CAST:
    lc_buf_printf(b, "(%s)", e->type);
    pexpr(c, e->a);
    break;
  case LT_CE_LOCAL: lc_buf_puts(b, c->th->locals[e->local]); break;
  case LT_CE_LOC: lc_buf_puts(b, e->loc); break;
  case LT_CE_ADDR: lc_buf_printf(b, "&%s", c->th->locals[e->local]); break;
  case LT_CE_DEREF:
    lc_buf_putc(b, '*');
    operand(c, e, 0, e->a);
    break;
  case LT_CE_UNARY:
    lc_buf_puts(b, cop_text(e->op));
    if (e->op == LT_COP_NEG && neg_needs_space(e->a)) lc_buf_putc(b, ' ');
    operand(c, e, 0, e->a);
    break;
  case LT_CE_BINARY:
    operand(c, e, 0, e->a);
    lc_buf_printf(b, " %s ", cop_text(e->op));
    operand(c, e, 1, e->b);
    break;
  case LT_CE_ATOMIC: atomic_call(c, &e->atomic); break;
  case LT_CE_COND:
    operand(c, e, 0, e->a);
    lc_buf_puts(b, " ? ");
    operand(c, e, 1, e->b);
    lc_buf_puts(b, " : ");
    operand(c, e, 2, e->c);
    break;
  }
  if (e->parens) lc_buf_putc(b, ')');
}

static void indent(lc_buf *b, int level) {
  for (int i = 0; i < level; i++) lc_buf_puts(b, "    ");
}

static void pblock(pctx *c, const lt_cblock *blk, int level);

static void pstmt(pctx *c, const lt_cstmt *s, int level) {
  lc_buf *b = c->b;
  indent(b, level);
  switch (s->kind) {
  case LT_CS_DECL:
    lc_buf_printf(b, "%s %s", s->type, c->th->locals[s->local]);
    if (s->e) {
      lc_buf_puts(b, " = ");
      pexpr(c, s->e);
    }
    lc_buf_puts(b, ";\n");
    break;
  case LT_CS_ASSIGN:
    lc_buf_printf(b, "%s = ", c->th->locals[s->local]);
    pexpr(c, s->e);
    lc_buf_puts(b, ";\n");
    break;
  case LT_CS_STORE:
    lc_buf_putc(b, '*');
    operand(c, &(lt_cexpr){.kind = LT_CE_DEREF}, 0, s->ptr);
    lc_buf_puts(b, " = ");
    pexpr(c, s->e);
    lc_buf_puts(b, ";\n");
    break;
  case LT_CS_EXPR:
    pexpr(c, s->e);
    lc_buf_puts(b, ";\n");
    break;
  case LT_CS_SYNC: lc_buf_puts(b, s->grid ? "cooperative_groups::this_grid().sync();\n" : "__syncthreads();\n"); break;
  case LT_CS_BREAK: lc_buf_puts(b, "break;\n"); break;
  case LT_CS_RETURN: lc_buf_puts(b, "return;\n"); break;
  case LT_CS_CONTINUE: lc_buf_puts(b, "continue;\n"); break;
  case LT_CS_BLOCK:
    lc_buf_puts(b, "{\n");
    pblock(c, &s->body, level + 1);
    indent(b, level);
    lc_buf_puts(b, "}\n");
    break;
  case LT_CS_IF:
  case LT_CS_WHILE:
    lc_buf_puts(b, s->kind == LT_CS_IF ? "if (" : "while (");
    pexpr(c, s->e);
    lc_buf_puts(b, ") {\n");
    pblock(c, &s->body, level + 1);
    indent(b, level);
    lc_buf_putc(b, '}');
    if (s->has_else) {
      lc_buf_puts(b, " else {\n");
      pblock(c, &s->els, level + 1);
      indent(b, level);
      lc_buf_putc(b, '}');
    }
    lc_buf_putc(b, '\n');
    break;
  }
}

static void pblock(pctx *c, const lt_cblock *blk, int level) {
  for (size_t i = 0; i < blk->n; i++) pstmt(c, blk->v[i], level);
}

void lt_cpp_print_expr(lc_buf *out, const lt_test *t, int thread, const lt_cexpr *e) {
  assert(out && t && e && thread >= 0 && (size_t)thread < t->nthreads);
  pctx c = {out, t, &t->cpp->threads[thread]};
  pexpr(&c, e);
}

static void init_value(lc_buf *b, const lt_init *e, bool fp) {
  if (e->value_loc)
    lc_buf_printf(b, "%s%s", e->value_amp ? "&" : "", e->value_loc);
  else if (fp)
    lt_print_float(b, e->value);
  else
    lc_buf_printf(b, "%lld", (long long)e->value);
}

static void inits(lc_buf *b, const lt_test *t) {
  const lt_cpp *cpp = t->cpp;
  lc_buf_puts(b, "{\n");
  for (size_t i = 0; i < cpp->ninits; i++) {
    const lt_cinit *ci = &cpp->inits[i];
    const lt_init *e = &t->inits[ci->first];
    bool fp = lt_cpp_loc_is_float(t, e->loc);
    lc_buf_puts(b, "    ");
    if (ci->type) lc_buf_printf(b, "%s ", ci->type);
    lc_buf_printf(b, ci->bracketed ? "[%s]" : "%s", e->loc);
    if (ci->array_len >= 0) {
      lc_buf_printf(b, "[%ld] = {", ci->array_len);
      for (size_t k = 0; k < ci->n; k++) {
        lc_buf_puts(b, k ? ", " : "");
        init_value(b, &t->inits[ci->first + k], fp);
      }
      lc_buf_puts(b, "};\n");
      continue;
    }
    lc_buf_puts(b, " = ");
    init_value(b, e, fp);
    lc_buf_puts(b, ";\n");
  }
  lc_buf_puts(b, "}\n");
}

static void thread(lc_buf *b, const lt_test *t, size_t i) {
  const lt_thread *th = &t->threads[i];
  const lt_cpp_thread *ct = &t->cpp->threads[i];
  lc_buf_printf(b, "\nP%d", th->id);
  if (ct->placed) {
    lc_buf_printf(b, "@cta %d,", th->cta);
    if (th->cluster >= 0) lc_buf_printf(b, "cluster %d,", th->cluster);
    lc_buf_printf(b, "gpu %d", th->gpu);
  }
  lc_buf_puts(b, " (");
  for (size_t k = 0; k < ct->nparams; k++)
    lc_buf_printf(b, "%s%s %s", k ? ", " : "", ct->params[k].type, ct->params[k].name);
  lc_buf_puts(b, ") {\n");
  pctx c = {b, t, ct};
  pblock(&c, &ct->body, 1);
  lc_buf_puts(b, "}\n");
}

/* A term of the tail with the local's name for a register. */
static void term(lc_buf *b, const lt_test *t, const lt_term *x) {
  if (x->kind != LT_TERM_REG || !t->cpp) {   /* !cpp: a kernel's PTX test (array_heads) */
    lt_print_term(b, x);
    if (x->kind == LT_TERM_LOC && lt_cpp_array_head(t, x->loc)) lc_buf_puts(b, "[0]");
    return;
  }
  for (size_t i = 0; i < t->nthreads; i++)
    if (t->threads[i].id == x->thread && (size_t)x->reg < t->cpp->threads[i].nlocals) {
      lc_buf_printf(b, "%d:%s", x->thread, t->cpp->threads[i].locals[x->reg]);
      return;
    }
  lc_buf_printf(b, "%d:r%d", x->thread, x->reg);
}

void lt_cpp_print_prop(lc_buf *b, const lt_test *t, const lt_prop *p) {
  assert(b && t && p);
  if (p->parens) lc_buf_putc(b, '(');
  switch (p->kind) {
  case LT_PROP_TRUE: lc_buf_puts(b, "true"); break;
  case LT_PROP_FALSE: lc_buf_puts(b, "false"); break;
  case LT_PROP_CMP:
    term(b, t, &p->lhs);
    lc_buf_printf(b, " %s ", lt_cmp_name(p->cmp));
    term(b, t, &p->rhs);
    break;
  case LT_PROP_NOT:
    lc_buf_puts(b, "~");
    lt_cpp_print_prop(b, t, p->l);
    break;
  case LT_PROP_AND:
  case LT_PROP_OR:
    lt_cpp_print_prop(b, t, p->l);
    lc_buf_puts(b, p->kind == LT_PROP_AND ? " /\\ " : " \\/ ");
    lt_cpp_print_prop(b, t, p->r);
    break;
  }
  if (p->parens) lc_buf_putc(b, ')');
}

void lt_cpp_print(lc_buf *b, const lt_test *t) {
  assert(b && t && t->cpp);
  static const char *const quant[] = {"exists", "~exists", "forall"};
  lc_buf_printf(b, "%s %s\n", t->arch, t->name ? t->name : "");
  if (t->doc && *t->doc) lc_buf_printf(b, "%s\n", t->doc);
  inits(b, t);
  for (size_t i = 0; i < t->nthreads; i++) thread(b, t, i);
  lc_buf_putc(b, '\n');
  if (t->has_locations) {
    lc_buf_puts(b, "locations [");
    for (size_t i = 0; i < t->nlocations; i++) {
      lc_buf_puts(b, i ? " " : "");
      term(b, t, &t->locations[i]);
      lc_buf_putc(b, ';');
    }
    lc_buf_puts(b, "]\n");
  }
  if (t->filter) {
    lc_buf_puts(b, "filter ");
    lt_cpp_print_prop(b, t, t->filter);
    lc_buf_putc(b, '\n');
  }
  lc_buf_printf(b, "%s ", quant[t->quant <= LT_COND_FORALL ? t->quant : 0]);
  lt_cpp_print_prop(b, t, t->cond);
  lc_buf_putc(b, '\n');
}
