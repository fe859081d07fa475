/* map_nvcc.c - compile a C++ test with nvcc and read its PTX back
 * (map_nvcc.h; docs/mappings.md, "The real compiler").
 * SPDX-License-Identifier: MIT
 *
 * Each access of a thread is emitted as one cuda::atomic_ref call (or a
 * plain access), after a marker; its operands come from, and its result
 * goes to, an array the compiler cannot see through, so nothing is folded
 * away.  The control flow and register arithmetic of the C++ test are not
 * emitted: they are kept from the test's own cells, and only the sequence
 * the compiler chose for each access is lifted and spliced in place of the
 * access.  The markers are compiler barriers, so what is tested is the
 * compiler's mapping of each access, not its reordering across accesses.
 */
#include "map/map_nvcc.h"

#include <stdlib.h>
#include <string.h>

#include "litmus/cpp_ast.h"
#include "map/lift.h"

static const char *mo_name(lt_sem s) {
  switch (s) {
  case LT_SEM_RELAXED: return "relaxed";
  case LT_SEM_ACQUIRE: return "acquire";
  case LT_SEM_RELEASE: return "release";
  case LT_SEM_ACQ_REL: return "acq_rel";
  default: return "seq_cst";
  }
}

static const char *mo_fail_name(lt_mo mo) {
  static const char *const names[] = {"relaxed", "relaxed", "acquire", "acquire", "relaxed",
                                      "acquire", "seq_cst"};
  return mo <= LT_MO_SEQ_CST ? names[mo] : "seq_cst";
}

static const char *scope_name(lt_scope s) {
  switch (s) {
  case LT_SCOPE_CTA: return "block";
  case LT_SCOPE_CLUSTER: return "cluster";
  case LT_SCOPE_GPU: return "device";
  default: return "system";
  }
}

static bool is_access(const lt_instr *in) {
  return in && in->cpp && (in->kind == LT_I_LD || in->kind == LT_I_ST || in->kind == LT_I_ATOM ||
                           in->kind == LT_I_FENCE);
}

/* ---- locations ------------------------------------------------------------------ */

typedef LC_VEC(const char *) name_vec;
typedef LC_VEC(map_site) site_vec;

static void add_name(name_vec *v, const char *s) {
  for (size_t i = 0; i < v->n; i++)
    if (!strcmp(v->v[i], s)) return;
  lc_vec_push(v, s);
}

static void collect_locations(const lt_test *ct, name_vec *v) {
  for (size_t i = 0; i < ct->ninits; i++)
    if (ct->inits[i].kind == LT_INIT_LOC) add_name(v, ct->inits[i].loc);
  for (size_t i = 0; i < ct->nthreads; i++)
    for (size_t j = 0; j < ct->threads[i].ncells; j++) {
      const lt_instr *in = ct->threads[i].cells[j].instr;
      if (is_access(in) && in->addr.kind == LT_OPND_LOC) add_name(v, in->addr.loc);
    }
}

/* ---- emitting CUDA C++ ------------------------------------------------------------ */

static const char *fetch_name(lt_rmw_op op) {
  switch (op) {
  case LT_RMW_ADD: return "fetch_add";
  case LT_RMW_SUB: return "fetch_sub";
  case LT_RMW_AND: return "fetch_and";
  case LT_RMW_OR: return "fetch_or";
  case LT_RMW_XOR: return "fetch_xor";
  case LT_RMW_MIN: return "fetch_min";
  case LT_RMW_MAX: return "fetch_max";
  case LT_RMW_EXCH: return "exchange";
  default: return NULL;
  }
}

/* CUDA's atomic functions (lt_instr.cpp_form LT_CF_CUDA_FN): the name's
 * stem for an RMW, NULL for none. */
static const char *cuda_fn_name(lt_rmw_op op) {
  switch (op) {
  case LT_RMW_ADD: return "atomicAdd";
  case LT_RMW_SUB: return "atomicSub";
  case LT_RMW_AND: return "atomicAnd";
  case LT_RMW_OR: return "atomicOr";
  case LT_RMW_XOR: return "atomicXor";
  case LT_RMW_MIN: return "atomicMin";
  case LT_RMW_MAX: return "atomicMax";
  case LT_RMW_INC: return "atomicInc";
  case LT_RMW_DEC: return "atomicDec";
  case LT_RMW_EXCH: return "atomicExch";
  case LT_RMW_CAS: return "atomicCAS";
  default: return NULL;
  }
}

static const char *cuda_fn_suffix(lt_scope s) {
  return s == LT_SCOPE_CTA ? "_block" : s == LT_SCOPE_SYS ? "_system" : "";
}

/* An atomic function or fence as written (__threadfence(), atomicAdd(p, v)). */
static int emit_cuda_fn(lc_buf *b, const lt_instr *in, const map_cpp_operands *o, const char *T, lc_diag *d) {
  const char *suffix = cuda_fn_suffix(in->scope);
  if (in->kind == LT_I_FENCE) {
    lc_buf_printf(b, "__threadfence%s();\n", suffix);
    return 0;
  }
  const char *fn = in->kind == LT_I_ATOM ? cuda_fn_name(in->rmw) : NULL;
  if (!fn) {
    lc_error(d, in->at, "this access has no CUDA atomic function");
    return -1;
  }
  if (in->rmw == LT_RMW_CAS)
    lc_buf_printf(b, "%s = %s%s((%s *)%s, (%s)%s, (%s)%s);\n", o->dst, fn, suffix, T, o->ptr, T, o->val, T,
                  o->val2);
  else
    lc_buf_printf(b, "%s = %s%s((%s *)%s, (%s)%s);\n", o->dst, fn, suffix, T, o->ptr, T, o->val);
  return 0;
}

int map_emit_cpp_access(lc_buf *b, const lt_instr *in, const map_cpp_operands *o, lc_diag *d) {
  const char *T = in->type == LT_TYPE_U32 ? "unsigned" : "int";
  if (in->sem == LT_SEM_VOLATILE) {   /* volatile int*: ld.volatile / st.volatile */
    if (in->kind == LT_I_LD) lc_buf_printf(b, "%s = *(volatile %s *)%s;\n", o->dst, T, o->ptr);
    else lc_buf_printf(b, "*(volatile %s *)%s = (%s)%s;\n", T, o->ptr, T, o->val);
    return 0;
  }
  if (in->cpp_form == LT_CF_CUDA_FN) return emit_cuda_fn(b, in, o, T, d);
  if (in->scope == LT_SCOPE_CLUSTER) {
    lc_error(d, in->at, "thread_scope_cluster: the libcu++ of this toolkit has no cuda::thread_scope_cluster "
                        "for cuda::atomic_ref, so the access is not compiled");
    return -1;
  }
  if (in->kind == LT_I_FENCE) {
    lc_buf_printf(b, "cuda::atomic_thread_fence(cuda::memory_order_%s, cuda::thread_scope_%s);\n",
                  mo_name(in->sem), scope_name(in->scope));
    return 0;
  }
  bool na = in->sem == LT_SEM_WEAK || in->sem == LT_SEM_NONE;
  /* the location as an lvalue of T (`*x`, `*(unsigned *)x`); an atomic object's
   * members through a pointer to it (cuda::atomic<T, S> as declared) */
  char x[96], ref[224];
  if (in->type == LT_TYPE_U32) snprintf(x, sizeof x, "(unsigned *)%s", o->ptr);
  else snprintf(x, sizeof x, "%s", o->ptr);
  if (in->cpp_form == LT_CF_OBJECT)
    snprintf(ref, sizeof ref, "((cuda::atomic<%s, cuda::thread_scope_%s> *)%s)->", T, scope_name(in->scope), o->ptr);
  else
    snprintf(ref, sizeof ref, "cuda::atomic_ref<%s, cuda::thread_scope_%s>(*%s).", T, scope_name(in->scope), x);
  if (in->kind == LT_I_LD && na) lc_buf_printf(b, "%s = *%s;\n", o->dst, x);
  else if (in->kind == LT_I_LD) lc_buf_printf(b, "%s = %sload(cuda::memory_order_%s);\n", o->dst, ref, mo_name(in->sem));
  else if (in->kind == LT_I_ST && na) lc_buf_printf(b, "*%s = %s;\n", x, o->val);
  else if (in->kind == LT_I_ST) lc_buf_printf(b, "%sstore(%s, cuda::memory_order_%s);\n", ref, o->val, mo_name(in->sem));
  else if (in->rmw == LT_RMW_CAS)
    lc_buf_printf(b, "{ %s e = %s; %scompare_exchange_strong(e, %s, cuda::memory_order_%s, "
                     "cuda::memory_order_%s); %s = e; }\n", T, o->val, ref, o->val2, mo_name(in->sem),
                  mo_fail_name(in->mo_fail), o->dst);
  else if (fetch_name(in->rmw))
    lc_buf_printf(b, "%s = %s%s(%s, cuda::memory_order_%s);\n", o->dst, ref, fetch_name(in->rmw), o->val,
                  mo_name(in->sem));
  else {
    lc_error(d, in->at, "atom.%s has no cuda::atomic_ref counterpart", lt_rmw_name(in->rmw));
    return -1;
  }
  return 0;
}

/* Operands in lc_v slots: a load's result, a store's value, an RMW's
 * result (its expected value for a CAS) then its operand. */
static int emit_access(lc_buf *b, const lt_instr *in, size_t cell, int *slot, lc_diag *d) {
  if (in->kind != LT_I_FENCE && in->addr.kind != LT_OPND_LOC) {
    lc_error(d, in->at, "an access through an address held in a register is not emitted for nvcc");
    return -1;
  }
  char first[32], second[32];
  map_cpp_operands o = {.ptr = in->kind == LT_I_FENCE ? NULL : in->addr.loc, .val = first, .val2 = second,
                        .dst = first};
  if (in->kind != LT_I_FENCE) {
    int k = (*slot)++;
    snprintf(first, sizeof first, "lc_v[%d]", k);
    if (in->kind == LT_I_ATOM) {
      snprintf(second, sizeof second, "lc_v[%d]", (*slot)++);
      if (in->rmw != LT_RMW_CAS) o.val = second;
    }
  }
  if (in->scope != LT_SCOPE_CLUSTER) lc_buf_printf(b, "  LC_MARK(%zu); ", cell);
  return map_emit_cpp_access(b, in, &o, d);
}

/* A kernel parameter as the test declares it (volatile int*, unsigned*,
 * cuda::atomic<int, S>*), so that what nvcc emits for each form is what
 * is checked; int* for a location the thread does not declare, or
 * declares with a type CUDA C++ lacks (C11's atomic_int, _Atomic). */
static const char *param_decl(const lt_test *ct, size_t thread, const char *loc) {
  const char *type = lt_cpp_param_of(ct, thread, loc);
  if (!type || !strchr(type, '*') || strstr(type, "_Atomic") || strstr(type, "atomic_") ||
      strstr(type, "__shared__") || strstr(type, "__device__") || strstr(type, "**"))
    return "int *";
  lt_param_type pt = lt_cpp_param_type(type);
  if (pt.kind == LT_PK_OBJECT && !strstr(type, "atomic<")) return "int *";   /* atomic_ref<T>* */
  return type;
}

const char *map_cuda_prelude(void) {
  return "// emitted by litmus-check --check-mapping nvcc\n#include <cuda/atomic>\n"
         "#define LC_MARK(n) asm volatile(\"// lc \" #n ::: \"memory\")\n";
}

char *map_emit_cuda(const lt_test *ct, const char *prefix, lc_diag *d) {
  name_vec locs = {0};
  collect_locations(ct, &locs);
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "\n// %s\n", ct->name);
  int rc = 0;
  for (size_t i = 0; i < ct->nthreads && rc == 0; i++) {
    lc_buf_printf(&b, "extern \"C\" __global__ void %sP%zu(", prefix, i);
    for (size_t k = 0; k < locs.n; k++) lc_buf_printf(&b, "%s %s, ", param_decl(ct, i, locs.v[k]), locs.v[k]);
    lc_buf_puts(&b, "int *lc_v) {\n");
    int slot = 0;
    const lt_thread *th = &ct->threads[i];
    for (size_t j = 0; j < th->ncells && rc == 0; j++)
      if (is_access(th->cells[j].instr) && !(th->cells[j].instr->kind == LT_I_FENCE &&
                                              th->cells[j].instr->sem == LT_SEM_RELAXED))
        rc = emit_access(&b, th->cells[j].instr, j, &slot, d);
    lc_buf_puts(&b, "}\n");
  }
  lc_vec_free(&locs);
  char *text = rc == 0 ? lc_buf_take(&b) : NULL;
  lc_buf_fini(&b);
  return text;
}

/* ---- splicing the lifted sequences -------------------------------------------------- */

static map_alt *sequence_alt(lc_arena *a, const lift_thread *lt, size_t cell) {
  size_t n = 0;
  for (size_t i = 0; i < lt->n; i++) n += lt->v[i].marker == (int)cell;
  map_alt *alt = lc_arena_alloc(a, sizeof *alt);
  alt->ins = lc_arena_alloc(a, (n + 1) * sizeof *alt->ins);
  alt->id = 1;
  alt->access = n;
  for (size_t i = 0; i < lt->n; i++) {
    const lt_instr *in = &lt->v[i].in;
    if (lt->v[i].marker != (int)cell) continue;
    map_instr *mi = &alt->ins[alt->nins];
    *mi = (map_instr){.kind = in->kind, .sem = in->sem, .scope = in->scope, .membar = in->membar};
    if (in->kind != LT_I_FENCE && alt->access == n) alt->access = alt->nins;
    alt->nins++;
  }
  return alt;
}

static int check_sequence(const lt_instr *from, const lift_thread *lt, size_t cell, const map_alt *alt,
                          lc_diag *d) {
  const lt_instr *access = NULL;
  for (size_t i = 0; i < lt->n; i++)
    if (lt->v[i].marker == (int)cell && lt->v[i].in.kind != LT_I_FENCE) access = &lt->v[i].in;
  bool ok = from->kind == LT_I_FENCE ? alt->access == alt->nins && alt->nins > 0
          : access && alt->access < alt->nins && (access->kind == from->kind ||
                                                  (from->kind == LT_I_ATOM && access->kind == LT_I_RED)) &&
            access->addr.kind == LT_OPND_LOC && !strcmp(access->addr.loc, from->addr.loc) &&
            (from->kind != LT_I_ATOM || access->rmw == from->rmw);
  size_t accesses = 0;
  for (size_t i = 0; i < alt->nins; i++) accesses += alt->ins[i].kind != LT_I_FENCE;
  if (!ok || accesses > 1) {
    lc_error(d, from->at, "the compiler's PTX for this access is not one %s of its location and fences",
             from->kind == LT_I_FENCE ? "fence or more" : "matching access");
    return -1;
  }
  return 0;
}

static int splice_thread(const lt_test *ct, size_t ti, const lift_thread *lt, lc_arena *a,
                         site_vec *sites, lc_diag *d) {
  const lt_thread *th = &ct->threads[ti];
  for (size_t j = 0; j < th->ncells; j++) {
    const lt_instr *in = th->cells[j].instr;
    if (!is_access(in)) continue;
    map_site s = {.thread = ti, .cell = j, .at = in->at, .cscope = map_cscope_of(in->scope)};
    s.kind = in->kind == LT_I_LD ? MAP_LOAD : in->kind == LT_I_ST ? MAP_STORE
           : in->kind == LT_I_ATOM ? MAP_RMW : MAP_FENCE;
    s.order = map_order_of(in);
    if (!(in->kind == LT_I_FENCE && in->sem == LT_SEM_RELAXED)) {
      map_alt *alt = sequence_alt(a, lt, j);
      if (check_sequence(in, lt, j, alt, d)) return -1;
      map_row *row = lc_arena_alloc(a, sizeof *row);
      *row = (map_row){.kind = s.kind, .order = s.order, .alts = alt, .nalts = 1, .at = in->at};
      s.row = row;
      s.scope = alt->access < alt->nins ? alt->ins[alt->access].scope
              : alt->nins ? alt->ins[0].scope : LT_SCOPE_NONE;
    }
    lc_vec_push(sites, s);
  }
  return 0;
}

int map_nvcc_lift(const lt_test *ct, const char *ptx, const char *prefix, map_compiled *out, lc_diag *d) {
  memset(out, 0, sizeof *out);
  out->arena = lc_arena_new();
  name_vec locs = {0};
  collect_locations(ct, &locs);
  site_vec sites = {0};
  int rc = 0;
  for (size_t i = 0; i < ct->nthreads && rc == 0; i++) {
    char entry[96];
    snprintf(entry, sizeof entry, "%sP%zu", prefix, i);
    lift_thread lt;
    rc = lift_ptx_sequences(out->arena, ptx, "nvcc.ptx", entry, locs.v, locs.n, &lt, d);
    if (rc == 0) rc = splice_thread(ct, i, &lt, out->arena, &sites, d);
  }
  lc_vec_free(&locs);
  out->plan.v = sites.v;
  out->plan.n = sites.n;
  if (rc) return -1;
  size_t *choice = lc_xcalloc(sites.n + 1, sizeof *choice);
  out->ptx_test = map_compile(ct, &out->plan, choice);
  free(choice);
  return 0;
}

void map_compiled_fini(map_compiled *c) {
  map_plan_fini(&c->plan);
  map_compiled_free(c->ptx_test);
  lc_arena_free(c->arena);
  memset(c, 0, sizeof *c);
}
