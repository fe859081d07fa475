/* host_code.c - a lowered test's threads as host bytecode.
 * SPDX-License-Identifier: MIT
 *
 * The ops follow the instructions as written (the AST), not the lowered
 * paths: a CPU thread takes its branches as the values it reads decide.
 * Semantics that the engines also depend on (register arithmetic, atom
 * operations, a failed cas writing nothing, which sem each half of an atom
 * has) are taken from exec/ so that both sides agree.
 */
#include "host/host_code.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"

typedef struct compiler {
  const lx_program *p;
  const lt_thread *th;
  const lx_thread *xt;
  lc_diag *d;
} compiler;

static int reg_slot(const lx_thread *xt, int reg) {
  for (size_t i = 0; i < xt->nregs; i++)
    if (xt->regs[i] == reg) return (int)i;
  return -1;
}

/* The virtual address `name` as a thread of CTA `cta` names it: its own
 * copy of shared memory, else the one global location (exec/lower.c,
 * loc_for). */
static int find_vloc(const lx_program *p, const char *name, int cta) {
  int global = -1;
  for (size_t i = 0; i < p->nlocs; i++) {
    if (strcmp(p->locs[i].name, name) != 0) continue;
    if (p->locs[i].cta == cta) return (int)i;
    if (p->locs[i].cta < 0) global = (int)i;
  }
  return global;
}

static void refuse(compiler *C, const lt_instr *in, const char *why) {
  lc_buf b;
  lc_buf_init(&b);
  lt_print_instr(&b, in);
  lc_error(C->d, in->at, "the host backend cannot run `%s`: %s", b.s, why);
  lc_buf_fini(&b);
}

static const char *proxy_reason(lt_proxy proxy) {
  switch (proxy) {
  case LT_PROXY_TEXTURE: return "texture-proxy accesses have no CPU counterpart";
  case LT_PROXY_SURFACE: return "surface-proxy accesses have no CPU counterpart";
  case LT_PROXY_CONSTANT: return "constant-proxy accesses have no CPU counterpart";
  default: return "";
  }
}

/* A name that is an alias cannot be run: a CPU has one virtual address per
 * location, and a proxy alias needs the GPU's non-generic proxies. */
static int check_alias(compiler *C, const lt_instr *in, int vloc) {
  const lx_loc *l = &C->p->locs[vloc];
  if (!l->alias) return 0;
  lc_buf why;
  lc_buf_init(&why);
  lc_buf_printf(&why, "%s is a %s alias of %s (virtual aliases need the GPU's address translation)", l->name,
                lt_proxy_name(l->proxy), C->p->plocs[l->ploc].name);
  refuse(C, in, why.s);
  lc_buf_fini(&why);
  return -1;
}

static int value_opnd(compiler *C, const lt_instr *in, const lt_operand *o, host_opnd *out) {
  out->reg = -1;
  out->c = 0;
  switch (o->kind) {
  case LT_OPND_IMM: out->c = o->imm; return 0;
  case LT_OPND_REG: out->reg = reg_slot(C->xt, o->reg); return 0;
  case LT_OPND_LOC: {
    int v = find_vloc(C->p, o->loc, C->xt->cta);
    if (v < 0 || check_alias(C, in, v) < 0) return -1;
    out->c = lx_addr_value(v);
    return 0;
  }
  default: return 0;   /* as the lowering: no value */
  }
}

static int addr_opnd(compiler *C, const lt_instr *in, host_op *op) {
  if (in->proxy != LT_PROXY_GENERIC) {
    refuse(C, in, proxy_reason(in->proxy));
    return -1;
  }
  op->ploc = op->addr_reg = -1;
  if (in->addr.kind == LT_OPND_REGADDR) {
    op->addr_reg = reg_slot(C->xt, in->addr.reg);
    return 0;
  }
  int v = find_vloc(C->p, in->addr.loc, C->xt->cta);
  if (v < 0) {
    lc_error(C->d, in->addr.at, "no location '%s'", in->addr.loc);
    return -1;
  }
  if (check_alias(C, in, v) < 0) return -1;
  op->ploc = C->p->locs[v].ploc;
  return 0;
}

static host_order load_order(lt_sem s) {
  switch (s) {
  case LT_SEM_ACQUIRE:
  case LT_SEM_ACQ_REL: return HOST_ACQ;
  case LT_SEM_SC: return HOST_SC;
  default: return HOST_RLX;   /* weak, relaxed, volatile, mmio */
  }
}

static host_order store_order(lt_sem s) {
  switch (s) {
  case LT_SEM_RELEASE:
  case LT_SEM_ACQ_REL: return HOST_REL;
  case LT_SEM_SC: return HOST_SC;
  default: return HOST_RLX;
  }
}

/* An atom's order covers both halves: acquire on the read, release on the
 * write (exec/lower.c, rmw_sems); no sem means relaxed. */
static host_order rmw_order(lt_sem s) {
  switch (s) {
  case LT_SEM_ACQUIRE: return HOST_ACQ;
  case LT_SEM_RELEASE: return HOST_REL;
  case LT_SEM_ACQ_REL: return HOST_ACQ_REL;
  case LT_SEM_SC: return HOST_SC;
  default: return HOST_RLX;
  }
}

/* A failed compare-exchange reads only: a C++ test's failure order (its
 * own, or the one C derives from the success order, cpp_parse.c), else
 * the atom's read half.  A release failure order, which C leaves
 * undefined, reads as herd7 and the model read it: relaxed (acq_rel:
 * acquire); docs/cpp-model.md, "Orders C leaves undefined". */
static host_order cas_fail_order(const lt_instr *in) {
  if (in->cpp) {
    switch (in->mo_fail) {
    case LT_MO_CONSUME:
    case LT_MO_ACQUIRE:
    case LT_MO_ACQ_REL: return HOST_ACQ;
    case LT_MO_SEQ_CST: return HOST_SC;
    default: return HOST_RLX;
    }
  }
  switch (in->sem) {
  case LT_SEM_ACQUIRE:
  case LT_SEM_ACQ_REL: return HOST_ACQ;
  case LT_SEM_SC: return HOST_SC;
  default: return HOST_RLX;
  }
}

static host_order fence_order(const lt_instr *in) {
  if (in->membar) return HOST_SC;
  if (in->fence_no_sem) return HOST_ACQ_REL;
  switch (in->sem) {
  case LT_SEM_ACQUIRE: return HOST_ACQ;
  case LT_SEM_RELEASE: return HOST_REL;
  case LT_SEM_SC: return HOST_SC;
  default: return HOST_ACQ_REL;
  }
}

static int label_cell(const lt_thread *th, const char *label) {
  for (size_t c = 0; c < th->ncells; c++)
    if (th->cells[c].label && strcmp(th->cells[c].label, label) == 0) return (int)c;
  return -1;
}

static int dst_slot(compiler *C, const lt_instr *in) {
  return in->dst.kind == LT_OPND_REG ? reg_slot(C->xt, in->dst.reg) : -1;
}

static int compile_rmw(compiler *C, const lt_instr *in, host_op *op) {
  if (addr_opnd(C, in, op) < 0 || value_opnd(C, in, &in->a, &op->a) < 0) return -1;
  op->order = rmw_order(in->sem);
  op->dst = in->kind == LT_I_ATOM ? dst_slot(C, in) : -1;
  if (in->rmw == LT_RMW_CAS) {
    op->code = HOST_CAS;
    op->fail_order = cas_fail_order(in);
    if (in->cpp && in->c.kind == LT_OPND_REG) op->cas_ok = reg_slot(C->xt, in->c.reg);
    return value_opnd(C, in, &in->b, &op->b);
  }
  op->code = in->rmw == LT_RMW_EXCH ? HOST_EXCH : HOST_RMW;
  op->op = lx_rmw_op(in);
  op->wrap = op->code == HOST_RMW && lx_type_wrap(in->type, &op->wrap_op);
  return 0;
}

static int compile_bar(compiler *C, const lt_instr *in, host_op *op) {
  op->code = HOST_BAR;
  if (in->bar_cluster) {   /* arrive or wait alone, at the cluster's barrier */
    op->bar_n = LX_BAR_CLUSTER;
    op->arrive_only = in->bar_arrive;
    op->wait_only = in->bar_wait;
    return 0;
  }
  if (in->bar_grid) {   /* every thread of the GPU, counted (lower.c lower_bar) */
    op->bar_n = LX_BAR_GRID;
    op->has_count = true;
    op->b.reg = -1;
    op->b.c = 0;
    for (size_t u = 0; u < C->p->nthreads; u++) op->b.c += C->p->threads[u].gpu == C->xt->gpu;
    return 0;
  }
  op->bar_n = (int)in->a.imm;
  op->arrive_only = in->bar_arrive;
  op->has_id = in->nbar_operands >= 2;
  op->has_count = in->nbar_operands >= 3;
  if (op->has_id && value_opnd(C, in, &in->b, &op->a) < 0) return -1;
  if (op->has_count && value_opnd(C, in, &in->c, &op->b) < 0) return -1;
  return 0;
}

/* An mbarrier is a word the CPU threads update with atomic
 * read-modify-writes computing the same state transitions as the model
 * (exec/mbar.c): arrives release unless .relaxed; a wait is a relaxed
 * load followed, when it returns true and is not .relaxed, by an acquire
 * fence (a wait that returns false acquires nothing: docs/hopper.md). */
static int compile_mbar(compiler *C, const lt_instr *in, host_op *op) {
  if (addr_opnd(C, in, op) < 0 || value_opnd(C, in, &in->a, &op->a) < 0) return -1;
  if (in->a.kind == LT_OPND_NONE) op->a.c = 1;   /* arrive with no count: one arrival */
  bool rlx = in->sem == LT_SEM_RELAXED;
  switch (in->mbar) {
  case LT_MB_INIT:
    if (in->a.kind != LT_OPND_IMM) {
      refuse(C, in, "the host backend takes an mbarrier count only as a constant");
      return -1;
    }
    op->code = HOST_ST;
    op->order = HOST_RLX;
    op->a.c = lx_mbar_apply(LX_OP_MB_INIT, in->a.imm, 0);
    return 0;
  case LT_MB_TEST_WAIT: case LT_MB_TRY_WAIT:
    op->code = HOST_LD;
    op->order = HOST_RLX;
    op->acquire_if_done = !rlx;
    op->dst = dst_slot(C, in);
    op->has_post = true;
    op->post = in->parity ? LX_OP_MB_DONE_PARITY : LX_OP_MB_DONE;
    return 0;
  default:
    op->code = HOST_RMW;
    op->dst = dst_slot(C, in);
    op->has_post = true;
    op->post = LX_OP_MB_PHASE;
    op->order = rlx || in->mbar == LT_MB_EXPECT_TX || in->mbar == LT_MB_COMPLETE_TX ? HOST_RLX : HOST_REL;
    op->op = in->mbar == LT_MB_ARRIVE ? LX_OP_MB_ARRIVE
           : in->mbar == LT_MB_ARRIVE_DROP ? LX_OP_MB_DROP
           : in->mbar == LT_MB_ARRIVE_EXPECT_TX ? LX_OP_MB_ARRIVE_TX
           : in->mbar == LT_MB_EXPECT_TX ? LX_OP_MB_EXPECT : LX_OP_MB_COMPLETE;
    return 0;
  }
}

static int compile_alu(compiler *C, const lt_instr *in, host_op *op) {
  op->code = HOST_ALU;
  op->dst = dst_slot(C, in);
  op->mov = in->alu == LT_ALU_MOV;
  op->wrap = lx_type_wrap(in->type, &op->wrap_op);
  if (!op->mov) op->op = lx_alu_op(in->alu, in->type, &op->prewrap);
  if (value_opnd(C, in, &in->a, &op->a) < 0) return -1;
  return op->mov ? 0 : value_opnd(C, in, &in->b, &op->b);
}

static int compile_jump(compiler *C, const lt_instr *in, host_op *op) {
  op->code = in->kind == LT_I_GOTO ? HOST_GOTO : HOST_BRANCH;
  op->cmp = in->cmp;
  op->target = label_cell(C->th, in->label);
  if (op->target < 0) {
    lc_error(C->d, in->label_at, "no label %s", in->label);
    return -1;
  }
  if (in->kind == LT_I_GOTO) return 0;
  if (value_opnd(C, in, &in->a, &op->a) < 0) return -1;
  return value_opnd(C, in, &in->b, &op->b);
}

static int compile_instr(compiler *C, const lt_instr *in, host_op *op) {
  op->in = in;
  op->dst = op->ploc = op->addr_reg = -1;
  op->a.reg = op->b.reg = -1;
  switch (in->kind) {
  case LT_I_LD:
    op->code = HOST_LD;
    op->order = load_order(in->sem);
    op->dst = dst_slot(C, in);
    return addr_opnd(C, in, op);
  case LT_I_ST:
    op->code = HOST_ST;
    op->order = store_order(in->sem);
    if (addr_opnd(C, in, op) < 0) return -1;
    return value_opnd(C, in, &in->a, &op->a);
  case LT_I_ATOM:
  case LT_I_RED: return compile_rmw(C, in, op);
  case LT_I_FENCE:
    op->code = HOST_FENCE;
    op->order = fence_order(in);
    return 0;
  /* Proxy and alias fences order accesses of non-generic proxies, which
   * the host refuses; among generic accesses they order nothing
   * (PTX ISA, membar/fence: a proxy fence is not a memory fence). */
  case LT_I_FENCE_PROXY:
  case LT_I_FENCE_ALIAS: op->code = HOST_NOP; return 0;
  case LT_I_BAR: return compile_bar(C, in, op);
  /* The async proxy (bulk copies) and distributed shared memory have no
   * CPU counterpart whose ordering would mean anything. */
  case LT_I_MBAR: return compile_mbar(C, in, op);
  case LT_I_BULK:
    refuse(C, in, "bulk copies (TMA) and the async proxy have no CPU counterpart");
    return -1;
  case LT_I_MAPA:
    refuse(C, in, "distributed shared memory (mapa) has no CPU counterpart");
    return -1;
  case LT_I_ALU: return compile_alu(C, in, op);
  case LT_I_BRANCH:
  case LT_I_GOTO: return compile_jump(C, in, op);
  }
  return 0;
}

/* Initial register values, as exec/lower.c's initial_reg computes them;
 * an address of an alias is refused like an access through one. */
static int init_regs(compiler *C, host_thread *ht) {
  const lt_test *t = C->p->code;
  ht->nregs = C->xt->nregs;
  ht->init = lc_xcalloc(ht->nregs ? ht->nregs : 1, sizeof(lx_val));
  for (size_t i = 0; i < t->ninits; i++) {
    const lt_init *in = &t->inits[i];
    if (in->kind != LT_INIT_REG || in->thread != C->th->id) continue;
    int slot = reg_slot(C->xt, in->reg);
    if (slot < 0) continue;
    if (!in->value_loc) {
      ht->init[slot] = in->value;
      continue;
    }
    int v = find_vloc(C->p, in->value_loc, -1);
    if (v >= 0 && C->p->locs[v].alias) {
      lc_error(C->d, in->at,
               "the host backend cannot run P%d:r%d=&%s: %s is an alias (virtual aliases need the GPU's "
               "address translation)", in->thread, in->reg, in->value_loc, in->value_loc);
      return -1;
    }
    ht->init[slot] = v >= 0 ? lx_addr_value(v) : 0;
  }
  return 0;
}

static int cta_group(const lx_program *p, size_t t) {
  for (size_t u = 0; u < t; u++)
    if (p->threads[u].gpu == p->threads[t].gpu && p->threads[u].cta == p->threads[t].cta)
      return cta_group(p, u);
  return (int)t;
}

static int cluster_group(const lx_program *p, size_t t) {
  for (size_t u = 0; u < t; u++)
    if (p->threads[u].gpu == p->threads[t].gpu && p->threads[u].cluster == p->threads[t].cluster) return (int)u;
  return (int)t;
}

static int grid_group(const lx_program *p, size_t t) {
  for (size_t u = 0; u < t; u++)
    if (p->threads[u].gpu == p->threads[t].gpu) return (int)u;
  return (int)t;
}

/* Arrivals only: a barrier.cluster.wait arrives nowhere. */
static void count_bars(host_thread *ht) {
  LC_VEC(host_barcount) v = {0};
  for (size_t c = 0; c < ht->nops; c++) {
    if (ht->ops[c].code != HOST_BAR || ht->ops[c].wait_only) continue;
    size_t i = 0;
    while (i < v.n && v.v[i].n != ht->ops[c].bar_n) i++;
    if (i == v.n) lc_vec_push(&v, ((host_barcount){ht->ops[c].bar_n, 0}));
    v.v[i].max = ht->has_loop ? UINT32_MAX : v.v[i].max + 1;
  }
  ht->bars = v.v;
  ht->nbars = v.n;
}

uint32_t host_bar_max(const host_thread *th, int n) {
  assert(th);
  for (size_t i = 0; i < th->nbars; i++)
    if (th->bars[i].n == n) return th->bars[i].max;
  return 0;
}

static int compile_thread(const lx_program *p, size_t t, host_thread *ht, bool *has_bar, lc_diag *d) {
  compiler C = {p, &p->code->threads[t], &p->threads[t], d};
  ht->group = cta_group(p, t);
  ht->cluster_group = cluster_group(p, t);
  ht->grid_group = grid_group(p, t);
  ht->nops = C.th->ncells;
  ht->ops = lc_xcalloc(ht->nops ? ht->nops : 1, sizeof(host_op));
  if (init_regs(&C, ht) < 0) return -1;
  for (size_t c = 0; c < ht->nops; c++) {
    const lt_instr *in = C.th->cells[c].instr;
    host_op *op = &ht->ops[c];
    op->dst = op->ploc = op->addr_reg = op->a.reg = op->b.reg = op->cas_ok = -1;
    if (!in) continue;
    if (compile_instr(&C, in, op) < 0) return -1;
    *has_bar |= op->code == HOST_BAR;
    ht->has_loop |= (op->code == HOST_BRANCH || op->code == HOST_GOTO) && op->target <= (int)c;
  }
  count_bars(ht);
  return 0;
}

int host_compile(const lx_program *p, host_code *hc, lc_diag *d) {
  assert(p && p->code && hc && d);
  memset(hc, 0, sizeof *hc);
  hc->nthreads = p->nthreads;
  hc->threads = lc_xcalloc(p->nthreads ? p->nthreads : 1, sizeof(host_thread));
  for (size_t t = 0; t < p->nthreads; t++)
    if (compile_thread(p, t, &hc->threads[t], &hc->has_bar, d) < 0) {
      host_code_fini(hc);
      return -1;
    }
  return 0;
}

void host_code_fini(host_code *hc) {
  for (size_t t = 0; t < hc->nthreads; t++) {
    free(hc->threads[t].ops);
    free(hc->threads[t].init);
    free(hc->threads[t].bars);
  }
  free(hc->threads);
  memset(hc, 0, sizeof *hc);
}

int host_check(const lx_program *p, lc_diag *d) {
  assert(p && d);
  host_code hc;
  int rc = host_compile(p, &hc, d);
  if (rc == 0) host_code_fini(&hc);
  return rc;
}
