/* check.c - model search path, lowering and engine dispatch.
 * SPDX-License-Identifier: MIT
 */
#define _DEFAULT_SOURCE
#include "check.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "enum/enum.h"
#include "smt/smt.h"

void lc_check_options_init(lc_check_options *o) {
  memset(o, 0, sizeof *o);
  o->engine = LC_ENGINE_SMT;
  o->races = true;
}

const char *lc_engine_name(lc_engine e) {
  switch (e) {
  case LC_ENGINE_SMT: return "smt";
  case LC_ENGINE_ENUM: return "enum";
  case LC_ENGINE_AUTO: return "auto";
  }
  return "smt";
}

int lc_engine_parse(const char *s, lc_engine *e) {
  for (int i = 0; i <= LC_ENGINE_AUTO; i++)
    if (strcmp(s, lc_engine_name((lc_engine)i)) == 0) {
      *e = (lc_engine)i;
      return 0;
    }
  return -1;
}

/* The folder holding the running program: /proc/self/exe when there is
 * one (so `src/litmus-check` finds `models/` from any working directory),
 * else the folder part of argv[0]. */
static char *program_dir(const char *argv0) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) buf[n] = '\0';
  else if (argv0) snprintf(buf, sizeof buf, "%s", argv0);
  else return NULL;
  char *slash = strrchr(buf, '/');
  if (!slash) return lc_xstrdup(".");
  *slash = '\0';
  return lc_xstrdup(buf);
}

char **lc_model_search(const char *argv0) {
  char **dirs = lc_xcalloc(4, sizeof(char *));
  size_t n = 0;
  const char *env = getenv("LITMUS_MODELS");
  if (env && *env) dirs[n++] = lc_xstrdup(env);
  char *pd = program_dir(argv0);
  if (pd) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s/../models", pd);
    char real[PATH_MAX];
    if (access(b.s, R_OK) == 0) dirs[n++] = lc_xstrdup(realpath(b.s, real) ? real : b.s);
    lc_buf_fini(&b);
    free(pd);
  }
  dirs[n++] = lc_xstrdup(LC_MODELS_DIR);
  dirs[n] = NULL;
  return dirs;
}

void lc_model_search_free(char **dirs) {
  if (!dirs) return;
  for (char **d = dirs; *d; d++) free(*d);
  free(dirs);
}

/* The size of a test as the engines feel it: per thread, the most events
 * of a kind any one of its paths has, summed over threads. */
typedef struct test_size {
  size_t fence_sc;          /* fence.sc (and membar) events */
  size_t reads;
  size_t max_writes;        /* writes to the location written most */
} test_size;

static size_t path_count(const lx_program *p, const lx_path *path, int kind, int ploc) {
  size_t n = 0;
  for (size_t i = 0; i < path->nevents; i++) {
    const lx_event *e = &p->events[path->events[i]];
    if (kind == LX_EV_FENCE) n += e->kind == LX_EV_FENCE && lx_has(e, LX_T_SC);
    else n += (int)e->kind == kind && (ploc < 0 || e->ploc == ploc);
  }
  return n;
}

static size_t thread_max(const lx_program *p, const lx_thread *th, int kind, int ploc) {
  size_t most = 0;
  for (size_t k = 0; k < th->npaths; k++) {
    size_t n = path_count(p, &p->paths[th->paths[k]], kind, ploc);
    if (n > most) most = n;
  }
  return most;
}

static test_size measure(const lx_program *p) {
  test_size z = {0, 0, 0};
  for (size_t t = 0; t < p->nthreads; t++) {
    z.fence_sc += thread_max(p, &p->threads[t], LX_EV_FENCE, -1);
    z.reads += thread_max(p, &p->threads[t], LX_EV_READ, -1);
  }
  for (size_t l = 0; l < p->nplocs; l++) {
    size_t w = 0;
    for (size_t t = 0; t < p->nthreads; t++) w += thread_max(p, &p->threads[t], LX_EV_WRITE, (int)l);
    if (w > z.max_writes) z.max_writes = w;
  }
  return z;
}

/* --engine auto, from the measurements of scripts/bench-engines and of
 * the 10,000 random tests of scripts/crosscheck (README, "Two engines"):
 * the explicit engine is faster on the corpus, on nearly all random
 * tests and on the chain, IRIW and N-writers families, where the SMT
 * engine slows down with the number of states.  It loses where it must
 * enumerate many orders: six or more fence.sc (store-buffering rings), or
 * a location written five times or more read back four times or more
 * (partial co orders of racy writes). */
static lc_engine auto_engine(const lx_program *p) {
  test_size z = measure(p);
  if (z.fence_sc >= 6 || (z.max_writes >= 5 && z.reads >= 4)) return LC_ENGINE_SMT;
  return LC_ENGINE_ENUM;
}

lc_result *lc_check_test(const lt_test *t, const cat_model *m, const lc_check_options *o,
                         lx_program **prog, lc_diag *d) {
  lx_options lo = {o->unroll ? o->unroll : LX_DEFAULT_UNROLL, 4096};
  lx_program *p = lx_lower(t, &lo, d);
  *prog = p;
  if (!p) return NULL;
  lc_engine engine = o->engine == LC_ENGINE_AUTO ? auto_engine(p) : o->engine;
  if (engine == LC_ENGINE_ENUM) {
    enum_options eo = {o->timeout, o->races, false};
    return enum_check(p, m, &eo);
  }
  smt_options so = {o->timeout, o->races, o->threads};
  return smt_check(p, m, &so);
}
