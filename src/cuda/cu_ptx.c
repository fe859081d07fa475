/* cu_ptx.c - a litmus instruction spelled as the PTX the kernel runs.
 * SPDX-License-Identifier: MIT
 *
 * Qualifiers stay as written and in PTX's order (ld.sem.scope.space.cache.
 * type, atom.sem.scope.space.op.type).  What the litmus text may leave out
 * is filled in: the state space from the memory map, and a type of the
 * test's width: .u32 for ld/st/add/inc/dec, .b32 for the bitwise ops, exch
 * and cas (PTX accepts nothing else there), .s32 for min/max (the model
 * compares untyped values as signed).  Two forms PTX lacks are spelled
 * with their closest equivalent that has the same events in the model:
 * atom/red.sub is atom/red.add of the negated operand, and a red that PTX
 * has no form for (.acquire, .acq_rel, .exch, .cas) is the atom with its
 * result discarded.
 */
#include "cuda/cu_int.h"

static void suffix(lc_buf *b, const char *s) {
  if (*s) lc_buf_printf(b, ".%s", s);
}

static const char *default_type(const cu_plan *pl, const lt_instr *in) {
  bool w64 = pl->width == 64;
  if (in->type != LT_TYPE_NONE) return lt_type_name(in->type);
  if (in->kind == LT_I_LD || in->kind == LT_I_ST) return w64 ? "u64" : "u32";
  switch (in->rmw) {
  case LT_RMW_ADD: case LT_RMW_SUB: case LT_RMW_INC: case LT_RMW_DEC: return w64 ? "u64" : "u32";
  case LT_RMW_MIN: case LT_RMW_MAX: return w64 ? "s64" : "s32";
  default: return w64 ? "b64" : "b32";
  }
}

bool cu_ptx_red_as_atom(const lt_instr *in) {
  return in->kind == LT_I_RED && (in->sem == LT_SEM_ACQUIRE || in->sem == LT_SEM_ACQ_REL ||
                                  in->rmw == LT_RMW_EXCH || in->rmw == LT_RMW_CAS);
}

static lt_space access_space(const cu_plan *pl, int k, const lt_instr *in) {
  if (in->space != LT_SPACE_NONE) return in->space;
  int v = cu_plan_vloc(pl, k, &in->addr);
  return v >= 0 ? pl->p->locs[v].space : LT_SPACE_GLOBAL;
}

/* A shared state space as written (.shared, .shared::cta, .shared::cluster). */
static const char *space_name(lt_space s, const lt_instr *in) {
  if (s != LT_SPACE_SHARED || in->space != LT_SPACE_SHARED) return lt_space_name(s);
  return in->shared == LT_SHARED_CTA ? "shared::cta" : in->shared == LT_SHARED_CLUSTER ? "shared::cluster" : "shared";
}

static void memory_opcode(lc_buf *b, const cu_plan *pl, int k, const lt_instr *in) {
  static const char *const names[] = {[LT_I_LD] = "ld", [LT_I_ST] = "st", [LT_I_ATOM] = "atom",
                                      [LT_I_RED] = "red"};
  lc_buf_puts(b, cu_ptx_red_as_atom(in) ? "atom" : names[in->kind]);
  if (in->sem == LT_SEM_MMIO)
    lc_buf_puts(b, ".mmio.relaxed");
  else
    suffix(b, lt_sem_name(in->sem));
  suffix(b, lt_scope_name(in->scope));
  suffix(b, space_name(access_space(pl, k, in), in));
  if (in->kind == LT_I_LD || in->kind == LT_I_ST) suffix(b, lt_cache_name(in->cache));
  if (in->kind == LT_I_ATOM || in->kind == LT_I_RED)
    suffix(b, in->rmw == LT_RMW_SUB ? "add" : lt_rmw_name(in->rmw));
  suffix(b, default_type(pl, in));
}

static void fence_opcode(lc_buf *b, const lt_instr *in) {
  static const char *const levels[] = {"", "cta", "cluster", "gl", "sys"};
  if (in->mbar_init_fence)
    lc_buf_puts(b, "fence.mbarrier_init.release.cluster");
  else if (in->membar)
    lc_buf_printf(b, "membar.%s", levels[in->scope <= LT_SCOPE_SYS ? in->scope : 0]);
  else if (in->fence_no_sem)
    lc_buf_printf(b, "fence.%s", lt_scope_name(in->scope));
  else
    lc_buf_printf(b, "fence.%s.%s", lt_sem_name(in->sem), lt_scope_name(in->scope));
}

/* mbarrier.OP{.parity}{.sem}{.scope}.SPACE.b64, the space .shared when
 * not written (the kernel passes shared-window addresses). */
static void mbar_opcode(lc_buf *b, const lt_instr *in) {
  static const char *const ops[] = {[LT_MB_INIT] = "init", [LT_MB_ARRIVE] = "arrive",
                                    [LT_MB_ARRIVE_EXPECT_TX] = "arrive.expect_tx", [LT_MB_EXPECT_TX] = "expect_tx",
                                    [LT_MB_COMPLETE_TX] = "complete_tx", [LT_MB_ARRIVE_DROP] = "arrive_drop",
                                    [LT_MB_TEST_WAIT] = "test_wait", [LT_MB_TRY_WAIT] = "try_wait"};
  lc_buf_printf(b, "mbarrier.%s", ops[in->mbar]);
  if (in->parity) lc_buf_puts(b, ".parity");
  suffix(b, lt_sem_name(in->sem));
  suffix(b, lt_scope_name(in->scope));
  suffix(b, space_name(LT_SPACE_SHARED, in));
  lc_buf_puts(b, ".b64");
}

static void bulk_opcode(lc_buf *b, const lt_instr *in) {
  switch (in->bulk) {
  case LT_BULK_G2S: lc_buf_puts(b, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"); break;
  case LT_BULK_S2G: lc_buf_puts(b, "cp.async.bulk.global.shared::cta.bulk_group"); break;
  case LT_BULK_COMMIT: lc_buf_puts(b, "cp.async.bulk.commit_group"); break;
  case LT_BULK_WAIT: lc_buf_puts(b, in->wait_read ? "cp.async.bulk.wait_group.read" : "cp.async.bulk.wait_group"); break;
  }
}

bool cu_ptx_opcode(lc_buf *b, const cu_plan *pl, int k, const lt_instr *in) {
  switch (in->kind) {
  case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED:
    memory_opcode(b, pl, k, in);
    return true;
  case LT_I_FENCE:
    fence_opcode(b, in);
    return true;
  case LT_I_FENCE_ALIAS:
    lc_buf_puts(b, "fence.proxy.alias");
    return true;
  case LT_I_FENCE_PROXY:
    lc_buf_printf(b, "fence.proxy.%s", lt_proxy_name(in->proxy));
    suffix(b, space_name(in->space, in));
    return true;
  case LT_I_MBAR:
    mbar_opcode(b, in);
    return true;
  case LT_I_BULK:
    bulk_opcode(b, in);
    return true;
  case LT_I_BAR:
    lc_buf_puts(b, "barrier.cta.sync");
    return true;
  default:
    return false;
  }
}

const char *cu_ptx_alu(const cu_plan *pl, lt_alu_op op) {
  bool w = pl->width == 64;
  switch (op) {
  case LT_ALU_MOV: return w ? "mov.b64" : "mov.b32";
  case LT_ALU_ADD: return w ? "add.s64" : "add.s32";
  case LT_ALU_SUB: return w ? "sub.s64" : "sub.s32";
  case LT_ALU_MUL: return w ? "mul.lo.s64" : "mul.lo.s32";
  case LT_ALU_DIV: return w ? "div.s64" : "div.s32";
  case LT_ALU_REM: return w ? "rem.s64" : "rem.s32";
  case LT_ALU_AND: return w ? "and.b64" : "and.b32";
  case LT_ALU_OR: return w ? "or.b64" : "or.b32";
  case LT_ALU_XOR: return w ? "xor.b64" : "xor.b32";
  case LT_ALU_SHL: return w ? "shl.b64" : "shl.b32";
  case LT_ALU_SHR: return w ? "shr.u64" : "shr.u32";   /* shr.s: cu_gen, by the type */
  /* floats: the planner refuses them (cu_plan.c) */
  case LT_ALU_I2F: case LT_ALU_U2F: case LT_ALU_F2I: case LT_ALU_FKEY: case LT_ALU_FUNORD: break;
  }
  return "mov.b32";
}
