/* lift_ptx.c - read compiler-made PTX back into litmus instructions
 * (lift.h; docs/mappings.md, "The real compiler").
 * SPDX-License-Identifier: MIT
 *
 * A line at a time: the compiler's output for one straight-line kernel is
 * small and regular (one instruction per line), so a table of what each
 * PTX register holds (an address, a constant, or a lifted value) is all
 * the state there is.
 */
#include "map/lift.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum { V_NONE, V_ADDR, V_CONST, V_VALUE } val_kind;

typedef struct val {
  val_kind kind;
  size_t param;          /* ADDR: the parameter */
  int64_t c;             /* CONST */
  int tmp;               /* VALUE: lifted value number */
} val;

typedef struct binding { char name[24]; val v; } binding;

typedef struct lifter {
  lc_arena *a;
  lc_diag *d;
  const char *ptx_name, *entry;
  const char *const *locs;
  size_t nlocs, nregs;
  LC_VEC(binding) regs;
  LC_VEC(lift_instr) out;
  int marker;            /* -1 before the first, -2 after `// lc end` */
  bool sequences;        /* lift_ptx_sequences */
  int ntmp;
  int line;
  int *out_tmp;          /* by litmus register: the value handed back, or -1 */
  int64_t *out_const;
  bool *out_set;
} lifter;

static int refuse(lifter *l, const char *text, const char *why) {
  lc_loc at = {l->ptx_name, l->line, 1};
  lc_error(l->d, at, "cannot lift '%s': %s", text, why);
  return -1;
}

static val *lookup(lifter *l, const char *name, size_t n) {
  for (size_t i = 0; i < l->regs.n; i++)
    if (strlen(l->regs.v[i].name) == n && memcmp(l->regs.v[i].name, name, n) == 0) return &l->regs.v[i].v;
  return NULL;
}

static void bind(lifter *l, const char *name, size_t n, val v) {
  val *old = lookup(l, name, n);
  if (old) { *old = v; return; }
  binding b = {.v = v};
  if (n >= sizeof b.name) n = sizeof b.name - 1;
  memcpy(b.name, name, n);
  lc_vec_push(&l->regs, b);
}

/* ---- operands -------------------------------------------------------------------- */

typedef struct span { const char *s; size_t n; } span;

static span trim(const char *s, size_t n) {
  while (n && isspace((unsigned char)*s)) s++, n--;
  while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == ';')) n--;
  return (span){s, n};
}

static size_t split_operands(span ops, span *out, size_t max) {
  size_t k = 0;
  const char *s = ops.s, *end = ops.s + ops.n;
  while (s < end && k < max) {
    const char *c = memchr(s, ',', (size_t)(end - s));
    if (!c) c = end;
    out[k++] = trim(s, (size_t)(c - s));
    s = c + 1;
  }
  return k;
}

/* `%r3` or an integer: an instruction operand. */
static int value_operand(lifter *l, span o, lt_operand *op, const char *text) {
  int64_t c;
  if (o.n && o.s[0] != '%' && lc_parse_int64(o.s, o.n, &c) == 0) {
    *op = (lt_operand){.kind = LT_OPND_IMM, .imm = c};
    return 0;
  }
  val *v = lookup(l, o.s, o.n);
  if ((!v || v->kind == V_NONE) && l->sequences) { *op = (lt_operand){.kind = LT_OPND_NONE}; return 0; }
  if (!v || v->kind == V_NONE) return refuse(l, text, "an operand whose value is not known");
  if (v->kind == V_ADDR) return refuse(l, text, "an address used as a value");
  *op = v->kind == V_CONST ? (lt_operand){.kind = LT_OPND_IMM, .imm = v->c}
                           : (lt_operand){.kind = LT_OPND_REG, .reg = v->tmp};
  return 0;
}

/* `[%rd1]`: the location the address names. */
static int address_operand(lifter *l, span o, size_t *param, int64_t *offset, const char *text) {
  if (o.n < 3 || o.s[0] != '[' || o.s[o.n - 1] != ']') return refuse(l, text, "expected an address [%rdN]");
  span in = trim(o.s + 1, o.n - 2);
  const char *plus = memchr(in.s, '+', in.n);
  size_t rn = plus ? (size_t)(plus - in.s) : in.n;
  *offset = 0;
  if (plus && lc_parse_int64(plus + 1, in.n - rn - 1, offset) != 0)
    return refuse(l, text, "an address offset that is not a number");
  val *v = lookup(l, in.s, rn);
  if (!v || v->kind != V_ADDR) return refuse(l, text, "an address not taken from a parameter");
  *param = v->param;
  return 0;
}

static int location_operand(lifter *l, span o, lt_operand *op, const char *text) {
  size_t param;
  int64_t off;
  if (address_operand(l, o, &param, &off, text)) return -1;
  if (param >= l->nlocs) return refuse(l, text, "an access to the register array before '// lc end'");
  if (off) return refuse(l, text, "an address with an offset (arrays are not lifted)");
  *op = (lt_operand){.kind = LT_OPND_LOC, .loc = l->locs[param], .bracketed = true};
  return 0;
}

static int dest(lifter *l, span o, lt_operand *op) {
  int t = l->ntmp++;
  bind(l, o.s, o.n, (val){.kind = V_VALUE, .tmp = t});
  *op = (lt_operand){.kind = LT_OPND_REG, .reg = t};
  return 0;
}

/* ---- mnemonics --------------------------------------------------------------------- */

typedef struct word { const char *s; int v; } word;

static bool find_word(const word *w, size_t n, span p, int *v) {
  for (size_t i = 0; i < n; i++)
    if (strlen(w[i].s) == p.n && memcmp(w[i].s, p.s, p.n) == 0) { *v = w[i].v; return true; }
  return false;
}

static const word sems[] = {{"weak", LT_SEM_WEAK}, {"relaxed", LT_SEM_RELAXED},
  {"acquire", LT_SEM_ACQUIRE}, {"release", LT_SEM_RELEASE}, {"acq_rel", LT_SEM_ACQ_REL},
  {"sc", LT_SEM_SC}, {"volatile", LT_SEM_VOLATILE}};
static const word scopes[] = {{"cta", LT_SCOPE_CTA}, {"cluster", LT_SCOPE_CLUSTER},
  {"gpu", LT_SCOPE_GPU}, {"gl", LT_SCOPE_GPU}, {"sys", LT_SCOPE_SYS}};
static const word rmws[] = {{"add", LT_RMW_ADD}, {"sub", LT_RMW_SUB}, {"and", LT_RMW_AND},
  {"or", LT_RMW_OR}, {"xor", LT_RMW_XOR}, {"exch", LT_RMW_EXCH}, {"min", LT_RMW_MIN},
  {"max", LT_RMW_MAX}, {"inc", LT_RMW_INC}, {"dec", LT_RMW_DEC}, {"cas", LT_RMW_CAS}};
static const word ignored[] = {{"global", 0}, {"u32", 0}, {"b32", 0}, {"s32", 0}};
static const word kinds[] = {{"ld", LT_I_LD}, {"st", LT_I_ST}, {"atom", LT_I_ATOM},
  {"red", LT_I_RED}, {"fence", LT_I_FENCE}, {"membar", LT_I_FENCE}};

/* Splits `atom.add.acquire.gpu.s32` into the fields of in. */
static int qualifiers(lifter *l, span m, lt_instr *in, const char *text) {
  span p[8];
  size_t np = 0;
  const char *s = m.s, *end = m.s + m.n;
  while (s <= end && np < 8) {
    const char *dot = memchr(s, '.', (size_t)(end - s));
    if (!dot) dot = end;
    p[np++] = (span){s, (size_t)(dot - s)};
    s = dot + 1;
  }
  int v;
  if (!find_word(kinds, LC_ARRAY_LEN(kinds), p[0], &v)) return 1;
  in->kind = (lt_instr_kind)v;
  in->membar = p[0].n == 6;
  for (size_t i = 1; i < np; i++) {
    if (find_word(sems, LC_ARRAY_LEN(sems), p[i], &v)) in->sem = (lt_sem)v;
    else if (find_word(scopes, LC_ARRAY_LEN(scopes), p[i], &v)) in->scope = (lt_scope)v;
    else if (find_word(rmws, LC_ARRAY_LEN(rmws), p[i], &v)) in->rmw = (lt_rmw_op)v;
    else if (!find_word(ignored, LC_ARRAY_LEN(ignored), p[i], &v)) {
      char why[96];
      snprintf(why, sizeof why, "the qualifier '.%.*s' is not lifted", (int)p[i].n, p[i].s);
      return refuse(l, text, why);
    }
  }
  if (in->membar) in->sem = LT_SEM_SC;
  else if (in->kind == LT_I_FENCE && in->sem == LT_SEM_NONE) { in->sem = LT_SEM_ACQ_REL; in->fence_no_sem = true; }
  else if ((in->kind == LT_I_LD || in->kind == LT_I_ST) && in->sem == LT_SEM_NONE) in->sem = LT_SEM_WEAK;
  else if ((in->kind == LT_I_ATOM || in->kind == LT_I_RED) && in->sem == LT_SEM_NONE) {
    in->sem = LT_SEM_RELAXED;   /* PTX: atom without .sem is relaxed at gpu scope */
    if (in->scope == LT_SCOPE_NONE) in->scope = LT_SCOPE_GPU;
  }
  return 0;
}

/* lift_ptx_sequences: a load or store of the harness's operand array. */
static bool harness_access(lifter *l, lt_instr_kind k, const span *o) {
  if (k != LT_I_LD && k != LT_I_ST) return false;
  span a = o[k == LT_I_LD ? 1 : 0];
  if (a.n < 3 || a.s[0] != '[') return false;
  span in = trim(a.s + 1, a.n - 2);
  const char *plus = memchr(in.s, '+', in.n);
  val *v = lookup(l, in.s, plus ? (size_t)(plus - in.s) : in.n);
  return v && v->kind == V_ADDR && v->param == l->nlocs;
}

static int memory(lifter *l, span m, span ops, const char *text) {
  lift_instr li = {.marker = l->marker, .ptx_line = l->line};
  lt_instr *in = &li.in;
  int rc = qualifiers(l, m, in, text);
  if (rc) return rc;
  span o[5];
  size_t n = split_operands(ops, o, 5);
  static const size_t want[] = {[LT_I_LD] = 2, [LT_I_ST] = 2, [LT_I_ATOM] = 3, [LT_I_RED] = 2,
                                [LT_I_FENCE] = 0};
  size_t need = want[in->kind] + (in->rmw == LT_RMW_CAS);
  if (n != need) return refuse(l, text, "unexpected operands");
  if (l->sequences && harness_access(l, in->kind, o)) {
    if (in->kind == LT_I_LD) bind(l, o[0].s, o[0].n, (val){.kind = V_NONE});
    return 0;
  }
  if (l->marker < 0) return refuse(l, text, "a memory access outside the access markers");
  switch (in->kind) {
  case LT_I_LD: rc = location_operand(l, o[1], &in->addr, text) || dest(l, o[0], &in->dst); break;
  case LT_I_ST: case LT_I_RED:
    rc = location_operand(l, o[0], &in->addr, text) || value_operand(l, o[1], &in->a, text);
    break;
  case LT_I_ATOM:
    rc = location_operand(l, o[1], &in->addr, text) || value_operand(l, o[2], &in->a, text) ||
         (need == 4 && value_operand(l, o[3], &in->b, text)) || dest(l, o[0], &in->dst);
    break;
  default: break;
  }
  if (rc) return -1;
  lc_vec_push(&l->out, li);
  return 0;
}

/* After `// lc end`: `st.global.u32 [%rdOut+4k], %rK` hands back register k. */
static int hand_back(lifter *l, span m, span ops, const char *text) {
  span o[3];
  size_t param;
  int64_t off;
  if (!(m.n >= 2 && memcmp(m.s, "st", 2) == 0) || split_operands(ops, o, 3) != 2 ||
      address_operand(l, o[0], &param, &off, text))
    return l->d->nerrors ? -1 : refuse(l, text, "only stores of registers follow '// lc end'");
  if (param != l->nlocs || off < 0 || off % 4 || (size_t)(off / 4) >= l->nregs)
    return refuse(l, text, "a store after '// lc end' outside the register array");
  lt_operand v;
  if (value_operand(l, o[1], &v, text)) return -1;
  size_t k = (size_t)(off / 4);
  l->out_set[k] = true;
  l->out_tmp[k] = v.kind == LT_OPND_REG ? v.reg : -1;
  l->out_const[k] = v.imm;
  return 0;
}

/* Register moves the compiler makes before and between the accesses. */
static int move(lifter *l, span m, span ops, const char *text) {
  span o[3];
  if (split_operands(ops, o, 3) != 2) return refuse(l, text, "unexpected operands");
  if (m.n > 9 && memcmp(m.s, "ld.param.", 9) == 0) {
    const char *us = o[1].n > 2 ? memchr(o[1].s, '_', o[1].n) : NULL;
    const char *tag = "_param_";
    size_t en = strlen(l->entry);
    if (!us || o[1].n < en + 9 || memcmp(o[1].s + 1, l->entry, en) != 0 ||
        memcmp(o[1].s + 1 + en, tag, 7) != 0)
      return refuse(l, text, "a parameter of another kernel");
    int64_t i;
    if (lc_parse_int64(o[1].s + 1 + en + 7, o[1].n - en - 9, &i) || i < 0 || (size_t)i > l->nlocs)
      return refuse(l, text, "an unknown parameter");
    bind(l, o[0].s, o[0].n, (val){.kind = V_ADDR, .param = (size_t)i});
    return 0;
  }
  int64_t c;
  if (lc_parse_int64(o[1].s, o[1].n, &c) == 0) {
    bind(l, o[0].s, o[0].n, (val){.kind = V_CONST, .c = c});
    return 0;
  }
  val *v = lookup(l, o[1].s, o[1].n);
  if (!v) return refuse(l, text, "a move from an unknown register");
  val copy = *v;
  bind(l, o[0].s, o[0].n, copy);
  return 0;
}

static bool starts(span s, const char *w) { return s.n >= strlen(w) && memcmp(s.s, w, strlen(w)) == 0; }

static int marker(lifter *l, span s) {
  span rest = trim(s.s + 5, s.n - 5);
  int64_t k;
  if (rest.n == 3 && memcmp(rest.s, "end", 3) == 0) { l->marker = -2; return 0; }
  if (lc_parse_int64(rest.s, rest.n, &k) || k < 0 || k > 1000000) return refuse(l, "// lc", "a bad marker");
  l->marker = (int)k;
  return 0;
}

static int one_line(lifter *l, span s) {
  s = trim(s.s, s.n);
  if (!s.n || s.s[0] == '{' || s.s[0] == '}' || s.s[0] == '.' ||
      (starts(s, "//") && !starts(s, "// lc ")))
    return 0;
  if (starts(s, "// lc ")) return marker(l, s);
  char text[160];
  snprintf(text, sizeof text, "%.*s", (int)(s.n > 150 ? 150 : s.n), s.s);
  if (starts(s, "ret")) return 1;
  const char *sp = s.s;
  while (sp < s.s + s.n && !isspace((unsigned char)*sp)) sp++;
  span m = {s.s, (size_t)(sp - s.s)}, ops = trim(sp, (size_t)(s.s + s.n - sp));
  if (starts(m, "ld.param.") || starts(m, "cvta.to.global.") || starts(m, "cvta.global.") ||
      starts(m, "mov."))
    return move(l, m, ops, text);
  if (l->marker == -2) return hand_back(l, m, ops, text);
  if (l->marker == -1 && !l->sequences) return refuse(l, text, "code before the first access marker");
  int rc = memory(l, m, ops, text);
  bool control = s.s[0] == '@' || starts(m, "bra") || s.s[s.n - 1] == ':';
  if (rc > 0 && l->sequences && !control) {
    if (ops.n && ops.s[0] == '%') {   /* its result is no longer known */
      const char *c = memchr(ops.s, ',', ops.n);
      span dst = trim(ops.s, c ? (size_t)(c - ops.s) : ops.n);
      bind(l, dst.s, dst.n, (val){.kind = V_NONE});
    }
    return 0;
  }
  if (rc > 0) {
    return refuse(l, text, s.s[0] == '@' || starts(m, "bra") || s.s[s.n - 1] == ':'
                               ? "control flow (only straight-line code is lifted)"
                               : "only memory accesses, fences and constant moves are lifted");
  }
  return rc;
}

/* The text of the entry's body, from its `{` to the line of its `}`. */
static const char *find_body(const char *ptx, const char *entry, int *line) {
  char key[256];
  snprintf(key, sizeof key, ".entry %s(", entry);
  const char *e = strstr(ptx, key);
  if (!e) return NULL;
  const char *b = strchr(e, '{');
  if (!b) return NULL;
  *line = 1;
  for (const char *p = ptx; p < b; p++) *line += *p == '\n';
  return b;
}

/* Gives lifted values their litmus register numbers. */
static void renumber(lifter *l, int first_free) {
  int *num = lc_xcalloc((size_t)l->ntmp + 1, sizeof *num);
  for (int t = 0; t < l->ntmp; t++) num[t] = -1;
  for (size_t k = 0; k < l->nregs; k++)
    if (l->out_set[k] && l->out_tmp[k] >= 0 && num[l->out_tmp[k]] < 0) num[l->out_tmp[k]] = (int)k;
  int next = first_free;
  for (int t = 0; t < l->ntmp; t++)
    if (num[t] < 0) num[t] = next++;
  for (size_t i = 0; i < l->out.n; i++) {
    lt_instr *in = &l->out.v[i].in;
    lt_operand *ops[] = {&in->dst, &in->a, &in->b};
    for (size_t j = 0; j < 3; j++)
      if (ops[j]->kind == LT_OPND_REG) ops[j]->reg = num[ops[j]->reg];
  }
  for (size_t k = 0; k < l->nregs; k++)
    if (l->out_tmp[k] >= 0) l->out_tmp[k] = num[l->out_tmp[k]];
  free(num);
}

static int lift(lc_arena *a, const char *ptx, const char *ptx_name, const char *entry,
                const char *const *locs, size_t nlocs, size_t nregs, int first_free, bool sequences,
                lift_thread *out, lc_diag *d) {
  lifter l = {.a = a, .d = d, .ptx_name = ptx_name, .entry = entry, .locs = locs,
              .nlocs = nlocs, .nregs = nregs, .marker = -1, .sequences = sequences};
  memset(out, 0, sizeof *out);
  const char *p = find_body(ptx, entry, &l.line);
  if (!p) {
    lc_error(d, (lc_loc){ptx_name, 1, 1}, "no kernel '%s' in the compiler's PTX", entry);
    return -1;
  }
  l.out_tmp = lc_arena_alloc(a, (nregs + 1) * sizeof *l.out_tmp);
  l.out_const = lc_arena_alloc(a, (nregs + 1) * sizeof *l.out_const);
  l.out_set = lc_xcalloc(nregs + 1, sizeof *l.out_set);
  int rc = 0;
  p = strchr(p, '\n');
  while (p && rc == 0) {
    const char *s = p + 1, *nl = strchr(s, '\n');
    l.line++;
    rc = one_line(&l, (span){s, nl ? (size_t)(nl - s) : strlen(s)});
    p = nl;
  }
  if (rc >= 0) {
    for (size_t k = 0; k < nregs; k++)
      if (!l.out_set[k]) l.out_tmp[k] = -1;
    renumber(&l, first_free);
    out->v = lc_arena_alloc(a, (l.out.n + 1) * sizeof *out->v);
    if (l.out.n) memcpy(out->v, l.out.v, l.out.n * sizeof *out->v);
    out->n = l.out.n;
    out->out_reg = l.out_tmp;
    out->out_const = l.out_const;
    out->nregs = nregs;
    rc = 0;
  }
  free(l.out_set);
  lc_vec_free(&l.regs);
  lc_vec_free(&l.out);
  return rc;
}

int lift_ptx(lc_arena *a, const char *ptx, const char *ptx_name, const char *entry,
             const char *const *locs, size_t nlocs, size_t nregs, int first_free,
             lift_thread *out, lc_diag *d) {
  return lift(a, ptx, ptx_name, entry, locs, nlocs, nregs, first_free, false, out, d);
}

int lift_ptx_sequences(lc_arena *a, const char *ptx, const char *ptx_name, const char *entry,
                       const char *const *locs, size_t nlocs, lift_thread *out, lc_diag *d) {
  return lift(a, ptx, ptx_name, entry, locs, nlocs, 0, 0, true, out, d);
}
