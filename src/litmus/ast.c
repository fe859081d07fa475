/* ast.c - names of AST values and terms, structural equality (C++ bodies
 * included), freeing a test.
 * SPDX-License-Identifier: MIT
 */
#include "litmus/ast.h"
#include "litmus/cpp_ast.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void lt_test_free(lt_test *t) {
  if (t) lc_arena_free(t->arena);   /* t itself lives in its arena */
}

/* ---- names ------------------------------------------------------------------ */

#define NAME(table, i) ((size_t)(i) < LC_ARRAY_LEN(table) ? table[i] : "?")

const char *lt_sem_name(lt_sem s) {
  static const char *const n[] = {"", "weak", "relaxed", "acquire", "release", "acq_rel", "sc",
                                  "volatile", "mmio"};
  return NAME(n, s);
}

const char *lt_scope_name(lt_scope s) {
  static const char *const n[] = {"", "cta", "cluster", "gpu", "sys"};
  return NAME(n, s);
}

const char *lt_proxy_name(lt_proxy p) {
  static const char *const n[] = {"generic", "texture", "surface", "constant", "async"};
  return NAME(n, p);
}

const char *lt_cmp_name(lt_cmp c) {
  static const char *const n[] = {"==", "!=", "<", "<=", ">", ">="};
  return NAME(n, c);
}

const char *lt_space_name(lt_space s) {
  static const char *const n[] = {"", "global", "shared"};
  return NAME(n, s);
}

const char *lt_type_name(lt_type t) {
  static const char *const n[] = {"", "b32", "u32", "s32", "b64", "u64", "s64", "f32"};
  return NAME(n, t);
}

const char *lt_cache_name(lt_cache c) {
  static const char *const n[] = {"", "ca", "cg", "cs", "lu", "cv", "wb", "wt"};
  return NAME(n, c);
}

const char *lt_rmw_name(lt_rmw_op op) {
  static const char *const n[] = {"", "add", "sub", "and", "or", "xor", "exch",
                                  "min", "max", "inc", "dec", "cas"};
  return NAME(n, op);
}

const char *lt_alu_name(lt_alu_op op) {
  static const char *const n[] = {"mov", "add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr",
                                  "cvt.rn.f32.s64", "cvt.rn.f32.u64", "cvt.rzi.s64.f32", "fkey", "funord"};
  return NAME(n, op);
}

const char *lt_branch_name(lt_cmp c) {
  static const char *const n[] = {"beq", "bne", "blt", "ble", "bgt", "bge"};
  return NAME(n, c);
}

/* A float's bits (C++) as a literal that reads back the same: 2.5f. */
void lt_float_digits(lc_buf *b, float f) {
  char s[48];
  for (int prec = 1; prec <= 9; prec++) {   /* 9 significant digits always read back */
    snprintf(s, sizeof s, "%.*g", prec, (double)f);
    if (strtof(s, NULL) == f) break;
  }
  lc_buf_puts(b, s);
  if (!strpbrk(s, ".e")) lc_buf_puts(b, ".0");
}

void lt_print_float(lc_buf *b, int64_t bits) {
  uint32_t u = (uint32_t)bits;
  float f;
  memcpy(&f, &u, sizeof f);
  if (isnan(f) || isinf(f)) {   /* no literal: the C expression */
    lc_buf_puts(b, isnan(f) ? "(0.0f / 0.0f)" : f < 0 ? "(-1.0f / 0.0f)" : "(1.0f / 0.0f)");
    return;
  }
  lt_float_digits(b, f);
  lc_buf_putc(b, 'f');
}

/* A term's text: the PTX and the C++ printers and the reports share it. */
void lt_print_term(lc_buf *b, const lt_term *t) {
  assert(b && t);
  switch (t->kind) {
  case LT_TERM_REG: lc_buf_printf(b, "P%d:r%d", t->thread, t->reg); break;
  case LT_TERM_LOC: lc_buf_puts(b, t->loc); break;
  case LT_TERM_CONST:
    if (t->fp) lt_print_float(b, t->value);
    else lc_buf_printf(b, "%" PRId64, t->value);
    break;
  case LT_TERM_ADDR: lc_buf_printf(b, "&%s", t->loc); break;
  }
}

/* ---- equality ------------------------------------------------------------------- */

static bool str_eq(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static bool operand_eq(const lt_operand *a, const lt_operand *b) {
  if (a->kind != b->kind || a->bracketed != b->bracketed) return false;
  switch (a->kind) {
  case LT_OPND_IMM: return a->imm == b->imm;
  case LT_OPND_REG: case LT_OPND_REGADDR: return a->reg == b->reg;
  case LT_OPND_LOC: return str_eq(a->loc, b->loc);
  default: return true;
  }
}

static bool instr_eq(const lt_instr *a, const lt_instr *b) {
  if (!a || !b) return a == b;
  return a->kind == b->kind && a->sem == b->sem && a->scope == b->scope &&
         a->proxy == b->proxy && a->space == b->space && a->type == b->type &&
         a->cache == b->cache && a->rmw == b->rmw && a->alu == b->alu && a->cmp == b->cmp &&
         a->membar == b->membar && a->fence_no_sem == b->fence_no_sem &&
         a->bar_arrive == b->bar_arrive && a->bar_cta_suffix == b->bar_cta_suffix &&
         a->nbar_operands == b->nbar_operands && operand_eq(&a->dst, &b->dst) &&
         operand_eq(&a->addr, &b->addr) && operand_eq(&a->a, &b->a) &&
         operand_eq(&a->b, &b->b) && operand_eq(&a->c, &b->c) && str_eq(a->label, b->label) &&
         a->mbar_init_fence == b->mbar_init_fence && a->shared == b->shared &&
         a->bar_cluster == b->bar_cluster && a->bar_grid == b->bar_grid && a->bar_wait == b->bar_wait && a->aligned == b->aligned &&
         a->mbar == b->mbar && a->parity == b->parity && a->sink == b->sink && a->bulk == b->bulk &&
         a->wait_read == b->wait_read;
}

static bool thread_eq(const lt_thread *a, const lt_thread *b) {
  if (a->id != b->id || a->cta != b->cta || a->cluster != b->cluster || a->gpu != b->gpu ||
      a->ncells != b->ncells)
    return false;
  for (size_t i = 0; i < a->ncells; i++)
    if (!str_eq(a->cells[i].label, b->cells[i].label) ||
        !instr_eq(a->cells[i].instr, b->cells[i].instr))
      return false;
  return true;
}

static bool init_eq(const lt_init *a, const lt_init *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case LT_INIT_ALIAS:
    return str_eq(a->loc, b->loc) && a->proxy == b->proxy && str_eq(a->target, b->target);
  case LT_INIT_REG:
    if (a->thread != b->thread || a->reg != b->reg) return false;
    break;
  case LT_INIT_LOC:
    if (!str_eq(a->loc, b->loc)) return false;
    break;
  }
  if (!str_eq(a->value_loc, b->value_loc)) return false;
  return a->value_loc ? a->value_amp == b->value_amp : a->value == b->value;
}

static bool term_eq(const lt_term *a, const lt_term *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case LT_TERM_REG: return a->thread == b->thread && a->reg == b->reg;
  case LT_TERM_CONST: return a->value == b->value && a->fp == b->fp;
  default: return str_eq(a->loc, b->loc);
  }
}

static bool prop_eq(const lt_prop *a, const lt_prop *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind || a->parens != b->parens) return false;
  switch (a->kind) {
  case LT_PROP_CMP: return a->cmp == b->cmp && term_eq(&a->lhs, &b->lhs) && term_eq(&a->rhs, &b->rhs);
  case LT_PROP_NOT: return prop_eq(a->l, b->l);
  case LT_PROP_AND: case LT_PROP_OR: return prop_eq(a->l, b->l) && prop_eq(a->r, b->r);
  default: return true;
  }
}

/* ---- C++ bodies ------------------------------------------------------------------ */

static bool expr_eq(const lt_cexpr *a, const lt_cexpr *b);

static bool atomic_eq(const lt_catomic *a, const lt_catomic *b) {
  return a->kind == b->kind && a->op == b->op && a->weak == b->weak && a->mo == b->mo &&
         a->mo_fail == b->mo_fail && a->scope == b->scope && a->cuda_fn == b->cuda_fn &&
         expr_eq(a->obj, b->obj) &&
         expr_eq(a->val, b->val) && expr_eq(a->expected, b->expected) &&
         expr_eq(a->desired, b->desired);
}

static bool expr_eq(const lt_cexpr *a, const lt_cexpr *b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind || a->parens != b->parens) return false;
  switch (a->kind) {
  case LT_CE_CONST: return a->value == b->value && a->ctype == b->ctype;
  case LT_CE_CAST: return a->ctype == b->ctype && str_eq(a->type, b->type) && expr_eq(a->a, b->a);
  case LT_CE_LOCAL: case LT_CE_ADDR: return a->local == b->local;
  case LT_CE_LOC: return str_eq(a->loc, b->loc);
  case LT_CE_DEREF: return expr_eq(a->a, b->a);
  case LT_CE_UNARY: return a->op == b->op && expr_eq(a->a, b->a);
  case LT_CE_BINARY: return a->op == b->op && expr_eq(a->a, b->a) && expr_eq(a->b, b->b);
  case LT_CE_ATOMIC: return atomic_eq(&a->atomic, &b->atomic);
  case LT_CE_COND: return expr_eq(a->a, b->a) && expr_eq(a->b, b->b) && expr_eq(a->c, b->c);
  }
  return false;
}

static bool block_eq(const lt_cblock *a, const lt_cblock *b);

static bool stmt_eq(const lt_cstmt *a, const lt_cstmt *b) {
  if (a->kind != b->kind || a->has_else != b->has_else) return false;
  if ((a->kind == LT_CS_DECL || a->kind == LT_CS_ASSIGN) && a->local != b->local) return false;
  return str_eq(a->type, b->type) && expr_eq(a->ptr, b->ptr) && expr_eq(a->e, b->e) &&
         block_eq(&a->body, &b->body) && block_eq(&a->els, &b->els);
}

static bool block_eq(const lt_cblock *a, const lt_cblock *b) {
  if (a->n != b->n) return false;
  for (size_t i = 0; i < a->n; i++)
    if (!stmt_eq(a->v[i], b->v[i])) return false;
  return true;
}

bool lt_cpp_equal(const lt_cpp *a, const lt_cpp *b, size_t nthreads) {
  if (!a || !b) return a == b;
  if (a->dialect != b->dialect || a->ninits != b->ninits) return false;
  for (size_t i = 0; i < a->ninits; i++) {
    const lt_cinit *x = &a->inits[i], *y = &b->inits[i];
    if (x->first != y->first || x->n != y->n || !str_eq(x->type, y->type) ||
        x->bracketed != y->bracketed || x->array_len != y->array_len)
      return false;
  }
  for (size_t i = 0; i < nthreads; i++) {
    const lt_cpp_thread *x = &a->threads[i], *y = &b->threads[i];
    if (x->placed != y->placed || x->nparams != y->nparams || x->nlocals != y->nlocals) return false;
    for (size_t k = 0; k < x->nparams; k++)
      if (!str_eq(x->params[k].type, y->params[k].type) || !str_eq(x->params[k].name, y->params[k].name))
        return false;
    for (size_t k = 0; k < x->nlocals; k++)
      if (!str_eq(x->locals[k], y->locals[k])) return false;
    if (!block_eq(&x->body, &y->body)) return false;
  }
  return true;
}

bool lt_test_equal(const lt_test *a, const lt_test *b) {
  assert(a && b);
  if (!str_eq(a->arch, b->arch) || !str_eq(a->name, b->name) || !str_eq(a->doc, b->doc) ||
      a->ninits != b->ninits || a->nthreads != b->nthreads || a->nrows != b->nrows ||
      a->nmap != b->nmap || a->has_locations != b->has_locations ||
      a->nlocations != b->nlocations || a->quant != b->quant)
    return false;
  for (size_t i = 0; i < a->ninits; i++)
    if (!init_eq(&a->inits[i], &b->inits[i])) return false;
  for (size_t i = 0; i < a->nthreads; i++)
    if (!thread_eq(&a->threads[i], &b->threads[i])) return false;
  for (size_t i = 0; i < a->nmap; i++)
    if (!str_eq(a->map[i].loc, b->map[i].loc) || a->map[i].space != b->map[i].space) return false;
  for (size_t i = 0; i < a->nlocations; i++)
    if (!term_eq(&a->locations[i], &b->locations[i])) return false;
  if (!lt_cpp_equal(a->cpp, b->cpp, a->nthreads)) return false;
  return prop_eq(a->filter, b->filter) && prop_eq(a->cond, b->cond);
}

bool lt_uses_hopper(const lt_test *t) {
  assert(t);
  for (size_t i = 0; i < t->nthreads; i++)
    for (size_t c = 0; c < t->threads[i].ncells; c++) {
      const lt_instr *in = t->threads[i].cells[c].instr;
      if (!in) continue;
      if (in->kind == LT_I_MBAR || in->kind == LT_I_BULK || in->kind == LT_I_MAPA || in->bar_cluster ||
          in->mbar_init_fence || in->proxy == LT_PROXY_ASYNC)
        return true;
    }
  return false;
}

const char *lt_thread_label(const lt_test *t, size_t i) {
  return t && t->thread_label && i < t->nthreads && t->thread_label[i] ? t->thread_label[i] : "";
}
