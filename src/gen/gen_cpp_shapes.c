/* gen_cpp_shapes.c - C++ litmus tests for checking mapping tables (gen_cpp_shapes.h).
 * SPDX-License-Identifier: MIT
 *
 * A shape is written as threads separated by `|`, each a list of accesses
 * separated by `;`: `Wx1` a store of 1 to x, `Rx` a load into the next
 * register, `Ux` a fetch_add of 1 (its old value into the next register),
 * `F` a fence.  Capital W and R are synchronising positions (relaxed,
 * release/acquire or seq_cst); lower-case `w` and `r` are data positions
 * (non-atomic or relaxed); a data read after a read of the same thread
 * happens only when that read saw the value the condition asks for (as in
 * herd's C tests), so that a non-atomic read races only where the
 * synchronisation fails.  Each test takes one memory order per access and
 * one of three scope variants: device scope across CTAs, block scope in
 * one CTA, block scope across CTAs (where synchronisation fails and data
 * accesses race).  The numbering of tests is fixed: test k of a shape is
 * the k-th combination, the last access varying fastest.
 */
#include "gen/gen_cpp_shapes.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "lc.h"

typedef struct shape {
  const char *name;
  const char *code;
  const char *cond;
} shape;

static const shape shapes[] = {
  {"MP", "wx1;Wy1|Ry;rx", "1:r0 == 1 /\\ 1:r1 == 0"},
  {"SB", "Wx1;Ry|Wy1;Rx", "0:r0 == 0 /\\ 1:r0 == 0"},
  {"LB", "Rx;Wy1|Ry;Wx1", "0:r0 == 1 /\\ 1:r0 == 1"},
  {"IRIW", "Wx1|Wy1|Rx;Ry|Ry;Rx", "2:r0 == 1 /\\ 2:r1 == 0 /\\ 3:r0 == 1 /\\ 3:r1 == 0"},
  {"WRC", "Wx1|Rx;Wy1|Ry;Rx", "1:r0 == 1 /\\ 2:r0 == 1 /\\ 2:r1 == 0"},
  {"ISA2", "wx1;Wy1|Ry;Wz1|Rz;rx", "1:r0 == 1 /\\ 2:r0 == 1 /\\ 2:r1 == 0"},
  {"2+2W", "Wx1;Wy2|Wy1;Wx2", "x == 1 /\\ y == 1"},
  {"R", "Wx1;Wy1|Wy2;Rx", "y == 2 /\\ 1:r0 == 0"},
  {"S", "Wx2;Wy1|Ry;Wx1", "x == 2 /\\ 1:r0 == 1"},
  {"RWC", "Wx1|Rx;Ry|Wy1;Rx", "1:r0 == 1 /\\ 1:r1 == 0 /\\ 2:r0 == 0"},
  {"Z6.0", "Wx1;Wy1|Ry;Wz1|Wz2;Rx", "1:r0 == 1 /\\ z == 2 /\\ 2:r0 == 0"},
  {"Z6.1", "Wx2;Wy1|Wy2;Wz1|Rz;Wx1", "x == 2 /\\ y == 2 /\\ 2:r0 == 1"},
  {"Z6.2", "Wx1;Wy1|Ry;Wz1|Rz;Wx2", "1:r0 == 1 /\\ 2:r0 == 1 /\\ x == 1"},
  {"Z6.3", "Wx1;Wy1|Wy2;Wz1|Rz;Rx", "y == 2 /\\ 2:r0 == 1 /\\ 2:r1 == 0"},
  {"MP+F", "wx1;F;Wy1|Ry;F;rx", "1:r0 == 1 /\\ 1:r1 == 0"},
  {"SB+F", "Wx1;F;Ry|Wy1;F;Rx", "0:r0 == 0 /\\ 1:r0 == 0"},
  {"MP+RMW", "wx1;Uy|Ry;rx", "0:r0 == 0 /\\ 1:r0 == 1 /\\ 1:r1 == 0"},
  {"SB+RMW", "Ux;Ry|Uy;Rx", "0:r1 == 0 /\\ 1:r1 == 0"},
  /* release sequences: through another thread's RMW (ASPLOS'19 Fig. 12),
   * through a later store of the releasing thread (RC11 only), with fences */
  {"RS+RMW", "wx1;Wy1|Uy|Ry;rx", "1:r0 == 1 /\\ 2:r0 == 2 /\\ 2:r1 == 0"},
  {"RS+po", "wx1;Wy1;Wy2|Ry;rx", "1:r0 == 2 /\\ 1:r1 == 0"},
  {"RS+F", "wx1;F;Wy1|Uy|Ry;F;rx", "1:r0 == 1 /\\ 2:r0 == 2 /\\ 2:r1 == 0"},
  /* the head of the release sequence is an RMW (seq_cst: fence.sc;
   * atom.acquire in the ABI), continued by a later store of its thread */
  {"RS+RMW+po", "wx1;Uy;Wy2|Ry;rx", "0:r0 == 0 /\\ 1:r0 == 2 /\\ 1:r1 == 0"},
};

enum { NSCOPES = 3 };
static const char *const scope_tag[NSCOPES] = {"dev", "cta", "cta-x"};

/* Orders of each kind of position, as written in the test and in names. */
static const char *const store_mo[] = {"relaxed", "release", "seq_cst"};
static const char *const load_mo[] = {"relaxed", "acquire", "seq_cst"};
static const char *const data_mo[] = {"na", "relaxed"};
static const char *const rmw_mo[] = {"relaxed", "acquire", "release", "acq_rel", "seq_cst"};
static const char *const fence_mo[] = {"acquire", "release", "acq_rel", "seq_cst"};
static const char *short_mo(const char *mo) {
  return !strcmp(mo, "relaxed") ? "rlx" : !strcmp(mo, "acquire") ? "acq" : !strcmp(mo, "release") ? "rel"
       : !strcmp(mo, "seq_cst") ? "sc" : mo;
}

static size_t choices(char kind, const char *const **mo) {
  switch (kind) {
  case 'W': *mo = store_mo; return LC_ARRAY_LEN(store_mo);
  case 'R': *mo = load_mo; return LC_ARRAY_LEN(load_mo);
  case 'w': case 'r': *mo = data_mo; return LC_ARRAY_LEN(data_mo);
  case 'U': *mo = rmw_mo; return LC_ARRAY_LEN(rmw_mo);
  default: *mo = fence_mo; return LC_ARRAY_LEN(fence_mo);
  }
}

/* The access positions of a shape, in order (threads' `|` skipped). */
static size_t positions(const shape *s, char *kinds, size_t max) {
  size_t n = 0;
  for (const char *p = s->code; *p && n < max; p++)
    if (strchr("WRwrUF", *p) && (p == s->code || p[-1] == ';' || p[-1] == '|')) kinds[n++] = *p;
  return n;
}

static uint64_t shape_tests(const shape *s) {
  char kinds[32];
  size_t n = positions(s, kinds, sizeof kinds);
  uint64_t total = NSCOPES;
  for (size_t i = 0; i < n; i++) {
    const char *const *mo;
    total *= choices(kinds[i], &mo);
  }
  return total;
}

/* ---- writing one test ------------------------------------------------------------ */

static void locations(const shape *s, char locs[8]) {
  size_t n = 0;
  memset(locs, 0, 8);
  for (const char *p = s->code; *p; p++)
    if (strchr("WRwrU", *p) && p[1] >= 'x' && p[1] <= 'z' && !strchr(locs, p[1]) && n < 7) locs[n++] = p[1];
}

/* The value the condition asks register r<reg> of thread `thread` to have,
 * or -1 when it names none. */
static int wanted(const shape *s, int thread, int reg) {
  char key[32];
  snprintf(key, sizeof key, "%d:r%d == ", thread, reg);
  const char *p = strstr(s->cond, key);
  return p ? atoi(p + strlen(key)) : -1;
}

static void access(lc_buf *b, const shape *s, int thread, char kind, char loc, int value, const char *mo,
                   const char *scope, int *reg) {
  bool na = !strcmp(mo, "na");
  int guard = kind == 'r' && *reg > 0 ? wanted(s, thread, *reg - 1) : -1;
  if (guard >= 0) {
    int r = (*reg)++;
    lc_buf_printf(b, "    int r%d = -1;\n    if (r%d == %d) {\n    ", r, r - 1, guard);
    if (na) lc_buf_printf(b, "    r%d = *%c;\n", r, loc);
    else lc_buf_printf(b, "    r%d = atomic_load_explicit(%c, memory_order_%s, %s);\n", r, loc, mo, scope);
    lc_buf_puts(b, "    }\n");
    return;
  }
  switch (kind) {
  case 'W': case 'w':
    if (na) lc_buf_printf(b, "    *%c = %d;\n", loc, value);
    else lc_buf_printf(b, "    atomic_store_explicit(%c, %d, memory_order_%s, %s);\n", loc, value, mo, scope);
    break;
  case 'R': case 'r':
    if (na) lc_buf_printf(b, "    int r%d = *%c;\n", (*reg)++, loc);
    else lc_buf_printf(b, "    int r%d = atomic_load_explicit(%c, memory_order_%s, %s);\n", (*reg)++, loc, mo, scope);
    break;
  case 'U':
    lc_buf_printf(b, "    int r%d = atomic_fetch_add_explicit(%c, 1, memory_order_%s, %s);\n", (*reg)++,
                  loc, mo, scope);
    break;
  default:
    lc_buf_printf(b, "    atomic_thread_fence(memory_order_%s, %s);\n", mo, scope);
  }
}

static void write_test(lc_buf *b, lc_buf *name, const shape *s, int variant, const size_t *pick) {
  char locs[8];
  locations(s, locs);
  const char *scope = variant == 0 ? "thread_scope_device" : "thread_scope_block";
  lc_buf_printf(name, "%s", s->name);
  lc_buf body;
  lc_buf_init(&body);
  int thread = 0, reg = 0;
  size_t pos = 0;
  const char *p = s->code;
  char params[64] = "";
  for (size_t i = 0; locs[i]; i++)
    snprintf(params + strlen(params), sizeof params - strlen(params), "%sint* %c", i ? ", " : "", locs[i]);
  lc_buf_printf(&body, "P0@cta 0,gpu 0 (%s) {\n", params);
  while (*p) {
    if (*p == '|') {
      thread++;
      reg = 0;
      lc_buf_printf(&body, "}\n\nP%d@cta %d,gpu 0 (%s) {\n", thread, variant == 1 ? 0 : thread, params);
      p++;
      continue;
    }
    if (*p == ';') { p++; continue; }
    char kind = *p++, loc = 0;
    int value = 0;
    if (kind != 'F') loc = *p++;
    if (kind == 'W' || kind == 'w') value = *p++ - '0';
    const char *const *mo;
    choices(kind, &mo);
    access(&body, s, thread, kind, loc, value, mo[pick[pos]], scope, &reg);
    lc_buf_printf(name, "%s%s", pos ? "." : "+", short_mo(mo[pick[pos]]));
    pos++;
  }
  lc_buf_printf(name, "+%s", scope_tag[variant]);
  lc_buf_printf(b, "CUDA %s\n\"Generated by litmus-gen --cpp: shape %s, %s.\"\n{\n", name->s, s->name,
                variant == 0 ? "device scope, threads in different CTAs"
                : variant == 1 ? "block scope, threads in one CTA"
                               : "block scope, threads in different CTAs");
  for (size_t i = 0; locs[i]; i++) lc_buf_printf(b, "    %c = 0;\n", locs[i]);
  lc_buf_printf(b, "}\n\n%s}\n\nexists (%s)\n", body.s, s->cond);
  lc_buf_fini(&body);
}

/* ---- enumeration and sampling ------------------------------------------------------------ */

static bool selected(const char *list, const char *name) {
  if (!list) return true;
  size_t n = strlen(name);
  for (const char *p = list; p && *p;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    if (len == n && !memcmp(p, name, n)) return true;
    p = c ? c + 1 : NULL;
  }
  return false;
}

static const char *unknown_shape(const char *list) {
  for (const char *p = list; p && *p;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    bool found = false;
    for (size_t i = 0; i < LC_ARRAY_LEN(shapes); i++)
      found |= strlen(shapes[i].name) == len && !memcmp(shapes[i].name, p, len);
    if (!found) return p;
    p = c ? c + 1 : NULL;
  }
  return NULL;
}

uint64_t gen_cpp_shape_count(const char *list) {
  uint64_t n = 0;
  for (size_t i = 0; i < LC_ARRAY_LEN(shapes); i++)
    if (selected(list, shapes[i].name)) n += shape_tests(&shapes[i]);
  return n;
}

const char *gen_cpp_shape_names(void) {
  return "MP SB LB IRIW WRC ISA2 2+2W R S RWC Z6.0 Z6.1 Z6.2 Z6.3 MP+F SB+F MP+RMW SB+RMW "
         "RS+RMW RS+po RS+F RS+RMW+po";
}

static uint64_t next_random(uint64_t *s) {   /* splitmix64: portable and seedable */
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* A set of `count` indices below n chosen with the seed (Floyd). */
static unsigned char *sample(uint64_t n, uint64_t count, uint64_t seed) {
  unsigned char *in = lc_xcalloc(n / 8 + 1, 1);
  uint64_t s = seed;
  if (count >= n) { memset(in, 0xff, n / 8 + 1); return in; }
  for (uint64_t j = n - count; j < n; j++) {
    uint64_t t = next_random(&s) % (j + 1);
    if (in[t / 8] & (1u << (t % 8))) t = j;
    in[t / 8] |= (unsigned char)(1u << (t % 8));
  }
  return in;
}

static int emit_shape(const shape *s, uint64_t *index, const unsigned char *in, gen_cpp_emit emit,
                      void *arg) {
  char kinds[32];
  size_t n = positions(s, kinds, sizeof kinds), pick[32] = {0}, radix[32];
  for (size_t i = 0; i < n; i++) {
    const char *const *mo;
    radix[i] = choices(kinds[i], &mo);
  }
  for (int variant = 0; variant < NSCOPES; variant++) {
    memset(pick, 0, sizeof pick);
    for (bool more = true; more; (*index)++) {
      if (!in || (in[*index / 8] & (1u << (*index % 8)))) {
        lc_buf b, name;
        lc_buf_init(&b);
        lc_buf_init(&name);
        write_test(&b, &name, s, variant, pick);
        int rc = emit(name.s, b.s, arg);
        lc_buf_fini(&b);
        lc_buf_fini(&name);
        if (rc) return rc;
      }
      size_t i = n;
      while (i > 0 && ++pick[i - 1] == radix[i - 1]) pick[--i] = 0;
      more = i > 0;
    }
  }
  return 0;
}

int gen_cpp_shapes(const gen_cpp_options *o, gen_cpp_emit emit, void *arg, const char **bad) {
  assert(o && emit && bad);
  *bad = unknown_shape(o->shapes);
  if (*bad) return -1;
  uint64_t total = gen_cpp_shape_count(o->shapes), index = 0;
  unsigned char *in = o->count ? sample(total, o->count, o->seed) : NULL;
  int rc = 0;
  for (size_t i = 0; i < LC_ARRAY_LEN(shapes) && rc == 0; i++)
    if (selected(o->shapes, shapes[i].name)) rc = emit_shape(&shapes[i], &index, in, emit, arg);
  free(in);
  return rc;
}
