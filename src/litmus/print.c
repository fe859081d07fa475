/* print.c - print a test in normal form (docs/litmus-format.md, "Normal form").
 * SPDX-License-Identifier: MIT
 *
 * The normal form is what lt_parse reads back into an equal AST: one init
 * entry per line, the code as a table padded to the widest cell of each
 * column, `==` for equality, `~exists` for every spelling of "not exists",
 * and `ld rD, v` for an untyped move (the corpus spelling).  Parentheses
 * are printed where the source had them, and also where the structure
 * needs them, so a test built by hand prints correctly too.
 */
#include "litmus/ast.h"
#include "litmus/cpp_ast.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void operand(lc_buf *b, const lt_operand *o) {
  switch (o->kind) {
  case LT_OPND_IMM: lc_buf_printf(b, "%" PRId64, o->imm); break;
  case LT_OPND_REG: lc_buf_printf(b, "r%d", o->reg); break;
  case LT_OPND_LOC: lc_buf_printf(b, o->bracketed ? "[%s]" : "%s", o->loc); break;
  case LT_OPND_REGADDR: lc_buf_printf(b, "[r%d]", o->reg); break;
  default: lc_buf_puts(b, "?"); break;
  }
}

/* Prints the operands that are present, separated by ", ". */
static void operands(lc_buf *b, const lt_operand *const *ops, size_t n) {
  const char *sep = " ";
  for (size_t i = 0; i < n; i++) {
    if (ops[i]->kind == LT_OPND_NONE) continue;
    lc_buf_puts(b, sep);
    operand(b, ops[i]);
    sep = ", ";
  }
}

static void suffix(lc_buf *b, const char *s) {
  if (*s) lc_buf_printf(b, ".%s", s);
}

static const char *space_name(const lt_instr *in) {
  if (in->space != LT_SPACE_SHARED) return lt_space_name(in->space);
  return in->shared == LT_SHARED_CTA ? "shared::cta" : in->shared == LT_SHARED_CLUSTER ? "shared::cluster" : "shared";
}

static const char *memory_mnemonic(const lt_instr *in) {
  bool surface = in->proxy == LT_PROXY_SURFACE;
  switch (in->kind) {
  case LT_I_LD:
    return in->proxy == LT_PROXY_TEXTURE ? "tld" : surface ? "suld"
         : in->proxy == LT_PROXY_CONSTANT ? "cold" : "ld";
  case LT_I_ST: return surface ? "sust" : "st";
  case LT_I_ATOM: return surface ? "suatom" : "atom";
  default: return surface ? "sured" : "red";
  }
}

static void memory_op(lc_buf *b, const lt_instr *in) {
  lc_buf_puts(b, memory_mnemonic(in));
  if (in->sem == LT_SEM_MMIO)
    lc_buf_puts(b, ".mmio.relaxed");
  else
    suffix(b, lt_sem_name(in->sem));
  suffix(b, lt_scope_name(in->scope));
  suffix(b, space_name(in));
  suffix(b, lt_cache_name(in->cache));
  suffix(b, lt_rmw_name(in->rmw));
  suffix(b, lt_type_name(in->type));
  const lt_operand *ops[] = {&in->dst, &in->addr, &in->a, &in->b};
  operands(b, ops, 4);
}

static void fence(lc_buf *b, const lt_instr *in) {
  static const char *const levels[] = {"", "cta", "cluster", "gl", "sys"};
  if (in->mbar_init_fence)
    lc_buf_puts(b, "fence.mbarrier_init.release.cluster");
  else if (in->membar)
    lc_buf_printf(b, "membar.%s", levels[in->scope <= LT_SCOPE_SYS ? in->scope : 0]);
  else if (in->fence_no_sem)
    lc_buf_printf(b, "fence.%s", lt_scope_name(in->scope));
  else {
    lc_buf_puts(b, "fence");
    suffix(b, lt_sem_name(in->sem));
    suffix(b, lt_scope_name(in->scope));
  }
}

/* mbarrier.*, cp.async.bulk.* and mapa: the mnemonic as written (the
 * parser keeps every qualifier it accepts in the AST, so printing it back
 * and parsing again gives the same instruction), then the operands. */
static void hopper(lc_buf *b, const lt_instr *in) {
  lc_buf_puts(b, in->mnemonic ? in->mnemonic : "?");
  if (in->kind == LT_I_BULK) {
    const lt_operand *ops[] = {&in->addr, &in->b, &in->a, &in->c};
    operands(b, ops, 4);
    return;
  }
  if (in->kind == LT_I_MAPA) {
    lc_buf_printf(b, " r%d, ", in->dst.reg);
    if (in->addr.kind == LT_OPND_REGADDR)
      lc_buf_printf(b, "r%d", in->addr.reg);
    else
      operand(b, &in->addr);
    lc_buf_puts(b, ", ");
    operand(b, &in->a);
    return;
  }
  const lt_operand *ops[] = {&in->dst, &in->addr, &in->a, &in->b};
  if (in->sink) {
    lc_buf_puts(b, " _");
    const char *sep = ", ";
    for (size_t i = 1; i < 4; i++)
      if (ops[i]->kind != LT_OPND_NONE) {
        lc_buf_puts(b, sep);
        operand(b, ops[i]);
      }
    return;
  }
  operands(b, ops, 4);
}

void lt_print_instr(lc_buf *b, const lt_instr *in) {
  assert(b && in);
  const lt_operand *ops[] = {&in->dst, &in->a, &in->b, &in->c};
  switch (in->kind) {
  case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED: memory_op(b, in); break;
  case LT_I_FENCE: fence(b, in); break;
  case LT_I_FENCE_PROXY:
    lc_buf_printf(b, "fence.proxy.%s", lt_proxy_name(in->proxy));
    suffix(b, space_name(in));
    break;
  case LT_I_FENCE_ALIAS: lc_buf_puts(b, "fence.proxy.alias"); break;
  case LT_I_MBAR: case LT_I_BULK: case LT_I_MAPA: hopper(b, in); break;
  case LT_I_BAR:
    if (in->bar_grid) {
      lc_buf_puts(b, "grid.sync");
      break;
    }
    if (in->bar_cluster) {
      lc_buf_printf(b, "barrier.cluster.%s", in->bar_wait ? "wait" : "arrive");
      if (in->bar_arrive && in->sem == LT_SEM_RELAXED) lc_buf_puts(b, ".relaxed");
      if (in->aligned) lc_buf_puts(b, ".aligned");
      break;
    }
    lc_buf_printf(b, "bar%s%s.%s%s", in->aligned ? "rier" : "", in->bar_cta_suffix ? ".cta" : "",
                  in->bar_arrive ? "arrive" : "sync", in->aligned ? ".aligned" : "");
    operands(b, ops + 1, 3);
    break;
  case LT_I_ALU:
    if (in->alu == LT_ALU_MOV && in->type == LT_TYPE_NONE)
      lc_buf_puts(b, "ld");
    else
      lc_buf_puts(b, lt_alu_name(in->alu));
    suffix(b, lt_type_name(in->type));
    operands(b, ops, 3);
    break;
  case LT_I_BRANCH:
    lc_buf_puts(b, lt_branch_name(in->cmp));
    operands(b, ops + 1, 2);
    lc_buf_printf(b, ", %s", in->label);
    break;
  case LT_I_GOTO: lc_buf_printf(b, "goto %s", in->label); break;
  }
}

/* ---- propositions ---------------------------------------------------------- */

static bool is_binary(const lt_prop *p) { return p->kind == LT_PROP_AND || p->kind == LT_PROP_OR; }

/* Prints p, adding parentheses when the source had them or when a child
 * written without them would otherwise bind differently. */
static void prop(lc_buf *b, const lt_prop *p, bool need_parens) {
  bool parens = p->parens || need_parens;
  if (parens) lc_buf_putc(b, '(');
  switch (p->kind) {
  case LT_PROP_TRUE: lc_buf_puts(b, "true"); break;
  case LT_PROP_FALSE: lc_buf_puts(b, "false"); break;
  case LT_PROP_CMP:
    lt_print_term(b, &p->lhs);
    lc_buf_printf(b, " %s ", lt_cmp_name(p->cmp));
    lt_print_term(b, &p->rhs);
    break;
  case LT_PROP_NOT:
    lc_buf_putc(b, '~');
    prop(b, p->l, is_binary(p->l));
    break;
  case LT_PROP_AND:
    prop(b, p->l, p->l->kind == LT_PROP_OR);
    lc_buf_puts(b, " /\\ ");
    prop(b, p->r, is_binary(p->r));
    break;
  case LT_PROP_OR:
    prop(b, p->l, false);
    lc_buf_puts(b, " \\/ ");
    prop(b, p->r, p->r->kind == LT_PROP_OR);
    break;
  }
  if (parens) lc_buf_putc(b, ')');
}

void lt_print_prop(lc_buf *b, const lt_prop *p) { prop(b, p, false); }

/* ---- the test ------------------------------------------------------------------ */

static void init_entry(lc_buf *b, const lt_init *e) {
  if (e->kind == LT_INIT_ALIAS) {
    lc_buf_printf(b, "%s @ %s aliases %s;\n", e->loc, lt_proxy_name(e->proxy), e->target);
    return;
  }
  if (e->kind == LT_INIT_REG)
    lc_buf_printf(b, "P%d:r%d=", e->thread, e->reg);
  else
    lc_buf_printf(b, "%s=", e->loc);
  if (e->value_loc)
    lc_buf_printf(b, "%s%s;\n", e->value_amp ? "&" : "", e->value_loc);
  else
    lc_buf_printf(b, "%" PRId64 ";\n", e->value);
}

static char *take(lc_buf *b) {
  char *s = lc_buf_take(b);
  lc_buf_fini(b);
  return s;
}

static char *thread_head(const lt_thread *th) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "P%d@cta %d,", th->id, th->cta);
  if (th->cluster >= 0) lc_buf_printf(&b, "cluster %d,", th->cluster);
  lc_buf_printf(&b, "gpu %d", th->gpu);
  return take(&b);
}

static char *cell_text(const lt_cell *c) {
  lc_buf b;
  lc_buf_init(&b);
  if (c->label) lc_buf_printf(&b, "%s:", c->label);
  if (c->label && c->instr) lc_buf_putc(&b, ' ');
  if (c->instr) lt_print_instr(&b, c->instr);
  return take(&b);
}

/* One line of the table: " a | b ;" with every cell padded. */
static void table_line(lc_buf *b, char **cells, const size_t *width, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t start = b->n;
    lc_buf_printf(b, "%s %s", i ? "|" : "", cells[i]);
    while (b->n - start < width[i] + 1 + (i > 0)) lc_buf_putc(b, ' ');
    lc_buf_putc(b, ' ');
  }
  lc_buf_puts(b, ";\n");
}

/* The code as text: (nrows + 1) x nthreads strings, row 0 the header. */
static void code_table(lc_buf *b, const lt_test *t) {
  size_t n = t->nthreads, rows = t->nrows + 1;
  char **text = lc_xcalloc(rows * n, sizeof *text);
  size_t *width = lc_xcalloc(n, sizeof *width);
  for (size_t j = 0; j < n; j++) {
    text[j] = thread_head(&t->threads[j]);
    for (size_t i = 1; i < rows; i++)
      text[i * n + j] = i - 1 < t->threads[j].ncells ? cell_text(&t->threads[j].cells[i - 1])
                                                    : lc_xstrdup("");
    for (size_t i = 0; i < rows; i++) {
      size_t w = strlen(text[i * n + j]);
      if (w > width[j]) width[j] = w;
    }
  }
  for (size_t i = 0; i < rows; i++) table_line(b, text + i * n, width, n);
  for (size_t k = 0; k < rows * n; k++) free(text[k]);
  free(text);
  free(width);
}

static void tail(lc_buf *b, const lt_test *t) {
  static const char *const quant[] = {"exists", "~exists", "forall"};
  for (size_t i = 0; i < t->nmap; i++)
    lc_buf_printf(b, "%s%s: %s%s", i ? ", " : "", t->map[i].loc, lt_space_name(t->map[i].space),
                  i + 1 == t->nmap ? "\n" : "");
  if (t->has_locations) {
    lc_buf_puts(b, "locations [");
    for (size_t i = 0; i < t->nlocations; i++) {
      lc_buf_puts(b, i ? " " : "");
      lt_print_term(b, &t->locations[i]);
      lc_buf_putc(b, ';');
    }
    lc_buf_puts(b, "]\n");
  }
  if (t->filter) {
    lc_buf_puts(b, "filter ");
    lt_print_prop(b, t->filter);
    lc_buf_putc(b, '\n');
  }
  lc_buf_printf(b, "%s ", quant[t->quant <= LT_COND_FORALL ? t->quant : 0]);
  if (t->cond) lt_print_prop(b, t->cond);
  lc_buf_putc(b, '\n');
}

void lt_print_test_prop(lc_buf *b, const lt_test *t, const lt_prop *p) {
  assert(b && t && p);
  if (t->cpp || t->narray_heads)   /* x[0] as the source names it */
    lt_cpp_print_prop(b, t, p);
  else
    lt_print_prop(b, p);
}

void lt_print(lc_buf *b, const lt_test *t) {
  assert(b && t);
  if (t->cpp) {
    lt_cpp_print(b, t);
    return;
  }
  lc_buf_printf(b, "%s %s\n", t->arch ? t->arch : "PTX", t->name ? t->name : "");
  if (t->doc && *t->doc) lc_buf_printf(b, "%s\n", t->doc);
  lc_buf_puts(b, "{\n");
  for (size_t i = 0; i < t->ninits; i++) init_entry(b, &t->inits[i]);
  lc_buf_puts(b, "}\n");
  code_table(b, t);
  tail(b, t);
}
