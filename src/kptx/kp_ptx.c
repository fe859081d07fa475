/* kp_ptx.c - the compiler's PTX module read into statements, and the
 * kernel's entry made one flat sequence with its .func calls inlined
 * (kp_int.h).
 * SPDX-License-Identifier: MIT
 *
 * PTX as nvcc and NVRTC write it: statements end at ';' (`.loc` and
 * `.file` at the end of their line), `{ }` open scopes (an inline asm
 * block declares registers and labels of its own there, and one asm
 * statement inlined twice declares them twice), labels end in ':'.  Each
 * name local to a copy - a scope's, a .func body's - gets a suffix, so
 * the evaluator (kp_gen.c) sees every register and label once.
 */
#include "kptx/kp_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CALL_DEPTH 8     /* .func calls inlined within one another */
#define MAX_FLAT 200000      /* statements after inlining */

void kp_fail(kp_err *e, int src_line, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  lc_error(e->d, (lc_loc){e->file, src_line > 0 ? src_line : 0, src_line > 0 ? 1 : 0}, "%s", msg);
  longjmp(e->fail, 1);
}

/* ---- statements ------------------------------------------------------------------------ */

typedef enum { ST_STMT, ST_LABEL, ST_OPEN, ST_CLOSE } st_kind;

typedef struct stmt {
  st_kind kind;
  const char *s;       /* text (arena, NUL-terminated), without the ';' */
  int line;
} stmt;

typedef LC_VEC(stmt) stmt_vec;

static bool id_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static bool id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static void split_statements(lc_arena *a, const char *t, stmt_vec *out, kp_module *m) {
  int line = 1;
  const char *p = t;
  while (*p) {
    if (*p == '\n') { line++; p++; continue; }
    if (isspace((unsigned char)*p)) { p++; continue; }
    if (p[0] == '/' && p[1] == '/') {
      const char *e = strchr(p, '\n');
      size_t n = e ? (size_t)(e - p) : strlen(p);
      const char *rel = strstr(p, "compilation tools, release ");
      if (rel && rel > p + n) rel = NULL;
      if (rel && !m->version_major) sscanf(rel + 27, "%d.%d", &m->version_major, &m->version_minor);
      p += n;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      for (const char *q = p; q < (e ? e : p + strlen(p)); q++) line += *q == '\n';
      p = e ? e + 2 : p + strlen(p);
      continue;
    }
    if (*p == '{' || *p == '}') {
      lc_vec_push(out, ((stmt){*p == '{' ? ST_OPEN : ST_CLOSE, NULL, line}));
      p++;
      continue;
    }
    /* a label: a name and ':' (not '::') at the start of a statement */
    if (id_start((unsigned char)*p) && *p != '%') {
      const char *q = p + 1;
      while (id_char((unsigned char)*q)) q++;
      if (q[0] == ':' && q[1] != ':') {
        lc_vec_push(out, ((stmt){ST_LABEL, lc_arena_strndup(a, p, (size_t)(q - p)), line}));
        p = q + 1;
        continue;
      }
    }
    /* directives that end with their line, not with ';' */
    bool to_eol = !strncmp(p, ".loc", 4) || !strncmp(p, ".file", 5) || !strncmp(p, ".version", 8) ||
                  !strncmp(p, ".target", 7) || !strncmp(p, ".address_size", 13);
    const char *s = p;
    int sline = line, depth = 0;
    bool directive = *p == '.';
    while (*p) {
      if (*p == '\n') {
        if (to_eol) break;
        line++;
      } else if (p[0] == '/' && p[1] == '/') {
        break;
      } else if (*p == '(' || *p == '[') {
        depth++;
      } else if (*p == ')' || *p == ']') {
        depth--;
      } else if (*p == ';' && depth <= 0) {
        break;
      } else if (*p == '{' && depth <= 0) {
        const char *b = p;
        while (b > s && isspace((unsigned char)b[-1])) b--;
        if (directive && !(b > s && b[-1] == '=')) break;
        depth++;
      } else if (*p == '}' && depth <= 0) {
        break;
      } else if (*p == '}') {
        depth--;
      }
      p++;
    }
    const char *e = p;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    if (e > s) lc_vec_push(out, ((stmt){ST_STMT, lc_arena_strndup(a, s, (size_t)(e - s)), sline}));
    if (*p == ';') p++;
  }
}

/* ---- the module's functions and variables ------------------------------------------------ */

typedef struct func {
  const char *name;
  bool entry, external;
  LC_VEC(const char *) params;   /* formal names, then the return names (rets of them) */
  LC_VEC(const char *) rets;
  size_t body, end;              /* statements (body) .. (end): inside the outer braces */
  const char *text;              /* the header, its directives (.reqnctapercluster) with it */
} func;

typedef LC_VEC(func) func_vec;

/* the words of a parameter list `(.param .b64 a, .param .b32 b[4])`: each part's last name */
static void param_names(lc_arena *a, const char *s, const char *e, void *vec) {
  LC_VEC(const char *) *v = vec;
  const char *p = s;
  while (p < e) {
    const char *c = p;
    int depth = 0;
    while (c < e && !(*c == ',' && depth == 0)) {
      if (*c == '[' || *c == '(') depth++;
      if (*c == ']' || *c == ')') depth--;
      c++;
    }
    const char *last = NULL, *lend = NULL;
    for (const char *q = p; q < c;) {
      if (*q == '[') break;
      if (id_start((unsigned char)*q) || *q == '.') {
        const char *w = q++;
        while (q < c && (id_char((unsigned char)*q) || *q == '.')) q++;
        if (*w != '.') last = w, lend = q;
      } else {
        q++;
      }
    }
    if (last) lc_vec_push(v, lc_arena_strndup(a, last, (size_t)(lend - last)));
    p = c < e ? c + 1 : c;
  }
}

/* `.visible .func (.param .b32 r) name(.param ...)`, `.entry name(...)`: name, returns, formals */
static void read_header(lc_arena *a, const char *s, func *f) {
  const char *p = s;
  while (*p && *p != '(' && !(id_start((unsigned char)*p) && *p != '.' && !(p > s && p[-1] == '.'))) {
    if (*p == '.') {
      while (*p && !isspace((unsigned char)*p) && *p != '(') p++;
    } else {
      p++;
    }
  }
  if (*p == '(') {   /* the return list */
    const char *e = strchr(p, ')');
    if (!e) return;
    param_names(a, p + 1, e, &f->rets);
    p = e + 1;
    while (isspace((unsigned char)*p)) p++;
  }
  const char *n = p;
  while (id_char((unsigned char)*p)) p++;
  f->name = lc_arena_strndup(a, n, (size_t)(p - n));
  while (isspace((unsigned char)*p)) p++;
  if (*p == '(') {
    const char *e = strrchr(p, ')');
    if (e) param_names(a, p + 1, e, &f->params);
  }
}

static bool has_word(const char *s, const char *w) {
  size_t n = strlen(w);
  for (const char *p = strstr(s, w); p; p = strstr(p + 1, w))
    if ((p == s || isspace((unsigned char)p[-1])) && (!p[n] || isspace((unsigned char)p[n]) || p[n] == '('))
      return true;
  return false;
}

/* _ZZ4kernPiE3buf -> buf (a function's static or __shared__ variable); others as they are */
static const char *demangle_var(lc_arena *a, const char *name) {
  if (strncmp(name, "_ZZ", 3)) return name;
  const char *e = strrchr(name, 'E');
  if (!e || !isdigit((unsigned char)e[1])) return name;
  char *end;
  long n = strtol(e + 1, &end, 10);
  if (n <= 0 || (size_t)n > strlen(end)) return name;
  return lc_arena_strndup(a, end, (size_t)n);
}

static int type_size(const char *s) {
  static const struct { const char *t; int n; } types[] = {
    {".b8", 1}, {".u8", 1}, {".s8", 1}, {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2},
    {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8}};
  for (size_t i = 0; i < LC_ARRAY_LEN(types); i++) {
    const char *p = strstr(s, types[i].t);
    if (p && (isspace((unsigned char)p[strlen(types[i].t)]) || !p[strlen(types[i].t)])) return types[i].n;
  }
  return 4;
}

/* `.global .align 4 .u32 x = 5`, `.shared .align 8 .b8 _ZZ..bar[16]` */
static void read_var(kp_err *e, lc_arena *a, const stmt *st, kp_module *m) {
  kp_sym v = {0};
  v.shared = has_word(st->s, ".shared");
  v.ptx_line = st->line;
  int tsize = type_size(st->s);
  int align = 0;
  const char *al = strstr(st->s, ".align");
  if (al) align = atoi(al + 6);
  /* the name: the last word before '[', '=' or the end */
  const char *stop = st->s + strcspn(st->s, "[=");
  const char *ne = stop;
  while (ne > st->s && isspace((unsigned char)ne[-1])) ne--;
  const char *nb = ne;
  while (nb > st->s && id_char((unsigned char)nb[-1])) nb--;
  if (nb == ne) kp_fail(e, 0, "%s line %d: a variable declaration without a name", e->ptx_name, st->line);
  v.name = lc_arena_strndup(a, nb, (size_t)(ne - nb));
  v.shown = demangle_var(a, v.name);
  long count = 1;
  if (*stop == '[') {
    count = strtol(stop + 1, NULL, 10);
    if (count <= 0)
      kp_fail(e, 0, "%s line %d: %s is an array of no size given (extern __shared__ arrays are sized by the "
              "launch, which this route does not model)", e->ptx_name, st->line, v.shown);
  }
  v.size = count * tsize;
  v.elem = tsize;
  /* bytes (.b8): the element size is the accesses' (kp_gen.c sets it at the first) */
  if (tsize == 1) v.elem = 0;
  (void)align;
  const char *eq = strchr(st->s, '=');
  if (eq) {   /* initial values, in elements of the declared type, then regrouped */
    LC_VEC(int64_t) raw = {0};
    for (const char *p = eq + 1; *p;) {
      if (isdigit((unsigned char)*p) || *p == '-') {
        char *end;
        lc_vec_push(&raw, (int64_t)strtoll(p, &end, 0));
        p = end;
      } else {
        p++;
      }
    }
    for (size_t k = 0; v.elem && k * (size_t)v.elem < raw.n * (size_t)tsize; k++) {
      int64_t x = 0;
      if (tsize == v.elem) x = raw.v[k];
      else   /* bytes, little-endian */
        for (int b = v.elem - 1; b >= 0; b--) {
          size_t i = k * (size_t)v.elem + (size_t)b;
          x = (x << 8) | (i < raw.n ? (raw.v[i] & 0xff) : 0);
        }
      lc_vec_push(&v.init, x);
    }
    if (!v.elem) {   /* bytes, grouped once the accesses give the element size */
      v.init.v = raw.v, v.init.n = raw.n, v.init.cap = raw.cap;
      raw.v = NULL;
    }
    free(raw.v);
  }
  lc_vec_push(&m->syms, v);
}

/* ---- statements made instructions ----------------------------------------------------------- */

static void split_ops(lc_arena *a, const char *s, kp_ins *in, kp_err *e, int line) {
  const char *p = s;
  while (*p) {
    while (isspace((unsigned char)*p)) p++;
    if (!*p) break;
    const char *c = p;
    int depth = 0;
    while (*c && !(*c == ',' && depth == 0)) {
      if (*c == '[' || *c == '(' || *c == '{') depth++;
      if (*c == ']' || *c == ')' || *c == '}') depth--;
      c++;
    }
    const char *ee = c;
    while (ee > p && isspace((unsigned char)ee[-1])) ee--;
    if (in->nops == KP_MAX_OPS)
      kp_fail(e, in->src_line, "%s line %d (source line %d): more than %d operands", e->ptx_name, line, in->src_line,
              KP_MAX_OPS);
    in->ops[in->nops++] = lc_arena_strndup(a, p, (size_t)(ee - p));
    p = *c ? c + 1 : c;
  }
}

/* ---- flattening ------------------------------------------------------------------------------- */

typedef struct scope {
  int id, parent;
  LC_VEC(const char *) names;    /* registers it declares and labels it defines */
} scope;

typedef LC_VEC(scope) scope_vec;

/* What the reader allocates besides the arena, freed by kp_module_fini
 * (an error leaves through longjmp with it still held). */
typedef struct scratch {
  stmt_vec st;
  func_vec funcs;
  scope_vec scopes;    /* of every copy: a copy's are a range, parents as indices */
} scratch;

typedef struct flat {
  kp_err *e;
  lc_arena *a;
  const stmt *st;
  size_t nst;
  func_vec *funcs;
  kp_module *m;
  int file;            /* the kernel file's .file number; -1 unknown */
  int src_line;
  int ninst;
  scratch *x;
} flat;

static bool special_reg(const char *w, size_t n) {
  static const char *const names[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid",
                                      "%smid", "%nsmid", "%gridid", "%clusterid", "%nclusterid", "%cluster_ctaid",
                                      "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank",
                                      "%is_explicit_cluster", "%clock", "%clock64", "%globaltimer",
                                      "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge",
                                      "%lanemask_gt", "%dynamic_smem_size", "%total_smem_size"};
  for (size_t i = 0; i < LC_ARRAY_LEN(names); i++)
    if (strlen(names[i]) == n && !strncmp(w, names[i], n)) return true;
  return false;
}

static func *find_func(flat *f, const char *name, size_t n) {
  for (size_t i = 0; i < f->funcs->n; i++)
    if (strlen(f->funcs->v[i].name) == n && !strncmp(f->funcs->v[i].name, name, n)) return &f->funcs->v[i];
  return NULL;
}


/* The name w (n chars) as this copy calls it. */
static void rename_word(flat *f, lc_buf *b, const char *w, size_t n, int first, int cur, const func *fn,
                        const char *sfx) {
  const scope_vec *sc = &f->x->scopes;
  for (int s = cur; s >= 0; s = sc->v[s].parent) {
    if (s == first) break;   /* the function's own scope: below */
    for (size_t k = 0; k < sc->v[s].names.n; k++)
      if (strlen(sc->v[s].names.v[k]) == n && !strncmp(sc->v[s].names.v[k], w, n)) {
        lc_buf_printf(b, "%.*s$s%d%s", (int)n, w, sc->v[s].id, sfx);
        return;
      }
  }
  bool local = (w[0] == '%' && !special_reg(w, n));
  for (size_t k = 0; !local && k < sc->v[first].names.n; k++)
    local = strlen(sc->v[first].names.v[k]) == n && !strncmp(sc->v[first].names.v[k], w, n);
  for (size_t k = 0; !local && k < fn->params.n; k++)
    local = !fn->entry && strlen(fn->params.v[k]) == n && !strncmp(fn->params.v[k], w, n);
  for (size_t k = 0; !local && k < fn->rets.n; k++)
    local = strlen(fn->rets.v[k]) == n && !strncmp(fn->rets.v[k], w, n);
  lc_buf_putn(b, w, n);
  if (local) lc_buf_puts(b, sfx);
}

static const char *rename_text(flat *f, const char *s, int first, int cur, const func *fn, const char *sfx) {
  lc_buf b;
  lc_buf_init(&b);
  for (const char *p = s; *p;) {
    if (isdigit((unsigned char)*p)) {   /* a number (0f3F800000, 0x10): as it is */
      while (isalnum((unsigned char)*p) || *p == '_') lc_buf_putc(&b, *p++);
    } else if (id_start((unsigned char)*p)) {
      const char *w = p++;
      while (id_char((unsigned char)*p)) p++;
      rename_word(f, &b, w, (size_t)(p - w), first, cur, fn, sfx);
    } else if (*p == '.' ) {   /* .x of %tid.x, or a suffix: as it is */
      lc_buf_putc(&b, *p++);
      while (id_char((unsigned char)*p)) lc_buf_putc(&b, *p++);
    } else {
      lc_buf_putc(&b, *p++);
    }
  }
  const char *r = lc_arena_strdup(f->a, b.s ? b.s : "");
  lc_buf_fini(&b);
  return r;
}

static void push(flat *f, kp_ins in) {
  if (f->m->code.n >= MAX_FLAT)
    kp_fail(f->e, f->src_line, "the kernel's PTX is more than %d statements once its calls are inlined", MAX_FLAT);
  lc_vec_push(&f->m->code, in);
}

static void expand(flat *f, const func *fn, const char *sfx, int depth, int line);

/* `call.uni (retval0), name, (param0, param1);` inlined */
static void call(flat *f, const kp_ins *c, int first, int cur, const func *caller, const char *sfx, int depth) {
  int k = 0;
  const char *rets = NULL, *args = NULL, *callee = NULL;
  if (k < c->nops && c->ops[k][0] == '(') rets = c->ops[k++];
  if (k < c->nops) callee = c->ops[k++];
  if (k < c->nops && c->ops[k][0] == '(') args = c->ops[k++];
  if (!callee || callee[0] == '%' || k < c->nops)
    kp_fail(f->e, c->src_line, "%s line %d (source line %d): an indirect call (through %s) cannot be followed: the PTX names no "
            "function", f->e->ptx_name, c->ptx_line, c->src_line, callee ? callee : "a register");
  if (!strcmp(callee, "__assertfail") || !strcmp(callee, "__assert_fail")) {
    push(f, (kp_ins){.op = "kp.assert", .ptx_line = c->ptx_line, .src_line = c->src_line});
    return;
  }
  if (!strcmp(callee, "vprintf")) return;   /* printf: no memory effect here */
  const func *g = find_func(f, callee, strlen(callee));
  if (!g) kp_fail(f->e, c->src_line, "%s line %d (source line %d): a call of %s, which the PTX does not define", f->e->ptx_name, c->ptx_line, c->src_line, callee);
  if (g->external)
    kp_fail(f->e, c->src_line, "%s line %d (source line %d): a call of %s, defined outside this PTX (a library function) and not "
            "modelled", f->e->ptx_name, c->ptx_line, c->src_line, callee);
  if (depth >= MAX_CALL_DEPTH)
    kp_fail(f->e, c->src_line, "%s line %d (source line %d): calls nested more than %d deep (recursion?) are not inlined",
            f->e->ptx_name, c->ptx_line, c->src_line, MAX_CALL_DEPTH);
  char nsfx[48];
  snprintf(nsfx, sizeof nsfx, "@%d", ++f->ninst);
  /* the arguments into the callee's parameters */
  kp_ins tmp = {0};
  if (args) {
    char *inner = lc_arena_strndup(f->a, args + 1, strlen(args) - 2);
    split_ops(f->a, inner, &tmp, f->e, c->ptx_line);
  }
  if ((size_t)tmp.nops != g->params.n)
    kp_fail(f->e, c->src_line, "%s line %d (source line %d): %s called with %d arguments, declared with %zu", f->e->ptx_name,
            c->ptx_line, c->src_line, callee, tmp.nops, g->params.n);
  for (int i = 0; i < tmp.nops; i++) {
    char *to = lc_arena_alloc(f->a, strlen(g->params.v[i]) + strlen(nsfx) + 1);
    sprintf(to, "%s%s", g->params.v[i], nsfx);
    push(f, (kp_ins){.op = "kp.mov", .ops = {to, rename_text(f, tmp.ops[i], first, cur, caller, sfx)}, .nops = 2,
                     .ptx_line = c->ptx_line, .src_line = c->src_line});
  }
  expand(f, g, nsfx, depth + 1, c->ptx_line);
  if (rets) {
    kp_ins r = {0};
    char *inner = lc_arena_strndup(f->a, rets + 1, strlen(rets) - 2);
    split_ops(f->a, inner, &r, f->e, c->ptx_line);
    for (int i = 0; i < r.nops && (size_t)i < g->rets.n; i++) {
      char *from = lc_arena_alloc(f->a, strlen(g->rets.v[i]) + strlen(nsfx) + 1);
      sprintf(from, "%s%s", g->rets.v[i], nsfx);
      push(f, (kp_ins){.op = "kp.mov", .ops = {rename_text(f, r.ops[i], first, cur, caller, sfx), from}, .nops = 2,
                       .ptx_line = c->ptx_line, .src_line = c->src_line});
    }
  }
}

/* `.reg .pred P1, P2;` `.reg .b32 %r<6>;` `.param .b64 param0;`: the names declared */
static void declared_names(flat *f, const char *s, void *vec) {
  LC_VEC(const char *) *v = vec;
  const char *p = s;
  while (*p == '.' || isspace((unsigned char)*p)) {   /* the directive and its qualifiers */
    if (*p == '.') while (*p && !isspace((unsigned char)*p)) p++;
    else p++;
  }
  while (*p) {
    while (*p == ',' || isspace((unsigned char)*p)) p++;
    const char *w = p;
    while (*p && *p != ',' && *p != '<' && *p != '[' && !isspace((unsigned char)*p)) p++;
    if (p > w) lc_vec_push(v, lc_arena_strndup(f->a, w, (size_t)(p - w)));
    while (*p && *p != ',') p++;
  }
}

static void expand(flat *f, const func *fn, const char *sfx, int depth, int line) {
  (void)line;
  /* the scopes of the body and what each declares (a label may be used before it is defined) */
  scope_vec *sc = &f->x->scopes;
  size_t nbody = fn->end - fn->body;
  int *scope_of = lc_arena_alloc(f->a, (nbody + 1) * sizeof *scope_of);
  int *stack = lc_arena_alloc(f->a, (nbody + 2) * sizeof *stack);
  size_t nstack = 0;
  int first = (int)sc->n;
  lc_vec_push(sc, ((scope){.id = first, .parent = -1}));
  stack[nstack++] = first;
  for (size_t i = fn->body; i < fn->end; i++) {
    const stmt *st = &f->st[i];
    int cur = stack[nstack - 1];
    if (st->kind == ST_OPEN) {
      lc_vec_push(sc, ((scope){.id = (int)sc->n, .parent = cur}));
      stack[nstack++] = (int)sc->n - 1;
    } else if (st->kind == ST_CLOSE) {
      if (nstack > 1) nstack--;
    } else if (st->kind == ST_LABEL) {
      lc_vec_push(&sc->v[cur].names, st->s);
    } else if (!strncmp(st->s, ".reg", 4) || !strncmp(st->s, ".param", 6)) {
      declared_names(f, st->s, &sc->v[cur].names);
    }
    scope_of[i - fn->body] = stack[nstack - 1];
  }
  char endl[64];
  snprintf(endl, sizeof endl, "$ret%s", sfx);
  for (size_t i = fn->body; i < fn->end; i++) {
    const stmt *st = &f->st[i];
    int cur = scope_of[i - fn->body];
    if (st->kind == ST_OPEN || st->kind == ST_CLOSE) continue;
    if (st->kind == ST_LABEL) {
      push(f, (kp_ins){.label = rename_text(f, st->s, first, cur, fn, sfx), .ptx_line = st->line, .src_line = f->src_line});
      continue;
    }
    if (!strncmp(st->s, ".loc", 4)) {
      int file = 0, ln = 0;
      if (sscanf(st->s + 4, "%d %d", &file, &ln) == 2 && file == f->file && ln > 0) f->src_line = ln;
      continue;
    }
    if (st->s[0] == '.') {
      if (!strncmp(st->s, ".local", 6))
        kp_fail(f->e, f->src_line, "%s line %d (source line %d): local memory (a local array or a spilled variable) "
                "is not modelled", f->e->ptx_name, st->line, f->src_line);
      continue;   /* .reg, .param, .pragma, ... */
    }
    kp_ins in = {.ptx_line = st->line, .src_line = f->src_line};
    const char *p = st->s;
    if (*p == '@') {
      p++;
      if (*p == '!') in.neg = true, p++;
      const char *g = p;
      while (*p && !isspace((unsigned char)*p)) p++;
      in.guard = rename_text(f, lc_arena_strndup(f->a, g, (size_t)(p - g)), first, cur, fn, sfx);
      while (isspace((unsigned char)*p)) p++;
    }
    const char *o = p;
    while (*p && !isspace((unsigned char)*p)) p++;
    in.op = lc_arena_strndup(f->a, o, (size_t)(p - o));
    split_ops(f->a, p, &in, f->e, st->line);
    if (!strncmp(in.op, "call", 4)) {
      if (in.guard)
        kp_fail(f->e, in.src_line, "%s line %d (source line %d): a predicated call is not followed", f->e->ptx_name,
                st->line, in.src_line);
      call(f, &in, first, cur, fn, sfx, depth);
      continue;
    }
    for (int k = 0; k < in.nops; k++) in.ops[k] = rename_text(f, in.ops[k], first, cur, fn, sfx);
    if (!strncmp(in.op, "ret", 3) && depth > 0) {
      in.op = "bra.uni";
      in.ops[0] = lc_arena_strdup(f->a, endl);
      in.nops = 1;
    }
    push(f, in);
  }
  if (depth > 0) push(f, (kp_ins){.label = lc_arena_strdup(f->a, endl), .src_line = f->src_line});
}

/* ---- the module ------------------------------------------------------------------------------- */

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static bool mangles(const char *name, const char *want) {
  if (!strcmp(name, want)) return true;
  char pre[160];
  snprintf(pre, sizeof pre, "%zu%s", strlen(want), want);
  const char *p = strstr(name, pre);
  return p && !strncmp(name, "_Z", 2) && !isdigit((unsigned char)p[-1]);
}

void kp_ptx_read(kp_err *e, const char *ptx, const char *want, const char *src_path, kp_module *m) {
  lc_arena *a = m->a;
  scratch *x = lc_xcalloc(1, sizeof *x);
  m->scratch = x;
  stmt_vec st = {0};
  split_statements(a, ptx, &x->st, m);
  st = x->st;
  int file = -1;
  for (size_t i = 0; i < st.n; i++) {
    if (st.v[i].kind != ST_STMT || strncmp(st.v[i].s, ".file", 5)) continue;
    int n = 0;
    const char *q = strchr(st.v[i].s, '"');
    if (sscanf(st.v[i].s + 5, "%d", &n) == 1 && q && file < 0) {
      char *path = lc_arena_strndup(a, q + 1, strcspn(q + 1, "\""));
      if (!strcmp(base_name(path), base_name(src_path))) file = n;
    }
  }
  /* the module level: variables and functions */
  int depth = 0;
  for (size_t i = 0; i < st.n; i++) {
    const stmt *s = &st.v[i];
    if (s->kind == ST_OPEN) { depth++; continue; }
    if (s->kind == ST_CLOSE) { depth--; continue; }
    if (depth > 0 || s->kind != ST_STMT) continue;
    bool fn = has_word(s->s, ".entry") || has_word(s->s, ".func");
    if (fn) {
      func f = {0};
      f.entry = has_word(s->s, ".entry");
      f.text = s->s;
      read_header(a, s->s, &f);
      if (i + 1 < st.n && st.v[i + 1].kind == ST_OPEN) {
        size_t j = i + 2;
        int d = 1;
        while (j < st.n && d > 0) {
          if (st.v[j].kind == ST_OPEN) d++;
          if (st.v[j].kind == ST_CLOSE) d--;
          j++;
        }
        f.body = i + 2;
        f.end = j - 1;
        i = j - 1;
      } else {
        f.external = true;
      }
      lc_vec_push(&x->funcs, f);
    } else if (has_word(s->s, ".section")) {
      if (i + 1 < st.n && st.v[i + 1].kind == ST_OPEN) {
        size_t j = i + 2;
        int d = 1;
        while (j < st.n && d > 0) {
          if (st.v[j].kind == ST_OPEN) d++;
          if (st.v[j].kind == ST_CLOSE) d--;
          j++;
        }
        i = j - 1;
      }
    } else if ((has_word(s->s, ".global") || has_word(s->s, ".shared") || has_word(s->s, ".const")) &&
               !has_word(s->s, ".extern")) {
      read_var(e, a, s, m);
    } else if (has_word(s->s, ".shared") && has_word(s->s, ".extern")) {
      kp_sym v = {.name = "", .shown = "", .shared = true, .elem = 0, .size = 0, .ptx_line = s->line, .dynamic = true};
      const char *nb = s->s + strcspn(s->s, "[");
      const char *ne = nb;
      while (nb > s->s && id_char((unsigned char)nb[-1])) nb--;
      v.name = lc_arena_strndup(a, nb, (size_t)(ne - nb));
      v.shown = v.name;
      lc_vec_push(&m->syms, v);   /* bytes, as many as the launch gives (kp_gen.c) */
    }
  }
  func_vec funcs = x->funcs;
  /* variables declared in a function's body (nvcc's "demoted" __shared__ ones) */
  for (size_t i = 0, d = 0; i < st.n; i++) {
    const stmt *s = &st.v[i];
    if (s->kind == ST_OPEN) d++;
    else if (s->kind == ST_CLOSE) d--;
    else if (d > 0 && s->kind == ST_STMT && (!strncmp(s->s, ".shared", 7) || !strncmp(s->s, ".global", 7)))
      read_var(e, a, s, m);
  }
  const func *entry = NULL;
  size_t nentries = 0;
  for (size_t i = 0; i < funcs.n; i++) {
    if (!funcs.v[i].entry || funcs.v[i].external) continue;
    nentries++;
    if (want ? mangles(funcs.v[i].name, want) : !entry) {
      if (entry && want) kp_fail(e, 0, "%s: several kernels are named %s (%s, %s): give --kernel its PTX name",
                                 e->ptx_name, want, entry->name, funcs.v[i].name);
      entry = &funcs.v[i];
    }
  }
  if (!want && nentries > 1) {
    lc_buf names;
    lc_buf_init(&names);
    for (size_t i = 0; i < funcs.n; i++)
      if (funcs.v[i].entry && !funcs.v[i].external) lc_buf_printf(&names, "%s%s", names.n ? ", " : "", funcs.v[i].name);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", names.s);
    lc_buf_fini(&names);
    kp_fail(e, 0, "%s has several kernels (%s): pick one with --kernel NAME", e->ptx_name, msg);
  }
  if (!entry)
    kp_fail(e, 0, "%s has no kernel%s%s (a template kernel is compiled only where it is instantiated: "
            "`template __global__ void k<2>(int *);`)", e->ptx_name, want ? " named " : "", want ? want : "");
  m->entry = entry->name;
  const char *rc = strstr(entry->text, ".reqnctapercluster");
  if (rc) {
    m->reqcluster[0] = m->reqcluster[1] = m->reqcluster[2] = 1;
    sscanf(rc + 18, " %d , %d , %d", &m->reqcluster[0], &m->reqcluster[1], &m->reqcluster[2]);
  }
  for (size_t k = 0; k < entry->params.n; k++) lc_vec_push(&m->params, entry->params.v[k]);
  flat f = {e, a, st.v, st.n, &x->funcs, m, file, 0, 0, x};
  expand(&f, entry, "", 0, 0);
}

void kp_module_fini(kp_module *m) {
  scratch *x = m->scratch;
  if (x) {
    for (size_t i = 0; i < x->funcs.n; i++) {
      free(x->funcs.v[i].params.v);
      free(x->funcs.v[i].rets.v);
    }
    for (size_t i = 0; i < x->scopes.n; i++) free(x->scopes.v[i].names.v);
    free(x->funcs.v);
    free(x->scopes.v);
    free(x->st.v);
    free(x);
  }
  for (size_t i = 0; i < m->syms.n; i++) free(m->syms.v[i].init.v);
  free(m->syms.v);
  free(m->params.v);
  free(m->code.v);
}
