/* expr.c - values, expressions and propositions over observables.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <inttypes.h>
#include <string.h>

#include "exec/exec.h"

/* Arithmetic wraps like the hardware's 64-bit registers; it is done on
 * uint64_t because signed overflow is undefined in C. */
static lx_val wrap(uint64_t v) { return (lx_val)v; }

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
  lx_op w;
  *prewrap = false;
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
  case LT_PROP_CMP:
    return lx_cmp_apply(prop->cmp, term_value(p, &prop->lhs, obs), term_value(p, &prop->rhs, obs));
  case LT_PROP_NOT: return !lx_prop_eval(p, prop->l, obs);
  case LT_PROP_AND: return lx_prop_eval(p, prop->l, obs) && lx_prop_eval(p, prop->r, obs);
  case LT_PROP_OR: return lx_prop_eval(p, prop->l, obs) || lx_prop_eval(p, prop->r, obs);
  }
  return false;
}
