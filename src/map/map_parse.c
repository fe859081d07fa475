/* map_parse.c - read a mapping table and validate it for one target
 * (docs/mappings.md).
 * SPDX-License-Identifier: MIT
 *
 * The format is line based (a row ends at the end of its line unless the
 * next line starts with `|`), which the litmus lexer does not know about,
 * so a small scanner of its own reads it.  Every row is checked against
 * the target as it is read; an alternative or scope row whose guard fails
 * is dropped, one that passes must be valid PTX for the target.
 */
#include "map/map.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  T_EOF, T_NL, T_WORD, T_INT, T_ARROW, T_BAR, T_SEMI, T_LBRACK, T_RBRACK,
  T_GE, T_GT, T_LE, T_LT, T_EQ
} tok_kind;

typedef struct tok {
  tok_kind kind;
  const char *s;
  size_t n;
  int64_t v;
  lc_loc at;
} tok;

typedef struct parser {
  const lc_source *src;
  lc_diag *d;
  const char *p, *end, *bol;
  int line;
  tok t;
  map_table *m;
  int next_id[MAP_NKINDS][MAP_NORDERS];
  bool scope_seen[MAP_NSCOPES];
} parser;

/* ---- scanner ------------------------------------------------------------- */

static void skip_blanks(parser *ps) {
  while (ps->p < ps->end) {
    if (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r') ps->p++;
    else if (*ps->p == '#') while (ps->p < ps->end && *ps->p != '\n') ps->p++;
    else break;
  }
}

static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-'; }

static int next(parser *ps) {
  skip_blanks(ps);
  tok *t = &ps->t;
  t->at = (lc_loc){ps->src->name, ps->line, (int)(ps->p - ps->bol) + 1};
  t->s = ps->p;
  t->n = 1;
  if (ps->p >= ps->end) { t->kind = T_EOF; t->n = 0; return 0; }
  char c = *ps->p;
  static const struct { const char *s; tok_kind k; } punct[] = {
    {"->", T_ARROW}, {">=", T_GE}, {"<=", T_LE}, {"==", T_EQ}, {">", T_GT}, {"<", T_LT},
    {"|", T_BAR}, {";", T_SEMI}, {"[", T_LBRACK}, {"]", T_RBRACK}, {"\n", T_NL}};
  for (size_t i = 0; i < LC_ARRAY_LEN(punct); i++) {
    size_t n = strlen(punct[i].s);
    if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, punct[i].s, n) == 0) {
      t->kind = punct[i].k;
      t->n = n;
      ps->p += n;
      if (c == '\n') { ps->line++; ps->bol = ps->p; }
      return 0;
    }
  }
  if (!word_char(c)) {
    unsigned char u = (unsigned char)c;   /* as the cat reader says it: a NUL would cut '%c' short */
    if (u >= 0x21 && u < 0x7f) lc_error(ps->d, t->at, "unexpected character '%c'", c);
    else lc_error(ps->d, t->at, "unexpected byte 0x%02x", u);
    return -1;
  }
  while (ps->p < ps->end && word_char(*ps->p) && !(ps->p[0] == '-' && ps->p + 1 < ps->end && ps->p[1] == '>'))
    ps->p++;
  t->n = (size_t)(ps->p - t->s);
  t->kind = isdigit((unsigned char)c) && lc_parse_int64(t->s, t->n, &t->v) == 0 ? T_INT : T_WORD;
  return 0;
}

static bool tok_is(const tok *t, const char *w) {
  return t->kind == T_WORD && strlen(w) == t->n && memcmp(t->s, w, t->n) == 0;
}

static int expect(parser *ps, tok_kind k, const char *what) {
  if (ps->t.kind == k) return next(ps);
  if (ps->t.kind == T_NL || ps->t.kind == T_EOF)
    lc_error(ps->d, ps->t.at, "expected %s, found end of %s", what, ps->t.kind == T_NL ? "line" : "file");
  else
    lc_error(ps->d, ps->t.at, "expected %s, found '%.*s'", what, (int)ps->t.n, ps->t.s);
  return -1;
}

/* ---- names ------------------------------------------------------------------ */

static const char *const kind_names[MAP_NKINDS] = {"load", "store", "rmw", "fence"};
static const char *const order_names[MAP_NORDERS] = {"na", "relaxed", "acquire", "release",
                                                     "acq_rel", "seq_cst", "volatile"};
static const char *const cscope_names[MAP_NSCOPES] = {"thread", "block", "cluster", "device",
                                                      "system"};

const char *map_kind_name(map_kind k) { return k < MAP_NKINDS ? kind_names[k] : "?"; }
const char *map_order_name(map_order o) { return o < MAP_NORDERS ? order_names[o] : "?"; }
const char *map_cscope_name(map_cscope s) { return s < MAP_NSCOPES ? cscope_names[s] : "?"; }

/* A row's alternative by name, for messages: `load acquire #1`. */
void map_print_alt_name(lc_buf *out, const map_row *r, const map_alt *a) {
  lc_buf_printf(out, "%s %s #%d", map_kind_name(r->kind), map_order_name(r->order), a->id);
}

static int lookup(const char *const *names, int n, const char *s, size_t len) {
  for (int i = 0; i < n; i++)
    if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) return i;
  return -1;
}

static lt_scope ptx_scope(const char *s, size_t n) {
  static const char *const names[] = {"", "cta", "cluster", "gpu", "sys"};
  int i = lookup(names, 5, s, n);
  return i > 0 ? (lt_scope)i : LT_SCOPE_NONE;
}

/* ---- the target --------------------------------------------------------------- */

const char *map_target_error(lt_instr_kind kind, lt_sem sem, lt_scope scope, bool membar,
                             int sm) {
  (void)kind;
  if (scope == LT_SCOPE_CLUSTER && sm < 90) return "'.cluster' scope needs sm_90 or higher";
  if (!membar && sem != LT_SEM_WEAK && sem != LT_SEM_VOLATILE && sem != LT_SEM_NONE && sm < 70)
    return "memory orders and scopes on ld, st, atom and fence need sm_70 or higher";
  return NULL;
}

/* guard -> '[' 'sm' cmp INT ']' ; sets *holds. */
static int guard(parser *ps, bool *holds) {
  *holds = true;
  if (ps->t.kind != T_LBRACK) return 0;
  if (next(ps) || !tok_is(&ps->t, "sm")) {
    if (ps->d->nerrors == 0) lc_error(ps->d, ps->t.at, "expected 'sm' in a guard");
    return -1;
  }
  if (next(ps)) return -1;
  tok_kind op = ps->t.kind;
  if (op < T_GE || op > T_EQ) {
    lc_error(ps->d, ps->t.at, "expected one of >= > <= < == after 'sm'");
    return -1;
  }
  if (next(ps)) return -1;
  int64_t v = ps->t.v, sm = ps->m->sm;
  if (expect(ps, T_INT, "a number")) return -1;
  *holds = op == T_GE ? sm >= v : op == T_GT ? sm > v : op == T_LE ? sm <= v
         : op == T_LT ? sm < v : sm == v;
  return expect(ps, T_RBRACK, "']'");
}

/* ---- instructions ------------------------------------------------------------------ */

typedef struct part { const char *s; size_t n; } part;

static size_t split_dots(const tok *t, part *parts, size_t max) {
  size_t n = 0;
  const char *s = t->s, *end = t->s + t->n;
  while (s <= end && n < max) {
    const char *dot = memchr(s, '.', (size_t)(end - s));
    if (!dot) dot = end;
    parts[n++] = (part){s, (size_t)(dot - s)};
    s = dot + 1;
  }
  return n;
}

static bool part_is(part p, const char *w) { return strlen(w) == p.n && memcmp(p.s, w, p.n) == 0; }

static lt_sem sem_of(part p) {
  static const struct { const char *s; lt_sem v; } sems[] = {
    {"weak", LT_SEM_WEAK}, {"relaxed", LT_SEM_RELAXED}, {"acquire", LT_SEM_ACQUIRE},
    {"release", LT_SEM_RELEASE}, {"acq_rel", LT_SEM_ACQ_REL}, {"sc", LT_SEM_SC},
    {"volatile", LT_SEM_VOLATILE}};
  for (size_t i = 0; i < LC_ARRAY_LEN(sems); i++)
    if (part_is(p, sems[i].s)) return sems[i].v;
  return LT_SEM_NONE;
}

/* The scope part: `S` or a PTX scope (membar: cta, gl, sys). */
static int scope_part(parser *ps, part p, map_instr *in) {
  if (part_is(p, "S")) { in->scope_from_cpp = true; return 0; }
  in->scope = in->membar && part_is(p, "gl") ? LT_SCOPE_GPU
            : in->membar && part_is(p, "gpu") ? LT_SCOPE_NONE : ptx_scope(p.s, p.n);
  if (in->scope == LT_SCOPE_NONE) {
    lc_error(ps->d, in->at, "'%.*s' is not a scope (S, cta, cluster, gpu, sys)", (int)p.n, p.s);
    return -1;
  }
  return 0;
}

static bool sem_fits(lt_instr_kind k, lt_sem s) {
  switch (k) {
  case LT_I_LD: return s == LT_SEM_WEAK || s == LT_SEM_RELAXED || s == LT_SEM_ACQUIRE || s == LT_SEM_VOLATILE;
  case LT_I_ST: return s == LT_SEM_WEAK || s == LT_SEM_RELAXED || s == LT_SEM_RELEASE || s == LT_SEM_VOLATILE;
  case LT_I_ATOM: return s == LT_SEM_RELAXED || s == LT_SEM_ACQUIRE || s == LT_SEM_RELEASE || s == LT_SEM_ACQ_REL;
  default: return s == LT_SEM_SC || s == LT_SEM_ACQ_REL || s == LT_SEM_ACQUIRE || s == LT_SEM_RELEASE;
  }
}

/* instr -> ld.SEM[.SCOPE] | st.SEM[.SCOPE] | atom.SEM.SCOPE[.OP] | fence.SEM.SCOPE | membar.SCOPE */
static int instr(parser *ps, map_instr *in) {
  part p[6];
  size_t n = split_dots(&ps->t, p, 6);
  *in = (map_instr){.at = ps->t.at};
  static const struct { const char *s; lt_instr_kind k; } mn[] = {
    {"ld", LT_I_LD}, {"st", LT_I_ST}, {"atom", LT_I_ATOM}, {"fence", LT_I_FENCE},
    {"membar", LT_I_FENCE}};
  size_t i = 0;
  while (i < LC_ARRAY_LEN(mn) && !part_is(p[0], mn[i].s)) i++;
  if (ps->t.kind != T_WORD || i == LC_ARRAY_LEN(mn)) {
    lc_error(ps->d, ps->t.at, "expected a PTX instruction (ld, st, atom, fence, membar)");
    return -1;
  }
  in->kind = mn[i].k;
  in->membar = i == 4;
  size_t want = in->membar ? 2 : in->kind == LT_I_ATOM ? 3 : in->kind == LT_I_FENCE ? 3 : 2;
  size_t most = in->kind == LT_I_ATOM ? 4 : in->membar || in->kind == LT_I_FENCE ? want : 3;
  if (n < want || n > most || (in->kind == LT_I_ATOM && n == 4 && !part_is(p[3], "OP"))) {
    lc_error(ps->d, in->at, "malformed instruction '%.*s' (docs/mappings.md)", (int)ps->t.n, ps->t.s);
    return -1;
  }
  if (in->membar) {
    in->sem = LT_SEM_SC;
    if (scope_part(ps, p[1], in)) return -1;
    return next(ps);
  }
  in->sem = sem_of(p[1]);
  if (!sem_fits(in->kind, in->sem)) {
    lc_error(ps->d, in->at, "'.%.*s' is not a memory order of %.*s", (int)p[1].n, p[1].s,
             (int)p[0].n, p[0].s);
    return -1;
  }
  bool scoped = in->sem != LT_SEM_WEAK && in->sem != LT_SEM_VOLATILE;
  if (scoped != (n >= 3)) {
    lc_error(ps->d, in->at, scoped ? "'%.*s' needs a scope (.S, .cta, .gpu, ...)"
                                   : "'%.*s' takes no scope", (int)ps->t.n, ps->t.s);
    return -1;
  }
  if (scoped && scope_part(ps, p[2], in)) return -1;
  return next(ps);
}

/* ---- rows ---------------------------------------------------------------------- */

static const char *shape_error(map_kind k, const map_alt *a) {
  static const lt_instr_kind access[] = {LT_I_LD, LT_I_ST, LT_I_ATOM, LT_I_FENCE};
  size_t accesses = 0;
  for (size_t i = 0; i < a->nins; i++)
    if (a->ins[i].kind != LT_I_FENCE) accesses++;
  if (k == MAP_FENCE) return accesses ? "a fence row may hold only fences" : NULL;
  if (accesses != 1 || a->access == a->nins || a->ins[a->access].kind != access[k])
    return k == MAP_LOAD ? "a load row needs exactly one ld and fences"
         : k == MAP_STORE ? "a store row needs exactly one st and fences"
         : "an rmw row needs exactly one atom and fences";
  return NULL;
}

static int check_target(parser *ps, const map_row *r, const map_alt *a) {
  for (size_t i = 0; i < a->nins; i++) {
    const map_instr *in = &a->ins[i];
    const char *why = map_target_error(in->kind, in->sem, in->scope_from_cpp ? LT_SCOPE_GPU : in->scope,
                                       in->membar, ps->m->sm);
    if (why) {
      lc_buf b;
      lc_buf_init(&b);
      map_print_alt_name(&b, r, a);
      lc_error(ps->d, in->at, "row '%s' is not valid for sm_%d: %s", b.s, ps->m->sm, why);
      lc_buf_fini(&b);
      return -1;
    }
  }
  return 0;
}

/* alt -> instr { ';' instr } [';'] [guard] */
static int alternative(parser *ps, map_row *r) {
  LC_VEC(map_instr) ins = {0};
  map_alt a = {.at = ps->t.at, .id = ++ps->next_id[r->kind][r->order]};
  int rc = -1;
  bool holds;
  for (;;) {
    map_instr in;
    if (instr(ps, &in)) goto out;
    lc_vec_push(&ins, in);
    if (ps->t.kind != T_SEMI) break;
    if (next(ps)) goto out;
    if (ps->t.kind != T_WORD) break;
  }
  if (guard(ps, &holds)) goto out;
  a.nins = ins.n;
  a.access = ins.n;
  for (size_t i = 0; i < ins.n; i++)
    if (ins.v[i].kind != LT_I_FENCE) a.access = i;
  a.ins = ins.v;
  const char *shape = shape_error(r->kind, &a);
  if (shape) { lc_error(ps->d, a.at, "%s", shape); goto out; }
  for (size_t i = 0; i < ins.n && r->order == MAP_NA; i++)
    if (ins.v[i].scope_from_cpp) {
      lc_error(ps->d, ins.v[i].at, "a non-atomic access has no scope: write '.weak' or a PTX scope");
      goto out;
    }
  if (!holds) { rc = 0; goto out; }
  if (check_target(ps, r, &a)) goto out;
  a.ins = lc_arena_alloc(ps->m->arena, ins.n * sizeof *a.ins);
  memcpy(a.ins, ins.v, ins.n * sizeof *a.ins);
  if ((r->nalts & (r->nalts - 1)) == 0) {
    /* full at 0, 1, 2, 4, ...: the capacity doubles, so n alternatives copy
     * and keep O(n) of the arena (a copy per '|' took memory quadratic in
     * them: 8,000 alternatives, 1.5 GB) */
    map_alt *alts = lc_arena_alloc(ps->m->arena, (r->nalts ? 2 * r->nalts : 1) * sizeof *alts);
    if (r->nalts) memcpy(alts, r->alts, r->nalts * sizeof *alts);
    r->alts = alts;
  }
  r->alts[r->nalts++] = a;
  rc = 0;
out:
  free(ins.v);
  return rc;
}

/* True when the row goes on: the next line starts with '|'. */
static int more(parser *ps, bool *yes) {
  *yes = ps->t.kind == T_BAR;
  if (*yes) return next(ps);
  if (ps->t.kind != T_NL) return 0;
  const char *q = ps->p;
  while (q < ps->end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
  if (q < ps->end && *q == '|') {
    if (next(ps) || next(ps)) return -1;   /* the newline, then the bar */
    *yes = true;
  }
  return 0;
}

/* row -> KIND ORDER '->' alt { '|' alt } */
static int access_row(parser *ps, int kind) {
  lc_loc at = ps->t.at;
  if (next(ps)) return -1;
  int order = ps->t.kind == T_WORD ? lookup(order_names, MAP_NORDERS, ps->t.s, ps->t.n) : -1;
  if (order < 0) {
    lc_error(ps->d, ps->t.at, "expected a memory order (na, relaxed, acquire, release, acq_rel, seq_cst) "
                              "or volatile");
    return -1;
  }
  if ((kind == MAP_FENCE && (order == MAP_NA || order == MAP_RLX)) ||
      ((kind == MAP_RMW || kind == MAP_FENCE) && (order == MAP_NA || order == MAP_VOL)) ||
      (kind == MAP_LOAD && (order == MAP_REL || order == MAP_ACQ_REL)) ||
      (kind == MAP_STORE && (order == MAP_ACQ || order == MAP_ACQ_REL))) {
    lc_error(ps->d, ps->t.at, "C++ has no %s %s", order_names[order], kind_names[kind]);
    return -1;
  }
  map_row *r = &ps->m->rows[kind][order];
  r->kind = (map_kind)kind;
  r->order = (map_order)order;
  if (!r->at.line) r->at = at;
  if (next(ps) || expect(ps, T_ARROW, "'->'")) return -1;
  for (bool go = true; go;)
    if (alternative(ps, r) || more(ps, &go)) return -1;
  return 0;
}

/* scope -> 'scope' CSCOPE '->' PSCOPE [guard] { '|' PSCOPE [guard] } */
static int scope_row(parser *ps) {
  lc_loc at = ps->t.at;
  if (next(ps)) return -1;
  int cs = ps->t.kind == T_WORD ? lookup(cscope_names, MAP_NSCOPES, ps->t.s, ps->t.n) : -1;
  if (cs < 0) {
    lc_error(ps->d, ps->t.at, "expected a C++ scope (thread, block, cluster, device, system)");
    return -1;
  }
  if (next(ps) || expect(ps, T_ARROW, "'->'")) return -1;
  for (bool go = true; go;) {
    lt_scope s = ps->t.kind == T_WORD ? ptx_scope(ps->t.s, ps->t.n) : LT_SCOPE_NONE;
    lc_loc sat = ps->t.at;
    bool holds;
    if (s == LT_SCOPE_NONE) {
      lc_error(ps->d, ps->t.at, "expected a PTX scope (cta, cluster, gpu, sys)");
      return -1;
    }
    if (next(ps) || guard(ps, &holds)) return -1;
    if (holds) {
      const char *why = map_target_error(LT_I_FENCE, LT_SEM_NONE, s, false, ps->m->sm);
      if (why) {
        lc_error(ps->d, sat, "row 'scope %s -> %s' is not valid for sm_%d: %s", cscope_names[cs],
                 lt_scope_name(s), ps->m->sm, why);
        return -1;
      }
      if (ps->scope_seen[cs]) {
        lc_error(ps->d, sat, "a second scope row for '%s' holds for sm_%d", cscope_names[cs], ps->m->sm);
        return -1;
      }
      ps->scope_seen[cs] = true;
      ps->m->scope[cs] = s;
      ps->m->scope_at[cs] = at;
    }
    if (more(ps, &go)) return -1;
  }
  return 0;
}

static int line(parser *ps) {
  int kind = ps->t.kind == T_WORD ? lookup(kind_names, MAP_NKINDS, ps->t.s, ps->t.n) : -1;
  if (kind >= 0) return access_row(ps, kind);
  if (tok_is(&ps->t, "scope")) return scope_row(ps);
  if (tok_is(&ps->t, "name")) {
    if (next(ps)) return -1;
    ps->m->name = lc_arena_strndup(ps->m->arena, ps->t.s, ps->t.n);
    return expect(ps, T_WORD, "a table name");
  }
  lc_error(ps->d, ps->t.at, "expected 'name', 'scope', 'load', 'store', 'rmw' or 'fence'");
  return -1;
}

static const char *base_name(lc_arena *a, const char *path) {
  const char *s = strrchr(path, '/');
  s = s ? s + 1 : path;
  const char *dot = strrchr(s, '.');
  return lc_arena_strndup(a, s, dot && dot != s ? (size_t)(dot - s) : strlen(s));
}

/* file -> { line NL } */
map_table *map_parse(const lc_source *src, int sm, lc_diag *d) {
  parser ps = {.src = src, .d = d, .p = src->text, .end = src->text + src->len,
               .bol = src->text, .line = 1};
  ps.m = calloc(1, sizeof *ps.m);
  if (!ps.m) lc_die("out of memory");
  ps.m->arena = lc_arena_new();
  ps.m->sm = sm;
  ps.m->file = src->name;
  ps.m->name = base_name(ps.m->arena, src->name);
  if (next(&ps)) goto fail;
  while (ps.t.kind != T_EOF) {
    if (ps.t.kind == T_NL) { if (next(&ps)) goto fail; continue; }
    if (line(&ps)) goto fail;
    if (ps.t.kind != T_EOF && expect(&ps, T_NL, "end of line")) goto fail;
  }
  return ps.m;
fail:
  map_table_free(ps.m);
  return NULL;
}

void map_table_free(map_table *t) {
  if (!t) return;
  lc_arena_free(t->arena);
  free(t);
}

const map_row *map_row_for(const map_table *t, map_kind k, map_order o) {
  const map_row *r = &t->rows[k][o];
  return r->nalts ? r : NULL;
}
