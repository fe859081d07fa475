/* gen_mutant.c - weakened twins of a litmus test (after MC Mutants): one
 * fence dropped or weakened, one access's .acquire/.release/.acq_rel made
 * .relaxed, or one scope narrowed.  A runner that never shows a test's
 * forbidden outcome is worth as much as its power to show the mutants'
 * (now allowed) one: the mutation score.
 * SPDX-License-Identifier: MIT
 *
 * Mutants are made on the text, one instruction's cell at a time, so they
 * print as the original does (layout, comments) except for that cell; the
 * caller parses them and keeps those whose weak outcome the model allows.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

/* The instruction's text in src: from its position to the end of its cell. */
static bool instr_span(const lc_source *src, lc_loc at, size_t *from, size_t *to) {
  size_t pos = 0;
  for (int line = 1; line < at.line && pos < src->len; pos++)
    if (src->text[pos] == '\n') line++;
  pos += (size_t)(at.col - 1);
  if (pos >= src->len) return false;
  size_t end = pos;
  while (end < src->len && !strchr("|;\n", src->text[end])) end++;
  while (end > pos && src->text[end - 1] == ' ') end--;
  *from = pos;
  *to = end;
  return end > pos;
}

static void add(gen_mutants *out, const lt_test *t, const lc_source *src, size_t from, size_t to,
                const char *repl, const char *what, const lt_instr *in, int thread) {
  size_t k = out->n + 1;
  lc_buf text, name, desc;
  lc_buf_init(&text);
  lc_buf_init(&name);
  lc_buf_init(&desc);
  lc_buf_printf(&name, "%s+mut%zu", t->name, k);
  /* the name first: it is on an earlier line than any instruction */
  size_t npos = 0;
  for (int line = 1; line < t->name_at.line; npos++)
    if (src->text[npos] == '\n') line++;
  npos += (size_t)(t->name_at.col - 1);
  lc_buf_putn(&text, src->text, npos);
  lc_buf_puts(&text, name.s);
  size_t after_name = npos + strlen(t->name);
  lc_buf_putn(&text, src->text + after_name, from - after_name);
  lc_buf_puts(&text, repl);
  for (size_t pad = strlen(repl); pad < to - from; pad++) lc_buf_putc(&text, ' ');
  lc_buf_putn(&text, src->text + to, src->len - to);
  lc_buf b;
  lc_buf_init(&b);
  lt_print_instr(&b, in);
  lc_buf_printf(&desc, "P%d line %d: %s %s", thread, in->at.line, b.s, what);
  lc_buf_fini(&b);
  gen_mutant m = {lc_buf_take(&name), lc_buf_take(&desc), lc_buf_take(&text)};
  lc_vec_push(out, m);
  lc_buf_fini(&text);
  lc_buf_fini(&name);
  lc_buf_fini(&desc);
}

/* The cell's text with the first `from` in its opcode replaced by `to`. */
static char *replace_in_opcode(const char *cell, size_t n, const char *from, const char *to) {
  size_t op = strcspn(cell, " \t");
  if (op > n) op = n;
  const char *hit = NULL;
  for (const char *s = cell; s + strlen(from) <= cell + op && !hit; s++)
    if (strncmp(s, from, strlen(from)) == 0 && (s[strlen(from)] == '.' || s + strlen(from) == cell + op)) hit = s;
  if (!hit) return NULL;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_putn(&b, cell, (size_t)(hit - cell));
  lc_buf_puts(&b, to);
  lc_buf_putn(&b, hit + strlen(from), n - (size_t)(hit + strlen(from) - cell));
  char *r = lc_buf_take(&b);
  lc_buf_fini(&b);
  return r;
}

static void try_replace(gen_mutants *out, const lt_test *t, const lc_source *src, size_t from, size_t to,
                        const char *a, const char *b, const char *what, const lt_instr *in, int thread) {
  char *cell = replace_in_opcode(src->text + from, to - from, a, b);
  if (cell) add(out, t, src, from, to, cell, what, in, thread);
  free(cell);
}

static void mutate(gen_mutants *out, const lt_test *t, const lc_source *src, const lt_instr *in, int thread) {
  size_t from, to;
  if (!instr_span(src, in->at, &from, &to)) return;
  bool memory = in->kind == LT_I_LD || in->kind == LT_I_ST || in->kind == LT_I_ATOM || in->kind == LT_I_RED;
  if (in->kind == LT_I_FENCE) {
    add(out, t, src, from, to, "", "dropped", in, thread);
    if (!in->membar && in->sem == LT_SEM_SC) try_replace(out, t, src, from, to, ".sc", ".acq_rel", "made acq_rel", in, thread);
  }
  if (memory) {
    try_replace(out, t, src, from, to, ".acquire", ".relaxed", "made relaxed", in, thread);
    try_replace(out, t, src, from, to, ".release", ".relaxed", "made relaxed", in, thread);
    try_replace(out, t, src, from, to, ".acq_rel", ".relaxed", "made relaxed", in, thread);
  }
  if (memory || in->kind == LT_I_FENCE) {
    if (in->membar) {
      try_replace(out, t, src, from, to, ".sys", ".gl", "scope narrowed", in, thread);
      try_replace(out, t, src, from, to, ".gl", ".cta", "scope narrowed", in, thread);
    } else {
      try_replace(out, t, src, from, to, ".sys", ".gpu", "scope narrowed", in, thread);
      try_replace(out, t, src, from, to, ".gpu", ".cta", "scope narrowed", in, thread);
    }
  }
}

void gen_mutants_of(const lt_test *t, const lc_source *src, gen_mutants *out) {
  assert(t && src && src->text && out);
  for (size_t k = 0; k < t->nthreads; k++)
    for (size_t c = 0; c < t->threads[k].ncells; c++)
      if (t->threads[k].cells[c].instr) mutate(out, t, src, t->threads[k].cells[c].instr, t->threads[k].id);
}

void gen_mutants_free(gen_mutants *m) {
  for (size_t i = 0; i < m->n; i++) {
    free(m->v[i].name);
    free(m->v[i].what);
    free(m->v[i].text);
  }
  lc_vec_free(m);
}
