/* kn_gen.c - a kernel file's declarations, its launch and question, and
 * the C++ litmus test they make (kernel.h, docs/kernels.md).
 * SPDX-License-Identifier: MIT
 *
 * The threads are written as text of the CUDA dialect and read by its own
 * parser (lt_parse): the dialect's statements, atomics, orders and scopes
 * have one reader, and what the dialect refuses is refused here with the
 * same message at the kernel's own line and column (lc_source.line_of; each
 * token goes out at its column where it can).
 *
 * What the instantiation does to the kernel's body, thread by thread:
 *   threadIdx/blockIdx/blockDim/gridDim .x .y .z, warpSize: their values;
 *   a scalar parameter: its value from @Input;
 *   a __shared__ variable: location NAME_bB of block B (a scalar one is
 *     used as *NAME_bB, `&NAME` is NAME_bB); a __device__ variable likewise;
 *   a __device__ function: `{ return E; }` inlined as (E), any other body
 *     inlined as a block where it is called as a statement, `x = f(...);`
 *     or `T x = f(...);` (its value parameters become locals, its last
 *     statement may return the value);
 *   a local declared again (a second `for (int i ...)`, two inlined
 *     copies): renamed NAME_2, NAME_3, ...;
 *   assert(c): `if (!(c)) assert_lineL = 0;` on a local set to 1 at the
 *     start, which the question requires to stay 1;
 *   printf, __nanosleep: dropped; __syncwarp() and the block's
 *     cooperative-groups sync: __syncthreads() (a block of one warp).
 */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kn_int.h"

#define MAX_THREADS 1024    /* threads of a launch */
#define MAX_INLINE 32       /* device functions inlined inside one another */
#define MAX_ARRAY 1024      /* the C++ dialect's longest array */
#define MAX_TEXT (8u << 20) /* bytes of the test written: inlining doubles it at each level */
#define MAX_RENDER 200      /* arguments and indices written inside one another */
#define MAX_HEADERS 200     /* if/while/for headers open at once in one body */

typedef struct param {
  const char *type;    /* as written, without const and __restrict__: "int*", "volatile int*" */
  const kn_tok *name;
  bool pointer;
} param;

typedef struct func {
  const kn_tok *name;
  bool global, is_void;
  LC_VEC(param) params;
  size_t body, end;    /* toks[body] is its '{', toks[end] the matching '}' */
  bool expr;           /* the body is `{ return E; }` */
  size_t ret, ret_end; /* E: toks[ret .. ret_end) */
  size_t last;         /* the first token of the body's last statement */
  bool active;         /* being inlined (a call now is recursion) */
} func;

typedef struct var {
  const kn_tok *name;
  const char *type;    /* the element type: "int", "cuda::atomic<int, cuda::thread_scope_device>" */
  bool shared;
  bool is_extern;      /* extern __shared__, sized by the launch */
  long len;            /* -1 for a scalar */
  LC_VEC(int64_t) init;
  const kn_tok *decl;  /* its statement in a body (a __shared__ one), skipped when emitting */
  size_t decl_end;
} var;

typedef struct alias {
  const kn_tok *name;
  size_t from, to;     /* typedef/using: what the name stands for, toks[from .. to) */
} alias;

typedef struct input {
  char *name;
  LC_VEC(int64_t) values;
  bool braces;
  int line, col;
  bool used;
} input;

typedef struct bind {
  const char *name;    /* as written (arena) */
  const char *as;      /* as emitted */
  int depth;
  int frame;
} bind;

typedef struct frame {
  const func *f;       /* NULL for the kernel */
  int id;
  const char **arg;    /* f's parameters: the text that stands for each */
  const char **base, **off;   /* a pointer parameter's array and offset (array_arg), or NULL */
  const char *target;  /* `x = f(...)`: x; NULL */
  const kn_tok *call;
} frame;

typedef struct handle {
  const char *name;
  bool grid;
} handle;

typedef struct gen {
  kn_reader *K;
  kn_tok *t;           /* K->toks.v */
  size_t nt;
  LC_VEC(func) funcs;
  LC_VEC(var) vars;
  LC_VEC(alias) aliases;
  LC_VEC(input) inputs;
  func *kernel;
  int grid[3], block[3], nblocks, nthreads;
  int launch_line;
  bool cooperative;    /* the launch says `cooperative` (cudaLaunchCooperativeKernel) */
  int64_t shmem;       /* the launch's dynamic shared memory in bytes (<<<G, B, bytes>>>), or -1 */
  bool in_extern;      /* reading an `extern __shared__` array (sized by shmem) */
  /* the text being written */
  lc_buf out;
  LC_VEC(int) line_of;
  size_t bol;          /* offset in out of the current line */
  lc_buf *raw;         /* not NULL: an argument's text is being written here, positions aside */
  /* the thread being written */
  int bx[3], tx[3], blin, tlin;
  LC_VEC(const char *) declared;
  LC_VEC(bind) binds;
  LC_VEC(handle) handles;
  LC_VEC(int) asserts;
  int depth, nframes, ninline;
  int nrender;
  lc_buf *raws[MAX_RENDER];   /* the argument texts being written */
} gen;

static bool tok_eq_str(const kn_tok *t, const char *s, size_t n) { return t->n == n && memcmp(t->s, s, n) == 0; }

#define ERR(g, tok, ...) kn_error((g)->K, (tok)->line, (tok)->col, __VA_ARGS__)

/* ---- writing ------------------------------------------------------------------------ */

static void new_line(gen *g, int line) {
  if (g->line_of.n > 0) lc_buf_putc(&g->out, '\n');
  lc_vec_push(&g->line_of, line);
  g->bol = g->out.n;
}

/* Writes s at the kernel's line and column where it can: on the line
 * standing for `line`, padded to `col`. */
static void put_at(gen *g, const char *s, size_t n, int line, int col) {
  if (g->out.n + (g->raw ? g->raw->n : 0) > MAX_TEXT)
    kn_error(g->K, line, col, "the launch's threads, their functions inlined, are more than %u MiB of code",
             MAX_TEXT >> 20);
  if (g->raw) {
    if (g->raw->n > 0) lc_buf_putc(g->raw, ' ');
    lc_buf_putn(g->raw, s, n);
    return;
  }
  if (line <= 0) line = g->line_of.n ? g->line_of.v[g->line_of.n - 1] : 1;
  if (g->line_of.n == 0 || g->line_of.v[g->line_of.n - 1] != line) new_line(g, line);
  size_t c = g->out.n - g->bol + 1;
  if (col > 0 && c < (size_t)col) {
    while (g->out.n - g->bol + 1 < (size_t)col) lc_buf_putc(&g->out, ' ');
  } else if (c > 1 && (col <= 0 || c > (size_t)col)) {
    lc_buf_putc(&g->out, ' ');
  }
  lc_buf_putn(&g->out, s, n);
}

static void put(gen *g, const char *s, const kn_tok *at) { put_at(g, s, strlen(s), at->line, at->col); }
static void put_tok(gen *g, const kn_tok *t) { put_at(g, t->s, t->n, t->line, t->col); }

/* ---- declarations -------------------------------------------------------------------- */

static size_t match(gen *g, size_t i, const char *open, const char *close) {
  int depth = 0;
  for (size_t j = i; j < g->nt && g->t[j].kind != KT_EOF; j++) {
    if (kn_is(&g->t[j], open)) depth++;
    else if (kn_is(&g->t[j], close) && --depth == 0) return j;
  }
  ERR(g, &g->t[i], "'%s' is not closed (the file ends first)", open);
}

static func *find_func(gen *g, const kn_tok *t) {
  if (t->kind != KT_ID) return NULL;
  for (size_t i = 0; i < g->funcs.n; i++)
    if (tok_eq_str(t, g->funcs.v[i].name->s, g->funcs.v[i].name->n)) return &g->funcs.v[i];
  return NULL;
}

static var *find_var(gen *g, const kn_tok *t) {
  if (t->kind != KT_ID) return NULL;
  for (size_t i = 0; i < g->vars.n; i++)
    if (tok_eq_str(t, g->vars.v[i].name->s, g->vars.v[i].name->n)) return &g->vars.v[i];
  return NULL;
}

static alias *find_alias(gen *g, const kn_tok *t) {
  if (t->kind != KT_ID) return NULL;
  for (size_t i = 0; i < g->aliases.n; i++)
    if (tok_eq_str(t, g->aliases.v[i].name->s, g->aliases.v[i].name->n)) return &g->aliases.v[i];
  return NULL;
}

static const char *const TYPE_WORDS[] = {
    "int", "unsigned", "signed", "long", "short", "char", "bool", "size_t", "uint32_t", "int32_t", "uint64_t",
    "int64_t", "uint16_t", "int16_t", "uint8_t", "int8_t", "volatile", "const", "float", "double",
    "unsigned int", "__restrict__", "std::size_t", "cuda::std::size_t"};

static bool type_word(gen *g, const kn_tok *t) {
  if (t->kind != KT_ID) return false;
  for (size_t k = 0; k < LC_ARRAY_LEN(TYPE_WORDS); k++)
    if (kn_is(t, TYPE_WORDS[k])) return true;
  if (find_alias(g, t)) return true;
  /* cuda::atomic<...>, cuda::atomic_ref<...>, atomic_int, ... */
  const char *s = t->s;
  size_t n = t->n;
  for (size_t k = n; k-- > 0;)
    if (s[k] == ':') {
      s += k + 1;
      n -= k + 1;
      break;
    }
  return (n >= 6 && memcmp(s, "atomic", 6) == 0);
}

static bool storage_word(const kn_tok *t);

/* The text of toks[from .. to) as a type: words joined by single spaces,
 * `*` and `&` kept, const and __restrict__ dropped, aliases replaced. */
static void type_text(gen *g, lc_buf *b, size_t from, size_t to, int depth) {
  if (depth > 16) ERR(g, &g->t[from], "typedefs nest too deep");
  for (size_t j = from; j < to; j++) {
    const kn_tok *t = &g->t[j];
    if (kn_is(t, "const") || kn_is(t, "__restrict__") || kn_is(t, "__restrict") || kn_is(t, "struct") ||
        storage_word(t))
      continue;
    alias *a = find_alias(g, t);
    if (a) {
      type_text(g, b, a->from, a->to, depth + 1);
      continue;
    }
    bool glue = kn_is(t, "*") || kn_is(t, "&") || kn_is(t, ">") || kn_is(t, ",") || kn_is(t, "<") ||
                (b->n > 0 && (b->s[b->n - 1] == '<'));
    if (b->n > 0 && !glue) lc_buf_putc(b, ' ');
    if (kn_is(t, ",")) {
      lc_buf_puts(b, ", ");
      continue;
    }
    lc_buf_putn(b, t->s, t->n);
  }
}

static const char *type_string(gen *g, size_t from, size_t to) {
  lc_buf b;
  lc_buf_init(&b);
  type_text(g, &b, from, to, 0);
  char *s = lc_arena_strdup(g->K->a, b.s);
  lc_buf_fini(&b);
  return s;
}

/* params -> '(' [ type name { ',' type name } ] ')' ; toks[i] is '(' */
static void read_params(gen *g, func *f, size_t open, size_t close) {
  if (close == open + 1 || (close == open + 2 && kn_is(&g->t[open + 1], "void"))) return;
  size_t from = open + 1;
  for (size_t j = open + 1; j <= close; j++) {
    if (j < close && !kn_is(&g->t[j], ",")) {
      if (kn_is(&g->t[j], "(") || kn_is(&g->t[j], "<")) j = match(g, j, kn_is(&g->t[j], "(") ? "(" : "<",
                                                                   kn_is(&g->t[j], "(") ? ")" : ">");
      continue;
    }
    size_t last = j - 1;
    if (last < from || g->t[last].kind != KT_ID)
      ERR(g, &g->t[j > from ? j - 1 : from], "expected a parameter name");
    if (last == from) ERR(g, &g->t[last], "parameter '%.*s' has no type", (int)g->t[last].n, g->t[last].s);
    param p = {type_string(g, from, last), &g->t[last], false};
    p.pointer = strchr(p.type, '*') != NULL || strchr(p.type, '&') != NULL;
    if (strchr(p.type, '[')) ERR(g, &g->t[last], "array parameters are not modelled: write a pointer");
    lc_vec_push(&f->params, p);
    from = j + 1;
  }
}

/* Finds `{ return E ; }` and the body's last statement. */
static void read_body(gen *g, func *f) {
  size_t b = f->body;
  if (kn_is(&g->t[b + 1], "return") && !kn_is(&g->t[b + 2], ";")) {
    size_t j = b + 2;
    int depth = 0;
    for (; j < f->end; j++) {
      if (kn_is(&g->t[j], "(") || kn_is(&g->t[j], "[") || kn_is(&g->t[j], "{")) depth++;
      else if (kn_is(&g->t[j], ")") || kn_is(&g->t[j], "]") || kn_is(&g->t[j], "}")) depth--;
      else if (depth == 0 && kn_is(&g->t[j], ";")) break;
    }
    if (j + 1 == f->end) {
      f->expr = true;
      f->ret = b + 2;
      f->ret_end = j;
    }
  }
  /* the last top-level statement: after the last ';' or '}' at depth 1 before the end */
  f->last = b + 1;
  int depth = 0;
  for (size_t j = b + 1; j < f->end; j++) {
    const kn_tok *t = &g->t[j];
    if (kn_is(t, "(") || kn_is(t, "[") || kn_is(t, "{")) depth++;
    if (kn_is(t, ")") || kn_is(t, "]") || kn_is(t, "}")) depth--;
    if (depth == 0 && (kn_is(t, ";") || kn_is(t, "}")) && j + 1 < f->end && !kn_is(&g->t[j + 1], "else"))
      f->last = j + 1;
  }
}

static void read_values(gen *g, var *v, size_t i, size_t end) {
  /* '=' value | '=' '{' value {',' value} '}' ; toks[i] is '=' */
  i++;
  bool braces = kn_is(&g->t[i], "{");
  if (braces) i++;
  while (i < end && !kn_is(&g->t[i], "}")) {
    size_t k = i;
    int64_t x = kn_const_expr(g->K, g->t, end, &k, false);
    lc_vec_push(&v->init, x);
    i = k;
    if (i < end && kn_is(&g->t[i], ",")) i++;
    else break;
    if (!braces) ERR(g, &g->t[i], "expected ';'");
  }
}

/* The length of an `extern __shared__ T a[];`: the launch's dynamic shared
 * memory (<<<G, B, bytes>>>) over the size of T (CUDA C++ Programming
 * Guide, "__shared__": the array's size is given at launch). */
static int64_t extern_len(gen *g, const var *v, const kn_tok *at) {
  int size = kn_type_size(v->type);
  if (size <= 0) ERR(g, v->name, "extern __shared__ array of '%s': its element size is not known", v->type);
  if (g->shmem < 0)
    ERR(g, at, "extern __shared__ '%.*s' is sized by the launch: give its bytes, `// @Launch: <<<G, B, BYTES>>>`",
        (int)v->name->n, v->name->s);
  int64_t n = g->shmem / size;
  if (n < 1 || n > MAX_ARRAY)
    kn_error(g->K, g->launch_line, 1, "extern __shared__ '%.*s': %lld bytes hold %lld elements of %d bytes; "
             "from 1 to %d are modelled", (int)v->name->n, v->name->s, (long long)g->shmem, (long long)n, size,
             MAX_ARRAY);
  return n;
}

/* A variable declaration: [__shared__|__device__|...] type name ['[' N ']'] ['=' init] ';'
 * from toks[from] (after the storage words) to toks[semi]. */
static var *read_var(gen *g, size_t from, size_t semi, bool shared) {
  size_t j = from;
  while (j < semi && !kn_is(&g->t[j], "[") && !kn_is(&g->t[j], "=")) j++;
  size_t name = j - 1;
  if (name <= from || g->t[name].kind != KT_ID) ERR(g, &g->t[from], "expected a variable declaration");
  var v = {0};
  v.name = &g->t[name];
  v.type = type_string(g, from, name);
  v.shared = shared;
  v.len = -1;
  if (find_var(g, v.name)) ERR(g, v.name, "'%.*s' is declared twice", (int)v.name->n, v.name->s);
  if (strchr(v.type, '*')) ERR(g, v.name, "a pointer variable (%.*s) is not modelled: use the array or location itself",
                               (int)v.name->n, v.name->s);
  if (j < semi && kn_is(&g->t[j], "[")) {
    size_t close = match(g, j, "[", "]");
    size_t k = j + 1;
    int64_t n;
    if (close == j + 1) {
      if (!g->in_extern) ERR(g, &g->t[j], "an array without a length: give its length");
      for (size_t e = 0; e < g->vars.n; e++)
        if (g->vars.v[e].is_extern)
          ERR(g, v.name, "a second extern __shared__ array ('%.*s' is one): they all start at one address, and "
              "arrays that overlap are not modelled", (int)g->vars.v[e].name->n, g->vars.v[e].name->s);
      n = 1;   /* sized once the launch is read (size_externs) */
    } else {
      if (g->in_extern) ERR(g, &g->t[j + 1], "an extern __shared__ array has no length: the launch gives its size");
      n = kn_const_expr(g->K, g->t, close, &k, false);
      if (k != close) ERR(g, &g->t[k], "expected ']'");
    }
    if (n < 1 || n > MAX_ARRAY) ERR(g, &g->t[j + 1], "array length %lld: from 1 to %d", (long long)n, MAX_ARRAY);
    v.len = (long)n;
    v.is_extern = g->in_extern && close == j + 1;
    j = close + 1;
    if (kn_is(&g->t[j], "[")) ERR(g, &g->t[j], "arrays of arrays are not modelled");
  }
  lc_vec_push(&g->vars, v);   /* first: gen_free frees its values if reading them fails */
  var *vp = &g->vars.v[g->vars.n - 1];
  if (j < semi && kn_is(&g->t[j], "=")) {
    if (shared) ERR(g, &g->t[j], "a __shared__ variable has no initializer in CUDA");
    read_values(g, vp, j, semi);
  } else if (j < semi && !kn_is(&g->t[j], ";")) {
    ERR(g, &g->t[j], "expected '=', '[' or ';' in the declaration of '%.*s'", (int)v.name->n, v.name->s);
  }
  if (vp->init.n > (size_t)(vp->len < 0 ? 1 : vp->len))
    ERR(g, v.name, "too many initial values for '%.*s'", (int)v.name->n, v.name->s);
  return vp;
}

static size_t find_semi(gen *g, size_t i) {
  int depth = 0;
  for (size_t j = i; j < g->nt && g->t[j].kind != KT_EOF; j++) {
    if (kn_is(&g->t[j], "(") || kn_is(&g->t[j], "{") || kn_is(&g->t[j], "[")) depth++;
    else if (kn_is(&g->t[j], ")") || kn_is(&g->t[j], "}") || kn_is(&g->t[j], "]")) depth--;
    else if (depth <= 0 && kn_is(&g->t[j], ";")) return j;
  }
  ERR(g, &g->t[i], "expected ';' (the file ends first)");
}

static bool storage_word(const kn_tok *t) {
  static const char *const w[] = {"__global__", "__device__", "__host__", "static", "inline", "__forceinline__",
                                  "__noinline__", "__shared__", "__constant__", "__managed__", "extern",
                                  "__inline__", "constexpr"};
  for (size_t k = 0; k < LC_ARRAY_LEN(w); k++)
    if (kn_is(t, w[k])) return true;
  return false;
}

/* The file's top level: functions, variables, typedefs. */
static void read_file(gen *g) {
  size_t i = 0;
  while (g->t[i].kind != KT_EOF) {
    const kn_tok *t = &g->t[i];
    if (kn_is(t, ";")) {
      i++;
      continue;
    }
    if (kn_is(t, "template"))
      ERR(g, t, "templates are not read yet: instantiate the kernel by hand (docs/kernels.md)");
    if (kn_is(t, "struct") || kn_is(t, "class") || kn_is(t, "union") || kn_is(t, "enum")) {
      if (kn_is(&g->t[i + 2], "{") || kn_is(&g->t[i + 1], "{"))
        ERR(g, t, "'%.*s' types are not modelled yet: write the fields as locations", (int)t->n, t->s);
    }
    if (kn_is(t, "namespace")) {
      if (g->t[i + 1].kind == KT_ID && kn_is(&g->t[i + 2], "=")) {
        /* namespace cg = cooperative_groups;  names are read without their namespace */
        i = find_semi(g, i) + 1;
        continue;
      }
      ERR(g, t, "namespaces are not read: write the kernel at the top level");
    }
    if (kn_is(t, "using")) {
      size_t semi = find_semi(g, i);
      if (kn_is(&g->t[i + 1], "namespace")) {
        i = semi + 1;
        continue;
      }
      if (g->t[i + 1].kind == KT_ID && kn_is(&g->t[i + 2], "=")) {
        alias a = {&g->t[i + 1], i + 3, semi};
        lc_vec_push(&g->aliases, a);
      }
      i = semi + 1;
      continue;
    }
    if (kn_is(t, "typedef")) {
      size_t semi = find_semi(g, i);
      if (semi < i + 3 || g->t[semi - 1].kind != KT_ID) ERR(g, t, "expected typedef TYPE NAME;");
      alias a = {&g->t[semi - 1], i + 1, semi - 1};
      lc_vec_push(&g->aliases, a);
      i = semi + 1;
      continue;
    }
    if (kn_is(t, "extern") && g->t[i + 1].kind == KT_STR) {   /* extern "C" */
      i += 2;
      if (kn_is(&g->t[i], "{")) ERR(g, &g->t[i], "extern \"C\" { ... } blocks are not read: write extern \"C\" before each kernel");
      continue;
    }
    bool global = false, device = false, shared = false, host = false;
    size_t j = i;
    while (storage_word(&g->t[j]) || kn_is(&g->t[j], "__launch_bounds__")) {
      if (kn_is(&g->t[j], "__launch_bounds__")) {
        j = match(g, j + 1, "(", ")") + 1;
        continue;
      }
      global |= kn_is(&g->t[j], "__global__");
      device |= kn_is(&g->t[j], "__device__") || kn_is(&g->t[j], "__constant__") || kn_is(&g->t[j], "__managed__");
      shared |= kn_is(&g->t[j], "__shared__");
      host |= kn_is(&g->t[j], "__host__");
      j++;
    }
    /* a function: type name '(' params ')' ['__launch_bounds__'(...)] ('{' body '}' | ';') */
    size_t k = j;
    while (g->t[k].kind != KT_EOF && !kn_is(&g->t[k], "(") && !kn_is(&g->t[k], ";") && !kn_is(&g->t[k], "=") &&
           !kn_is(&g->t[k], "[") && !kn_is(&g->t[k], "{"))
      k++;
    if (kn_is(&g->t[k], "(") && k > j && g->t[k - 1].kind == KT_ID) {
      size_t close = match(g, k, "(", ")");
      size_t after = close + 1;
      while (storage_word(&g->t[after]) || kn_is(&g->t[after], "__launch_bounds__") || kn_is(&g->t[after], "const"))
        after = kn_is(&g->t[after], "__launch_bounds__") ? match(g, after + 1, "(", ")") + 1 : after + 1;
      if (kn_is(&g->t[after], ";")) {   /* a declaration only */
        i = after + 1;
        continue;
      }
      if (!kn_is(&g->t[after], "{")) ERR(g, &g->t[after], "expected '{' opening the body of '%.*s'",
                                         (int)g->t[k - 1].n, g->t[k - 1].s);
      if (!global && !device && host)
        ERR(g, &g->t[k - 1], "'%.*s' is a host function: only __global__ and __device__ functions are read",
            (int)g->t[k - 1].n, g->t[k - 1].s);
      func f = {0};
      f.name = &g->t[k - 1];
      f.global = global;
      f.is_void = k - 1 == j + 1 && kn_is(&g->t[j], "void");
      f.body = after;
      f.end = match(g, after, "{", "}");
      if (find_func(g, f.name)) ERR(g, f.name, "function '%.*s' is defined twice (overloads are not read)",
                                    (int)f.name->n, f.name->s);
      if (global && !f.is_void) ERR(g, &g->t[j], "a __global__ function returns void");
      lc_vec_push(&g->funcs, f);   /* first: gen_free frees its parameters if reading them fails */
      func *fp = &g->funcs.v[g->funcs.n - 1];
      read_params(g, fp, k, close);
      read_body(g, fp);
      i = fp->end + 1;
      continue;
    }
    if (!device && !shared) {
      if (j == i && (kn_is(t, "int") || type_word(g, t)))
        ERR(g, t, "a variable at the top level must be __device__ (or __shared__) to be on the GPU");
      ERR(g, t, "expected a __global__ or __device__ function or variable, found '%.*s'", (int)t->n, t->s);
    }
    size_t semi = find_semi(g, j);
    for (size_t e = i; e < j; e++) g->in_extern |= shared && kn_is(&g->t[e], "extern");
    read_var(g, j, semi, shared);
    g->in_extern = false;
    i = semi + 1;
  }
}

/* ---- the launch and the question ------------------------------------------------------ */

typedef struct hscan {
  gen *g;
  const char *s, *p;
  int line, col;
} hscan;

static LC_NORETURN void h_error(hscan *h, const char *fmt, const char *what) {
  int col = h->col + (int)(h->p - h->s);
  kn_error(h->g->K, h->line, col, fmt, what);
}

static void h_space(hscan *h) {
  while (*h->p == ' ' || *h->p == '\t') h->p++;
}

static bool h_lit(hscan *h, const char *w) {
  h_space(h);
  size_t n = strlen(w);
  if (strncmp(h->p, w, n) != 0) return false;
  h->p += n;
  return true;
}

static int64_t h_int(hscan *h, const char *what) {
  h_space(h);
  char *e;
  if (!(isdigit((unsigned char)*h->p) || ((*h->p == '-' || *h->p == '+') && isdigit((unsigned char)h->p[1]))))
    h_error(h, "expected %s", what);
  long long v = strtoll(h->p, &e, 0);
  h->p = e;
  while (*h->p == 'u' || *h->p == 'U' || *h->p == 'l' || *h->p == 'L') h->p++;
  return v;
}

static void h_dim(hscan *h, int d[3], const char *what) {
  d[0] = d[1] = d[2] = 1;
  bool call = h_lit(h, "dim3");
  bool open = call ? h_lit(h, "(") : h_lit(h, "{");
  if (call && !open) h_error(h, "expected '(' after dim3%s", "");
  int n = open ? 3 : 1;
  for (int k = 0; k < n; k++) {
    int64_t v = h_int(h, what);
    if (v < 1 || v > MAX_THREADS) h_error(h, "%s: from 1 to 1024", what);
    d[k] = (int)v;
    if (!open) break;
    if (!h_lit(h, ",")) break;
  }
  if (open && !h_lit(h, call ? ")" : "}")) h_error(h, "expected '%s'", call ? ")" : "}");
}

static void read_launch(gen *g, const char *text, int line, int col) {
  hscan h = {g, text, text, line, col};
  if (!h_lit(&h, "<<<")) h_error(&h, "expected '<<<' opening the launch (<<<grid, block>>>)%s", "");
  h_dim(&h, g->grid, "the grid (blocks)");
  if (!h_lit(&h, ",")) h_error(&h, "expected ',' between the grid and the block%s", "");
  h_dim(&h, g->block, "the block (threads)");
  g->shmem = -1;
  if (h_lit(&h, ",")) {   /* the dynamic shared memory's size in bytes, then a stream (ignored) */
    int64_t bytes = h_int(&h, "the shared memory size");
    if (bytes < 0) h_error(&h, "the shared memory size is a number of bytes, 0 or more%s", "");
    g->shmem = bytes;
    if (h_lit(&h, ",")) (void)h_int(&h, "the stream");
  }
  if (!h_lit(&h, ">>>")) h_error(&h, "expected '>>>' closing the launch%s", "");
  g->cooperative = h_lit(&h, "cooperative");
  h_space(&h);
  if (*h.p) h_error(&h, "unexpected text after the launch: %s", h.p);
  g->nblocks = g->grid[0] * g->grid[1] * g->grid[2];
  g->nthreads = g->block[0] * g->block[1] * g->block[2];
  g->launch_line = line;
  if ((long)g->nblocks * g->nthreads > MAX_THREADS)
    kn_error(g->K, line, col, "a launch of %d threads: at most %d are checked", g->nblocks * g->nthreads, MAX_THREADS);
}

/* name '=' ( value | '{' value {',' value} '}' ) { (';' | ',' at the top) ... } */
static void read_inputs(gen *g, const char *text, int line, int col) {
  hscan h = {g, text, text, line, col};
  for (;;) {
    h_space(&h);
    while (*h.p == ';') h.p++, h_space(&h);
    if (!*h.p) return;
    if (!(isalpha((unsigned char)*h.p) || *h.p == '_')) h_error(&h, "expected a name in @Input%s", "");
    const char *s = h.p;
    while (isalnum((unsigned char)*h.p) || *h.p == '_') h.p++;
    input in = {0};
    in.name = lc_arena_strndup(g->K->a, s, (size_t)(h.p - s));
    in.line = line;
    in.col = col + (int)(s - text);
    for (size_t k = 0; k < g->inputs.n; k++)
      if (!strcmp(g->inputs.v[k].name, in.name)) h_error(&h, "%s has two @Input values", in.name);
    if (!h_lit(&h, "=")) h_error(&h, "expected '=' after %s", in.name);
    in.braces = h_lit(&h, "{");
    lc_vec_push(&g->inputs, in);   /* first: gen_free frees its values if reading them fails */
    input *ip = &g->inputs.v[g->inputs.n - 1];
    for (;;) {
      int64_t v = h_int(&h, "an integer");
      lc_vec_push(&ip->values, v);
      if (ip->values.n > MAX_ARRAY) h_error(&h, "more than 1024 values for %s", in.name);
      if (!in.braces || !h_lit(&h, ",")) break;
    }
    if (in.braces && !h_lit(&h, "}")) h_error(&h, "expected '}' closing the values of %s", in.name);
    h_space(&h);
    if (*h.p && *h.p != ';' && *h.p != ',') h_error(&h, "expected ';' between @Input entries, found '%s'", h.p);
    if (*h.p) h.p++;
  }
}

static input *find_input(gen *g, const kn_tok *name) {
  for (size_t k = 0; k < g->inputs.n; k++)
    if (tok_eq_str(name, g->inputs.v[k].name, strlen(g->inputs.v[k].name))) return &g->inputs.v[k];
  return NULL;
}

/* ---- names in a thread ------------------------------------------------------------------ */

static const char *cur_name(gen *g, const kn_tok *t, int fr_id) {
  for (size_t k = g->binds.n; k-- > 0;)
    if (g->binds.v[k].frame == fr_id && tok_eq_str(t, g->binds.v[k].name, strlen(g->binds.v[k].name)))
      return g->binds.v[k].as;
  return NULL;
}

static bool taken(gen *g, const char *s) {
  for (size_t k = 0; k < g->declared.n; k++)
    if (!strcmp(g->declared.v[k], s)) return true;
  for (size_t k = 0; k < g->kernel->params.n; k++)
    if (tok_eq_str(g->kernel->params.v[k].name, s, strlen(s))) return true;
  for (size_t k = 0; k < g->vars.n; k++)
    if (tok_eq_str(g->vars.v[k].name, s, strlen(s))) return true;
  return false;
}

/* Declares local `name` in frame fr: its own name, or NAME_2, NAME_3 ...
 * when the thread has one already. */
static const char *declare(gen *g, const char *name, int fr_id) {
  const char *as = name;
  char buf[300];
  for (int k = 2; taken(g, as); k++) {
    snprintf(buf, sizeof buf, "%.200s_%d", name, k);
    as = lc_arena_strdup(g->K->a, buf);
  }
  lc_vec_push(&g->declared, as);
  bind b = {name, as, g->depth, fr_id};
  lc_vec_push(&g->binds, b);
  return as;
}

static void close_scope(gen *g) {
  g->depth--;
  while (g->binds.n > 0 && g->binds.v[g->binds.n - 1].depth > g->depth) g->binds.n--;
}

static const char *loc_name(gen *g, const var *v) {
  char buf[300];
  if (!v->shared) return lc_arena_strndup(g->K->a, v->name->s, v->name->n);
  snprintf(buf, sizeof buf, "%.*s_b%d", (int)v->name->n, v->name->s, g->blin);
  return lc_arena_strdup(g->K->a, buf);
}

/* ---- a thread's body ---------------------------------------------------------------------- */

static void emit(gen *g, frame *fr, size_t i, size_t end, bool stmt);

static int builtin_index(gen *g, size_t i) {
  /* threadIdx.x and its kind: the value, or -1 */
  const kn_tok *t = &g->t[i];
  if (t->kind != KT_ID || !kn_is(&g->t[i + 1], ".") || g->t[i + 2].kind != KT_ID) return -1;
  const kn_tok *m = &g->t[i + 2];
  int d = kn_is(m, "x") ? 0 : kn_is(m, "y") ? 1 : kn_is(m, "z") ? 2 : -1;
  if (d < 0) return -1;
  if (kn_is(t, "threadIdx")) return g->tx[d];
  if (kn_is(t, "blockIdx")) return g->bx[d];
  if (kn_is(t, "blockDim")) return g->block[d];
  if (kn_is(t, "gridDim")) return g->grid[d];
  return -1;
}

/* The arguments of a call: toks[open] is '('; fills cuts with the first
 * token of each argument and the ')' last. */
static size_t call_args(gen *g, size_t open, size_t *cuts, size_t max, size_t *n) {
  size_t close = match(g, open, "(", ")");
  *n = 0;
  if (close == open + 1) {
    cuts[0] = close;
    return close;
  }
  cuts[(*n)++] = open + 1;
  int depth = 0;
  for (size_t j = open + 1; j < close; j++) {
    const kn_tok *t = &g->t[j];
    if (kn_is(t, "(") || kn_is(t, "[") || kn_is(t, "{")) depth++;
    else if (kn_is(t, ")") || kn_is(t, "]") || kn_is(t, "}")) depth--;
    else if (depth == 0 && kn_is(t, ",")) {
      if (*n >= max) ERR(g, t, "more than %zu arguments", max);
      cuts[(*n)++] = j + 1;
    }
  }
  cuts[*n] = close + 1;
  return close;
}

/* The text of toks[from .. to) written in frame fr, on one line. */
static const char *render(gen *g, frame *fr, size_t from, size_t to) {
  if (g->nrender >= MAX_RENDER) ERR(g, &g->t[from], "arguments and indices nest more than %d deep", MAX_RENDER);
  /* in the arena, not on this frame: an error leaves through longjmp and
   * gen_free frees the buffers still being written */
  lc_buf *b = lc_arena_alloc(g->K->a, sizeof *b);
  lc_buf_init(b);
  lc_buf *saved = g->raw;
  g->raw = b;
  g->raws[g->nrender++] = b;
  emit(g, fr, from, to, false);
  g->nrender--;
  g->raw = saved;
  char *s = lc_arena_strdup(g->K->a, b->s);
  lc_buf_fini(b);
  return s;
}


/* A pointer argument into an array, `&A[e]` or `A + e` (A a location):
 * base and offset, so that the callee's p[i] and *p are A[(e) + (i)] and
 * A[e] (the dialect indexes locations, not expressions). */
static bool array_arg(gen *g, const char *arg, const char **base, const char **off) {
  const char *p = arg;
  size_t n = strlen(arg);
  while (n >= 2 && p[0] == '(' && p[n - 1] == ')') {   /* outer parentheses, when they match */
    int depth = 0;
    bool whole = true;
    for (size_t k = 0; k < n; k++) {
      depth += p[k] == '(' ? 1 : p[k] == ')' ? -1 : 0;
      if (depth == 0 && k + 1 < n) whole = false;
    }
    if (!whole) break;
    p++, n -= 2;
  }
  while (n && *p == ' ') p++, n--;
  bool amp = n && *p == '&';
  if (amp) {
    p++, n--;
    while (n && *p == ' ') p++, n--;
  }
  size_t k = 0;
  while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '_')) k++;
  if (k == 0 || isdigit((unsigned char)p[0])) return false;
  size_t r = k;
  while (r < n && p[r] == ' ') r++;
  if (amp) {
    if (r >= n || p[r] != '[' || p[n - 1] != ']') return false;
    int depth = 0;
    for (size_t q = r; q < n; q++) {
      depth += p[q] == '[' ? 1 : p[q] == ']' ? -1 : 0;
      if (depth == 0 && q + 1 < n) return false;
    }
    *base = lc_arena_strndup(g->K->a, p, k);
    *off = lc_arena_strndup(g->K->a, p + r + 1, n - r - 2);
    return true;
  }
  if (r >= n || p[r] != '+') return false;
  *base = lc_arena_strndup(g->K->a, p, k);
  *off = lc_arena_strndup(g->K->a, p + r + 1, n - r - 1);
  return true;
}

#define MAX_ARGS 32

/* Inlines a call of f at toks[i] (its name); returns the index after ')'.
 * As an expression: (E).  As a statement (target: `x = f(...)`): a block. */
static size_t inline_call(gen *g, frame *fr, func *f, size_t i, bool stmt, const char *target) {
  const kn_tok *at = &g->t[i];
  if (f->global) ERR(g, at, "'%.*s' is a __global__ function: a kernel launch from a kernel (dynamic parallelism) "
                     "is not modelled", (int)at->n, at->s);
  if (f->active)
    ERR(g, at, "recursion: '%.*s' is called while it is being inlined (through the functions it calls), "
        "which is not modelled", (int)at->n, at->s);
  if (g->ninline >= MAX_INLINE) ERR(g, at, "device functions nest more than %d deep", MAX_INLINE);
  if (!kn_is(&g->t[i + 1], "(")) ERR(g, at, "'%.*s' is a function: call it", (int)at->n, at->s);
  size_t cuts[MAX_ARGS + 1], n;
  size_t close = call_args(g, i + 1, cuts, MAX_ARGS, &n);
  if (n != f->params.n) ERR(g, at, "'%.*s' takes %zu arguments, given %zu", (int)at->n, at->s, f->params.n, n);
  if (!stmt && !f->expr)
    ERR(g, at, "'%.*s' is a function of several statements called inside an expression: call it as a statement, "
        "`x = %.*s(...);` or `T x = %.*s(...);`", (int)at->n, at->s, (int)at->n, at->s, (int)at->n, at->s);
  frame callee = {f, ++g->nframes, NULL, NULL, NULL, target, at};
  const char **args = lc_arena_alloc(g->K->a, (n + 1) * sizeof *args);
  for (size_t k = 0; k < n; k++) {
    args[k] = render(g, fr, cuts[k], cuts[k + 1] - 1);
    if (!args[k][0]) ERR(g, &g->t[cuts[k]], "an empty argument");
  }
  callee.arg = args;
  callee.base = lc_arena_alloc(g->K->a, (n + 1) * sizeof *callee.base);
  callee.off = lc_arena_alloc(g->K->a, (n + 1) * sizeof *callee.off);
  for (size_t k = 0; k < n; k++)
    if (f->params.v[k].pointer) array_arg(g, args[k], &callee.base[k], &callee.off[k]);
  f->active = true;
  g->ninline++;
  if (f->expr) {
    /* ( E ) with each parameter as its argument, in parentheses: an
     * argument that calls something (an atomic) must be used once, or
     * its effect would happen as many times as E names the parameter */
    char *wrapped[MAX_ARGS];
    for (size_t k = 0; k < n; k++) {
      int uses = 0;
      for (size_t j = f->ret; j < f->ret_end; j++)
        uses += tok_eq_str(&g->t[j], f->params.v[k].name->s, f->params.v[k].name->n);
      bool calls = false;
      for (const char *q = strchr(args[k], '('); q && !calls; q = strchr(q + 1, '(')) {
        const char *w = q;
        while (w > args[k] && w[-1] == ' ') w--;
        calls = w > args[k] && (isalnum((unsigned char)w[-1]) || w[-1] == '_');
      }
      if (uses != 1 && calls)
        ERR(g, &g->t[cuts[k]], "this argument calls a function and '%.*s' uses its parameter '%.*s' %d times: "
            "its effect would happen %d times (give the value a local first)", (int)at->n, at->s,
            (int)f->params.v[k].name->n, f->params.v[k].name->s, uses, uses);
      size_t len = strlen(args[k]) + 3;
      wrapped[k] = lc_arena_alloc(g->K->a, len);
      snprintf(wrapped[k], len, "(%s)", args[k]);
      args[k] = wrapped[k];
    }
    if (stmt && target) {
      put(g, target, at);
      put(g, "=", at);
    }
    put(g, "(", at);
    emit(g, &callee, f->ret, f->ret_end, false);
    put(g, ")", at);
    if (stmt) put(g, ";", at);
  } else {
    put(g, "{", at);
    g->depth++;
    for (size_t k = 0; k < n; k++) {
      const param *p = &f->params.v[k];
      if (p->pointer) {   /* the location itself */
        size_t len = strlen(args[k]) + 3;
        char *w = lc_arena_alloc(g->K->a, len);
        snprintf(w, len, "(%s)", args[k]);
        args[k] = w;
        continue;
      }
      char *pname = lc_arena_strndup(g->K->a, p->name->s, p->name->n);
      const char *as = declare(g, pname, callee.id);
      put(g, p->type, at);
      put(g, as, at);
      put(g, "=", at);
      put(g, "(", at);
      put(g, args[k], at);
      put(g, ")", at);
      put(g, ";", at);
      args[k] = NULL;   /* a local of the callee, found by its binding */
    }
    emit(g, &callee, f->body + 1, f->end, true);
    close_scope(g);
    put(g, "}", &g->t[f->end]);
  }
  g->ninline--;
  f->active = false;
  return close + 1;
}

static bool is_handle(gen *g, const kn_tok *t, bool *grid) {
  for (size_t k = 0; k < g->handles.n; k++)
    if (tok_eq_str(t, g->handles.v[k].name, strlen(g->handles.v[k].name))) {
      *grid = g->handles.v[k].grid;
      return true;
    }
  return false;
}

static bool cg_name(const kn_tok *t, const char *w) {
  /* cooperative_groups::w, cg::w or w alone */
  size_t n = strlen(w);
  if (t->kind != KT_ID || t->n < n || memcmp(t->s + t->n - n, w, n) != 0) return false;
  return t->n == n || (t->n > n + 2 && t->s[t->n - n - 1] == ':');
}

static void sync_block(gen *g, const kn_tok *at) {
  put(g, "__syncthreads", at);
  put(g, "(", at);
  put(g, ")", at);
  put(g, ";", at);
}

/* The grid's barrier, which the C++ dialect reads as written.  It is
 * valid only in a cooperative launch (cudaLaunchCooperativeKernel), which
 * the test is then taken to be (docs/kernels.md). */
static void grid_sync(gen *g, const kn_tok *at) {
  put(g, "cooperative_groups::this_grid", at);
  put(g, "(", at);
  put(g, ")", at);
  put(g, ".", at);
  put(g, "sync", at);
  put(g, "(", at);
  put(g, ")", at);
  put(g, ";", at);
}

static var *coll_slots(gen *g, const kn_tok *at);

/* After a group's `sync` (toks[k]): `();`, or an error; the index after. */
static size_t sync_call_end(gen *g, size_t k) {
  if (!kn_is(&g->t[k + 1], "(") || !kn_is(&g->t[k + 2], ")") || !kn_is(&g->t[k + 3], ";"))
    ERR(g, &g->t[k], "expected `sync();`: a group's sync() is a statement of its own");
  return k + 4;
}

/* __syncthreads_count/and/or (kn_coll.c) as a statement of its own:
 * `c(p);`, `x = c(p);` or `T x = c(p);`; returns the index after it, or 0. */
static size_t coll_stmt(gen *g, frame *fr, size_t i, size_t end) {
  size_t j = i, name = 0;
  while (j < end && type_word(g, &g->t[j])) j++;
  if (j > i && g->t[j].kind == KT_ID && kn_is(&g->t[j + 1], "=")) name = j, j += 2;
  else if (j == i && g->t[j].kind == KT_ID && kn_is(&g->t[j + 1], "=")) name = j, j += 2;
  else j = i;
  kn_coll c = kn_coll_of(&g->t[j]);
  if (!c) return 0;
  const kn_tok *at = &g->t[j];
  if (!kn_is(&g->t[j + 1], "(")) ERR(g, at, "'%.*s' is a function: call it", (int)at->n, at->s);
  size_t close = match(g, j + 1, "(", ")");
  if (close == j + 2) ERR(g, at, "'%.*s' takes a predicate", (int)at->n, at->s);
  if (!kn_is(&g->t[close + 1], ";"))
    ERR(g, &g->t[close + 1], "'%.*s' is read as a statement of its own: `x = %.*s(p);`", (int)at->n, at->s,
        (int)at->n, at->s);
  const char *pred = render(g, fr, j + 2, close);
  const char *target = NULL;
  if (name && name > i) {   /* T x = ...: declared first, assigned below */
    put(g, type_string(g, i, name), &g->t[i]);
    target = declare(g, kn_str(g->K, &g->t[name]), fr->id);
    put(g, target, &g->t[name]);
    put(g, ";", &g->t[name]);
  } else if (name) {
    target = render(g, fr, i, i + 1);
  }
  size_t nvars = g->vars.n;
  var *slots = coll_slots(g, at);
  if (g->vars.n != nvars) ERR(g, at, "internal: the block's vote slots were not declared");
  lc_buf b;
  lc_buf_init(&b);
  kn_coll_block(&b, c, loc_name(g, slots), g->tlin, g->nthreads, target, pred);
  put_at(g, b.s, b.n, at->line, at->col);
  lc_buf_fini(&b);
  return close + 2;
}

/* Tries the statements the reader rewrites, at toks[i] (a statement's
 * start); returns the index after what it wrote, or 0. */
static size_t special_stmt(gen *g, frame *fr, size_t i, size_t end) {
  const kn_tok *t = &g->t[i];
  bool grid;
  for (size_t j = i; j < end && (storage_word(&g->t[j]) || kn_is(&g->t[j], "volatile")); j++)
    if (kn_is(&g->t[j], "__shared__")) return find_semi(g, i) + 1;   /* read before the threads were written */
  if (kn_is(t, "printf") || kn_is(t, "__nanosleep") || kn_is(t, "__trap") || kn_is(t, "__brkpt")) {
    if (!kn_is(&g->t[i + 1], "(")) return 0;
    size_t close = match(g, i + 1, "(", ")");
    if (kn_is(&g->t[close + 1], ";")) return close + 2;
    return 0;
  }
  if (kn_is(t, "assert")) {
    if (!kn_is(&g->t[i + 1], "(")) ERR(g, t, "expected '(' after assert");
    size_t close = match(g, i + 1, "(", ")");
    char name[64];
    snprintf(name, sizeof name, "assert_line%d", t->line);
    put(g, "if", t);
    put(g, "(", t);
    put(g, "!", t);
    put(g, "(", t);
    emit(g, fr, i + 2, close, false);
    put(g, ")", &g->t[close]);
    put(g, ")", &g->t[close]);
    put(g, name, &g->t[close]);
    put(g, "=", &g->t[close]);
    put(g, "0", &g->t[close]);
    put(g, ";", &g->t[close]);
    bool seen = false;
    for (size_t k = 0; k < g->asserts.n; k++) seen |= g->asserts.v[k] == t->line;
    if (!seen) ERR(g, t, "internal: an assert not found before the threads were written");
    return kn_is(&g->t[close + 1], ";") ? close + 2 : close + 1;
  }
  if (kn_is(t, "__syncwarp")) {
    if (g->nthreads > 32)
      ERR(g, t, "__syncwarp() in a block of %d threads: warps of a block larger than one warp are not modelled",
          g->nthreads);
    size_t close = match(g, i + 1, "(", ")");
    sync_block(g, t);
    return kn_is(&g->t[close + 1], ";") ? close + 2 : close + 1;
  }
  /* cooperative groups: block.sync(), cg::sync(block), this_thread_block().sync(), this_grid().sync() */
  if ((cg_name(t, "this_thread_block") || cg_name(t, "this_grid")) && kn_is(&g->t[i + 1], "(") &&
      kn_is(&g->t[i + 2], ")") && kn_is(&g->t[i + 3], ".") && kn_is(&g->t[i + 4], "sync")) {
    if (cg_name(t, "this_grid")) grid_sync(g, t);
    else sync_block(g, t);
    return sync_call_end(g, i + 4);
  }
  if (t->kind == KT_ID && is_handle(g, t, &grid) && kn_is(&g->t[i + 1], ".") && kn_is(&g->t[i + 2], "sync")) {
    if (grid) grid_sync(g, t);
    else sync_block(g, t);
    return sync_call_end(g, i + 2);
  }
  if (cg_name(t, "sync") && kn_is(&g->t[i + 1], "(") && is_handle(g, &g->t[i + 2], &grid)) {
    if (grid) grid_sync(g, t);
    else sync_block(g, t);
    return find_semi(g, i) + 1;
  }
  /* T h = this_grid(); auto b = cg::this_thread_block(); */
  size_t semi = 0;
  for (size_t j = i; j < end && j < i + 8; j++)
    if (kn_is(&g->t[j], "=") && (cg_name(&g->t[j + 1], "this_grid") || cg_name(&g->t[j + 1], "this_thread_block"))) {
      if (g->t[j - 1].kind != KT_ID) break;
      handle h = {kn_str(g->K, &g->t[j - 1]), cg_name(&g->t[j + 1], "this_grid")};
      lc_vec_push(&g->handles, h);
      semi = find_semi(g, j);
      return semi + 1;
    }
  size_t coll = coll_stmt(g, fr, i, end);
  if (coll) return coll;
  /* f(...);  x = f(...);  T x = f(...);  with f a function of several statements */
  func *f = find_func(g, t);
  if (f && !f->expr && kn_is(&g->t[i + 1], "(")) {
    size_t after = inline_call(g, fr, f, i, true, NULL);
    if (!kn_is(&g->t[after], ";")) ERR(g, &g->t[after], "expected ';' after the call of '%.*s'", (int)t->n, t->s);
    return after + 1;
  }
  if (t->kind == KT_ID && kn_is(&g->t[i + 1], "=") && (f = find_func(g, &g->t[i + 2])) && !f->expr) {
    const char *x = render(g, fr, i, i + 1);
    size_t after = inline_call(g, fr, f, i + 2, true, x);
    if (!kn_is(&g->t[after], ";")) ERR(g, &g->t[after], "expected ';' after the call of '%.*s'", (int)g->t[i + 2].n,
                                      g->t[i + 2].s);
    return after + 1;
  }
  if (type_word(g, t)) {
    size_t j = i;
    while (j < end && type_word(g, &g->t[j])) j++;
    while (kn_is(&g->t[j], "*")) j++;
    if (g->t[j].kind == KT_ID && kn_is(&g->t[j + 1], "=") && (f = find_func(g, &g->t[j + 2])) && !f->expr) {
      /* T x;  then  x = f(...) */
      const char *type = type_string(g, i, j);
      char *name = kn_str(g->K, &g->t[j]);
      put(g, type, t);
      const char *as = declare(g, name, fr->id);
      put(g, as, &g->t[j]);
      put(g, ";", &g->t[j]);
      size_t after = inline_call(g, fr, f, j + 2, true, as);
      if (!kn_is(&g->t[after], ";")) ERR(g, &g->t[after], "expected ';' after the call of '%.*s'",
                                        (int)g->t[j + 2].n, g->t[j + 2].s);
      return after + 1;
    }
  }
  return 0;
}

/* A declaration at toks[i]: its type words, then its declarators (each
 * name declared).  Returns the index of the first declared name, or 0. */
static size_t decl_start(gen *g, size_t i, size_t end) {
  const kn_tok *t = &g->t[i];
  if (!type_word(g, t)) return 0;
  size_t j = i;
  if (kn_is(&g->t[j + 1], "<")) {   /* cuda::atomic_ref<int, S> f(*p); */
    j = match(g, j + 1, "<", ">") + 1;
  } else {
    while (j < end && type_word(g, &g->t[j])) j++;
  }
  while (kn_is(&g->t[j], "*") || kn_is(&g->t[j], "&")) j++;
  if (j >= end || g->t[j].kind != KT_ID) return 0;
  const kn_tok *n = &g->t[j + 1];
  if (kn_is(n, "=") || kn_is(n, ";") || kn_is(n, ",") || kn_is(n, "[") || kn_is(n, "(")) return j;
  return 0;
}

/* Writes toks[i .. end) of frame fr; `stmt`: statements (else an expression). */
/* At the ',' (token i) before a declaration's next declarator: its '*'s
 * and its name, declared in the frame; the token after the name. */
static size_t next_declarator(gen *g, const frame *fr, size_t i) {
  while (kn_is(&g->t[i + 1], "*")) {
    i++;
    put_tok(g, &g->t[i]);
  }
  char *s = kn_str(g->K, &g->t[i + 1]);
  const char *as = declare(g, s, fr->id);
  put_at(g, as, strlen(as), g->t[i + 1].line, g->t[i + 1].col);
  return i + 2;
}

static void emit(gen *g, frame *fr, size_t i, size_t end, bool stmt) {
  bool start = stmt;        /* at the start of a statement */
  int paren = 0;
  int headers[MAX_HEADERS]; /* paren depths at which control headers close */
  size_t nheaders = 0;
  bool decl = false;        /* inside a declaration's declarators (a ',' starts the next) */
  const char *decl_type = "";
  int decl_paren = 0;
  while (i < end) {
    const kn_tok *t = &g->t[i];
    if (t->kind == KT_EOF) ERR(g, t, "unexpected end of file");
    if (start) {
      start = false;
      size_t next = special_stmt(g, fr, i, end);
      if (next) {
        i = next;
        start = true;
        continue;
      }
      size_t name = decl_start(g, i, end);
      if (name) {
        size_t tend = name;
        while (tend > i && (kn_is(&g->t[tend - 1], "*") || kn_is(&g->t[tend - 1], "&"))) tend--;
        decl_type = type_string(g, i, tend);
        for (size_t j = i; j < name; j++) {
          const kn_tok *w = &g->t[j];
          if (kn_is(w, "const") || kn_is(w, "__restrict__") || kn_is(w, "register")) continue;
          alias *a = find_alias(g, w);
          if (a) put_at(g, type_string(g, j, j + 1), strlen(type_string(g, j, j + 1)), w->line, w->col);
          else put_tok(g, w);
        }
        char *s = kn_str(g->K, &g->t[name]);
        const char *as = declare(g, s, fr->id);
        put_at(g, as, strlen(as), g->t[name].line, g->t[name].col);
        decl = true;
        decl_paren = paren;
        i = name + 1;
        continue;
      }
    }
    if (kn_is(t, "return") && fr->f) {
      if (i != fr->f->last) ERR(g, t, "a return before the end of device function '%.*s' is not modelled "
                                "(write it with if/else)", (int)fr->f->name->n, fr->f->name->s);
      size_t semi = find_semi(g, i);
      if (semi > i + 1) {
        if (fr->target) {
          put(g, fr->target, t);
          put(g, "=", t);
          put(g, "(", t);
          emit(g, fr, i + 1, semi, false);
          put(g, ")", &g->t[semi]);
          put(g, ";", &g->t[semi]);
        } else {
          emit(g, fr, i + 1, semi, false);
          put(g, ";", &g->t[semi]);
        }
      }
      i = semi + 1;
      start = true;
      continue;
    }
    if (kn_is(t, "const") || kn_is(t, "__restrict__") || kn_is(t, "register")) {
      i++;
      continue;
    }
    if (t->kind == KT_STR) ERR(g, t, "a string is not modelled here (only in printf and assert messages)");
    if (t->kind == KT_CHR || t->kind == KT_NUM) {
      size_t k = i;
      int64_t v = kn_const_expr(g->K, g->t, i + 1, &k, false);
      char buf[32];
      snprintf(buf, sizeof buf, "%lld", (long long)v);
      put_at(g, buf, strlen(buf), t->line, t->col);
      i++;
      continue;
    }
    int b = builtin_index(g, i);
    if (b >= 0) {
      char buf[16];
      snprintf(buf, sizeof buf, "%d", b);
      put_at(g, buf, strlen(buf), t->line, t->col);
      i += 3;
      continue;
    }
    if (kn_is(t, "threadIdx") || kn_is(t, "blockIdx") || kn_is(t, "blockDim") || kn_is(t, "gridDim"))
      ERR(g, t, "expected %.*s.x, .y or .z", (int)t->n, t->s);
    if (kn_is(t, "warpSize")) {
      put(g, "32", t);
      i++;
      continue;
    }
    if (kn_is(t, "&") && g->t[i + 1].kind == KT_ID && !cur_name(g, &g->t[i + 1], fr->id)) {
      var *v = find_var(g, &g->t[i + 1]);
      if (v && v->len < 0 && !kn_is(&g->t[i + 2], "[")) {   /* &x of a scalar location: the location */
        const char *ln = loc_name(g, v);
        put_at(g, ln, strlen(ln), t->line, t->col);
        i += 2;
        continue;
      }
    }
    if (fr->f && kn_is(t, "*") && g->t[i + 1].kind == KT_ID && !kn_is(&g->t[i + 2], "[") &&
        !kn_is(&g->t[i + 2], "(") && !kn_is(&g->t[i + 2], ".") && !kn_is(&g->t[i + 2], "->")) {
      /* *p of a parameter into an array: A[e] */
      size_t k = 0;
      for (; k < fr->f->params.n; k++)
        if (tok_eq_str(&g->t[i + 1], fr->f->params.v[k].name->s, fr->f->params.v[k].name->n)) break;
      if (k < fr->f->params.n && fr->base && fr->base[k]) {
        lc_buf ab;
        lc_buf_init(&ab);
        lc_buf_printf(&ab, "%s[%s]", fr->base[k], fr->off[k]);
        put_at(g, ab.s, ab.n, t->line, t->col);
        lc_buf_fini(&ab);
        i += 2;
        continue;
      }
    }
    if (t->kind == KT_ID) {
      /* a parameter of the inlined function */
      if (fr->f) {
        size_t k = 0;
        for (; k < fr->f->params.n; k++)
          if (tok_eq_str(t, fr->f->params.v[k].name->s, fr->f->params.v[k].name->n)) break;
        if (k < fr->f->params.n && fr->base && fr->base[k] && kn_is(&g->t[i + 1], "[")) {
          /* p[i] of a parameter into an array: A[(e) + (i)] */
          size_t close = match(g, i + 1, "[", "]");
          const char *idx = render(g, fr, i + 2, close);
          lc_buf ab;
          lc_buf_init(&ab);
          lc_buf_printf(&ab, "%s[(%s) + (%s)]", fr->base[k], fr->off[k], idx);
          put_at(g, ab.s, ab.n, t->line, t->col);
          lc_buf_fini(&ab);
          i = close + 1;
          continue;
        }
        if (k < fr->f->params.n && fr->arg[k]) {
          put_at(g, fr->arg[k], strlen(fr->arg[k]), t->line, t->col);
          i++;
          continue;
        }
      }
      const char *local = cur_name(g, t, fr->id);
      if (local) {
        put_at(g, local, strlen(local), t->line, t->col);
        i++;
        continue;
      }
      if (!fr->f) {
        for (size_t k = 0; k < g->kernel->params.n; k++) {
          const param *p = &g->kernel->params.v[k];
          if (!tok_eq_str(t, p->name->s, p->name->n)) continue;
          if (p->pointer) {   /* the location it names (a parameter hides a function of its name) */
            put_tok(g, t);
            i++;
            goto next;
          }
          input *in = find_input(g, p->name);
          char buf[32];
          snprintf(buf, sizeof buf, "%lld", (long long)in->values.v[0]);
          put_at(g, buf, strlen(buf), t->line, t->col);
          i++;
          goto next;
        }
      }
      var *v = find_var(g, t);
      if (v) {
        const char *ln = loc_name(g, v);
        if (v->len < 0) {
          size_t len = strlen(ln) + 4;
          char *w = lc_arena_alloc(g->K->a, len);
          snprintf(w, len, "(*%s)", ln);
          ln = w;
        }
        put_at(g, ln, strlen(ln), t->line, t->col);
        i++;
        continue;
      }
      func *f = find_func(g, t);
      if (f) {
        i = inline_call(g, fr, f, i, false, NULL);
        continue;
      }
      alias *a = find_alias(g, t);
      if (a) {
        const char *s = type_string(g, i, i + 1);
        put_at(g, s, strlen(s), t->line, t->col);
        i++;
        continue;
      }
      if (cg_name(t, "this_grid") || cg_name(t, "this_thread_block") || cg_name(t, "grid_group"))
        ERR(g, t, "cooperative groups are read as `this_thread_block().sync()`, `g.sync()` and "
            "`cg::sync(g)` statements only");
      if (kn_coll_of(t))
        ERR(g, t, "'%.*s' is read as a statement of its own (`x = %.*s(p);`, `T x = %.*s(p);`), not inside "
            "an expression", (int)t->n, t->s, (int)t->n, t->s, (int)t->n, t->s);
      if (kn_is(t, "__any_sync") || kn_is(t, "__all_sync") || kn_is(t, "__ballot_sync") || kn_is(t, "__shfl_sync") ||
          kn_is(t, "__shfl_down_sync") || kn_is(t, "__shfl_up_sync") || kn_is(t, "__shfl_xor_sync") ||
          kn_is(t, "__activemask"))
        ERR(g, t, "'%.*s' (a warp vote or shuffle) is not modelled: it exchanges values between lanes without "
            "ordering memory, which the event model's barriers cannot say (docs/kernels.md)", (int)t->n, t->s);
      if (kn_is(t, "__shared__")) ERR(g, t, "a __shared__ declaration is a statement of its own");
      if (kn_is(t, "auto")) ERR(g, t, "'auto' is not read: write the type");
      if (kn_is(t, "if") || kn_is(t, "while") || kn_is(t, "for") || kn_is(t, "switch")) {
        if (nheaders == MAX_HEADERS) ERR(g, t, "control statements nest more than %d deep", MAX_HEADERS);
        headers[nheaders++] = paren;
      }
      put_tok(g, t);
      if (kn_is(t, "else") || kn_is(t, "do")) start = true;
      i++;
      continue;
    }
    /* punctuation */
    if (kn_is(t, ",") && decl && paren == 0 && paren == decl_paren && g->t[i + 1].kind == KT_ID) {
      /* int a = 1, b = 2;  is  int a = 1; int b = 2;  (the dialect declares one name a statement) */
      put(g, ";", t);
      put(g, decl_type, t);
      i = next_declarator(g, fr, i);
      continue;
    }
    put_tok(g, t);
    if (kn_is(t, "(")) {
      paren++;
      /* for (int i = 0; ...): a declaration may start the header */
      if (i > 0 && kn_is(&g->t[i - 1], "for")) start = true;
    } else if (kn_is(t, ")")) {
      paren--;
      if (nheaders > 0 && headers[nheaders - 1] == paren) {
        nheaders--;
        start = true;
      }
    } else if (kn_is(t, "{")) {
      g->depth++;
      start = true;
      decl = false;
    } else if (kn_is(t, "}")) {
      close_scope(g);
      start = true;
      decl = false;
    } else if (kn_is(t, ";")) {
      decl = false;
      if (paren == 0) start = true;
    } else if (kn_is(t, ",") && decl && paren == decl_paren && g->t[i + 1].kind == KT_ID) {
      /* the next declarator: int a = 1, b = 2; */
      i = next_declarator(g, fr, i);
      continue;
    }
    i++;
  next:;
  }
}

/* ---- the test ---------------------------------------------------------------------------- */

/* The __shared__ array a call of the block's collectives combines through
 * (kn_coll.c): one int per thread of the block, one array per call as
 * written (a location of its own makes fewer sources for the engines to
 * try than one shared by every call). */
static var *coll_slots(gen *g, const kn_tok *at) {
  char buf[64];
  snprintf(buf, sizeof buf, KN_COLL_SLOTS "_L%dC%d", at->line, at->col);
  for (size_t k = 0; k < g->vars.n; k++)
    if (tok_eq_str(g->vars.v[k].name, buf, strlen(buf))) return &g->vars.v[k];
  kn_tok *name = lc_arena_alloc(g->K->a, sizeof *name);
  *name = *at;
  name->s = lc_arena_strdup(g->K->a, buf);
  name->n = strlen(buf);
  var v = {0};
  v.name = name;
  v.type = "int";
  v.shared = true;
  v.len = g->nthreads;
  lc_vec_push(&g->vars, v);
  return &g->vars.v[g->vars.n - 1];
}

/* Finds the __shared__ declarations and the asserts of the kernel and of
 * every function it may call (all of the file's device functions). */
static void prescan(gen *g) {
  for (size_t k = 0; k < g->funcs.n; k++) {
    func *f = &g->funcs.v[k];
    if (f->global && f != g->kernel) continue;
    for (size_t j = f->body; j < f->end; j++) {
      const kn_tok *t = &g->t[j];
      if (kn_is(t, "__shared__")) {
        size_t semi = find_semi(g, j);
        size_t from = j;   /* the statement's start: `volatile __shared__ int x;` keeps its volatile */
        while (from > f->body + 1 && (storage_word(&g->t[from - 1]) || kn_is(&g->t[from - 1], "volatile"))) from--;
        for (size_t e = from; e < j; e++) g->in_extern |= kn_is(&g->t[e], "extern");
        var *v = read_var(g, from, semi, true);
        g->in_extern = false;
        v->decl = t;
        v->decl_end = semi;
        j = semi;
      } else if (kn_is(t, "assert") && kn_is(&g->t[j + 1], "(")) {
        bool seen = false;
        for (size_t a = 0; a < g->asserts.n; a++) seen |= g->asserts.v[a] == t->line;
        if (!seen) lc_vec_push(&g->asserts, t->line);
      } else if (kn_coll_of(t)) {
        (void)coll_slots(g, t);
      }
    }
  }
}

static void put_line(gen *g, int line, const char *fmt, ...) LC_PRINTF(3, 4);
static void put_line(gen *g, int line, const char *fmt, ...) {
  new_line(g, line);
  va_list ap;
  va_start(ap, fmt);
  lc_buf_vprintf(&g->out, fmt, ap);
  va_end(ap);
}

/* The element type a location is declared with in the init block and a
 * thread's parameter: the pointer's (or variable's) type without its `*`. */
static void init_entry(gen *g, int line, const char *name, long len, const int64_t *vals, size_t nvals) {
  if (len < 0) {
    put_line(g, line, "  [%s] = %lld;", name, (long long)(nvals ? vals[0] : 0));
    return;
  }
  new_line(g, line);
  lc_buf_printf(&g->out, "  int %s[%ld] = {", name, len);
  for (long k = 0; k < len; k++)
    lc_buf_printf(&g->out, "%s%lld", k ? ", " : "", (long long)((size_t)k < nvals ? vals[k] : 0));
  lc_buf_puts(&g->out, "};");
}

/* The question: Dartagnan's `and`, `or` and `X[0]` in the litmus dialect's
 * spelling, column for column. */
static void question(gen *g, const kn_header *h, bool forall_needed) {
  char *q = lc_xstrdup(h->text);
  size_t n = strlen(q);
  for (size_t k = 0; k < n; k++) {
    bool wstart = k == 0 || !(isalnum((unsigned char)q[k - 1]) || q[k - 1] == '_');
    if (wstart && !strncmp(q + k, "and", 3) && !(isalnum((unsigned char)q[k + 3]) || q[k + 3] == '_'))
      memcpy(q + k, "/\\ ", 3);
    if (wstart && !strncmp(q + k, "or", 2) && !(isalnum((unsigned char)q[k + 2]) || q[k + 2] == '_'))
      memcpy(q + k, "\\/", 2);
    if (!strncmp(q + k, "[0]", 3) && k > 0 && (isalnum((unsigned char)q[k - 1]) || q[k - 1] == '_'))
      memcpy(q + k, "   ", 3);
  }
  (void)forall_needed;
  new_line(g, h->line);
  while (g->out.n - g->bol + 1 < (size_t)h->col) lc_buf_putc(&g->out, ' ');
  lc_buf_puts(&g->out, q);
  free(q);
}

static void write_asserts(gen *g, lc_buf *b) {
  int k = g->nblocks * g->nthreads;
  for (int p = 0; p < k; p++)
    for (size_t a = 0; a < g->asserts.n; a++)
      lc_buf_printf(b, "%s%d:assert_line%d == 1", b->n ? " /\\ " : "", p, g->asserts.v[a]);
}

static void write_test(gen *g) {
  kn_reader *K = g->K;
  func *kf = g->kernel;
  int kline = kf->name->line;
  put_line(g, kline, "CUDA %.*s", (int)kf->name->n, kf->name->s);
  put_line(g, kline, "\"Kernel %.*s of %s, launched <<<dim3(%d, %d, %d), dim3(%d, %d, %d)>>>%s: thread P(k) is "
           "global thread k = blockIdx * blockDim + threadIdx, in CTA blockIdx.\"", (int)kf->name->n, kf->name->s,
           K->src->name, g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2],
           g->cooperative ? " cooperatively" : "");
  put_line(g, kline, "{");
  /* the kernel's pointer parameters, then the __device__ variables, then per block its __shared__ ones */
  for (size_t k = 0; k < kf->params.n; k++) {
    const param *p = &kf->params.v[k];
    input *in = find_input(g, p->name);
    if (!in) ERR(g, p->name, "parameter '%.*s' has no value: give it in @Input (// @Input: %.*s = {0})",
                 (int)p->name->n, p->name->s, (int)p->name->n, p->name->s);
    in->used = true;
    if (!p->pointer) {
      if (in->values.n != 1 || in->braces)
        kn_error(K, in->line, in->col, "%s is a scalar parameter: give one value (%s = 1)", in->name, in->name);
      continue;
    }
    if (strchr(p->type, '&')) ERR(g, p->name, "reference parameters are not modelled: write a pointer");
    init_entry(g, in->line, in->name, in->values.n > 1 || in->braces ? (long)in->values.n : -1, in->values.v,
               in->values.n);
    if (in->values.n == 1 && in->braces) {
      /* x = {0}: one element, which the dialect names x */
      g->out.n = g->bol;
      g->out.s[g->out.n] = 0;
      lc_buf_printf(&g->out, "  [%s] = %lld;", in->name, (long long)in->values.v[0]);
    }
  }
  for (size_t k = 0; k < g->vars.n; k++) {
    var *v = &g->vars.v[k];
    if (v->shared) continue;
    input *in = find_input(g, v->name);
    if (in) {
      in->used = true;
      if (in->values.n > (size_t)(v->len < 0 ? 1 : v->len))
        kn_error(K, in->line, in->col, "%s has %ld element%s, given %zu values", in->name, v->len < 0 ? 1 : v->len,
                 v->len == 1 || v->len < 0 ? "" : "s", in->values.n);
    }
    init_entry(g, v->name->line, loc_name(g, v), v->len, in ? in->values.v : v->init.v, in ? in->values.n : v->init.n);
  }
  for (int b = 0; b < g->nblocks; b++)
    for (size_t k = 0; k < g->vars.n; k++) {
      var *v = &g->vars.v[k];
      if (!v->shared) continue;
      g->blin = b;
      init_entry(g, v->name->line, loc_name(g, v), v->len, NULL, 0);
    }
  for (size_t k = 0; k < g->inputs.n; k++)
    if (!g->inputs.v[k].used)
      kn_error(K, g->inputs.v[k].line, g->inputs.v[k].col, "@Input names %s, which is no parameter of kernel %.*s "
               "nor a __device__ variable", g->inputs.v[k].name, (int)kf->name->n, kf->name->s);
  put_line(g, kline, "}");
  /* the threads */
  for (int b = 0; b < g->nblocks; b++)
    for (int th = 0; th < g->nthreads; th++) {
      g->blin = b;
      g->tlin = th;
      g->bx[0] = b % g->grid[0], g->bx[1] = b / g->grid[0] % g->grid[1], g->bx[2] = b / (g->grid[0] * g->grid[1]);
      g->tx[0] = th % g->block[0], g->tx[1] = th / g->block[0] % g->block[1];
      g->tx[2] = th / (g->block[0] * g->block[1]);
      g->declared.n = g->binds.n = g->handles.n = 0;
      g->depth = 0;
      put_line(g, kline, "P%d@cta %d,gpu 0 (", b * g->nthreads + th, b);
      int np = 0;
      for (size_t k = 0; k < kf->params.n; k++)
        if (kf->params.v[k].pointer)
          lc_buf_printf(&g->out, "%s%s %.*s", np++ ? ", " : "", kf->params.v[k].type, (int)kf->params.v[k].name->n,
                        kf->params.v[k].name->s);
      for (size_t k = 0; k < g->vars.n; k++)
        lc_buf_printf(&g->out, "%s%s* %s", np++ ? ", " : "", g->vars.v[k].type, loc_name(g, &g->vars.v[k]));
      lc_buf_puts(&g->out, ") {");
      for (size_t a = 0; a < g->asserts.n; a++) {
        char name[64];
        snprintf(name, sizeof name, "assert_line%d", g->asserts.v[a]);
        put_line(g, g->asserts.v[a], "  int %s = 1;", declare(g, lc_arena_strdup(K->a, name), -1));
      }
      frame top = {NULL, 0, NULL, NULL, NULL, NULL, NULL};
      g->nframes = 0;
      emit(g, &top, kf->body + 1, kf->end, true);
      put_line(g, g->t[kf->end].line, "}");
    }
  /* the question */
  if (g->K->filter.n) {
    const kn_header *h = &K->filter.v[0];
    new_line(g, h->line);
    lc_buf_printf(&g->out, "filter (%s)", h->text);
  }
  lc_buf asserts;
  lc_buf_init(&asserts);
  write_asserts(g, &asserts);
  kn_header given = {0};
  if (K->o && K->o->output) given = (kn_header){K->o->output, 0, 0};
  else if (K->output.n) given = K->output.v[K->output.n - 1];
  if (!given.text) {
    /* no question: the final values of the kernel's arrays are the answer */
    new_line(g, kline);
    lc_buf_puts(&g->out, "locations [");
    size_t nloc = 0;
    for (size_t k = 0; k < kf->params.n && nloc < 32; k++) {
      const param *p = &kf->params.v[k];
      input *in = find_input(g, p->name);
      if (!p->pointer || !in) continue;
      for (size_t e = 0; e < in->values.n && nloc < 32; e++, nloc++) {
        if (e == 0) lc_buf_printf(&g->out, "%s%s", nloc ? "; " : "", in->name);
        else lc_buf_printf(&g->out, "; %s[%zu]", in->name, e);
      }
    }
    lc_buf_puts(&g->out, "]");
    new_line(g, kline);
    lc_buf_printf(&g->out, "forall (%s)", asserts.n ? asserts.s : "true");
  } else {
    question(g, &given, asserts.n > 0);
    if (asserts.n) {
      /* the asserts join the question: forall (Q /\ A); not exists is forall (~Q /\ A) */
      const char *q = given.text;
      while (*q == ' ') q++;
      if (!strncmp(q, "forall", 6)) {
        lc_buf_printf(&g->out, " /\\ %s", asserts.s);
        /* forall Q /\ A: the prefix keeps its own parentheses, the rest are conjuncts */
        char *text = lc_xstrdup(g->out.s + g->bol);
        char *f = strstr(text, "forall");
        g->out.n = g->bol;
        g->out.s[g->out.n] = 0;
        lc_buf_printf(&g->out, "%.*sforall (%s)", (int)(f - text), text, f + 6);
        free(text);
      } else {
        lc_buf_fini(&asserts);
        kn_error(K, given.line, given.col, "kernel %.*s has assert(): ask a forall question (or none), the asserts "
                 "join it", (int)kf->name->n, kf->name->s);
      }
    }
  }
  lc_buf_fini(&asserts);
  lc_buf_putc(&g->out, '\n');
}

static void gen_free(gen *g) {
  for (int k = 0; k < g->nrender; k++) lc_buf_fini(g->raws[k]);
  for (size_t k = 0; k < g->funcs.n; k++) lc_vec_free(&g->funcs.v[k].params);
  for (size_t k = 0; k < g->vars.n; k++) lc_vec_free(&g->vars.v[k].init);
  for (size_t k = 0; k < g->inputs.n; k++) lc_vec_free(&g->inputs.v[k].values);
  lc_vec_free(&g->funcs);
  lc_vec_free(&g->vars);
  lc_vec_free(&g->aliases);
  lc_vec_free(&g->inputs);
  lc_vec_free(&g->declared);
  lc_vec_free(&g->binds);
  lc_vec_free(&g->handles);
  lc_vec_free(&g->asserts);
  lc_buf_fini(&g->out);
  lc_vec_free(&g->line_of);
}

bool kn_is_kernel_path(const char *path) {
  size_t n = strlen(path);
  return (n > 3 && !strcmp(path + n - 3, ".cu")) || (n > 4 && !strcmp(path + n - 4, ".cuh"));
}

/* Reads the file and writes the test into g; false on an error (in K->d). */
static bool translate(kn_reader *K, gen *g) {
  memset(g, 0, sizeof *g);
  g->K = K;
  lc_buf_init(&g->out);
  if (setjmp(K->fail)) return false;
  kn_preprocess(K);
  g->t = K->toks.v;
  g->nt = K->toks.n;
  read_file(g);
  const kn_options *o = K->o;
  for (size_t k = 0; k < g->funcs.n; k++) {
    func *f = &g->funcs.v[k];
    if (!f->global) continue;
    if (o && o->kernel ? tok_eq_str(f->name, o->kernel, strlen(o->kernel)) : true) {
      if (g->kernel && !(o && o->kernel))
        ERR(g, f->name, "the file has several kernels (%.*s, %.*s): pick one with --kernel NAME",
            (int)g->kernel->name->n, g->kernel->name->s, (int)f->name->n, f->name->s);
      g->kernel = f;
    }
  }
  if (!g->kernel) {
    if (o && o->kernel) kn_error(K, 1, 1, "no __global__ function named %s", o->kernel);
    kn_error(K, 1, 1, "no __global__ function: a kernel file has one (docs/kernels.md)");
  }
  g->shmem = -1;
  if (o && o->launch) read_launch(g, o->launch, 0, 0);
  else if (K->launch.n) read_launch(g, K->launch.v[K->launch.n - 1].text, K->launch.v[K->launch.n - 1].line,
                                    K->launch.v[K->launch.n - 1].col);
  else ERR(g, g->kernel->name, "no launch: write `// @Launch: <<<blocks, threads>>>` or give --launch");
  if (o && o->input) read_inputs(g, o->input, 0, 0);
  else
    for (size_t k = 0; k < K->input.n; k++) read_inputs(g, K->input.v[k].text, K->input.v[k].line, K->input.v[k].col);
  prescan(g);
  for (size_t k = 0; k < g->vars.n; k++)   /* extern __shared__ arrays, sized by the launch */
    if (g->vars.v[k].is_extern) g->vars.v[k].len = (long)extern_len(g, &g->vars.v[k], g->vars.v[k].name);
  write_test(g);
  return true;
}

static void reader_init(kn_reader *K, const lc_source *src, const kn_options *o, lc_diag *d) {
  memset(K, 0, sizeof *K);
  K->src = src;
  K->o = o;
  K->d = d;
  K->a = lc_arena_new();
}

static void reader_fini(kn_reader *K) {
  lc_vec_free(&K->toks);
  lc_vec_free(&K->launch);
  lc_vec_free(&K->input);
  lc_vec_free(&K->output);
  lc_vec_free(&K->filter);
  lc_arena_free(K->a);
}

char *kn_translate(const lc_source *src, const kn_options *o, lc_diag *d) {
  assert(src && src->text && d);
  kn_reader K;
  gen g;
  reader_init(&K, src, o, d);
  char *text = NULL;
  if (translate(&K, &g)) text = lc_xstrdup(g.out.s);
  gen_free(&g);
  reader_fini(&K);
  return text;
}

lt_test *kn_read(const lc_source *src, const kn_options *o, lc_diag *d) {
  assert(src && src->text && src->name && d);
  kn_reader K;
  gen g;
  reader_init(&K, src, o, d);
  lt_test *t = NULL;
  if (translate(&K, &g)) {
    lc_source made = {src->name, g.out.s, g.out.n, g.line_of.v, g.line_of.n};
    t = lt_parse(&made, d);
    if (t && t->nthreads == (size_t)g.nblocks * (size_t)g.nthreads) {
      const char **labels = lc_arena_alloc(t->arena, t->nthreads * sizeof *labels);
      for (size_t k = 0; k < t->nthreads; k++) {
        char buf[64];
        snprintf(buf, sizeof buf, " (block %zu, thread %zu)", k / (size_t)g.nthreads, k % (size_t)g.nthreads);
        labels[k] = lc_arena_strdup(t->arena, buf);
      }
      t->thread_label = labels;
    }
    if (t) t->cooperative |= g.cooperative;
  }
  gen_free(&g);
  reader_fini(&K);
  return t;
}
