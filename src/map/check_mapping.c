/* check_mapping.c - is every PTX outcome of a compiled C++ test one the
 * C++ model allows? (check_mapping.h; docs/mappings.md)
 * SPDX-License-Identifier: MIT
 *
 * The C++ test is checked once under the C++ model; a race there is
 * undefined behaviour and ends the check (any compilation is correct).
 * Otherwise every combination of alternatives (each access its own
 * choice, as a binary may mix them) is compiled and checked under the PTX
 * model, and each PTX outcome is looked up among the C++ outcomes: both
 * tests share their condition and `locations`, so their states list the
 * same observables in the same order.
 *
 * Pruning: when the combinations are more than max_combinations, the
 * check takes the uniform ones (every access its k-th alternative, or its
 * last when it has fewer) and every single deviation from the first
 * alternative, which exercises every row and every pair of a row's
 * alternative with the recommended one elsewhere.
 */
#include "map/check_mapping.h"

#include <stdlib.h>
#include <string.h>

const char *map_verdict_name(map_verdict v) {
  static const char *const names[] = {"sound", "violation", "undefined-behaviour", "unknown", "error"};
  return v <= MAP_V_ERROR ? names[v] : "?";
}

char *map_state_text(const lc_result *r, size_t i) {
  lc_buf b;
  lc_buf_init(&b);
  const lx_val *s = lc_result_state(r, i);
  for (size_t k = 0; k < r->nshown; k++) {
    lc_buf_printf(&b, "%s%s=", k ? " " : "", r->prog->obs[k].label);
    lx_print_obs(&b, r->prog, k, s[k]);
    lc_buf_putc(&b, ';');
  }
  char *text = lc_buf_take(&b);
  lc_buf_fini(&b);
  return text;
}

lc_result *map_check_cpp(const lt_test *t, const map_check_options *o, lx_program **prog,
                         const char **racy, lc_diag *d) {
  lc_check_options co = o->check;
  co.races = true;
  *racy = NULL;
  lc_result *r = lc_check_test(t, o->cpp_model, &co, prog, d);
  if (!r) return NULL;
  for (size_t i = 0; i < r->nflags; i++)
    if (r->flags[i].raised) { *racy = r->flags[i].name; break; }
  return r;
}

static bool same_state(const lx_val *a, const lx_val *b, size_t n) {
  return memcmp(a, b, n * sizeof *a) == 0;
}

static bool allowed(const lc_result *cpp, const lx_val *s) {
  for (size_t i = 0; i < cpp->nstates; i++)
    if (same_state(lc_result_state(cpp, i), s, cpp->nshown)) return true;
  return false;
}

int map_check_ptx(const lt_test *ptx, const lc_result *cpp, const map_check_options *o,
                  char **extra, char **message, lc_diag *d) {
  lc_check_options co = o->check;
  co.races = false;
  lx_program *prog = NULL;
  *extra = *message = NULL;
  lc_result *r = lc_check_test(ptx, o->ptx_model, &co, &prog, d);
  if (!r) { lx_program_free(prog); return -1; }
  int rc = 0;
  if (r->status != LC_RESULT_OK) {
    *message = lc_xstrdup(r->message ? r->message : "the engine gave no answer");
    rc = 1;
  } else if (r->nshown != cpp->nshown) {
    *message = lc_xstrdup("the PTX test shows other observables than the C++ test");
    rc = 1;
  } else {
    for (size_t i = 0; i < r->nstates && !*extra; i++)
      if (!allowed(cpp, lc_result_state(r, i))) *extra = map_state_text(r, i);
  }
  lc_result_free(r);
  lx_program_free(prog);
  return rc;
}

/* ---- combinations ------------------------------------------------------------- */

static size_t nalts(const map_site *s) { return s->row ? s->row->nalts : 1; }

static size_t count_combinations(const map_plan *p, size_t cap) {
  size_t n = 1;
  for (size_t i = 0; i < p->n; i++) {
    n *= nalts(&p->v[i]);
    if (n > cap) return cap + 1;
  }
  return n;
}

/* Next combination in full enumeration (odometer); false after the last. */
static bool next_full(const map_plan *p, size_t *c) {
  for (size_t i = p->n; i-- > 0;) {
    if (++c[i] < nalts(&p->v[i])) return true;
    c[i] = 0;
  }
  return false;
}

typedef struct combos {
  size_t **v;
  size_t n, cap;
} combos;

static void add_combo(combos *cs, const size_t *c, size_t n) {
  for (size_t i = 0; i < cs->n; i++)
    if (memcmp(cs->v[i], c, n * sizeof *c) == 0) return;
  size_t *copy = lc_xcalloc(n + 1, sizeof *copy);
  memcpy(copy, c, n * sizeof *c);
  lc_vec_push(cs, copy);
}

static void pruned_combos(const map_plan *p, combos *cs) {
  size_t n = p->n, most = 1;
  size_t *c = lc_xcalloc(n + 1, sizeof *c);
  for (size_t i = 0; i < n; i++)
    if (nalts(&p->v[i]) > most) most = nalts(&p->v[i]);
  for (size_t k = 0; k < most; k++) {
    for (size_t i = 0; i < n; i++) c[i] = k < nalts(&p->v[i]) ? k : nalts(&p->v[i]) - 1;
    add_combo(cs, c, n);
  }
  for (size_t i = 0; i < n; i++)
    for (size_t k = 1; k < nalts(&p->v[i]); k++) {
      memset(c, 0, n * sizeof *c);
      c[i] = k;
      add_combo(cs, c, n);
    }
  free(c);
}

static void all_combos(const map_plan *p, combos *cs) {
  size_t *c = lc_xcalloc(p->n + 1, sizeof *c);
  do {
    size_t *copy = lc_xcalloc(p->n + 1, sizeof *copy);
    memcpy(copy, c, p->n * sizeof *c);
    lc_vec_push(cs, copy);
  } while (next_full(p, c));
  free(c);
}

static void note_use(map_check_result *r, const map_plan *p, const size_t *c) {
  for (size_t i = 0; i < p->n; i++) {
    const map_site *s = &p->v[i];
    if (!s->row) continue;
    int id = s->row->alts[c[i]].id;
    if (id <= MAP_MAX_ALT) r->used[s->kind][s->order][id]++;
  }
}

/* Checks one combination; 1 when it ends the test (violation, unknown). */
static int check_combo(const lt_test *ct, const lc_result *cpp, const map_check_options *o,
                       const size_t *c, map_check_result *r, lc_diag *d) {
  lt_test *ptx = map_compile(ct, &r->plan, c);
  char *extra, *message;
  int rc = map_check_ptx(ptx, cpp, o, &extra, &message, d);
  r->checked++;
  note_use(r, &r->plan, c);
  if (rc < 0) {
    map_compiled_free(ptx);
    return -1;
  }
  if (rc > 0 || extra) {
    r->verdict = rc > 0 ? MAP_V_UNKNOWN : MAP_V_VIOLATION;
    r->message = message;
    r->extra = extra;
    r->ptx = ptx;
    r->choice = lc_xcalloc(r->plan.n + 1, sizeof *r->choice);
    memcpy(r->choice, c, r->plan.n * sizeof *c);
    return 1;
  }
  map_compiled_free(ptx);
  return 0;
}

static int check_combos(const lt_test *ct, const lc_result *cpp, const map_check_options *o,
                        map_check_result *r, lc_diag *d) {
  size_t cap = o->max_combinations ? o->max_combinations : 256;
  size_t n = count_combinations(&r->plan, (size_t)-1 / 2);
  combos cs = {0};
  r->combinations = n;
  if (n <= cap) all_combos(&r->plan, &cs);
  else pruned_combos(&r->plan, &cs);
  int rc = 0;
  for (size_t i = 0; i < cs.n && rc == 0; i++) rc = check_combo(ct, cpp, o, cs.v[i], r, d);
  for (size_t i = 0; i < cs.n; i++) free(cs.v[i]);
  free(cs.v);
  return rc < 0 ? -1 : 0;
}

int map_check_test(const lt_test *t, const map_table *m, const map_check_options *o,
                   map_check_result *r, lc_diag *d) {
  memset(r, 0, sizeof *r);
  r->used = lc_xcalloc(MAP_NKINDS, sizeof *r->used);
  r->arena = lc_arena_new();
  const lt_test *ct = map_cpp_cells(t, r->arena, d);
  if (!ct || map_plan_make(ct, m, &r->plan, d)) return -1;
  lx_program *prog = NULL;
  const char *racy;
  lc_result *cpp = map_check_cpp(t, o, &prog, &racy, d);
  int rc = -1;
  if (!cpp) goto out;
  rc = 0;
  r->cpp_states = cpp->nstates;
  r->combinations = count_combinations(&r->plan, (size_t)-1 / 2);
  if (cpp->status != LC_RESULT_OK) {
    r->verdict = MAP_V_UNKNOWN;
    r->message = lc_xstrdup(cpp->message ? cpp->message : "the C++ model gave no answer");
  } else if (racy) {
    r->verdict = MAP_V_RACY;
    r->race = lc_xstrdup(racy);
  } else {
    r->verdict = MAP_V_SOUND;
    rc = check_combos(ct, cpp, o, r, d);
  }
out:
  lc_result_free(cpp);
  lx_program_free(prog);
  return rc;
}

void map_check_result_fini(map_check_result *r) {
  map_plan_fini(&r->plan);
  free(r->choice);
  map_compiled_free(r->ptx);
  free(r->extra);
  free(r->race);
  free(r->message);
  free(r->used);
  lc_arena_free(r->arena);
  memset(r, 0, sizeof *r);
}
