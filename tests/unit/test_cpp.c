/* test_cpp.c - the C++ dialect: the AST the parser builds, sugar that means
 * the same as the C11 form, the C++ lexer's operators, the events a C++
 * test lowers to, and syntax errors with their exact messages.
 * SPDX-License-Identifier: MIT
 */
#include "litmus_util.h"

#include "exec/exec.h"
#include "litmus/cpp_ast.h"

static const lt_cstmt *stmt_of(const lt_test *t, size_t thread, size_t i) {
  return t->cpp->threads[thread].body.v[i];
}

static void test_cpp_ast(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "CUDA mp\n"
      "{ [x] = 0; [y] = 0; }\n"
      "P0@cta 0,gpu 0 (int* x, atomic_int* y) {\n"
      "  *x = 1;\n"
      "  atomic_store_explicit(y, 1, memory_order_release, thread_scope_block);\n"
      "}\n"
      "P1@cta 1,gpu 0 (int* x, atomic_int* y) {\n"
      "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
      "  int r1 = 0;\n"
      "  if (r0 == 1) { r1 = *x; } else r1 = 2;\n"
      "}\n"
      "exists (1:r0 == 1 /\\ 1:r1 == 0)\n");
  assert_non_null(t);
  assert_non_null(t->cpp);
  assert_int_equal(t->cpp->dialect, LT_CPP_CUDA);
  assert_int_equal(t->nthreads, 2);
  assert_int_equal(t->threads[1].cta, 1);
  const lt_cpp_thread *p0 = &t->cpp->threads[0], *p1 = &t->cpp->threads[1];
  assert_true(p0->placed);
  assert_int_equal(p0->nparams, 2);
  assert_string_equal(p0->params[1].type, "atomic_int*");
  assert_string_equal(p0->params[1].name, "y");
  const lt_cstmt *s = stmt_of(t, 0, 0);
  assert_int_equal(s->kind, LT_CS_STORE);
  assert_int_equal(s->ptr->kind, LT_CE_LOC);
  s = stmt_of(t, 0, 1);
  assert_int_equal(s->kind, LT_CS_EXPR);
  assert_int_equal(s->e->atomic.kind, LT_CA_STORE);
  assert_int_equal(s->e->atomic.mo, LT_MO_RELEASE);
  assert_int_equal(s->e->atomic.scope, LT_TS_BLOCK);
  assert_int_equal(p1->nlocals, 2);
  assert_string_equal(p1->locals[1], "r1");
  s = stmt_of(t, 1, 0);
  assert_int_equal(s->kind, LT_CS_DECL);
  assert_int_equal(s->e->atomic.kind, LT_CA_LOAD);
  assert_int_equal(s->e->atomic.scope, LT_TS_NONE);
  assert_int_equal(s->e->atomic.mo_fail, LT_MO_NA);
  s = stmt_of(t, 1, 2);
  assert_int_equal(s->kind, LT_CS_IF);
  assert_true(s->has_else);
  assert_int_equal(s->e->op, LT_COP_EQ);
  assert_int_equal(s->body.v[0]->kind, LT_CS_ASSIGN);
  assert_int_equal(s->body.v[0]->e->kind, LT_CE_DEREF);
  assert_int_equal(s->els.n, 1);
  /* the condition names locals by number */
  assert_int_equal(t->cond->l->lhs.reg, 0);
  assert_int_equal(t->cond->r->lhs.reg, 1);
  parsed_fini(&p);
}

/* The same test in the C11 form and in CUDA's sugar. */
static void test_cpp_sugar(void **state) {
  (void)state;
  static const char *const forms[][2] = {
    {"atomic_store_explicit(x, 1, memory_order_release, thread_scope_device);",
     "cuda::atomic_ref<int, cuda::thread_scope_device>(*x).store(1, cuda::memory_order_release);"},
    {"int r = atomic_fetch_add_explicit(x, 2, memory_order_relaxed, thread_scope_block);",
     "int r = cuda::std::atomic_ref<int, cuda::thread_scope_block>(x).fetch_add(2, cuda::std::memory_order_relaxed);"},
    {"atomic_thread_fence(memory_order_seq_cst, thread_scope_device);",
     "cuda::atomic_thread_fence(cuda::memory_order_seq_cst, memory_scope_device);"},
    {"int e = 0; int r = atomic_compare_exchange_strong_explicit(x, &e, 1, memory_order_acq_rel, memory_order_acquire);",
     "int e = 0; int r = cuda::atomic_ref<int>(*x).compare_exchange_strong(e, 1, memory_order_acq_rel);"},
    {"int r = atomic_load_explicit(x, memory_order_seq_cst);", "int r = atomic_load(x);"},
    {"atomic_store_explicit(x, 1, memory_order_relaxed, thread_scope_block);",
     "atomic_store_explicit(x, 1, std::memory_order_relaxed, memory_scope_work_group);"},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(forms); i++) {
    parsed a, b;
    char ta[512], tb[512];
    snprintf(ta, sizeof ta, "CUDA s\n{ [x] = 0; }\nP0@cta 0,gpu 0 (atomic_int* x) { %s }\nexists (x == 1)\n",
             forms[i][0]);
    snprintf(tb, sizeof tb, "CUDA s\n{ [x] = 0; }\nP0@cta 0,gpu 0 (atomic_int* x) { %s }\nexists (x == 1)\n",
             forms[i][1]);
    parse_text(&a, ta);
    parse_text(&b, tb);
    if (!a.t || !b.t) print_error("form %zu: %s / %s\n", i, first_error(&a), first_error(&b));
    assert_non_null(a.t);
    assert_non_null(b.t);
    assert_true(lt_test_equal(a.t, b.t));
    parsed_fini(&a);
    parsed_fini(&b);
  }
}

/* `r0-1` subtracts; `= -1` is a negative constant; `(*x)` is code, not a
 * comment; `//` and slash-star comments are skipped. */
static void test_cpp_lexing(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "C lex\n"
      "{ [x] = 0; }\n"
      "P0 (atomic_int* x) {\n"
      "  int r0 = 5; // a comment\n"
      "  int r1 = r0-1; /* another */\n"
      "  int r2 = -1;\n"
      "  int r3 = cuda::atomic_ref<int>(*x).load(memory_order_relaxed);\n"
      "}\n"
      "exists (0:r1 == 4 /\\ 0:r2 == -1)\n");
  assert_non_null(t);
  const lt_cexpr *e = stmt_of(t, 0, 1)->e;
  assert_int_equal(e->kind, LT_CE_BINARY);
  assert_int_equal(e->op, LT_COP_SUB);
  e = stmt_of(t, 0, 2)->e;
  assert_int_equal(e->kind, LT_CE_CONST);
  assert_int_equal(e->value, -1);
  assert_int_equal(stmt_of(t, 0, 3)->e->atomic.obj->kind, LT_CE_LOC);
  assert_int_equal(t->threads[0].cta, 0);   /* no placement: a CTA per thread */
  assert_int_equal(t->cpp->dialect, LT_CPP_C11);
  parsed_fini(&p);
}

/* A negation and a negative literal print apart: `-1` is one literal,
 * `- 1` the negation of 1, `- -x` (not `--x`, a C++ decrement) a double
 * negation; each prints as written and reads back the same. */
static void test_cpp_print_negation(void **state) {
  (void)state;
  static const char *const exprs[] = {"-1", "- 1", "- 0", "- -3", "- - 5", "- -r0", "-(5)",
                                      "-9223372036854775807 - 1", "r0 - -1", "-r0"};
  for (size_t i = 0; i < LC_ARRAY_LEN(exprs); i++) {
    char text[256];
    snprintf(text, sizeof text, "CUDA neg\n{ [x] = 0; }\nP0@cta 0,gpu 0 (atomic_int* x) {\n"
             "  int r0 = 2;\n  atomic_store_explicit(x, %s, memory_order_relaxed);\n}\n"
             "exists (x == 1)\n", exprs[i]);
    parsed p;
    const lt_test *t = parse_text(&p, text);
    if (!t) print_error("%s: %s\n", exprs[i], first_error(&p));
    assert_non_null(t);
    lc_buf b;
    lc_buf_init(&b);
    lt_cpp_print_expr(&b, t, 0, stmt_of(t, 0, 1)->e->atomic.val);
    assert_string_equal(b.s, exprs[i]);
    lc_buf_fini(&b);
    char *why = rt_check(t);
    if (why) print_error("%s: %s", exprs[i], why);
    assert_null(why);
    parsed_fini(&p);
  }
}

static const lx_event *nth_event(const lx_program *p, size_t thread, size_t k) {
  const lx_path *path = &p->paths[p->threads[thread].paths[0]];
  return &p->events[path->events[k]];
}

/* C++ orders and scopes on the events; RMW halves as C++ splits them. */
static void test_cpp_events(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "CUDA ev\n"
      "{ [x] = 0; [y] = 0; }\n"
      "P0@cta 0,gpu 0 (atomic_int* x, atomic_int* y) {\n"
      "  *x = 1;\n"
      "  int a = atomic_fetch_add_explicit(y, 1, memory_order_acq_rel, thread_scope_block);\n"
      "  int b = atomic_exchange_explicit(y, 3, memory_order_seq_cst);\n"
      "  atomic_thread_fence(memory_order_relaxed);\n"
      "  atomic_thread_fence(memory_order_release, thread_scope_device);\n"
      "  int c = atomic_load_explicit(x, memory_order_relaxed, thread_scope_thread);\n"
      "}\n"
      "exists (0:a == 0)\n");
  assert_non_null(t);
  lx_program *prog = lx_lower(t, NULL, &p.d);
  assert_non_null(prog);
  assert_int_equal(prog->threads[0].npaths, 1);
  const lx_event *e = nth_event(prog, 0, 0);   /* *x = 1 */
  assert_true(lx_has(e, LX_T_WEAK));
  assert_int_equal(e->scope, LT_SCOPE_NONE);
  e = nth_event(prog, 0, 1);                   /* fetch_add acq_rel: acquire read */
  assert_true(lx_has(e, LX_T_ACQ) && lx_has(e, LX_T_CTA) && e->kind == LX_EV_READ);
  e = nth_event(prog, 0, 2);                   /* ... and release write */
  assert_true(lx_has(e, LX_T_REL) && e->kind == LX_EV_WRITE && e->rmw >= 0);
  e = nth_event(prog, 0, 3);                   /* exchange seq_cst: sc on both halves */
  assert_true(lx_has(e, LX_T_SC) && lx_has(e, LX_T_SYS));
  assert_true(lx_has(nth_event(prog, 0, 4), LX_T_SC));
  e = nth_event(prog, 0, 5);                   /* the relaxed fence is nothing */
  assert_int_equal(e->kind, LX_EV_FENCE);
  assert_true(lx_has(e, LX_T_REL) && lx_has(e, LX_T_GPU));
  e = nth_event(prog, 0, 6);                   /* thread scope: its own thread */
  assert_true(lx_has(e, LX_T_RLX));
  assert_int_equal(e->scope, LT_SCOPE_NONE);
  assert_string_equal(prog->obs[0].label, "P0:a");
  lx_program_free(prog);
  parsed_fini(&p);
}

/* A failed compare-exchange reads with its failure order and writes the
 * old value to the expected local; the flag is 0. */
static void test_cpp_cas_paths(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "C cas\n"
      "{ [x] = 0; }\n"
      "P0 (atomic_int* x) {\n"
      "  int e = 1;\n"
      "  int ok = atomic_compare_exchange_strong_explicit(x, &e, 2, memory_order_seq_cst, memory_order_acquire);\n"
      "}\n"
      "exists (0:ok == 0 /\\ 0:e == 0)\n");
  assert_non_null(t);
  lx_program *prog = lx_lower(t, NULL, &p.d);
  assert_non_null(prog);
  assert_int_equal(prog->threads[0].npaths, 2);
  size_t failed = 0, succeeded = 0;
  for (size_t k = 0; k < prog->threads[0].npaths; k++) {
    const lx_path *path = &prog->paths[prog->threads[0].paths[k]];
    const lx_event *r = &prog->events[path->events[0]];
    if (path->nevents == 1) {
      failed++;
      assert_true(lx_has(r, LX_T_ACQ));
      assert_int_equal(path->regs[1]->kind, LX_X_CONST);   /* ok = 0 */
      assert_int_equal(path->regs[1]->c, 0);
      assert_int_equal(path->regs[0]->kind, LX_X_READ);    /* e = the old value */
    } else {
      succeeded++;
      assert_true(lx_has(r, LX_T_SC));
      assert_true(lx_has(&prog->events[path->events[1]], LX_T_SC));
      assert_int_equal(path->regs[1]->c, 1);
    }
  }
  assert_int_equal(failed, 1);
  assert_int_equal(succeeded, 1);
  lx_program_free(prog);
  parsed_fini(&p);
}


/* CUDA's own forms mean the C11 nodes with libcu++'s defaults (seq_cst,
 * the object's scope): members and operators of a cuda::atomic<int, S>*
 * parameter, named atomic_refs, for and do loops, ++ and op= statements. */
static void test_cpp_cuda_forms(void **state) {
  (void)state;
  static const char *const forms[][3] = {
    {"cuda::atomic<int, cuda::thread_scope_device>* x", "x->store(1, cuda::memory_order_release);",
     "atomic_store_explicit(x, 1, memory_order_release, thread_scope_device);"},
    {"cuda::atomic<int, cuda::thread_scope_device>* x", "(*x).store(1, cuda::std::memory_order::release);",
     "atomic_store_explicit(x, 1, memory_order_release, thread_scope_device);"},
    {"cuda::atomic<int, cuda::thread_scope_device>* x", "*x = 1;",
     "atomic_store_explicit(x, 1, memory_order_seq_cst, thread_scope_device);"},
    {"cuda::atomic<int, cuda::thread_scope_block>* x", "int r = *x + 1;",
     "int r = atomic_load_explicit(x, memory_order_seq_cst, thread_scope_block) + 1;"},
    {"cuda::std::atomic<int>* x", "int r = (*x)++;",
     "int r = atomic_fetch_add_explicit(x, 1, memory_order_seq_cst);"},
    {"cuda::std::atomic<int>* x", "int r = --*x;",
     "int r = atomic_fetch_sub_explicit(x, 1, memory_order_seq_cst) - 1;"},
    {"cuda::std::atomic<int>* x", "*x += 3; x[0] |= 4;",
     "atomic_fetch_add_explicit(x, 3, memory_order_seq_cst); atomic_fetch_or_explicit((x + 0), 4, memory_order_seq_cst);"},
    {"cuda::atomic<int, cuda::thread_scope_system>* x", "int e = 0; bool ok = x->compare_exchange_strong(e, 1, cuda::memory_order_acq_rel);",
     "int e = 0; bool ok = atomic_compare_exchange_strong_explicit(x, &e, 1, memory_order_acq_rel, memory_order_acquire, thread_scope_system);"},
    {"int* x", "cuda::atomic_ref<int, cuda::thread_scope_block> f(*x); f = 1; int r = f.fetch_max(2); f++;",
     "atomic_store_explicit(x, 1, memory_order_seq_cst, thread_scope_block); "
     "int r = atomic_fetch_max_explicit(x, 2, memory_order_seq_cst, thread_scope_block); "
     "atomic_fetch_add_explicit(x, 1, memory_order_seq_cst, thread_scope_block);"},
    {"int* x", "for (int i = 0; i < 2; i++) *x += i;",
     "{ int i = 0; while (i < 2) { *x = *x + i; i = i + 1; } }"},
    {"int* x", "int r = 0; do { r = *x; } while (r == 0);",
     "int r = 0; while (1) { r = *x; if (!(r == 0)) { break; } }"},
    {"int* x", "while (atomicCAS(x, 0, 1) != 0);", "while (atomicCAS(x, 0, 1) != 0) { }"},
    {"int* x", "int a = 2; a *= *x + 1; int r = a > 2 ? 1 : 2; unsigned u = 1u;",
     "int a = 2; a = a * (*x + 1); int r = a > 2 ? 1 : 2; unsigned u = 1u;"},
    {"int* x", "int a = (unsigned)*x, b = 0; if (a) return;", "{ int a = (unsigned)*x; int b = 0; } if (a) { return; }"},
    {"cuda::atomic<int>* x", "x->wait(0, cuda::memory_order_acquire); x->notify_all(); __nanosleep(10);",
     "while (atomic_load_explicit(x, memory_order_acquire) == 0) { }"},
    {"int* x", "for (int i = 0; i < 2; i++) { if (i) continue; *x = i; }",
     "{ int i = 0; while (i < 2) { if (i) { { i = i + 1; continue; } } *x = i; i = i + 1; } }"},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(forms); i++) {
    parsed a, b;
    char ta[768], tb[768];
    snprintf(ta, sizeof ta, "CUDA s\n{ [x] = 0; }\nP0@cta 0,gpu 0 (%s) { %s }\nexists (x == 1)\n",
             forms[i][0], forms[i][1]);
    snprintf(tb, sizeof tb, "CUDA s\n{ [x] = 0; }\nP0@cta 0,gpu 0 (%s) { %s }\nexists (x == 1)\n",
             forms[i][0], forms[i][2]);
    parse_text(&a, ta);
    parse_text(&b, tb);
    if (!a.t || !b.t) print_error("form %zu: %s / %s\n", i, first_error(&a), first_error(&b));
    assert_non_null(a.t);
    assert_non_null(b.t);
    if (!lt_test_equal(a.t, b.t)) print_error("form %zu differs\n", i);
    assert_true(lt_test_equal(a.t, b.t));
    parsed_fini(&a);
    parsed_fini(&b);
  }
}

/* The CUDA atomic functions and fences: relaxed RMWs at device, block or
 * system scope, seq_cst fences; atomicCAS's expected operand is a value. */
static void test_cpp_cuda_functions(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "CUDA fn\n"
      "{ [x] = 0; [u] = 0; }\n"
      "P0@cta 0,gpu 0 (int* x, unsigned* u) {\n"
      "  int a = atomicAdd_block(x, 2);\n"
      "  unsigned b = atomicInc(u, 3);\n"
      "  int c = atomicCAS_system(x, a, 5);\n"
      "  __threadfence_block();\n"
      "  atomicExch(x, 1);\n"
      "}\n"
      "exists (0:a == 0)\n");
  assert_non_null(t);
  const lt_catomic *a = &stmt_of(t, 0, 0)->e->atomic;
  assert_true(a->cuda_fn);
  assert_int_equal(a->kind, LT_CA_FETCH);
  assert_int_equal(a->op, LT_RMW_ADD);
  assert_int_equal(a->mo, LT_MO_RELAXED);
  assert_int_equal(a->scope, LT_TS_BLOCK);
  a = &stmt_of(t, 0, 1)->e->atomic;
  assert_int_equal(a->op, LT_RMW_INC);
  assert_int_equal(a->scope, LT_TS_DEVICE);
  a = &stmt_of(t, 0, 2)->e->atomic;
  assert_int_equal(a->kind, LT_CA_CAS);
  assert_int_equal(a->scope, LT_TS_SYSTEM);
  assert_int_equal(a->expected->kind, LT_CE_LOCAL);
  a = &stmt_of(t, 0, 3)->e->atomic;
  assert_int_equal(a->kind, LT_CA_FENCE);
  assert_int_equal(a->mo, LT_MO_SEQ_CST);
  assert_int_equal(a->scope, LT_TS_BLOCK);
  assert_int_equal(stmt_of(t, 0, 4)->e->atomic.kind, LT_CA_EXCHANGE);
  /* the events: atomicInc on an unsigned location, volatile elsewhere */
  lx_program *prog = lx_lower(t, NULL, &p.d);
  assert_non_null(prog);
  const lx_event *e = nth_event(prog, 0, 0);
  assert_true(lx_has(e, LX_T_RLX) && lx_has(e, LX_T_CTA));
  lx_program_free(prog);
  parsed_fini(&p);
}

/* A volatile int* access is relaxed at system scope and tagged VOL. */
static void test_cpp_volatile(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "CUDA vol\n"
      "{ [x] = 0; [y] = 0; }\n"
      "P0@cta 0,gpu 0 (volatile int* x, int* y) {\n"
      "  *x = 1;\n"
      "  int r = *y + x[0];\n"
      "}\n"
      "exists (0:r == 0)\n");
  assert_non_null(t);
  lx_program *prog = lx_lower(t, NULL, &p.d);
  assert_non_null(prog);
  const lx_event *e = nth_event(prog, 0, 0);
  assert_true(lx_has(e, LX_T_VOL) && lx_has(e, LX_T_RLX) && lx_has(e, LX_T_SYS));
  assert_true(lx_has(nth_event(prog, 0, 1), LX_T_WEAK));
  assert_true(lx_has(nth_event(prog, 0, 2), LX_T_VOL));
  lx_program_free(prog);
  parsed_fini(&p);
}

/* The two-character operators: `->`, `++`, `--`, `+=` lex as one token;
 * `a - -1` stays a subtraction of a negative number. */
static void test_cpp_operators(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "CUDA ops\n"
      "{ [x] = 0; }\n"
      "P0@cta 0,gpu 0 (cuda::atomic<unsigned int, cuda::thread_scope_block>* x) {\n"
      "  int a = 1;\n"
      "  a += 2;\n"
      "  a--;\n"
      "  int b = a - -1;\n"
      "  int c = x->load(cuda::memory_order_relaxed);\n"
      "}\n"
      "exists (0:a == 0)\n");
  assert_non_null(t);
  assert_string_equal(t->cpp->threads[0].params[0].type, "cuda::atomic<unsigned int, cuda::thread_scope_block>*");
  const lt_cstmt *s = stmt_of(t, 0, 1);
  assert_int_equal(s->kind, LT_CS_ASSIGN);
  assert_int_equal(s->e->op, LT_COP_ADD);
  s = stmt_of(t, 0, 2);
  assert_int_equal(s->e->op, LT_COP_SUB);
  s = stmt_of(t, 0, 3);
  assert_int_equal(s->e->op, LT_COP_SUB);
  assert_int_equal(s->e->b->value, -1);
  s = stmt_of(t, 0, 4);
  assert_int_equal(s->e->atomic.kind, LT_CA_LOAD);
  assert_int_equal(s->e->atomic.scope, LT_TS_BLOCK);
  lt_param_type pt = lt_cpp_param_type(t->cpp->threads[0].params[0].type);
  assert_int_equal(pt.kind, LT_PK_OBJECT);
  assert_true(pt.is_unsigned);
  parsed_fini(&p);
}

/* Orders C and C++ leave undefined are read as herd7 reads them (the
 * order kept as the event's annotation), with one warning each. */
static void test_cpp_undefined_orders(void **state) {
  (void)state;
  static const struct { const char *text, *warning; } cases[] = {
    {"C e\n{}\nP0 (atomic_int* x) { atomic_store_explicit(x, 1, memory_order_acquire); }\nexists (x == 1)\n",
     "t.litmus:3:50: warning: a store with memory_order_acquire is undefined in C and C++ (C11 7.17.7.1p2, C++ [atomics.types.operations]); "
     "read as herd7 reads it: a write tagged ACQ"},
    {"C e\n{}\nP0 (atomic_int* x) { int r = atomic_load_explicit(x, memory_order_acq_rel); }\nexists (x == 1)\n",
     "t.litmus:3:54: warning: a load with memory_order_acq_rel is undefined in C and C++ (C11 7.17.7.2p2, C++ [atomics.types.operations]); "
     "read as herd7 reads it: a read tagged ACQ_REL"},
    {"C e\n{}\nP0 (atomic_int* x) { int e = 0; int r = atomic_compare_exchange_strong_explicit(x, &e, 1, memory_order_seq_cst, memory_order_release); }\nexists (x == 1)\n",
     "t.litmus:3:113: warning: a compare-exchange with failure order memory_order_release is undefined in C and C++ (C11 7.17.7.4p2, "
     "C++ [atomics.types.operations]); read as herd7 reads it: a failed one reads tagged REL"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    parsed p;
    lt_test *t = parse_text(&p, cases[i].text);
    if (!t) print_error("%s: %s\n", cases[i].text, first_error(&p));
    assert_non_null(t);
    assert_string_equal(message(&p, LC_SEV_WARNING, 0), cases[i].warning);
    assert_string_equal(message(&p, LC_SEV_WARNING, 1), "(none)");
    parsed_fini(&p);
  }
}

static void test_cpp_errors(void **state) {
  (void)state;
  static const bad_case cases[] = {
    {"thread-order", "C e\n{}\nP1 (atomic_int* x) { }\nexists (x == 1)\n",
     "t.litmus:3:1: error: thread P1 out of order: expected P0"},
    {"bad-ref-op", "CUDA e\n{}\nP0@cta 0,gpu 0 (atomic_int* x) { cuda::atomic_ref<int>(*x).frob(1); }\nexists (x == 1)\n",
     "t.litmus:3:60: error: `cuda::atomic_ref<int>(*x).frob`: cuda::atomic_ref has no member frob (it "
     "has load, store, exchange, fetch_add, fetch_sub, fetch_and, fetch_or, fetch_xor, fetch_min, "
     "fetch_max, compare_exchange_weak, compare_exchange_strong, wait, notify_one and notify_all)"},
    {"addr-of-expr", "C e\n{}\nP0 (atomic_int* x) { int r = &(1); }\nexists (x == 1)\n",
     "t.litmus:3:30: error: '&' needs a local or a location"},
    {"no-member", "CUDA e\n{}\nP0@cta 0,gpu 0 (cuda::atomic<int>* x) { x->wait_for(0); }\nexists (x == 1)\n",
     "t.litmus:3:44: error: `x->wait_for`: cuda::atomic has no member wait_for (it has load, store, exchange, "
     "fetch_add, fetch_sub, fetch_and, fetch_or, fetch_xor, fetch_min, fetch_max, compare_exchange_weak, "
     "compare_exchange_strong, wait, notify_one and notify_all)"},
    {"wait-as-value", "CUDA e\n{}\nP0@cta 0,gpu 0 (cuda::atomic<int>* x) { int r = x->wait(0); }\nexists (x == 1)\n",
     "t.litmus:3:52: error: wait returns nothing: call it as a statement of its own"},
    {"continue-outside", "CUDA e\n{}\nP0@cta 0,gpu 0 (int* x) { continue; }\nexists (x == 1)\n",
     "t.litmus:3:27: error: 'continue' outside a loop"},
    {"decrement-twice", "CUDA e\n{}\nP0@cta 0,gpu 0 (int* x) { int a = 1; int b = a--1; }\nexists (x == 1)\n",
     "t.litmus:3:47: error: '--' on local a inside an expression: changing a local is a statement of its "
     "own here (a--;); for two minus signs write '- -'"},
    /* found by fuzzing: void calls went on as the value 0 */
    {"fence-as-value", "CUDA e\n{}\nP0@cta 0,gpu 0 (int* x) { int r = __threadfence() + 1; }\nexists (x == 1)\n",
     "t.litmus:3:35: error: a fence returns nothing (void); it cannot be used as a value"},
    {"fence-under-tilde", "CUDA e\n{}\nP0@cta 0,gpu 0 (int* x) { while (*x == 0) ~__threadfence(); }\nexists (x == 1)\n",
     "t.litmus:3:44: error: a fence returns nothing (void); it cannot be used as a value"},
    {"store-as-value", "CUDA e\n{}\nP0@cta 0,gpu 0 (cuda::atomic<int>* x) { int r = x->store(1); }\nexists (x == 1)\n",
     "t.litmus:3:49: error: a store returns nothing (void); it cannot be used as a value"},
    {"fence-as-condition", "CUDA e\n{}\nP0@cta 0,gpu 0 (int* x) { if (cuda::atomic_thread_fence(cuda::memory_order_seq_cst)) *x = 1; }\nexists (x == 1)\n",
     "t.litmus:3:31: error: a fence returns nothing (void); it cannot be used as a value"},
  };
  check_bad_cases(cases, LC_ARRAY_LEN(cases));
}

/* Found by fuzzing: inside a body `~` began the condition (as `~exists`
 * does after the threads), so `~r;` printed from an unbraced loop body
 * did not parse back. */
static void test_cpp_tilde_statement(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p, "CUDA tilde\n{ int x = 0; }\nP0@cta 0,gpu 0 (int* x) {\n"
                                    "  int r = 2;\n  while (*x == 0) ~r;\n  { ~r; }\n  *x = 1;\n}\n"
                                    "~exists (0:r == 3)\n");
  if (!t) print_error("%s\n", first_error(&p));
  assert_non_null(t);
  char *why = rt_check(t);
  if (why) print_error("%s", why);
  assert_null(why);
  parsed_fini(&p);
}

/* An index is an operand of the sum `a[e]` stands for: an expression of
 * looser precedence than `+` prints in parentheses wherever the index is
 * (a value, an address, an assignment, a compound one, `++`, a condition),
 * and reads back as the same tree; `*(a + 2 - i)` read as (a + 2) - i. */
static void test_cpp_print_index(void **state) {
  (void)state;
  static const struct { const char *stmt, *print; } cases[] = {
    {"int r = a[2 - i];", "int r = *(a + (2 - i));"},
    {"int r = a[i & 1];", "int r = *(a + (i & 1));"},
    {"int r = a[i == 2];", "int r = *(a + (i == 2));"},
    {"int r = a[i ? 1 : 0];", "int r = *(a + (i ? 1 : 0));"},
    {"int r = a[i * 2];", "int r = *(a + i * 2);"},
    {"int r = a[(i - 1)];", "int r = *(a + (i - 1));"},
    {"int* r = &a[i - 1];", "int* r = (a + (i - 1));"},
    {"a[i - 1] += 2;", "*(a + (i - 1)) = *(a + (i - 1)) + 2;"},
    {"a[i - 1]++;", "*(a + (i - 1)) = *(a + (i - 1)) + 1;"},
    {"a[i | 1] = a[i ^ 1] - -a[i - 1];", "*(a + (i | 1)) = *(a + (i ^ 1)) - -*(a + (i - 1));"},
    {"int r = (i & 1) == 0 ? a[i - 1] : a[i + 1];", "int r = (i & 1) == 0 ? *(a + (i - 1)) : *(a + (i + 1));"},
    {"if (a[i - 1] == 0 && a[i < 2]) { i = 0; }", "if (*(a + (i - 1)) == 0 && *(a + (i < 2))) {"},
    {"atomic_store_explicit(&x[i - 1], a[i % 2], memory_order_relaxed);",
     "atomic_store_explicit((x + (i - 1)), *(a + i % 2), memory_order_relaxed);"},
  };
  for (size_t i = 0; i < LC_ARRAY_LEN(cases); i++) {
    char text[512];
    snprintf(text, sizeof text, "C idx\n{ int a[4] = {0, 0, 0, 0}; atomic_int x[4] = {0, 0, 0, 0}; }\n"
             "P0 (int* a, atomic_int* x) {\n  int i = 2;\n  %s\n}\nexists (x == 1)\n", cases[i].stmt);
    parsed p;
    const lt_test *t = parse_text(&p, text);
    if (!t) print_error("%s: %s\n", cases[i].stmt, first_error(&p));
    assert_non_null(t);
    char *print = rt_print(t);
    if (!strstr(print, cases[i].print)) print_error("%s printed as\n%s", cases[i].stmt, print);
    assert_non_null(strstr(print, cases[i].print));
    free(print);
    char *why = rt_check(t);
    if (why) print_error("%s: %s", cases[i].stmt, why);
    assert_null(why);
    parsed_fini(&p);
  }
}

/* The path of thread 0 with n events. */
static const lx_path *path_with(const lx_program *p, size_t n) {
  for (size_t k = 0; k < p->threads[0].npaths; k++) {
    const lx_path *path = &p->paths[p->threads[0].paths[k]];
    if (path->nevents == n) return path;
  }
  return NULL;
}

/* po on a path's events k < l is exactly the pairs `order` lists (the
 * rest unordered), and po is transitive. */
static void assert_po(const lx_program *p, const lx_path *path, const char *const *order) {
  for (size_t k = 0; k < path->nevents; k++)
    for (size_t l = 0; l < path->nevents; l++) {
      bool want = false;
      for (size_t i = 0; order[i]; i += 2)
        want |= (size_t)(order[i][0] - 'a') == k && (size_t)(order[i + 1][0] - 'a') == l;
      if (rel_has(p->po, (size_t)path->events[k], (size_t)path->events[l]) != want)
        fail_msg("po(%c, %c) is %d, want %d", (char)('a' + k), (char)('a' + l), !want, want);
    }
  rel_rel *plus = rel_copy(p->po);
  rel_plus_into(plus);
  assert_true(rel_equal(plus, p->po));
  rel_free(plus);
}

/* The operands of an operator, and the arguments of one call, are
 * unsequenced (C11 6.5p2-3, 6.5.2.2p10): po orders the events of one
 * full-expression as its tree does, series-parallel, and orders every
 * full-expression's events before the next one's (or the next
 * iteration's). */
static void test_cpp_unsequenced_po(void **state) {
  (void)state;
  parsed p;
  const lt_test *t = parse_text(&p,
      "C unseq\n"
      "{ [x] = 0; [y] = 0; [z] = 0; [w] = 0; }\n"
      "P0 (atomic_int* x, int* y, int* z, int* w) {\n"
      "  int a = (atomic_load_explicit(x, memory_order_relaxed) + *y) * (*z - *w);\n"
      "  *w = *y + atomic_fetch_add_explicit(x, *z, memory_order_relaxed);\n"
      "  int b = (*y || *z) + *w;\n"
      "}\n"
      "exists (0:a == 1)\n");
  assert_non_null(t);
  lx_program *prog = lx_lower(t, NULL, &p.d);
  assert_non_null(prog);
  /* a..d: x y z w of the first statement, unordered; e y, f z, g h the
   * fetch_add's halves, i the store to w: f before the fetch_add (its
   * argument), all before the store; j y, k z (|| sequences them), l w */
  const lx_path *path = path_with(prog, 12);
  assert_non_null(path);
  static const char *const order[] = {
    "a", "e", "a", "f", "a", "g", "a", "h", "a", "i", "a", "j", "a", "k", "a", "l",
    "b", "e", "b", "f", "b", "g", "b", "h", "b", "i", "b", "j", "b", "k", "b", "l",
    "c", "e", "c", "f", "c", "g", "c", "h", "c", "i", "c", "j", "c", "k", "c", "l",
    "d", "e", "d", "f", "d", "g", "d", "h", "d", "i", "d", "j", "d", "k", "d", "l",
    "e", "i", "e", "j", "e", "k", "e", "l",
    "f", "g", "f", "h", "f", "i", "f", "j", "f", "k", "f", "l",
    "g", "h", "g", "i", "g", "j", "g", "k", "g", "l",
    "h", "i", "h", "j", "h", "k", "h", "l",
    "i", "j", "i", "k", "i", "l",
    "j", "k",
    NULL};
  assert_po(prog, path, order);
  /* no dependency between unsequenced events: y's || does not control w */
  assert_false(rel_has(prog->ctrl, (size_t)path->events[9], (size_t)path->events[11]));
  assert_true(rel_has(prog->ctrl, (size_t)path->events[9], (size_t)path->events[10]));
  lx_program_free(prog);
  parsed_fini(&p);

  /* each iteration of a loop is an evaluation of its own */
  t = parse_text(&p,
      "C unseq-loop\n"
      "{ [x] = 0; [y] = 0; }\n"
      "P0 (atomic_int* x, int* y) {\n"
      "  while (atomic_load_explicit(x, memory_order_relaxed) + *y != 2) {}\n"
      "}\n"
      "exists (x == 0)\n");
  assert_non_null(t);
  prog = lx_lower(t, NULL, &p.d);
  assert_non_null(prog);
  path = path_with(prog, 4);
  assert_non_null(path);
  static const char *const loop[] = {"a", "c", "a", "d", "b", "c", "b", "d", NULL};
  assert_po(prog, path, loop);
  lx_program_free(prog);
  parsed_fini(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cpp_ast),
    cmocka_unit_test(test_cpp_sugar),
    cmocka_unit_test(test_cpp_lexing),
    cmocka_unit_test(test_cpp_print_negation),
    cmocka_unit_test(test_cpp_events),
    cmocka_unit_test(test_cpp_cas_paths),
    cmocka_unit_test(test_cpp_cuda_forms),
    cmocka_unit_test(test_cpp_cuda_functions),
    cmocka_unit_test(test_cpp_volatile),
    cmocka_unit_test(test_cpp_operators),
    cmocka_unit_test(test_cpp_undefined_orders),
    cmocka_unit_test(test_cpp_errors),
    cmocka_unit_test(test_cpp_tilde_statement),
    cmocka_unit_test(test_cpp_print_index),
    cmocka_unit_test(test_cpp_unsequenced_po),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
