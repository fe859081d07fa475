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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kn_int.h"
#include "litmus/cpp_ast.h"

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
  size_t def, def_end; /* a default argument, toks[def .. def_end); def 0: none */
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
  int owner;           /* a member function: structs index + 1; 0 */
  bool ctor;           /* a constructor */
  size_t inits, inits_end;  /* a constructor's member initialisers, toks[inits .. inits_end) */
  int tmpl;            /* its template parameters: tmpls index + 1; 0 */
  bool early;          /* it returns before its last statement */
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
  LC_VEC(unsigned char) fp;   /* per value: written as a float (values holds its bits) */
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
  int self;            /* a member function's object: objs index + 1; 0 */
  const char **targs;  /* f's template arguments, as text */
  const char *retflag; /* f returns early: the local set when it returns */
} frame;

typedef struct handle {
  const char *name;
  bool grid;
} handle;

/* A struct or class: its fields; its constructors and member functions
 * are in funcs (owner). */
typedef struct field {
  const kn_tok *name;
  size_t type_from, type_to;  /* its type, toks[type_from .. type_to) */
  bool pointer;
  size_t init, init_end;      /* a default member initialiser, toks[init .. init_end); init 0: none */
} field;

typedef struct sdef {
  const kn_tok *name;
  LC_VEC(field) fields;
  int tmpl;                   /* its template parameters: tmpls index + 1; 0 */
} sdef;

typedef struct tparam {
  const kn_tok *name;
  bool type;                  /* typename/class, else a value (template <int N>) */
  size_t def, def_end;        /* its default, toks[def .. def_end); def 0: none */
} tparam;

typedef struct tmpl {
  LC_VEC(tparam) params;
} tmpl;

/* What an object's field, a pointer or a reference stands for in a thread.
 * A pointer is resolved while the thread is written: its location (base)
 * is fixed, its offset in an array is a local (so `p = p + 1` and a
 * pointer assigned in a loop are run-time values). */
typedef struct slot {
  const char *local;   /* an integer field: its local; a pointer: its offset local */
  int var;             /* a field of a __shared__ object: vars index + 1 */
  bool pointer, ref;   /* a pointer (field or local), a reference */
  const char *base;    /* a pointer's location; NULL until it is given one */
  bool array;          /* base is an array (else a scalar location, offset 0) */
} slot;

/* An object in scope: a local, a __shared__ variable, a parameter bound
 * to its argument's object, `*this`. */
typedef struct objb {
  const char *name;
  int frame, depth;
  int s;               /* structs index */
  size_t first;        /* its fields: slots[first ..] */
  const char **targs;  /* a class template's arguments */
} objb;

/* A pointer or reference local: slots[slot]. */
typedef struct pbind {
  const char *name;
  int frame, depth;
  size_t slot;
} pbind;

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
  /* structs, objects, pointers and templates */
  LC_VEC(sdef) structs;
  LC_VEC(tmpl) tmpls;
  int cur_tmpl;        /* the template <...> just read: tmpls index + 1 */
  size_t kinst, kinst_end;    /* `template __global__ void k<int>(...);`: the arguments */
  const char **ktargs; /* the kernel's template arguments */
  LC_VEC(slot) slots;
  LC_VEC(objb) objs;
  LC_VEC(pbind) pbinds;
  int pending_self;    /* the object of the member function inline_call is about to inline */
  const char **pending_targs; /* the template arguments of that call */
  const struct frame *tframe; /* the frame being written: its template parameters are types */
} gen;

static bool tok_eq_str(const kn_tok *t, const char *s, size_t n) { return t->n == n && memcmp(t->s, s, n) == 0; }

#define ERR(g, tok, ...) kn_error((g)->K, (tok)->line, (tok)->col, __VA_ARGS__)

/* ---- writing ------------------------------------------------------------------------ */

static void new_line(gen *g, int line) {
  if (g->line_of.n > 0) lc_buf_putc(&g->out, '\n');
  lc_vec_push(&g->line_of, line);
  g->bol = g->out.n;
}

/* An integer literal written again in decimal, with the suffix that gives
 * it the type C gives the original (C11 6.4.4.1: the first of int, long
 * long - and unsigned and unsigned long long for a hexadecimal or octal
 * one, or with a `u` - that holds the value): `0xffffffff` is unsigned,
 * `1ull` unsigned long long, as the shifts and the wrap need. */
/* A floating-point literal: 1.5f, 2., .5, 1e3 (not 0x1e3). */
static bool float_literal(const kn_tok *t) {
  if (t->n > 1 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) return false;
  for (size_t k = 0; k < t->n; k++)
    if (t->s[k] == '.' || t->s[k] == 'e' || t->s[k] == 'E') return true;
  return false;
}

static void literal_out(const kn_tok *t, int64_t v, char *buf, size_t cap) {
  size_t n = t->n, longs = 0;
  bool uns = false;
  while (n > 1 && strchr("uUlL", t->s[n - 1])) {
    if (t->s[n - 1] == 'u' || t->s[n - 1] == 'U') uns = true;
    else longs++;
    n--;
  }
  bool radix = n > 1 && t->s[0] == '0';   /* hexadecimal or octal */
  uint64_t u = (uint64_t)v;
  const char *suffix;
  if (longs == 0 && !uns && u <= INT32_MAX) suffix = "";
  else if (longs == 0 && (uns || radix) && u <= UINT32_MAX) suffix = "u";
  else if (!uns && u <= INT64_MAX) suffix = "ll";
  else suffix = "ull";
  snprintf(buf, cap, "%llu%s", (unsigned long long)u, suffix);
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
    if (!g->funcs.v[i].owner && tok_eq_str(t, g->funcs.v[i].name->s, g->funcs.v[i].name->n)) return &g->funcs.v[i];
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

static const char *tsub(const gen *g, const frame *fr, const kn_tok *t, bool *type);

static bool type_word(gen *g, const kn_tok *t) {
  if (t->kind != KT_ID) return false;
  if (kn_is(t, "double")) ERR(g, t, "double values are not modelled: float values are (IEEE binary32)");
  bool ty = false;
  if (tsub(g, g->tframe, t, &ty) && ty) return true;
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
    bool ty = false;
    const char *sub = tsub(g, g->tframe, t, &ty);
    if (sub && ty) {
      if (b->n > 0) lc_buf_putc(b, ' ');
      lc_buf_puts(b, sub);
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
    size_t last = j - 1, def = 0;
    for (size_t q = from; q < j; q++)   /* int status = 0: a default argument */
      if (kn_is(&g->t[q], "=")) {
        def = q + 1;
        last = q - 1;
        break;
      } else if (kn_is(&g->t[q], "<")) {
        q = match(g, q, "<", ">");
      }
    if (def && def == j) ERR(g, &g->t[def - 1], "expected a default argument");
    if (last < from || g->t[last].kind != KT_ID)
      ERR(g, &g->t[j > from ? j - 1 : from], "expected a parameter name");
    if (last == from) ERR(g, &g->t[last], "parameter '%.*s' has no type", (int)g->t[last].n, g->t[last].s);
    param p = {type_string(g, from, last), &g->t[last], false, def, def ? j : 0};
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
  for (size_t j = b + 1; j < f->end; j++)
    if (kn_is(&g->t[j], "return") && j != f->last) f->early = true;
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
    bool ty = false;
    const char *sub = close == j + 2 ? tsub(g, g->tframe, &g->t[j + 1], &ty) : NULL;
    int64_t n;
    if (close == j + 1) {
      if (!g->in_extern) ERR(g, &g->t[j], "an array without a length: give its length");
      for (size_t e = 0; e < g->vars.n; e++)
        if (g->vars.v[e].is_extern)
          ERR(g, v.name, "a second extern __shared__ array ('%.*s' is one): they all start at one address, and "
              "arrays that overlap are not modelled", (int)g->vars.v[e].name->n, g->vars.v[e].name->s);
      n = 1;   /* sized once the launch is read (size_externs) */
    } else if (g->in_extern) {
      ERR(g, &g->t[j + 1], "an extern __shared__ array has no length: the launch gives its size");
    } else if (sub && !ty) {   /* T buf[N], N a template parameter of the kernel */
      char *e;
      while (*sub == '(') sub++;
      n = strtoll(sub, &e, 0);
      while (*e == ')' || *e == 'u' || *e == 'U') e++;
      if (*e) ERR(g, &g->t[j + 1], "the array length %.*s is %s: give an integer", (int)g->t[j + 1].n, g->t[j + 1].s, sub);
      k = close;
    } else {
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

/* ---- reading structs and templates ------------------------------------------------------- */

static int find_struct(gen *g, const kn_tok *t) {
  if (t->kind != KT_ID) return -1;
  for (size_t k = 0; k < g->structs.n; k++)
    if (tok_eq_str(t, g->structs.v[k].name->s, g->structs.v[k].name->n)) return (int)k;
  return -1;
}

/* template < params > at toks[i]: the parameters, for the declaration
 * that follows (g->cur_tmpl); `template __global__ void k<int>(int *);`
 * (an explicit instantiation) names the kernel's arguments.  Returns the
 * index after '>' (or after the instantiation). */
static size_t read_template(gen *g, size_t i) {
  const kn_tok *t = &g->t[i];
  if (!kn_is(&g->t[i + 1], "<")) {   /* an explicit instantiation */
    size_t semi = find_semi(g, i);
    for (size_t j = i + 1; j < semi; j++)
      if (kn_is(&g->t[j], "<") && g->t[j - 1].kind == KT_ID) {
        size_t close = match(g, j, "<", ">");
        if (g->kinst) ERR(g, &g->t[j - 1], "two explicit instantiations: pick one with --kernel NAME<...>");
        g->kinst = j;
        g->kinst_end = close;
        break;
      }
    return semi + 1;
  }
  if (g->cur_tmpl) ERR(g, t, "a template inside a template is not read (check the kernel with --via nvcc)");
  size_t close = match(g, i + 1, "<", ">");
  if (close == i + 2) ERR(g, t, "an explicit specialisation (template <>) is not read (check the kernel with --via nvcc)");
  tmpl tp = {0};
  lc_vec_push(&g->tmpls, tp);
  tmpl *p = &g->tmpls.v[g->tmpls.n - 1];
  size_t from = i + 2;
  for (size_t j = i + 2; j <= close; j++) {
    if (j < close && !kn_is(&g->t[j], ",")) {
      if (kn_is(&g->t[j], "(")) j = match(g, j, "(", ")");
      else if (kn_is(&g->t[j], "<")) j = match(g, j, "<", ">");
      continue;
    }
    size_t last = j, def = 0;
    for (size_t q = from; q < j; q++)
      if (kn_is(&g->t[q], "=")) {
        def = q + 1;
        last = q;
        break;
      }
    tparam tq = {0};
    if (last < from + 2 || g->t[last - 1].kind != KT_ID)
      ERR(g, &g->t[from], "expected a template parameter (typename T, int N)");
    tq.name = &g->t[last - 1];
    const kn_tok *k = &g->t[from];
    tq.type = kn_is(k, "typename") || kn_is(k, "class");
    if (kn_is(k, "template")) ERR(g, k, "a template template parameter is not read (check the kernel with --via nvcc)");
    if (kn_is(&g->t[last - 2], "...")) ERR(g, k, "a parameter pack is not read (check the kernel with --via nvcc)");
    if (!tq.type && !type_word(g, k)) ERR(g, k, "expected typename, class or an integer type");
    if (def) {
      tq.def = def;
      tq.def_end = j;
      if (def == j) ERR(g, &g->t[def - 1], "expected a default");
    }
    lc_vec_push(&p->params, tq);
    from = j + 1;
  }
  g->cur_tmpl = (int)g->tmpls.n;
  return close + 1;
}

static bool member_word(const kn_tok *t) {
  return storage_word(t) || kn_is(t, "__host__") || kn_is(t, "virtual") || kn_is(t, "explicit") ||
         kn_is(t, "friend") || kn_is(t, "mutable");
}

/* struct|class NAME { members } ;  at toks[i]: its fields, constructors
 * and member functions (defined in the class).  Returns the index after
 * the ';'. */
static size_t read_struct(gen *g, size_t i) {
  const kn_tok *kw = &g->t[i];
  int tm = g->cur_tmpl;
  g->cur_tmpl = 0;
  const kn_tok *name = &g->t[i + 1];
  if (name->kind != KT_ID) ERR(g, kw, "an unnamed %.*s is not read: name it", (int)kw->n, kw->s);
  size_t j = i + 2;
  if (kn_is(&g->t[j], "final")) j++;
  if (kn_is(&g->t[j], ":")) ERR(g, &g->t[j], "base classes are not read (check the kernel with --via nvcc)");
  if (kn_is(&g->t[j], ";")) return j + 1;   /* a declaration */
  if (!kn_is(&g->t[j], "{")) ERR(g, &g->t[j], "expected '{' after %.*s %.*s", (int)kw->n, kw->s, (int)name->n, name->s);
  if (find_struct(g, name) >= 0) ERR(g, name, "%.*s is defined twice", (int)name->n, name->s);
  size_t end = match(g, j, "{", "}");
  sdef sd = {0};
  sd.name = name;
  sd.tmpl = tm;
  lc_vec_push(&g->structs, sd);
  int s = (int)g->structs.n - 1;
  for (size_t k = j + 1; k < end;) {
    const kn_tok *t = &g->t[k];
    if (kn_is(t, ";")) {
      k++;
      continue;
    }
    if ((kn_is(t, "public") || kn_is(t, "private") || kn_is(t, "protected")) && kn_is(&g->t[k + 1], ":")) {
      k += 2;
      continue;
    }
    if (kn_is(t, "template")) ERR(g, t, "a member template is not read (check the kernel with --via nvcc)");
    if (kn_is(t, "struct") || kn_is(t, "class") || kn_is(t, "union") || kn_is(t, "enum"))
      ERR(g, t, "a nested '%.*s' is not read: define it at the top level", (int)t->n, t->s);
    if (kn_is(t, "typedef") || kn_is(t, "using")) {
      size_t semi = find_semi(g, k);
      if (kn_is(t, "typedef") && semi >= k + 3 && g->t[semi - 1].kind == KT_ID) {
        alias a = {&g->t[semi - 1], k + 1, semi - 1};
        lc_vec_push(&g->aliases, a);
      } else if (kn_is(t, "using") && g->t[k + 1].kind == KT_ID && kn_is(&g->t[k + 2], "=")) {
        alias a = {&g->t[k + 1], k + 3, semi};
        lc_vec_push(&g->aliases, a);
      }
      k = semi + 1;
      continue;
    }
    bool is_static = false;
    size_t q = k;
    while (member_word(&g->t[q]) || kn_is(&g->t[q], "__launch_bounds__")) is_static |= kn_is(&g->t[q++], "static");
    if (kn_is(&g->t[q], "~")) {   /* a destructor: nothing happens when a thread's object ends */
      size_t open = q + 2;
      if (!kn_is(&g->t[open], "(")) ERR(g, &g->t[q], "expected a destructor");
      size_t after = match(g, open, "(", ")") + 1;
      while (kn_is(&g->t[after], "noexcept") || kn_is(&g->t[after], "override")) after++;
      if (kn_is(&g->t[after], "{")) {
        size_t close = match(g, after, "{", "}");
        if (close != after + 1) ERR(g, &g->t[q], "a destructor with a body is not modelled");
        k = close + 1;
      } else {
        k = find_semi(g, after) + 1;
      }
      continue;
    }
    /* a member function or constructor: ... NAME ( params ) ... { body } */
    size_t p = q;
    while (p < end && !kn_is(&g->t[p], "(") && !kn_is(&g->t[p], ";") && !kn_is(&g->t[p], "=") &&
           !kn_is(&g->t[p], "{") && !kn_is(&g->t[p], "["))
      p++;
    if (kn_is(&g->t[p], "(") && p > q && g->t[p - 1].kind == KT_ID) {
      if (is_static) ERR(g, t, "a static member function is not read: write it as a __device__ function");
      size_t close = match(g, p, "(", ")");
      size_t after = close + 1;
      while (kn_is(&g->t[after], "const") || kn_is(&g->t[after], "noexcept") || kn_is(&g->t[after], "override") ||
             kn_is(&g->t[after], "volatile"))
        after++;
      func f = {0};
      f.name = &g->t[p - 1];
      f.owner = s + 1;
      f.ctor = p - 1 == q && tok_eq_str(f.name, name->s, name->n);
      f.is_void = f.ctor || (p - 1 == q + 1 && kn_is(&g->t[q], "void"));
      if (!f.ctor && p - 1 == q) ERR(g, f.name, "expected the return type of '%.*s'", (int)f.name->n, f.name->s);
      if (kn_is(&g->t[after], ":")) {
        if (!f.ctor) ERR(g, &g->t[after], "expected '{'");
        f.inits = after + 1;
        size_t b = after + 1;
        while (b < end && !kn_is(&g->t[b], "{")) {
          if (kn_is(&g->t[b], "(")) b = match(g, b, "(", ")");
          b++;
          if (kn_is(&g->t[b], "{") && g->t[b - 1].kind == KT_ID) b = match(g, b, "{", "}") + 1;   /* f{v} */
        }
        f.inits_end = b;
        after = b;
      }
      if (kn_is(&g->t[after], "=")) {   /* = default;  = delete; */
        k = find_semi(g, after) + 1;
        continue;
      }
      if (kn_is(&g->t[after], ";"))
        ERR(g, f.name, "'%.*s' is declared in %.*s and defined outside it: define it in the class", (int)f.name->n,
            f.name->s, (int)name->n, name->s);
      if (!kn_is(&g->t[after], "{")) ERR(g, &g->t[after], "expected '{' opening the body of '%.*s'", (int)f.name->n, f.name->s);
      f.body = after;
      f.end = match(g, after, "{", "}");
      for (size_t o = 0; o < g->funcs.n; o++)
        if (g->funcs.v[o].owner == s + 1 && !f.ctor && tok_eq_str(f.name, g->funcs.v[o].name->s, g->funcs.v[o].name->n))
          ERR(g, f.name, "'%.*s' is defined twice in %.*s (overloads are not read)", (int)f.name->n, f.name->s,
              (int)name->n, name->s);
      lc_vec_push(&g->funcs, f);
      func *fp = &g->funcs.v[g->funcs.n - 1];
      read_params(g, fp, p, close);
      read_body(g, fp);
      k = fp->end + 1;
      continue;
    }
    /* fields: TYPE name [= v | {v}] {, name ...} ; */
    size_t semi = find_semi(g, k);
    if (is_static) {   /* static constexpr int N = 4;  read as a constant of the kernel's file */
      ERR(g, t, "a static member is not read: write it as a __device__ variable or a #define");
    }
    size_t tfrom = q, tto = q;
    while (tto < semi && (type_word(g, &g->t[tto]) || find_struct(g, &g->t[tto]) >= 0 ||
                          (g->t[tto].kind == KT_ID && kn_is(&g->t[tto + 1], "<")) || kn_is(&g->t[tto], "<"))) {
      if (kn_is(&g->t[tto + 1], "<")) tto = match(g, tto + 1, "<", ">");
      tto++;
    }
    bool tparam_type = false;
    if (tm && tto == tfrom && g->t[tto].kind == KT_ID) {
      const tmpl *tp = &g->tmpls.v[tm - 1];
      for (size_t a = 0; a < tp->params.n; a++)
        if (tp->params.v[a].type && tok_eq_str(&g->t[tto], tp->params.v[a].name->s, tp->params.v[a].name->n))
          tparam_type = true;
      if (tparam_type) tto++;
    }
    if (tto == tfrom) ERR(g, &g->t[tfrom], "expected a field (TYPE name;) or a member function of %.*s", (int)name->n, name->s);
    if (find_struct(g, &g->t[tfrom]) >= 0) ERR(g, &g->t[tfrom], "a field of struct type is not modelled");
    if (g->t[tto - 1].kind != KT_ID && !kn_is(&g->t[tto - 1], ">"))
      ERR(g, &g->t[tfrom], "expected a field type");
    for (size_t a = tfrom; a < tto; a++)
      if (kn_is(&g->t[a], "<") && !tparam_type)
        ERR(g, &g->t[a], "a field of type %.*s<...> (an atomic object held by an object) is not modelled: hold a "
            "pointer and use cuda::atomic_ref on it", (int)g->t[a - 1].n, g->t[a - 1].s);
    size_t d = tto;
    for (;;) {
      field fd = {0};
      fd.type_from = tfrom;
      fd.type_to = tto;
      while (kn_is(&g->t[d], "*") || kn_is(&g->t[d], "const") || kn_is(&g->t[d], "volatile")) fd.pointer |= kn_is(&g->t[d++], "*");
      if (kn_is(&g->t[d], "&")) ERR(g, &g->t[d], "a reference field is not modelled: hold a pointer");
      if (g->t[d].kind != KT_ID) ERR(g, &g->t[d], "expected a field name");
      fd.name = &g->t[d];
      d++;
      if (kn_is(&g->t[d], "[")) ERR(g, &g->t[d], "an array field is not modelled");
      if (kn_is(&g->t[d], ":")) ERR(g, &g->t[d], "a bit-field is not modelled");
      if (kn_is(&g->t[d], "=") || kn_is(&g->t[d], "{")) {
        bool brace = kn_is(&g->t[d], "{");
        fd.init = d + 1;
        size_t e = brace ? match(g, d, "{", "}") : d + 1;
        if (!brace) {
          int depth = 0;
          while (e < semi && !(depth == 0 && kn_is(&g->t[e], ","))) {
            depth += kn_is(&g->t[e], "(") - kn_is(&g->t[e], ")");
            e++;
          }
        }
        fd.init_end = e;
        d = brace ? e + 1 : e;
      }
      for (size_t a = 0; a < g->structs.v[s].fields.n; a++)
        if (tok_eq_str(fd.name, g->structs.v[s].fields.v[a].name->s, g->structs.v[s].fields.v[a].name->n))
          ERR(g, fd.name, "field '%.*s' is declared twice", (int)fd.name->n, fd.name->s);
      lc_vec_push(&g->structs.v[s].fields, fd);
      if (kn_is(&g->t[d], ",")) {
        d++;
        continue;
      }
      if (d != semi) ERR(g, &g->t[d], "expected ';' after the field");
      break;
    }
    k = semi + 1;
  }
  size_t after = end + 1;
  if (!kn_is(&g->t[after], ";")) ERR(g, &g->t[after], "expected ';' after the definition of %.*s (a variable of it "
                                      "is declared apart)", (int)name->n, name->s);
  return after + 1;
}

/* `__shared__ S x;`: one __shared__ location per field, named x_FIELD. */
static void shared_struct(gen *g, size_t from, size_t semi, size_t ty) {
  int s = find_struct(g, &g->t[ty]);
  const sdef *sd = &g->structs.v[s];
  if (sd->tmpl) ERR(g, &g->t[ty], "a __shared__ object of a class template is not modelled");
  const kn_tok *nm = &g->t[ty + 1];
  if (nm->kind != KT_ID || !kn_is(&g->t[ty + 2], ";"))
    ERR(g, &g->t[ty + 1], "expected `__shared__ %.*s name;` (arrays of objects and initialisers are not modelled)",
        (int)sd->name->n, sd->name->s);
  (void)from;
  (void)semi;
  for (size_t k = 0; k < sd->fields.n; k++) {
    const field *fd = &sd->fields.v[k];
    if (fd->pointer) ERR(g, fd->name, "a pointer field of a __shared__ object is not modelled");
    kn_tok *t = lc_arena_alloc(g->K->a, sizeof *t);
    *t = *nm;
    char buf[300];
    snprintf(buf, sizeof buf, "%.*s_%.*s", (int)nm->n, nm->s, (int)fd->name->n, fd->name->s);
    t->s = lc_arena_strdup(g->K->a, buf);
    t->n = strlen(buf);
    var v = {0};
    v.name = t;
    v.type = type_string(g, fd->type_from, fd->type_to);
    v.shared = true;
    v.len = -1;
    if (find_var(g, v.name)) ERR(g, nm, "'%s' is declared twice", buf);
    lc_vec_push(&g->vars, v);
  }
}

/* At a `__shared__ S x;` statement in a thread: x bound to its locations. */
static void shared_obj(gen *g, frame *fr, size_t i) {
  size_t j = i;
  while (storage_word(&g->t[j]) || kn_is(&g->t[j], "volatile")) j++;
  int s = find_struct(g, &g->t[j]);
  if (s < 0) return;
  const kn_tok *nm = &g->t[j + 1];
  const sdef *sd = &g->structs.v[s];
  objb ob = {kn_str(g->K, nm), fr->id, g->depth, s, g->slots.n, NULL};
  for (size_t k = 0; k < sd->fields.n; k++) {
    char buf[300];
    snprintf(buf, sizeof buf, "%.*s_%.*s", (int)nm->n, nm->s, (int)sd->fields.v[k].name->n, sd->fields.v[k].name->s);
    slot sl = {0};
    for (size_t v = 0; v < g->vars.n; v++)
      if (tok_eq_str(g->vars.v[v].name, buf, strlen(buf))) sl.var = (int)v + 1;
    lc_vec_push(&g->slots, sl);
  }
  lc_vec_push(&g->objs, ob);
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
    if (kn_is(t, "template")) {
      i = read_template(g, i);
      continue;
    }
    if ((kn_is(t, "struct") || kn_is(t, "class")) && g->t[i + 1].kind == KT_ID && !kn_is(&g->t[i + 2], "*") &&
        g->t[i + 2].kind != KT_ID) {
      i = read_struct(g, i);
      continue;
    }
    if (kn_is(t, "union") || kn_is(t, "enum") || kn_is(t, "struct") || kn_is(t, "class")) {
      if (kn_is(&g->t[i + 2], "{") || kn_is(&g->t[i + 1], "{"))
        ERR(g, t, "'%.*s' types are not modelled: write the fields as locations", (int)t->n, t->s);
    }
    if (g->cur_tmpl && (kn_is(t, "typedef") || kn_is(t, "using") || kn_is(t, "namespace")))
      ERR(g, t, "a template of this kind is not read (check the kernel with --via nvcc)");
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
      f.tmpl = g->cur_tmpl;
      g->cur_tmpl = 0;
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
    if (g->cur_tmpl) ERR(g, t, "a variable template is not read (check the kernel with --via nvcc)");
    size_t semi = find_semi(g, j);
    if (find_struct(g, &g->t[j]) >= 0)
      ERR(g, &g->t[j], "a %s object at the top level is not modelled: declare it in the kernel",
          shared ? "__shared__" : "__device__");
    for (size_t e = i; e < j; e++) g->in_extern |= shared && kn_is(&g->t[e], "extern");
    read_var(g, j, semi, shared);
    g->in_extern = false;
    i = semi + 1;
  }
  if (g->cur_tmpl) ERR(g, &g->t[i], "a template without its declaration");
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

/* An @Input value: an integer, or a float (1.5, -2.0, 1e3, 0.1f), which
 * gives the bits of the float it rounds to (*fl set).  Which it must be
 * follows from the parameter's type (input_as). */
static int64_t h_value(hscan *h, bool *fl) {
  h_space(h);
  const char *s = h->p + (*h->p == '-' || *h->p == '+');
  bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const char *q = s;
  while (isdigit((unsigned char)*q)) q++;
  *fl = !hex && (*q == '.' || *q == 'e' || *q == 'E') && (q > s || isdigit((unsigned char)q[1]));
  if (!*fl) return h_int(h, "an integer or a float");
  char *e;
  float f = strtof(h->p, &e);
  if (e == h->p) h_error(h, "expected %s", "a number");
  h->p = e;
  if (*h->p == 'f' || *h->p == 'F') h->p++;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (int64_t)u;
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
      bool fl;
      int64_t v = h_value(&h, &fl);
      lc_vec_push(&ip->values, v);
      lc_vec_push(&ip->fp, (unsigned char)fl);
      if (ip->values.n > MAX_ARRAY) h_error(&h, "more than 1024 values for %s", in.name);
      if (!in.braces || !h_lit(&h, ",")) break;
    }
    if (in.braces && !h_lit(&h, "}")) h_error(&h, "expected '}' closing the values of %s", in.name);
    h_space(&h);
    if (*h.p && *h.p != ';' && *h.p != ',') h_error(&h, "expected ';' between @Input entries, found '%s'", h.p);
    if (*h.p) h.p++;
  }
}

/* Whether a parameter's type is float (or a pointer to floats). */
static bool float_type(const char *type) { return lt_cpp_pointee_ctype(type) == LT_CT_FLOAT; }

/* The values of in as the parameter's type has them: an integer given for
 * a float becomes that float's bits; a float given for an integer is an
 * error (C would truncate it: most likely a slip). */
static void input_as(gen *g, input *in, bool fl) {
  for (size_t k = 0; k < in->values.n; k++) {
    if (fl && !in->fp.v[k]) {
      float f = (float)in->values.v[k];
      uint32_t u;
      memcpy(&u, &f, sizeof u);
      in->values.v[k] = (int64_t)u;
      in->fp.v[k] = 1;
    } else if (!fl && in->fp.v[k]) {
      kn_error(g->K, in->line, in->col, "%s holds integers: a float value is given", in->name);
    }
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
  while (g->objs.n > 0 && g->objs.v[g->objs.n - 1].depth > g->depth) g->objs.n--;
  while (g->pbinds.n > 0 && g->pbinds.v[g->pbinds.n - 1].depth > g->depth) g->pbinds.n--;
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

/* ---- structs, objects, pointers and templates ------------------------------------------ */

static size_t inline_call(gen *g, frame *fr, func *f, size_t i, bool stmt, const char *target);

/* The struct a parameter's type names (`Lock &l`, `const Lock *l`, `Lock l`), or -1. */
static int param_struct(gen *g, const param *p) {
  const char *s = p->type;
  while (!strncmp(s, "volatile ", 9)) s += 9;
  size_t n = 0;
  while (isalnum((unsigned char)s[n]) || s[n] == '_') n++;
  for (size_t k = 0; k < g->structs.n; k++)
    if (tok_eq_str(g->structs.v[k].name, s, n)) return (int)k;
  return -1;
}

static const char *tsub(const gen *g, const frame *fr, const kn_tok *t, bool *type) {
  if (!fr || t->kind != KT_ID) return NULL;
  const func *f = fr->f ? fr->f : g->kernel;
  const char **targs = fr->f ? fr->targs : g->ktargs;
  if (f && f->tmpl && targs) {
    const tmpl *tp = &g->tmpls.v[f->tmpl - 1];
    for (size_t k = 0; k < tp->params.n; k++)
      if (tok_eq_str(t, tp->params.v[k].name->s, tp->params.v[k].name->n) && targs[k]) {
        *type = tp->params.v[k].type;
        return targs[k];
      }
  }
  if (fr->self) {
    const objb *o = &g->objs.v[fr->self - 1];
    const sdef *s = &g->structs.v[o->s];
    if (s->tmpl && o->targs) {
      const tmpl *tp = &g->tmpls.v[s->tmpl - 1];
      for (size_t k = 0; k < tp->params.n; k++)
        if (tok_eq_str(t, tp->params.v[k].name->s, tp->params.v[k].name->n) && o->targs[k]) {
          *type = tp->params.v[k].type;
          return o->targs[k];
        }
    }
  }
  return NULL;
}

/* s with the template parameters of frame fr replaced by their arguments. */
static const char *subst_words(gen *g, const frame *fr, const char *s) {
  lc_buf b;
  lc_buf_init(&b);
  for (const char *p = s; *p;) {
    if (isalpha((unsigned char)*p) || *p == '_') {
      const char *w = p;
      while (isalnum((unsigned char)*p) || *p == '_' || (*p == ':' && p[1] == ':') || (p > w && p[-1] == ':' && *p == ':'))
        p++;
      kn_tok t = {KT_ID, w, (size_t)(p - w), 0, 0, 0, false};
      bool ty = false;
      const char *sub = tsub(g, fr, &t, &ty);
      if (sub) lc_buf_puts(&b, sub);
      else lc_buf_putn(&b, w, (size_t)(p - w));
    } else {
      lc_buf_putc(&b, *p++);
    }
  }
  char *r = lc_arena_strdup(g->K->a, b.s ? b.s : "");
  lc_buf_fini(&b);
  return r;
}

/* A local of the thread that no source name binds (an object's field, a
 * pointer's offset): NAME, or NAME_2 ... when the thread has one. */
static const char *fresh(gen *g, const char *name) {
  const char *as = name;
  char buf[300];
  for (int k = 2; taken(g, as); k++) {
    snprintf(buf, sizeof buf, "%.200s_%d", name, k);
    as = lc_arena_strdup(g->K->a, buf);
  }
  lc_vec_push(&g->declared, as);
  return as;
}

/* template <...> at toks[open] ('<') in frame fr: the arguments as text,
 * a type as its type text, a value rendered; returns the index after '>'. */
static size_t template_args(gen *g, const frame *fr, int tm, size_t open, const char ***out) {
  const tmpl *tp = &g->tmpls.v[tm - 1];
  size_t close = match(g, open, "<", ">");
  const char **a = lc_arena_alloc(g->K->a, (tp->params.n + 1) * sizeof *a);
  size_t k = 0, from = open + 1;
  int depth = 0;
  for (size_t j = open + 1; j <= close && close > open + 1; j++) {
    const kn_tok *t = &g->t[j];
    if (kn_is(t, "(") || kn_is(t, "<")) depth++;
    else if ((kn_is(t, ")") || kn_is(t, ">")) && j < close) depth--;
    if (j < close && !(depth == 0 && kn_is(t, ","))) continue;
    if (k >= tp->params.n) ERR(g, t, "more template arguments than the template has parameters (%zu)", tp->params.n);
    if (from == j) ERR(g, t, "an empty template argument");
    const frame *saved = g->tframe;
    g->tframe = fr;
    if (tp->params.v[k].type) {
      a[k] = type_string(g, from, j);
    } else {
      const char *r = render(g, (frame *)fr, from, j);
      size_t len = strlen(r) + 3;
      char *w = lc_arena_alloc(g->K->a, len);
      snprintf(w, len, "(%s)", r);
      a[k] = w;
    }
    g->tframe = saved;
    k++;
    from = j + 1;
  }
  *out = a;
  return close + 1;
}

/* A location's element type: a kernel parameter's type or a variable's, without its '*'. */
static const char *loc_type(gen *g, const char *base) {
  for (size_t k = 0; k < g->kernel->params.n; k++) {
    const param *p = &g->kernel->params.v[k];
    if (p->pointer && tok_eq_str(p->name, base, strlen(base))) {
      frame top = {0};
      const char *ty = subst_words(g, &top, p->type);
      size_t n = strlen(ty);
      while (n && (ty[n - 1] == '*' || ty[n - 1] == '&' || ty[n - 1] == ' ')) n--;
      return lc_arena_strndup(g->K->a, ty, n);
    }
  }
  for (size_t k = 0; k < g->vars.n; k++)
    if (!strcmp(loc_name(g, &g->vars.v[k]), base)) return g->vars.v[k].type;
  return NULL;
}

static bool loc_array(gen *g, const char *base, bool *found) {
  *found = true;
  for (size_t k = 0; k < g->kernel->params.n; k++) {
    const param *p = &g->kernel->params.v[k];
    if (p->pointer && tok_eq_str(p->name, base, strlen(base))) {
      input *in = find_input(g, p->name);
      return in && in->values.n > 1;
    }
  }
  for (size_t k = 0; k < g->vars.n; k++)
    if (!strcmp(loc_name(g, &g->vars.v[k]), base)) return g->vars.v[k].len >= 0;
  *found = false;
  return false;
}

static bool only_zero(const char *s) {
  while (*s == ' ' || *s == '(') s++;
  if (*s != '0') return false;
  s++;
  while (*s == ' ' || *s == ')') s++;
  return !*s;
}

/* A pointer's text (rendered: `& a [ i ]`, `a + i`, `x`, `buf_b0`) as a
 * location and an offset; false when it is none of those. */
static bool ptr_of_text(gen *g, const char *text, const char **base, bool *array, const char **off) {
  const char *b = NULL, *o = "0";
  /* &*p and &(*p) are p */
  char *c = lc_arena_strdup(g->K->a, text);
  size_t m = 0;
  for (const char *q = text; *q; q++)
    if (*q != ' ') c[m++] = *q;
  c[m] = 0;
  if (!strncmp(c, "&*", 2)) c += 2;
  else if (!strncmp(c, "&(*", 3) && c[m - 1] == ')') c[m - 1] = 0, c += 3;
  text = c;
  if (!array_arg(g, text, &b, &o)) {
    const char *p = text;
    size_t n = strlen(p);
    while (n && (*p == ' ' || *p == '(')) p++, n--;
    while (n && (p[n - 1] == ' ' || p[n - 1] == ')')) n--;
    size_t k = 0;
    while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '_')) k++;
    if (k == 0 || k != n || isdigit((unsigned char)p[0])) return false;
    b = lc_arena_strndup(g->K->a, p, n);
  }
  bool found;
  *array = loc_array(g, b, &found);
  if (!found) return false;
  if (!*array && !only_zero(o)) return false;
  *base = b;
  *off = o;
  return true;
}

/* Gives pointer slot s the value `text` at `at`: its location fixed the
 * first time, its offset (an array's) assigned. */
static void set_ptr(gen *g, slot *s, const char *text, const kn_tok *at, const char *what) {
  const char *base, *off;
  bool array;
  if (only_zero(text) || !strcmp(text, "nullptr") || !strcmp(text, "NULL")) {
    if (!s->base) return;
    ERR(g, at, "%s is set to null after pointing at %s: not modelled", what, s->base);
  }
  if (!ptr_of_text(g, text, &base, &array, &off))
    ERR(g, at, "%s = %s: a pointer is read as a location, &A[i] or A + i (A a parameter, a __device__ or "
        "__shared__ variable), or another such pointer", what, text);
  if (s->base && strcmp(s->base, base))
    ERR(g, at, "%s points at %s and then at %s: a pointer into two locations is not modelled", what, s->base, base);
  bool first = !s->base;
  s->base = base;
  s->array = array;
  if (array) {   /* declared where it is first given (the dialect's locals live as long as the thread) */
    if (first) put(g, "int", at);
    put(g, s->local, at);
    put(g, "=", at);
    put(g, "(", at);
    put(g, off, at);
    put(g, ")", at);
    put(g, ";", at);
  }
}

static const char *slot_text(gen *g, const slot *s, const char *fmt, const char *idx, const kn_tok *at) {
  char buf[600];
  if (s->var) {
    const var *v = &g->vars.v[s->var - 1];
    snprintf(buf, sizeof buf, "(*%s)", loc_name(g, v));
  } else if (!s->pointer && !s->ref) {
    return s->local;
  } else if (s->ref && !s->base) {
    return s->local;   /* a reference to a local */
  } else {
    if (!s->base) ERR(g, at, "this pointer is used before it points at anything");
    if (!strcmp(fmt, "deref")) {
      if (s->array) snprintf(buf, sizeof buf, "%.250s[%.250s]", s->base, s->local);
      else snprintf(buf, sizeof buf, "(*%.250s)", s->base);
    } else if (!strcmp(fmt, "index")) {
      if (s->array) snprintf(buf, sizeof buf, "%.200s[(%.100s) + (%.250s)]", s->base, s->local, idx);
      else if (only_zero(idx)) snprintf(buf, sizeof buf, "(*%.250s)", s->base);
      else ERR(g, at, "an index into %s, which is no array", s->base);
    } else {   /* the pointer's value */
      if (s->array) snprintf(buf, sizeof buf, "%.250s + %.250s", s->base, s->local);
      else snprintf(buf, sizeof buf, "%.250s", s->base);
    }
  }
  return lc_arena_strdup(g->K->a, buf);
}

/* What a name at toks[i] stands for in frame fr: an object, one of its
 * fields or member functions, a pointer or reference local. */
typedef struct look {
  int obj;             /* objs index + 1 */
  size_t slot;         /* slots index + 1 */
  func *method;
  size_t next;         /* the token after the name (and its member) */
  const kn_tok *name;  /* the member, or the name */
} look;

static bool local_or_param(gen *g, const frame *fr, const kn_tok *t) {
  if (cur_name(g, t, fr->id)) return true;
  if (fr->f)
    for (size_t k = 0; k < fr->f->params.n; k++)
      if (tok_eq_str(t, fr->f->params.v[k].name->s, fr->f->params.v[k].name->n)) return true;
  return false;
}

static bool member_of(gen *g, int o, const kn_tok *m, look *L) {
  const objb *ob = &g->objs.v[o - 1];
  const sdef *s = &g->structs.v[ob->s];
  for (size_t k = 0; k < s->fields.n; k++)
    if (tok_eq_str(m, s->fields.v[k].name->s, s->fields.v[k].name->n)) {
      L->slot = ob->first + k + 1;
      L->obj = o;
      L->name = m;
      return true;
    }
  for (size_t k = 0; k < g->funcs.n; k++) {
    func *f = &g->funcs.v[k];
    if (f->owner == ob->s + 1 && !f->ctor && tok_eq_str(m, f->name->s, f->name->n)) {
      L->method = f;
      L->obj = o;
      L->name = m;
      return true;
    }
  }
  return false;
}

static bool lookup(gen *g, const frame *fr, size_t i, look *L) {
  memset(L, 0, sizeof *L);
  const kn_tok *t = &g->t[i];
  int o = 0;
  size_t j = i + 1;
  if (kn_is(t, "this")) {
    if (!fr->self) ERR(g, t, "'this' outside a member function");
    o = fr->self;
  } else if (kn_is(t, "(") && kn_is(&g->t[i + 1], "*") && kn_is(&g->t[i + 2], "this") && kn_is(&g->t[i + 3], ")")) {
    if (!fr->self) ERR(g, &g->t[i + 2], "'this' outside a member function");
    o = fr->self;
    j = i + 4;
  } else if (t->kind == KT_ID) {
    for (size_t k = g->pbinds.n; k-- > 0;)
      if (g->pbinds.v[k].frame == fr->id && tok_eq_str(t, g->pbinds.v[k].name, strlen(g->pbinds.v[k].name))) {
        L->slot = g->pbinds.v[k].slot + 1;
        L->next = i + 1;
        L->name = t;
        return true;
      }
    for (size_t k = g->objs.n; k-- > 0 && !o;)
      if (g->objs.v[k].frame == fr->id && tok_eq_str(t, g->objs.v[k].name, strlen(g->objs.v[k].name))) o = (int)k + 1;
    if (!o) {
      if (!fr->self || local_or_param(g, fr, t) || !member_of(g, fr->self, t, L)) return false;
      L->next = i + 1;
      return true;
    }
  } else {
    return false;
  }
  if (!kn_is(&g->t[j], ".") && !kn_is(&g->t[j], "->")) {
    L->obj = o;
    L->next = j;
    L->name = t;
    return true;
  }
  const kn_tok *m = &g->t[j + 1];
  if (m->kind != KT_ID) ERR(g, m, "expected a member name");
  if (!member_of(g, o, m, L))
    ERR(g, m, "%.*s has no member '%.*s'", (int)g->structs.v[g->objs.v[o - 1].s].name->n,
        g->structs.v[g->objs.v[o - 1].s].name->s, (int)m->n, m->s);
  L->next = j + 2;
  return true;
}

static const char *src_name(gen *g, const kn_tok *t) { return kn_str(g->K, t); }

/* A new object of struct s named `name` in frame fr: its fields' locals
 * (0, as the dialect's locals start), bound at the current depth. */
static int new_obj(gen *g, frame *fr, int s, const char *name, const char **targs, const kn_tok *at) {
  const sdef *sd = &g->structs.v[s];
  objb ob = {name, fr->id, g->depth, s, g->slots.n, targs};
  lc_vec_push(&g->objs, ob);
  int o = (int)g->objs.n;
  frame tf = {NULL, 0, NULL, NULL, NULL, NULL, NULL, o, NULL, NULL};
  for (size_t k = 0; k < sd->fields.n; k++) {
    const field *fd = &sd->fields.v[k];
    slot sl = {0};
    char buf[300];
    snprintf(buf, sizeof buf, "%.100s_%.*s", name, (int)fd->name->n, fd->name->s);
    sl.local = fresh(g, lc_arena_strdup(g->K->a, buf));
    sl.pointer = fd->pointer;
    const frame *saved = g->tframe;
    g->tframe = &tf;
    const char *type = fd->pointer ? "int" : type_string(g, fd->type_from, fd->type_to);
    g->tframe = saved;
    lc_vec_push(&g->slots, sl);
    if (fd->pointer) continue;   /* its offset is declared when it is given one (set_ptr) */
    put(g, type, at);
    put(g, sl.local, at);
    put(g, "=", at);
    put(g, "0", at);
    put(g, ";", at);
  }
  return o;
}

/* Field k of object o set to toks[from .. to) written in frame fr. */
static void init_field(gen *g, frame *fr, int o, size_t k, size_t from, size_t to, const kn_tok *at) {
  const objb *ob = &g->objs.v[o - 1];
  const field *fd = &g->structs.v[ob->s].fields.v[k];
  slot *s = &g->slots.v[ob->first + k];
  const char *text = render(g, fr, from, to);
  s = &g->slots.v[ob->first + k];
  if (!text[0]) return;   /* `f()`, `f{}`: 0 */
  if (s->pointer) {
    set_ptr(g, s, text, at, kn_str(g->K, fd->name));
    return;
  }
  if (s->var) ERR(g, at, "a __shared__ object's fields have no initialisers in CUDA");
  put(g, s->local, at);
  put(g, "=", at);
  put(g, "(", at);
  put(g, text, at);
  put(g, ")", at);
  put(g, ";", at);
}

/* A constructor's member initialisers, then the default member
 * initialisers of the fields it does not name, in declaration order. */
static void field_inits(gen *g, frame *fr, size_t inits, size_t inits_end) {
  int o = fr->self;
  const sdef *sd = &g->structs.v[g->objs.v[o - 1].s];
  for (size_t k = 0; k < sd->fields.n; k++) {
    const field *fd = &sd->fields.v[k];
    bool done = false;
    for (size_t j = inits; j < inits_end && !done;) {
      const kn_tok *t = &g->t[j];
      if (t->kind != KT_ID || !(kn_is(&g->t[j + 1], "(") || kn_is(&g->t[j + 1], "{")))
        ERR(g, t, "expected a member initialiser, name(value)");
      size_t close = match(g, j + 1, kn_is(&g->t[j + 1], "(") ? "(" : "{", kn_is(&g->t[j + 1], "(") ? ")" : "}");
      if (tok_eq_str(t, fd->name->s, fd->name->n)) {
        init_field(g, fr, o, k, j + 2, close, t);
        done = true;
      }
      j = close + 1;
      if (j < inits_end && !kn_is(&g->t[j], ",")) ERR(g, &g->t[j], "expected ',' between member initialisers");
      j++;
    }
    if (!done && fd->init) init_field(g, fr, o, k, fd->init, fd->init_end, fd->name);
  }
  for (size_t j = inits; j < inits_end;) {   /* every name is a field */
    const kn_tok *t = &g->t[j];
    bool known = false;
    for (size_t k = 0; k < sd->fields.n; k++) known |= tok_eq_str(t, sd->fields.v[k].name->s, sd->fields.v[k].name->n);
    if (!known) ERR(g, t, "'%.*s' is no field of %.*s (base classes are not read)", (int)t->n, t->s, (int)sd->name->n,
                    sd->name->s);
    j = match(g, j + 1, kn_is(&g->t[j + 1], "(") ? "(" : "{", kn_is(&g->t[j + 1], "(") ? ")" : "}") + 2;
  }
}

static void ctor_inits(gen *g, frame *callee) {
  field_inits(g, callee, callee->f->inits, callee->f->inits_end);
}

static void early_open(gen *g, frame *callee, const kn_tok *at) {
  char buf[300];
  snprintf(buf, sizeof buf, "%.*s_returned", (int)callee->f->name->n, callee->f->name->s);
  callee->retflag = fresh(g, lc_arena_strdup(g->K->a, buf));
  put(g, "int", at);
  put(g, callee->retflag, at);
  put(g, "=", at);
  put(g, "0", at);
  put(g, ";", at);
  put(g, "while", at);
  put(g, "(", at);
  put(g, "1", at);
  put(g, ")", at);
  put(g, "{", at);
}

static void early_close(gen *g, const kn_tok *at) {
  put(g, "break", at);
  put(g, ";", at);
  put(g, "}", at);
}

/* `return e;` before the end of an inlined function: the value to the
 * target, the flag set, and out of the loop around its body. */
static size_t early_return(gen *g, frame *fr, size_t i) {
  const kn_tok *t = &g->t[i];
  size_t semi = find_semi(g, i);
  put(g, "{", t);
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
  put(g, fr->retflag, &g->t[semi]);
  put(g, "=", &g->t[semi]);
  put(g, "1", &g->t[semi]);
  put(g, ";", &g->t[semi]);
  put(g, "break", &g->t[semi]);
  put(g, ";", &g->t[semi]);
  put(g, "}", &g->t[semi]);
  return semi + 1;
}

/* The last token of the statement at toks[i]. */
static size_t stmt_end(gen *g, size_t i, int depth) {
  if (depth > MAX_HEADERS) ERR(g, &g->t[i], "control statements nest more than %d deep", MAX_HEADERS);
  const kn_tok *t = &g->t[i];
  if (t->kind == KT_EOF) ERR(g, t, "unexpected end of file");
  if (kn_is(t, "{")) return match(g, i, "{", "}");
  if (kn_is(t, "if") || kn_is(t, "while") || kn_is(t, "for") || kn_is(t, "switch")) {
    if (!kn_is(&g->t[i + 1], "(")) ERR(g, &g->t[i + 1], "expected '(' after '%.*s'", (int)t->n, t->s);
    size_t e = stmt_end(g, match(g, i + 1, "(", ")") + 1, depth + 1);
    if (kn_is(t, "if") && kn_is(&g->t[e + 1], "else")) e = stmt_end(g, e + 2, depth + 1);
    return e;
  }
  if (kn_is(t, "do")) {
    size_t e = stmt_end(g, i + 1, depth + 1);
    if (!kn_is(&g->t[e + 1], "while") || !kn_is(&g->t[e + 2], "(")) ERR(g, &g->t[e + 1], "expected 'while (' after do");
    return find_semi(g, e + 2);
  }
  return find_semi(g, i);
}

/* At a loop of a function that returns early: the end of the loop when a
 * return is inside it (after which `if (returned) break;`), or 0. */
static size_t early_loop(gen *g, const frame *fr, size_t i) {
  if (!fr->retflag || !(kn_is(&g->t[i], "while") || kn_is(&g->t[i], "for") || kn_is(&g->t[i], "do"))) return 0;
  size_t e = stmt_end(g, i, 0);
  for (size_t j = i; j <= e; j++)
    if (kn_is(&g->t[j], "return")) {
      put(g, "{", &g->t[i]);
      return e;
    }
  return 0;
}

static void early_break(gen *g, const frame *fr, const kn_tok *at) {
  put(g, "if", at);
  put(g, "(", at);
  put(g, fr->retflag, at);
  put(g, ")", at);
  put(g, "break", at);
  put(g, ";", at);
  put(g, "}", at);
}

/* The object toks[from .. to) names (`lock`, `&lock`, `*p`, `this`, `*this`): objs index + 1, or 0. */
static int obj_expr_at(gen *g, const frame *fr, size_t from, size_t to) {
  size_t j = from;
  if (j < to && (kn_is(&g->t[j], "&") || kn_is(&g->t[j], "*"))) j++;
  look L;
  if (j >= to || !lookup(g, fr, j, &L) || !L.obj || L.slot || L.method || L.next != to) return 0;
  return L.obj;
}

/* Parameter k of callee, an object (by reference, pointer or value): bound
 * to the caller's object; true when it is one. */
static bool obj_param(gen *g, frame *fr, frame *callee, size_t k, size_t from, size_t to) {
  const param *p = &callee->f->params.v[k];
  int s = param_struct(g, p);
  if (s < 0) return false;
  if (!from) ERR(g, p->name, "a default argument for an object parameter is not modelled");
  int o = obj_expr_at(g, fr, from, to);
  if (!o) ERR(g, &g->t[from], "this argument is not an object of %.*s (a local, a __shared__ object, `this` or a "
              "parameter naming one)", (int)g->structs.v[s].name->n, g->structs.v[s].name->s);
  if (g->objs.v[o - 1].s != s)
    ERR(g, &g->t[from], "this argument is a %.*s, not a %.*s", (int)g->structs.v[g->objs.v[o - 1].s].name->n,
        g->structs.v[g->objs.v[o - 1].s].name->s, (int)g->structs.v[s].name->n, g->structs.v[s].name->s);
  /* by value: the callee works on the caller's object (a copy whose fields
   * the callee changes is not modelled) */
  objb ob = g->objs.v[o - 1];
  ob.name = src_name(g, p->name);
  ob.frame = callee->id;
  ob.depth = g->depth + 1;
  lc_vec_push(&g->objs, ob);
  return true;
}

/* Deduces the template arguments of f called at `at` that are not given
 * (explicit) from its pointer arguments, or takes their defaults. */
static const char **deduce(gen *g, frame *fr, const func *f, const char **given, const size_t *cuts, size_t n,
                           const kn_tok *at) {
  const tmpl *tp = &g->tmpls.v[f->tmpl - 1];
  const char **a = lc_arena_alloc(g->K->a, (tp->params.n + 1) * sizeof *a);
  for (size_t k = 0; k < tp->params.n; k++) {
    if (given && given[k]) {
      a[k] = given[k];
      continue;
    }
    const tparam *q = &tp->params.v[k];
    for (size_t j = 0; j < f->params.n && j < n && !a[k] && q->type; j++) {
      const char *ty = f->params.v[j].type;
      /* the parameter's type is T*, volatile T*, T& or T */
      const char *w = strstr(ty, kn_str(g->K, q->name));
      size_t ln = q->name->n;
      if (!w || (w > ty && (isalnum((unsigned char)w[-1]) || w[-1] == '_')) ||
          isalnum((unsigned char)w[ln]) || w[ln] == '_')
        continue;
      if (strchr(ty, '*') || strchr(ty, '&')) {
        const char *text = render(g, fr, cuts[j], cuts[j + 1] - 1);
        if (strchr(ty, '&') && text[0] != '&') {
          size_t len = strlen(text) + 5;
          char *amp = lc_arena_alloc(g->K->a, len);
          snprintf(amp, len, "& %s", text);
          text = amp;
        }
        const char *base, *off;
        bool array;
        if (ptr_of_text(g, text, &base, &array, &off)) {
          const char *lt = loc_type(g, base);
          if (lt && !strncmp(lt, "volatile ", 9) && strstr(ty, "volatile")) lt += 9;
          a[k] = lt;
        }
      } else {
        const kn_tok *t = &g->t[cuts[j]];
        if (cuts[j + 1] - 1 == cuts[j] + 1 && t->kind == KT_NUM) {
          bool u = memchr(t->s, 'u', t->n) || memchr(t->s, 'U', t->n);
          bool l = memchr(t->s, 'l', t->n) || memchr(t->s, 'L', t->n);
          a[k] = u ? (l ? "unsigned long long" : "unsigned") : (l ? "long long" : "int");
        }
      }
    }
    if (!a[k] && q->def) {
      const frame *saved = g->tframe;
      g->tframe = fr;
      a[k] = q->type ? type_string(g, q->def, q->def_end) : render(g, fr, q->def, q->def_end);
      g->tframe = saved;
    }
    if (!a[k])
      ERR(g, at, "template parameter '%.*s' of '%.*s' is not deduced from these arguments: write %.*s<...>(...) "
          "(or check the kernel with --via nvcc)", (int)q->name->n, q->name->s, (int)f->name->n, f->name->s,
          (int)f->name->n, f->name->s);
  }
  return a;
}

/* The statements about objects, pointers and references at toks[i];
 * the index after what was written, or 0. */
static size_t obj_stmt(gen *g, frame *fr, size_t i, size_t end) {
  const kn_tok *t = &g->t[i];
  size_t j = i;
  while (j < end && (kn_is(&g->t[j], "const") || kn_is(&g->t[j], "volatile") || kn_is(&g->t[j], "register"))) j++;
  int s = find_struct(g, &g->t[j]);
  if (s >= 0 && !kn_is(&g->t[j + 1], "(") && !kn_is(&g->t[j + 1], "::")) {
    /* S [<args>] [*|&] name ...; */
    const kn_tok *st = &g->t[j];
    const char **targs = NULL;
    j++;
    if (kn_is(&g->t[j], "<")) {
      if (!g->structs.v[s].tmpl) ERR(g, &g->t[j], "%.*s is no template", (int)st->n, st->s);
      j = template_args(g, fr, g->structs.v[s].tmpl, j, &targs);
    }
    if (g->structs.v[s].tmpl) {
      const tmpl *tp = &g->tmpls.v[g->structs.v[s].tmpl - 1];
      const char **a = lc_arena_alloc(g->K->a, (tp->params.n + 1) * sizeof *a);
      for (size_t k = 0; k < tp->params.n; k++) {
        a[k] = targs ? targs[k] : NULL;
        if (!a[k] && tp->params.v[k].def) {
          const frame *saved = g->tframe;
          g->tframe = fr;
          a[k] = tp->params.v[k].type ? type_string(g, tp->params.v[k].def, tp->params.v[k].def_end)
                                      : render(g, fr, tp->params.v[k].def, tp->params.v[k].def_end);
          g->tframe = saved;
        }
        if (!a[k]) ERR(g, st, "%.*s is a class template: give its arguments (%.*s<...>); deduction from a "
                       "constructor is not read (or check the kernel with --via nvcc)", (int)st->n, st->s,
                       (int)st->n, st->s);
      }
      targs = a;
    }
    bool is_alias = false;
    while (kn_is(&g->t[j], "*") || kn_is(&g->t[j], "&") || kn_is(&g->t[j], "const")) is_alias |= !kn_is(&g->t[j++], "const");
    const kn_tok *nm = &g->t[j];
    if (nm->kind != KT_ID) ERR(g, nm, "expected the name of the %.*s", (int)st->n, st->s);
    size_t semi = find_semi(g, j);
    if (is_alias) {   /* S *p = &obj;  S &r = obj; */
      if (!kn_is(&g->t[j + 1], "=")) ERR(g, nm, "a pointer or reference to an object is declared with its object");
      int o = obj_expr_at(g, fr, j + 2, semi);
      if (!o) ERR(g, &g->t[j + 2], "expected an object of %.*s (a pointer to an object is bound once, to a named "
                  "object)", (int)st->n, st->s);
      objb ob = g->objs.v[o - 1];
      ob.name = src_name(g, nm);
      ob.frame = fr->id;
      ob.depth = g->depth;
      lc_vec_push(&g->objs, ob);
      return semi + 1;
    }
    int o = new_obj(g, fr, s, src_name(g, nm), targs, nm);
    size_t k = j + 1;
    size_t call = 0;   /* the token before the constructor's arguments */
    if (kn_is(&g->t[k], "(") || kn_is(&g->t[k], "{")) call = j;
    else if (kn_is(&g->t[k], "=") && kn_is(&g->t[k + 1], "{")) call = k;
    else if (kn_is(&g->t[k], "=") && tok_eq_str(&g->t[k + 1], st->s, st->n)) {
      call = k + 1;
      if (kn_is(&g->t[call + 1], "<"))
        ERR(g, &g->t[call + 1], "write `%.*s<...> %.*s(...)`", (int)st->n, st->s, (int)nm->n, nm->s);
    } else if (k != semi) ERR(g, &g->t[k], "expected '(', '{', '=' or ';' after %.*s", (int)nm->n, nm->s);
    /* a constructor that takes the arguments */
    size_t cuts[MAX_ARGS + 1], n = 0;
    bool brace = call && kn_is(&g->t[call + 1], "{");
    if (call) {
      size_t close = match(g, call + 1, brace ? "{" : "(", brace ? "}" : ")");
      if (close + 1 != semi) ERR(g, &g->t[close + 1], "expected ';'");
      if (close > call + 2) {
        cuts[n++] = call + 2;
        int depth = 0;
        for (size_t q = call + 2; q < close; q++) {
          const kn_tok *c = &g->t[q];
          if (kn_is(c, "(") || kn_is(c, "[") || kn_is(c, "{")) depth++;
          else if (kn_is(c, ")") || kn_is(c, "]") || kn_is(c, "}")) depth--;
          else if (depth == 0 && kn_is(c, ",")) {
            if (n >= MAX_ARGS) ERR(g, c, "more than %d arguments", MAX_ARGS);
            cuts[n++] = q + 1;
          }
        }
      }
      cuts[n] = close + 1;
    }
    func *ctor = NULL;
    bool any = false;
    for (size_t q = 0; q < g->funcs.n; q++) {
      func *f = &g->funcs.v[q];
      if (f->owner != s + 1 || !f->ctor) continue;
      any = true;
      size_t need = 0;
      while (need < f->params.n && !f->params.v[need].def) need++;
      if (n >= need && n <= f->params.n) {
        if (ctor) ERR(g, nm, "two constructors of %.*s take %zu arguments: overloads are not read", (int)st->n, st->s, n);
        ctor = f;
      }
    }
    if (ctor) {   /* S x(a, b), S x{a, b}, S x = S(a, b): the constructor inlined on x */
      g->pending_self = o;
      g->pending_targs = NULL;
      if (!call) {   /* S x;  the default constructor */
        frame callee = {ctor, ++g->nframes, NULL, NULL, NULL, NULL, nm, o, NULL, NULL};
        g->pending_self = 0;
        callee.arg = lc_arena_alloc(g->K->a, (ctor->params.n + 1) * sizeof *callee.arg);
        if (ctor->params.n) ERR(g, nm, "default arguments of a default constructor are not read");
        put(g, "{", nm);
        g->depth++;
        field_inits(g, &callee, ctor->inits, ctor->inits_end);
        emit(g, &callee, ctor->body + 1, ctor->end, true);
        close_scope(g);
        put(g, "}", nm);
        return semi + 1;
      }
      inline_call(g, fr, ctor, call, true, NULL);
      return semi + 1;
    }
    if (any) ERR(g, nm, "no constructor of %.*s takes %zu arguments", (int)st->n, st->s, n);
    /* an aggregate: S x{a, b}, S x = {a, b}: the fields in order; the rest their default initialisers */
    const sdef *sd = &g->structs.v[s];
    if (call && !brace) ERR(g, nm, "%.*s has no constructor: initialise it with {...}", (int)st->n, st->s);
    if (n > sd->fields.n) ERR(g, nm, "%zu values for the %zu fields of %.*s", n, sd->fields.n, (int)st->n, st->s);
    for (size_t q = 0; q < sd->fields.n; q++) {   /* the values are the caller's expressions */
      if (q < n) init_field(g, fr, o, q, cuts[q], cuts[q + 1] - 1, &g->t[cuts[q]]);
      else if (sd->fields.v[q].init) {
        frame df = {NULL, 0, NULL, NULL, NULL, NULL, nm, o, NULL, NULL};
        init_field(g, &df, o, q, sd->fields.v[q].init, sd->fields.v[q].init_end, sd->fields.v[q].name);
      }
    }
    return semi + 1;
  }
  /* T *p = e;  T &r = e;  (T a scalar type) */
  if (type_word(g, &g->t[j]) && !kn_is(&g->t[j + 1], "<")) {
    size_t k = j;
    while (k < end && type_word(g, &g->t[k])) k++;
    if (kn_is(&g->t[k], "*") || kn_is(&g->t[k], "&")) {
      bool ref = kn_is(&g->t[k], "&");
      k++;
      while (kn_is(&g->t[k], "const") || kn_is(&g->t[k], "__restrict__")) k++;
      if (kn_is(&g->t[k], "*")) ERR(g, &g->t[k], "a pointer to a pointer is not modelled");
      const kn_tok *nm = &g->t[k];
      if (nm->kind != KT_ID) return 0;
      size_t semi = find_semi(g, k);
      for (size_t q = k; q < semi; q++)
        if (kn_is(&g->t[q], ",") && g->t[q].line > 0) {
          bool top = true;
          int depth = 0;
          for (size_t r = k; r < q; r++) depth += kn_is(&g->t[r], "(") - kn_is(&g->t[r], ")");
          top = depth == 0;
          if (top) ERR(g, &g->t[q], "declare one pointer or reference a statement");
        }
      slot sl = {0};
      sl.pointer = !ref;
      sl.ref = ref;
      char *name = kn_str(g->K, nm);
      char buf[300];
      snprintf(buf, sizeof buf, "%.200s_off", name);
      sl.local = fresh(g, lc_arena_strdup(g->K->a, ref ? name : buf));
      lc_vec_push(&g->slots, sl);
      size_t si = g->slots.n - 1;
      if (kn_is(&g->t[k + 1], "=")) {
        const char *text = render(g, fr, k + 2, semi);
        if (ref) {
          if (text[0] == '*') {
            text++;
          } else {
            bool ident = text[0] && !isdigit((unsigned char)text[0]);
            for (const char *c = text; *c; c++) ident &= isalnum((unsigned char)*c) || *c == '_';
            bool found = false;
            if (ident) (void)loc_array(g, text, &found);
            if (ident && !found) {   /* a reference to a local: the local */
              g->slots.v[si].local = text;
              g->slots.v[si].ref = true;
              pbind pb = {name, fr->id, g->depth, si};
              lc_vec_push(&g->pbinds, pb);
              return semi + 1;
            }
            size_t len = strlen(text) + 5;
            char *amp = lc_arena_alloc(g->K->a, len);
            snprintf(amp, len, "& %s", text);
            text = amp;
          }
        }
        set_ptr(g, &g->slots.v[si], text, &g->t[k + 2], name);
      } else if (ref) {
        ERR(g, nm, "a reference is declared with what it refers to");
      } else if (!kn_is(&g->t[k + 1], ";")) {
        ERR(g, &g->t[k + 1], "expected '=' or ';' after %s", name);
      }
      pbind pb = {name, fr->id, g->depth, si};
      lc_vec_push(&g->pbinds, pb);
      return semi + 1;
    }
  }
  /* ++p;  --p; */
  if ((kn_is(t, "++") || kn_is(t, "--")) && g->t[i + 1].kind == KT_ID) {
    look L;
    if (lookup(g, fr, i + 1, &L) && L.slot && g->slots.v[L.slot - 1].pointer && kn_is(&g->t[L.next], ";")) {
      slot *sl = &g->slots.v[L.slot - 1];
      if (!sl->base || !sl->array) ERR(g, t, "pointer arithmetic on a pointer that is not into an array");
      put(g, sl->local, t);
      put(g, "=", t);
      put(g, sl->local, t);
      put(g, kn_is(t, "++") ? "+" : "-", t);
      put(g, "1", t);
      put(g, ";", t);
      return L.next + 1;
    }
    return 0;
  }
  {
    /* a[i] = f(...);  *p = obj.m(...);  (f of several statements): the
     * element is assigned where f returns */
    size_t semi = 0, eq = 0;
    int depth = 0;
    for (size_t q = i; q < end && !semi; q++) {
      const kn_tok *c = &g->t[q];
      if (c->kind == KT_EOF || kn_is(c, "{") || kn_is(c, "}")) break;
      depth += (kn_is(c, "(") || kn_is(c, "[")) - (kn_is(c, ")") || kn_is(c, "]"));
      if (depth < 0) break;
      if (depth == 0 && kn_is(c, "=") && !eq) eq = q;
      if (depth == 0 && kn_is(c, ";")) semi = q;
    }
    /* f<...>(...);  a template function called as a statement */
    func *tf = find_func(g, t);
    if (semi && tf && tf->tmpl && !tf->expr && kn_is(&g->t[i + 1], "<")) {
      size_t after = inline_call(g, fr, tf, i, true, NULL);
      if (after != semi) ERR(g, &g->t[after], "expected ';' after the call of '%.*s'", (int)t->n, t->s);
      return semi + 1;
    }
    bool typed = type_word(g, t) || kn_is(t, "const");
    size_t lhs_end = eq;
    if (typed) {   /* T x = f<...>(...); */
      size_t k = i;
      while (k < eq && (type_word(g, &g->t[k]) || kn_is(&g->t[k], "const"))) k++;
      if (k + 1 != eq || g->t[k].kind != KT_ID) eq = 0;
      lhs_end = k;
    }
    if (semi && eq > i && !kn_is(t, "static")) {
      func *f = find_func(g, &g->t[eq + 1]);
      size_t name = eq + 1;
      look M = {0};
      if (!f && lookup(g, fr, eq + 1, &M) && M.method) f = M.method, name = M.next - 1;
      bool targs = f && f->tmpl && kn_is(&g->t[name + 1], "<");
      size_t open = targs ? match(g, name + 1, "<", ">") + 1 : name + 1;
      /* x = f(...) and T x = f(...) of a plain function: special_stmt */
      if (f && !f->expr && (eq > i + 1 || targs || M.method) && (!typed || targs) && kn_is(&g->t[open], "(") &&
          match(g, open, "(", ")") + 1 == semi) {
        const char *x;
        if (typed) {
          put(g, type_string(g, i, lhs_end), t);
          x = declare(g, kn_str(g->K, &g->t[lhs_end]), fr->id);
          put(g, x, &g->t[lhs_end]);
          put(g, ";", &g->t[lhs_end]);
        } else {
          x = render(g, fr, i, eq);
        }
        g->pending_self = M.obj;
        inline_call(g, fr, f, name, true, x);
        return semi + 1;
      }
    }
  }
  look L;
  if (!lookup(g, fr, i, &L)) {
    /* x = obj.m(...);  T x = obj.m(...); */
    size_t k = i;
    bool typed = false;
    while (k < end && type_word(g, &g->t[k])) k++, typed = true;
    if (g->t[k].kind != KT_ID || !kn_is(&g->t[k + 1], "=")) return 0;
    look M;
    if (!lookup(g, fr, k + 2, &M) || !M.method || M.method->expr || !kn_is(&g->t[M.next], "(")) return 0;
    const char *x;
    if (typed) {
      const char *type = type_string(g, i, k);
      put(g, type, t);
      x = declare(g, kn_str(g->K, &g->t[k]), fr->id);
      put(g, x, &g->t[k]);
      put(g, ";", &g->t[k]);
    } else {
      x = render(g, fr, i, i + 1);
    }
    g->pending_self = M.obj;
    size_t after = inline_call(g, fr, M.method, M.next - 1, true, x);
    if (!kn_is(&g->t[after], ";")) ERR(g, &g->t[after], "expected ';' after the call");
    return after + 1;
  }
  if (L.method) {   /* obj.m(...); */
    if (!kn_is(&g->t[L.next], "(")) ERR(g, L.name, "'%.*s' is a member function: call it", (int)L.name->n, L.name->s);
    if (L.method->expr) return 0;   /* an expression: written where it stands */
    g->pending_self = L.obj;
    size_t after = inline_call(g, fr, L.method, L.next - 1, true, NULL);
    if (!kn_is(&g->t[after], ";")) ERR(g, &g->t[after], "expected ';' after the call");
    return after + 1;
  }
  if (L.slot && g->slots.v[L.slot - 1].pointer) {
    /* p = e;  p++;  p += e;  p -= e; */
    const kn_tok *op = &g->t[L.next];
    slot *sl = &g->slots.v[L.slot - 1];
    char *what = kn_str(g->K, L.name);
    if (kn_is(op, "=")) {
      size_t semi = find_semi(g, L.next);
      const char *text = render(g, fr, L.next + 1, semi);
      set_ptr(g, &g->slots.v[L.slot - 1], text, op, what);
      return semi + 1;
    }
    if (kn_is(op, "++") || kn_is(op, "--") || kn_is(op, "+=") || kn_is(op, "-=")) {
      size_t semi = find_semi(g, L.next);
      if (!sl->base || !sl->array) ERR(g, op, "pointer arithmetic on %s, which does not point into an array", what);
      const char *d = kn_is(op, "++") || kn_is(op, "--") ? "1" : render(g, fr, L.next + 1, semi);
      sl = &g->slots.v[L.slot - 1];
      put(g, sl->local, op);
      put(g, "=", op);
      put(g, sl->local, op);
      put(g, kn_is(op, "++") || kn_is(op, "+=") ? "+" : "-", op);
      put(g, "(", op);
      put(g, d, op);
      put(g, ")", op);
      put(g, ";", op);
      return semi + 1;
    }
  }
  return 0;
}

/* An object, a field, a member function, a pointer or a reference at
 * toks[i] in an expression: written; the index after it, or 0. */
static size_t obj_expr(gen *g, frame *fr, size_t i) {
  const kn_tok *t = &g->t[i];
  look L;
  if (kn_is(t, "*")) {   /* *p */
    if (!lookup(g, fr, i + 1, &L) || !L.slot) return 0;
    slot *sl = &g->slots.v[L.slot - 1];
    const kn_tok *n = &g->t[L.next];
    if (!sl->pointer || kn_is(n, "[") || kn_is(n, "(") || kn_is(n, ".") || kn_is(n, "->")) return 0;
    const char *s = slot_text(g, sl, "deref", NULL, t);
    put_at(g, s, strlen(s), t->line, t->col);
    return L.next;
  }
  if (!lookup(g, fr, i, &L)) {
    if (find_struct(g, t) >= 0 && (kn_is(&g->t[i + 1], "(") || kn_is(&g->t[i + 1], "{")))
      ERR(g, t, "a temporary object (%.*s(...)) is not modelled: name it (%.*s x(...);)", (int)t->n, t->s,
          (int)t->n, t->s);
    return 0;
  }
  if (L.method) {
    g->pending_self = L.obj;
    return inline_call(g, fr, L.method, L.next - 1, false, NULL);
  }
  if (L.slot) {
    slot *sl = &g->slots.v[L.slot - 1];
    const kn_tok *n = &g->t[L.next];
    const char *s;
    size_t next = L.next;
    if (sl->pointer && kn_is(n, "[")) {
      size_t close = match(g, L.next, "[", "]");
      const char *idx = render(g, fr, L.next + 1, close);
      s = slot_text(g, &g->slots.v[L.slot - 1], "index", idx, t);
      next = close + 1;
    } else if (sl->pointer && kn_is(n, "->")) {
      const char *d = slot_text(g, sl, "deref", NULL, t);
      size_t len = strlen(d) + 4;
      char *w = lc_arena_alloc(g->K->a, len);
      snprintf(w, len, "(%s).", d);
      s = w;
      next = L.next + 1;
    } else if (sl->pointer) {
      s = slot_text(g, sl, "value", NULL, t);
      if (sl->array && (kn_is(n, "+") || kn_is(n, "-"))) {
        /* p + i - 1: a + (p_off + i - 1), the form of an address the dialect reads */
        size_t q = L.next;
        while (kn_is(&g->t[q], "+") || kn_is(&g->t[q], "-")) {
          size_t e = q + 1;
          if (kn_is(&g->t[e], "(")) e = match(g, e, "(", ")") + 1;
          else if (g->t[e].kind == KT_ID || g->t[e].kind == KT_NUM) e++;
          else break;
          const kn_tok *after = &g->t[e];
          if (kn_is(after, "*") || kn_is(after, "/") || kn_is(after, "%") || kn_is(after, "[") ||
              kn_is(after, "(") || kn_is(after, ".") || kn_is(after, "->"))
            break;
          q = e;
        }
        if (q > L.next) {
          const char *d = render(g, fr, L.next, q);
          char buf[700];
          snprintf(buf, sizeof buf, "%.200s + (%.200s %.250s)", sl->base, sl->local, d);
          s = lc_arena_strdup(g->K->a, buf);
          next = q;
        }
      }
    } else {
      s = slot_text(g, sl, "deref", NULL, t);
    }
    put_at(g, s, strlen(s), t->line, t->col);
    return next;
  }
  ERR(g, t, "an object (%.*s) used as a value is not modelled: call its member functions, use its fields, or pass "
      "it to a function by reference", (int)L.name->n, L.name->s);
}

/* Inlines a call of f at toks[i] (its name); returns the index after ')'.
 * As an expression: (E).  As a statement (target: `x = f(...)`): a block. */
static size_t inline_call(gen *g, frame *fr, func *f, size_t i, bool stmt, const char *target) {
  const kn_tok *at = &g->t[i];
  int self = g->pending_self;   /* a member function's object, set by the caller */
  const char **targs = g->pending_targs;
  g->pending_self = 0;
  g->pending_targs = NULL;
  if (f->global) ERR(g, at, "'%.*s' is a __global__ function: a kernel launch from a kernel (dynamic parallelism) "
                     "is not modelled", (int)at->n, at->s);
  if (f->active)
    ERR(g, at, "recursion: '%.*s' is called while it is being inlined (through the functions it calls), "
        "which is not modelled", (int)at->n, at->s);
  if (g->ninline >= MAX_INLINE) ERR(g, at, "device functions nest more than %d deep", MAX_INLINE);
  size_t open = i + 1;
  if (kn_is(&g->t[open], "<") && f->tmpl) open = template_args(g, fr, f->tmpl, open, &targs);
  if (!kn_is(&g->t[open], "(")) ERR(g, at, "'%.*s' is a function: call it", (int)at->n, at->s);
  size_t cuts[MAX_ARGS + 1], n;
  size_t close = call_args(g, open, cuts, MAX_ARGS, &n);
  size_t given = n;
  while (n < f->params.n && f->params.v[n].def) n++;   /* default arguments */
  if (n != f->params.n) ERR(g, at, "'%.*s' takes %zu arguments, given %zu", (int)at->n, at->s, f->params.n, given);
  if (!stmt && !f->expr)
    ERR(g, at, "'%.*s' is a function of several statements called inside an expression: call it as a statement, "
        "`x = %.*s(...);` or `T x = %.*s(...);`", (int)at->n, at->s, (int)at->n, at->s, (int)at->n, at->s);
  frame callee = {f, ++g->nframes, NULL, NULL, NULL, target, at, self, NULL, NULL};
  if (f->tmpl) callee.targs = deduce(g, fr, f, targs, cuts, given, at);
  const char **args = lc_arena_alloc(g->K->a, (n + 1) * sizeof *args);
  for (size_t k = 0; k < n; k++) {
    if (obj_param(g, fr, &callee, k, k < given ? cuts[k] : 0, k < given ? cuts[k + 1] - 1 : 0)) {
      args[k] = NULL;   /* an object: bound in the callee's frame */
      continue;
    }
    args[k] = k < given ? render(g, fr, cuts[k], cuts[k + 1] - 1)
                        : render(g, fr, f->params.v[k].def, f->params.v[k].def_end);
    if (!args[k][0]) ERR(g, &g->t[cuts[k]], "an empty argument");
  }
  callee.arg = args;
  callee.base = lc_arena_alloc(g->K->a, (n + 1) * sizeof *callee.base);
  callee.off = lc_arena_alloc(g->K->a, (n + 1) * sizeof *callee.off);
  for (size_t k = 0; k < n; k++)
    if (f->params.v[k].pointer && args[k]) array_arg(g, args[k], &callee.base[k], &callee.off[k]);
  f->active = true;
  g->ninline++;
  if (f->expr) {
    /* ( E ) with each parameter as its argument, in parentheses: an
     * argument that calls something (an atomic) must be used once, or
     * its effect would happen as many times as E names the parameter */
    char *wrapped[MAX_ARGS];
    for (size_t k = 0; k < n; k++) {
      if (!args[k]) continue;
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
      if (!args[k]) continue;
      if (p->pointer) {   /* the location itself */
        size_t len = strlen(args[k]) + 3;
        char *w = lc_arena_alloc(g->K->a, len);
        snprintf(w, len, "(%s)", args[k]);
        args[k] = w;
        continue;
      }
      char *pname = lc_arena_strndup(g->K->a, p->name->s, p->name->n);
      const char *as = declare(g, pname, callee.id);
      put(g, subst_words(g, &callee, p->type), at);
      put(g, as, at);
      put(g, "=", at);
      put(g, "(", at);
      put(g, args[k], at);
      put(g, ")", at);
      put(g, ";", at);
      args[k] = NULL;   /* a local of the callee, found by its binding */
    }
    if (f->ctor) ctor_inits(g, &callee);
    if (f->early) early_open(g, &callee, at);
    emit(g, &callee, f->body + 1, f->end, true);
    if (f->early) early_close(g, &g->t[f->end]);
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
    if (kn_is(&g->t[j], "__shared__")) {   /* read before the threads were written */
      shared_obj(g, fr, i);
      return find_semi(g, i) + 1;
    }
  size_t done = obj_stmt(g, fr, i, end);
  if (done) return done;
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
  const frame *saved_tframe = g->tframe;
  g->tframe = fr;
  size_t loops[MAX_HEADERS];   /* a function returning early: the ends of the loops that hold a return */
  size_t nloops = 0;
  while (i < end) {
    const kn_tok *t = &g->t[i];
    while (nloops > 0 && i > loops[nloops - 1]) {
      early_break(g, fr, t);
      nloops--;
    }
    if (t->kind == KT_EOF) ERR(g, t, "unexpected end of file");
    if (start) {
      start = false;
      size_t loop_end = early_loop(g, fr, i);
      if (loop_end) {
        if (nloops == MAX_HEADERS) ERR(g, t, "loops nest more than %d deep", MAX_HEADERS);
        loops[nloops++] = loop_end;
      }
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
          bool ty = false;
          const char *sub = tsub(g, fr, w, &ty);
          if (sub) put_at(g, sub, strlen(sub), w->line, w->col);
          else if (a) put_at(g, type_string(g, j, j + 1), strlen(type_string(g, j, j + 1)), w->line, w->col);
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
    if (kn_is(t, "return") && fr->f && fr->retflag) {
      i = early_return(g, fr, i);
      start = true;
      continue;
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
    if (kn_is(t, "double")) ERR(g, t, "double values are not modelled: float values are (IEEE binary32)");
    if (t->kind == KT_NUM && float_literal(t)) {   /* the dialect reads it */
      put_tok(g, t);
      i++;
      continue;
    }
    if (t->kind == KT_CHR || t->kind == KT_NUM) {
      size_t k = i;
      int64_t v = kn_const_expr(g->K, g->t, i + 1, &k, false);
      char buf[32];
      if (t->kind == KT_NUM) literal_out(t, v, buf, sizeof buf);
      else snprintf(buf, sizeof buf, "%lld", (long long)v);
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
    if (kn_is(t, "*") || kn_is(t, "(") || t->kind == KT_ID) {   /* objects, pointers, template parameters */
      size_t next = obj_expr(g, fr, i);
      if (next) {
        i = next;
        continue;
      }
      bool ty = false;
      const char *sub = tsub(g, fr, t, &ty);
      if (sub) {
        put_at(g, sub, strlen(sub), t->line, t->col);
        i++;
        continue;
      }
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
          lc_buf lit;
          lc_buf_init(&lit);
          input_as(g, in, float_type(p->type));
          if (float_type(p->type)) lt_print_float(&lit, in->values.v[0]);
          else lc_buf_printf(&lit, "%lld", (long long)in->values.v[0]);
          put_at(g, lit.s, lit.n, t->line, t->col);
          lc_buf_fini(&lit);
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
  for (; nloops > 0; nloops--) early_break(g, fr, &g->t[end > 0 ? end - 1 : 0]);
  g->tframe = saved_tframe;
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
  frame top = {0};
  g->tframe = &top;   /* the kernel's template parameters: __shared__ T buf[N] */
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
        size_t ty = from;
        while (ty < semi && (storage_word(&g->t[ty]) || kn_is(&g->t[ty], "volatile"))) ty++;
        if (find_struct(g, &g->t[ty]) >= 0) {
          shared_struct(g, from, semi, ty);
          j = semi;
          continue;
        }
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
  g->tframe = NULL;
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
static void init_entry(gen *g, int line, const char *name, long len, const int64_t *vals, size_t nvals, bool fl) {
  if (len < 0 && !fl) {
    put_line(g, line, "  [%s] = %lld;", name, (long long)(nvals ? vals[0] : 0));
    return;
  }
  new_line(g, line);
  if (len < 0) {   /* a float: typed, so that its value reads as one */
    lc_buf_printf(&g->out, "  float %s = ", name);
    lt_print_float(&g->out, nvals ? vals[0] : 0);
    lc_buf_puts(&g->out, ";");
    return;
  }
  lc_buf_printf(&g->out, "  %s %s[%ld] = {", fl ? "float" : "int", name, len);
  for (long k = 0; k < len; k++) {
    lc_buf_puts(&g->out, k ? ", " : "");
    int64_t v = (size_t)k < nvals ? vals[k] : 0;
    if (fl) lt_print_float(&g->out, v);
    else lc_buf_printf(&g->out, "%lld", (long long)v);
  }
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
    input_as(g, in, float_type(p->type));
    init_entry(g, in->line, in->name, in->values.n > 1 || in->braces ? (long)in->values.n : -1, in->values.v,
               in->values.n, float_type(p->type));
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
    if (in) input_as(g, in, float_type(v->type));
    init_entry(g, v->name->line, loc_name(g, v), v->len, in ? in->values.v : v->init.v, in ? in->values.n : v->init.n,
               float_type(v->type));
  }
  for (int b = 0; b < g->nblocks; b++)
    for (size_t k = 0; k < g->vars.n; k++) {
      var *v = &g->vars.v[k];
      if (!v->shared) continue;
      g->blin = b;
      init_entry(g, v->name->line, loc_name(g, v), v->len, NULL, 0, float_type(v->type));
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
      g->objs.n = g->pbinds.n = g->slots.n = 0;
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
      frame top = {NULL, 0, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL};
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
  for (size_t k = 0; k < g->inputs.n; k++) {
    lc_vec_free(&g->inputs.v[k].values);
    lc_vec_free(&g->inputs.v[k].fp);
  }
  for (size_t k = 0; k < g->structs.n; k++) lc_vec_free(&g->structs.v[k].fields);
  for (size_t k = 0; k < g->tmpls.n; k++) lc_vec_free(&g->tmpls.v[k].params);
  lc_vec_free(&g->structs);
  lc_vec_free(&g->tmpls);
  lc_vec_free(&g->slots);
  lc_vec_free(&g->objs);
  lc_vec_free(&g->pbinds);
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

/* The template arguments of a template kernel: --kernel NAME<...>, the
 * file's explicit instantiation, or the parameters' defaults. */
static void kernel_targs(gen *g, const char *given) {
  func *kf = g->kernel;
  if (!kf->tmpl) {
    if (given) kn_error(g->K, 1, 1, "kernel %.*s is no template: --kernel %.*s", (int)kf->name->n, kf->name->s,
                        (int)kf->name->n, kf->name->s);
    return;
  }
  const tmpl *tp = &g->tmpls.v[kf->tmpl - 1];
  const char **a = lc_arena_alloc(g->K->a, (tp->params.n + 1) * sizeof *a);
  size_t n = 0;
  if (given) {   /* <int, 4> */
    const char *p = given + 1, *close = strrchr(given, '>');
    if (!close || close[1]) kn_error(g->K, 1, 1, "--kernel %s: expected NAME<ARGS>", given);
    while (p < close) {
      const char *q = p;
      int depth = 0;
      while (q < close && !(depth == 0 && *q == ',')) depth += (*q == '<' || *q == '(') - (*q == '>' || *q == ')'), q++;
      while (p < q && *p == ' ') p++;
      size_t len = (size_t)(q - p);
      while (len && p[len - 1] == ' ') len--;
      if (n >= tp->params.n) kn_error(g->K, 1, 1, "--kernel: kernel %.*s has %zu template parameters",
                                      (int)kf->name->n, kf->name->s, tp->params.n);
      if (!len) kn_error(g->K, 1, 1, "--kernel: an empty template argument");
      a[n++] = lc_arena_strndup(g->K->a, p, len);
      p = q + 1;
    }
  } else if (g->kinst && tok_eq_str(&g->t[g->kinst - 1], kf->name->s, kf->name->n)) {
    size_t from = g->kinst + 1;
    int depth = 0;
    for (size_t j = from; j <= g->kinst_end; j++) {
      const kn_tok *t = &g->t[j];
      if (j < g->kinst_end && (kn_is(t, "<") || kn_is(t, "("))) depth++;
      if (j < g->kinst_end && (kn_is(t, ">") || kn_is(t, ")"))) depth--;
      if (j < g->kinst_end && !(depth == 0 && kn_is(t, ","))) continue;
      if (n >= tp->params.n) ERR(g, t, "more template arguments than kernel %.*s has parameters", (int)kf->name->n,
                                 kf->name->s);
      a[n++] = type_string(g, from, j);
      from = j + 1;
    }
  }
  for (size_t k = n; k < tp->params.n; k++) {
    const tparam *q = &tp->params.v[k];
    if (!q->def)
      ERR(g, kf->name, "kernel %.*s is a template: give its arguments with --kernel '%.*s<...>' or instantiate it in "
          "the file (template __global__ void %.*s<...>(...);)", (int)kf->name->n, kf->name->s, (int)kf->name->n,
          kf->name->s, (int)kf->name->n, kf->name->s);
    g->ktargs = a;
    frame top = {0};
    g->tframe = &top;
    a[k] = type_string(g, q->def, q->def_end);
    g->tframe = NULL;
  }
  for (size_t k = 0; k < tp->params.n; k++)
    if (!tp->params.v[k].type) {   /* a value: in parentheses */
      size_t len = strlen(a[k]) + 3;
      char *w = lc_arena_alloc(g->K->a, len);
      snprintf(w, len, "(%s)", a[k]);
      a[k] = w;
    }
  g->ktargs = a;
  /* the parameters' types, their template parameters replaced */
  frame top = {0};
  for (size_t k = 0; k < kf->params.n; k++) kf->params.v[k].type = subst_words(g, &top, kf->params.v[k].type);
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
  size_t kn = o && o->kernel ? strcspn(o->kernel, "<") : 0;
  for (size_t k = 0; k < g->funcs.n; k++) {
    func *f = &g->funcs.v[k];
    if (!f->global) continue;
    if (o && o->kernel ? tok_eq_str(f->name, o->kernel, kn) : true) {
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
  kernel_targs(g, o && o->kernel && o->kernel[kn] ? o->kernel + kn : NULL);
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
