/* cat_load.c - read a model and its includes, resolve names, check types.
 * SPDX-License-Identifier: MIT
 *
 * Statements are processed in file order with a scope that grows like
 * herd's: a `let` sees only what is defined above it (its own name there
 * means the previous definition or the builtin), a later `let` shadows an
 * earlier one, and `include` behaves as if the file's text stood there.
 * Functions are expanded at each call: the body is resolved again in the
 * scope of the function's definition with the parameters bound to the
 * arguments.  An argument that is not just a name becomes a value of its
 * own so it is evaluated once (inside a `let rec` body it is substituted
 * instead, because it may change from one iteration to the next).
 *
 * Procedures are expanded at each `call` like functions; herd's `with co
 * from generate_cos(E)` becomes two checks on the engine's co; a name
 * defined in herd's functional language (an opaque statement), and every
 * definition that uses one, is an error only where a check needs it.
 * herd's standard names (herd_prelude) are read before the model.
 *
 * Types are inferred with type variables joined by union-find: `0` and
 * the members of a `let rec` start unknown; whatever is still unknown at
 * the end is a relation.  Loading stops at the first error.
 */
#define _XOPEN_SOURCE 700
#include "cat/cat_ast.h"
#include "cat/cat_int.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- builtin names (docs/model-language.md) ------------------------------ */

static const char *const builtin_sets[] = {
  "IW", "R", "W", "M", "F", "PF", "AF", "B", "A", "RED",
  "WEAK", "RLX", "ACQ", "REL", "ACQ_REL", "SC", "VOL",
  "CTA", "CLUSTER", "GPU", "SYS", "GEN", "TEX", "SUR", "CON", "GLOBAL", "SHARED",
  "ASYNC", "MB", "AO", "REMOTE",
};
static const char *const builtin_rels[] = {
  "id", "po", "rf", "co", "fr", "sc", "loc", "vloc", "rmw", "addr", "data", "ctrl",
  "int", "ext", "scta", "scluster", "sgpu", "incl", "sr", "iss", "sync_bar",
};
static const struct {
  const char *name;
  cat_op op;
  cat_type arg;
} builtin_funs[] = {
  {"domain", CAT_OP_DOMAIN, CAT_TY_REL},
  {"range", CAT_OP_RANGE, CAT_TY_REL},
  {"fencerel", CAT_OP_SEQ, CAT_TY_SET},   /* po; [S]; po */
};

bool cat_builtin_type(const char *name, cat_type *type) {
  assert(name && type);
  for (size_t i = 0; i < LC_ARRAY_LEN(builtin_sets); i++)
    if (strcmp(name, builtin_sets[i]) == 0) {
      if (type) *type = CAT_TY_SET;
      return true;
    }
  for (size_t i = 0; i < LC_ARRAY_LEN(builtin_rels); i++)
    if (strcmp(name, builtin_rels[i]) == 0) {
      if (type) *type = CAT_TY_REL;
      return true;
    }
  return false;
}

static int builtin_fun(const char *name) {
  for (size_t i = 0; i < LC_ARRAY_LEN(builtin_funs); i++)
    if (strcmp(name, builtin_funs[i].name) == 0) return (int)i;
  return -1;
}

/* ---- loader state ---------------------------------------------------------- */

typedef enum { B_VAL, B_NODE, B_FUN, B_PROC, B_OPAQUE } bind_kind;

/* Scopes are immutable linked lists in the arena, so a function keeps the
 * scope of its definition for free. */
typedef struct scope {
  const char *name;
  bind_kind kind;
  size_t val;                   /* B_VAL */
  cat_node *node;               /* B_NODE: a substituted argument */
  const cat_stmt *fun;          /* B_FUN, B_PROC, B_OPAQUE: the definition */
  const struct scope *fun_scope;
  int *param_tvs;               /* B_FUN: parameter types inferred from the body */
  const char *via;              /* B_OPAQUE: the skipped definition's name (else this one uses it) */
  const struct scope *next;
  /* The loader's chain (see set_sc): this scope's place on it, or
   * OFF_CHAIN, or DEAD_END (off it for good); on it, the place of the
   * previous binding of the same name there, or -1. */
  long chain, prev_same;
} scope;

enum { OFF_CHAIN = -1, DEAD_END = -2 };

/* The chain of calls being expanded, for notes after an error. */
typedef struct frame {
  const char *fun;
  lc_loc at;
  const struct frame *up;
} frame;

typedef struct tyvar {
  int parent;
  int type;      /* -1 unknown, else a cat_type */
} tyvar;

typedef struct loader {
  cat_model *m;
  lc_diag *d;
  const char *const *search;
  LC_VEC(char *) reading;       /* identities of the files being read, outermost first */
  LC_VEC(const char *) reading_names;
  LC_VEC(tyvar) tvs;
  LC_VEC(cat_node *) nodes;
  const frame *calls;
  const scope *sc;
  bool failed;
  const char *call_name;        /* the procedure call being expanded (its `as` name), or NULL */
  bool with_co;                 /* a `with co from ...` was read */
  const cat_stmt *coherence;    /* the first `coherence total|partial`, or NULL */
  const char *arch;             /* the architecture of another tool a file being read
                                   is for (its header), or NULL (foreign_arch) */
  bool tolerate_opaque;         /* resolving a definition: a use of an opaque name makes it opaque */
  const scope *opaque_seen;     /* the opaque name such a use met */
  const scope *prelude;         /* the scope herd's standard names end (suggestions) */
  const char *const *settings;  /* "NAME=VALUE" from the command line, NULL-terminated */
  bool *settings_used;
  const char **variants;        /* herd's variants: the settings "variant:V", NULL-terminated */
  bool dartagnan_ptx;           /* the model is one of Dartagnan's PTX models (header `PTX`) */
  bool sync_fence;              /* Dartagnan's sync_fence was met: sync_fence_val holds it */
  size_t sync_fence_val;
  size_t expanded;              /* nodes made by function and procedure expansions (CAT_MAX_EXPANDED) */
  /* The chain: the scopes the top level has been in, oldest first, each
   * the next of the one after it; `latest` maps a name to its last binding
   * on it.  A lookup from a scope on it is a hash lookup and a step back
   * per shadowed binding, not a walk down every definition (20,000 lets
   * took 10 s). */
  LC_VEC(scope *) chain;
  lc_names latest;
  LC_VEC(scope *) fresh;        /* set_sc's scratch */
  lc_names check_names;         /* the checks' names, to their index in m->checks */
  lc_names next_suffix;         /* a base name to the k of NAME-k to try next */
  int trying;                   /* inside the a of `try a with b` (resolve_try) */
} loader;

/* ---- diagnostics ----------------------------------------------------------- */

static const lc_source *source_of(const loader *ld, const char *file) {
  for (size_t i = 0; i < ld->m->sources.n; i++)
    if (ld->m->sources.v[i]->name == file) return ld->m->sources.v[i];
  return NULL;
}

/* Reports the first error only, quoting the line of whichever file it is
 * in, then one note per function call being expanded. */
static void err(loader *ld, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);
static void err(loader *ld, lc_loc at, const char *fmt, ...) {
  if (ld->failed) return;
  ld->failed = true;
  const lc_source *saved = ld->d->src;
  const lc_source *src = at.file ? source_of(ld, at.file) : NULL;
  if (src) ld->d->src = src;
  va_list ap;
  va_start(ap, fmt);
  lc_vreport(ld->d, LC_SEV_ERROR, at, fmt, ap);
  va_end(ap);
  for (const frame *f = ld->calls; f; f = f->up) {
    const lc_source *fs = source_of(ld, f->at.file);
    if (fs) ld->d->src = fs;
    lc_note(ld->d, f->at, "in the expansion of '%s' called here", f->fun);
  }
  ld->d->src = saved;
}

static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 32 || lb > 32) return SIZE_MAX;
  size_t row[33];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* The visible name closest to `name`, if close enough to be a typo; one-
 * and two-letter names get no suggestion (everything is close to them). */
static const char *suggest(const loader *ld, const char *name) {
  size_t len = strlen(name);
  if (len <= 2) return NULL;
  const char *best = NULL;
  size_t bestd = len <= 4 ? 2 : 3;   /* accept distance 1, or 2 for longer names */
  const scope *s = ld->sc;
  for (; s && s != ld->prelude; s = s->next) {
    size_t dd = edit_distance(name, s->name);
    if (dd < bestd) bestd = dd, best = s->name;
  }
  for (size_t i = 0; i < LC_ARRAY_LEN(builtin_sets); i++) {
    size_t dd = edit_distance(name, builtin_sets[i]);
    if (dd < bestd) bestd = dd, best = builtin_sets[i];
  }
  for (size_t i = 0; i < LC_ARRAY_LEN(builtin_rels); i++) {
    size_t dd = edit_distance(name, builtin_rels[i]);
    if (dd < bestd) bestd = dd, best = builtin_rels[i];
  }
  for (; s; s = s->next) {   /* herd's standard names last: a builtin wins a tie */
    size_t dd = edit_distance(name, s->name);
    if (dd < bestd) bestd = dd, best = s->name;
  }
  return best;
}

/* The architecture whose events herd names `name` (or `name.OPTION`),
 * for a model that does not say its architecture (herd's ifetch-cos.cat
 * reads AArch64's cache maintenance IC and DC), or NULL. */
static const char *event_arch(const char *name) {
  static const char *const names[][2] = {
    {"IC", "AArch64"}, {"DC", "AArch64"}, {"TLBI", "AArch64"}, {"DMB", "AArch64"}, {"DSB", "AArch64"},
    {"ISB", "AArch64"}, {"MFENCE", "x86"}, {"SFENCE", "x86"}, {"LFENCE", "x86"}, {"sync", "Power"},
    {"lwsync", "Power"}, {"isync", "Power"}, {"eieio", "Power"}};
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++) {
    size_t n = strlen(names[i][0]);
    if (strncmp(name, names[i][0], n) == 0 && (name[n] == '\0' || name[n] == '.')) return names[i][1];
  }
  return NULL;
}

/* Does the line define `name` at its start (`let [rec] name`, `and name`)? */
static bool line_defines(const char *l, const char *name) {
  size_t n = strlen(name);
  while (*l == ' ' || *l == '\t') l++;
  if (strncmp(l, "let", 3) == 0 && (l[3] == ' ' || l[3] == '\t')) l += 3;
  else if (strncmp(l, "and", 3) == 0 && (l[3] == ' ' || l[3] == '\t')) l += 3;
  else return false;
  while (*l == ' ' || *l == '\t') l++;
  if (strncmp(l, "rec", 3) == 0 && (l[3] == ' ' || l[3] == '\t'))
    for (l += 3; *l == ' ' || *l == '\t'; l++) {}
  char c = l[n];   /* the name ends there (cat_lex.c's name characters) */
  return strncmp(l, name, n) == 0 && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                                       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.');
}

/* An unknown name that another cat file of the same folder defines: herd's
 * library holds fragments and helpers that a model must include (LL.cat
 * uses WW of filters.cat without including it; ppo.cat reads ci0, which
 * pretty.cat defines before including ppo.cat).  herd7 rejects such a file
 * too ("unbound var"); the message says which file to load or include.
 * Only on this error path (not for the a of `try a with b`, which may
 * fail), and bounded: the folder's first 1,000 files, 8 MiB read in all. */
static bool defined_beside(loader *ld, lc_loc at, const char *what, const char *name) {
  const char *slash = strrchr(at.file, '/');
  const char *base = slash ? slash + 1 : at.file;
  lc_buf dir, path, inc;
  lc_buf_init(&dir);
  lc_buf_init(&path);
  lc_buf_init(&inc);
  if (slash) lc_buf_printf(&dir, "%.*s", (int)(slash - at.file), at.file);
  else lc_buf_puts(&dir, ".");
  lc_buf_printf(&inc, "include \"%s\"", base);
  DIR *d = opendir(dir.s);
  /* the fragment's includers (up to three, in name order), else the
   * file defining the name that most files here include */
  char *incl[3] = {NULL, NULL, NULL}, *best = NULL;
  size_t nincl = 0;
  LC_VEC(char *) definers = {0};   /* the other files defining name */
  LC_VEC(char *) included = {0};   /* every file an include of the folder names */
  char *line = NULL;
  size_t cap = 0, read = 0;
  for (int files = 0; d && files < 1000 && read < (8u << 20); files++) {
    struct dirent *de = readdir(d);
    if (!de) break;
    size_t len = strlen(de->d_name);
    if (len < 5 || strcmp(de->d_name + len - 4, ".cat") != 0 || strcmp(de->d_name, base) == 0) continue;
    path.n = 0;
    lc_buf_printf(&path, "%s/%s", dir.s, de->d_name);
    FILE *f = fopen(path.s, "r");
    if (!f) continue;
    bool defines = false, includes = false;
    ssize_t got;
    while (read < (8u << 20) && (got = getline(&line, &cap, f)) > 0) {
      read += (size_t)got;
      if (!defines && line_defines(line, name)) defines = true;
      if (defines && !includes && strstr(line, inc.s)) includes = true;   /* defined first */
      const char *q = strstr(line, "include \""), *e = q ? strchr(q + 9, '"') : NULL;
      if (e && included.n < 100000) lc_vec_push(&included, lc_xstrndup(q + 9, (size_t)(e - q - 9)));
    }
    fclose(f);
    if (defines && includes) {
      size_t k = nincl < 3 ? nincl++ : 3;
      if (k == 3 && strcmp(de->d_name, incl[2]) > 0) continue;
      if (k == 3) free(incl[--k]);
      for (; k > 0 && strcmp(de->d_name, incl[k - 1]) < 0; k--) incl[k] = incl[k - 1];
      incl[k] = lc_xstrdup(de->d_name);
    } else if (defines && definers.n < 1000) {
      lc_vec_push(&definers, lc_xstrdup(de->d_name));
    }
  }
  /* the definer most files include: a helper like filters.cat, not a model */
  size_t best_n = 0;
  for (size_t k = 0; k < definers.n && !nincl; k++) {
    size_t n = 0;
    for (size_t j = 0; j < included.n; j++) n += strcmp(included.v[j], definers.v[k]) == 0;
    if (!best || n > best_n || (n == best_n && strcmp(definers.v[k], best) < 0)) best = definers.v[k], best_n = n;
  }
  if (d) closedir(d);
  free(line);
  if (nincl) {
    lc_buf who;
    lc_buf_init(&who);
    for (size_t k = 0; k < nincl; k++) lc_buf_printf(&who, "%s%s", k ? (k + 1 == nincl ? " and " : ", ") : "", incl[k]);
    err(ld, at, "unknown %s '%s': %s is a fragment that %s %s after defining '%s' (herd7 rejects "
        "this file alone too)", what, name, base, who.s, nincl > 1 ? "include" : "includes", name);
    lc_buf_fini(&who);
  } else if (best)
    err(ld, at, "unknown %s '%s': %s defines it, and this model does not include it (herd7 rejects "
        "the model too)", what, name, best);
  bool found = best != NULL || nincl;
  for (size_t k = 0; k < nincl; k++) free(incl[k]);
  for (size_t k = 0; k < definers.n; k++) free(definers.v[k]);
  for (size_t k = 0; k < included.n; k++) free(included.v[k]);
  lc_vec_free(&definers);
  lc_vec_free(&included);
  lc_buf_fini(&dir);
  lc_buf_fini(&path);
  lc_buf_fini(&inc);
  return found;
}

static void unknown(loader *ld, lc_loc at, const char *what, const char *name) {
  const char *arch = ld->arch ? ld->arch : event_arch(name);
  if (arch) {
    err(ld, at, "unknown %s '%s': the model is for %s, whose events (and the sets and relations "
        "naming them) litmus-check does not have; it checks PTX and C/C++ tests", what, name, arch);
    return;
  }
  if (at.file && !ld->trying && !ld->failed && defined_beside(ld, at, what, name)) return;
  const char *s = suggest(ld, name);
  if (s) err(ld, at, "unknown %s '%s'; did you mean '%s'?", what, name, s);
  else err(ld, at, "unknown %s '%s' (neither defined above nor a builtin; see docs/model-language.md)", what, name);
}

/* ---- types ------------------------------------------------------------------ */

static int tv_new(loader *ld, int type) {
  tyvar t = {(int)ld->tvs.n, type};
  lc_vec_push(&ld->tvs, t);
  return t.parent;
}

static int tv_find(loader *ld, int v) {
  while (ld->tvs.v[v].parent != v) {
    ld->tvs.v[v].parent = ld->tvs.v[ld->tvs.v[v].parent].parent;
    v = ld->tvs.v[v].parent;
  }
  return v;
}

static int tv_type(loader *ld, int v) { return ld->tvs.v[tv_find(ld, v)].type; }

static bool tv_unify(loader *ld, int a, int b) {
  a = tv_find(ld, a);
  b = tv_find(ld, b);
  if (a == b) return true;
  int ta = ld->tvs.v[a].type, tb = ld->tvs.v[b].type;
  if (ta >= 0 && tb >= 0 && ta != tb) return false;
  ld->tvs.v[a].parent = b;
  if (tb < 0) ld->tvs.v[b].type = ta;
  return true;
}

static const char *type_name(int t) { return t == CAT_TY_SET ? "a set" : "a relation"; }

/* Requires node n to have type `want`; `what` says who wants it. */
static bool need(loader *ld, const cat_node *n, cat_type want, lc_loc at, const char *what,
                 const char *operand) {
  int t = tv_type(ld, n->tv);
  if (t < 0) {
    ld->tvs.v[tv_find(ld, n->tv)].type = (int)want;
    return true;
  }
  if (t == (int)want) return true;
  err(ld, at, "type error: %s, but %s is %s", what, operand, type_name(t));
  return false;
}

/* ---- nodes and values -------------------------------------------------------- */

static cat_node *node_new(loader *ld, cat_node_kind kind, lc_loc at, size_t group, int tv) {
  cat_node *n = lc_arena_alloc(ld->m->arena, sizeof *n);
  n->kind = kind;
  n->loc = at;
  n->group = group;
  n->tv = tv;
  n->ref = CAT_NONE;
  if (ld->calls) ld->expanded++;
  lc_vec_push(&ld->nodes, n);
  return n;
}

static cat_node *node_op(loader *ld, cat_op op, lc_loc at, cat_node *a, cat_node *b, size_t group,
                         int tv) {
  cat_node *n = node_new(ld, CAT_N_OP, at, group, tv);
  n->op = op;
  n->a = a;
  n->b = b;
  return n;
}

static cat_node *node_ref(loader *ld, size_t val, lc_loc at, size_t group) {
  cat_node *n = node_new(ld, CAT_N_REF, at, group, ld->m->vals.v[val].tv);
  n->ref = val;
  return n;
}

static size_t val_new(loader *ld, cat_val_kind kind, const char *name, lc_loc at, int tv) {
  cat_val v = {kind, name, NULL, CAT_NONE, CAT_TY_REL, at, tv};
  lc_vec_push(&ld->m->vals, v);
  return ld->m->vals.n - 1;
}

static size_t builtin_val(loader *ld, const char *name, cat_type type, lc_loc at) {
  for (size_t i = 0; i < ld->m->vals.n; i++)
    if (ld->m->vals.v[i].kind == CAT_V_BUILTIN && strcmp(ld->m->vals.v[i].name, name) == 0) return i;
  return val_new(ld, CAT_V_BUILTIN, lc_arena_strdup(ld->m->arena, name), at, tv_new(ld, (int)type));
}

static const scope *bind(loader *ld, const scope *next, const char *name, bind_kind kind) {
  scope *s = lc_arena_alloc(ld->m->arena, sizeof *s);
  s->name = name;
  s->kind = kind;
  s->next = next;
  s->chain = OFF_CHAIN;
  s->prev_same = -1;
  return s;
}

/* The scope the statements now add to: on the chain when it extends the
 * chain's last scope (a top-level statement's bindings), else off it (a
 * procedure's body, whose bindings are walked, a few).  Each scope is
 * walked over here at most once. */
static void set_sc(loader *ld, const scope *sc) {
  ld->sc = sc;
  const scope *tip = ld->chain.n ? ld->chain.v[ld->chain.n - 1] : NULL;
  ld->fresh.n = 0;
  const scope *x = sc;
  for (; x && x->chain == OFF_CHAIN; x = x->next) lc_vec_push(&ld->fresh, (scope *)x);
  if (x != tip) {   /* a branch off the chain: it never joins it */
    for (size_t i = 0; i < ld->fresh.n; i++) ld->fresh.v[i]->chain = DEAD_END;
    return;
  }
  for (size_t i = ld->fresh.n; i-- > 0;) {
    scope *b = ld->fresh.v[i];
    size_t len = strlen(b->name), last = lc_names_get(&ld->latest, b->name, len);
    b->chain = (long)ld->chain.n;
    b->prev_same = last == LC_NAMES_NONE ? -1 : (long)last;
    lc_vec_push(&ld->chain, b);
    lc_names_put(&ld->latest, b->name, len, (size_t)b->chain);
  }
}

static const scope *lookup(const loader *ld, const scope *s, const char *name) {
  for (; s && s->chain < 0; s = s->next)
    if (strcmp(s->name, name) == 0) return s;
  if (!s) return NULL;
  size_t k = lc_names_get(&ld->latest, name, strlen(name));
  long at = k == LC_NAMES_NONE ? -1 : (long)k;
  while (at > s->chain) at = ld->chain.v[at]->prev_same;
  return at < 0 ? NULL : ld->chain.v[at];
}

/* ---- expressions --------------------------------------------------------------- */

static cat_node *resolve(loader *ld, const scope *sc, const cat_expr *e, size_t group);

/* A use of a name whose definition the parser skipped (cat_parse.c). */
static bool not_plain(loader *ld, const scope *b, const char *name, lc_loc at) {
  if (b && b->kind == B_OPAQUE && ld->tolerate_opaque) {
    if (!ld->opaque_seen) ld->opaque_seen = b;
    return true;
  }
  if (b && b->kind == B_OPAQUE) {
    const cat_stmt *s = b->fun;
    lc_buf who;
    lc_buf_init(&who);
    if (strcmp(b->via, name) == 0) lc_buf_printf(&who, "'%s'", name);
    else lc_buf_printf(&who, "'%s' uses '%s', which", name, b->via);
    err(ld, at, "%s (%s:%d) is defined with herd's functional language ('%s' at line %d: "
        "match, fun, sets of sets, curried or recursive functions), which models here cannot evaluate",
        who.s, s->loc.file, s->loc.line, s->name, s->name_loc.line);
    lc_buf_fini(&who);
    return true;
  }
  if (b && b->kind == B_PROC) {
    err(ld, at, "'%s' is a procedure; use it as 'call %s(...)'", name, name);
    return true;
  }
  return false;
}

static const char *builtin_alias(const char *name);
static void add_check(loader *ld, cat_check_kind kind, bool flag, bool undef, const char *name,
                      cat_node *n, lc_loc at);
static const char *fresh_check_name(loader *ld, const char *base);

/* Dartagnan's sync_fence (its PTX models): an order of the fence.sc
 * events, solver-chosen, that relates every two whose scopes include each
 * other's thread (WmmEncoder.visitSyncFence).  Here it is sc & sr, with
 * the check `sync_fence-total` that every such pair is ordered, added
 * once, where the name is first used. */
static cat_node *sync_fence(loader *ld, lc_loc at, size_t group) {
  if (!ld->sync_fence) {
    int rel = tv_new(ld, CAT_TY_REL), set = tv_new(ld, CAT_TY_SET);
#define B(n, t) node_ref(ld, builtin_val(ld, n, t, at), at, CAT_NONE)
    ld->sync_fence_val = val_new(ld, CAT_V_DEF, "sync_fence", at, rel);
    ld->m->vals.v[ld->sync_fence_val].body =
      node_op(ld, CAT_OP_INTER, at, B("sc", CAT_TY_REL), B("sr", CAT_TY_REL), CAT_NONE, rel);
    cat_node *f1 = node_op(ld, CAT_OP_INTER, at, B("F", CAT_TY_SET), B("SC", CAT_TY_SET), CAT_NONE, set);
    cat_node *f2 = node_op(ld, CAT_OP_INTER, at, B("F", CAT_TY_SET), B("SC", CAT_TY_SET), CAT_NONE, set);
    cat_node *pairs = node_op(ld, CAT_OP_INTER, at, node_op(ld, CAT_OP_PRODUCT, at, f1, f2, CAT_NONE, rel),
                              B("sr", CAT_TY_REL), CAT_NONE, rel);
    cat_node *both = node_op(ld, CAT_OP_UNION, at, B("sc", CAT_TY_REL),
                             node_op(ld, CAT_OP_INVERSE, at, B("sc", CAT_TY_REL), NULL, CAT_NONE, rel), CAT_NONE, rel);
    both = node_op(ld, CAT_OP_UNION, at, B("id", CAT_TY_REL), both, CAT_NONE, rel);
#undef B
    add_check(ld, CAT_CHECK_EMPTY, false, false, fresh_check_name(ld, "sync_fence-total"),
              node_op(ld, CAT_OP_DIFF, at, pairs, both, CAT_NONE, rel), at);
    ld->sync_fence = true;
  }
  return node_ref(ld, ld->sync_fence_val, at, group);
}

static cat_node *resolve_name(loader *ld, const scope *sc, const cat_expr *e, size_t group) {
  const scope *b = lookup(ld, sc, e->name);
  cat_type t;
  if (b && b->kind == B_VAL) return node_ref(ld, b->val, e->loc, group);
  if (b && b->kind == B_NODE) return b->node;
  if (not_plain(ld, b, e->name, e->loc)) return NULL;
  if (b) {
    size_t np = b->fun->nparams;
    err(ld, e->loc, "'%s' is a function; call it with %zu argument%s", e->name, np, np == 1 ? "" : "s");
    return NULL;
  }
  if (ld->dartagnan_ptx && strcmp(e->name, "F") == 0) {
    /* Dartagnan tags proxy and alias fences (fence.proxy.*) as fences too;
     * here they are PF and AF, apart from F */
    int set = tv_new(ld, CAT_TY_SET);
    cat_node *f = node_op(ld, CAT_OP_UNION, e->loc, node_ref(ld, builtin_val(ld, "F", CAT_TY_SET, e->loc), e->loc, group),
                          node_ref(ld, builtin_val(ld, "PF", CAT_TY_SET, e->loc), e->loc, group), group, set);
    return node_op(ld, CAT_OP_UNION, e->loc, f, node_ref(ld, builtin_val(ld, "AF", CAT_TY_SET, e->loc), e->loc, group),
                   group, set);
  }
  if (cat_builtin_type(e->name, &t)) return node_ref(ld, builtin_val(ld, e->name, t, e->loc), e->loc, group);
  if (strcmp(e->name, "sync_fence") == 0) return sync_fence(ld, e->loc, group);
  const char *alias = builtin_alias(e->name);
  if (alias && cat_builtin_type(alias, &t)) return node_ref(ld, builtin_val(ld, alias, t, e->loc), e->loc, group);
  if (builtin_fun(e->name) >= 0) {
    err(ld, e->loc, "'%s' is a function; call it with 1 argument", e->name);
    return NULL;
  }
  const scope *saved = ld->sc;
  ld->sc = sc;   /* for the suggestions only */
  unknown(ld, e->loc, "name", e->name);
  ld->sc = saved;
  return NULL;
}

static const char *binop_what(cat_expr_kind k) {
  switch (k) {
  case CAT_X_UNION: return "'|'";
  case CAT_X_INTER: return "'&'";
  case CAT_X_DIFF: return "'\\'";
  case CAT_X_SEQ: return "';' needs relations";
  default: return "'*' (product) needs sets";
  }
}

static cat_node *resolve_binary(loader *ld, const scope *sc, const cat_expr *e, size_t group) {
  cat_node *a = resolve(ld, sc, e->a, group);
  cat_node *b = a ? resolve(ld, sc, e->b, group) : NULL;
  if (!b) return NULL;
  static const cat_op ops[] = {CAT_OP_UNION, CAT_OP_SEQ, CAT_OP_DIFF, CAT_OP_INTER, CAT_OP_PRODUCT};
  cat_op op = ops[e->kind - CAT_X_UNION];
  const char *what = binop_what(e->kind);
  if (op == CAT_OP_SEQ || op == CAT_OP_PRODUCT) {
    cat_type want = op == CAT_OP_SEQ ? CAT_TY_REL : CAT_TY_SET;
    if (!need(ld, a, want, e->loc, what, "its left operand") ||
        !need(ld, b, want, e->loc, what, "its right operand"))
      return NULL;
    return node_op(ld, op, e->loc, a, b, group, tv_new(ld, CAT_TY_REL));
  }
  if (!tv_unify(ld, a->tv, b->tv)) {
    err(ld, e->loc, "type error: %s needs operands of one type, but its left operand is %s and its right operand is %s",
        what, type_name(tv_type(ld, a->tv)), type_name(tv_type(ld, b->tv)));
    return NULL;
  }
  return node_op(ld, op, e->loc, a, b, group, a->tv);
}

static cat_node *resolve_postfix(loader *ld, const scope *sc, const cat_expr *e, size_t group) {
  static const cat_op ops[] = {CAT_OP_PLUS, CAT_OP_STAR, CAT_OP_OPT, CAT_OP_INVERSE};
  static const char *const what[] = {"'+' needs a relation", "'*' (closure) needs a relation",
                                     "'?' needs a relation", "'^-1' needs a relation"};
  size_t k = (size_t)(e->kind - CAT_X_PLUS);
  cat_node *a = resolve(ld, sc, e->a, group);
  if (!a || !need(ld, a, CAT_TY_REL, e->loc, what[k], "its operand")) return NULL;
  return node_op(ld, ops[k], e->loc, a, NULL, group, tv_new(ld, CAT_TY_REL));
}

/* fencerel(S) = po; [S]; po, with the builtin po. */
static cat_node *fencerel(loader *ld, cat_node *s, lc_loc at, size_t group) {
  int rel = tv_new(ld, CAT_TY_REL);
  cat_node *po1 = node_ref(ld, builtin_val(ld, "po", CAT_TY_REL, at), at, group);
  cat_node *po2 = node_ref(ld, builtin_val(ld, "po", CAT_TY_REL, at), at, group);
  cat_node *id = node_op(ld, CAT_OP_IDSET, at, s, NULL, group, rel);
  return node_op(ld, CAT_OP_SEQ, at, node_op(ld, CAT_OP_SEQ, at, po1, id, group, rel), po2, group, rel);
}

static cat_node *call_builtin(loader *ld, const scope *sc, const cat_expr *e, int f, size_t group) {
  if (e->nargs != 1) {
    err(ld, e->loc, "wrong number of arguments: '%s' takes 1, given %zu", e->name, e->nargs);
    return NULL;
  }
  cat_node *a = resolve(ld, sc, e->args[0], group);
  if (!a) return NULL;
  char what[64];
  snprintf(what, sizeof what, "'%s' needs %s", e->name, type_name(builtin_funs[f].arg));
  if (!need(ld, a, builtin_funs[f].arg, e->loc, what, "its argument")) return NULL;
  if (builtin_funs[f].op == CAT_OP_SEQ) return fencerel(ld, a, e->loc, group);
  return node_op(ld, builtin_funs[f].op, e->loc, a, NULL, group, tv_new(ld, CAT_TY_SET));
}

/* Binds parameter i: a name is passed through, anything else becomes a
 * value evaluated once (or, inside a let rec, is substituted). */
static const scope *bind_arg(loader *ld, const scope *s, const cat_expr *e, const cat_stmt *f,
                             size_t i, cat_node *arg, size_t group) {
  scope *b = (scope *)bind(ld, s, f->params[i], B_VAL);
  if (group != CAT_NONE) {
    b->kind = B_NODE;
    b->node = arg;
  } else if (arg->kind == CAT_N_REF) {
    b->val = arg->ref;
  } else {
    lc_buf nm;
    lc_buf_init(&nm);
    lc_buf_printf(&nm, "%s(%s)", e->name, f->params[i]);
    b->val = val_new(ld, CAT_V_DEF, lc_arena_strdup(ld->m->arena, nm.s), e->args[i]->loc, arg->tv);
    ld->m->vals.v[b->val].body = arg;
    lc_buf_fini(&nm);
  }
  return b;
}

/* Expansions nest at most this deep (a chain of functions or procedures
 * each calling the one before), so that loading stays within a bounded
 * stack whatever the model. */
#define CAT_MAX_CALLS 100

static bool too_deep(loader *ld, lc_loc at) {
  size_t n = 0;
  for (const frame *f = ld->calls; f; f = f->up) n++;
  if (n < CAT_MAX_CALLS) return false;
  err(ld, at, "calls nested too deeply (more than %d expansions)", CAT_MAX_CALLS);
  return true;
}

/* Expansions together make at most this many nodes: nesting is bounded,
 * but each level may call the one below twice, and 22 such levels made 4
 * million expansions (15 s, 5 GB) before the cap.  The shipped models
 * expand nothing, herd-style ones a few hundred nodes. */
#define CAT_MAX_EXPANDED 200000

static bool too_big(loader *ld, const cat_expr *call) {
  if (ld->expanded <= CAT_MAX_EXPANDED) return false;
  const char *outer = call->name;   /* the call outside every expansion: the one to rewrite */
  for (const frame *f = ld->calls; f; f = f->up) outer = f->fun;
  err(ld, call->loc, "expanding '%s' makes the model too large (more than %d nodes made by "
      "expanding functions and procedures, each call a copy of the body): bind what a function "
      "computes to a name with let and use the name", outer, CAT_MAX_EXPANDED);
  return true;
}

/* Argument i of call e has the wrong type.  Where it is a name, says
 * where that name got its type: herd's pretty.cat passes dmb.st to WW
 * after including armfences.cat, where dmb.st is a relation, and then
 * aarch64fences.cat, which redefines it as a set (herd7 stops there
 * too). */
static void arg_type_error(loader *ld, const scope *sc, const cat_expr *e, size_t i, int want, int got) {
  const cat_expr *a = e->args[i];
  const scope *b = a->kind == CAT_X_NAME ? lookup(ld, sc, a->name) : NULL;
  if (!b || b->kind != B_VAL || ld->m->vals.v[b->val].kind != CAT_V_DEF) {
    err(ld, a->loc, "type error: argument %zu of '%s' must be %s, but it is %s", i + 1, e->name,
        type_name(want), type_name(got));
    return;
  }
  lc_loc at = ld->m->vals.v[b->val].loc;
  /* an earlier definition of the name with the wanted type, on the chain */
  const cat_val *before = NULL;
  for (long k = b->chain >= 0 ? b->prev_same : -1; k >= 0 && !before; k = ld->chain.v[k]->prev_same) {
    const scope *x = ld->chain.v[k];
    if (x->kind == B_VAL && tv_type(ld, ld->m->vals.v[x->val].tv) == want) before = &ld->m->vals.v[x->val];
  }
  lc_buf why;
  lc_buf_init(&why);
  if (before)
    lc_buf_printf(&why, ", which replaced %s defined at %s:%d", type_name(want), before->loc.file,
                  before->loc.line);
  err(ld, a->loc, "type error: argument %zu of '%s' must be %s, but '%s' is %s: the one defined at %s:%d%s",
      i + 1, e->name, type_name(want), a->name, type_name(got), at.file, at.line, why.s ? why.s : "");
  lc_buf_fini(&why);
}

static cat_node *call_user(loader *ld, const scope *sc, const cat_expr *e, const scope *fb,
                           size_t group) {
  const cat_stmt *f = fb->fun;
  if (e->nargs != f->nparams) {
    err(ld, e->loc, "wrong number of arguments: '%s' takes %zu, given %zu", e->name, f->nparams, e->nargs);
    return NULL;
  }
  const scope *body_sc = fb->fun_scope;
  for (size_t i = 0; i < e->nargs; i++) {
    cat_node *a = resolve(ld, sc, e->args[i], group);
    if (!a) return NULL;
    int want = tv_type(ld, fb->param_tvs[i]), got = tv_type(ld, a->tv);
    if (want >= 0 && got >= 0 && want != got) {
      arg_type_error(ld, sc, e, i, want, got);
      return NULL;
    }
    body_sc = bind_arg(ld, body_sc, e, f, i, a, group);
  }
  if (too_deep(ld, e->loc) || too_big(ld, e)) return NULL;
  frame fr = {e->name, e->loc, ld->calls};
  ld->calls = &fr;
  cat_node *n = resolve(ld, body_sc, f->binds[0].e, group);
  ld->calls = fr.up;
  return n;
}

static cat_node *resolve_call(loader *ld, const scope *sc, const cat_expr *e, size_t group) {
  const scope *b = lookup(ld, sc, e->name);
  cat_type t;
  if (b && b->kind == B_FUN) return call_user(ld, sc, e, b, group);
  if (not_plain(ld, b, e->name, e->loc)) return NULL;
  if (!b && builtin_fun(e->name) >= 0) return call_builtin(ld, sc, e, builtin_fun(e->name), group);
  if (b || cat_builtin_type(e->name, &t)) {
    err(ld, e->loc, "'%s' is not a function", e->name);
    return NULL;
  }
  if (strcmp(e->name, "linearisations") == 0) {
    err(ld, e->loc, "herd's linearisations(S, r) is read only as 'with NAME from linearisations(S, r)' "
        "(herd's sets of relations are not values here)");
    return NULL;
  }
  const scope *saved = ld->sc;
  ld->sc = sc;   /* for the suggestions only */
  unknown(ld, e->loc, "function", e->name);
  ld->sc = saved;
  return NULL;
}

/* Binds `name` to node n in scope `next`: a value of its own, evaluated
 * once (inside a let rec body the node itself, as for arguments). */
static const scope *bind_node(loader *ld, const scope *next, const char *name, lc_loc at,
                              cat_node *n, size_t group) {
  scope *b = (scope *)bind(ld, next, name, B_VAL);
  if (group != CAT_NONE) {
    b->kind = B_NODE;
    b->node = n;
  } else if (n->kind == CAT_N_REF) {
    b->val = n->ref;
  } else {
    b->val = val_new(ld, CAT_V_DEF, name, at, n->tv);
    ld->m->vals.v[b->val].body = n;
  }
  return b;
}

/* `let f = g` where g is a function: herd's functions are values, and
 * the c11popl15 models name one again (`let imm = singlestep`).  Returns
 * the new binding of f to g's definition, or NULL when e is not the bare
 * name of a function in scope sc. */
static const scope *bind_fun_alias(loader *ld, const scope *next, const scope *sc, const char *name,
                                   const cat_expr *e) {
  if (e->kind != CAT_X_NAME) return NULL;
  const scope *g = lookup(ld, sc, e->name);
  if (!g || g->kind != B_FUN) return NULL;
  scope *f = (scope *)bind(ld, next, name, B_FUN);
  f->fun = g->fun;
  f->fun_scope = g->fun_scope;
  f->param_tvs = g->param_tvs;
  return f;
}

/* let b1 and b2 ... in e: each binding sees the scope outside the let. */
static cat_node *resolve_let(loader *ld, const scope *sc, const cat_expr *e, size_t group) {
  const scope *body = sc;
  for (size_t i = 0; i < e->nbinds; i++) {
    const scope *f = bind_fun_alias(ld, body, sc, e->binds[i].name, e->binds[i].e);
    if (f) {
      body = f;
      continue;
    }
    cat_node *n = resolve(ld, sc, e->binds[i].e, group);
    if (!n) return NULL;
    body = bind_node(ld, body, e->binds[i].name, e->binds[i].loc, n, group);
  }
  return resolve(ld, body, e->a, group);
}

/* try a with b: herd evaluates a and, should that fail, b.  The failures
 * herd's models count on are names a test's architecture does not define
 * (`try DMB.ISH with emptyset`), known here at load: a is resolved with
 * its messages kept apart, and b is used when that fails. */
static cat_node *resolve_try(loader *ld, const scope *sc, const cat_expr *e, size_t group) {
  if (ld->failed) return NULL;
  lc_diag *saved_d = ld->d, scratch;
  const scope *saved_opaque = ld->opaque_seen;
  lc_diag_init(&scratch, NULL, NULL);
  ld->d = &scratch;
  ld->opaque_seen = NULL;
  ld->trying++;
  cat_node *a = resolve(ld, sc, e->a, group);
  ld->trying--;
  bool ok = a && !ld->failed && !ld->opaque_seen;
  ld->d = saved_d;
  ld->failed = false;
  ld->opaque_seen = saved_opaque;
  lc_diag_fini(&scratch);
  return ok ? a : resolve(ld, sc, e->b, group);
}

static cat_node *resolve(loader *ld, const scope *sc, const cat_expr *e, size_t group) {
  switch (e->kind) {
  case CAT_X_LET: return resolve_let(ld, sc, e, group);
  case CAT_X_TRY: return resolve_try(ld, sc, e, group);
  case CAT_X_NAME: return resolve_name(ld, sc, e, group);
  case CAT_X_ALL: {
    int set = tv_new(ld, CAT_TY_SET);
    return node_op(ld, CAT_OP_COMPL, e->loc, node_op(ld, CAT_OP_EMPTY, e->loc, NULL, NULL, group, set),
                   NULL, group, set);
  }
  case CAT_X_ZERO: return node_op(ld, CAT_OP_EMPTY, e->loc, NULL, NULL, group, tv_new(ld, -1));
  case CAT_X_UNION: case CAT_X_SEQ: case CAT_X_DIFF: case CAT_X_INTER: case CAT_X_PRODUCT:
    return resolve_binary(ld, sc, e, group);
  case CAT_X_COMPL: {
    cat_node *a = resolve(ld, sc, e->a, group);
    return a ? node_op(ld, CAT_OP_COMPL, e->loc, a, NULL, group, a->tv) : NULL;
  }
  case CAT_X_PLUS: case CAT_X_STAR: case CAT_X_OPT: case CAT_X_INV:
    return resolve_postfix(ld, sc, e, group);
  case CAT_X_IDSET: {
    cat_node *a = resolve(ld, sc, e->a, group);
    if (!a || !need(ld, a, CAT_TY_SET, e->loc, "'[...]' needs a set", "its operand")) return NULL;
    return node_op(ld, CAT_OP_IDSET, e->loc, a, NULL, group, tv_new(ld, CAT_TY_REL));
  }
  case CAT_X_CALL: return resolve_call(ld, sc, e, group);
  }
  return NULL;
}

/* ---- statements ------------------------------------------------------------------ */

static int load_file(loader *ld, const char *path, const lc_source *given, lc_loc site);

/* A definition that uses an opaque name is opaque itself: an error only
 * where a check needs it.  Resolves e; NULL (without an error) when it
 * became opaque, then bound as such. */
static cat_node *resolve_def(loader *ld, const scope *sc, const cat_expr *e, const char *name) {
  bool saved = ld->tolerate_opaque;
  ld->tolerate_opaque = true;
  ld->opaque_seen = NULL;
  cat_node *n = resolve(ld, sc, e, CAT_NONE);
  ld->tolerate_opaque = saved;
  if (!n && !ld->failed && ld->opaque_seen) {
    scope *o = (scope *)bind(ld, ld->sc, name, B_OPAQUE);
    o->fun = ld->opaque_seen->fun;
    o->via = ld->opaque_seen->via;
    set_sc(ld, o);
    ld->opaque_seen = NULL;
  }
  return n;
}

/* let a = e [and b = f ...]: every binding sees the scope above the let. */
static void stmt_let(loader *ld, const cat_stmt *s) {
  const scope *outer = ld->sc;
  for (size_t i = 0; i < s->nbinds && !ld->failed; i++) {
    const cat_binding *b = &s->binds[i];
    const scope *f = bind_fun_alias(ld, ld->sc, outer, b->name, b->e);
    if (f) {
      set_sc(ld, f);
      continue;
    }
    cat_node *n = resolve_def(ld, outer, b->e, b->name);
    if (!n) continue;   /* an error, or made opaque */
    scope *e = (scope *)bind(ld, ld->sc, b->name, B_VAL);
    if (n->kind == CAT_N_REF) {
      e->val = n->ref;   /* `let a = b` names b's value again */
    } else {
      e->val = val_new(ld, CAT_V_DEF, b->name, b->loc, n->tv);
      ld->m->vals.v[e->val].body = n;
    }
    set_sc(ld, e);
  }
}

/* Resolves the body once with parameters of unknown type: every name and
 * arity is checked at the definition, and what the body requires of each
 * parameter is remembered for messages at the calls. */
static void stmt_fun(loader *ld, const cat_stmt *s) {
  const scope *sc = ld->sc;
  int *tvs = lc_arena_alloc(ld->m->arena, (s->nparams ? s->nparams : 1) * sizeof *tvs);
  for (size_t i = 0; i < s->nparams; i++) {
    for (size_t j = 0; j < i; j++)
      if (strcmp(s->params[i], s->params[j]) == 0) {
        err(ld, s->param_locs[i], "parameter '%s' appears twice", s->params[i]);
        return;
      }
    tvs[i] = tv_new(ld, -1);
    scope *p = (scope *)bind(ld, sc, s->params[i], B_NODE);
    p->node = node_op(ld, CAT_OP_EMPTY, s->param_locs[i], NULL, NULL, CAT_NONE, tvs[i]);
    sc = p;
  }
  if (!resolve_def(ld, sc, s->binds[0].e, s->binds[0].name)) return;
  scope *f = (scope *)bind(ld, ld->sc, s->binds[0].name, B_FUN);
  f->fun = s;
  f->fun_scope = ld->sc;
  f->param_tvs = tvs;
  set_sc(ld, f);
}

static void stmt_check(loader *ld, const cat_stmt *s);
static void stmt_rec(loader *ld, const cat_stmt *s) {
  cat_group g = {lc_arena_alloc(ld->m->arena, s->nbinds * sizeof(size_t)), s->nbinds};
  size_t gi = ld->m->groups.n;
  const scope *sc = ld->sc;
  for (size_t i = 0; i < s->nbinds; i++) {
    for (size_t j = 0; j < i; j++)
      if (strcmp(s->binds[i].name, s->binds[j].name) == 0) {
        err(ld, s->binds[i].loc, "'%s' is defined twice in this let rec", s->binds[i].name);
        return;
      }
    g.members[i] = val_new(ld, CAT_V_DEF, s->binds[i].name, s->binds[i].loc, tv_new(ld, -1));
    ld->m->vals.v[g.members[i]].group = gi;
    scope *b = (scope *)bind(ld, sc, s->binds[i].name, B_VAL);
    b->val = g.members[i];
    sc = b;
  }
  lc_vec_push(&ld->m->groups, g);
  for (size_t i = 0; i < s->nbinds; i++) {
    cat_node *n = resolve(ld, sc, s->binds[i].e, gi);
    if (!n) return;
    cat_val *v = &ld->m->vals.v[g.members[i]];   /* after resolve: vals may have moved */
    v->body = n;
    if (!tv_unify(ld, v->tv, n->tv)) {
      err(ld, s->binds[i].loc, "type error: '%s' is used as %s but defined as %s", v->name,
          type_name(tv_type(ld, v->tv)), type_name(tv_type(ld, n->tv)));
      return;
    }
  }
  set_sc(ld, sc);
  /* herd's `let rec ... when CHECK`: the check, on the fixed point */
  if (s->nbody) stmt_check(ld, s->body[0]);
}

static bool check_named(const loader *ld, const char *name) {
  return lc_names_get(&ld->check_names, name, strlen(name)) != LC_NAMES_NONE;
}

/* herd's checks may be unnamed, and a procedure called twice repeats its
 * checks' names: those get a name of their own (NAME, NAME-2, ...).  The
 * k to try next is kept per base name: counting from 2 again for each
 * repeat took 4,000 unnamed `acyclic po` 49 s. */
static const char *fresh_check_name(loader *ld, const char *base) {
  if (!check_named(ld, base)) return base;
  size_t len = strlen(base);
  size_t k = lc_names_get(&ld->next_suffix, base, len);
  if (k == LC_NAMES_NONE) k = 2;
  lc_buf b;
  lc_buf_init(&b);
  for (;; k++) {
    b.n = 0;
    lc_buf_printf(&b, "%s-%zu", base, k);
    if (!check_named(ld, b.s)) break;
  }
  const char *r = lc_arena_strdup(ld->m->arena, b.s);
  lc_buf_fini(&b);
  lc_names_put(&ld->next_suffix, base, len, k + 1);
  return r;
}

static void add_check(loader *ld, cat_check_kind kind, bool flag, bool undef, const char *name,
                      cat_node *n, lc_loc at) {
  cat_check c = {kind, flag, undef, name, n, at};
  if (!check_named(ld, name)) lc_names_put(&ld->check_names, name, strlen(name), ld->m->checks.n);
  lc_vec_push(&ld->m->checks, c);
}

static cat_node *ref_builtin(loader *ld, const char *name, cat_type t, lc_loc at) {
  return node_ref(ld, builtin_val(ld, name, t, at), at, CAT_NONE);
}

static void stmt_check(loader *ld, const cat_stmt *s) {
  static const char *const kw[] = {"'acyclic' needs a relation", "'irreflexive' needs a relation"};
  static const char *const base[] = {"acyclic", "irreflexive", "empty"};
  /* herd lets two checks share a name (c11_base.cat's two NaRf): both
   * apply, and the second is reported here as NAME-2 */
  const char *name = s->name;
  if (!name) name = ld->call_name ? ld->call_name : s->undef ? "undefined" : s->asserted ? "assert" : base[s->check];
  name = fresh_check_name(ld, name);
  cat_node *n = resolve(ld, ld->sc, s->e, CAT_NONE);
  if (!n) return;
  if (s->check != CAT_CHECK_EMPTY && !need(ld, n, CAT_TY_REL, s->loc, kw[s->check], "its operand"))
    return;
  if (s->asserted) {
    /* a flag raised when the check fails: r+ & id (acyclic), r & id
     * (irreflexive) or E (empty) is not empty */
    if (s->check != CAT_CHECK_EMPTY) {
      int rel = tv_new(ld, CAT_TY_REL);
      cat_node *r = s->check == CAT_CHECK_ACYCLIC ? node_op(ld, CAT_OP_PLUS, s->loc, n, NULL, CAT_NONE, rel) : n;
      n = node_op(ld, CAT_OP_INTER, s->loc, r, ref_builtin(ld, "id", CAT_TY_REL, s->loc), CAT_NONE, rel);
    }
    add_check(ld, CAT_CHECK_EMPTY, true, false, name, n, s->loc);
    return;
  }
  if (s->negated) {
    /* herd's `~acyclic E` holds when E+ & id is not empty (`~irreflexive
     * E`: E & id, `~empty E`: E).  With X that relation, the check is
     * `empty [_ \ domain((_ * _); X; (_ * _))]`: the domain is every
     * event when X has a pair, none when it has not (a test always has
     * events, its initial writes). */
    int rel = tv_new(ld, CAT_TY_REL), set = tv_new(ld, CAT_TY_SET);
    cat_node *x = n;
    if (s->check == CAT_CHECK_EMPTY && tv_type(ld, n->tv) == (int)CAT_TY_SET)
      x = node_op(ld, CAT_OP_IDSET, s->loc, n, NULL, CAT_NONE, rel);
    else if (s->check != CAT_CHECK_EMPTY) {
      cat_node *r = s->check == CAT_CHECK_ACYCLIC ? node_op(ld, CAT_OP_PLUS, s->loc, n, NULL, CAT_NONE, rel) : n;
      x = node_op(ld, CAT_OP_INTER, s->loc, r, ref_builtin(ld, "id", CAT_TY_REL, s->loc), CAT_NONE, rel);
    }
    cat_node *all = node_op(ld, CAT_OP_COMPL, s->loc, node_op(ld, CAT_OP_EMPTY, s->loc, NULL, NULL, CAT_NONE, set),
                            NULL, CAT_NONE, set);
    cat_node *full = node_op(ld, CAT_OP_PRODUCT, s->loc, all, all, CAT_NONE, rel);
    cat_node *spread = node_op(ld, CAT_OP_SEQ, s->loc, node_op(ld, CAT_OP_SEQ, s->loc, full, x, CAT_NONE, rel),
                               full, CAT_NONE, rel);
    cat_node *none = node_op(ld, CAT_OP_DIFF, s->loc, all,
                             node_op(ld, CAT_OP_DOMAIN, s->loc, spread, NULL, CAT_NONE, set), CAT_NONE, set);
    add_check(ld, CAT_CHECK_EMPTY, s->flag, s->undef, name,
              node_op(ld, CAT_OP_IDSET, s->loc, none, NULL, CAT_NONE, rel), s->loc);
    return;
  }
  add_check(ld, s->check, s->flag, s->undef, name, n, s->loc);
}

/* include "path": beside the including file first, then the search path. */
static void stmt_include(loader *ld, const cat_stmt *s) {
  const char *from = s->loc.file;
  const char *slash = strrchr(from, '/');
  lc_buf p;
  lc_buf_init(&p);
  if (s->path[0] == '/' || !slash) lc_buf_puts(&p, s->path);
  else lc_buf_printf(&p, "%.*s/%s", (int)(slash - from + 1) - 1, from, s->path);
  bool found = access(p.s, R_OK) == 0;
  for (const char *const *dir = ld->search; !found && s->path[0] != '/' && dir && *dir; dir++) {
    p.n = 0;
    lc_buf_printf(&p, "%s/%s", *dir, s->path);
    found = access(p.s, R_OK) == 0;
  }
  /* A model in a subfolder of herd's libdir (arm-models/mixed/ec.cat)
   * includes the libdir's files by name, which herd7 finds in its libdir:
   * the nearest folder above the including file that holds herd's
   * stdlib.cat stands for it (a fixed number of levels, not the input's). */
  const char *end = slash;
  for (int up = 0; !found && s->path[0] != '/' && end && end > from && up < 8; up++) {
    do end--; while (end > from && *end != '/');
    if (*end != '/') break;
    p.n = 0;
    lc_buf_printf(&p, "%.*s/stdlib.cat", (int)(end - from), from);
    if (access(p.s, R_OK) != 0) continue;
    p.n = 0;
    lc_buf_printf(&p, "%.*s/%s", (int)(end - from), from, s->path);
    found = access(p.s, R_OK) == 0;
    break;
  }
  if (!found) err(ld, s->name_loc, "cannot find included file \"%s\"", s->path);
  else load_file(ld, p.s, NULL, s->name_loc);
  lc_buf_fini(&p);
}

/* The value the command line gives option `name`, or NULL. */
static const char *setting(loader *ld, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; ld->settings && ld->settings[i]; i++)
    if (strncmp(ld->settings[i], name, n) == 0 && ld->settings[i][n] == '=') {
      ld->settings_used[i] = true;
      return ld->settings[i] + n + 1;
    }
  return NULL;
}

static cat_expr *mk_expr(loader *ld, cat_expr_kind kind, lc_loc at) {
  cat_expr *e = lc_arena_alloc(ld->m->arena, sizeof *e);
  e->kind = kind;
  e->loc = at;
  return e;
}

/* `option o v1 v2 ...` defines the sets o.v1, o.v2, ...: all events for
 * the option's value (the command line's, else v1), none for the others.
 * A model tests an option by intersecting with its set, e.g.
 * `acyclic [o.v1]; r` checks r only when o is v1. */
static void stmt_option(loader *ld, const cat_stmt *s) {
  const char *value = setting(ld, s->name);
  size_t chosen = 0;
  if (value) {
    while (chosen < s->nparams && strcmp(s->params[chosen], value) != 0) chosen++;
    if (chosen == s->nparams) {
      lc_buf b;
      lc_buf_init(&b);
      for (size_t i = 0; i < s->nparams; i++) lc_buf_printf(&b, "%s%s", i ? ", " : "", s->params[i]);
      err(ld, s->name_loc, "--set %s=%s: option '%s' takes %s", s->name, value, s->name, b.s);
      lc_buf_fini(&b);
      return;
    }
  }
  for (size_t i = 0; i < s->nparams && !ld->failed; i++) {
    cat_stmt let = {0};
    cat_binding bind = {0};
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s.%s", s->name, s->params[i]);
    bind.name = lc_arena_strdup(ld->m->arena, b.s);
    lc_buf_fini(&b);
    bind.loc = s->param_locs[i];
    bind.e = mk_expr(ld, CAT_X_ALL, s->param_locs[i]);
    if (i != chosen) {   /* _ \ _: the empty set, a set whatever the context */
      cat_expr *all = bind.e;
      bind.e = mk_expr(ld, CAT_X_DIFF, s->param_locs[i]);
      bind.e->a = all;
      bind.e->b = mk_expr(ld, CAT_X_ALL, s->param_locs[i]);
    }
    let.kind = CAT_S_LET;
    let.loc = s->loc;
    let.binds = &bind;
    let.nbinds = 1;
    stmt_let(ld, &let);
  }
}

static void statement(loader *ld, const cat_stmt *s);

static void stmt_proc(loader *ld, const cat_stmt *s) {
  scope *b = (scope *)bind(ld, ld->sc, s->name, B_PROC);
  b->fun = s;
  b->fun_scope = ld->sc;
  set_sc(ld, b);
}

/* call P(args) [as name]: the procedure's statements, in the scope of its
 * definition with the parameters bound; its definitions stay local, its
 * checks are the model's. */
static void stmt_call(loader *ld, const cat_stmt *s) {
  for (const frame *up = ld->calls; up; up = up->up)
    if (strcmp(up->fun, s->name) == 0) {
      err(ld, s->name_loc, "procedure '%s' calls itself (recursive procedures are not supported)", s->name);
      return;
    }
  const scope *b = lookup(ld, ld->sc, s->name);
  if (!b || b->kind != B_PROC) {
    if (b && b->kind == B_OPAQUE) not_plain(ld, b, s->name, s->name_loc);
    else if (b) err(ld, s->name_loc, "'%s' is not a procedure", s->name);
    else unknown(ld, s->name_loc, "procedure", s->name);
    return;
  }
  const cat_stmt *f = b->fun;
  if (s->nargs != f->nparams) {
    err(ld, s->name_loc, "wrong number of arguments: '%s' takes %zu, given %zu", s->name, f->nparams, s->nargs);
    return;
  }
  cat_expr site = {CAT_X_CALL, s->name_loc, s->name, NULL, NULL, s->args, s->nargs, NULL, 0, 1};
  for (size_t i = 0; i < s->nargs; i++)
    if (s->args[i]->height >= site.height) site.height = s->args[i]->height + 1;
  const scope *body = b->fun_scope;
  for (size_t i = 0; i < s->nargs; i++) {
    cat_node *a = resolve(ld, ld->sc, s->args[i], CAT_NONE);
    if (!a) return;
    body = bind_arg(ld, body, &site, f, i, a, CAT_NONE);
  }
  if (too_deep(ld, s->name_loc) || too_big(ld, &site)) return;
  frame fr = {s->name, s->name_loc, ld->calls};
  const scope *saved = ld->sc;
  const char *saved_name = ld->call_name;
  ld->calls = &fr;
  set_sc(ld, body);
  /* an unnamed check is named after the outermost call without `as`:
   * c11popl15's `call AtRMW()` states its axiom with herd's stdlib
   * `call subseteq(...)`, and the check is AtRMW */
  ld->call_name = s->as ? s->as : saved_name ? saved_name : s->name;
  for (size_t i = 0; i < f->nbody && !ld->failed; i++) statement(ld, f->body[i]);
  set_sc(ld, saved);
  ld->calls = fr.up;
  ld->call_name = saved_name;
}


/* with NAME from generate_cos(E) | generate_orders(W, E): in herd, NAME
 * ranges over the per-location total orders of the writes that include E
 * (cross.cat).  Here the engine's co is that choice: NAME names co, which
 * must be total per location and include E. */
/* Is e herd's C lock sets (LK, LS, UL, unions of them) as the prelude
 * defines them: empty in every test read here? */
static bool only_lock_sets(const loader *ld, const cat_expr *e) {
  if (e->kind == CAT_X_UNION) return only_lock_sets(ld, e->a) && only_lock_sets(ld, e->b);
  if (e->kind != CAT_X_NAME || (strcmp(e->name, "LK") != 0 && strcmp(e->name, "LS") != 0 && strcmp(e->name, "UL") != 0))
    return false;
  const scope *b = lookup(ld, ld->sc, e->name);
  for (const scope *p = ld->prelude; p; p = p->next)
    if (p == b) return true;
  return false;
}

/* A node as a value of its own (a reference stays one), so that it is
 * evaluated once. */
static size_t val_of(loader *ld, cat_node *n, const char *name, lc_loc at) {
  if (n->kind == CAT_N_REF) return n->ref;
  size_t v = val_new(ld, CAT_V_DEF, name, at, n->tv);
  ld->m->vals.v[v].body = n;
  return v;
}

/* with NAME from linearisations(S, R): in herd (lib/interpreter.ml,
 * `linearisations` and `WithFrom`; innerRel.ml's all_topos over R's
 * transitive closure), NAME ranges over the strict total orders of S that
 * include R+ & (S * S), and the rest of the model is evaluated once per
 * order, each a candidate of its own: an execution is allowed when one
 * order passes every check, and none is when R+ has a cycle within S.
 * Here NAME is a CAT_OP_LINEAR node (its backend's choice), and the check
 * NAME-exists (`irreflexive [S]; R+; [S]`) fails when there is no order. */
static void stmt_with_lin(loader *ld, const cat_stmt *s) {
  const cat_expr *e = s->e;
  lc_loc at = e->loc;
  cat_node *set = resolve(ld, ld->sc, e->args[0], CAT_NONE);
  if (!set || !need(ld, set, CAT_TY_SET, e->args[0]->loc, "linearisations needs a set", "its first argument"))
    return;
  cat_node *r = resolve(ld, ld->sc, e->args[1], CAT_NONE);
  if (!r || !need(ld, r, CAT_TY_REL, e->args[1]->loc, "linearisations needs a relation", "its second argument"))
    return;
  size_t sv = val_of(ld, set, "linearisations(S)", e->args[0]->loc);
  size_t rv = val_of(ld, r, "linearisations(r)", e->args[1]->loc);
  int rel = tv_new(ld, CAT_TY_REL);
  lc_buf nm;
  lc_buf_init(&nm);
  lc_buf_printf(&nm, "%s-exists", s->name);
  const char *check = fresh_check_name(ld, lc_arena_strdup(ld->m->arena, nm.s));
  lc_buf_fini(&nm);
  cat_node *ids1 = node_op(ld, CAT_OP_IDSET, at, node_ref(ld, sv, at, CAT_NONE), NULL, CAT_NONE, rel);
  cat_node *ids2 = node_op(ld, CAT_OP_IDSET, at, node_ref(ld, sv, at, CAT_NONE), NULL, CAT_NONE, rel);
  cat_node *plus = node_op(ld, CAT_OP_PLUS, at, node_ref(ld, rv, at, CAT_NONE), NULL, CAT_NONE, rel);
  cat_node *within = node_op(ld, CAT_OP_SEQ, at, node_op(ld, CAT_OP_SEQ, at, ids1, plus, CAT_NONE, rel), ids2,
                             CAT_NONE, rel);
  add_check(ld, CAT_CHECK_IRREFLEXIVE, false, false, check, within, s->loc);
  size_t ord = val_new(ld, CAT_V_DEF, s->name, s->loc, rel);
  ld->m->vals.v[ord].body = node_op(ld, CAT_OP_LINEAR, at, node_ref(ld, sv, at, CAT_NONE),
                                    node_ref(ld, rv, at, CAT_NONE), CAT_NONE, rel);
  scope *b = (scope *)bind(ld, ld->sc, s->name, B_VAL);
  b->val = ord;
  set_sc(ld, b);
}

static void stmt_with(loader *ld, const cat_stmt *s) {
  const cat_expr *e = s->e;
  if (e->kind == CAT_X_CALL && strcmp(e->name, "linearisations") == 0 && e->nargs == 2 &&
      !lookup(ld, ld->sc, e->name)) {
    stmt_with_lin(ld, s);
    return;
  }
  bool cos = e->kind == CAT_X_CALL && strcmp(e->name, "generate_cos") == 0 && e->nargs == 1;
  bool orders = e->kind == CAT_X_CALL && strcmp(e->name, "generate_orders") == 0 && e->nargs == 2;
  if (!cos && !orders) {
    err(ld, e->loc, "'with %s from E' is supported for E = linearisations(S, R), generate_cos(R) or "
        "generate_orders(S, R) (herd's cross.cat: the coherence orders that include R) only", s->name);
    return;
  }
  if (orders && only_lock_sets(ld, e->args[0])) {
    /* herd's lock order (c11_los.cat): the orders of an empty set are the
     * empty relation */
    int rel = tv_new(ld, CAT_TY_REL);
    size_t v = val_new(ld, CAT_V_DEF, s->name, s->loc, rel);
    ld->m->vals.v[v].body = node_op(ld, CAT_OP_EMPTY, s->loc, NULL, NULL, CAT_NONE, rel);
    scope *b = (scope *)bind(ld, ld->sc, s->name, B_VAL);
    b->val = v;
    set_sc(ld, b);
    return;
  }
  if (ld->with_co) {
    err(ld, s->loc, "a second 'with ... from': the engine chooses one coherence order");
    return;
  }
  ld->with_co = true;
  bool all_w = cos || (e->args[0]->kind == CAT_X_NAME && strcmp(e->args[0]->name, "W") == 0);
  lc_loc at = s->loc;
  /* generate_orders(S, R) for writes S other than W: the per-location total
   * orders of S are co & (S * S) (any of them extends to a co, so each is
   * met; herd's C11 models order the atomic writes so) */
  size_t set = CAT_NONE;
  if (!all_w) {
    cat_node *sn = resolve(ld, ld->sc, e->args[0], CAT_NONE);
    if (!sn || !need(ld, sn, CAT_TY_SET, e->args[0]->loc, "generate_orders needs a set", "its first argument"))
      return;
    set = sn->kind == CAT_N_REF ? sn->ref : val_new(ld, CAT_V_DEF, "generate_orders(S)", e->args[0]->loc, sn->tv);
    if (sn->kind != CAT_N_REF) ld->m->vals.v[set].body = sn;
  }
  cat_node *base = resolve(ld, ld->sc, e->args[e->nargs - 1], CAT_NONE);
  if (!base || !need(ld, base, CAT_TY_REL, e->loc, "generate_cos needs a relation", "its argument"))
    return;
  int rel = tv_new(ld, CAT_TY_REL);
#define S_REF() (all_w ? ref_builtin(ld, "W", CAT_TY_SET, at) : node_ref(ld, set, at, CAT_NONE))
  size_t ord;
  if (all_w) {
    ord = ref_builtin(ld, "co", CAT_TY_REL, at)->ref;
  } else {
    cat_node *ss = node_op(ld, CAT_OP_PRODUCT, at, S_REF(), S_REF(), CAT_NONE, rel);
    ord = val_new(ld, CAT_V_DEF, s->name, at, rel);
    ld->m->vals.v[ord].body = node_op(ld, CAT_OP_INTER, at, ref_builtin(ld, "co", CAT_TY_REL, at), ss, CAT_NONE, rel);
  }
  cat_node *ww = node_op(ld, CAT_OP_PRODUCT, at, S_REF(), S_REF(), CAT_NONE, rel);
  /* herd's orders of S include R's pairs between elements of S only
   * (c11_cos.cat's co0 also orders the initial write before a non-atomic
   * write, which mo leaves out) */
  if (!all_w)
    base = node_op(ld, CAT_OP_INTER, at, base, node_op(ld, CAT_OP_PRODUCT, at, S_REF(), S_REF(), CAT_NONE, rel),
                   CAT_NONE, rel);
#undef S_REF
  cat_node *pairs = node_op(ld, CAT_OP_INTER, at, ww, ref_builtin(ld, "loc", CAT_TY_REL, at), CAT_NONE, rel);
  cat_node *both = node_op(ld, CAT_OP_UNION, at, node_ref(ld, ord, at, CAT_NONE),
                           node_op(ld, CAT_OP_INVERSE, at, node_ref(ld, ord, at, CAT_NONE), NULL, CAT_NONE, rel),
                           CAT_NONE, rel);
  both = node_op(ld, CAT_OP_UNION, at, ref_builtin(ld, "id", CAT_TY_REL, at), both, CAT_NONE, rel);
  add_check(ld, CAT_CHECK_EMPTY, false, false, fresh_check_name(ld, "co-total"),
            node_op(ld, CAT_OP_DIFF, at, pairs, both, CAT_NONE, rel), at);
  add_check(ld, CAT_CHECK_EMPTY, false, false, fresh_check_name(ld, "co-includes"),
            node_op(ld, CAT_OP_DIFF, at, base, node_ref(ld, ord, at, CAT_NONE), CAT_NONE, rel), at);
  scope *b = (scope *)bind(ld, ld->sc, s->name, B_VAL);
  b->val = ord;
  set_sc(ld, b);
}

/* coherence total | partial: one word per model; a second one may only
 * repeat it (an included file may say it too). */
static void stmt_coherence(loader *ld, const cat_stmt *s) {
  if (ld->coherence && strcmp(ld->coherence->name, s->name) != 0) {
    err(ld, s->name_loc, "'coherence %s' contradicts 'coherence %s' at %s:%d", s->name, ld->coherence->name,
        ld->coherence->loc.file ? ld->coherence->loc.file : "?", ld->coherence->loc.line);
    return;
  }
  if (!ld->coherence) ld->coherence = s;
  ld->m->co = strcmp(s->name, "total") == 0 ? CAT_CO_TOTAL : CAT_CO_PARTIAL;
}

static void stmt_opaque(loader *ld, const cat_stmt *s) {
  for (size_t i = 0; i < s->nparams; i++) {
    scope *b = (scope *)bind(ld, ld->sc, s->params[i], B_OPAQUE);
    b->fun = s;
    b->via = s->params[i];
    set_sc(ld, b);
  }
}

static void statement(loader *ld, const cat_stmt *s) {
  switch (s->kind) {
  case CAT_S_SHOW: break;
  case CAT_S_PROC: stmt_proc(ld, s); break;
  case CAT_S_CALL: stmt_call(ld, s); break;
  case CAT_S_IF:
    for (size_t i = 0; i < s->nbody && !ld->failed; i++) statement(ld, s->body[i]);
    break;
  case CAT_S_WITH: stmt_with(ld, s); break;
  case CAT_S_COHERENCE: stmt_coherence(ld, s); break;
  case CAT_S_OPAQUE: stmt_opaque(ld, s); break;
  case CAT_S_OPTION: stmt_option(ld, s); break;
  case CAT_S_LET: stmt_let(ld, s); break;
  case CAT_S_FUN: stmt_fun(ld, s); break;
  case CAT_S_REC: stmt_rec(ld, s); break;
  case CAT_S_CHECK: stmt_check(ld, s); break;
  case CAT_S_INCLUDE: stmt_include(ld, s); break;
  }
}

/* ---- files ---------------------------------------------------------------------- */

/* The name a file is known by for cycle detection. */
static char *identity(const char *path) {
  char *r = realpath(path, NULL);
  return r ? r : lc_xstrdup(path);
}

static void cycle_error(loader *ld, const char *id, const char *path, lc_loc site) {
  size_t first = 0;
  while (strcmp(ld->reading.v[first], id) != 0) first++;
  lc_buf b;
  lc_buf_init(&b);
  for (size_t i = first; i < ld->reading_names.n; i++) lc_buf_printf(&b, "%s -> ", ld->reading_names.v[i]);
  lc_buf_puts(&b, path);
  err(ld, site, "include cycle: %s", b.s);
  lc_buf_fini(&b);
}

/* The architecture a file's header names when it is one of herd's or
 * Dartagnan's that litmus-check does not read (AArch64, Power, ...), or
 * NULL: an unknown name in such a model is one of that architecture's
 * events, and its error says so. */
static const char *foreign_arch(const char *header) {
  static const char *const archs[][2] = {
    {"aarch64", "AArch64"}, {"armv8", "AArch64"}, {"aarch32", "AArch32"}, {"arm", "ARM"}, {"power", "Power"}, {"ppc", "Power"},
    {"x86", "x86"}, {"tso", "x86"}, {"riscv", "RISC-V"}, {"risc-v", "RISC-V"}, {"mips", "MIPS"},
    {"lisa", "the Linux kernel (LISA)"}, {"linux", "the Linux kernel"}, {"lkmm", "the Linux kernel"},
    {"opencl", "OpenCL"}, {"vulkan", "Vulkan"}, {"bpf", "eBPF"}, {"java", "Java"}, {"jvm", "Java"},
    {"sparc", "SPARC"}, {"asl", "AArch64 (ASL)"}};
  if (!header) return NULL;
  for (size_t i = 0; i < LC_ARRAY_LEN(archs); i++)
    if (strncasecmp(header, archs[i][0], strlen(archs[i][0])) == 0) return archs[i][1];
  return NULL;
}

/* Reads, parses and processes one file; `given` supplies the text of a
 * model loaded from a string.  `site` is the include that asks for it. */
static int load_file(loader *ld, const char *path, const lc_source *given, lc_loc site) {
  char *id = identity(path);
  for (size_t i = 0; i < ld->reading.n; i++)
    if (strcmp(ld->reading.v[i], id) == 0) {
      cycle_error(ld, id, path, site);
      free(id);
      return -1;
    }
  lc_source *src = lc_xcalloc(1, sizeof *src);
  if (given) {
    lc_source_from_string(src, given->name, given->text, given->len);
  } else if (lc_source_read(src, path) < 0) {
    if (site.file) err(ld, site, "cannot read included file \"%s\": %s", path, strerror(errno));
    else err(ld, (lc_loc){path, 0, 0}, "cannot read model file: %s", strerror(errno));
    free(src);
    free(id);
    return -1;
  }
  lc_vec_push(&ld->m->sources, src);
  cat_file *f = cat_parse_variants(ld->m->arena, src->name, src->text, src->len, (const char *const *)ld->variants, ld->d);
  if (!f) ld->failed = true;
  if (f && ld->reading.n == 0 && f->model_name) ld->m->name = lc_xstrdup(f->model_name);
  /* Dartagnan's PTX models start with the bare word PTX (ours with a
   * string naming the version) */
  if (f && ld->reading.n == 0 && f->header_word && strcmp(f->header_word, "PTX") == 0 &&
      f->model_name == f->header_word)
    ld->dartagnan_ptx = true;
  lc_vec_push(&ld->reading, id);
  lc_vec_push(&ld->reading_names, src->name);
  const char *outer_arch = ld->arch;
  const char *base = strrchr(src->name, '/');
  const char *arch = f ? foreign_arch(f->header_word) : NULL;
  if (f && !arch) arch = foreign_arch(base ? base + 1 : src->name);   /* ppcfences.cat, riscv.cat */
  if (arch) ld->arch = arch;
  for (size_t i = 0; f && i < f->nstmts && !ld->failed; i++) statement(ld, f->stmts[i]);
  ld->arch = outer_arch;
  ld->reading.n--;
  ld->reading_names.n--;
  free(id);
  return ld->failed ? -1 : 0;
}

/* ---- the model ------------------------------------------------------------------- */

static cat_type operand_type(const cat_node *n) {
  switch (n->op) {
  case CAT_OP_EMPTY: case CAT_OP_UNION: case CAT_OP_INTER: case CAT_OP_DIFF: case CAT_OP_COMPL:
    return n->rtype;
  case CAT_OP_PRODUCT: case CAT_OP_IDSET: case CAT_OP_LINEAR:
    return CAT_TY_SET;
  default:
    return CAT_TY_REL;
  }
}

/* Whatever inference left open is a relation; then every node and value
 * gets its final type, and a check of a set S becomes a check of [S]. */
static void finish_types(loader *ld) {
  for (size_t i = 0; i < ld->tvs.n; i++)
    if (tv_type(ld, (int)i) < 0) ld->tvs.v[tv_find(ld, (int)i)].type = CAT_TY_REL;
  for (size_t i = 0; i < ld->nodes.n; i++) {
    cat_node *n = ld->nodes.v[i];
    n->rtype = (cat_type)tv_type(ld, n->tv);
    n->type = n->kind == CAT_N_REF ? n->rtype : operand_type(n);
  }
  for (size_t i = 0; i < ld->m->vals.n; i++)
    ld->m->vals.v[i].type = (cat_type)tv_type(ld, ld->m->vals.v[i].tv);
  for (size_t i = 0; i < ld->m->checks.n; i++) {
    cat_check *c = &ld->m->checks.v[i];
    if (c->e->rtype != CAT_TY_SET) continue;
    cat_node *id = node_op(ld, CAT_OP_IDSET, c->e->loc, c->e, NULL, CAT_NONE, c->e->tv);
    id->type = CAT_TY_SET;
    id->rtype = CAT_TY_REL;
    c->e = id;
  }
}

static char *default_name(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 4 && strcmp(base + n - 4, ".cat") == 0) n -= 4;
  return lc_xstrndup(base, n);
}

/* The file names that positions point to die with the model; messages
 * keep their full text but lose the pointer. */
static void forget_files(const cat_model *m, lc_diag *d, size_t first_msg) {
  for (size_t i = first_msg; i < d->msgs.n; i++)
    for (size_t j = 0; j < m->sources.n; j++)
      if (d->msgs.v[i].loc.file == m->sources.v[j]->name) d->msgs.v[i].loc.file = NULL;
}

/* A setting no option of the model took is an error: a misspelt option
 * must not silently leave the default in place. */
static int unused_settings(loader *ld) {
  for (size_t i = 0; ld->settings && ld->settings[i]; i++) {
    if (ld->settings_used[i]) continue;
    const char *eq = strchr(ld->settings[i], '=');
    if (!eq)
      lc_error(ld->d, (lc_loc){0}, "--set %s: expected NAME=VALUE", ld->settings[i]);
    else
      lc_error(ld->d, (lc_loc){0}, "--set %s: the model has no option '%.*s'", ld->settings[i],
               (int)(eq - ld->settings[i]), ld->settings[i]);
    return -1;
  }
  return 0;
}

/* What herd defines for every model (its stdlib.cat and the sets of its
 * C architecture) in terms of the builtins, so that herd's models read
 * unchanged.  A model's own definitions shadow these.  FW, herd's final
 * writes, are the co-maximal ones. */
static const char herd_prelude[] =
  "let emptyset = _ \\ _\n"
  "let po-loc = po & loc\n"
  "let rfe = rf & ext\n"
  "let rfi = rf & int\n"
  "let RMW = domain(rmw) | range(rmw)\n"
  "let NA = M & WEAK\n"
  "let FW = W \\ domain(co)\n"
  "let co0 = loc & ((IW * (W \\ IW)) | ((W \\ FW) * FW))\n"
  /* herd's pco, the pairs of co known before co is chosen (herd/mem.ml):
   * the initial write before the other writes, and every write before the
   * final one, to each location; herd adds the pairs uniproc forces only
   * under -optace true, and a model that reads pco checks uniproc itself */
  "let pco = co0\n"
  /* herd's stdlib.cat and Dartagnan's: the external and internal parts of
   * co and fr */
  "let coe = co & ext\n"
  "let coi = co & int\n"
  "let fre = fr & ext\n"
  "let fri = fr & int\n"
  /* herd's stdlib.cat: its functions and procedures over relations (the
   * c11popl15 models call subseteq without defining it) */
  "let toid(s) = [s]\n"
  "let ctrlcfence(ctrl, CFENCE) = (ctrl & (_ * CFENCE)); po\n"
  "procedure subseteq(A, B) = empty (A \\ B) end\n"
  "procedure inclusion(r1, r2) = empty r1 \\ r2 end\n"
  "procedure total(r, E) = let rt = (r | r^-1) call inclusion((E * E), rt) end\n"
  /* herd's C lock events (lock, successful lock, unlock): the C dialect
   * read here has no lock calls, so they are empty in every test */
  "let LK = _ \\ _\n"
  "let LS = _ \\ _\n"
  "let UL = _ \\ _\n";

/* More of herd's and Dartagnan's names, for events the tests read here do
 * not have or have in one form only; read after herd_prelude, and left
 * out of the relations --show lists (cat_model_relations): they are
 * empty or the builtins under another name. */
#define OTHER_NAMES "(herd's and Dartagnan's other names)"
static const char other_prelude[] =
  /* herd's and Dartagnan's loc relates every memory event to itself too
   * (Dartagnan's dynamic_tag(X) = [range([IW & X]; loc)] keeps the
   * initial write); the engines' builtin relates distinct events only.
   * The two differ only on pairs (e, e): an expression that keeps such
   * a pair from loc (the shipped models' `[W]; cause; [W]) & loc`) sees
   * one only when its other operand relates an event to itself, which
   * the checks forbid anyway (a cycle of cause, of hb). */
  "let loc = loc | [M]\n"
  "let LKR = _ \\ _\n"
  "let LKW = _ \\ _\n"
  "let LF = _ \\ _\n"
  "let RL = _ \\ _\n"
  "let RU = _ \\ _\n"
  /* herd's C RMW and X (CAction.ml: both name the events of read-modify-
   * writes); no exclusives (EX), page-table entries (PTE), speculation,
   * branches or register events here; every memory event is explicit */
  "let X = RMW\n"
  /* herd's I: the initial writes, as IW.  herd7 dropped the name in 2022
   * (herdtools7 9076daa, "Remove binding I of initial writes"), but the
   * models its catalogue/c11popl15 generates from c11.cat7-template still
   * use it (`let asw = I * (M \ I)`) */
  "let I = IW\n"
  "let EX = _ \\ _\n"
  "let PTE = _ \\ _\n"
  "let Exp = M\n"
  "let NExp = _ \\ _\n"
  "let SPEC = _ \\ _\n"
  "let EXEC = _\n"
  "let SPURIOUS = _ \\ _\n"
  "let BCC = _ \\ _\n"
  "let PRED = _ \\ _\n"
  "let Rreg = _ \\ _\n"
  "let Wreg = _ \\ _\n"
  "let ADDR = _ \\ _\n"
  "let DATA = _ \\ _\n"
  "let NDATA = ADDR\n"
  /* herd's stdlib: PoD and BR are its branch-commit events (B), which
   * the tests read here do not have (B is the barrier events here) */
  /* Dartagnan's UB: events of undefined behaviour, none here */
  "let UB = _ \\ _\n"
  "let PoD = _ \\ _\n"
  "let BR = PoD\n"
  /* herd's primitives over sets of sets (classes-loc: the memory events
   * by location; classes, bisimulation, lift, delift, fulldelift,
   * tag2events, tag2instrs, tag2scope): herd's functional language, so a
   * definition using one is skipped (see below) */
  "let classes-loc = fun x -> x\n"
  "let tag2events = fun x -> x\n"
  "let tag2instrs = fun x -> x\n"
  "let tag2scope = fun x -> x\n"
  "let classes = fun x -> x\n"
  "let bisimulation = fun x -> x\n"
  "let lift = fun x -> x\n"
  "let delift = fun x -> x\n"
  "let fulldelift = fun x -> x\n"
  "let annot = _ \\ _\n"
  /* herd's relations between the events of one instruction: an
   * instruction here makes one event, but for a read-modify-write's two
   * halves, which rmw relates; a register is not an event, so rf-reg and
   * the intra-instruction orders are empty.  sm/si (same single-copy
   * atomic access) relate each memory event to itself (no mixed sizes). */
  "let rf-reg = id \\ id\n"
  "let iico_data = id \\ id\n"
  "let iico_ctrl = id \\ id\n"
  "let iico_order = id \\ id\n"
  "let si = [M]\n"
  "let sm = si\n"
  "let same-instr = id | rmw | rmw^-1\n"
  "let same-instance = same-instr\n"
  /* herd's stdlib.cat (HEAD): atomic operations and exclusive pairs, and
   * its set utilities; Dartagnan's amo and lxsx are the same */
  "let lxsx = id \\ id\n"
  "let amo = rmw\n"
  "let udr(r) = domain(r) | range(r)\n"
  "let imply(a, b) = ~a | b\n"
  "let nodetour(r1, r2, r3) = r1 \\ (r2; r3)\n"
  "let singlestep(r) = nodetour(r, r, r)\n"
  /* Dartagnan's NAL: the initial writes of the locations a C test
   * declares non-atomic (int* rather than atomic_int*).  The C front end
   * here keeps no declared types, so a location counts as non-atomic when
   * some access to it is non-atomic (docs/model-language.md) */
  "let NAL = IW & domain(loc; [M & WEAK \\ IW])\n"
  /* Dartagnan's casdep (its imm.cat): from the read of a compare-
   * exchange's expected value to the exchange (CASDependency, which
   * VisitorIMM tags on that read).  Here the expected value is a
   * register the exchange reads, not a memory event: none */
  "let casdep = id \\ id\n"
  /* Dartagnan's STRONG (its imm.cat): the write of a strong exclusive
   * read-modify-write, which its compilations make of LLVM IR's atomics
   * only (VisitorIMM, VisitorC11); a C test's atomics are not: none */
  "let STRONG = _ \\ _\n";

/* Other tools' names for builtins: Dartagnan's syncbar relates barrier
 * events of one barrier instance, which here is sync_bar (an arrive to the
 * waits it releases: the same order once composed with po on both sides,
 * as its PTX models use it); its ALIAS fences are fence.proxy.alias (AF). */
static const char *builtin_alias(const char *name) {
  static const char *const aliases[][2] = {{"syncbar", "sync_bar"}, {"ALIAS", "AF"}};
  for (size_t i = 0; i < LC_ARRAY_LEN(aliases); i++)
    if (strcmp(name, aliases[i][0]) == 0) return aliases[i][1];
  return NULL;
}

/* How many references to value `target` the expression n holds (an
 * explicit stack: expressions nest as deep as the model writes them). */
static size_t refs_to(const cat_node *n, size_t target) {
  size_t count = 0, cap = 16, top = 0;
  const cat_node **stack = lc_xmalloc(cap * sizeof *stack);
  stack[top++] = n;
  while (top) {
    const cat_node *x = stack[--top];
    if (!x) continue;
    if (x->kind == CAT_N_REF) {
      count += x->ref == target;
      continue;
    }
    if (top + 2 > cap) stack = lc_xrealloc(stack, (cap *= 2) * sizeof *stack);
    stack[top++] = x->a;
    stack[top++] = x->b;
  }
  free(stack);
  return count;
}

/* herd's C read-modify-write is one event that reads and writes; here it
 * is two events that rmw relates.  A model of herd's (one that generates
 * co with `with ... from`) whose checks never read rmw is written for
 * herd's one event (c11_base.cat's atomicity irreflexive (mo; mo; rf^-1),
 * simple-c11.cat's `empty (rf; [RMW]) \ cosucc`): it is evaluated over
 * that view (cat_onevent.c).  True for such a model; *at is where its
 * added check is placed. */
static bool herd_rmw(loader *ld, lc_loc *at) {
  size_t *uses = cat_count_uses(ld->m);
  size_t rmw = CAT_NONE, from_names = 0;
  for (size_t i = 0; i < ld->m->vals.n; i++) {
    const cat_val *v = &ld->m->vals.v[i];
    if (v->kind == CAT_V_BUILTIN && strcmp(v->name, "rmw") == 0) rmw = i;
  }
  /* the model's own reads of rmw, not those of the standard names it
   * uses (RMW is domain(rmw) | range(rmw)) */
  for (size_t i = 0; i < ld->m->vals.n && rmw != CAT_NONE; i++) {
    const cat_val *v = &ld->m->vals.v[i];
    if (v->kind == CAT_V_DEF && v->body && uses[i] > 0 && v->loc.file && v->loc.file[0] == '(')
      from_names += refs_to(v->body, rmw);
  }
  bool reads = rmw != CAT_NONE && uses[rmw] > from_names;
  free(uses);
  *at = ld->m->checks.n ? ld->m->checks.v[0].loc : (lc_loc){ld->m->path, 1, 1};
  return !reads;
}

/* used: NULL, or where to mark the settings the model took; then a
 * setting it has no option for is left to another model (cat_load_shared). */
static cat_model *load(const char *path, const lc_source *given, const char *const *search,
                       const char *const *settings, bool *used, lc_diag *d) {
  cat_model *m = lc_xcalloc(1, sizeof *m);
  m->arena = lc_arena_new();
  m->path = lc_xstrdup(path);
  loader ld = {0};
  ld.m = m;
  ld.d = d;
  ld.search = search;
  ld.settings = settings;
  size_t nsettings = 0;
  while (settings && settings[nsettings]) nsettings++;
  ld.settings_used = lc_xcalloc(nsettings + 1, sizeof *ld.settings_used);
  /* herd's variants (litmus-check --variant V, herd7's -variant V) come as
   * settings "variant:V" (no option name has a ':') */
  ld.variants = lc_xcalloc(nsettings + 1, sizeof *ld.variants);
  for (size_t i = 0, k = 0; i < nsettings; i++)
    if (strncmp(settings[i], "variant:", 8) == 0) {
      ld.variants[k++] = settings[i] + 8;
      ld.settings_used[i] = true;
    }
  size_t first_msg = d->msgs.n;
  lc_source prelude = {(char *)"(herd's standard names)", (char *)herd_prelude, strlen(herd_prelude), NULL, 0};
  lc_source other = {(char *)OTHER_NAMES, (char *)other_prelude, strlen(other_prelude), NULL, 0};
  int rc = load_file(&ld, prelude.name, &prelude, (lc_loc){0});
  if (rc == 0) rc = load_file(&ld, other.name, &other, (lc_loc){0});
  ld.prelude = ld.sc;
  if (rc == 0) rc = load_file(&ld, path, given, (lc_loc){0});
  if (rc == 0 && !used) rc = unused_settings(&ld);
  if (used) memcpy(used, ld.settings_used, nsettings * sizeof *used);
  free(ld.settings_used);
  free(ld.variants);
  lc_loc one_at = {0};
  bool one_event = rc == 0 && ld.with_co && herd_rmw(&ld, &one_at);
  if (rc == 0) finish_types(&ld);
  if (rc == 0 && one_event) cat_one_event_view(m, one_at);
  else forget_files(m, d, first_msg);
  lc_vec_free(&ld.reading);
  lc_vec_free(&ld.reading_names);
  lc_vec_free(&ld.tvs);
  lc_vec_free(&ld.nodes);
  lc_vec_free(&ld.chain);
  lc_vec_free(&ld.fresh);
  lc_names_fini(&ld.latest);
  lc_names_fini(&ld.check_names);
  lc_names_fini(&ld.next_suffix);
  if (rc < 0) {
    cat_model_free(m);
    return NULL;
  }
  if (!m->name) m->name = default_name(path);
  m->uses = cat_count_uses(m);
  return m;
}

static bool is_path(const char *s) {
  size_t n = strlen(s);
  return strchr(s, '/') || (n >= 4 && strcmp(s + n - 4, ".cat") == 0);
}

cat_model *cat_load(const char *name_or_path, const char *const *search, lc_diag *d) {
  return cat_load_set(name_or_path, search, NULL, d);
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "cuda-cpp, ptx-v6.0, ...": the .cat files of the search folders, for a
 * name that is none of them (a typo: ptx7.5). */
static void models_there(const char *const *search, lc_buf *out) {
  LC_VEC(char *) names = {0};
  for (const char *const *dir = search; dir && *dir; dir++) {
    DIR *dd = opendir(*dir);
    if (!dd) continue;
    struct dirent *e;
    while ((e = readdir(dd))) {
      size_t n = strlen(e->d_name);
      if (n <= 4 || e->d_name[0] == '.' || strcmp(e->d_name + n - 4, ".cat") != 0) continue;
      char *name = lc_xstrdup(e->d_name);
      name[n - 4] = '\0';
      bool seen = false;
      for (size_t i = 0; i < names.n && !seen; i++) seen = strcmp(names.v[i], name) == 0;
      if (seen) free(name);
      else lc_vec_push(&names, name);
    }
    closedir(dd);
  }
  qsort(names.v, names.n, sizeof(char *), cmp_names);
  for (size_t i = 0; i < names.n; i++) {
    lc_buf_printf(out, "%s%s", i ? ", " : "", names.v[i]);
    free(names.v[i]);
  }
  lc_vec_free(&names);
}

static cat_model *find_and_load(const char *name_or_path, const char *const *search,
                                const char *const *settings, bool *used, lc_diag *d) {
  assert(name_or_path && d);
  if (is_path(name_or_path)) return load(name_or_path, NULL, search, settings, used, d);
  lc_buf p, dirs;
  lc_buf_init(&p);
  lc_buf_init(&dirs);
  cat_model *m = NULL;
  for (const char *const *dir = search; dir && *dir; dir++) {
    p.n = 0;
    lc_buf_printf(&p, "%s/%s.cat", *dir, name_or_path);
    if (access(p.s, R_OK) == 0) {
      m = load(p.s, NULL, search, settings, used, d);
      goto out;
    }
    lc_buf_printf(&dirs, "%s%s", dirs.n ? ", " : "", *dir);
  }
  lc_buf known;
  lc_buf_init(&known);
  models_there(search, &known);
  lc_error(d, (lc_loc){0}, "model '%s' not found (looked for %s.cat in: %s)%s%s", name_or_path,
           name_or_path, dirs.n ? dirs.s : "no directories", known.n ? "; the models there: " : "",
           known.n ? known.s : "");
  lc_buf_fini(&known);
out:
  lc_buf_fini(&p);
  lc_buf_fini(&dirs);
  return m;
}

cat_model *cat_load_set(const char *name_or_path, const char *const *search,
                        const char *const *settings, lc_diag *d) {
  return find_and_load(name_or_path, search, settings, NULL, d);
}

cat_model *cat_load_shared(const char *name_or_path, const char *const *search,
                           const char *const *settings, bool *used, lc_diag *d) {
  assert(used);
  return find_and_load(name_or_path, search, settings, used, d);
}

cat_model *cat_load_string(const char *name, const char *text, const char *const *search,
                           lc_diag *d) {
  assert(name && text && d);
  lc_source src = {(char *)name, (char *)text, strlen(text), NULL, 0};
  return load(name, &src, search, NULL, NULL, d);
}

void cat_model_free(cat_model *m) {
  if (!m) return;
  for (size_t i = 0; i < m->sources.n; i++) {
    lc_source_fini(m->sources.v[i]);
    free(m->sources.v[i]);
  }
  lc_vec_free(&m->sources);
  lc_vec_free(&m->vals);
  lc_vec_free(&m->groups);
  lc_vec_free(&m->checks);
  free(m->uses);
  lc_arena_free(m->arena);
  free(m->name);
  free(m->path);
  free(m);
}

const char *cat_model_name(const cat_model *m) {
  assert(m);
  return m->name;
}

const char *cat_model_path(const cat_model *m) {
  assert(m);
  return m->path;
}

size_t cat_model_nchecks(const cat_model *m) {
  assert(m);
  return m->checks.n;
}

const char *cat_model_check_name(const cat_model *m, size_t i) {
  assert(m && i < m->checks.n);
  return m->checks.v[i].name;
}

bool cat_model_check_is_flag(const cat_model *m, size_t i) {
  assert(m && i < m->checks.n);
  return m->checks.v[i].flag;
}

cat_co_kind cat_model_co(const cat_model *m) {
  assert(m);
  return m->co;
}

bool cat_model_co_total(const cat_model *m, bool ptx_test) {
  assert(m);
  return m->co == CAT_CO_TOTAL || (m->co == CAT_CO_UNSAID && !ptx_test);
}

bool cat_model_check_is_undef(const cat_model *m, size_t i) {
  assert(m && i < m->checks.n);
  return m->checks.v[i].undef;
}

/* A definition named co or sc (the orders an engine chooses) whose body
 * closes an order (`+`, `*`) or is a `let rec`: Dartagnan's PTX models
 * say `let co = co+`, and every read of co then goes through a closure
 * the explicit engine cannot settle while it chooses co. */
bool cat_model_closes_order(const cat_model *m) {
  assert(m);
  for (size_t i = 0; i < m->vals.n; i++) {
    const cat_val *v = &m->vals.v[i];
    if (v->kind != CAT_V_DEF || !v->name || (strcmp(v->name, "co") != 0 && strcmp(v->name, "sc") != 0))
      continue;
    if (v->group != CAT_NONE) return true;
    LC_VEC(const cat_node *) todo = {0};
    bool closes = false;
    lc_vec_push(&todo, v->body);
    while (todo.n && !closes) {
      const cat_node *x = todo.v[--todo.n];
      if (x->kind == CAT_N_REF) continue;
      if (x->op == CAT_OP_PLUS || x->op == CAT_OP_STAR) closes = true;
      if (x->a) lc_vec_push(&todo, x->a);
      if (x->b) lc_vec_push(&todo, x->b);
    }
    lc_vec_free(&todo);
    if (closes) return true;
  }
  return false;
}

/* ---- the model's named relations (litmus-check --show) ----------------------------- */

/* A relation bound by `let` (or `let rec`) in a model file, not a
 * function argument's value ("f(x)"). */
static bool named_relation(const cat_val *v) {
  return v->kind == CAT_V_DEF && v->type == CAT_TY_REL && v->name && !strchr(v->name, '(') &&
         !(v->loc.file && strcmp(v->loc.file, OTHER_NAMES) == 0);
}

/* The definitions a check's expression reads without going through
 * another definition. */
static void mark_direct(const cat_node *n, bool *direct) {
  LC_VEC(const cat_node *) todo = {0};
  lc_vec_push(&todo, n);
  while (todo.n) {
    const cat_node *x = todo.v[--todo.n];
    if (x->kind == CAT_N_REF) {
      direct[x->ref] = true;
      continue;
    }
    if (x->a) lc_vec_push(&todo, x->a);
    if (x->b) lc_vec_push(&todo, x->b);
  }
  lc_vec_free(&todo);
}

size_t cat_model_relations(const cat_model *m, bool direct_only, size_t **out) {
  assert(m && out);
  size_t nv = m->vals.n;
  bool *direct = lc_xcalloc(nv + 1, sizeof(bool));
  for (size_t i = 0; i < m->checks.n; i++) mark_direct(m->checks.v[i].e, direct);
  size_t *v = lc_xcalloc(nv + 1, sizeof(size_t)), n = 0;
  for (size_t i = 0; i < nv; i++) {
    const cat_val *x = &m->vals.v[i];
    if (!named_relation(x) || (direct_only && !direct[i])) continue;
    /* a name bound again: its last definition, the one later code reads */
    bool later = false;
    for (size_t j = i + 1; j < nv && !later; j++) later = named_relation(&m->vals.v[j]) && !strcmp(m->vals.v[j].name, x->name);
    if (!later) v[n++] = i;
  }
  free(direct);
  *out = v;
  return n;
}

const char *cat_model_value_name(const cat_model *m, size_t v) {
  assert(m && v < m->vals.n);
  return m->vals.v[v].name;
}

bool cat_model_find_relation(const cat_model *m, const char *name, size_t *v) {
  assert(m && name && v);
  for (size_t i = m->vals.n; i-- > 0;)
    if (named_relation(&m->vals.v[i]) && !strcmp(m->vals.v[i].name, name)) {
      *v = i;
      return true;
    }
  return false;
}
