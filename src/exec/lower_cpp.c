/* lower_cpp.c - a C++ test's bodies compiled to the instruction cells the
 * lowering reads (lx_lower calls this for a test with t->cpp).
 * SPDX-License-Identifier: MIT
 *
 * This is not a compilation to PTX (no mapping of orders to fences): each
 * C++ access becomes one instruction that carries its C++ order (in `sem`)
 * and its scope, marked `cpp`, so that the events keep C++'s meaning:
 *   non-atomic access         ld/st with sem weak (C++ na)
 *   atomic load/store         ld/st with the order (seq_cst is sem sc)
 *   exchange, fetch_OP        atom.OP (the halves split as C++ says, lower.c)
 *   compare-exchange          atom.cas (see lt_instr.cpp in ast.h)
 *   atomic_thread_fence       fence with the order; a relaxed fence is nothing
 *   __syncthreads()           bar.cta.sync 0
 *   this_grid().sync()        a barrier of the GPU's threads (bar_grid)
 *   volatile access           ld/st with sem volatile (relaxed, system scope;
 *                             cuda-cpp.cat's option `volatile` decides)
 *   atomicAdd(p, v), ...      atom.OP relaxed at the function's scope;
 *                             atomicCAS: the old value, nothing written back
 * Locals are registers r0.. in declaration order (the condition's `1:r0`
 * was resolved to those numbers by the parser); temporaries follow them.
 * if/else, while, && and || become branches with labels, so loops unroll
 * exactly as PTX loops do.
 */
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "exec/internal.h"
#include "litmus/cpp_ast.h"
#include "litmus/lex.h"

typedef LC_VEC(lt_cell) cell_vec;

typedef struct cc {
  lc_arena *a;
  lc_diag *d;
  const lt_test *t;
  const lt_cpp_thread *ct;
  cell_vec cells;
  int next_temp;
  int nlabels;
  const char *pending;     /* a label waiting for the next instruction */
  bool failed;
  LC_VEC(const char *) breaks;   /* the end label of each loop the statement is in */
  LC_VEC(const char *) continues; /* the top label of each loop the statement is in */
  lt_ctype *ltype;               /* each local's type, from its declaration */
  const char *ret;               /* the end of the thread (`return;`), once needed */
  /* The full-expression being compiled (lt_seq): its number (0 between
   * them) and the operand slots from its root down to the node compiled
   * now; seq caches them for the instructions made there. */
  int stmt, nstmts;
  LC_VEC(uint8_t) slots;
  const lt_seq *seq;
} cc;

/* ---- cells, instructions, operands ---------------------------------------------- */

static void fail(cc *c, lc_loc at, const char *msg) {
  if (!c->failed) lc_error(c->d, at, "%s", msg);
  c->failed = true;
}

static void push_cell(cc *c, lt_instr *in, lc_loc at) {
  lt_cell cell = {0};
  cell.label = c->pending;
  cell.instr = in;
  cell.at = at;
  c->pending = NULL;
  lc_vec_push(&c->cells, cell);
}

static const char *new_label(cc *c) {
  char buf[32];
  snprintf(buf, sizeof buf, "L%d", c->nlabels++);
  return lc_arena_strdup(c->a, buf);
}

static void place(cc *c, const char *label, lc_loc at) {
  if (c->pending) push_cell(c, NULL, at);
  c->pending = label;
}

/* ---- sequencing (lt_seq): where in its full-expression an instruction is made */

static void full_expr(cc *c) {
  c->stmt = ++c->nstmts;
  c->slots.n = 0;
  c->seq = NULL;
}

static void end_full_expr(cc *c) {
  c->stmt = 0;
  c->seq = NULL;
}

/* Down into operand `slot` of the node compiled now; unseq: that node's
 * operands are unsequenced (C11 6.5p2-3).  Paired with up(). */
static void down(cc *c, int slot, bool unseq) {
  lc_vec_push(&c->slots, (uint8_t)(slot | (unseq ? LT_SEQ_UNSEQ : 0)));
  c->seq = NULL;
}

static void up(cc *c) {
  c->slots.n--;
  c->seq = NULL;
}

static const lt_seq *here(cc *c) {
  if (!c->stmt) return NULL;
  if (!c->seq) {
    lt_seq *q = lc_arena_alloc(c->a, sizeof *q);
    uint8_t *path = lc_arena_alloc(c->a, c->slots.n ? c->slots.n : 1);
    if (c->slots.n) memcpy(path, c->slots.v, c->slots.n);
    q->stmt = c->stmt;
    q->depth = (int)c->slots.n;
    q->path = path;
    c->seq = q;
  }
  return c->seq;
}

/* An instruction not yet in a cell (put places accesses). */
static lt_instr *mk(cc *c, lt_instr_kind kind, lc_loc at) {
  lt_instr *in = lc_arena_alloc(c->a, sizeof *in);
  in->kind = kind;
  in->at = in->sem_at = in->scope_at = at;
  in->cpp = true;
  in->type = LT_TYPE_S32;
  in->seq = here(c);
  return in;
}

static lt_instr *emit(cc *c, lt_instr_kind kind, lc_loc at) {
  lt_instr *in = mk(c, kind, at);
  push_cell(c, in, at);
  return in;
}

static lt_operand imm(int64_t v, lc_loc at) {
  lt_operand o = {0};
  o.kind = LT_OPND_IMM;
  o.imm = v;
  o.at = at;
  return o;
}

static lt_operand reg(int r, lc_loc at) {
  lt_operand o = {0};
  o.kind = LT_OPND_REG;
  o.reg = r;
  o.at = at;
  return o;
}

static lt_operand temp(cc *c, lc_loc at) { return reg(c->next_temp++, at); }

static lt_sem mo_sem(lt_mo mo) {
  switch (mo) {
  case LT_MO_NA: return LT_SEM_WEAK;
  case LT_MO_RELAXED: return LT_SEM_RELAXED;
  case LT_MO_CONSUME:
  case LT_MO_ACQUIRE: return LT_SEM_ACQUIRE;
  case LT_MO_RELEASE: return LT_SEM_RELEASE;
  case LT_MO_ACQ_REL: return LT_SEM_ACQ_REL;
  case LT_MO_SEQ_CST: return LT_SEM_SC;
  }
  return LT_SEM_SC;
}

/* ---- types (lt_ctype): each value is held in 64 bits as its type reads
 * it (an unsigned zero-extended, an int sign-extended), and a result of a
 * 32-bit type wraps at 32 bits (the ALU's type, exec/lower.c) ---------------- */

static lt_type ptx_type(lt_ctype t) {
  static const lt_type map[] = {[LT_CT_INT] = LT_TYPE_S32, [LT_CT_UINT] = LT_TYPE_U32,
                                [LT_CT_LLONG] = LT_TYPE_S64, [LT_CT_ULLONG] = LT_TYPE_U64,
                                [LT_CT_FLOAT] = LT_TYPE_F32};
  return map[t];
}

/* C11 6.3.1.8: the common type of two operands (int is 32 bits, long
 * long 64, so long long holds every unsigned). */
static lt_ctype common(lt_ctype a, lt_ctype b) {
  if (a == LT_CT_FLOAT || b == LT_CT_FLOAT) return LT_CT_FLOAT;
  if (a == LT_CT_ULLONG || b == LT_CT_ULLONG) return LT_CT_ULLONG;
  if (a == LT_CT_LLONG || b == LT_CT_LLONG) return LT_CT_LLONG;
  if (a == LT_CT_UINT || b == LT_CT_UINT) return LT_CT_UINT;
  return LT_CT_INT;
}

static void mov_typed(cc *c, lt_operand dst, lt_operand v, lt_ctype t, lc_loc at) {
  lt_instr *in = emit(c, LT_I_ALU, at);
  in->alu = LT_ALU_MOV;
  in->dst = dst;
  in->a = v;
  in->type = ptx_type(t);
}

/* A move of an int (a 0/1 flag). */
static void mov(cc *c, lt_operand dst, lt_operand v, lc_loc at) { mov_typed(c, dst, v, LT_CT_INT, at); }

/* v of type `from` as type `to`: to a 32-bit type the value wraps (C11
 * 6.3.1.3: modulo 2^32 for unsigned; for int, implementation-defined,
 * two's complement in nvcc); the 64-bit types hold every value as is. */
static lt_operand alu(cc *c, lt_alu_op op, lt_operand a, lt_operand b, lt_ctype t, lc_loc at);

static lt_operand convert(cc *c, lt_operand v, lt_ctype from, lt_ctype to, lc_loc at) {
  if (from == to) return v;
  /* C11 6.3.1.4, 6.3.1.5: an integer to float rounds (to nearest, nvcc's
   * cvt.rn); a float to an integer truncates (out of range is undefined:
   * lx_op F2I's saturation, as cvt.rzi's) */
  if (to == LT_CT_FLOAT) {
    lt_alu_op op = from == LT_CT_ULLONG ? LT_ALU_U2F : LT_ALU_I2F;
    if (v.kind == LT_OPND_IMM) {
      v.imm = lx_op_apply(op == LT_ALU_U2F ? LX_OP_U2F : LX_OP_I2F, v.imm, 0);
      return v;
    }
    return alu(c, op, v, imm(0, at), LT_CT_FLOAT, at);
  }
  if (from == LT_CT_FLOAT) {
    if (v.kind == LT_OPND_IMM) v.imm = lx_op_apply(LX_OP_F2I, v.imm, 0);
    else v = alu(c, LT_ALU_F2I, v, imm(0, at), LT_CT_LLONG, at);
    from = LT_CT_LLONG;
    if (to == LT_CT_LLONG) return v;
  }
  if (from == to || to == LT_CT_LLONG || to == LT_CT_ULLONG) return v;
  if (v.kind == LT_OPND_IMM) {
    v.imm = lx_op_apply(to == LT_CT_UINT ? LX_OP_U32 : LX_OP_S32, v.imm, 0);
    return v;
  }
  lt_operand t = temp(c, at);
  mov_typed(c, t, v, to, at);
  return t;
}

static lt_instr *branch(cc *c, lt_cmp cmp, lt_operand a, lt_operand b, const char *label, lc_loc at) {
  lt_instr *in = emit(c, LT_I_BRANCH, at);
  in->cmp = cmp;
  in->a = a;
  in->b = b;
  in->label = label;
  in->label_at = at;
  return in;
}

static void go(cc *c, const char *label, lc_loc at) {
  lt_instr *in = emit(c, LT_I_GOTO, at);
  in->label = label;
  in->label_at = at;
}

/* Behaviour undefined from here (C: an index outside its array, a
 * division by zero): a loop of its own the unroll bound cuts, marked by
 * its label, so the path never yields a final state and an allowed
 * execution that takes it is reported (lx_path.ub) rather than lost. */
static void undefined(cc *c, char what, lc_loc at) {
  char buf[32];
  snprintf(buf, sizeof buf, "%s%c%d", LX_UB_LABEL, what, c->nlabels++);
  const char *l = lc_arena_strdup(c->a, buf);
  place(c, l, at);
  go(c, l, at);
}

/* ---- expressions ---------------------------------------------------------------- */

static lt_operand expr(cc *c, const lt_cexpr *e);
static void cond_false(cc *c, const lt_cexpr *e, const char *lfalse);
static void cond_true(cc *c, const lt_cexpr *e, const char *ltrue);

/* expr, cond_false and cond_true on operand `slot` of the node compiled
 * now (down) */
static lt_operand sub(cc *c, const lt_cexpr *e, int slot, bool unseq) {
  down(c, slot, unseq);
  lt_operand o = expr(c, e);
  up(c);
  return o;
}

static void sub_false(cc *c, const lt_cexpr *e, int slot, const char *lfalse) {
  down(c, slot, false);
  cond_false(c, e, lfalse);
  up(c);
}

static void sub_true(cc *c, const lt_cexpr *e, int slot, const char *ltrue) {
  down(c, slot, false);
  cond_true(c, e, ltrue);
  up(c);
}

static const lt_cinit *array_of(const cc *c, const char *name) {
  const lt_cpp *cpp = c->t->cpp;
  for (size_t i = 0; i < cpp->ninits; i++)
    if (cpp->inits[i].array_len >= 0 && strcmp(c->t->inits[cpp->inits[i].first].loc, name) == 0)
      return &cpp->inits[i];
  return NULL;
}

static const char *element(cc *c, const char *array, long k) {
  if (k == 0) return array;
  char buf[64];
  snprintf(buf, sizeof buf, "%s[%ld]", array, k);
  return lc_arena_strdup(c->a, buf);
}

/* The location a pointer expression names, statically: `x`, `x + k` and
 * `&x` (element k of an array `x` is the location `x[k]`). */
static lt_operand address(cc *c, const lt_cexpr *p) {
  lt_operand o = {0};
  o.at = p->at;
  if (p->kind == LT_CE_LOC) {
    o.kind = LT_OPND_LOC;
    o.loc = p->loc;
    return o;
  }
  if (p->kind == LT_CE_BINARY && p->op == LT_COP_ADD && p->a->kind == LT_CE_LOC &&
      p->b->kind == LT_CE_CONST) {
    o.kind = LT_OPND_LOC;
    o.loc = p->a->loc;
    if (p->b->value == 0) return o;
    const lt_cinit *arr = array_of(c, p->a->loc);
    if (!arr || p->b->value < 0 || p->b->value >= arr->array_len)
      fail(c, p->at, "outside the location: x + k needs an array x of the init block with more "
                     "than k elements (atomic_int x[2] = {0, 0};)");
    else
      o.loc = element(c, p->a->loc, (long)p->b->value);
    return o;
  }
  if (p->kind == LT_CE_LOCAL) {   /* a local holding an address (int* p = x;) */
    o.kind = LT_OPND_REGADDR;
    o.reg = p->local;
    return o;
  }
  fail(c, p->at, "this pointer is neither a location (x, x + k, a local holding one) nor an "
                 "element of an init-block array (x + i for atomic_int x[N]); other computed "
                 "addresses are not supported");
  o.kind = LT_OPND_LOC;
  o.loc = "?";
  return o;
}

/* Places the access `in` (its address still to fill) at the location p
 * points to.  `x + i` with x an array of the init block and i computed
 * at run time is a branch per element, each with its own copy of the
 * access (addresses must be static for the engines); an index outside the
 * array is undefined behaviour in C (undefined). */
static void put(cc *c, const lt_cexpr *p, lt_instr *in) {
  const lt_cinit *arr = NULL;
  bool computed = p->kind == LT_CE_BINARY && p->op == LT_COP_ADD && p->a->kind == LT_CE_LOC &&
                  p->b->kind != LT_CE_CONST;
  if (computed) arr = array_of(c, p->a->loc);
  /* diy's address dependency `x + (r0 & 128)` on a location that is no
   * array: x is an array of one element (C11 6.5.6p7), so the offset must
   * be 0, else undefined behaviour.  Only a masked offset (e & K) is read
   * so: another computed offset on a scalar stays an error (address). */
  bool masked = computed && !arr && p->b->kind == LT_CE_BINARY && p->b->op == LT_COP_AND &&
                (p->b->a->kind == LT_CE_CONST || p->b->b->kind == LT_CE_CONST);
  long len = arr ? arr->array_len : 1;
  if (!computed || (!arr && !masked)) {
    in->addr = address(c, p);
    push_cell(c, in, in->at);
    return;
  }
  down(c, 1, true);   /* the index: operand b of p's + (its a, the array, reads nothing) */
  lt_operand idx = expr(c, p->b);
  up(c);
  const char *lend = new_label(c);
  for (long k = 0; k < len; k++) {
    const char *lnext = new_label(c);
    branch(c, LT_CMP_NE, idx, imm(k, p->at), lnext, p->at);
    lt_instr *copy = mk(c, in->kind, in->at);
    *copy = *in;
    copy->addr.kind = LT_OPND_LOC;
    copy->addr.loc = element(c, p->a->loc, k);
    copy->addr.at = p->at;
    push_cell(c, copy, in->at);
    go(c, lend, p->at);
    place(c, lnext, p->at);
  }
  undefined(c, 'i', p->at);
  place(c, lend, p->at);
}

/* The declared type of the location pointer p names (`x`, `x + k`). */
static lt_param_type param_type(const cc *c, const lt_cexpr *p) {
  if (p->kind == LT_CE_BINARY && p->op == LT_COP_ADD) p = p->a;
  lt_param_type none = {0};
  if (p->kind != LT_CE_LOC) return none;
  long i = lt_cpp_param_index(c->ct, p->loc, strlen(p->loc));
  return i < 0 ? none : lt_cpp_param_type(c->ct->params[i].type);
}

/* The value type of the location pointer p names: its parameter's
 * pointee (or object's value) type, else its typed init entry's, else int. */
static lt_ctype loc_ctype(const cc *c, const lt_cexpr *p) {
  if (p->kind == LT_CE_BINARY && p->op == LT_COP_ADD) p = p->a;
  if (p->kind != LT_CE_LOC) return LT_CT_INT;
  const char *type = NULL;
  for (size_t i = 0; i < c->ct->nparams && !type; i++)
    if (strcmp(c->ct->params[i].name, p->loc) == 0) type = c->ct->params[i].type;
  const lt_cpp *cpp = c->t->cpp;
  for (size_t i = 0; i < cpp->ninits && !type; i++)
    if (cpp->inits[i].type && strcmp(c->t->inits[cpp->inits[i].first].loc, p->loc) == 0) type = cpp->inits[i].type;
  return type ? lt_cpp_pointee_ctype(type) : LT_CT_INT;
}

/* A non-atomic access through p: volatile when p is a volatile int* of a
 * CUDA test, as nvcc compiles it.  herd's C dialect (header `C`) is ISO C,
 * where volatile is not atomic, and herd7 reads it so: a volatile access
 * there stays a plain one, so herd's tests keep herd7's races. */
static void plain_access(const cc *c, lt_instr *in, const lt_cexpr *p) {
  lt_param_type pt = param_type(c, p);
  bool vol = pt.kind == LT_PK_VOLATILE && c->t->cpp->dialect == LT_CPP_CUDA;
  in->sem = vol ? LT_SEM_VOLATILE : LT_SEM_WEAK;   /* (system scope: lower.c) */
  in->type = ptx_type(loc_ctype(c, p));
}

static void set_scope(lt_instr *in, const lt_catomic *a) {
  in->scope = lt_ts_scope(a->scope);
  if (a->scope_at.line) in->scope_at = a->scope_at;
  if (a->mo_at.line) in->sem_at = a->mo_at;
  if (a->cuda_fn) in->cpp_form = LT_CF_CUDA_FN;
}

/* The form and value type of an access to a->obj (lt_instr.cpp_form). */
static void set_form(const cc *c, lt_instr *in, const lt_catomic *a) {
  lt_param_type pt = param_type(c, a->obj);
  if (!a->cuda_fn && pt.kind == LT_PK_OBJECT) in->cpp_form = LT_CF_OBJECT;
  in->type = ptx_type(loc_ctype(c, a->obj));
  if (a->op == LT_RMW_INC || a->op == LT_RMW_DEC) in->type = LT_TYPE_U32;
}

static lt_ctype etype(const cc *c, const lt_cexpr *e);

/* The value type of the atomic object a works on. */
static lt_ctype obj_ctype(const cc *c, const lt_catomic *a) {
  if (a->op == LT_RMW_INC || a->op == LT_RMW_DEC) return LT_CT_UINT;
  return loc_ctype(c, a->obj);
}

/* Operand `slot` of the atomic a (1 val, 2 expected, 3 desired; 0 is the
 * object), converted to its object's type.  The arguments of one call
 * are unsequenced (C11 6.5.2.2p10). */
static lt_operand atomic_operand(cc *c, const lt_catomic *a, const lt_cexpr *v, int slot) {
  down(c, slot, true);
  lt_operand o = convert(c, expr(c, v), etype(c, v), obj_ctype(c, a), v->at);
  up(c);
  return o;
}

/* The access `in` of an atomic operation placed at its object (slot 0). */
static void put_obj(cc *c, const lt_catomic *a, lt_instr *in) {
  down(c, 0, true);
  put(c, a->obj, in);
  up(c);
}

static lt_operand atomic(cc *c, const lt_cexpr *e) {
  const lt_catomic *a = &e->atomic;
  lc_loc at = e->at;
  if (a->kind == LT_CA_FENCE) {
    if (a->mo != LT_MO_RELAXED) {   /* a relaxed fence orders nothing */
      lt_instr *in = emit(c, LT_I_FENCE, at);
      in->sem = mo_sem(a->mo);
      set_scope(in, a);
    }
    return imm(0, at);
  }
  lt_operand val = a->val ? atomic_operand(c, a, a->val, 1) : imm(0, at);
  if (a->kind == LT_CA_STORE) {
    lt_instr *in = mk(c, LT_I_ST, at);
    in->a = val;
    in->sem = mo_sem(a->mo);
    set_scope(in, a);
    set_form(c, in, a);
    put_obj(c, a, in);
    return imm(0, at);
  }
  lt_operand dst = temp(c, at);
  if (a->kind == LT_CA_LOAD) {
    lt_instr *in = mk(c, LT_I_LD, at);
    in->dst = dst;
    in->sem = mo_sem(a->mo);
    set_scope(in, a);
    set_form(c, in, a);
    put_obj(c, a, in);
    return dst;
  }
  if (a->kind != LT_CA_CAS) {
    lt_instr *in = mk(c, LT_I_ATOM, at);
    in->rmw = a->kind == LT_CA_EXCHANGE ? LT_RMW_EXCH : a->op;
    if (obj_ctype(c, a) == LT_CT_FLOAT && in->rmw != LT_RMW_ADD && in->rmw != LT_RMW_SUB && in->rmw != LT_RMW_EXCH)
      fail(c, at, "this read-modify-write of a float: atomicAdd, fetch_add/fetch_sub and exchange are modelled");
    in->dst = dst;
    in->a = val;
    in->sem = mo_sem(a->mo);
    set_scope(in, a);
    set_form(c, in, a);
    put_obj(c, a, in);
    return dst;
  }
  if (a->cuda_fn) {   /* atomicCAS(p, compare, val): the old value */
    lt_operand cmp = temp(c, at);   /* a copy: a failed cas writes the old value to `a` */
    mov_typed(c, cmp, atomic_operand(c, a, a->expected, 2), obj_ctype(c, a), at);
    lt_operand desired = atomic_operand(c, a, a->desired, 3);
    lt_instr *in = mk(c, LT_I_ATOM, at);
    in->rmw = LT_RMW_CAS;
    in->dst = dst;
    in->a = cmp;
    in->b = desired;
    in->sem = mo_sem(a->mo);
    in->mo_fail = a->mo_fail;
    set_scope(in, a);
    set_form(c, in, a);
    put_obj(c, a, in);
    return dst;
  }
  lt_operand addr = address(c, a->obj);
  /* the arguments first: the call reads *expected (C11 6.5.2.2p10, a
   * sequence point before the call) */
  lt_operand desired = atomic_operand(c, a, a->desired, 3);
  /* compare-exchange: the expected value is a local (&r) or in memory */
  lt_operand expected;
  bool in_memory = a->expected->kind != LT_CE_ADDR;
  lt_operand eaddr = {0};
  if (in_memory) {
    eaddr = address(c, a->expected);
    expected = temp(c, at);
    lt_instr *ld = emit(c, LT_I_LD, at);
    ld->dst = expected;
    ld->addr = eaddr;
    ld->sem = LT_SEM_WEAK;
  } else {
    expected = reg(a->expected->local, at);
  }
  lt_operand ok = temp(c, at);
  lt_instr *in = emit(c, LT_I_ATOM, at);
  in->rmw = LT_RMW_CAS;
  in->dst = dst;
  in->addr = addr;
  in->a = expected;
  in->b = desired;
  in->c = ok;
  in->sem = mo_sem(a->mo);
  in->mo_fail = a->mo_fail;
  in->cas_weak = a->weak;
  set_scope(in, a);
  set_form(c, in, a);
  if (in_memory) {   /* on failure, *expected = old (ok is a constant on each path) */
    const char *skip = new_label(c);
    branch(c, LT_CMP_NE, ok, imm(0, at), skip, at);
    lt_instr *st = emit(c, LT_I_ST, at);
    st->addr = eaddr;
    st->a = expected;
    st->sem = LT_SEM_WEAK;
    place(c, skip, at);
  }
  return ok;
}

static bool is_cmp(lt_cop op, lt_cmp *cmp) {
  switch (op) {
  case LT_COP_EQ: *cmp = LT_CMP_EQ; return true;
  case LT_COP_NE: *cmp = LT_CMP_NE; return true;
  case LT_COP_LT: *cmp = LT_CMP_LT; return true;
  case LT_COP_LE: *cmp = LT_CMP_LE; return true;
  case LT_COP_GT: *cmp = LT_CMP_GT; return true;
  case LT_COP_GE: *cmp = LT_CMP_GE; return true;
  default: return false;
  }
}

static lt_cmp negate(lt_cmp c) {
  static const lt_cmp neg[] = {[LT_CMP_EQ] = LT_CMP_NE, [LT_CMP_NE] = LT_CMP_EQ,
                               [LT_CMP_LT] = LT_CMP_GE, [LT_CMP_LE] = LT_CMP_GT,
                               [LT_CMP_GT] = LT_CMP_LE, [LT_CMP_GE] = LT_CMP_LT};
  return neg[c];
}

static bool is_bool(const lt_cexpr *e) {
  lt_cmp cmp;
  return (e->kind == LT_CE_UNARY && e->op == LT_COP_NOT) ||
         (e->kind == LT_CE_BINARY && (is_cmp(e->op, &cmp) || e->op == LT_COP_LAND || e->op == LT_COP_LOR));
}

/* The result of op on a and b of type t, which wraps at t's width. */
static lt_operand alu(cc *c, lt_alu_op op, lt_operand a, lt_operand b, lt_ctype t, lc_loc at) {
  lt_operand dst = temp(c, at);
  lt_instr *in = emit(c, LT_I_ALU, at);
  in->alu = op;
  in->dst = dst;
  in->a = a;
  in->b = b;
  in->type = ptx_type(t);
  return dst;
}

/* The type of e's value (C11 6.3.1.8 for operators; a comparison, !, &&
 * and || give int).  Recursion is bounded by the parser's height. */
static lt_ctype etype(const cc *c, const lt_cexpr *e) {
  switch (e->kind) {
  case LT_CE_CONST: case LT_CE_CAST: return e->ctype;
  case LT_CE_LOCAL: return c->ltype[e->local];
  case LT_CE_LOC: case LT_CE_ADDR: return LT_CT_LLONG;   /* an address */
  case LT_CE_DEREF: return loc_ctype(c, e->a);
  case LT_CE_ATOMIC:
    if (e->atomic.kind == LT_CA_FENCE || e->atomic.kind == LT_CA_STORE) return LT_CT_INT;
    if (e->atomic.kind == LT_CA_CAS && !e->atomic.cuda_fn) return LT_CT_INT;   /* bool */
    return obj_ctype(c, &e->atomic);
  case LT_CE_UNARY: return e->op == LT_COP_NOT ? LT_CT_INT : etype(c, e->a);
  case LT_CE_BINARY:
    if (is_bool(e)) return LT_CT_INT;
    return common(etype(c, e->a), etype(c, e->b));
  case LT_CE_COND: return common(etype(c, e->b), etype(c, e->c));
  }
  return LT_CT_INT;
}

/* The operands of a comparison, converted to their common type; an
 * unsigned long long compares as unsigned: both get their sign bit
 * flipped, so that the signed comparison of the results orders them as
 * unsigned values. */
/* The operands of comparison e as integers that compare as e's do; for
 * floats their order keys, and *unord the flag of a NaN among them (then
 * only != holds: IEEE 754, C11 F.3), else the constant 0. */
static lt_ctype cmp_operands(cc *c, const lt_cexpr *e, lt_cmp cmp, lt_operand *a, lt_operand *b, lt_operand *unord) {
  lt_ctype ta = etype(c, e->a), tb = etype(c, e->b), t = common(ta, tb);
  *a = convert(c, sub(c, e->a, 0, true), ta, t, e->at);
  *b = convert(c, sub(c, e->b, 1, true), tb, t, e->at);
  *unord = imm(0, e->at);
  if (t == LT_CT_FLOAT) {
    *unord = alu(c, LT_ALU_FUNORD, *a, *b, LT_CT_INT, e->at);
    *a = alu(c, LT_ALU_FKEY, *a, imm(0, e->at), LT_CT_LLONG, e->at);
    *b = alu(c, LT_ALU_FKEY, *b, imm(0, e->at), LT_CT_LLONG, e->at);
    return LT_CT_LLONG;
  }
  if (t == LT_CT_ULLONG && cmp != LT_CMP_EQ && cmp != LT_CMP_NE) {
    *a = alu(c, LT_ALU_XOR, *a, imm(INT64_MIN, e->at), LT_CT_LLONG, e->at);
    *b = alu(c, LT_ALU_XOR, *b, imm(INT64_MIN, e->at), LT_CT_LLONG, e->at);
  }
  return t;
}

static lt_operand expr(cc *c, const lt_cexpr *e) {
  lc_loc at = e->at;
  if (is_bool(e)) {   /* 0 or 1, through branches */
    lt_operand dst = temp(c, at);
    const char *lfalse = new_label(c);
    mov(c, dst, imm(0, at), at);
    cond_false(c, e, lfalse);
    mov(c, dst, imm(1, at), at);
    place(c, lfalse, at);
    return dst;
  }
  switch (e->kind) {
  case LT_CE_CONST: return imm(e->value, at);
  case LT_CE_LOCAL: return reg(e->local, at);
  case LT_CE_LOC: {
    lt_operand o = {0};
    o.kind = LT_OPND_LOC;
    o.loc = e->loc;
    o.at = at;
    return o;
  }
  case LT_CE_ADDR:
    fail(c, at, "the address of a local can only be the expected operand of a compare-exchange");
    return imm(0, at);
  case LT_CE_DEREF: {
    lt_operand dst = temp(c, at);
    lt_instr *in = mk(c, LT_I_LD, at);
    in->dst = dst;
    plain_access(c, in, e->a);
    down(c, 0, false);
    put(c, e->a, in);
    up(c);
    return dst;
  }
  case LT_CE_ATOMIC: return atomic(c, e);
  case LT_CE_COND: {   /* a branch per value */
    lt_operand dst = temp(c, at);
    lt_ctype t = etype(c, e);
    const char *lelse = new_label(c), *lend = new_label(c);
    sub_false(c, e->a, 0, lelse);
    mov_typed(c, dst, convert(c, sub(c, e->b, 1, false), etype(c, e->b), t, at), t, at);
    go(c, lend, at);
    place(c, lelse, at);
    mov_typed(c, dst, convert(c, sub(c, e->c, 2, false), etype(c, e->c), t, at), t, at);
    place(c, lend, at);
    return dst;
  }
  case LT_CE_CAST: return convert(c, sub(c, e->a, 0, false), etype(c, e->a), e->ctype, at);
  case LT_CE_UNARY: {
    lt_ctype t = etype(c, e);
    lt_operand a = sub(c, e->a, 0, false);
    if (t == LT_CT_FLOAT) {   /* -x flips the sign bit (0 - x would make -0.0 of 0.0 wrongly 0.0) */
      if (e->op != LT_COP_NEG) fail(c, at, "~ of a float: C++ defines it on integers only");
      return alu(c, LT_ALU_XOR, a, imm(0x80000000, at), LT_CT_UINT, at);
    }
    if (e->op == LT_COP_NEG) return alu(c, LT_ALU_SUB, imm(0, at), a, t, at);
    return alu(c, LT_ALU_XOR, a, imm(-1, at), t, at);
  }
  case LT_CE_BINARY: {
    static const lt_alu_op ops[] = {
      [LT_COP_ADD] = LT_ALU_ADD, [LT_COP_SUB] = LT_ALU_SUB, [LT_COP_MUL] = LT_ALU_MUL,
      [LT_COP_DIV] = LT_ALU_DIV, [LT_COP_REM] = LT_ALU_REM, [LT_COP_AND] = LT_ALU_AND,
      [LT_COP_OR] = LT_ALU_OR, [LT_COP_XOR] = LT_ALU_XOR, [LT_COP_SHL] = LT_ALU_SHL,
      [LT_COP_SHR] = LT_ALU_SHR};
    lt_ctype ta = etype(c, e->a), tb = etype(c, e->b), t = common(ta, tb);
    if (t == LT_CT_FLOAT && e->op != LT_COP_ADD && e->op != LT_COP_SUB && e->op != LT_COP_MUL &&
        e->op != LT_COP_DIV) {
      fail(c, at, "this operator on a float: C++ defines it on integers only");
      return imm(0, at);
    }
    if (e->op == LT_COP_SHL || e->op == LT_COP_SHR) {
      /* C11 6.5.7: the type is the (promoted) left operand's; a negative
       * amount or one of its width or more is undefined.  A left shift of a
       * negative int is too in C++17 but defined (two's complement) from
       * C++20, and nvcc's code does that: not flagged. */
      lt_operand a = sub(c, e->a, 0, true), b = sub(c, e->b, 1, true);
      long width = ta == LT_CT_INT || ta == LT_CT_UINT ? 32 : 64;
      if (b.kind != LT_OPND_IMM || b.imm < 0 || b.imm >= width) {
        const char *lbad = new_label(c), *lok = new_label(c);
        branch(c, LT_CMP_LT, b, imm(0, at), lbad, at);
        branch(c, LT_CMP_LT, b, imm(width, at), lok, at);
        place(c, lbad, at);
        undefined(c, 's', at);
        place(c, lok, at);
      }
      return alu(c, ops[e->op], a, b, ta, at);
    }
    lt_operand a = convert(c, sub(c, e->a, 0, true), ta, t, at);
    lt_operand b = convert(c, sub(c, e->b, 1, true), tb, t, at);
    if ((e->op == LT_COP_DIV || e->op == LT_COP_REM) && t != LT_CT_FLOAT) {   /* by zero: undefined in C (a float's is inf or NaN) */
      const char *lok = new_label(c);
      branch(c, LT_CMP_NE, b, imm(0, at), lok, at);
      undefined(c, 'd', at);
      place(c, lok, at);
    }
    return alu(c, ops[e->op], a, b, t, at);
  }
  }
  return imm(0, at);
}

/* e's value as a truth: 0 when false.  A float is false when it equals 0
 * (-0.0 too: its key is 0); a NaN is true. */
static lt_operand truth(cc *c, const lt_cexpr *e) {
  lt_operand v = expr(c, e);
  if (etype(c, e) != LT_CT_FLOAT) return v;
  return alu(c, LT_ALU_FKEY, v, imm(0, e->at), LT_CT_LLONG, e->at);
}

/* Jumps to lfalse when e is false (0); falls through when it is true. */
static void cond_false(cc *c, const lt_cexpr *e, const char *lfalse) {
  lt_cmp cmp;
  if (e->kind == LT_CE_BINARY && is_cmp(e->op, &cmp)) {
    lt_operand a, b, u;
    lt_ctype t = cmp_operands(c, e, cmp, &a, &b, &u);
    const char *lskip = NULL;
    if (u.kind != LT_OPND_IMM) {   /* floats: with a NaN, != is true, the rest false */
      if (cmp == LT_CMP_NE) branch(c, LT_CMP_NE, u, imm(0, e->at), lskip = new_label(c), e->at);
      else branch(c, LT_CMP_NE, u, imm(0, e->at), lfalse, e->at);
    }
    branch(c, negate(cmp), a, b, lfalse, e->at)->type = ptx_type(t);   /* (the CUDA backend's casts) */
    if (lskip) place(c, lskip, e->at);
  } else if (e->kind == LT_CE_BINARY && e->op == LT_COP_LAND) {   /* sequenced: C11 6.5.13p4 */
    sub_false(c, e->a, 0, lfalse);
    sub_false(c, e->b, 1, lfalse);
  } else if (e->kind == LT_CE_BINARY && e->op == LT_COP_LOR) {    /* C11 6.5.14p4 */
    const char *ltrue = new_label(c);
    sub_true(c, e->a, 0, ltrue);
    sub_false(c, e->b, 1, lfalse);
    place(c, ltrue, e->at);
  } else if (e->kind == LT_CE_UNARY && e->op == LT_COP_NOT) {
    sub_true(c, e->a, 0, lfalse);
  } else {
    branch(c, LT_CMP_EQ, truth(c, e), imm(0, e->at), lfalse, e->at);
  }
}

/* Jumps to ltrue when e is true (not 0); falls through when it is false. */
static void cond_true(cc *c, const lt_cexpr *e, const char *ltrue) {
  lt_cmp cmp;
  if (e->kind == LT_CE_BINARY && is_cmp(e->op, &cmp)) {
    lt_operand a, b, u;
    lt_ctype t = cmp_operands(c, e, cmp, &a, &b, &u);
    const char *lskip = NULL;
    if (u.kind != LT_OPND_IMM) {   /* floats: with a NaN, != is true, the rest false */
      if (cmp == LT_CMP_NE) branch(c, LT_CMP_NE, u, imm(0, e->at), ltrue, e->at);
      else branch(c, LT_CMP_NE, u, imm(0, e->at), lskip = new_label(c), e->at);
    }
    branch(c, cmp, a, b, ltrue, e->at)->type = ptx_type(t);
    if (lskip) place(c, lskip, e->at);
  } else if (e->kind == LT_CE_BINARY && e->op == LT_COP_LAND) {
    const char *lfalse = new_label(c);
    sub_false(c, e->a, 0, lfalse);
    sub_true(c, e->b, 1, ltrue);
    place(c, lfalse, e->at);
  } else if (e->kind == LT_CE_BINARY && e->op == LT_COP_LOR) {
    sub_true(c, e->a, 0, ltrue);
    sub_true(c, e->b, 1, ltrue);
  } else if (e->kind == LT_CE_UNARY && e->op == LT_COP_NOT) {
    sub_false(c, e->a, 0, ltrue);
  } else {
    branch(c, LT_CMP_NE, truth(c, e), imm(0, e->at), ltrue, e->at);
  }
}

/* ---- statements -------------------------------------------------------------------- */

static void block(cc *c, const lt_cblock *b);

static void stmt(cc *c, const lt_cstmt *s) {
  lc_loc at = s->at;
  switch (s->kind) {
  case LT_CS_DECL:
  case LT_CS_ASSIGN: {   /* the value converted to the local's type */
    if (s->kind == LT_CS_DECL) c->ltype[s->local] = lt_cpp_ctype(s->type);
    lt_ctype t = c->ltype[s->local];
    full_expr(c);
    mov_typed(c, reg(s->local, at), s->e ? convert(c, expr(c, s->e), etype(c, s->e), t, at) : imm(0, at), t, at);
    end_full_expr(c);
    break;
  }
  case LT_CS_STORE: {   /* *ptr = e: the operands unsequenced, the write after them (C11 6.5.16p3) */
    full_expr(c);
    lt_operand v = convert(c, sub(c, s->e, 1, true), etype(c, s->e), loc_ctype(c, s->ptr), at);
    lt_instr *in = mk(c, LT_I_ST, at);
    in->a = v;
    plain_access(c, in, s->ptr);
    down(c, 0, true);
    put(c, s->ptr, in);
    up(c);
    end_full_expr(c);
    break;
  }
  case LT_CS_EXPR:
    full_expr(c);
    expr(c, s->e);
    end_full_expr(c);
    break;
  case LT_CS_SYNC: {
    lt_instr *in = emit(c, LT_I_BAR, at);
    in->a = imm(0, at);
    in->nbar_operands = 1;
    in->bar_cta_suffix = true;
    in->scope = LT_SCOPE_CTA;
    if (s->grid) {   /* one instance per GPU, gpu-scoped (lower.c lower_bar) */
      in->bar_grid = true;
      in->bar_cta_suffix = false;
      in->scope = LT_SCOPE_GPU;
    }
    break;
  }
  case LT_CS_BLOCK: block(c, &s->body); break;
  case LT_CS_IF: {
    const char *lelse = new_label(c);
    full_expr(c);
    cond_false(c, s->e, lelse);
    end_full_expr(c);
    block(c, &s->body);
    if (!s->has_else) {
      place(c, lelse, at);
      break;
    }
    const char *lend = new_label(c);
    go(c, lend, at);
    place(c, lelse, at);
    block(c, &s->els);
    place(c, lend, at);
    break;
  }
  case LT_CS_WHILE: {
    const char *ltop = new_label(c), *lend = new_label(c);
    place(c, ltop, at);
    full_expr(c);
    cond_false(c, s->e, lend);
    end_full_expr(c);
    lc_vec_push(&c->breaks, lend);
    lc_vec_push(&c->continues, ltop);
    block(c, &s->body);
    c->breaks.n--;
    c->continues.n--;
    go(c, ltop, at);
    place(c, lend, at);
    break;
  }
  case LT_CS_BREAK:
    if (c->breaks.n) go(c, c->breaks.v[c->breaks.n - 1], at);
    break;
  case LT_CS_CONTINUE:
    if (c->continues.n) go(c, c->continues.v[c->continues.n - 1], at);
    break;
  case LT_CS_RETURN:
    if (!c->ret) c->ret = new_label(c);
    go(c, c->ret, at);
    break;
  }
}

static void block(cc *c, const lt_cblock *b) {
  for (size_t i = 0; i < b->n && !c->failed; i++) stmt(c, b->v[i]);
}

const lt_test *lx_cpp_compile(const lt_test *t, lc_arena *a, lc_diag *d) {
  lt_test *out = lc_arena_alloc(a, sizeof *out);
  *out = *t;
  out->threads = lc_arena_alloc(a, (t->nthreads ? t->nthreads : 1) * sizeof *out->threads);
  out->nrows = 0;
  for (size_t i = 0; i < t->nthreads; i++) {
    cc c = {0};
    c.a = a;
    c.d = d;
    c.t = t;
    c.ct = &t->cpp->threads[i];
    c.next_temp = (int)c.ct->nlocals;
    c.ltype = lc_xcalloc(c.ct->nlocals + 1, sizeof *c.ltype);
    block(&c, &c.ct->body);
    if (c.ret) place(&c, c.ret, t->threads[i].at);
    if (c.pending) push_cell(&c, NULL, t->threads[i].at);
    if (!c.failed && c.next_temp > LT_MAX_REG + 1) fail(&c, t->threads[i].at, "too many temporaries");
    lt_thread *th = &out->threads[i];
    *th = t->threads[i];
    th->ncells = c.cells.n;
    th->cells = lc_arena_alloc(a, (c.cells.n ? c.cells.n : 1) * sizeof(lt_cell));
    if (c.cells.n) memcpy(th->cells, c.cells.v, c.cells.n * sizeof(lt_cell));
    lc_vec_free(&c.cells);
    lc_vec_free(&c.breaks);
    lc_vec_free(&c.continues);
    lc_vec_free(&c.slots);
    free(c.ltype);
    if (c.failed) return NULL;
    if (th->ncells > out->nrows) out->nrows = th->ncells;
  }
  return out;
}

/* C++ splits an RMW's order between its halves: acq_rel is an acquire
 * read and a release write, seq_cst is seq_cst on both (RC11's R and W
 * events of an RMW); a failed compare-exchange reads with its failure
 * order. */
void lx_cpp_rmw_sems(const lt_instr *in, bool success, lt_sem *rs, lt_sem *ws) {
  lt_sem s = in->sem;
  *rs = s == LT_SEM_ACQ_REL ? LT_SEM_ACQUIRE : s == LT_SEM_RELEASE ? LT_SEM_RELAXED : s;
  *ws = s == LT_SEM_ACQ_REL ? LT_SEM_RELEASE : s == LT_SEM_ACQUIRE ? LT_SEM_RELAXED : s;
  if (in->rmw == LT_RMW_CAS && !success) *rs = mo_sem(in->mo_fail);
}
