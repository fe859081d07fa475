/* engine-cost.c - rough sizes of each engine's work, per test, and the
 * work an engine does.
 * SPDX-License-Identifier: MIT
 *
 *   engine-cost [--unroll N] [--model M] FILE...
 *   engine-cost --work smt|enum [--unroll N] [--termination] FILE...
 *
 * The first form prints one line per test: the file, log2 of the explicit
 * engine's search space, log2 of the SMT encoding's size and the engine
 * auto picks (lc_engine_costs, lc_engine_choose); with --model M, then
 * the engine auto picks under model M (a name or a file), which counts
 * the model's cost too (lc_engine_choose_for).  scripts/calibrate-auto
 * sets these beside both engines' times.
 *
 * With --work it runs the engine on each test (ptx-v7.5, racy pairs
 * listed, no time limit) and prints: the file, the engine, the states,
 * the engine's checks (the explicit engine's nodes: every evaluation of
 * the model on a partial or complete choice; Z3's satisfiability checks)
 * and the engine's work: for smt, Z3's resource count ("rlimit count")
 * and its version; for enum, the values its evaluation of the model built
 * and the expressions its walks of the model visited, and "values".
 * None of these depends on the machine or its load: tests/cost-guard.sh
 * pins them.  A C++ test or kernel is checked under cuda-cpp.  With
 * --termination the termination question is asked too, as litmus-check
 * asks it (under OBE for a kernel), and the checks printed are the
 * listing's and the question's together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "check.h"
#include "progress.h"
#include "cli/cli.h"

static int one(const char *path, unsigned unroll, const cat_model *ptx, const cat_model *cpp, lc_engine engine,
               bool term, const cat_model *pick) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  lx_options lo = {unroll, LX_DEFAULT_MAX_PATHS, 0, false, 0, 0};
  cli_test t;
  int rc = 2;
  /* --work lowers as litmus-check does: spin retries left out where the
   * model allows it (lc_spin_reduce) */
  if (cli_test_read(&t, "engine-cost", path, ptx ? NULL : &lo, &d) == 0) {
    if (ptx) {
      const cat_model *m = t.test->cpp ? cpp : ptx;
      lc_check_options o;
      lc_check_options_init(&o);
      o.engine = engine;
      o.no_spin_reduce = getenv("LC_ALL_RETRIES") != NULL;
      t.prog = lx_lower_spin(t.test, &lo, lc_spin_reduce(m, &o), &d);
      if (!t.prog) {
        cli_print_messages(stderr, "engine-cost", path, &d);
        cli_test_fini(&t);
        lc_diag_fini(&d);
        return 2;
      }
      o.termination = term;
      if (term && t.test->thread_label) o.progress = 1u << LC_PROGRESS_OBE;
      lc_result *r = lc_check_lowered(t.test, t.prog, m, &o, lc_now(), &d);
      if (r->status == LC_RESULT_OK) {
        unsigned major, minor, build, rev;
        Z3_get_version(&major, &minor, &build, &rev);
        printf("%s %s %zu %zu", path, lc_engine_name(engine), r->nstates, r->solver_checks + r->termination_checks);
        if (engine == LC_ENGINE_SMT) printf(" %.0f z3-%u.%u.%u", r->solver_work, major, minor, build);
        else printf(" %.0f values", r->solver_work);
        printf("\n");
        rc = 0;
      } else {
        fprintf(stderr, "engine-cost: %s: %s\n", path, r->message ? r->message : "no verdict");
      }
      lc_result_free(r);
    } else {
      double e, s;
      lc_engine_costs(t.prog, &e, &s);
      printf("%s %.2f %.2f %s", path, e, s, lc_engine_name(lc_engine_choose(t.prog)));
      if (pick) printf(" %s", lc_engine_name(lc_engine_choose_for(t.prog, pick)));
      printf("\n");
      rc = 0;
    }
  } else {
    cli_print_messages(stderr, "engine-cost", path, &d);
  }
  cli_test_fini(&t);
  lc_diag_fini(&d);
  return rc;
}

int main(int argc, char **argv) {
  unsigned unroll = LX_DEFAULT_UNROLL;
  int i = 1, rc = 0;
  lc_engine engine = LC_ENGINE_AUTO;
  bool work = false, term = false;
  const char *model = NULL;
  for (; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--termination") == 0) {
      term = true;
      i--;
      continue;
    }
    if (strcmp(argv[i], "--unroll") == 0) unroll = (unsigned)atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--model") == 0) model = argv[i + 1];
    else if (strcmp(argv[i], "--work") == 0 && lc_engine_parse(argv[i + 1], &engine) == 0 &&
             engine != LC_ENGINE_AUTO)
      work = true;
    else break;
  }
  if (i >= argc || argv[i][0] == '-') {
    fprintf(stderr, "usage: engine-cost [--work smt|enum] [--unroll N] [--termination] [--model M] FILE...\n");
    return 2;
  }
  char **search = NULL;
  cat_model *m = NULL, *cpp = NULL;
  if (work) {
    search = lc_model_search(argv[0]);
    m = cli_model_load("engine-cost", search, "ptx-v7.5", NULL);
    cpp = m ? cli_model_load("engine-cost", search, "cuda-cpp", NULL) : NULL;
    if (!cpp) {
      cat_model_free(m);
      lc_model_search_free(search);
      return 2;
    }
  }
  cat_model *pick = NULL;
  if (model && !work) {
    search = lc_model_search(argv[0]);
    pick = cli_model_load("engine-cost", search, model, NULL);
    if (!pick) {
      lc_model_search_free(search);
      return 2;
    }
  }
  for (; i < argc; i++)
    if (one(argv[i], unroll, m, cpp, engine, term, pick)) rc = 2;
  cat_model_free(m);
  cat_model_free(cpp);
  cat_model_free(pick);
  lc_model_search_free(search);
  return rc;
}
