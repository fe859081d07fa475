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
    if (access(b.s, R_OK) == 0) dirs[n++] = lc_buf_take(&b);
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

lc_result *lc_check_test(const lt_test *t, const cat_model *m, const lc_check_options *o,
                         lx_program **prog, lc_diag *d) {
  lx_options lo = {o->unroll ? o->unroll : LX_DEFAULT_UNROLL, 4096};
  lx_program *p = lx_lower(t, &lo, d);
  *prog = p;
  if (!p) return NULL;
  if (o->engine == LC_ENGINE_ENUM) {
    enum_options eo = {o->timeout, o->races, false};
    return enum_check(p, m, &eo);
  }
  smt_options so = {o->timeout, o->races};
  return smt_check(p, m, &so);
}
