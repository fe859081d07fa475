/* test_parse.c - the parser: every instruction form, init form, thread
 * placement, condition form, the corpus' oddities, and syntax errors with
 * their exact messages.
 * SPDX-License-Identifier: MIT
 */
#include "litmus_util.h"

/* ---- memory operations ------------------------------------------------------ */

static void test_parse_ld_forms(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "ld.weak r1, x");
  assert_int_equal(in->kind, LT_I_LD);
  assert_int_equal(in->sem, LT_SEM_WEAK);
  assert_int_equal(in->scope, LT_SCOPE_NONE);
  assert_int_equal(in->proxy, LT_PROXY_GENERIC);
  assert_int_equal(in->dst.kind, LT_OPND_REG);
  assert_int_equal(in->dst.reg, 1);
  assert_int_equal(in->addr.kind, LT_OPND_LOC);
  assert_string_equal(in->addr.loc, "x");
  assert_false(in->addr.bracketed);
  assert_string_equal(in->mnemonic, "ld.weak");
  assert_int_equal(in->sem_at.col, 4);
  parsed_fini(&p);

  in = parse_instr(&p, "ld r2, y");   /* no sem: weak, recorded as absent */
  assert_int_equal(in->kind, LT_I_LD);
  assert_int_equal(in->sem, LT_SEM_NONE);
  parsed_fini(&p);

  in = parse_instr(&p, "ld.acquire.sys r3, [z]");
  assert_int_equal(in->sem, LT_SEM_ACQUIRE);
  assert_int_equal(in->scope, LT_SCOPE_SYS);
  assert_true(in->addr.bracketed);
  assert_string_equal(in->addr.loc, "z");
  assert_int_equal(in->scope_at.col, 12);
  parsed_fini(&p);

  in = parse_instr(&p, "ld.relaxed.cluster r0, x");
  assert_int_equal(in->sem, LT_SEM_RELAXED);
  assert_int_equal(in->scope, LT_SCOPE_CLUSTER);
  parsed_fini(&p);
}

static void test_parse_real_ptx_spellings(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "ld.acquire.gpu.global.u32 r1, [y]");
  assert_int_equal(in->sem, LT_SEM_ACQUIRE);
  assert_int_equal(in->scope, LT_SCOPE_GPU);
  assert_int_equal(in->space, LT_SPACE_GLOBAL);
  assert_int_equal(in->type, LT_TYPE_U32);
  parsed_fini(&p);

  /* Qualifiers in any order. */
  in = parse_instr(&p, "ld.u64.shared.gpu.relaxed r1, y");
  assert_int_equal(in->sem, LT_SEM_RELAXED);
  assert_int_equal(in->scope, LT_SCOPE_GPU);
  assert_int_equal(in->space, LT_SPACE_SHARED);
  assert_int_equal(in->type, LT_TYPE_U64);
  parsed_fini(&p);

  in = parse_instr(&p, "atom.global.add.u32 r1, [x], 1");
  assert_int_equal(in->kind, LT_I_ATOM);
  assert_int_equal(in->sem, LT_SEM_NONE);
  assert_int_equal(in->scope, LT_SCOPE_NONE);
  assert_int_equal(in->rmw, LT_RMW_ADD);
  assert_int_equal(in->space, LT_SPACE_GLOBAL);
  parsed_fini(&p);

  const char *cache_loads[] = {"ld.ca r1, x", "ld.weak.cg r1, x", "ld.cs r1, x", "ld.lu r1, x",
                               "ld.cv r1, x"};
  const lt_cache cl[] = {LT_CACHE_CA, LT_CACHE_CG, LT_CACHE_CS, LT_CACHE_LU, LT_CACHE_CV};
  for (size_t i = 0; i < LC_ARRAY_LEN(cl); i++) {
    in = parse_instr(&p, cache_loads[i]);
    assert_int_equal(in->cache, cl[i]);
    parsed_fini(&p);
  }
  const char *cache_stores[] = {"st.wb x, 1", "st.cg x, 1", "st.weak.cs x, 1", "st.wt x, 1"};
  const lt_cache cs[] = {LT_CACHE_WB, LT_CACHE_CG, LT_CACHE_CS, LT_CACHE_WT};
  for (size_t i = 0; i < LC_ARRAY_LEN(cs); i++) {
    in = parse_instr(&p, cache_stores[i]);
    assert_int_equal(in->kind, LT_I_ST);
    assert_int_equal(in->cache, cs[i]);
    parsed_fini(&p);
  }
  const char *types[] = {"b32", "u32", "s32", "b64", "u64", "s64"};
  for (size_t i = 0; i < LC_ARRAY_LEN(types); i++) {
    char code[64];
    snprintf(code, sizeof code, "st.relaxed.gpu.%s x, 1", types[i]);
    in = parse_instr(&p, code);
    assert_int_equal(in->type, (lt_type)(LT_TYPE_B32 + i));
    parsed_fini(&p);
  }
}

static void test_parse_register_address(void **state) {
  (void)state;
  parsed p;
  const char *text = "PTX t\n{\nx=0;\nP0:r1=&x;\n}\n P0@cta 0,gpu 0 ;\n ld.weak r2, [r1] ;\n"
                     " st.relaxed.gpu [r1], r2 ;\nexists (x == 0)\n";
  assert_non_null(parse_text(&p, text));
  const lt_instr *ld = p.t->threads[0].cells[0].instr, *st = p.t->threads[0].cells[1].instr;
  assert_int_equal(ld->addr.kind, LT_OPND_REGADDR);
  assert_int_equal(ld->addr.reg, 1);
  assert_int_equal(st->addr.kind, LT_OPND_REGADDR);
  assert_int_equal(st->a.kind, LT_OPND_REG);
  assert_int_equal(st->a.reg, 2);
  parsed_fini(&p);
}

static void test_parse_volatile_and_mmio(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "ld.volatile r1, x");
  assert_int_equal(in->sem, LT_SEM_VOLATILE);
  assert_int_equal(in->scope, LT_SCOPE_NONE);
  parsed_fini(&p);
  in = parse_instr(&p, "st.volatile.global x, 1");
  assert_int_equal(in->sem, LT_SEM_VOLATILE);
  parsed_fini(&p);
  in = parse_instr(&p, "ld.mmio.relaxed.sys.global r1, x");
  assert_int_equal(in->sem, LT_SEM_MMIO);
  assert_int_equal(in->scope, LT_SCOPE_SYS);
  assert_int_equal(in->sem_at.col, 4);
  parsed_fini(&p);
  in = parse_instr(&p, "st.sys.relaxed.mmio x, 1");
  assert_int_equal(in->kind, LT_I_ST);
  assert_int_equal(in->sem, LT_SEM_MMIO);
  parsed_fini(&p);
}

static void test_parse_st_forms(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "st.release.gpu y, r3");
  assert_int_equal(in->kind, LT_I_ST);
  assert_int_equal(in->sem, LT_SEM_RELEASE);
  assert_int_equal(in->addr.kind, LT_OPND_LOC);
  assert_int_equal(in->a.kind, LT_OPND_REG);
  assert_int_equal(in->a.reg, 3);
  assert_int_equal(in->dst.kind, LT_OPND_NONE);
  parsed_fini(&p);
  in = parse_instr(&p, "st [x], -5");
  assert_int_equal(in->sem, LT_SEM_NONE);
  assert_int_equal(in->a.kind, LT_OPND_IMM);
  assert_true(in->a.imm == -5);
  parsed_fini(&p);
  in = parse_instr(&p, "st.relaxed.sys x, 0x7fffffffffffffff");
  assert_true(in->a.imm == INT64_MAX);
  parsed_fini(&p);
}

static void test_parse_atom_operations(void **state) {
  (void)state;
  static const struct { const char *name; lt_rmw_op op; } ops[] = {
    {"add", LT_RMW_ADD}, {"sub", LT_RMW_SUB}, {"and", LT_RMW_AND}, {"or", LT_RMW_OR},
    {"xor", LT_RMW_XOR}, {"exch", LT_RMW_EXCH}, {"min", LT_RMW_MIN}, {"max", LT_RMW_MAX},
    {"inc", LT_RMW_INC}, {"dec", LT_RMW_DEC}};
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(ops); i++) {
    char code[64];
    snprintf(code, sizeof code, "atom.acq_rel.gpu.%s r0, x, 2", ops[i].name);
    const lt_instr *in = parse_instr(&p, code);
    assert_int_equal(in->kind, LT_I_ATOM);
    assert_int_equal(in->rmw, ops[i].op);
    assert_int_equal(in->sem, LT_SEM_ACQ_REL);
    assert_int_equal(in->scope, LT_SCOPE_GPU);
    assert_int_equal(in->dst.reg, 0);
    assert_string_equal(in->addr.loc, "x");
    assert_true(in->a.imm == 2);
    assert_int_equal(in->b.kind, LT_OPND_NONE);
    parsed_fini(&p);
    snprintf(code, sizeof code, "red.release.sys.%s x, r1", ops[i].name);
    in = parse_instr(&p, code);
    assert_int_equal(in->kind, LT_I_RED);
    assert_int_equal(in->rmw, ops[i].op);
    assert_int_equal(in->dst.kind, LT_OPND_NONE);
    assert_int_equal(in->a.kind, LT_OPND_REG);
    parsed_fini(&p);
  }
}

static void test_parse_atom_cas(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "atom.relaxed.gpu.cas r0, h, 0, 1");
  assert_int_equal(in->rmw, LT_RMW_CAS);
  assert_true(in->a.imm == 0);
  assert_true(in->b.imm == 1);
  parsed_fini(&p);
  in = parse_instr(&p, "atom.cas.b64 r0, [x], r1, r2");
  assert_int_equal(in->sem, LT_SEM_NONE);
  assert_int_equal(in->a.reg, 1);
  assert_int_equal(in->b.reg, 2);
  parsed_fini(&p);
}

static void test_parse_atom_defaults_are_recorded_as_absent(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "atom.add r0, x, 1");
  assert_int_equal(in->sem, LT_SEM_NONE);
  assert_int_equal(in->scope, LT_SCOPE_NONE);
  parsed_fini(&p);
  in = parse_instr(&p, "red.cta.add x, 1");
  assert_int_equal(in->sem, LT_SEM_NONE);
  assert_int_equal(in->scope, LT_SCOPE_CTA);
  parsed_fini(&p);
}

static void test_parse_proxy_accesses(void **state) {
  (void)state;
  static const struct { const char *code; lt_instr_kind kind; lt_proxy proxy; } cases[] = {
    {"tld.weak r0, x", LT_I_LD, LT_PROXY_TEXTURE},
    {"suld.relaxed.gpu r0, x", LT_I_LD, LT_PROXY_SURFACE},
    {"cold.weak r3, x", LT_I_LD, LT_PROXY_CONSTANT},
    {"sust.weak x, 42", LT_I_ST, LT_PROXY_SURFACE},
    {"suatom.relaxed.gpu.add r1, x, 1", LT_I_ATOM, LT_PROXY_SURFACE},
    {"sured.relaxed.gpu.add x, 1", LT_I_RED, LT_PROXY_SURFACE},
  };
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(cases); i++) {
    const lt_instr *in = parse_instr(&p, cases[i].code);
    assert_int_equal(in->kind, cases[i].kind);
    assert_int_equal(in->proxy, cases[i].proxy);
    parsed_fini(&p);
  }
}

/* ---- fences and barriers ------------------------------------------------------ */

static void test_parse_fences(void **state) {
  (void)state;
  static const struct { const char *code; lt_sem sem; lt_scope scope; bool no_sem, membar; } cases[] = {
    {"fence.sc.gpu", LT_SEM_SC, LT_SCOPE_GPU, false, false},
    {"fence.acq_rel.cta", LT_SEM_ACQ_REL, LT_SCOPE_CTA, false, false},
    {"fence.acquire.cluster", LT_SEM_ACQUIRE, LT_SCOPE_CLUSTER, false, false},
    {"fence.release.sys", LT_SEM_RELEASE, LT_SCOPE_SYS, false, false},
    {"fence.sys.sc", LT_SEM_SC, LT_SCOPE_SYS, false, false},
    {"fence.gpu", LT_SEM_ACQ_REL, LT_SCOPE_GPU, true, false},
    {"membar.cta", LT_SEM_SC, LT_SCOPE_CTA, false, true},
    {"membar.gl", LT_SEM_SC, LT_SCOPE_GPU, false, true},
    {"membar.sys", LT_SEM_SC, LT_SCOPE_SYS, false, true},
  };
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(cases); i++) {
    const lt_instr *in = parse_instr(&p, cases[i].code);
    assert_int_equal(in->kind, LT_I_FENCE);
    assert_int_equal(in->sem, cases[i].sem);
    assert_int_equal(in->scope, cases[i].scope);
    assert_int_equal(in->fence_no_sem, cases[i].no_sem);
    assert_int_equal(in->membar, cases[i].membar);
    parsed_fini(&p);
  }
}

static void test_parse_proxy_fences(void **state) {
  (void)state;
  static const char *const names[] = {"generic", "texture", "surface", "constant"};
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++) {
    char code[64];
    snprintf(code, sizeof code, "fence.proxy.%s", names[i]);
    const lt_instr *in = parse_instr(&p, code);
    assert_int_equal(in->kind, LT_I_FENCE_PROXY);
    assert_int_equal(in->proxy, (lt_proxy)i);
    parsed_fini(&p);
  }
  const lt_instr *in = parse_instr(&p, "fence.proxy.alias");
  assert_int_equal(in->kind, LT_I_FENCE_ALIAS);
  parsed_fini(&p);
}

static void test_parse_bar_with_count(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "bar.cta.sync 1, 1, 4");
  assert_int_equal(in->kind, LT_I_BAR);
  assert_false(in->bar_arrive);
  assert_true(in->bar_cta_suffix);
  assert_int_equal(in->nbar_operands, 3);
  assert_true(in->a.imm == 1 && in->b.imm == 1 && in->c.imm == 4);
  parsed_fini(&p);
}

static void test_parse_bar_forms(void **state) {
  (void)state;
  static const struct { const char *code; bool arrive, cta; int n; bool aligned; } cases[] = {
    {"barrier.sync.aligned 0", false, false, 1, true},
    {"barrier.cta.arrive.aligned 1, 0, 2", true, true, 3, true},
    {"bar.cta.sync 0", false, true, 1},
    {"bar.cta.sync 1, r2", false, true, 2},
    {"bar.cta.arrive 1", true, true, 1},
    {"bar.sync 3", false, false, 1},
    {"barrier.sync 1, 64", false, false, 2},
    {"barrier.cta.sync 2", false, true, 1},
    {"bar.arrive 1, 1, 2", true, false, 3},
    {"barrier.cta.arrive 0", true, true, 1},
  };
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(cases); i++) {
    const lt_instr *in = parse_instr(&p, cases[i].code);
    assert_int_equal(in->kind, LT_I_BAR);
    assert_int_equal(in->bar_arrive, cases[i].arrive);
    assert_int_equal(in->bar_cta_suffix, cases[i].cta);
    assert_int_equal(in->nbar_operands, cases[i].n);
    assert_int_equal(in->aligned, cases[i].aligned);
    parsed_fini(&p);
  }
  const lt_instr *in = parse_instr(&p, "bar.cta.sync 1, r2");
  assert_int_equal(in->b.kind, LT_OPND_REG);
  assert_int_equal(in->b.reg, 2);
  parsed_fini(&p);
}

/* ---- register arithmetic and branches ------------------------------------------- */

static void test_parse_alu(void **state) {
  (void)state;
  static const struct { const char *name; lt_alu_op op; } ops[] = {
    {"add", LT_ALU_ADD}, {"sub", LT_ALU_SUB}, {"mul", LT_ALU_MUL}, {"div", LT_ALU_DIV},
    {"rem", LT_ALU_REM}, {"and", LT_ALU_AND}, {"or", LT_ALU_OR}, {"xor", LT_ALU_XOR}};
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(ops); i++) {
    char code[64];
    snprintf(code, sizeof code, "%s r2, r2, 1", ops[i].name);
    const lt_instr *in = parse_instr(&p, code);
    assert_int_equal(in->kind, LT_I_ALU);
    assert_int_equal(in->alu, ops[i].op);
    assert_int_equal(in->dst.reg, 2);
    assert_int_equal(in->a.kind, LT_OPND_REG);
    assert_int_equal(in->b.kind, LT_OPND_IMM);
    parsed_fini(&p);
  }
  const lt_instr *in = parse_instr(&p, "add.s32 r1, 5, r0");
  assert_int_equal(in->type, LT_TYPE_S32);
  assert_int_equal(in->a.kind, LT_OPND_IMM);
  parsed_fini(&p);
}

static void test_parse_ld_constant_is_a_move(void **state) {
  (void)state;
  parsed p;
  const lt_instr *in = parse_instr(&p, "ld r0, 1");
  assert_int_equal(in->kind, LT_I_ALU);
  assert_int_equal(in->alu, LT_ALU_MOV);
  assert_int_equal(in->dst.reg, 0);
  assert_true(in->a.kind == LT_OPND_IMM && in->a.imm == 1);
  parsed_fini(&p);
  in = parse_instr(&p, "ld r0, r4");
  assert_int_equal(in->kind, LT_I_ALU);
  assert_int_equal(in->a.kind, LT_OPND_REG);
  parsed_fini(&p);
  in = parse_instr(&p, "mov r0, 1");
  assert_int_equal(in->kind, LT_I_ALU);
  assert_int_equal(in->alu, LT_ALU_MOV);
  parsed_fini(&p);
  in = parse_instr(&p, "mov.u32 r0, 7");
  assert_int_equal(in->type, LT_TYPE_U32);
  parsed_fini(&p);
}

static void test_parse_branches(void **state) {
  (void)state;
  static const struct { const char *name; lt_cmp cmp; } ops[] = {
    {"beq", LT_CMP_EQ}, {"bne", LT_CMP_NE}, {"blt", LT_CMP_LT}, {"bgt", LT_CMP_GT},
    {"ble", LT_CMP_LE}, {"bge", LT_CMP_GE}};
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(ops); i++) {
    char text[256];
    snprintf(text, sizeof text, "PTX t\n{\n}\n P0@cta 0,gpu 0 ;\n LC00: ;\n %s r1,2,LC00 ;\n"
             " goto LC00 ;\nexists (true)\n", ops[i].name);
    assert_non_null(parse_text(&p, text));
    const lt_thread *th = &p.t->threads[0];
    assert_string_equal(th->cells[0].label, "LC00");
    assert_null(th->cells[0].instr);
    const lt_instr *b = th->cells[1].instr, *g = th->cells[2].instr;
    assert_int_equal(b->kind, LT_I_BRANCH);
    assert_int_equal(b->cmp, ops[i].cmp);
    assert_int_equal(b->a.reg, 1);
    assert_true(b->b.imm == 2);
    assert_string_equal(b->label, "LC00");
    assert_int_equal(b->label_at.line, 6);
    assert_int_equal(g->kind, LT_I_GOTO);
    assert_string_equal(g->label, "LC00");
    parsed_fini(&p);
  }
}

static void test_parse_label_with_instruction(void **state) {
  (void)state;
  parsed p;
  assert_non_null(parse_text(&p, "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                                 " L1: ld.weak r0, x | L1 : ;\n goto L1 | goto L1 ;\nexists (true)"));
  const lt_cell *c = &p.t->threads[0].cells[0];
  assert_string_equal(c->label, "L1");
  assert_int_equal(c->label_at.col, 2);
  assert_non_null(c->instr);
  assert_int_equal(c->instr->kind, LT_I_LD);
  assert_string_equal(p.t->threads[1].cells[0].label, "L1");
  assert_null(p.t->threads[1].cells[0].instr);
  parsed_fini(&p);
}

/* ---- init block -------------------------------------------------------------------- */

static void test_parse_init_forms(void **state) {
  (void)state;
  parsed p;
  const char *text =
    "PTX t\n{\nx=0; y = -3; z=0x10; P0:r0=1; 0:r1 = &x; P0:r2=y; w=&x; v=x;\n"
    "a @ generic aliases x; b @ texture aliases x; c @ surface aliases x; d @ constant aliases x\n"
    "};\n P0@cta 0,gpu 0 ;\n ld.weak r3, [r1] ;\nexists (P0:r0 == 1 /\\ P0:r2 == &y)\n";
  assert_non_null(parse_text(&p, text));
  const lt_test *t = p.t;
  assert_int_equal(t->ninits, 12);
  assert_int_equal(t->inits[0].kind, LT_INIT_LOC);
  assert_string_equal(t->inits[0].loc, "x");
  assert_true(t->inits[1].value == -3);
  assert_true(t->inits[2].value == 16);
  assert_int_equal(t->inits[3].kind, LT_INIT_REG);
  assert_int_equal(t->inits[3].thread, 0);
  assert_int_equal(t->inits[3].reg, 0);
  assert_true(t->inits[3].value == 1);
  assert_int_equal(t->inits[4].reg, 1);
  assert_string_equal(t->inits[4].value_loc, "x");
  assert_true(t->inits[4].value_amp);
  assert_string_equal(t->inits[5].value_loc, "y");
  assert_false(t->inits[5].value_amp);
  assert_string_equal(t->inits[6].value_loc, "x");
  assert_true(t->inits[6].value_amp);
  assert_string_equal(t->inits[7].value_loc, "x");
  assert_false(t->inits[7].value_amp);
  for (int i = 8; i < 12; i++) {
    assert_int_equal(t->inits[i].kind, LT_INIT_ALIAS);
    assert_int_equal(t->inits[i].proxy, (lt_proxy)(i - 8));
    assert_string_equal(t->inits[i].target, "x");
  }
  assert_string_equal(t->inits[11].loc, "d");
  assert_int_equal(t->inits[11].target_at.line, 4);
  parsed_fini(&p);
}

static void test_parse_empty_init_and_stray_semicolons(void **state) {
  (void)state;
  parsed p;
  assert_non_null(parse_text(&p, "PTX t {} P0@cta 0,gpu 0; ; exists (true)"));
  assert_int_equal(p.t->ninits, 0);
  assert_int_equal(p.t->nrows, 1);
  parsed_fini(&p);
  assert_non_null(parse_text(&p, "PTX t\n{ ;; x=1;; }\n P0@cta 0,gpu 0 ;\nforall (x == 1)"));
  assert_int_equal(p.t->ninits, 1);
  assert_int_equal(p.t->nrows, 0);
  parsed_fini(&p);
}

/* ---- threads --------------------------------------------------------------------- */

static void test_parse_thread_placement(void **state) {
  (void)state;
  parsed p;
  assert_non_null(parse_text(&p, "PTX t\n{}\n P1@cta 3, cluster 2, gpu 2 | P0@cta 0,cluster 1,gpu 0 ;\n"
                                 " | ;\nexists (true)"));
  assert_int_equal(p.t->nthreads, 2);
  const lt_thread *a = &p.t->threads[0], *b = &p.t->threads[1];
  assert_int_equal(a->id, 1);
  assert_int_equal(a->cta, 3);
  assert_int_equal(a->gpu, 2);
  assert_int_equal(a->cluster, 2);
  assert_int_equal(b->id, 0);
  assert_int_equal(b->cluster, 1);
  assert_int_equal(a->at.line, 3);
  assert_int_equal(a->at.col, 2);
  assert_int_equal(a->ncells, 1);
  assert_null(a->cells[0].instr);
  parsed_fini(&p);
  assert_non_null(parse_text(&p, "PTX t {} P0@cta 7,gpu 1; exists (true)"));
  assert_int_equal(p.t->threads[0].cluster, -1);
  assert_int_equal(p.t->threads[0].cta, 7);
  assert_int_equal(p.t->threads[0].gpu, 1);
  parsed_fini(&p);
}

/* ---- conditions ------------------------------------------------------------------- */

static const lt_prop *parse_cond(parsed *p, const char *cond) {
  char text[512];
  snprintf(text, sizeof text, "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
           " ld.weak r0, x | ld.weak r1, x ;\n%s\n", cond);
  if (!parse_text(p, text)) {
    print_error("'%s' does not parse: %s\n", cond, first_error(p));
    fail();
  }
  return p->t->cond;
}

static void test_parse_quantifiers(void **state) {
  (void)state;
  static const struct { const char *text; lt_quant q; } cases[] = {
    {"exists (x == 1)", LT_COND_EXISTS}, {"~exists (x == 1)", LT_COND_NOT_EXISTS},
    {"~ exists x = 1", LT_COND_NOT_EXISTS}, {"not exists (x == 1)", LT_COND_NOT_EXISTS},
    {"forall (x == 1)", LT_COND_FORALL}, {"!exists x == 1", LT_COND_NOT_EXISTS}};
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(cases); i++) {
    parse_cond(&p, cases[i].text);
    assert_int_equal(p.t->quant, cases[i].q);
    assert_int_equal(p.t->cond_at.line, 5);
    parsed_fini(&p);
  }
}

static void test_parse_comparisons_and_terms(void **state) {
  (void)state;
  static const struct { const char *op; lt_cmp cmp; } ops[] = {
    {"=", LT_CMP_EQ}, {"==", LT_CMP_EQ}, {"!=", LT_CMP_NE}, {"<", LT_CMP_LT},
    {"<=", LT_CMP_LE}, {">", LT_CMP_GT}, {">=", LT_CMP_GE}};
  parsed p;
  for (size_t i = 0; i < LC_ARRAY_LEN(ops); i++) {
    char cond[64];
    snprintf(cond, sizeof cond, "exists 1:r1 %s -2", ops[i].op);
    const lt_prop *c = parse_cond(&p, cond);
    assert_int_equal(c->kind, LT_PROP_CMP);
    assert_int_equal(c->cmp, ops[i].cmp);
    assert_int_equal(c->lhs.kind, LT_TERM_REG);
    assert_int_equal(c->lhs.thread, 1);
    assert_int_equal(c->lhs.reg, 1);
    assert_int_equal(c->rhs.kind, LT_TERM_CONST);
    assert_true(c->rhs.value == -2);
    parsed_fini(&p);
  }
  const lt_prop *c = parse_cond(&p, "exists (P0:r0 == P1: r1 /\\ x != &x)");
  assert_int_equal(c->r->lhs.kind, LT_TERM_LOC);
  assert_int_equal(c->r->rhs.kind, LT_TERM_ADDR);
  assert_string_equal(c->r->rhs.loc, "x");
  assert_int_equal(c->l->rhs.kind, LT_TERM_REG);
  assert_int_equal(c->l->rhs.thread, 1);
  parsed_fini(&p);
}

static void test_parse_connectives_and_precedence(void **state) {
  (void)state;
  parsed p;
  /* ~ binds tighter than /\, which binds tighter than \/. */
  const lt_prop *c = parse_cond(&p, "exists x = 1 \\/ ~x = 2 /\\ P0:r0 = 0");
  assert_int_equal(c->kind, LT_PROP_OR);
  assert_false(c->parens);
  assert_int_equal(c->l->kind, LT_PROP_CMP);
  assert_int_equal(c->r->kind, LT_PROP_AND);
  assert_int_equal(c->r->l->kind, LT_PROP_NOT);
  assert_int_equal(c->r->l->l->kind, LT_PROP_CMP);
  parsed_fini(&p);
  /* Chains associate to the left; the other spellings mean the same. */
  c = parse_cond(&p, "exists (x = 1 && x = 2 && !(x = 3 || not x = 4))");
  assert_true(c->parens);
  assert_int_equal(c->kind, LT_PROP_AND);
  assert_int_equal(c->l->kind, LT_PROP_AND);
  assert_int_equal(c->r->kind, LT_PROP_NOT);
  assert_true(c->r->l->parens);
  assert_int_equal(c->r->l->kind, LT_PROP_OR);
  assert_int_equal(c->r->l->r->kind, LT_PROP_NOT);
  parsed_fini(&p);
  c = parse_cond(&p, "forall true \\/ (false)");
  assert_int_equal(c->l->kind, LT_PROP_TRUE);
  assert_int_equal(c->r->kind, LT_PROP_FALSE);
  assert_true(c->r->parens);
  parsed_fini(&p);
}

static void test_parse_locations_filter_and_map(void **state) {
  (void)state;
  parsed p;
  const char *text = "PTX t\n{ x=0; y=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r1, x ;\n st.weak y, 1 ;\n"
                     "x: shared, y : global\nlocations [x; P0:r1; 0:r1]\nfilter (y == 1)\n"
                     "exists (P0:r1 == 0)\n";
  assert_non_null(parse_text(&p, text));
  const lt_test *t = p.t;
  assert_int_equal(t->nrows, 2);
  assert_int_equal(t->nmap, 2);
  assert_string_equal(t->map[0].loc, "x");
  assert_int_equal(t->map[0].space, LT_SPACE_SHARED);
  assert_string_equal(t->map[1].loc, "y");
  assert_int_equal(t->map[1].space, LT_SPACE_GLOBAL);
  assert_int_equal(t->map[1].at.col, 12);
  assert_true(t->has_locations);
  assert_int_equal(t->nlocations, 3);
  assert_int_equal(t->locations[0].kind, LT_TERM_LOC);
  assert_int_equal(t->locations[1].kind, LT_TERM_REG);
  assert_int_equal(t->locations[2].reg, 1);
  assert_non_null(t->filter);
  assert_int_equal(t->filter->kind, LT_PROP_CMP);
  parsed_fini(&p);
  assert_non_null(parse_text(&p, "PTX t {x=0;} P0@cta 0,gpu 0; locations [] exists (x = 0)"));
  assert_true(p.t->has_locations);
  assert_int_equal(p.t->nlocations, 0);
  parsed_fini(&p);
}

static void test_parse_label_is_not_a_memory_map(void **state) {
  (void)state;
  parsed p;
  /* `shared:` names a label here: the map needs `name: shared`. */
  assert_non_null(parse_text(&p, "PTX t\n{}\n P0@cta 0,gpu 0 ;\n shared: ;\n L: goto shared ;\n"
                                 "exists (true)\n"));
  assert_int_equal(p.t->nrows, 2);
  assert_int_equal(p.t->nmap, 0);
  assert_string_equal(p.t->threads[0].cells[0].label, "shared");
  parsed_fini(&p);
}

/* ---- the header and the corpus' oddities -------------------------------------------- */

static void test_parse_header_and_doc(void **state) {
  (void)state;
  parsed p;
  const char *text = "ptx MICRO24-Fig4a\n\"\nline (one)\n> ./cmd {x}\n\"\n\"two\"\n{\nx=0;\n}\n"
                     " P0@cta 0,gpu 0 ;\nexists (x == 0)";
  assert_non_null(parse_text(&p, text));
  assert_string_equal(p.t->arch, "ptx");
  assert_string_equal(p.t->name, "MICRO24-Fig4a");
  assert_int_equal(p.t->name_at.col, 5);
  assert_string_equal(p.t->doc, "\"\nline (one)\n> ./cmd {x}\n\"\n\"two\"");
  parsed_fini(&p);
  assert_non_null(parse_text(&p, "PTX 2+2W.a,b_c {} P0@cta 0,gpu 0; exists (true)"));
  assert_string_equal(p.t->name, "2+2W.a,b_c");
  assert_string_equal(p.t->doc, "");
  parsed_fini(&p);
}

static void test_parse_corpus_oddities(void **state) {
  (void)state;
  parsed p;
  /* Spaces after commas, no ';' before '}', blank lines before the
   * condition, branch operands without spaces, `P3: r0`, no final newline. */
  const char *text = "PTX odd\n{\nx=0;\nP0:r0=0\n}\n P0@cta 0, gpu 0 | P1@cta 1 , gpu 0;\n"
                     " LC00:           | ld r2, 1 ;\n beq r0,r0,LC00 | st.weak x, r2 ;\n\n\n"
                     "exists\n(P0:r0 = 0 /\\ 1: r2 == 1)";
  assert_non_null(parse_text(&p, text));
  assert_int_equal(p.t->nrows, 2);
  assert_int_equal(p.t->threads[1].cells[0].instr->kind, LT_I_ALU);
  assert_string_equal(p.t->threads[0].cells[1].instr->label, "LC00");
  assert_int_equal(p.t->cond->r->lhs.thread, 1);
  parsed_fini(&p);
}

static void test_parse_comments_anywhere(void **state) {
  (void)state;
  parsed p;
  const char *text = "(* head *) PTX (* a *) t (* b (* nested *) *)\n{ x (* c *) = 1; }\n"
                     " P0@cta (* d *) 0,gpu 0 ;\n st.weak x, (* e *) 2 ;\nexists (* f *) (x == 2)(* g *)";
  assert_non_null(parse_text(&p, text));
  assert_string_equal(p.t->name, "t");
  assert_string_equal(p.t->doc, "(* b (* nested *) *)");
  assert_true(p.t->threads[0].cells[0].instr->a.imm == 2);
  parsed_fini(&p);
}

/* ---- syntax errors --------------------------------------------------------------- */

#define HEAD "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n"   /* code starts on line 6 */

static const bad_case syntax_errors[] = {
  {"empty", "", "t.litmus:1:1: error: empty input: expected a test starting with 'PTX'"},
  {"blank", "  \n\t\n", "t.litmus:1:1: error: empty input: expected a test starting with 'PTX'"},
  {"comments-only", "(* nothing *)\n(* here *)\n",
   "t.litmus:1:1: error: empty input: expected a test starting with 'PTX'"},
  {"other-arch", "AArch64 MP\n{}", "t.litmus:1:1: error: unsupported architecture 'AArch64': "
   "litmus-check reads PTX, CUDA and C tests"},
  {"no-arch", "{ x=0; }", "t.litmus:1:1: error: expected 'PTX' at the start of the test, found '{'"},
  {"no-name", "PTX\n{", "t.litmus:2:1: error: expected the test name after 'PTX', found character '{'"},
  {"no-brace", "PTX t\nx=0;\n", "t.litmus:3:1: error: expected '{' to open the init block, found end of file"},
  {"init-unclosed", "PTX t\n{\nx=0;\n",
   "t.litmus:4:1: error: expected '}' (to close '{' at line 2), found end of file"},
  {"init-missing-semi", "PTX t\n{\nx=0 y=1;\n}\n",
   "t.litmus:3:5: error: expected ';' or '}' after an init entry, found 'y'"},
  {"init-missing-value", "PTX t\n{\nx=;\n}\n", "t.litmus:3:3: error: expected a constant or a "
   "location (&x), found ';'"},
  {"init-eqeq", "PTX t\n{\nx==1;\n}\n", "t.litmus:3:2: error: expected '=' or '@', found '=='"},
  {"init-register-no-thread", "PTX t\n{\nr0=1;\n}\n", "t.litmus:3:1: error: expected a location or "
   "a register (P0:r0) in the init block, found 'r0'"},
  {"init-thread-no-register", "PTX t\n{\nP0:x=1;\n}\n",
   "t.litmus:3:4: error: expected a register (r0, r1, ...), found 'x'"},
  {"init-thread-out-of-range", "PTX t\n{\n2000000:r0=1;\n}\n",
   "t.litmus:3:1: error: thread '2000000' out of range (0..1048575)"},
  {"alias-bad-proxy", "PTX t\n{\nx=0; y @ local aliases x;\n}\n",
   "t.litmus:3:10: error: expected a proxy (generic, texture, surface or constant), found 'local'"},
  {"alias-no-keyword", "PTX t\n{\nx=0; y @ generic x;\n}\n",
   "t.litmus:3:18: error: expected 'aliases', found 'x'"},
  {"no-thread-row", "PTX t\n{\n}\n ld.weak r0, x ;\n",
   "t.litmus:4:2: error: expected the thread row (P0@cta 0,gpu 0 | ...), found 'ld.weak'"},
  {"no-placement", "PTX t\n{\n}\n P0 | P1@cta 0,gpu 0 ;\n",
   "t.litmus:4:5: error: thread P0 has no placement: expected '@cta N,gpu N', found '|'"},
  {"placement-no-gpu", "PTX t\n{\n}\n P0@cta 0 ;\n", "t.litmus:4:11: error: expected ',', found ';'"},
  {"placement-order", "PTX t\n{\n}\n P0@gpu 0,cta 0 ;\n", "t.litmus:4:5: error: expected 'cta', found 'gpu'"},
  {"placement-cta-range", "PTX t\n{\n}\n P0@cta 1048576,gpu 0 ;\n",
   "t.litmus:4:9: error: cta '1048576' out of range (0..1048575)"},
  {"placement-gpu-negative", "PTX t\n{\n}\n P0@cta 0,gpu -1 ;\n",
   "t.litmus:4:15: error: gpu '-1' out of range (0..1048575)"},
  {"placement-cluster-number", "PTX t\n{\n}\n P0@cta 0,cluster x,gpu 0 ;\n",
   "t.litmus:4:19: error: expected the cluster number, found 'x'"},
  {"thread-row-no-semi", "PTX t\n{\n}\n P0@cta 0,gpu 0\n st.weak x, 1 ;\n",
   "t.litmus:5:2: error: expected '|' or ';' after a thread, found 'st.weak'"},
  {"unknown-instruction", HEAD " lb.weak x, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:2: error: unknown instruction 'lb.weak'"},
  {"label-without-colon", HEAD " LC00 ;\nexists (x == 1)\n",
   "t.litmus:6:2: error: unknown instruction 'LC00'"},
  {"unknown-qualifier", HEAD " ld.weak.foo r0, x ;\nexists (x == 1)\n",
   "t.litmus:6:9: error: unknown qualifier '.foo' in 'ld.weak.foo'"},
  {"qualifier-not-for-st", HEAD " st.cas x, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:4: error: qualifier '.cas' does not apply to 'st'"},
  {"load-cache-on-store", HEAD " st.weak.ca x, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:9: error: qualifier '.ca' does not apply to 'st'"},
  {"store-cache-on-load", HEAD " ld.wb r0, x ;\nexists (x == 1)\n",
   "t.litmus:6:4: error: qualifier '.wb' does not apply to 'ld'"},
  {"two-sems", HEAD " ld.acquire.relaxed.gpu r0, x ;\nexists (x == 1)\n",
   "t.litmus:6:12: error: 'ld.acquire.relaxed.gpu' has two memory orders: '.acquire' and '.relaxed'"},
  {"two-scopes", HEAD " st.relaxed.cta.gpu x, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:16: error: 'st.relaxed.cta.gpu' has two scopes: '.cta' and '.gpu'"},
  {"two-types", HEAD " ld.u32.weak.u32 r0, x ;\nexists (x == 1)\n",
   "t.litmus:6:13: error: 'ld.u32.weak.u32' has two types: '.u32' and '.u32'"},
  {"two-spaces", HEAD " ld.global.shared r0, x ;\nexists (x == 1)\n",
   "t.litmus:6:11: error: 'ld.global.shared' has two state spaces: '.global' and '.shared'"},
  {"two-ops", HEAD " atom.add.sub.gpu.relaxed r0, x, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:10: error: 'atom.add.sub.gpu.relaxed' has two operations: '.add' and '.sub'"},
  {"atom-no-op", HEAD " atom.relaxed.gpu r0, x, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:2: error: 'atom.relaxed.gpu' needs an operation such as '.add', '.exch' or '.cas'"},
  {"red-cas", HEAD " red.relaxed.gpu.cas x, 1, 2 ;\nexists (x == 1)\n",
   "t.litmus:6:17: error: 'red.relaxed.gpu.cas': '.cas' needs a result register; use atom"},
  {"mmio-without-relaxed-sys", HEAD " ld.mmio.relaxed.gpu r0, x ;\nexists (x == 1)\n",
   "t.litmus:6:4: error: 'ld.mmio.relaxed.gpu': '.mmio' goes with '.relaxed.sys' and nothing else"},
  {"fence-bare", HEAD " fence ;\nexists (x == 1)\n",
   "t.litmus:6:2: error: 'fence' needs a scope, as in 'fence.sc.gpu' or 'fence.acq_rel.cta'"},
  {"fence-proxy-unknown", HEAD " fence.proxy.sync ;\nexists (x == 1)\n",
   "t.litmus:6:13: error: unknown proxy '.sync' in 'fence.proxy.sync'"},
  {"fence-proxy-bare", HEAD " fence.proxy ;\nexists (x == 1)\n",
   "t.litmus:6:2: error: 'fence.proxy' needs a proxy: .alias, .generic, .texture, .surface, .constant or .async"},
  {"fence-proxy-extra", HEAD " fence.proxy.alias.gpu ;\nexists (x == 1)\n",
   "t.litmus:6:19: error: qualifier '.gpu' does not apply to 'fence.proxy.alias'"},
  {"fence-space", HEAD " fence.sc.gpu.global ;\nexists (x == 1)\n",
   "t.litmus:6:14: error: qualifier '.global' does not apply to 'fence'"},
  {"membar-gpu", HEAD " membar.gpu ;\nexists (x == 1)\n",
   "t.litmus:6:8: error: unknown membar level '.gpu' (.cta, .gl or .sys)"},
  {"membar-bare", HEAD " membar ;\nexists (x == 1)\n",
   "t.litmus:6:2: error: 'membar' needs a level: .cta, .gl or .sys"},
  {"bar-no-mode", HEAD " bar.cta 0 ;\nexists (x == 1)\n",
   "t.litmus:6:2: error: 'bar.cta' needs '.sync' or '.arrive'"},
  {"bar-cta-after-sync", HEAD " bar.sync.cta 0 ;\nexists (x == 1)\n",
   "t.litmus:6:10: error: unexpected qualifier '.cta' in 'bar.sync.cta' (expected bar.cta.sync, "
   "bar.cta.arrive or barrier.cta.sync.aligned)"},
  /* the PTX ISA spells .aligned on barrier only, after the mode */
  {"bar-aligned", HEAD " bar.sync.aligned 0 ;\nexists (x == 1)\n",
   "t.litmus:6:10: error: unexpected qualifier '.aligned' in 'bar.sync.aligned' (expected bar.cta.sync, "
   "bar.cta.arrive or barrier.cta.sync.aligned)"},
  {"bar-four-operands", HEAD " bar.cta.sync 1, 1, 4, 5 ;\nexists (x == 1)\n",
   "t.litmus:6:22: error: expected '|' or ';' after a cell, found ','"},
  {"bar-location", HEAD " bar.cta.sync x ;\nexists (x == 1)\n",
   "t.litmus:6:15: error: expected a register or a constant, found 'x'"},
  {"branch-typed", HEAD " LC0: ;\n beq.u32 r0, 1, LC0 ;\nexists (x == 1)\n",
   "t.litmus:7:5: error: qualifier '.u32' does not apply to 'beq'"},
  {"branch-no-label", HEAD " beq r0, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:12: error: expected ',' between operands, found ';'"},
  {"goto-number", HEAD " goto 3 ;\nexists (x == 1)\n", "t.litmus:6:7: error: expected a label, found '3'"},
  {"alu-scope", HEAD " add.gpu r0, r0, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:5: error: qualifier '.gpu' does not apply to 'add'"},
  {"alu-two-operands", HEAD " add r0, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:12: error: expected ',' between operands, found ';'"},
  {"ld-dst-location", HEAD " ld.weak x, y ;\nexists (x == 1)\n",
   "t.litmus:6:10: error: expected the destination (a register), found 'x'"},
  {"ld-immediate-address", HEAD " ld.weak r0, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:14: error: expected an address (x, [x] or [r1]), found '1'"},
  {"ld-bare-register-address", HEAD " ld.weak r0, r1 ;\nexists (x == 1)\n",
   "t.litmus:6:14: error: expected an address (x, [x] or [r1]), found 'r1'"},
  {"st-location-value", HEAD " st.weak x, y ;\nexists (x == 1)\n",
   "t.litmus:6:13: error: expected a register or a constant, found 'y'"},
  {"bracket-unclosed", HEAD " ld.weak r0, [x ;\nexists (x == 1)\n",
   "t.litmus:6:17: error: expected ']', found ';'"},
  {"bracket-offset", HEAD " ld.weak r0, [x+4] ;\nexists (x == 1)\n",
   "t.litmus:6:16: error: unexpected character '+'"},
  {"dotted-location", HEAD " st.weak x.y, 1 ;\nexists (x == 1)\n",
   "t.litmus:6:10: error: expected an address (x, [x] or [r1]), found 'x.y'"},
  {"row-too-short", "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
   " st.weak x, 1 | ld.weak r0, x ;\nexists (x == 1)\n",
   "t.litmus:6:31: error: this row has 2 cells but the header has 3 threads"},
  {"row-too-long", "PTX t\n{\nx=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
   " st.weak x, 1 | ld.weak r0, x | ld.weak r1, x ;\nexists (x == 1)\n",
   "t.litmus:6:31: error: this row has more cells than the 2 threads of the header"},
  /* at the end of the row where ';' is missing, not at the next line */
  {"row-no-semi", HEAD " st.weak x, 1\nexists (x == 1)\n",
   "t.litmus:6:14: error: expected ';' at the end of this row, found 'exists' on line 7"},
  {"cell-no-bar", HEAD " st.weak x, 1 st.weak x, 2 ;\nexists (x == 1)\n",
   "t.litmus:6:15: error: expected '|' or ';' after a cell, found 'st.weak'"},
  {"two-labels", HEAD " L1: L2: ;\nexists (x == 1)\n", "t.litmus:6:6: error: unknown instruction 'L2'"},
  {"map-bad-space", HEAD " st.weak x, 1 ;\nx: local\nexists (x == 1)\n",
   "t.litmus:7:4: error: unknown instruction 'local'"},
  {"map-second-bad-space", HEAD " st.weak x, 1 ;\nx: shared, y: local\nexists (x == 1)\n",
   "t.litmus:7:15: error: expected 'shared' or 'global' after 'y:', found 'local'"},
  {"map-no-colon", HEAD " st.weak x, 1 ;\nx: shared, y global\nexists (x == 1)\n",
   "t.litmus:7:14: error: expected ':', found 'global'"},
  {"no-condition", HEAD " st.weak x, 1 ;\n", "t.litmus:7:1: error: expected the final condition "
   "(exists, ~exists or forall), found end of file"},
  {"not-without-exists", HEAD " st.weak x, 1 ;\n~forall (x == 1)\n",
   "t.litmus:7:2: error: expected 'exists' after '~' or 'not', found 'forall'"},
  {"cond-unclosed", HEAD " st.weak x, 1 ;\nexists (x == 1\n/\\ x == 2\n",
   "t.litmus:9:1: error: expected ')' (to close '(' at line 7), found end of file"},
  {"cond-no-comparison", HEAD " st.weak x, 1 ;\nexists (x)\n",
   "t.litmus:7:10: error: expected a comparison (==, !=, <, <=, >, >=), found ')'"},
  {"cond-dangling-and", HEAD " st.weak x, 1 ;\nexists (x == 1 /\\)\n",
   "t.litmus:7:18: error: expected a register (P0:r0), a location or a constant, found ')'"},
  {"cond-thread-no-register", HEAD " ld.weak r0, x ;\nexists (P0 == 1)\n",
   "t.litmus:7:12: error: expected ':' between thread and register, found '=='"},
  {"cond-trailing", HEAD " st.weak x, 1 ;\nexists (x == 1) x\n",
   "t.litmus:7:17: error: expected end of file after the condition, found 'x'"},
  {"cond-after-filter", HEAD " st.weak x, 1 ;\nfilter (x == 1)\n",
   "t.litmus:8:1: error: expected the final condition (exists, ~exists or forall), found end of file"},
  {"locations-unclosed", HEAD " st.weak x, 1 ;\nlocations [x; y exists (x == 1)\n",
   "t.litmus:7:17: error: expected ']', found 'exists'"},
  {"locations-constant", HEAD " st.weak x, 1 ;\nlocations [1]\nexists (x == 1)\n",
   "t.litmus:7:13: error: expected ':' between thread and register, found ']'"},
  {"deep-parens", NULL, "t.litmus:7:1008: error: proposition nested too deeply (more than 1000 levels)"},
};

/* The deepest case is built at run time: 1001 '(' around a comparison. */
static void test_parse_syntax_errors(void **state) {
  (void)state;
  bad_case cases[LC_ARRAY_LEN(syntax_errors)];
  memcpy(cases, syntax_errors, sizeof cases);
  lc_buf deep;
  lc_buf_init(&deep);
  lc_buf_puts(&deep, HEAD " st.weak x, 1 ;\nexists ");
  for (int i = 0; i < 1001; i++) lc_buf_putc(&deep, '(');
  lc_buf_puts(&deep, "x == 1");
  for (int i = 0; i < 1001; i++) lc_buf_putc(&deep, ')');
  cases[LC_ARRAY_LEN(cases) - 1].text = deep.s;
  check_bad_cases(cases, LC_ARRAY_LEN(cases));
  lc_buf_fini(&deep);
}

static void test_parse_nesting_limits(void **state) {
  (void)state;
  parsed p;
  lc_buf b;
  /* 1000 levels are fine, and so are chains of 999 conjuncts. */
  lc_buf_init(&b);
  lc_buf_puts(&b, HEAD " st.weak x, 1 ;\nexists ");
  for (int i = 0; i < 999; i++) lc_buf_putc(&b, '(');
  lc_buf_puts(&b, "x == 1");
  for (int i = 0; i < 999; i++) lc_buf_putc(&b, ')');
  assert_non_null(parse_text(&p, b.s));
  parsed_fini(&p);
  lc_buf_fini(&b);
  lc_buf_init(&b);
  lc_buf_puts(&b, HEAD " st.weak x, 1 ;\nexists x == 1");
  for (int i = 0; i < 999; i++) lc_buf_puts(&b, " /\\ x == 1");
  assert_non_null(parse_text(&p, b.s));
  parsed_fini(&p);
  lc_buf_puts(&b, " /\\ x == 1");
  assert_null(parse_text(&p, b.s));
  assert_string_equal(first_error(&p),
                      "t.litmus:7:10005: error: proposition nested too deeply (more than 1000 levels)");
  parsed_fini(&p);
  lc_buf_fini(&b);
  /* Negations count too. */
  lc_buf_init(&b);
  lc_buf_puts(&b, HEAD " st.weak x, 1 ;\nexists ");
  for (int i = 0; i < 5000; i++) lc_buf_putc(&b, '~');
  lc_buf_puts(&b, "x == 1");
  assert_null(parse_text(&p, b.s));
  assert_string_equal(first_error(&p),
                      "t.litmus:7:1008: error: proposition nested too deeply (more than 1000 levels)");
  parsed_fini(&p);
  lc_buf_fini(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parse_ld_forms),
    cmocka_unit_test(test_parse_real_ptx_spellings),
    cmocka_unit_test(test_parse_register_address),
    cmocka_unit_test(test_parse_volatile_and_mmio),
    cmocka_unit_test(test_parse_st_forms),
    cmocka_unit_test(test_parse_atom_operations),
    cmocka_unit_test(test_parse_atom_cas),
    cmocka_unit_test(test_parse_atom_defaults_are_recorded_as_absent),
    cmocka_unit_test(test_parse_proxy_accesses),
    cmocka_unit_test(test_parse_fences),
    cmocka_unit_test(test_parse_proxy_fences),
    cmocka_unit_test(test_parse_bar_with_count),
    cmocka_unit_test(test_parse_bar_forms),
    cmocka_unit_test(test_parse_alu),
    cmocka_unit_test(test_parse_ld_constant_is_a_move),
    cmocka_unit_test(test_parse_branches),
    cmocka_unit_test(test_parse_label_with_instruction),
    cmocka_unit_test(test_parse_init_forms),
    cmocka_unit_test(test_parse_empty_init_and_stray_semicolons),
    cmocka_unit_test(test_parse_thread_placement),
    cmocka_unit_test(test_parse_quantifiers),
    cmocka_unit_test(test_parse_comparisons_and_terms),
    cmocka_unit_test(test_parse_connectives_and_precedence),
    cmocka_unit_test(test_parse_locations_filter_and_map),
    cmocka_unit_test(test_parse_label_is_not_a_memory_map),
    cmocka_unit_test(test_parse_header_and_doc),
    cmocka_unit_test(test_parse_corpus_oddities),
    cmocka_unit_test(test_parse_comments_anywhere),
    cmocka_unit_test(test_parse_syntax_errors),
    cmocka_unit_test(test_parse_nesting_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
