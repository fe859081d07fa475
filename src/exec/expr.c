/* expr.c - values, expressions and propositions over observables.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"

/* Arithmetic wraps like the hardware's 64-bit registers; it is done on
 * uint64_t because signed overflow is undefined in C. */
static lx_val wrap(uint64_t v) { return (lx_val)v; }

/* Floats are their binary32 bits in the low half of a value.  C's float
 * arithmetic on x86-64 and AArch64 is binary32 rounded to nearest even,
 * as the GPU's add.rn.f32 (FLT_EVAL_METHOD 0 is checked below). */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "float arithmetic must be done in float (FLT_EVAL_METHOD 0)"
#endif
#define CANONICAL_NAN 0x7fffffffu   /* the GPU's */

float lx_float_of(lx_val v) {
  uint32_t u = (uint32_t)v;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

lx_val lx_val_of_float(float f) {
  if (isnan(f)) return CANONICAL_NAN;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (lx_val)u;
}

static lx_val f2i(float f) {
  if (isnan(f)) return 0;
  if (f >= 9223372036854775808.0f) return INT64_MAX;
  if (f <= -9223372036854775808.0f) return INT64_MIN;
  return (lx_val)f;
}

static lx_val fkey(lx_val v) {
  uint32_t u = (uint32_t)v;
  return (u & 0x80000000u) ? -(lx_val)(u & 0x7fffffffu) : (lx_val)u;
}

lx_val lx_op_apply(lx_op op, lx_val a, lx_val b) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case LX_OP_ADD: return wrap(ua + ub);
  case LX_OP_SUB: return wrap(ua - ub);
  case LX_OP_MUL: return wrap(ua * ub);
  /* Integer division by zero is undefined in PTX; we pick x/0 = 0 and
   * x%0 = x (documented in docs/litmus-format.md) so both engines agree. */
  case LX_OP_DIV:
    if (b == 0) return 0;
    if (a == INT64_MIN && b == -1) return INT64_MIN;
    return a / b;
  case LX_OP_REM:
    if (b == 0) return a;
    if (a == INT64_MIN && b == -1) return 0;
    return a % b;
  case LX_OP_AND: return wrap(ua & ub);
  case LX_OP_OR: return wrap(ua | ub);
  case LX_OP_XOR: return wrap(ua ^ ub);
  case LX_OP_MIN: return a < b ? a : b;
  case LX_OP_MAX: return a > b ? a : b;
  case LX_OP_UMIN: return ua < ub ? a : b;
  case LX_OP_UMAX: return ua > ub ? a : b;
  /* PTX ISA atom: inc = (old >= b) ? 0 : old+1; dec = (old == 0 || old > b) ? b : old-1,
   * comparisons unsigned. */
  case LX_OP_INC: return ua >= ub ? 0 : wrap(ua + 1);
  case LX_OP_DEC: return (ua == 0 || ua > ub) ? b : wrap(ua - 1);
  case LX_OP_U32: return (lx_val)(ua & 0xffffffffu);
  case LX_OP_S32: return (lx_val)(int32_t)(uint32_t)(ua & 0xffffffffu);
  case LX_OP_SHL: return ub > 63 ? 0 : wrap(ua << ub);
  case LX_OP_SHR: return ub > 63 ? 0 : (lx_val)(ua >> ub);
  /* right shift of a negative value is implementation-defined in C: spelt out */
  case LX_OP_SAR:
    if (ub > 63) return a < 0 ? -1 : 0;
    return a < 0 ? (lx_val)~(~ua >> ub) : (lx_val)(ua >> ub);
  case LX_OP_FADD: return lx_val_of_float(lx_float_of(a) + lx_float_of(b));
  case LX_OP_FSUB: return lx_val_of_float(lx_float_of(a) - lx_float_of(b));
  case LX_OP_FMUL: return lx_val_of_float(lx_float_of(a) * lx_float_of(b));
  case LX_OP_FDIV: return lx_val_of_float(lx_float_of(a) / lx_float_of(b));
  case LX_OP_I2F: return lx_val_of_float((float)a);
  case LX_OP_U2F: return lx_val_of_float((float)ua);
  case LX_OP_F2I: return f2i(lx_float_of(a));
  case LX_OP_FKEY: return fkey(a);
  case LX_OP_FUNORD: return isnan(lx_float_of(a)) || isnan(lx_float_of(b));
  default: return lx_mbar_apply(op, a, b);
  }
  return 0;
}

bool lx_type_wrap(lt_type t, lx_op *op) {
  switch (t) {
  case LT_TYPE_U32: case LT_TYPE_B32: *op = LX_OP_U32; return true;
  case LT_TYPE_S32: *op = LX_OP_S32; return true;
  default: return false;
  }
}

lx_op lx_alu_op(lt_alu_op alu, lt_type t, bool *prewrap) {
  static const lx_op ops[] = {
    [LT_ALU_ADD] = LX_OP_ADD, [LT_ALU_SUB] = LX_OP_SUB, [LT_ALU_MUL] = LX_OP_MUL,
    [LT_ALU_DIV] = LX_OP_DIV, [LT_ALU_REM] = LX_OP_REM, [LT_ALU_AND] = LX_OP_AND,
    [LT_ALU_OR] = LX_OP_OR,   [LT_ALU_XOR] = LX_OP_XOR, [LT_ALU_SHL] = LX_OP_SHL,
  };
  static const lx_op fops[] = {
    [LT_ALU_ADD] = LX_OP_FADD, [LT_ALU_SUB] = LX_OP_FSUB, [LT_ALU_MUL] = LX_OP_FMUL,
    [LT_ALU_DIV] = LX_OP_FDIV,
  };
  lx_op w;
  *prewrap = false;
  switch (alu) {
  case LT_ALU_I2F: return LX_OP_I2F;
  case LT_ALU_U2F: return LX_OP_U2F;
  case LT_ALU_F2I: return LX_OP_F2I;
  case LT_ALU_FKEY: return LX_OP_FKEY;
  case LT_ALU_FUNORD: return LX_OP_FUNORD;
  default: break;
  }
  /* add sub mul div of floats (the C++ lowering makes no other) */
  if (t == LT_TYPE_F32 && alu <= LT_ALU_DIV) return fops[alu];
  if (alu != LT_ALU_SHR) return ops[alu];
  *prewrap = lx_type_wrap(t, &w);
  return t == LT_TYPE_S32 || t == LT_TYPE_S64 ? LX_OP_SAR : LX_OP_SHR;
}

lx_val lx_expr_eval(const lx_expr *e, const lx_val *read_values) {
  switch (e->kind) {
  case LX_X_CONST: return e->c;
  case LX_X_READ: return read_values[e->event];
  case LX_X_BIN: return lx_op_apply(e->op, lx_expr_eval(e->a, read_values), lx_expr_eval(e->b, read_values));
  }
  return 0;
}

bool lx_cmp_apply(lt_cmp cmp, lx_val a, lx_val b) {
  switch (cmp) {
  case LT_CMP_EQ: return a == b;
  case LT_CMP_NE: return a != b;
  case LT_CMP_LT: return a < b;
  case LT_CMP_LE: return a <= b;
  case LT_CMP_GT: return a > b;
  case LT_CMP_GE: return a >= b;
  }
  return false;
}

/* Addresses live in a band no litmus constant comes near, 256 bytes apart. */
#define ADDR_BASE ((lx_val)0x7ffe000000000000LL)

lx_val lx_addr_value(int vloc) { return ADDR_BASE + ((lx_val)vloc + 1) * 0x100; }

int lx_addr_loc(const lx_program *p, lx_val v) {
  assert(p);
  if (v <= ADDR_BASE || (v - ADDR_BASE) % 0x100 != 0) return -1;
  lx_val i = (v - ADDR_BASE) / 0x100 - 1;
  return i >= 0 && (size_t)i < p->nlocs ? (int)i : -1;
}

/* The shortest decimal that reads back as the same float, as a C literal
 * would be written without its f: 10.0, 2.5, 0.1, 1e+30, inf, nan. */
void lx_print_float(lc_buf *b, lx_val v) {
  float f = lx_float_of(v);
  if (isnan(f)) {
    lc_buf_puts(b, "nan");
    return;
  }
  if (isinf(f)) {
    lc_buf_puts(b, f < 0 ? "-inf" : "inf");
    return;
  }
  lt_float_digits(b, f);
}

void lx_print_obs(lc_buf *b, const lx_program *p, size_t k, lx_val v) {
  if (k < p->nobs && p->obs[k].fp) lx_print_float(b, v);
  else lx_print_value(b, p, v);
}

void lx_print_value(lc_buf *b, const lx_program *p, lx_val v) {
  assert(b && p);
  int l = lx_addr_loc(p, v);
  if (l >= 0)
    lc_buf_printf(b, "&%s", p->locs[l].name);
  else
    lc_buf_printf(b, "%" PRId64, v);
}

/* ---- propositions --------------------------------------------------------- */

int lx_obs_index(const lx_program *p, const lt_term *t) {
  assert(p && t);
  for (size_t i = 0; i < p->nobs; i++) {
    const lx_obs *o = &p->obs[i];
    if (t->kind == LT_TERM_REG && o->kind == LX_OBS_REG &&
        p->threads[o->thread].id == t->thread && p->threads[o->thread].regs[o->slot] == t->reg)
      return (int)i;
    /* by the location's name: a label may be x[0] for the location x */
    if (t->kind == LT_TERM_LOC && o->kind == LX_OBS_LOC && o->ploc >= 0 &&
        strcmp(p->plocs[o->ploc].name, t->loc) == 0)
      return (int)i;
  }
  return -1;
}

static int vloc_by_name(const lx_program *p, const char *name) {
  for (size_t i = 0; i < p->nlocs; i++)
    if (strcmp(p->locs[i].name, name) == 0) return (int)i;
  return -1;
}

/* Whether term t of a comparison is a float: a float literal, or a float
 * location's final value. */
static bool term_fp(const lx_program *p, const lt_term *t) {
  if (t->kind == LT_TERM_CONST) return t->fp;
  if (t->kind != LT_TERM_LOC && t->kind != LT_TERM_REG) return false;
  int i = lx_obs_index(p, t);
  return i >= 0 && p->obs[i].fp;
}

static lx_val term_value(const lx_program *p, const lt_term *t, const lx_val *obs) {
  switch (t->kind) {
  case LT_TERM_CONST: return t->value;
  case LT_TERM_ADDR: return lx_addr_value(vloc_by_name(p, t->loc));
  default: {
    int i = lx_obs_index(p, t);
    return i >= 0 ? obs[i] : 0;
  }
  }
}

bool lx_prop_eval(const lx_program *p, const lt_prop *prop, const lx_val *obs) {
  assert(p && prop);
  switch (prop->kind) {
  case LT_PROP_TRUE: return true;
  case LT_PROP_FALSE: return false;
  case LT_PROP_CMP: {
    lx_val a = term_value(p, &prop->lhs, obs), b = term_value(p, &prop->rhs, obs);
    bool fa = term_fp(p, &prop->lhs), fb = term_fp(p, &prop->rhs);
    if (!fa && !fb) return lx_cmp_apply(prop->cmp, a, b);
    /* a float compared with an integer or a float: as C compares them (the
     * integer converted; with a NaN, only != holds) */
    double x = fa ? (double)lx_float_of(a) : (double)a, y = fb ? (double)lx_float_of(b) : (double)b;
    switch (prop->cmp) {
    case LT_CMP_EQ: return x == y;
    case LT_CMP_NE: return x != y;
    case LT_CMP_LT: return x < y;
    case LT_CMP_LE: return x <= y;
    case LT_CMP_GT: return x > y;
    case LT_CMP_GE: return x >= y;
    }
    return false;
  }
  case LT_PROP_NOT: return !lx_prop_eval(p, prop->l, obs);
  case LT_PROP_AND: return lx_prop_eval(p, prop->l, obs) && lx_prop_eval(p, prop->r, obs);
  case LT_PROP_OR: return lx_prop_eval(p, prop->l, obs) || lx_prop_eval(p, prop->r, obs);
  }
  return false;
}
