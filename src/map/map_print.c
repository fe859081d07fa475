/* map_print.c - print mapping tables and their rows; match a PTX sequence
 * against a row (docs/mappings.md).
 * SPDX-License-Identifier: MIT
 */
#include "map/map.h"

#include <assert.h>
#include <string.h>

static void scope_text(lc_buf *b, const map_instr *in) {
  if (in->scope_from_cpp) { lc_buf_puts(b, ".S"); return; }
  if (in->scope == LT_SCOPE_NONE) return;
  lc_buf_printf(b, ".%s", in->membar && in->scope == LT_SCOPE_GPU ? "gl" : lt_scope_name(in->scope));
}

static void instr_text(lc_buf *b, const map_instr *in) {
  static const char *const mn[] = {[LT_I_LD] = "ld", [LT_I_ST] = "st", [LT_I_ATOM] = "atom",
                                   [LT_I_FENCE] = "fence"};
  if (in->membar) {
    lc_buf_puts(b, "membar");
  } else {
    lc_buf_printf(b, "%s.%s", mn[in->kind], lt_sem_name(in->sem));
  }
  scope_text(b, in);
}

void map_print_alt(lc_buf *out, const map_alt *a) {
  for (size_t i = 0; i < a->nins; i++) {
    if (i) lc_buf_puts(out, "; ");
    instr_text(out, &a->ins[i]);
  }
}

void map_print(lc_buf *out, const map_table *t) {
  lc_buf_printf(out, "# %s for sm_%d\nname %s\n", t->file, t->sm, t->name);
  for (int s = 0; s < MAP_NSCOPES; s++)
    if (t->scope[s] != LT_SCOPE_NONE)
      lc_buf_printf(out, "scope %s -> %s\n", map_cscope_name((map_cscope)s), lt_scope_name(t->scope[s]));
  for (int k = 0; k < MAP_NKINDS; k++)
    for (int o = 0; o < MAP_NORDERS; o++) {
      const map_row *r = &t->rows[k][o];
      for (size_t i = 0; i < r->nalts; i++) {
        if (i == 0) lc_buf_printf(out, "%-6s %-8s -> ", map_kind_name(r->kind), map_order_name(r->order));
        else lc_buf_puts(out, "                | ");
        map_print_alt(out, &r->alts[i]);
        lc_buf_printf(out, "   # #%d\n", r->alts[i].id);
      }
    }
}

static bool instr_matches(const map_instr *m, lt_scope s, const lt_instr *in) {
  if (m->kind != in->kind) return false;
  if (m->membar) return in->kind == LT_I_FENCE && in->sem == LT_SEM_SC && in->scope == (m->scope_from_cpp ? s : m->scope);
  lt_scope want = m->scope_from_cpp ? s : m->scope;
  return in->sem == m->sem && in->scope == want;
}

bool map_alt_matches(const map_alt *a, lt_scope s, const lt_instr *const *ins, size_t n) {
  assert(a);
  if (a->nins != n) return false;
  for (size_t i = 0; i < n; i++)
    if (!instr_matches(&a->ins[i], s, ins[i])) return false;
  return true;
}
