/* kp_gen.c - the kernel's PTX evaluated for each thread of the launch and
 * written as a PTX litmus test (kptx.h).
 * SPDX-License-Identifier: MIT
 *
 * Each thread's registers hold abstract values: a constant (what the
 * special registers, the parameters and arithmetic on them give), an
 * address (an element of an array: a parameter's, a __device__
 * variable's, a block's __shared__ variable's), or a value only memory
 * decides (a loaded value, arithmetic on one), which the test keeps in a
 * register of its own.  A branch on a constant is taken now; one on a
 * loaded value becomes a branch of the test.  The code is walked from the
 * entry; at each label the thread's abstract state names a block of the
 * test (a label of its own), so a spin loop, which comes back to its head
 * in the state it left, is a loop of the test, while a loop over
 * constants is unrolled.  A head met more than WIDEN times in different
 * states is widened: the constants that differ become registers of the
 * test (a loop counter of a spin loop), and an address that differs is
 * refused, naming the PTX line and the source line.  This is a symbolic
 * evaluator of our own: no library reads PTX back for a memory model.
 */
#include "kptx/kp_int.h"
#include "litmus/lex.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 1024     /* as the source-level reader */
#define MAX_CELLS 4000000    /* the test's rows times its threads (the layout of write_test) */
#define WIDEN 40             /* states at one label before it is widened */
#define WIDEN_SPIN 3         /* ... at the head of a spin loop (below) */
#define MAX_ROWS 8000        /* instructions of one thread of the test */
#define MAX_ARRAY 1024
#define MAX_GRID_SYNCS 2     /* arrivals on the grid's barrier word per thread, where the PTX is not
                                cooperative groups' barrier (grid_barrier) */

/* ---- the header --------------------------------------------------------------------------- */

typedef struct input {
  char *name;
  LC_VEC(int64_t) values;
  bool braces, used;
  int line, col;
} input;

typedef struct hdr {
  const char *text;
  int line, col;
} hdr;

typedef struct param {
  char *name;
  bool pointer;
  int elem;
  bool sgn;              /* a signed char or short */
} param;

/* an array of the test: a parameter's, a __device__ variable's, a __shared__ one's (per CTA) */
typedef struct mem {
  const char *name;      /* as the test names it (a CTA's copy of a shared one: NAME_bB) */
  int elem;
  long n;                /* elements */
  const int64_t *init;
  size_t ninit;
  bool shared;
  int sym;               /* the module's symbol, -1 for a parameter */
  int cta;               /* a shared one's CTA */
  bool *used;            /* n flags: accessed by some thread */
  long bytes;            /* a module variable's size */
  bool sgn;              /* a byte's or a half-word's value signed (char, short; .s8): how the
                            test keeps it, as the source names it */
} mem;

/* A finite set of values (a selp between constants, arithmetic on one): a
 * value read from memory is any value, but one the kernel chose among
 * constants is one of them, so an address computed from it can be followed
 * per value. */
#define MAX_SET 16
typedef struct vset {
  int n;
  int64_t v[MAX_SET];
} vset;

typedef struct gen {
  kp_err *e;
  const lc_source *src;
  const kp_options *o;
  lc_arena *a;
  kp_module m;
  int grid[3], block[3], cluster[3], nblocks, nthreads;
  long shmem;            /* the launch's dynamic shared memory in bytes (-1: not given) */
  bool cooperative;      /* launched cooperatively: said by the launch, or the grid's barrier used */
  int kline;             /* the kernel's name's line */
  char *kname;
  LC_VEC(param) params;
  LC_VEC(input) inputs;
  hdr launch, output, filter;
  LC_VEC(mem) mems;
  LC_VEC(vset) sets;     /* val.set, interned: equal sets, equal ids (states compare as bytes) */
  /* registers */
  lc_names regs;
  size_t nregs;
  LC_VEC(int) asserts;   /* source lines of the asserts */
  bool spin_widen;       /* widen at spin loops' heads after WIDEN_SPIN states */
  bool lift_grid;        /* cooperative groups' grid barrier read as the test's grid.sync */
  bool unlift;           /* ... and a thread met one that is not (translate again without) */
  int ws_sym;            /* the grid workspace's symbol; -1 when the kernel has none */
  kp_grid_seq *gseq;     /* per instruction: the grid barrier starting there (b2 0: none) */
  /* the test's text */
  lc_buf out;
  LC_VEC(int) line_of;
} gen;

#define FAIL(g, line, ...) kp_fail((g)->e, line, __VA_ARGS__)

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

static int64_t h_int(gen *g, const char **p, const hdr *h, const char *what) {
  const char *s = skip_space(*p);
  char *e;
  if (!(isdigit((unsigned char)*s) || ((*s == '-' || *s == '+') && isdigit((unsigned char)s[1]))))
    FAIL(g, h->line, "expected %s in '%s'", what, h->text);
  long long v = strtoll(s, &e, 0);
  while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L') e++;
  *p = e;
  return v;
}

static bool h_lit(const char **p, const char *w) {
  const char *s = skip_space(*p);
  if (strncmp(s, w, strlen(w))) return false;
  *p = s + strlen(w);
  return true;
}

static void h_dim(gen *g, const char **p, const hdr *h, int d[3], const char *what) {
  d[0] = d[1] = d[2] = 1;
  bool call = h_lit(p, "dim3");
  bool open = call ? h_lit(p, "(") : h_lit(p, "{");
  int n = open ? 3 : 1;
  for (int k = 0; k < n; k++) {
    int64_t v = h_int(g, p, h, what);
    if (v < 1 || v > MAX_THREADS) FAIL(g, h->line, "%s: from 1 to %d", what, MAX_THREADS);
    d[k] = (int)v;
    if (!open || !h_lit(p, ",")) break;
  }
  if (open && !h_lit(p, call ? ")" : "}")) FAIL(g, h->line, "expected '%s' in the launch '%s'", call ? ")" : "}", h->text);
}

static void read_launch(gen *g, const hdr *h) {
  const char *p = h->text;
  if (!h_lit(&p, "<<<")) FAIL(g, h->line, "expected '<<<' opening the launch (<<<grid, block>>>), found '%s'", h->text);
  h_dim(g, &p, h, g->grid, "the grid (blocks)");
  if (!h_lit(&p, ",")) FAIL(g, h->line, "expected ',' between the grid and the block in '%s'", h->text);
  h_dim(g, &p, h, g->block, "the block (threads)");
  g->shmem = -1;
  if (h_lit(&p, ",")) {   /* the dynamic shared memory's size in bytes, then a stream (ignored) */
    int64_t bytes = h_int(g, &p, h, "the shared memory size");
    if (bytes < 0 || bytes > (1 << 20)) FAIL(g, h->line, "the shared memory size is a number of bytes, from 0 to 1048576");
    g->shmem = (long)bytes;
    if (h_lit(&p, ",")) (void)h_int(g, &p, h, "the stream");
  }
  if (!h_lit(&p, ">>>")) FAIL(g, h->line, "expected '>>>' closing the launch '%s'", h->text);
  g->cooperative = h_lit(&p, "cooperative");
  g->cluster[0] = g->cluster[1] = g->cluster[2] = 1;
  if (h_lit(&p, "cluster")) {
    if (!h_lit(&p, "(")) FAIL(g, h->line, "expected '(' after cluster in '%s'", h->text);
    for (int k = 0; k < 3; k++) {
      int64_t v = h_int(g, &p, h, "a cluster dimension");
      if (v < 1 || v > 16) FAIL(g, h->line, "a cluster dimension: from 1 to 16");
      g->cluster[k] = (int)v;
      if (!h_lit(&p, ",")) break;
    }
    if (!h_lit(&p, ")")) FAIL(g, h->line, "expected ')' closing the cluster in '%s'", h->text);
    for (int k = 0; k < 3; k++)
      if (g->grid[k] % g->cluster[k])
        FAIL(g, h->line, "the grid (%d, %d, %d) is no multiple of the cluster (%d, %d, %d)", g->grid[0], g->grid[1],
             g->grid[2], g->cluster[0], g->cluster[1], g->cluster[2]);
  }
  p = skip_space(p);
  if (*p) FAIL(g, h->line, "unexpected text after the launch: %s", p);
  g->nblocks = g->grid[0] * g->grid[1] * g->grid[2];
  g->nthreads = g->block[0] * g->block[1] * g->block[2];
  if ((long)g->nblocks * g->nthreads > MAX_THREADS)
    FAIL(g, h->line, "a launch of %d threads: at most %d are checked", g->nblocks * g->nthreads, MAX_THREADS);
}

static void read_inputs(gen *g, const hdr *h) {
  const char *p = h->text;
  for (;;) {
    p = skip_space(p);
    while (*p == ';') p = skip_space(p + 1);
    if (!*p) return;
    if (!(isalpha((unsigned char)*p) || *p == '_')) FAIL(g, h->line, "expected a name in @Input, found '%s'", p);
    const char *s = p;
    while (isalnum((unsigned char)*p) || *p == '_') p++;
    input in = {0};
    in.name = lc_arena_strndup(g->a, s, (size_t)(p - s));
    in.line = h->line;
    for (size_t k = 0; k < g->inputs.n; k++)
      if (!strcmp(g->inputs.v[k].name, in.name)) FAIL(g, h->line, "%s has two @Input values", in.name);
    if (!h_lit(&p, "=")) FAIL(g, h->line, "expected '=' after %s", in.name);
    in.braces = h_lit(&p, "{");
    lc_vec_push(&g->inputs, in);
    input *ip = &g->inputs.v[g->inputs.n - 1];
    for (;;) {
      lc_vec_push(&ip->values, h_int(g, &p, h, "an integer"));
      if (ip->values.n > MAX_ARRAY) FAIL(g, h->line, "more than %d values for %s", MAX_ARRAY, in.name);
      if (!in.braces || !h_lit(&p, ",")) break;
    }
    if (in.braces && !h_lit(&p, "}")) FAIL(g, h->line, "expected '}' closing the values of %s", in.name);
    p = skip_space(p);
    if (*p && *p != ';' && *p != ',') FAIL(g, h->line, "expected ';' between @Input entries, found '%s'", p);
    if (*p) p++;
  }
}

/* The header comments of the file: `// @Launch: ...` and the others. */
static void read_header(gen *g) {
  const char *t = g->src->text;
  int line = 1;
  for (const char *p = t; p && *p;) {
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    const char *c = p;
    while (c < p + n && (*c == ' ' || *c == '\t')) c++;
    if (c + 2 < p + n && c[0] == '/' && c[1] == '/') {
      c = skip_space(c + 2);
      static const char *const tags[] = {"@Launch:", "@Input:", "@Output:", "@Filter:"};
      for (size_t k = 0; k < LC_ARRAY_LEN(tags); k++) {
        size_t tl = strlen(tags[k]);
        if ((size_t)(p + n - c) < tl || strncmp(c, tags[k], tl)) continue;
        const char *v = skip_space(c + tl);
        const char *ve = p + n;
        while (ve > v && isspace((unsigned char)ve[-1])) ve--;
        hdr h = {lc_arena_strndup(g->a, v, (size_t)(ve - v)), line, (int)(v - p) + 1};
        if (k == 0) g->launch = h;
        else if (k == 1) { if (!g->o->input) read_inputs(g, &h); }
        else if (k == 2) g->output = h;
        else g->filter = h;
      }
    }
    line++;
    p = eol ? eol + 1 : NULL;
  }
  const kp_options *k = g->o;
  if (k->launch) g->launch = (hdr){k->launch, 0, 0};
  if (k->input) read_inputs(g, &(hdr){k->input, 0, 0});
  if (k->output) g->output = (hdr){k->output, 0, 0};
  if (!g->launch.text) FAIL(g, 0, "no launch: write `// @Launch: <<<blocks, threads>>>` or give --launch");
  read_launch(g, &g->launch);
}

/* ---- the kernel's parameters, from the source ------------------------------------------------ */

static bool word_at(const char *s, const char *p, const char *w) {
  size_t n = strlen(w);
  return !strncmp(p, w, n) && (p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
         !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

static int elem_of(const char *type, size_t n) {
  char *t = lc_xstrndup(type, n);
  int e = 4;
  if (strstr(t, "long long") || strstr(t, "int64") || strstr(t, "size_t") || strstr(t, "double") ||
      strstr(t, "unsigned long") || strstr(t, "uint64") || strstr(t, "long int") || strstr(t, "ptrdiff"))
    e = 8;
  /* libcu++'s latch and a counting_semaphore (but one of least max value 1, the
   * binary one, which counts in an int) count in a ptrdiff_t */
  else if (strstr(t, "latch") || (strstr(t, "counting_semaphore") && !strstr(t, ", 1>") && !strstr(t, ",1>")))
    e = 8;
  else if (strstr(t, "short") || strstr(t, "int16")) e = 2;
  else if (strstr(t, "char") || strstr(t, "int8") || strstr(t, "bool")) e = 1;
  free(t);
  return e;
}

/* Finds `__global__ ... NAME(params)` in the source (comments are not read: a kernel
 * in a comment would be taken; the compiler's PTX names the kernel that counts). */
static void read_params(gen *g) {
  const char *s = g->src->text;
  const char *want = g->o->kernel;
  const char *found = NULL, *fname = NULL;
  size_t fn = 0;
  for (const char *p = strstr(s, "__global__"); p; p = strstr(p + 1, "__global__")) {
    if (!word_at(s, p, "__global__")) continue;
    /* the name: the first word followed by '(' that is no attribute */
    const char *q = p + 10;
    const char *name = NULL;
    size_t nn = 0;
    while (*q && *q != ';' && *q != '{') {
      if (isalpha((unsigned char)*q) || *q == '_') {
        const char *w = q;
        while (isalnum((unsigned char)*q) || *q == '_') q++;
        const char *r = q;
        while (isspace((unsigned char)*r)) r++;
        if (*r == '(') {
          if (!strncmp(w, "__launch_bounds__", 17) || !strncmp(w, "__cluster_dims__", 16) ||
              !strncmp(w, "__maxnreg__", 11) || !strncmp(w, "__attribute__", 13)) {
            int d = 0;
            do {
              if (*r == '(') d++;
              if (*r == ')') d--;
              r++;
            } while (*r && d > 0);
            q = r;
            continue;
          }
          name = w, nn = (size_t)(q - w);
          q = r;
          break;
        }
      } else {
        q++;
      }
    }
    if (!name) continue;
    if (want && (strlen(want) != nn || strncmp(want, name, nn))) continue;
    if (found && !want)
      FAIL(g, 0, "the file has several kernels (%.*s, %.*s): pick one with --kernel NAME", (int)fn, fname, (int)nn, name);
    if (!found) found = q, fname = name, fn = nn;
  }
  if (!found) {
    if (want) FAIL(g, 0, "no __global__ function named %s", want);
    FAIL(g, 0, "no __global__ function: a kernel file has one (docs/kernels.md)");
  }
  g->kname = lc_arena_strndup(g->a, fname, fn);
  g->kline = 1;
  for (const char *c = s; c < fname; c++) g->kline += *c == '\n';
  /* the parameters: top-level commas inside the parentheses */
  const char *p = found + 1;
  int depth = 0;
  const char *part = p;
  for (; *p; p++) {
    if (*p == '(' || *p == '<' || *p == '[') depth++;
    else if ((*p == ')' || *p == '>' || *p == ']') && depth > 0) depth--;
    else if ((*p == ',' || *p == ')') && depth == 0) {
      const char *e = p;
      const char *eq = memchr(part, '=', (size_t)(e - part));
      if (eq) e = eq;
      while (e > part && isspace((unsigned char)e[-1])) e--;
      if (e > part && e[-1] == ']') {   /* int x[] */
        while (e > part && e[-1] != '[') e--;
        if (e > part) e--;
        while (e > part && isspace((unsigned char)e[-1])) e--;
      }
      const char *b = e;
      while (b > part && (isalnum((unsigned char)b[-1]) || b[-1] == '_')) b--;
      if (b < e && !(e - b == 4 && !strncmp(b, "void", 4))) {
        param pr = {lc_arena_strndup(g->a, b, (size_t)(e - b)), false, 4, false};
        pr.pointer = memchr(part, '*', (size_t)(p - part)) || memchr(part, '[', (size_t)(p - part));
        pr.elem = elem_of(part, (size_t)(b - part));
        char *ty = lc_xstrndup(part, (size_t)(b - part));
        pr.sgn = pr.elem < 4 && !strstr(ty, "unsigned") && !strstr(ty, "uint") && !strstr(ty, "bool");
        free(ty);
        lc_vec_push(&g->params, pr);
      }
      part = p + 1;
      if (*p == ')') break;
    }
  }
}

static input *find_input(gen *g, const char *name) {
  for (size_t k = 0; k < g->inputs.n; k++)
    if (!strcmp(g->inputs.v[k].name, name)) return &g->inputs.v[k];
  return NULL;
}

/* ---- arrays ---------------------------------------------------------------------------------- */

static int add_mem(gen *g, mem m) {
  if (m.sym >= 0) m.bytes = g->m.syms.v[m.sym].size;
  m.used = lc_arena_alloc(g->a, (size_t)(m.n > 0 ? m.n : 1) * sizeof *m.used);
  lc_vec_push(&g->mems, m);
  return (int)g->mems.n - 1;
}

static void make_mems(gen *g) {
  if (g->params.n != g->m.params.n)
    FAIL(g, g->kline, "kernel %s has %zu parameters in the source and %zu in the PTX (%s)", g->kname, g->params.n,
         g->m.params.n, g->m.entry);
  for (size_t k = 0; k < g->params.n; k++) {
    param *p = &g->params.v[k];
    input *in = find_input(g, p->name);
    if (!in) FAIL(g, g->kline, "parameter '%s' has no value: give it in @Input (// @Input: %s = {0})", p->name, p->name);
    in->used = true;
    if (!p->pointer) {
      if (in->values.n != 1 || in->braces) FAIL(g, in->line, "%s is a scalar parameter: give one value (%s = 1)", in->name, in->name);
      continue;
    }
    add_mem(g, (mem){in->name, p->elem, (long)in->values.n, in->values.v, in->values.n, false, -1, 0, NULL, 0,
                     p->sgn});
  }
  for (size_t s = 0; s < g->m.syms.n; s++) {
    kp_sym *y = &g->m.syms.v[s];
    if (y->shared) continue;
    input *in = find_input(g, y->shown);
    if (in) in->used = true;
    long n = y->elem ? y->size / y->elem : 0;
    if (in && !y->elem) FAIL(g, in->line, "%s is an array of bytes in the PTX: its @Input values are not read", in->name);
    if (in && (long)in->values.n > n) FAIL(g, in->line, "%s has %ld elements, given %zu values", in->name, n, in->values.n);
    add_mem(g, (mem){y->shown, y->elem, n, in ? in->values.v : y->init.v, in ? in->values.n : y->init.n, false,
                     (int)s, 0, NULL, 0, false});
  }
  /* extern __shared__ arrays: the launch's dynamic shared memory, every one at its start */
  int ndyn = 0;
  for (size_t s = 0; s < g->m.syms.n; s++) {
    kp_sym *y = &g->m.syms.v[s];
    if (!y->dynamic) continue;
    if (++ndyn > 1)
      FAIL(g, g->kline, "several extern __shared__ arrays (%s among them): they share the dynamic shared memory, "
           "which is not modelled", y->shown);
    if (g->shmem <= 0)
      FAIL(g, g->launch.line, "extern __shared__ %s is sized by the launch's dynamic shared memory: give it as "
           "the launch's third parameter, in bytes (<<<grid, block, bytes>>>)", y->shown);
    y->size = g->shmem;
  }
  for (int b = 0; b < g->nblocks; b++)
    for (size_t s = 0; s < g->m.syms.n; s++) {
      kp_sym *y = &g->m.syms.v[s];
      if (!y->shared) continue;
      char name[256];
      snprintf(name, sizeof name, "%s_b%d", y->shown, b);
      add_mem(g, (mem){lc_arena_strdup(g->a, name), y->elem, y->elem ? y->size / y->elem : 0, NULL, 0, true, (int)s, b, NULL, 0,
                       false});
    }
  for (size_t k = 0; k < g->inputs.n; k++)
    if (!g->inputs.v[k].used)
      FAIL(g, g->inputs.v[k].line, "@Input names %s, which is no parameter of kernel %s nor a __device__ variable",
           g->inputs.v[k].name, g->kname);
}

/* ---- abstract values --------------------------------------------------------------------------- */

typedef enum { V_U, V_C, V_A, V_D, V_P, V_PD, V_X } vkind;

/* V_C: v; V_A: an element's address, sym (a parameter's array: -1 - param index; a
 * module symbol: its index), cta (a shared one's CTA; -1 its own), v the byte offset;
 * V_D: in the test's register of its own; V_P: v is 0 or 1; V_PD: the test's branch
 * `b<cmp> a, b` decides it, a and b constants or registers (ra, rb >= 0). */
typedef struct val {
  int32_t k;
  int32_t sym, cta;
  int32_t cmp;
  int32_t ra, rb;
  int32_t set;     /* V_D: the values it may hold, when few and known (gen.sets[set - 1]); 0: any */
  int32_t pa, pb;  /* V_PD: the registers compared (index + 1; 0: a constant), */
  int32_t at;      /* and the setp's place in the code + 1, for the branch to narrow their sets */
  int64_t v, vb;
} val;


enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
static const char *const bnames[] = {"beq", "bne", "blt", "ble", "bgt", "bge"};
static int cmp_not(int c) {
  static const int n[] = {C_NE, C_EQ, C_GE, C_GT, C_LE, C_LT};
  return n[c];
}

typedef struct node {
  size_t pc;
  val *st;
  int id;
  bool done;
  bool at_ins;     /* starts at the instruction at pc (split), not after the label there */
} node;

typedef struct row {
  const char *text;
  int line;
} row;

typedef struct live live;

typedef struct thr {
  gen *g;
  const live *L;
  int k, b, t;              /* global linear index, block, thread in block */
  int tid[3], ctaid[3], clid[3], cctaid[3];
  int cta_rank, ncluster_ctas, cluster_lin;
  val *st;                  /* the current state */
  LC_VEC(node) nodes;
  LC_VEC(size_t) work;
  LC_VEC(row) rows;
  int nlabels;
  int grid_syncs;           /* arrivals at the grid's barrier word */
  bool loc_sgn;             /* the array location() last named keeps signed narrow values */
  const kp_ins *in;         /* the instruction evaluated */
  bool *spin;               /* per instruction: a label a branch on memory goes back to */
} thr;

static size_t st_bytes(gen *g) { return (g->nregs + 1) * sizeof(val); }

static LC_NORETURN void ifail(thr *T, const char *fmt, ...) LC_PRINTF(2, 3);
static void ifail(thr *T, const char *fmt, ...) {
  char msg[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const kp_ins *in = T->in;
  FAIL(T->g, in ? in->src_line : 0, "%s line %d (source line %d, P%d: block %d, thread %d): %s", T->g->e->ptx_name,
       in ? in->ptx_line : 0, in ? in->src_line : 0, T->k, T->b, T->t, msg);
}

static void emit(thr *T, int line, const char *fmt, ...) LC_PRINTF(3, 4);
static void emit(thr *T, int line, const char *fmt, ...) {
  if (T->rows.n >= MAX_ROWS) ifail(T, "thread P%d has more than %d instructions once its loops over constants are "
                                      "unrolled", T->k, MAX_ROWS);
  lc_buf b;
  lc_buf_init(&b);
  va_list ap;
  va_start(ap, fmt);
  lc_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  lc_vec_push(&T->rows, ((row){lc_arena_strdup(T->g->a, b.s), line}));
  lc_buf_fini(&b);
}

static int line_here(thr *T) { return T->in && T->in->src_line > 0 ? T->in->src_line : T->g->kline; }

/* register numbers: a PTX register i is ri; a predicate's operands r(n + 2i), r(n + 2i + 1); asserts after */
static int rnum(gen *g, size_t i) {
  (void)g;
  return (int)i;
}
static int slot(gen *g, size_t i, int which) { return (int)(g->nregs + 2 * i + (size_t)which); }
static int assert_reg(gen *g, size_t a) { return (int)(3 * g->nregs + a); }
static int temp_reg(gen *g) { return (int)(3 * g->nregs + g->asserts.n); }

static bool is_special(const char *s) { return s[0] == '%' && !isdigit((unsigned char)s[1]) &&
                                               (strchr(s, '.') || !strncmp(s, "%laneid", 7) ||
                                                !strncmp(s, "%warpid", 7) || !strncmp(s, "%cluster_", 9) ||
                                                !strncmp(s, "%is_explicit", 12) || !strncmp(s, "%clock", 6) ||
                                                !strncmp(s, "%globaltimer", 12) || !strncmp(s, "%nwarpid", 8) ||
                                                !strcmp(s, "%envreg1")); }

static int dim_of(const char *s) {
  const char *d = strrchr(s, '.');
  if (!d) return -1;
  return d[1] == 'x' ? 0 : d[1] == 'y' ? 1 : d[1] == 'z' ? 2 : -1;
}

static bool special_value(thr *T, const char *s, int64_t *v) {
  gen *g = T->g;
  int d = dim_of(s);
  size_t n = strcspn(s, ".");
#define IS(w) (n == strlen(w) && !strncmp(s, w, n))
  if (d >= 0 && IS("%tid")) *v = T->tid[d];
  else if (d >= 0 && IS("%ntid")) *v = g->block[d];
  else if (d >= 0 && IS("%ctaid")) *v = T->ctaid[d];
  else if (d >= 0 && IS("%nctaid")) *v = g->grid[d];
  else if (d >= 0 && IS("%clusterid")) *v = T->clid[d];
  else if (d >= 0 && IS("%nclusterid")) *v = g->grid[d] / g->cluster[d];
  else if (d >= 0 && IS("%cluster_ctaid")) *v = T->cctaid[d];
  else if (d >= 0 && IS("%cluster_nctaid")) *v = g->cluster[d];
  else if (IS("%cluster_ctarank")) *v = T->cta_rank;
  else if (IS("%cluster_nctarank")) *v = T->ncluster_ctas;
  else if (IS("%is_explicit_cluster")) *v = g->cluster[0] * g->cluster[1] * g->cluster[2] > 1;
  else if (IS("%laneid")) *v = T->t % 32;
  else if (IS("%warpid")) *v = T->t / 32;
  else if (IS("%nwarpid")) *v = (g->nthreads + 31) / 32;
  /* The clocks: a test's executions have no time, so they read 0 and never
   * advance.  libcu++ reads %globaltimer only to pick how long to back off
   * between polls (cuda::barrier's wait, a semaphore's acquire: nanosleep
   * or poll again), which changes no access; a wait with a time limit
   * (try_acquire_for) is followed as one whose limit never passes. */
  else if (IS("%globaltimer") || IS("%globaltimer_lo") || IS("%globaltimer_hi") || IS("%clock") || IS("%clock64") ||
           IS("%clock_hi"))
    *v = 0;
  else if (IS("%envreg1")) *v = 0;   /* the grid workspace's address's high half (grid_workspace()) */
  else return false;
#undef IS
  return true;
}

static size_t reg_index(thr *T, const char *s, size_t n) {
  size_t i = lc_names_get(&T->g->regs, s, n);
  if (i == LC_NAMES_NONE) ifail(T, "'%.*s' is no register this evaluator knows", (int)n, s);
  return i;
}

static int find_sym(gen *g, const char *s, size_t n) {
  for (size_t i = 0; i < g->m.syms.n; i++)
    if (strlen(g->m.syms.v[i].name) == n && !strncmp(g->m.syms.v[i].name, s, n)) return (int)i;
  return -1;
}

static int find_param(gen *g, const char *s, size_t n) {
  for (size_t i = 0; i < g->m.params.n; i++)
    if (strlen(g->m.params.v[i]) == n && !strncmp(g->m.params.v[i], s, n)) return (int)i;
  return -1;
}

static bool parse_int(const char *s, int64_t *v) {
  const char *p = s;
  bool neg = *p == '-';
  if (neg) p++;
  if (!isdigit((unsigned char)*p)) return false;
  char *e;
  uint64_t u;
  if ((p[0] == '0') && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D'))
    u = strtoull(p + 2, &e, 16);   /* a float's bits */
  else
    u = strtoull(p, &e, 0);
  if (*e == 'U' || *e == 'u') e++;
  if (*e) return false;
  *v = neg ? -(int64_t)u : (int64_t)u;
  return true;
}

/* An operand's value: a constant, a register, a special register, a variable's address. */
static val eval(thr *T, const char *s) {
  int64_t v;
  if (parse_int(s, &v)) return (val){.k = V_C, .v = v};
  if (is_special(s)) {
    if (!special_value(T, s, &v)) ifail(T, "the special register %s is not modelled", s);
    return (val){.k = V_C, .v = v};
  }
  size_t n = strlen(s);
  int y = find_sym(T->g, s, n);
  if (y >= 0) return (val){.k = V_A, .sym = y, .cta = -1, .v = 0};
  size_t i = lc_names_get(&T->g->regs, s, n);
  if (i == LC_NAMES_NONE) ifail(T, "operand '%s' is no register, constant or variable", s);
  return T->st[i];
}

static size_t dst(thr *T, const char *s) {
  if (!strcmp(s, "_")) return T->g->nregs;   /* the sink: a register nobody reads */
  return reg_index(T, s, strlen(s));
}

static void set(thr *T, size_t i, val v) { T->st[i] = v; }

/* How an operand is written in the test: a constant, or the register holding it. */
static const char *opnd(thr *T, const char *s, char *buf, size_t n) {
  val v = eval(T, s);
  if (v.k == V_C || v.k == V_P) snprintf(buf, n, "%lld", (long long)v.v);
  else if (v.k == V_D) snprintf(buf, n, "r%d", rnum(T->g, lc_names_get(&T->g->regs, s, strlen(s))));
  else if (v.k == V_A) ifail(T, "an address (%s) used as a value stored or computed with: not followed", s);
  else if (v.k == V_U) snprintf(buf, n, "0");   /* never written: unspecified, taken as 0 */
  else ifail(T, "'%s' holds a value that differs between iterations of a loop and cannot be followed", s);
  return buf;
}

/* ---- the operation's parts ---------------------------------------------------------------------- */

static bool has_part(const char *op, const char *p) {
  size_t n = strlen(p);
  for (const char *q = strchr(op, '.'); q; q = strchr(q + 1, '.'))
    if (!strncmp(q + 1, p, n) && (q[1 + n] == '.' || !q[1 + n])) return true;
  return false;
}

static bool head_is(const char *op, const char *h) {
  size_t n = strlen(h);
  return !strncmp(op, h, n) && (op[n] == '.' || !op[n]);
}

/* bits of the operation's type (.u32 -> 32), signedness; 64 when none */
static int type_bits(const char *op, bool *sgn) {
  static const struct { const char *t; int bits; bool s; } ty[] = {
    {"u8", 8, false}, {"s8", 8, true}, {"b8", 8, false}, {"u16", 16, false}, {"s16", 16, true}, {"b16", 16, false},
    {"u32", 32, false}, {"s32", 32, true}, {"b32", 32, false}, {"u64", 64, false}, {"s64", 64, true},
    {"b64", 64, false}, {"pred", 1, false}};
  int bits = 64;
  *sgn = false;
  for (size_t i = 0; i < LC_ARRAY_LEN(ty); i++)
    if (has_part(op, ty[i].t)) bits = ty[i].bits, *sgn = ty[i].s;   /* the last: cvt.u64.u32's source */
  return bits;
}

static int64_t norm(int64_t x, int bits, bool sgn) {
  if (bits >= 64) return x;
  uint64_t m = (1ull << bits) - 1, u = (uint64_t)x & m;
  if (sgn && (u >> (bits - 1))) return (int64_t)(u | ~m);
  return (int64_t)u;
}

static bool is_float_op(const char *op) {
  return has_part(op, "f32") || has_part(op, "f64") || has_part(op, "f16") || has_part(op, "rn") ||
         has_part(op, "rz") || has_part(op, "rm") || has_part(op, "rp") || has_part(op, "ftz");
}

/* ---- memory operands ------------------------------------------------------------------------------ */

/* `[%rd4+8]`, `[x]`: the array element addressed, as the test names it */
static const char *location(thr *T, const char *s, int size, bool *shared, int *cta_out) {
  gen *g = T->g;
  const char *p = s;
  if (*p == '[') p++;
  size_t n = strcspn(p, "+-]");
  int64_t off = 0;
  if (p[n] == '+' || p[n] == '-') {
    const char *q = p + n + 1;
    while (*q == ' ') q++;
    char num[64];
    size_t m = strcspn(q, "]");
    snprintf(num, sizeof num, "%.*s", (int)(m < 63 ? m : 63), q);
    int64_t o;
    if (!parse_int(num, &o)) ifail(T, "the address %s has an offset that is not a constant", s);
    off = p[n] == '-' ? -o : o;
  }
  char base[256];
  while (n > 0 && p[n - 1] == ' ') n--;
  snprintf(base, sizeof base, "%.*s", (int)n, p);
  val a = eval(T, base);
  if (a.k != V_A) {
    ifail(T, "the address %s cannot be followed to an element of an array: %s", s,
          a.k == V_D ? "it depends on a value read from memory" : a.k == V_C ? "it is a number, not an address "
          "derived from a parameter or a variable" : a.k == V_X ? "it differs between iterations of a loop"
          : "it is not known here");
  }
  off += a.v;
  int cta = a.cta >= 0 ? a.cta : T->b;
  for (size_t i = 0; i < g->mems.n; i++) {
    mem *m = &g->mems.v[i];
    bool match = a.sym < 0 ? (m->sym < 0 && !strcmp(m->name, g->params.v[-1 - a.sym].name))
                           : m->sym == a.sym && (!m->shared || m->cta == cta);
    if (!match) continue;
    if (m->elem == 0) {   /* bytes: the first access gives the element size, to every CTA's copy */
      int el = size > 0 ? size : 4;
      if (m->bytes % el) ifail(T, "an access of %d bytes to %s, of %ld bytes: not modelled", el, m->name, m->bytes);
      for (size_t k = 0; k < g->mems.n; k++)
        if (g->mems.v[k].sym == m->sym && g->mems.v[k].elem == 0) {
          mem *o = &g->mems.v[k];
          o->elem = el;
          o->n = o->bytes / el;
          o->used = lc_arena_alloc(g->a, (size_t)(o->n > 0 ? o->n : 1) * sizeof *o->used);
          if (o->ninit && !o->shared && !find_input(g, o->name)) {   /* the bytes as elements, little-endian */
            int64_t *v = lc_arena_alloc(g->a, (size_t)o->n * sizeof *v + 1);
            for (long k2 = 0; k2 < o->n; k2++) {
              uint64_t x = 0;
              for (int b = el - 1; b >= 0; b--) {
                size_t i2 = (size_t)k2 * (size_t)el + (size_t)b;
                x = (x << 8) | (i2 < o->ninit ? ((uint64_t)o->init[i2] & 0xff) : 0);
              }
              v[k2] = el < 8 ? norm((int64_t)x, el * 8, true) : (int64_t)x;
            }
            o->init = v;
            o->ninit = (size_t)o->n;
          }
        }
    }
    if (size != m->elem && size > 0)
      ifail(T, "an access of %d bytes to %s, an array of %d-byte elements: not modelled", size, m->name, m->elem);
    if (m->n == 0 && m->elem == 0) ifail(T, "%s, an array of no size, is not modelled", m->name);
    if (off < 0 || off % m->elem || off / m->elem >= m->n)
      ifail(T, "the address %s is byte %lld of %s, which has %ld element%s of %d bytes: out of bounds or "
            "misaligned", s, (long long)off, m->name, m->n, m->n == 1 ? "" : "s", m->elem);
    long e = (long)(off / m->elem);
    m->used[e] = true;
    T->loc_sgn = m->sgn;
    *shared = m->shared;
    if (cta_out) *cta_out = cta;
    char buf[300];
    if (e == 0) snprintf(buf, sizeof buf, "%s", m->name);
    else snprintf(buf, sizeof buf, "%s[%ld]", m->name, e);
    if (m->shared && cta != T->b) {
      /* another CTA's copy (distributed shared memory): its address in the cluster, by mapa */
      int cx = cta % g->grid[0], cy = cta / g->grid[0] % g->grid[1], cz = cta / (g->grid[0] * g->grid[1]);
      int rank = cx % g->cluster[0] + g->cluster[0] * (cy % g->cluster[1] + g->cluster[1] * (cz % g->cluster[2]));
      emit(T, line_here(T), "mapa.shared::cluster.u32 r%d, %s, %d", temp_reg(g) + 1, buf, rank);
      snprintf(buf, sizeof buf, "r%d", temp_reg(g) + 1);
      if (cta_out) *cta_out = -1 - cta;
    }
    return lc_arena_strdup(g->a, buf);
  }
  ifail(T, "the address %s is in no array of the test", s);
}

/* the operation without the parts the test has no use for (cache hints, .nc, vector
 * counts refused), with the state space made explicit for a generic access */
static const char *mem_op(thr *T, const char *op, bool shared, bool remote) {
  lc_buf b;
  lc_buf_init(&b);
  bool space = has_part(op, "global") || has_part(op, "shared") || has_part(op, "shared::cta") ||
               has_part(op, "shared::cluster");
  const char *p = op;
  size_t n = strcspn(p, ".");
  lc_buf_putn(&b, p, n);
  p += n;
  while (*p == '.') {
    p++;
    n = strcspn(p, ".");
    if ((n == 2 && !strncmp(p, "nc", 2)) || (memchr(p, ':', n) && strncmp(p, "shared::", 8)) ||
        (n >= 2 && p[0] == 'L' && isdigit((unsigned char)p[1])) || (n == 6 && !strncmp(p, "unified", 6))) {
      p += n;
      continue;
    }
    if ((n == 2 && (!strncmp(p, "v2", 2) || !strncmp(p, "v4", 2))) || (n == 2 && !strncmp(p, "v8", 2)))
      ifail(T, "a vector access (%s) is not modelled", op);
    /* a byte's or a half-word's width: the test's location is the element, the
     * value made that wide by access() (the dialect's types are 32 and 64 bits) */
    if ((n == 2 && p[1] == '8' && strchr("usb", p[0])) || (n == 3 && !strncmp(p + 1, "16", 2) && strchr("usb", p[0]))) {
      p += n;
      continue;
    }
    lc_buf_putc(&b, '.');
    lc_buf_putn(&b, p, n);
    p += n;
  }
  if (!space && (head_is(op, "ld") || head_is(op, "st") || head_is(op, "atom") || head_is(op, "red")))
    lc_buf_puts(&b, remote ? ".shared::cluster" : shared ? ".shared" : ".global");
  const char *r = lc_arena_strdup(T->g->a, b.s);
  lc_buf_fini(&b);
  return r;
}

static int access_size(const char *op) {
  bool s;
  int bits = type_bits(op, &s);
  return bits >= 8 ? bits / 8 : 0;
}

/* ---- states and blocks -------------------------------------------------------------------------------- */

static bool val_eq(const val *a, const val *b) { return !memcmp(a, b, sizeof *a); }

static val join(val a, val b) {
  if (val_eq(&a, &b)) return a;
  if (a.k == V_U) return b;
  if (b.k == V_U) return a;
  if ((a.k == V_C || a.k == V_D) && (b.k == V_C || b.k == V_D)) return (val){.k = V_D};
  return (val){.k = V_X};
}

/* movs that make the registers of from hold what to says they hold */
static void materialise(thr *T, const val *from, const val *to) {
  gen *g = T->g;
  for (size_t i = 0; i < g->nregs; i++)
    if (to[i].k == V_D && from[i].k == V_C) emit(T, line_here(T), "mov r%d, %lld", rnum(g, i), (long long)from[i].v);
}

static bool is_live(const live *L, size_t pc, size_t r);

static int node_for(thr *T, size_t pc, const val *st0, bool *fresh, val **need) {
  gen *g = T->g;
  size_t bytes = st_bytes(g);
  /* the state with what is dead at pc forgotten */
  val *st = lc_arena_alloc(g->a, bytes);
  for (size_t r = 0; r < g->nregs; r++)
    if (is_live(T->L, pc, r)) st[r] = st0[r];
  int count = 0, last = -1;
  *need = NULL;
  for (size_t i = 0; i < T->nodes.n; i++)
    if (T->nodes.v[i].pc == pc) {
      if (!memcmp(T->nodes.v[i].st, st, bytes)) {
        *fresh = false;
        return (int)i;
      }
      count++;
      last = (int)i;
    }
  val *w = lc_arena_alloc(g->a, bytes);
  memcpy(w, st, bytes);
  if (count >= (g->spin_widen && T->spin[pc] ? WIDEN_SPIN : WIDEN) && last >= 0) {
    for (size_t r = 0; r < g->nregs; r++) w[r] = join(w[r], T->nodes.v[last].st[r]);
    *need = w;
    for (size_t i = 0; i < T->nodes.n; i++)
      if (T->nodes.v[i].pc == pc && !memcmp(T->nodes.v[i].st, w, bytes)) {
        *fresh = false;
        return (int)i;
      }
  }
  lc_vec_push(&T->nodes, ((node){pc, w, (int)T->nodes.n, false, false}));
  *fresh = true;
  return (int)T->nodes.n - 1;
}

static size_t label_pc(thr *T, const char *name) {
  const kp_code *c = &T->g->m.code;
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].label && !strcmp(c->v[i].label, name)) return i;
  ifail(T, "a branch to %s, a label the kernel does not have", name);
}

/* ---- one instruction ------------------------------------------------------------------------------ */

static int cmp_of(thr *T, const char *op) {
  static const struct { const char *n; int c; } cs[] = {
    {"eq", C_EQ}, {"ne", C_NE}, {"lt", C_LT}, {"le", C_LE}, {"gt", C_GT}, {"ge", C_GE},
    {"lo", C_LT}, {"ls", C_LE}, {"hi", C_GT}, {"hs", C_GE}};
  for (size_t i = 0; i < LC_ARRAY_LEN(cs); i++)
    if (has_part(op, cs[i].n)) return (int)i;
  ifail(T, "the comparison of %s is not modelled", op);
}

static bool cmp_eval(int ci, int64_t a, int64_t b, bool uns) {
  int c = ci;
  bool u = uns || ci >= 6;
  if (ci >= 6) c = ci - 6 + C_LT;
  if (u) {
    uint64_t x = (uint64_t)a, y = (uint64_t)b;
    switch (c) {
    case C_EQ: return x == y; case C_NE: return x != y; case C_LT: return x < y;
    case C_LE: return x <= y; case C_GT: return x > y; default: return x >= y;
    }
  }
  switch (c) {
  case C_EQ: return a == b; case C_NE: return a != b; case C_LT: return a < b;
  case C_LE: return a <= b; case C_GT: return a > b; default: return a >= b;
  }
}

static int cmp_base(int ci) { return ci >= 6 ? ci - 6 + C_LT : ci; }

static void goto_node(thr *T, size_t pc, const char *cond_fmt_pred, const val *p, bool neg, bool at_ins);
static bool writes_first(const char *op);

/* r<rd> = the value src (a register or a constant) at the width bits, signed or not,
 * as PTX keeps a value of that type: the test's registers are 64-bit, its add.s32/.u32
 * wrap to 32 bits, narrower widths are masked (and sign-extended by xor and sub, without
 * a branch, so that the test has no more paths) */
static void emit_width(thr *T, int line, int rd, const char *src, int bits, bool sgn) {
  if (bits == 32) {
    emit(T, line, "add%s r%d, %s, 0", sgn ? ".s32" : ".u32", rd, src);
  } else if (bits < 32) {
    long long half = 1ll << (bits - 1);
    emit(T, line, "and r%d, %s, %lld", rd, src, 2 * half - 1);
    if (sgn) {
      emit(T, line, "xor r%d, r%d, %lld", rd, rd, half);
      emit(T, line, "sub r%d, r%d, %lld", rd, rd, half);
    }
  } else {
    emit(T, line, "mov r%d, %s", rd, src);
  }
}

/* r<rd> brought to a width in place */
static void narrow(thr *T, int line, int rd, int bits, bool sgn) {
  char r[24];
  snprintf(r, sizeof r, "r%d", rd);
  if (bits < 64) emit_width(T, line, rd, r, bits, sgn);
}

/* ---- finite sets of values ------------------------------------------------------------------- */

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* the id of the set of the n values v (sorted, made unique here); 0 when more than MAX_SET */
static int32_t set_id(gen *g, int64_t *v, int n) {
  if (n < 1 || n > MAX_SET) return 0;
  qsort(v, (size_t)n, sizeof *v, cmp64);
  int m = 0;
  for (int i = 0; i < n; i++)
    if (!m || v[m - 1] != v[i]) v[m++] = v[i];
  for (size_t i = 0; i < g->sets.n; i++)
    if (g->sets.v[i].n == m && !memcmp(g->sets.v[i].v, v, (size_t)m * sizeof *v)) return (int32_t)i + 1;
  vset w = {m, {0}};
  memcpy(w.v, v, (size_t)m * sizeof *v);
  lc_vec_push(&g->sets, w);
  return (int32_t)g->sets.n;
}

/* a register's value with the values vs[0..n) it may hold: a constant when one */
static val of_set(gen *g, int64_t *vs, int n) {
  if (n == 1) return (val){.k = V_C, .v = vs[0]};
  return (val){.k = V_D, .set = set_id(g, vs, n)};
}

/* ---- arithmetic ------------------------------------------------------------------------------- */

/* bfi's, bfe's and prmt's fields: PTX ISA, "Integer Arithmetic Instructions: bfe, bfi" and
 * "Data Movement: prmt" (default mode) */
static int64_t bfe(int64_t a, int64_t pos, int64_t len, int bits, bool sgn) {
  pos &= 0xff, len &= 0xff;
  if (len == 0) return 0;
  uint64_t u = (uint64_t)norm(a, bits, false);
  int64_t msb = pos + len - 1;
  if (msb > bits - 1) msb = bits - 1;
  bool sbit = sgn && (pos < bits ? ((u >> msb) & 1) : ((u >> (bits - 1)) & 1));
  uint64_t r = 0;
  for (int i = 0; i < bits; i++) {
    uint64_t bit = (i < len && pos + i <= msb) ? (u >> (pos + i)) & 1 : sbit;
    r |= bit << i;
  }
  return norm((int64_t)r, bits, sgn);
}

static int64_t bfi(int64_t a, int64_t b, int64_t pos, int64_t len, int bits) {
  pos &= 0xff, len &= 0xff;
  uint64_t r = (uint64_t)b;
  for (int64_t i = 0; i < len && pos + i < bits; i++) {
    uint64_t m = 1ull << (pos + i);
    r = (r & ~m) | ((((uint64_t)a >> i) & 1) << (pos + i));
  }
  return norm((int64_t)r, bits, false);
}

static int64_t prmt(int64_t a, int64_t b, int64_t c) {
  uint64_t bytes = ((uint64_t)b & 0xffffffffu) << 32 | ((uint64_t)a & 0xffffffffu);
  uint64_t r = 0;
  for (int i = 0; i < 4; i++) {
    int sel = (int)((c >> (4 * i)) & 0xf);
    uint64_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
    if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
    r |= byte << (8 * i);
  }
  return (int64_t)r;
}

/* op on constants: the result, normalised to the destination's width */
static int64_t fold(thr *T, const char *op, int64_t x, int64_t y, int64_t z, int64_t w) {
  bool sgn;
  int bits = type_bits(op, &sgn);
  char name[16];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(op, "."), op);
  bool wide = has_part(op, "wide"), hi = has_part(op, "hi");
  int rbits = wide ? 64 : bits;
  int64_t r = 0;
  if (!strcmp(name, "cvt")) {   /* cvt.dst.src: the source's width, then the destination's */
    const char *second = strchr(op + 4, '.');
    bool s2;
    int b2 = second ? type_bits(second, &s2) : 64;
    bool s1;
    char first[16];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(op + 4, ".") + 1, op + 3);   /* ".u64" */
    int b1 = type_bits(first, &s1);
    if (is_float_op(op)) ifail(T, "a conversion between integers and floating point (%s) is not followed", op);
    return norm(norm(x, b2, s2), b1, s1);
  }
  /* the integer arithmetic below on a float's bits would be a wrong value, silently */
  if (is_float_op(op) && strcmp(name, "mov")) ifail(T, "floating-point arithmetic (%s) is not followed", op);
  if (!strcmp(name, "bfe")) return bfe(x, y, z, bits, sgn);
  if (!strcmp(name, "bfi")) return bfi(x, y, z, w, bits);
  if (!strcmp(name, "prmt")) {
    if (strcmp(op, "prmt.b32")) ifail(T, "%s (a mode of prmt other than the default) is not followed", op);
    return prmt(x, y, z);
  }
  if (bits < 64 && strcmp(name, "shl") && strcmp(name, "shr")) x = norm(x, bits, sgn), y = norm(y, bits, sgn);
  if (!strcmp(name, "add")) r = x + y;
  else if (!strcmp(name, "sub")) r = x - y;
  else if (!strcmp(name, "mul")) r = hi ? (int64_t)(((__int128)x * y) >> bits) : x * y;
  else if (!strcmp(name, "mad")) r = x * y + norm(z, rbits, sgn);
  else if (!strcmp(name, "div")) r = y ? (sgn ? x / y : (int64_t)((uint64_t)x / (uint64_t)y)) : 0;
  else if (!strcmp(name, "rem")) r = y ? (sgn ? x % y : (int64_t)((uint64_t)x % (uint64_t)y)) : 0;
  else if (!strcmp(name, "and")) r = x & y;
  else if (!strcmp(name, "or")) r = x | y;
  else if (!strcmp(name, "xor")) r = x ^ y;
  else if (!strcmp(name, "not")) r = ~x;
  else if (!strcmp(name, "neg")) r = -x;
  else if (!strcmp(name, "abs")) r = x < 0 ? -x : x;
  else if (!strcmp(name, "min")) r = sgn ? (x < y ? x : y) : ((uint64_t)x < (uint64_t)y ? x : y);
  else if (!strcmp(name, "max")) r = sgn ? (x > y ? x : y) : ((uint64_t)x > (uint64_t)y ? x : y);
  else if (!strcmp(name, "shl")) r = y >= bits ? 0 : (int64_t)((uint64_t)norm(x, bits, sgn) << y);
  else if (!strcmp(name, "shr"))
    r = sgn ? (y >= bits ? (norm(x, bits, true) < 0 ? -1 : 0) : norm(x, bits, true) >> y)
            : (y >= bits ? 0 : (int64_t)((uint64_t)norm(x, bits, false) >> y));
  else if (!strcmp(name, "mov")) r = x;
  else ifail(T, "%s is not followed", op);
  return norm(r, rbits, sgn);
}

/* The values an operand may hold: *n of them in vs, or false when not known. */
static bool values_of(gen *g, val v, int64_t *vs, int *n) {
  if (v.k == V_C || v.k == V_P) { vs[0] = v.v; *n = 1; return true; }
  if (v.k == V_D && v.set > 0) {
    const vset *s = &g->sets.v[v.set - 1];
    memcpy(vs, s->v, (size_t)s->n * sizeof *vs);
    *n = s->n;
    return true;
  }
  return false;
}

/* Thread T's test goes on with the register of operand s holding, in turn, each value
 * of its finite set: a branch per value but the last to a block where it holds that
 * value (that block evaluates the instruction at T->in again), the last kept here.
 * The value it has here is returned. */
static val split(thr *T, const char *s, val v) {
  gen *g = T->g;
  size_t i = lc_names_get(&g->regs, s, strlen(s));
  const vset *vs = &g->sets.v[v.set - 1];
  size_t pc = (size_t)(T->in - g->m.code.v);
  int n = vs->n;
  int64_t last = vs->v[n - 1];
  for (int k = 0; k < n - 1; k++) {
    val keep = T->st[i];
    T->st[i] = (val){.k = V_C, .v = vs->v[k]};
    val p = {.k = V_PD, .cmp = C_EQ, .ra = rnum(g, i), .rb = -1, .vb = vs->v[k]};
    goto_node(T, pc, "b", &p, false, true);
    T->st[i] = keep;
  }
  T->st[i] = (val){.k = V_C, .v = last};
  return T->st[i];
}

/* arithmetic with constants, or the test's register arithmetic */
static void alu(thr *T) {
  gen *g = T->g;
  const kp_ins *in = T->in;
  const char *op = in->op;
  bool sgn;
  int bits = type_bits(op, &sgn);
  if (in->nops < 2) ifail(T, "%s with %d operands", op, in->nops);
  size_t d = dst(T, in->ops[0]);
  val a = eval(T, in->ops[1]);
  val b = in->nops > 2 ? eval(T, in->ops[2]) : (val){.k = V_C};
  val c = in->nops > 3 ? eval(T, in->ops[3]) : (val){.k = V_C};
  val e = in->nops > 4 ? eval(T, in->ops[4]) : (val){.k = V_C};
  char name[16];
  snprintf(name, sizeof name, "%.*s", (int)strcspn(op, "."), op);
  bool wide = has_part(op, "wide");
  bool hi = has_part(op, "hi");
  int rbits = wide ? 64 : bits;
  /* an address plus a value of a finite set: followed per value */
  if (a.k == V_A && b.k == V_D && b.set > 0) b = split(T, in->ops[2], b);
  if (b.k == V_A && a.k == V_D && a.set > 0) a = split(T, in->ops[1], a);
  /* addresses: an offset added or subtracted */
  if (a.k == V_A || b.k == V_A) {
    if (!strcmp(name, "add") && a.k == V_A && b.k == V_C) { a.v += b.v; set(T, d, a); return; }
    if (!strcmp(name, "add") && b.k == V_A && a.k == V_C) { b.v += a.v; set(T, d, b); return; }
    if (!strcmp(name, "sub") && a.k == V_A && b.k == V_C) { a.v -= b.v; set(T, d, a); return; }
    if (!strcmp(name, "sub") && a.k == V_A && b.k == V_A && a.sym == b.sym && a.cta == b.cta) {
      set(T, d, (val){.k = V_C, .v = a.v - b.v});
      return;
    }
    if ((!strcmp(name, "cvt") || !strcmp(name, "mov")) && a.k == V_A) { set(T, d, a); return; }
    /* a pointer's halves put together (the grid's workspace, %envreg1:%envreg2): the
     * address in the low half, no high bits */
    if (!strcmp(name, "bfi") && b.k == V_A && a.k == V_C && a.v == 0 && c.k == V_C && c.v >= 32) { set(T, d, b); return; }
    if (a.k == V_D || b.k == V_D)
      ifail(T, "an address plus a value read from memory (%s %s, %s): the element cannot be followed (only a "
            "value the kernel chose among a few constants is)", op, in->ops[1], in->ops[2]);
    ifail(T, "%s on an address is not followed", op);
  }
  if (a.k == V_X || b.k == V_X || c.k == V_X || e.k == V_X)
    ifail(T, "%s uses a value that differs between iterations of a loop and cannot be followed", op);
  bool dyn = a.k == V_D || b.k == V_D || c.k == V_D || e.k == V_D;
  if (!dyn) {
    set(T, d, (val){.k = V_C, .v = fold(T, op, a.v, b.v, c.v, e.v)});
    return;
  }
  /* a value read from memory: the test computes it */
  if (is_float_op(op) && strcmp(name, "mov"))
    ifail(T, "floating-point arithmetic on a value read from memory (%s) is not modelled", op);
  char A[32], B[32], Cc[32];
  int rd = rnum(g, d), tr = temp_reg(g);
  opnd(T, in->ops[1], A, sizeof A);
  if (in->nops > 2) opnd(T, in->ops[2], B, sizeof B);
  if (in->nops > 3) opnd(T, in->ops[3], Cc, sizeof Cc);
  const char *ty = rbits == 32 ? (sgn ? ".s32" : ".u32") : "";
  int line = line_here(T);
  if (!strcmp(name, "mov") || !strcmp(name, "cvt")) {
    if (is_float_op(op)) ifail(T, "a conversion of a value read from memory to or from floating point (%s) is not modelled", op);
    emit(T, line, "mov r%d, %s", rd, A);
    if (!strcmp(name, "cvt")) {   /* cvt.dst.src: the source's width, then the destination's (as for constants) */
      const char *second = strchr(op + 4, '.');
      bool s1, s2;
      char first[16];
      snprintf(first, sizeof first, "%.*s", (int)strcspn(op + 4, ".") + 1, op + 3);
      int b1 = type_bits(first, &s1), b2 = second ? type_bits(second, &s2) : 64;
      if (!second) s2 = s1;
      if (b2 < b1 || (b2 == b1 && s2 != s1)) narrow(T, line, rd, b2, s2);
      if (b1 < 64) narrow(T, line, rd, b1, s1);
    }
  } else if (!strcmp(name, "add") || !strcmp(name, "sub") || (!strcmp(name, "mul") && !hi) || !strcmp(name, "div") ||
             !strcmp(name, "rem") || !strcmp(name, "and") || !strcmp(name, "or") || !strcmp(name, "xor")) {
    emit(T, line, "%s%s r%d, %s, %s", name, ty, rd, A, B);
  } else if (!strcmp(name, "mad") && !hi) {
    emit(T, line, "mul%s r%d, %s, %s", ty, tr, A, B);
    emit(T, line, "add%s r%d, r%d, %s", ty, rd, tr, Cc);
  } else if (!strcmp(name, "not")) {
    emit(T, line, "xor%s r%d, %s, -1", ty, rd, A);
  } else if (!strcmp(name, "neg")) {
    emit(T, line, "sub%s r%d, 0, %s", ty, rd, A);
  } else if (!strcmp(name, "shl") || !strcmp(name, "shr")) {
    /* the test's shifts: shr of a signed type is arithmetic (a division would round toward zero) */
    emit(T, line, "%s%s r%d, %s, %s", name, rbits == 32 ? ty : sgn ? ".s64" : ".u64", rd, A, B);
    if (rbits < 32) narrow(T, line, rd, rbits, sgn);
  } else if ((!strcmp(name, "min") || !strcmp(name, "max")) && in->nops == 3) {
    /* a branch picks one (the test compares its registers as signed 64-bit numbers, which
     * they are for every 32-bit type and for 64-bit values below 2^63) */
    char lab[32];
    snprintf(lab, sizeof lab, "S%d", ++T->nlabels);
    emit(T, line, "mov r%d, %s", tr, A);
    emit(T, line, "%s %s, %s, %s", name[1] == 'i' ? "ble" : "bge", A, B, lab);
    emit(T, line, "mov r%d, %s", tr, B);
    emit(T, line, "%s:", lab);
    emit(T, line, "mov r%d, r%d", rd, tr);
  } else if (!strcmp(name, "bfe") && !sgn && b.k == V_C && c.k == V_C && (b.v & 0xff) < bits) {
    long long len = c.v & 0xff, pos = b.v & 0xff;
    emit(T, line, "div r%d, %s, %lld", rd, A, 1ll << pos);
    if (len < 63) emit(T, line, "and r%d, r%d, %lld", rd, rd, (1ll << len) - 1);
  } else if (!strcmp(name, "bfi") && c.k == V_C && e.k == V_C && (c.v & 0xff) + (e.v & 0xff) <= bits &&
             (e.v & 0xff) < 63) {
    long long pos = c.v & 0xff, len = e.v & 0xff, m = ((1ll << len) - 1) << pos;
    emit(T, line, "mul r%d, %s, %lld", tr, A, 1ll << pos);
    emit(T, line, "and r%d, r%d, %lld", tr, tr, m);
    emit(T, line, "and r%d, %s, %lld", rd, B, ~m & (bits >= 64 ? -1ll : (1ll << bits) - 1));
    emit(T, line, "or r%d, r%d, r%d", rd, rd, tr);
  } else {
    ifail(T, "%s on a value read from memory is not modelled", op);
  }
  /* the values it may hold, when its operands' are known */
  int64_t va[MAX_SET], vb[MAX_SET], vc[MAX_SET], ve[MAX_SET], out[MAX_SET * MAX_SET];
  int na = 1, nb = 1, nc = 1, ne = 1, no = 0;
  vb[0] = vc[0] = ve[0] = 0;
  bool known = values_of(g, a, va, &na) && (in->nops <= 2 || values_of(g, b, vb, &nb)) &&
               (in->nops <= 3 || values_of(g, c, vc, &nc)) && (in->nops <= 4 || values_of(g, e, ve, &ne));
  if (known && (long)na * nb * nc * ne <= MAX_SET * MAX_SET) {
    for (int i = 0; i < na; i++)
      for (int j = 0; j < nb; j++)
        for (int k = 0; k < nc; k++)
          for (int l = 0; l < ne; l++) out[no++] = fold(T, op, va[i], vb[j], vc[k], ve[l]);
    set(T, d, of_set(g, out, no));
    return;
  }
  set(T, d, (val){.k = V_D});
}

/* setp.cmp.type p, a, b */
static void setp(thr *T) {
  gen *g = T->g;
  const kp_ins *in = T->in;
  if (in->nops != 3) ifail(T, "setp with %d operands (a combined setp) is not followed", in->nops);
  if (is_float_op(T->in->op)) ifail(T, "a floating-point comparison (%s) is not modelled", in->op);
  const char *pd = in->ops[0];
  if (strchr(pd, '|')) ifail(T, "setp with two results is not followed");
  size_t d = dst(T, pd);
  val a = eval(T, in->ops[1]), b = eval(T, in->ops[2]);
  bool sgn;
  int bits = type_bits(in->op, &sgn);
  int ci = cmp_of(T, in->op);
  if (a.k == V_X || b.k == V_X) ifail(T, "a comparison of a value that differs between iterations of a loop");
  if (a.k == V_A && b.k == V_A && a.sym == b.sym && a.cta == b.cta) a = (val){.k = V_C, .v = a.v}, b = (val){.k = V_C, .v = b.v};
  if (a.k == V_A || b.k == V_A) {
    if ((a.k == V_A && b.k == V_C && b.v == 0) || (b.k == V_A && a.k == V_C && a.v == 0)) {
      /* a pointer against null: never null here */
      set(T, d, (val){.k = V_P, .v = cmp_base(ci) == C_NE});
      return;
    }
    ifail(T, "a comparison of addresses of different arrays is not followed");
  }
  if (a.k != V_D && b.k != V_D) {
    set(T, d, (val){.k = V_P, .v = cmp_eval(ci, norm(a.v, bits, sgn), norm(b.v, bits, sgn), !sgn)});
    return;
  }
  val p = {.k = V_PD, .cmp = cmp_base(ci), .ra = -1, .rb = -1, .at = (int32_t)(in - g->m.code.v) + 1};
  if (a.k == V_D) p.pa = (int32_t)lc_names_get(&g->regs, in->ops[1], strlen(in->ops[1])) + 1;
  if (b.k == V_D) p.pb = (int32_t)lc_names_get(&g->regs, in->ops[2], strlen(in->ops[2])) + 1;
  /* the operands at the comparison's width and signedness (setp.gt.s32 of a value
   * the test holds as an unsigned 32-bit number: its sign) */
  char R[32];
  if (a.k == V_D) {
    p.ra = slot(g, d, 0);
    snprintf(R, sizeof R, "r%d", rnum(g, lc_names_get(&g->regs, in->ops[1], strlen(in->ops[1]))));
    emit_width(T, line_here(T), p.ra, R, bits, sgn);
  } else {
    p.v = norm(a.v, bits, sgn);
  }
  if (b.k == V_D) {
    p.rb = slot(g, d, 1);
    snprintf(R, sizeof R, "r%d", rnum(g, lc_names_get(&g->regs, in->ops[2], strlen(in->ops[2]))));
    emit_width(T, line_here(T), p.rb, R, bits, sgn);
  } else {
    p.vb = norm(b.v, bits, sgn);
  }
  set(T, d, p);
}

static void pred_text(const val *p, bool neg, char *buf, size_t n, const char *label) {
  int c = neg ? cmp_not(p->cmp) : p->cmp;
  char a[32], b[32];
  if (p->ra >= 0) snprintf(a, sizeof a, "r%d", p->ra);
  else snprintf(a, sizeof a, "%lld", (long long)p->v);
  if (p->rb >= 0) snprintf(b, sizeof b, "r%d", p->rb);
  else snprintf(b, sizeof b, "%lld", (long long)p->vb);
  snprintf(buf, n, "%s %s, %s, %s", bnames[c], a, b, label);
}

/* the predicate operations: and, or, xor, not on .pred */
static void pred_op(thr *T) {
  const kp_ins *in = T->in;
  size_t d = dst(T, in->ops[0]);
  val a = eval(T, in->ops[1]);
  if (head_is(in->op, "not")) {
    if (a.k == V_P) { a.v = !a.v; set(T, d, a); return; }
    if (a.k == V_PD) { a.cmp = cmp_not(a.cmp); set(T, d, a); return; }
    ifail(T, "not.pred of an unknown predicate");
  }
  val b = in->nops > 2 ? eval(T, in->ops[2]) : a;
  if (a.k == V_P && b.k == V_P) {
    int64_t r = head_is(in->op, "and") ? (a.v && b.v) : head_is(in->op, "or") ? (a.v || b.v) : (a.v != b.v);
    set(T, d, (val){.k = V_P, .v = r});
    return;
  }
  /* one known: and with true, or with false are the other */
  if (a.k == V_P && b.k == V_PD) { val t = a; a = b; b = t; }
  if (a.k == V_PD && b.k == V_P) {
    if (head_is(in->op, "and")) { set(T, d, b.v ? a : (val){.k = V_P, .v = 0}); return; }
    if (head_is(in->op, "or")) { set(T, d, b.v ? (val){.k = V_P, .v = 1} : a); return; }
  }
  ifail(T, "%s of two predicates that depend on memory is not modelled", in->op);
}

/* selp.type d, a, b, p */
static void selp(thr *T) {
  gen *g = T->g;
  const kp_ins *in = T->in;
  size_t d = dst(T, in->ops[0]);
  val p = eval(T, in->ops[3]);
  if (p.k == V_P) {
    val v = eval(T, in->ops[p.v ? 1 : 2]);
    if (v.k == V_D) {
      char A[32];
      emit(T, line_here(T), "mov r%d, %s", rnum(g, d), opnd(T, in->ops[p.v ? 1 : 2], A, sizeof A));
    }
    set(T, d, v);
    return;
  }
  if (p.k != V_PD) ifail(T, "selp on an unknown predicate");
  char A[32], B[32], br[96], lab[32];
  opnd(T, in->ops[1], A, sizeof A);
  opnd(T, in->ops[2], B, sizeof B);
  snprintf(lab, sizeof lab, "S%d", ++T->nlabels);
  pred_text(&p, false, br, sizeof br, lab);
  int line = line_here(T);
  emit(T, line, "mov r%d, %s", rnum(g, d), A);
  emit(T, line, "%s", br);
  emit(T, line, "mov r%d, %s", rnum(g, d), B);
  emit(T, line, "%s:", lab);
  /* one of the two: the values of each */
  int64_t va[2 * MAX_SET];
  int na = 0, nb = 0;
  if (values_of(g, eval(T, in->ops[1]), va, &na) && values_of(g, eval(T, in->ops[2]), va + na, &nb)) {
    val r = of_set(g, va, na + nb);
    if (r.k == V_D && r.set) { set(T, d, r); return; }
  }
  set(T, d, (val){.k = V_D});
}

/* ld, st, atom, red: the access with its operands as the test writes them */
static void access(thr *T) {
  gen *g = T->g;
  const kp_ins *in = T->in;
  const char *op = in->op;
  int line = line_here(T);
  if (head_is(op, "ld") && has_part(op, "param")) {
    const char *s = in->ops[1];
    size_t n = strcspn(s + 1, "+]");
    int pi = find_param(g, s + 1, n);
    size_t d = dst(T, in->ops[0]);
    if (pi >= 0) {
      param *p = &g->params.v[pi];
      if (p->pointer) set(T, d, (val){.k = V_A, .sym = -1 - pi, .cta = -1});
      else set(T, d, (val){.k = V_C, .v = find_input(g, p->name)->values.v[0]});
      return;
    }
    /* a .func's parameter or a call's result: the slot the caller wrote */
    char nm[256];
    snprintf(nm, sizeof nm, "%.*s", (int)n, s + 1);
    size_t i = lc_names_get(&g->regs, nm, strlen(nm));
    if (i == LC_NAMES_NONE) ifail(T, "ld.param of %s, which nothing wrote", nm);
    val v = T->st[i];
    if (v.k == V_D) emit(T, line, "mov r%d, r%d", rnum(g, d), rnum(g, i));
    set(T, d, v);
    return;
  }
  if (head_is(op, "st") && has_part(op, "param")) {
    const char *s = in->ops[0];
    size_t n = strcspn(s + 1, "+]");
    char nm[256];
    snprintf(nm, sizeof nm, "%.*s", (int)n, s + 1);
    size_t i = lc_names_get(&g->regs, nm, strlen(nm));
    if (i == LC_NAMES_NONE) ifail(T, "st.param to %s, which is no parameter", nm);
    val v = eval(T, in->ops[1]);
    if (v.k == V_D) {
      char A[32];
      emit(T, line, "mov r%d, %s", rnum(g, i), opnd(T, in->ops[1], A, sizeof A));
    }
    set(T, i, v);
    return;
  }
  if (has_part(op, "local"))
    ifail(T, "local memory (%s: a local array or a spilled variable) is not modelled", op);
  if (has_part(op, "const") || has_part(op, "tex")) ifail(T, "%s: this state space is not modelled", op);
  if (has_part(op, "f16") || has_part(op, "f32") || has_part(op, "f64") || has_part(op, "bf16"))
    ifail(T, "a floating-point access (%s) is not modelled: the test's values are integers", op);
  int size = access_size(op);
  bool shared = false;
  bool is_ld = head_is(op, "ld"), is_st = head_is(op, "st"), is_red = head_is(op, "red");
  const char *addr = is_ld || (!is_st && !is_red) ? in->ops[1] : in->ops[0];
  if (!is_ld && !is_st && !is_red && in->nops < 3) ifail(T, "%s with %d operands", op, in->nops);
  int cta = 0;
  const char *loc = location(T, addr, size, &shared, &cta);
  bool loc_sgn = T->loc_sgn;
  if (!is_ld && !strncmp(loc, "__grid_workspace", 16) && ++T->grid_syncs > MAX_GRID_SYNCS)
    ifail(T, "the grid's barrier word written more than %d times by one thread, in PTX that is not cooperative "
          "groups' grid barrier as nvcc emits it (which is read as the grid's barrier): each is a spin loop on "
          "the word, and the check of more grows beyond bounds", MAX_GRID_SYNCS);
  const char *mop = mem_op(T, op, shared, cta < 0);
  char A[32], B[32];
  bool sgn;
  int bits = type_bits(op, &sgn);
  bool narrow = bits == 8 || bits == 16;
  if (narrow && !is_ld && !is_st)
    ifail(T, "an atomic operation on %d bits (%s) is not modelled", bits, op);
  if (is_ld) {
    size_t d = dst(T, in->ops[0]);
    emit(T, line, "%s r%d, [%s]", mop, rnum(g, d), loc);
    if (narrow && sgn != loc_sgn) {   /* ld.s8 of a value kept unsigned, ld.u8 of one kept signed */
      char R[32];
      snprintf(R, sizeof R, "r%d", rnum(g, d));
      emit_width(T, line, rnum(g, d), R, bits, sgn);
    }
    set(T, d, (val){.k = V_D});
  } else if (narrow) {   /* st.u8/.u16: the value's low bits, as the array keeps them */
    val v = eval(T, in->ops[1]);
    if (v.k == V_C || v.k == V_P) {
      emit(T, line, "%s [%s], %lld", mop, loc, (long long)norm(v.v, bits, loc_sgn));
    } else {
      opnd(T, in->ops[1], A, sizeof A);
      emit_width(T, line, temp_reg(g), A, bits, loc_sgn);
      emit(T, line, "%s [%s], r%d", mop, loc, temp_reg(g));
    }
  } else if (is_st || is_red) {
    emit(T, line, "%s [%s], %s", mop, loc, opnd(T, in->ops[1], A, sizeof A));
  } else {   /* atom d, [a], b [, c] */
    size_t d = dst(T, in->ops[0]);
    opnd(T, in->ops[2], A, sizeof A);
    if (in->nops > 3) emit(T, line, "%s r%d, [%s], %s, %s", mop, rnum(g, d), loc, A, opnd(T, in->ops[3], B, sizeof B));
    else emit(T, line, "%s r%d, [%s], %s", mop, rnum(g, d), loc, A);
    set(T, d, (val){.k = V_D});
  }
}

/* bar, barrier, membar, fence, mbarrier, cp.async.bulk: their operands substituted */
static void sync_op(thr *T) {
  gen *g = T->g;
  const kp_ins *in = T->in;
  const char *op = in->op;
  lc_buf b;
  lc_buf_init(&b);
  bool mbar = head_is(op, "mbarrier");
  bool wait = mbar && (has_part(op, "try_wait") || has_part(op, "test_wait"));
  size_t pdst = (size_t)-1;
  lc_buf_puts(&b, op);
  for (int k = 0; k < in->nops; k++) {
    const char *s = in->ops[k];
    lc_buf_puts(&b, k ? ", " : " ");
    if (s[0] == '[') {
      bool shared;
      lc_buf_printf(&b, "[%s]", location(T, s, mbar ? 8 : 0, &shared, NULL));
    } else if (k == 0 && mbar && (wait || has_part(op, "arrive") || has_part(op, "arrive_drop"))) {
      /* the result: the phase's state (kept as a register) or, for a wait, whether it completed */
      if (!strcmp(s, "_")) { lc_buf_puts(&b, "_"); continue; }
      size_t d = dst(T, s);
      if (wait) {
        pdst = d;
        lc_buf_printf(&b, "r%d", slot(g, d, 0));
      } else {
        lc_buf_printf(&b, "r%d", rnum(g, d));
        set(T, d, (val){.k = V_D});
      }
    } else {
      char A[32];
      lc_buf_puts(&b, opnd(T, s, A, sizeof A));
    }
  }
  emit(T, line_here(T), "%s", b.s);
  lc_buf_fini(&b);
  if (pdst != (size_t)-1) set(T, pdst, (val){.k = V_PD, .cmp = C_NE, .ra = slot(g, pdst, 0), .rb = -1, .vb = 0});
}

/* The name of element e of module symbol y's copy in T's CTA, marked used. */
static const char *sym_elem(thr *T, int y, long e) {
  gen *g = T->g;
  for (size_t i = 0; i < g->mems.n; i++) {
    mem *m = &g->mems.v[i];
    if (m->sym != y || (m->shared && m->cta != T->b)) continue;
    m->used[e] = true;
    char buf[300];
    if (e == 0) snprintf(buf, sizeof buf, "%s", m->name);
    else snprintf(buf, sizeof buf, "%s[%ld]", m->name, e);
    return lc_arena_strdup(g->a, buf);
  }
  ifail(T, "no array for the votes of bar.red");
}

/* bar.red.popc.u32 d, a{, b}, {!}c and bar.red.{and,or}.pred p, a{, b}, {!}c: bar.sync a
 * that also gives every thread of the CTA the number of its threads whose c is true
 * (popc), whether all (and) or any (or) is (PTX ISA, "bar.red").  The event model has no
 * barrier that carries values, so the votes go through memory of the test's own, as the
 * source-level reader's __syncthreads_count (src/kernel/kn_coll.c): one shared slot per
 * thread of the CTA per bar.red of the code (votes_of), written before the barrier, all
 * read after it, and a second barrier after the reads, so that the next vote's writes
 * come after them.  The barrier orders what bar.sync orders, no more: between the two
 * barriers a thread only reads the slots. */
static void bar_red(thr *T) {
  gen *g = T->g;
  const kp_ins *in = T->in;
  const char *op = in->op;
  bool popc = has_part(op, "popc"), all = has_part(op, "and"), any = has_part(op, "or");
  if ((popc ? 1 : 0) + (all ? 1 : 0) + (any ? 1 : 0) != 1 || in->nops < 3 || in->nops > 4)
    ifail(T, "%s is not followed", op);
  char A[32];
  opnd(T, in->ops[1], A, sizeof A);
  if (in->nops == 4) {
    val n = eval(T, in->ops[2]);
    if (n.k != V_C || n.v != g->nthreads)
      ifail(T, "%s with a thread count other than the CTA's (%d) is not followed", op, g->nthreads);
  }
  const char *c = in->ops[in->nops - 1];
  bool neg = c[0] == '!';
  val p = eval(T, neg ? c + 1 : c);
  int line = line_here(T), tr = temp_reg(g);
  int y = -1;
  char key[32];
  snprintf(key, sizeof key, "%%votes%d", in->ptx_line);
  y = find_sym(g, key, strlen(key));
  if (y < 0) ifail(T, "no array for the votes of %s", op);
  const char *mine = sym_elem(T, y, T->t);
  if (p.k == V_P) {
    emit(T, line, "st.shared [%s], %d", mine, (p.v != 0) != neg);
  } else if (p.k == V_PD) {
    char lab[32], br[96];
    snprintf(lab, sizeof lab, "S%d", ++T->nlabels);
    emit(T, line, "mov r%d, 1", tr);
    pred_text(&p, neg, br, sizeof br, lab);
    emit(T, line, "%s", br);
    emit(T, line, "mov r%d, 0", tr);
    emit(T, line, "%s:", lab);
    emit(T, line, "st.shared [%s], r%d", mine, tr);
  } else {
    ifail(T, "%s of a predicate that is not known here", op);
  }
  emit(T, line, "bar.sync %s", A);
  size_t d = dst(T, in->ops[0]);
  int sum = popc ? rnum(g, d) : slot(g, d, 0);
  emit(T, line, "mov r%d, 0", sum);
  for (int k = 0; k < g->nthreads; k++) {
    emit(T, line, "ld.shared r%d, [%s]", tr, sym_elem(T, y, k));
    emit(T, line, "add r%d, r%d, r%d", sum, sum, tr);
  }
  emit(T, line, "bar.sync %s", A);
  if (popc) set(T, d, (val){.k = V_D});
  else set(T, d, (val){.k = V_PD, .cmp = all ? C_EQ : C_NE, .ra = sum, .rb = -1, .vb = all ? g->nthreads : 0});
}

/* each bar.red of the code: a __shared__ array of the test for its votes (bar_red) */
static void votes_of(gen *g) {
  for (size_t i = 0; i < g->m.code.n; i++) {
    const kp_ins *in = &g->m.code.v[i];
    if (in->label || !(head_is(in->op, "bar.red") || head_is(in->op, "barrier.red"))) continue;
    char key[32], shown[48];
    snprintf(key, sizeof key, "%%votes%d", in->ptx_line);
    if (find_sym(g, key, strlen(key)) >= 0) continue;
    snprintf(shown, sizeof shown, "__votes_p%d", in->ptx_line);
    kp_sym v = {.name = lc_arena_strdup(g->a, key), .shown = lc_arena_strdup(g->a, shown), .shared = true,
                .elem = 4, .size = 4L * g->nthreads, .ptx_line = in->ptx_line};
    lc_vec_push(&g->m.syms, v);
  }
}

/* mapa.shared::cluster d, a, cta: the same variable in CTA cta of the cluster */
static void mapa(thr *T) {
  const kp_ins *in = T->in;
  size_t d = dst(T, in->ops[0]);
  val a = eval(T, in->ops[1]), c = eval(T, in->ops[2]);
  if (a.k != V_A || c.k != V_C) ifail(T, "mapa of an address or CTA that cannot be followed");
  gen *g = T->g;
  int per = g->cluster[0] * g->cluster[1] * g->cluster[2];
  if (c.v < 0 || c.v >= per) ifail(T, "mapa to CTA %lld of a cluster of %d", (long long)c.v, per);
  /* the CTA of rank c.v in this thread's cluster (x fastest) */
  int cx = (int)c.v % g->cluster[0], cy = (int)c.v / g->cluster[0] % g->cluster[1],
      cz = (int)c.v / (g->cluster[0] * g->cluster[1]);
  int bx = T->clid[0] * g->cluster[0] + cx, by = T->clid[1] * g->cluster[1] + cy, bz = T->clid[2] * g->cluster[2] + cz;
  a.cta = bx + g->grid[0] * (by + g->grid[1] * bz);
  set(T, d, a);
}

/* elect.sync d|p, membermask (PTX ISA, elect.sync): one leader among the
 * threads of the warp in membermask, every one of which executes it (.sync);
 * d the leader's lane (or _), p true in the leader only.  The ISA does not
 * say which thread leads: the lowest lane is taken, as CUTLASS's
 * elect_one_sync() assumes where elect.sync is missing ((threadIdx.x % 32)
 * == 0), and the other choices are not explored. */
static void elect(thr *T) {
  const kp_ins *in = T->in;
  if (in->nops != 2) ifail(T, "%s with %d operands", in->op, in->nops);
  const char *bar = strchr(in->ops[0], '|');
  if (!bar) ifail(T, "%s without its predicate destination (d|p)", in->op);
  val m = eval(T, in->ops[1]);
  if (m.k != V_C) ifail(T, "%s with a member mask that is not a constant", in->op);
  uint32_t mask = (uint32_t)m.v;
  int base = T->t / 32 * 32, lane = T->t % 32, leader = -1;
  for (int l = 0; l < 32 && leader < 0; l++)
    if ((mask >> l & 1) && base + l < T->g->nthreads) leader = l;
  if (!(mask >> lane & 1)) ifail(T, "%s by a thread (lane %d) outside its member mask 0x%x", in->op, lane, mask);
  char d[256];
  snprintf(d, sizeof d, "%.*s", (int)(bar - in->ops[0]), in->ops[0]);
  if (strcmp(d, "_")) set(T, dst(T, d), (val){.k = V_C, .v = leader});
  set(T, dst(T, bar + 1), (val){.k = V_P, .v = lane == leader});
}

/* ---- a thread --------------------------------------------------------------------------------------- */

static void goto_node(thr *T, size_t pc, const char *cond_fmt_pred, const val *p, bool neg, bool at_ins) {
  bool fresh;
  val *need;
  if (cond_fmt_pred) T->spin[pc] = true;
  int id = node_for(T, pc, T->st, &fresh, &need);
  if (fresh) T->nodes.v[id].at_ins = at_ins;
  char label[32];
  snprintf(label, sizeof label, "N%d", id);
  if (fresh) lc_vec_push(&T->work, (size_t)id);
  if (need) {
    /* widened: the registers that became the test's get their values on the way */
    bool moves = false;
    for (size_t i = 0; i < T->g->nregs && !moves; i++) moves = need[i].k == V_D && T->st[i].k == V_C;
    if (moves && cond_fmt_pred) {
      char skip[32], br[96];
      snprintf(skip, sizeof skip, "S%d", ++T->nlabels);
      pred_text(p, !neg, br, sizeof br, skip);
      emit(T, line_here(T), "%s", br);
      materialise(T, T->st, need);
      emit(T, line_here(T), "goto %s", label);
      emit(T, line_here(T), "%s:", skip);
      return;
    }
    if (moves) materialise(T, T->st, need);
  }
  if (cond_fmt_pred) {
    char br[96];
    pred_text(p, neg, br, sizeof br, label);
    emit(T, line_here(T), "%s", br);
  } else {
    emit(T, line_here(T), "goto %s", label);
  }
}

/* The registers the predicate p compares, narrowed in T->st to the values for which it
 * is truth (true when the way is taken by some value).  Only when the branch at pc reads
 * p as its setp made it, the registers unchanged since (the setp just before, no label
 * between), and a register against a constant. */
static bool narrow_way(thr *T, const val *p, bool truth, size_t pc) {
  gen *g = T->g;
  if (!p->at || (p->pa ? 1 : 0) + (p->pb ? 1 : 0) != 1) return true;
  size_t reg = (size_t)(p->pa ? p->pa : p->pb) - 1;
  const kp_code *c = &g->m.code;
  for (size_t i = (size_t)p->at; i < pc; i++) {   /* code[at - 1] is the setp */
    const kp_ins *in = &c->v[i];
    if (in->label) return true;
    if (in->nops > 0 && writes_first(in->op) && lc_names_get(&g->regs, in->ops[0], strlen(in->ops[0])) == reg)
      return true;
  }
  val v = T->st[reg];
  int64_t vs[MAX_SET], out[MAX_SET];
  int n, m = 0;
  if (!values_of(g, v, vs, &n)) return true;
  int cmp = truth ? p->cmp : cmp_not(p->cmp);
  bool sgn;
  int bits = type_bits(c->v[p->at - 1].op, &sgn);   /* as setp() compares them */
  for (int k = 0; k < n; k++) {
    int64_t x = norm(vs[k], bits, sgn);
    bool ok = p->pa ? cmp_eval(cmp, x, p->vb, false) : cmp_eval(cmp, p->v, x, false);
    if (ok) out[m++] = vs[k];
  }
  if (!m) return false;
  T->st[reg] = of_set(g, out, m);
  return true;
}

/* At the label at *pc: a state met first here goes on in the same block
 * (true, *pc past the label); else the caller branches to its block. */
static bool enter(thr *T, size_t *pc) {
  bool fresh;
  val *need;
  int nid = node_for(T, *pc, T->st, &fresh, &need);
  if (fresh && !need) {
    T->nodes.v[nid].done = true;
    memcpy(T->st, T->nodes.v[nid].st, st_bytes(T->g));
    emit(T, line_here(T), "N%d:", nid);
    (*pc)++;
    return true;
  }
  if (fresh) T->nodes.n--;   /* goto_node makes it again, widened */
  return false;
}

/* Cooperative groups' grid barrier, whose sequence kp_grid.c found at pc:
 * the thread's part of it checked against sync_grids (sync.h) - the CTA's
 * thread 0 is the master, and adds to the grid workspace's barrier word
 * 0x80000000 - (blocks - 1) in block 0, 1 in the others, so that the
 * word's top bit flips when every block has arrived and not before - and
 * the whole written as the test's grid.sync, the barrier of every thread
 * of the grid at gpu scope that the source-level reader reads
 * this_grid().sync() as (docs/via-nvcc.md says why that is sound).  The
 * register arithmetic inside is evaluated as written.  A thread whose part
 * is not that: the kernel is read again with the PTX as it is.  Returns
 * the pc after the second barrier.sync. */
static LC_NORETURN void not_grid_barrier(thr *T, const char *why) {
  T->g->unlift = true;
  ifail(T, "not cooperative groups' grid barrier: %s", why);
}

static void arith_step(thr *T) {
  const char *op = T->in->op;
  if (head_is(op, "setp")) setp(T);
  else if (head_is(op, "selp")) selp(T);
  else if (head_is(op, "cvta")) set(T, dst(T, T->in->ops[0]), eval(T, T->in->ops[1]));
  else alu(T);
}

static size_t grid_barrier(thr *T, size_t pc) {
  gen *g = T->g;
  const kp_ins *c = g->m.code.v;
  const kp_grid_seq *s = &g->gseq[pc];
  T->in = &c[s->skip];
  val p = eval(T, T->in->guard);
  if (p.k != V_P) not_grid_barrier(T, "who is the CTA's master depends on memory");
  bool master = (p.v != 0) == T->in->neg;   /* the branch around the arrival not taken */
  if (master != (T->t == 0)) not_grid_barrier(T, "the CTA's master is not its thread 0");
  if (master) {
    for (size_t i = s->skip + 1; i < s->atom; i++) {
      T->in = &c[i];
      arith_step(T);
    }
    T->in = &c[s->atom];
    const char *w = T->in->ops[1] + (T->in->ops[1][0] == '[');
    char base[256];
    size_t n = strcspn(w, "+]");
    snprintf(base, sizeof base, "%.*s", (int)(n < 255 ? n : 255), w);
    int64_t off = 0;
    if (w[n] == '+') {
      char *o = lc_arena_strdup(g->a, w + n + 1);
      o[strcspn(o, "]")] = 0;
      if (!parse_int(o, &off)) not_grid_barrier(T, "the barrier word's offset is not a constant");
    }
    val a = eval(T, base), nb = eval(T, T->in->ops[2]);
    if (a.k != V_A || a.sym != g->ws_sym || a.v + off != 4)
      not_grid_barrier(T, "the arrival is not on the grid workspace's barrier word");
    int64_t want = T->b == 0 ? (int64_t)(0x80000000u - (uint32_t)(g->nblocks - 1)) : 1;
    if (nb.k != V_C || norm(nb.v, 32, false) != want)
      not_grid_barrier(T, "the arrival adds other than sync_grids does");
  }
  T->in = &c[pc];
  emit(T, line_here(T), "grid.sync");
  for (size_t i = s->end + 1; i < s->b2; i++) {
    T->in = &c[i];
    arith_step(T);
  }
  return s->b2 + 1;
}

static void run_node(thr *T, int id) {
  gen *g = T->g;
  const kp_code *c = &g->m.code;
  size_t bytes = st_bytes(g);
  memcpy(T->st, T->nodes.v[id].st, bytes);
  T->nodes.v[id].done = true;
  size_t pc = T->nodes.v[id].pc;
  if (pc == (size_t)-1) {   /* the entry */
    pc = 0;
    T->in = c->n ? &c->v[0] : NULL;
  } else {
    T->in = &c->v[pc];
    emit(T, line_here(T), "N%d:", id);
    if (!T->nodes.v[id].at_ins) pc++;
  }
  for (;;) {
    if (pc >= c->n) {
      emit(T, line_here(T), "goto END");
      return;
    }
    const kp_ins *in = &c->v[pc];
    T->in = in;
    if (g->gseq && g->gseq[pc].b2) {
      pc = grid_barrier(T, pc);
      continue;
    }
    if (in->label) {
      if (enter(T, &pc)) continue;
      goto_node(T, pc, NULL, NULL, false, false);
      return;
    }
    const char *op = in->op;
    /* the guard */
    if (in->guard && !head_is(op, "bra")) {
      val p = eval(T, in->guard);
      if (p.k == V_P) {
        if ((p.v != 0) == in->neg) { pc++; continue; }
      } else {
        ifail(T, "%s guarded by a predicate that depends on memory is not followed (only branches are)", op);
      }
    }
    if (head_is(op, "bra")) {
      size_t to = label_pc(T, in->ops[0]);
      val p = in->guard ? eval(T, in->guard) : (val){.k = V_P, .v = 1};
      if (p.k == V_P) {
        if ((p.v != 0) != (in->guard && in->neg)) {
          pc = to;
          if (enter(T, &pc)) continue;
          goto_node(T, to, NULL, NULL, false, false);
          return;
        }
        pc++;
        continue;
      }
      if (p.k != V_PD) ifail(T, "a branch on a predicate that is not known here");
      /* each way with the compared registers' sets narrowed to the values that go
       * that way: a way no value goes is not taken */
      size_t nb = (g->nregs + 1);
      val *keep = lc_arena_alloc(g->a, nb * sizeof *keep);
      memcpy(keep, T->st, nb * sizeof *keep);
      bool taken = narrow_way(T, &p, !in->neg, pc);
      val *st_taken = lc_arena_alloc(g->a, nb * sizeof *keep);
      memcpy(st_taken, T->st, nb * sizeof *keep);
      memcpy(T->st, keep, nb * sizeof *keep);
      bool fall = narrow_way(T, &p, in->neg, pc);
      if (taken && !fall) {
        memcpy(T->st, st_taken, nb * sizeof *keep);
        pc = to;
        if (enter(T, &pc)) continue;
        goto_node(T, to, NULL, NULL, false, false);
        return;
      }
      if (!taken && !fall) ifail(T, "a branch that no value takes either way");
      if (taken) {
        val *fall_st = lc_arena_alloc(g->a, nb * sizeof *keep);
        memcpy(fall_st, T->st, nb * sizeof *keep);
        memcpy(T->st, st_taken, nb * sizeof *keep);
        goto_node(T, to, "b", &p, in->neg, false);
        memcpy(T->st, fall_st, nb * sizeof *keep);
      }
      pc++;
      continue;
    }
    if (head_is(op, "ret") || head_is(op, "exit")) {
      emit(T, line_here(T), "goto END");
      return;
    }
    if (head_is(op, "kp.assert")) {
      size_t a = 0;
      while (a < g->asserts.n && g->asserts.v[a] != in->src_line) a++;
      emit(T, line_here(T), "mov r%d, 0", assert_reg(g, a));
      emit(T, line_here(T), "goto END");
      return;
    }
    if (head_is(op, "trap")) ifail(T, "trap is not modelled (assert() compiles to a call of __assertfail)");
    if (head_is(op, "kp.mov")) {
      size_t d = dst(T, in->ops[0]);
      val v = eval(T, in->ops[1]);
      if (v.k == V_D) {
        char A[32];
        emit(T, line_here(T), "mov r%d, %s", rnum(g, d), opnd(T, in->ops[1], A, sizeof A));
      }
      set(T, d, v);
    } else if (head_is(op, "ld") || head_is(op, "st") || head_is(op, "atom") || head_is(op, "red")) {
      access(T);
    } else if (head_is(op, "setp")) {
      setp(T);
    } else if (head_is(op, "selp")) {
      selp(T);
    } else if (has_part(op, "pred") && (head_is(op, "and") || head_is(op, "or") || head_is(op, "xor") ||
                                         head_is(op, "not") || head_is(op, "mov"))) {
      if (head_is(op, "mov")) set(T, dst(T, in->ops[0]), eval(T, in->ops[1]));
      else pred_op(T);
    } else if (head_is(op, "cvta")) {
      size_t d = dst(T, in->ops[0]);
      set(T, d, eval(T, in->ops[1]));
    } else if (head_is(op, "mapa")) {
      mapa(T);
    } else if (head_is(op, "mov") || head_is(op, "add") || head_is(op, "sub") || head_is(op, "mul") ||
               head_is(op, "mad") || head_is(op, "div") || head_is(op, "rem") || head_is(op, "and") ||
               head_is(op, "or") || head_is(op, "xor") || head_is(op, "not") || head_is(op, "neg") ||
               head_is(op, "shl") || head_is(op, "shr") || head_is(op, "cvt") || head_is(op, "min") ||
               head_is(op, "max") || head_is(op, "abs") || head_is(op, "bfi") || head_is(op, "bfe") ||
               head_is(op, "prmt")) {
      if (head_is(op, "mov") && in->nops == 2 && in->ops[1][0] == '{')
        ifail(T, "a vector move (%s) is not followed", op);
      alu(T);
    } else if (head_is(op, "bar.red") || head_is(op, "barrier.red")) {
      bar_red(T);
    } else if (head_is(op, "bar") || head_is(op, "barrier") || head_is(op, "membar") || head_is(op, "fence") ||
               head_is(op, "mbarrier") || head_is(op, "cp")) {
      if (head_is(op, "cp") && !has_part(op, "bulk")) ifail(T, "%s (not a bulk copy) is not modelled", op);
      sync_op(T);
    } else if (head_is(op, "nanosleep") || head_is(op, "prefetch") || head_is(op, "pmevent") ||
               head_is(op, "discard") || head_is(op, "applypriority") || head_is(op, "createpolicy")) {
      /* no memory effect here */
    } else if (head_is(op, "elect")) {
      elect(T);
    } else if (head_is(op, "vote") || head_is(op, "shfl") || head_is(op, "match") || head_is(op, "redux") ||
               head_is(op, "activemask")) {
      ifail(T, "the warp-level %s is not modelled", op);
    } else {
      ifail(T, "%s is not followed by this route", op);
    }
    pc++;
  }
}

static void run_thread(thr *T) {
  gen *g = T->g;
  size_t bytes = st_bytes(g);
  T->st = lc_arena_alloc(g->a, bytes);
  T->spin = lc_arena_alloc(g->a, g->m.code.n + 1);
  val *init = lc_arena_alloc(g->a, bytes);
  lc_vec_push(&T->nodes, ((node){(size_t)-1, init, 0, false, false}));
  lc_vec_push(&T->work, 0);
  while (T->work.n) {
    int id = (int)T->work.v[--T->work.n];
    if (!T->nodes.v[id].done) run_node(T, id);
  }
  emit(T, g->kline, "END:");
}

/* ---- which registers are live at each label ---------------------------------------------------------- */

/* The registers an instruction names, each as read or written. */
static bool writes_first(const char *op) {
  static const char *const w[] = {"ld", "atom", "mov", "add", "sub", "mul", "mad", "div", "rem", "and", "or", "xor",
                                  "not", "neg", "shl", "shr", "cvt", "min", "max", "abs", "setp", "selp", "cvta",
                                  "mapa", "kp.mov", "elect", "bfi", "bfe", "prmt", "bar.red", "barrier.red"};
  for (size_t i = 0; i < LC_ARRAY_LEN(w); i++)
    if (head_is(op, w[i])) return true;
  return head_is(op, "mbarrier") && (has_part(op, "arrive") || has_part(op, "try_wait") || has_part(op, "test_wait") ||
                                     has_part(op, "arrive_drop"));
}

typedef LC_VEC(size_t) idx_vec;

static void names_in(gen *g, const char *s, idx_vec *v) {
  for (const char *p = s; *p;) {
    if (isdigit((unsigned char)*p)) {
      while (isalnum((unsigned char)*p) || *p == '_') p++;
    } else if (isalpha((unsigned char)*p) || *p == '_' || *p == '$' || *p == '%') {
      const char *w = p++;
      while (isalnum((unsigned char)*p) || *p == '_' || *p == '$' || *p == '@') p++;
      size_t i = lc_names_get(&g->regs, w, (size_t)(p - w));
      if (i != LC_NAMES_NONE) lc_vec_push(v, i);
    } else {
      p++;
    }
  }
}

/* live[pc * words ..]: a backward dataflow over the flat code, so that a block's
 * state names only what it will read (a dead register left from the loop's last
 * iteration would make each iteration a block of its own) */
typedef struct live {
  size_t words;
  uint64_t *bits;
} live;

static size_t label_index(gen *g, const char *name) {
  const kp_code *c = &g->m.code;
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].label && !strcmp(c->v[i].label, name)) return i;
  return (size_t)-1;
}

static void compute_live(gen *g, live *L) {
  const kp_code *c = &g->m.code;
  size_t n = c->n, W = (g->nregs + 64) / 64;
  L->words = W;
  L->bits = lc_arena_alloc(g->a, (n + 1) * W * sizeof *L->bits);
  size_t *target = lc_xcalloc(n + 1, sizeof *target);
  idx_vec names = {0};
  uint64_t *use = lc_arena_alloc(g->a, (n + 1) * W * sizeof *use), *def = lc_arena_alloc(g->a, (n + 1) * W * sizeof *def);
  for (size_t i = 0; i < n; i++) {
    const kp_ins *in = &c->v[i];
    target[i] = (size_t)-1;
    if (in->label) continue;
    if (head_is(in->op, "bra")) {
      target[i] = label_index(g, in->ops[0]);
    } else {
      for (int k = 0; k < in->nops; k++) {
        names.n = 0;
        names_in(g, in->ops[k], &names);
        bool d = k == 0 && writes_first(in->op) && in->ops[k][0] != '[';
        for (size_t m = 0; m < names.n; m++) {
          uint64_t *set = d ? def : use;
          if (d && in->guard) continue;   /* a guarded write may not happen: it kills nothing */
          set[i * W + names.v[m] / 64] |= 1ull << (names.v[m] % 64);
        }
      }
    }
    if (in->guard) {
      names.n = 0;
      names_in(g, in->guard, &names);
      for (size_t m = 0; m < names.n; m++) use[i * W + names.v[m] / 64] |= 1ull << (names.v[m] % 64);
    }
  }
  bool changed = true;
  for (int round = 0; changed && round < 1000; round++) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const kp_ins *in = &c->v[i];
      bool stop = !in->label && (head_is(in->op, "ret") || head_is(in->op, "exit") || head_is(in->op, "kp.assert"));
      bool uncond = !in->label && head_is(in->op, "bra") && !in->guard;
      for (size_t w = 0; w < W; w++) {
        uint64_t out = 0;
        if (!stop && !uncond && i + 1 < n) out |= L->bits[(i + 1) * W + w];
        if (target[i] != (size_t)-1) out |= L->bits[target[i] * W + w];
        uint64_t x = use[i * W + w] | (out & ~def[i * W + w]);
        if (x != L->bits[i * W + w]) L->bits[i * W + w] = x, changed = true;
      }
    }
  }
  free(target);
  free(names.v);
}

static bool is_live(const live *L, size_t pc, size_t r) { return (L->bits[pc * L->words + r / 64] >> (r % 64)) & 1; }

/* ---- the registers the code names ------------------------------------------------------------------ */

static void collect_regs(gen *g) {
  kp_code *c = &g->m.code;
  for (size_t i = 0; i < c->n; i++) {
    const kp_ins *in = &c->v[i];
    if (in->label) continue;
    for (int k = -1; k < in->nops; k++) {
      const char *s = k < 0 ? in->guard : in->ops[k];
      if (!s) continue;
      if (k >= 0 && head_is(in->op, "bra")) continue;   /* a label */
      if (k >= 0 && head_is(in->op, "call")) continue;
      for (const char *p = s; *p;) {
        if (isdigit((unsigned char)*p)) {
          while (isalnum((unsigned char)*p) || *p == '_') p++;
        } else if (isalpha((unsigned char)*p) || *p == '_' || *p == '$' || *p == '%') {
          const char *w = p++;
          while (isalnum((unsigned char)*p) || *p == '_' || *p == '$' || *p == '@') p++;
          size_t n = (size_t)(p - w);
          if (*p == '.' && w[0] == '%') {   /* %tid.x */
            p++;
            while (isalnum((unsigned char)*p)) p++;
            continue;
          }
          if (find_sym(g, w, n) >= 0 || find_param(g, w, n) >= 0) continue;
          if (n == 1 && w[0] == '_') continue;
          if (lc_names_get(&g->regs, w, n) == LC_NAMES_NONE) lc_names_put(&g->regs, w, n, g->nregs++);
        } else {
          p++;
        }
      }
    }
    if (head_is(in->op, "kp.assert")) {
      bool seen = false;
      for (size_t a = 0; a < g->asserts.n; a++) seen |= g->asserts.v[a] == in->src_line;
      if (!seen) lc_vec_push(&g->asserts, in->src_line);
    }
  }
  if (3 * g->nregs + g->asserts.n + 2 > LT_MAX_REG)
    FAIL(g, g->kline, "the kernel's PTX has %zu registers: too many for a test", g->nregs);
}

/* ---- the test's text -------------------------------------------------------------------------------- */

static void new_line(gen *g, int line) {
  if (g->line_of.n > 0) lc_buf_putc(&g->out, '\n');
  lc_vec_push(&g->line_of, line > 0 ? line : g->kline);
}

/* the question in the dialect's spelling: Dartagnan's and/or, X[0] as X */
static void question(gen *g, const char *text) {
  char *q = lc_xstrdup(text);
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
  lc_buf_puts(&g->out, q);
  free(q);
}

static void write_test(gen *g, thr *th, int nthr) {
  const kp_options *o = g->o;
  new_line(g, g->kline);
  lc_buf_printf(&g->out, "PTX %s", g->kname);
  new_line(g, g->kline);
  lc_buf_printf(&g->out, "\"Kernel %s of %s, as compiled by %s", g->kname, g->src->name,
                o->compiler ? o->compiler : "the CUDA compiler");
  if (g->m.version_major) lc_buf_printf(&g->out, " %d.%d", g->m.version_major, g->m.version_minor);
  lc_buf_printf(&g->out, " for sm_%d (PTX entry %s), launched <<<dim3(%d, %d, %d), dim3(%d, %d, %d)>>>", o->sm, g->m.entry, g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2]);
  if (g->cluster[0] * g->cluster[1] * g->cluster[2] > 1)
    lc_buf_printf(&g->out, " in clusters of (%d, %d, %d)", g->cluster[0], g->cluster[1], g->cluster[2]);
  lc_buf_puts(&g->out, ": thread P(k) is global thread k = blockIdx * blockDim + threadIdx, in CTA blockIdx.\"");
  new_line(g, g->kline);
  lc_buf_puts(&g->out, "{");
  for (size_t i = 0; i < g->mems.n; i++) {
    mem *m = &g->mems.v[i];
    for (long e = 0; e < m->n; e++) {
      int64_t v = (size_t)e < m->ninit ? m->init[e] : 0;
      if (m->elem == 1 || m->elem == 2) v = norm(v, 8 * m->elem, m->sgn);   /* as access() keeps a narrow value */
      /* the compiler's own (assert's strings: $str, __unnamed_1) only when read */
      bool own = m->name[0] == '$' || !strncmp(m->name, "__unnamed", 9);
      if (!m->used[e] && (v == 0 || own)) continue;
      new_line(g, g->kline);
      if (e == 0) lc_buf_printf(&g->out, "%s=%lld;", m->name, (long long)v);
      else lc_buf_printf(&g->out, "%s[%ld]=%lld;", m->name, e, (long long)v);
    }
  }
  for (int k = 0; k < nthr; k++)
    for (size_t a = 0; a < g->asserts.n; a++) {
      new_line(g, g->asserts.v[a]);
      lc_buf_printf(&g->out, "P%d:r%d=1;", k, assert_reg(g, a));
    }
  new_line(g, g->kline);
  lc_buf_puts(&g->out, "}");
  new_line(g, g->kline);
  bool clusters = g->cluster[0] * g->cluster[1] * g->cluster[2] > 1;
  for (int k = 0; k < nthr; k++) {
    lc_buf_printf(&g->out, "%s P%d@cta %d,", k ? " |" : "", k, th[k].b);
    if (clusters) lc_buf_printf(&g->out, "cluster %d,", th[k].cluster_lin);
    lc_buf_puts(&g->out, "gpu 0");
  }
  lc_buf_puts(&g->out, " ;");
  /* row r holds each thread's r-th instruction, a cell a line (a row may
   * span lines), so that each line of the test stands at its instruction's
   * source line while the text grows with the threads times the longest
   * thread, not with its square */
  size_t nrows = 0;
  for (int k = 0; k < nthr; k++)
    if (th[k].rows.n > nrows) nrows = th[k].rows.n;
  if (nrows * (size_t)nthr > MAX_CELLS)
    FAIL(g, g->kline, "the test would have %zu rows of %d threads: more than %d cells", nrows, nthr, MAX_CELLS);
  for (size_t r = 0; r < nrows; r++)
    for (int k = 0; k < nthr; k++) {
      const row *w = r < th[k].rows.n ? &th[k].rows.v[r] : NULL;
      new_line(g, w ? w->line : g->kline);
      lc_buf_printf(&g->out, " %s %s", w ? w->text : "", k + 1 < nthr ? "|" : ";");
    }
  /* the memory map: every block's __shared__ variables */
  bool first = true;
  for (size_t i = 0; i < g->mems.n; i++) {
    mem *m = &g->mems.v[i];
    bool any = false;
    for (long e = 0; m->shared && e < m->n; e++) any |= m->used[e];
    for (long e = 0; m->shared && e < m->n; e++) {
      /* element 0 first, used or not: the map starts with a plain name */
      if (!m->used[e] && !(e == 0 && any)) continue;
      if (first) new_line(g, g->kline);
      if (e == 0) lc_buf_printf(&g->out, "%s%s: shared", first ? "" : ", ", m->name);
      else lc_buf_printf(&g->out, "%s%s[%ld]: shared", first ? "" : ", ", m->name, e);
      first = false;
    }
  }
  /* the question */
  if (g->filter.text) {
    new_line(g, g->filter.line);
    lc_buf_puts(&g->out, "filter (");
    question(g, g->filter.text);
    lc_buf_puts(&g->out, ")");
  }
  lc_buf asserts;
  lc_buf_init(&asserts);
  for (int k = 0; k < nthr; k++)
    for (size_t a = 0; a < g->asserts.n; a++)
      lc_buf_printf(&asserts, "%sP%d:r%d == 1", asserts.n ? " /\\ " : "", k, assert_reg(g, a));
  if (!g->output.text) {
    new_line(g, g->kline);
    lc_buf_puts(&g->out, "locations [");
    size_t nloc = 0;
    for (size_t i = 0; i < g->mems.n && nloc < 32; i++) {
      mem *m = &g->mems.v[i];
      if (m->sym >= 0) continue;
      for (long e = 0; e < m->n && nloc < 32; e++, nloc++) {
        if (e == 0) lc_buf_printf(&g->out, "%s%s", nloc ? "; " : "", m->name);
        else lc_buf_printf(&g->out, "; %s[%ld]", m->name, e);
      }
    }
    lc_buf_puts(&g->out, "]");
    new_line(g, g->kline);
    lc_buf_printf(&g->out, "forall (%s)", asserts.n ? asserts.s : "true");
  } else {
    new_line(g, g->output.line);
    const char *q = g->output.text;
    while (*q == ' ') q++;
    if (asserts.n) {
      if (strncmp(q, "forall", 6)) {
        lc_buf_fini(&asserts);
        FAIL(g, g->output.line, "kernel %s has assert(): ask a forall question (or none), the asserts join it", g->kname);
      }
      lc_buf_puts(&g->out, "forall ((");
      question(g, q + 6);
      lc_buf_printf(&g->out, ") /\\ %s)", asserts.s);
    } else {
      question(g, q);
    }
  }
  lc_buf_fini(&asserts);
  lc_buf_putc(&g->out, '\n');
}

/* The clusters of the launch: the kernel's __cluster_dims__ (.reqnctapercluster)
 * when the launch names none, as a <<<>>> launch of such a kernel runs in them; the
 * launch's `cluster(x, y, z)` when the kernel declares none, as the launch attribute
 * cudaLaunchAttributeClusterDimension gives them (the PTX is the same: what depends
 * on the cluster reads %cluster_* at run time); both must agree when both are given. */
static void cluster_dims(gen *g) {
  const int *rc = g->m.reqcluster;
  if (!rc[0]) return;
  bool launch = g->cluster[0] * g->cluster[1] * g->cluster[2] > 1;
  if (launch && (rc[0] != g->cluster[0] || rc[1] != g->cluster[1] || rc[2] != g->cluster[2]))
    FAIL(g, g->launch.line, "the launch's cluster (%d, %d, %d) is not the kernel's __cluster_dims__(%d, %d, %d)",
         g->cluster[0], g->cluster[1], g->cluster[2], rc[0], rc[1], rc[2]);
  for (int k = 0; k < 3; k++) {
    if (rc[k] < 1 || rc[k] > 16 || g->grid[k] % rc[k])
      FAIL(g, g->launch.line, "the grid (%d, %d, %d) is no multiple of the kernel's __cluster_dims__(%d, %d, %d)",
           g->grid[0], g->grid[1], g->grid[2], rc[0], rc[1], rc[2]);
    g->cluster[k] = rc[k];
  }
}

/* The grid's barrier (cooperative_groups' this_grid().sync(), CUDA's
 * cooperative_groups/details/sync.h and driver_abi.h) is PTX like any other:
 * the CTA's master thread adds to a barrier word with atom.add.release.gpu
 * and polls it with ld.acquire.gpu until its top bit flips, between two
 * bar.sync.  The word is in the driver's grid workspace, whose address
 * %envreg1:%envreg2 give (high, low), null unless the launch is cooperative
 * (then the kernel traps).  So %envreg2 is the address of an array of the
 * test, __grid_workspace = {wsSize, barrier}, %envreg1 its high half, 0; and
 * a kernel that reads them is taken to be launched cooperatively, as the
 * source-level reader takes a kernel that calls this_grid().sync()
 * (docs/kernels.md): every CTA resident from the start. */
static void grid_workspace(gen *g) {
  bool used = false;
  for (size_t i = 0; i < g->m.code.n && !used; i++)
    for (int k = 0; k < g->m.code.v[i].nops && !used; k++) used = strstr(g->m.code.v[i].ops[k], "%envreg") != NULL;
  if (!used) return;
  kp_sym w = {.name = "%envreg2", .shown = "__grid_workspace", .shared = false, .elem = 4, .size = 8};
  lc_vec_push(&g->m.syms, w);
  g->ws_sym = (int)g->m.syms.n - 1;
  g->cooperative = true;
}

/* where cooperative groups' grid barrier is (kp_grid.c), when the kernel uses the workspace */
static void grid_barriers(gen *g) {
  if (!g->lift_grid || g->ws_sym < 0) return;
  g->gseq = lc_arena_alloc(g->a, (g->m.code.n + 1) * sizeof *g->gseq);
  for (size_t i = 0; i < g->m.code.n; i++) {
    kp_grid_seq s;
    if (kp_grid_barrier_at(&g->m.code, i, &s)) g->gseq[i] = s;
  }
}

/* ---- entry points ------------------------------------------------------------------------------------ */

static void place(gen *g, thr *T, int k) {
  memset(T, 0, sizeof *T);
  T->g = g;
  T->k = k;
  T->b = k / g->nthreads;
  T->t = k % g->nthreads;
  T->tid[0] = T->t % g->block[0], T->tid[1] = T->t / g->block[0] % g->block[1];
  T->tid[2] = T->t / (g->block[0] * g->block[1]);
  T->ctaid[0] = T->b % g->grid[0], T->ctaid[1] = T->b / g->grid[0] % g->grid[1];
  T->ctaid[2] = T->b / (g->grid[0] * g->grid[1]);
  for (int d = 0; d < 3; d++) {
    T->clid[d] = T->ctaid[d] / g->cluster[d];
    T->cctaid[d] = T->ctaid[d] % g->cluster[d];
  }
  T->cta_rank = T->cctaid[0] + g->cluster[0] * (T->cctaid[1] + g->cluster[1] * T->cctaid[2]);
  T->ncluster_ctas = g->cluster[0] * g->cluster[1] * g->cluster[2];
  int ncl[3] = {g->grid[0] / g->cluster[0], g->grid[1] / g->cluster[1], g->grid[2] / g->cluster[2]};
  T->cluster_lin = T->clid[0] + ncl[0] * (T->clid[1] + ncl[1] * T->clid[2]);
}

static void thr_fini(thr *T) {
  free(T->nodes.v);
  free(T->work.v);
  free(T->rows.v);
}

typedef struct job {
  gen g;
  kp_err e;
  thr *th;
  int nth;
} job;

static void job_fini(job *J) {
  gen *g = &J->g;
  for (int k = 0; k < J->nth; k++) thr_fini(&J->th[k]);
  free(J->th);
  for (size_t k = 0; k < g->inputs.n; k++) free(g->inputs.v[k].values.v);
  free(g->inputs.v);
  free(g->params.v);
  free(g->mems.v);
  free(g->sets.v);
  free(g->asserts.v);
  lc_names_fini(&g->regs);
  kp_module_fini(&g->m);
  lc_buf_fini(&g->out);
  lc_vec_free(&g->line_of);
  lc_arena_free(g->a);
}

static bool translate(job *J, const lc_source *src, const char *ptx, const kp_options *o, lc_diag *d, bool spin_widen,
                      bool lift_grid) {
  memset(J, 0, sizeof *J);
  gen *g = &J->g;
  g->spin_widen = spin_widen;
  g->lift_grid = lift_grid;
  g->ws_sym = -1;
  g->e = &J->e;
  J->e.d = d;
  J->e.ptx_name = o->ptx_name ? o->ptx_name : "the PTX";
  J->e.file = src->name;
  g->src = src;
  g->o = o;
  g->a = lc_arena_new();
  g->m.a = g->a;
  lc_buf_init(&g->out);
  if (setjmp(J->e.fail)) return false;
  read_header(g);
  read_params(g);
  kp_ptx_read(&J->e, ptx, o->kernel ? o->kernel : g->kname, src->name, &g->m);
  if (o->fold_waits) kp_fold_waits(&g->m, o->unfolded);
  cluster_dims(g);
  grid_workspace(g);
  votes_of(g);
  make_mems(g);
  collect_regs(g);
  grid_barriers(g);
  J->nth = g->nblocks * g->nthreads;
  J->th = lc_xcalloc((size_t)J->nth, sizeof *J->th);
  live L;
  compute_live(g, &L);
  for (int k = 0; k < J->nth; k++) {
    place(g, &J->th[k], k);
    J->th[k].L = &L;
    run_thread(&J->th[k]);
  }
  write_test(g, J->th, J->nth);
  return true;
}

/* A spin loop whose head a thread reaches with a constant that keeps
 * changing - libcu++'s waits count 16 polls before they back off on the
 * clock (cuda::barrier::wait, memcpy_async's) - is widened after
 * WIDEN_SPIN states, not WIDEN: the counter becomes the test's and the
 * polls a loop bounded by --unroll, instead of 16 copies of the poll in
 * every waiting thread (a block-scope barrier's two waiters took minutes).
 * Widening loses nothing the test can express, but a constant the kernel
 * needs (an index: while (flag[i] == 0) in a loop over i) then cannot be
 * followed; such a kernel is read again with the plain bound.  And a
 * kernel with what looks like cooperative groups' grid barrier but is not
 * it in some thread (grid_barrier) is read again with its PTX as it is. */
static bool translate_widening(job *J, const lc_source *src, const char *ptx, const kp_options *o, lc_diag *d) {
  for (bool lift = true;; lift = false) {
    bool unlift = false;
    for (int widen = 1; widen >= 0 && !unlift; widen--) {
      lc_diag quiet;
      lc_diag_init(&quiet, src, NULL);
      bool ok = translate(J, src, ptx, o, &quiet, widen, lift);
      lc_diag_fini(&quiet);
      if (ok) return true;
      unlift = J->g.unlift;
      job_fini(J);
    }
    if (!unlift) return translate(J, src, ptx, o, d, false, lift);   /* the same error, said */
  }
}

char *kp_translate(const lc_source *src, const char *ptx, const kp_options *o, int **line_of, size_t *nlines,
                   lc_diag *d) {
  assert(src && src->text && ptx && o && d);
  job J;
  char *text = NULL;
  if (translate_widening(&J, src, ptx, o, d)) {
    text = lc_xstrdup(J.g.out.s);
    if (line_of) {
      *line_of = lc_xmalloc((J.g.line_of.n + 1) * sizeof **line_of);
      memcpy(*line_of, J.g.line_of.v, J.g.line_of.n * sizeof **line_of);
      *nlines = J.g.line_of.n;
    }
  }
  job_fini(&J);
  return text;
}

lt_test *kp_read(const lc_source *src, const char *ptx, const kp_options *o, lc_diag *d) {
  assert(src && src->text && src->name && ptx && o && d);
  job J;
  lt_test *t = NULL;
  if (translate_widening(&J, src, ptx, o, d)) {
    gen *g = &J.g;
    lc_source made = {src->name, g->out.s, g->out.n, g->line_of.v, g->line_of.n};
    t = lt_parse(&made, d);
    if (t && t->nthreads == (size_t)J.nth) {
      const char **labels = lc_arena_alloc(t->arena, t->nthreads * sizeof *labels);
      for (size_t k = 0; k < t->nthreads; k++) {
        char buf[64];
        snprintf(buf, sizeof buf, " (block %zu, thread %zu)", k / (size_t)g->nthreads, k % (size_t)g->nthreads);
        labels[k] = lc_arena_strdup(t->arena, buf);
      }
      t->thread_label = labels;
    }
    if (t) {   /* the arrays as the source-level reader declares them (kn_gen.c's init_entry) */
      const char **heads = lc_arena_alloc(t->arena, (g->mems.n + 1) * sizeof *heads);
      size_t nheads = 0;
      for (size_t i = 0; i < g->mems.n; i++) {
        const mem *m = &g->mems.v[i];
        const input *in = m->sym < 0 ? find_input(g, m->name) : NULL;
        if (m->shared || (m->sym < 0 ? !(in && (in->values.n > 1 || in->braces)) : m->n <= 1)) continue;
        heads[nheads++] = lc_arena_strdup(t->arena, m->name);   /* the job's arena goes */
      }
      t->array_heads = heads;
      t->narray_heads = nheads;
    }
    if (t) t->cooperative = g->cooperative;
  }
  job_fini(&J);
  return t;
}
