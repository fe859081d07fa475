/* cli.c - what the programs share around the library (cli.h).
 * SPDX-License-Identifier: MIT
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Messages without a position (a model that is not found) name the
 * program, as command-line tools do.  A message about a model file keeps
 * its line but not its file name, which dies with the model (cat_load.c's
 * forget_files); its text still names both. */
void cli_print_messages(FILE *out, const char *program, const char *path, const lc_diag *d) {
  for (size_t i = 0; i < d->msgs.n; i++) {
    const lc_message *m = &d->msgs.v[i];
    if (m->loc.file || m->loc.line > 0) fprintf(out, "%s\n", m->text);
    else if (path) fprintf(out, "%s: %s: %s\n", program, path, m->text);
    else fprintf(out, "%s: %s\n", program, m->text);
  }
}

cat_model *cli_model_load(const char *program, char *const *search, const char *name,
                          const char *const *settings) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_set(name, (const char *const *)search, settings, &d);
  cli_print_messages(stderr, program, NULL, &d);
  lc_diag_fini(&d);
  return m;
}

static cat_model *shared_load(const char *program, char *const *search, const char *name,
                              const char *const *settings, bool *used) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cat_model *m = cat_load_shared(name, (const char *const *)search, settings, used, &d);
  cli_print_messages(stderr, program, NULL, &d);
  lc_diag_fini(&d);
  return m;
}

cli_dialect cli_model_dialect(const cat_model *m) {
  const char *name = cat_model_name(m);
  if (strstr(name, "C++") || strstr(name, "C11") || strstr(name, "cpp")) return CLI_DIALECT_CPP;
  if (strstr(name, "PTX") || strstr(name, "ptx")) return CLI_DIALECT_PTX;
  return CLI_DIALECT_ANY;
}

/* Without --model, --set goes to the model a test is checked under: the
 * C++ model's options and ptx-v8's (docs/hopper.md); each setting must
 * name an option of one of them.  The PTX default has none. */
int cli_models_load(cli_models *m, const char *program, const char *argv0, const char *name, bool given,
                    bool any_dialect, const char *const *settings) {
  m->search = lc_model_search(argv0);
  m->cpp = m->hopper = NULL;
  m->given = NULL;
  m->model = cli_model_load(program, m->search, name, given ? settings : NULL);
  if (!m->model) return -1;
  if (!given) {
    size_t n = 0;
    while (settings && settings[n]) n++;
    bool *cpp_used = lc_xcalloc(n + 1, sizeof *cpp_used), *hopper_used = lc_xcalloc(n + 1, sizeof *hopper_used);
    m->cpp = shared_load(program, m->search, "cuda-cpp", settings, cpp_used);
    if (m->cpp) m->hopper = shared_load(program, m->search, "ptx-v8", settings, hopper_used);
    int rc = m->cpp && m->hopper ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
      if (cpp_used[i] || hopper_used[i]) continue;
      const char *eq = strchr(settings[i], '=');
      if (eq) fprintf(stderr, "%s: error: --set %s: the model has no option '%.*s'\n", program, settings[i],
                      (int)(eq - settings[i]), settings[i]);
      else fprintf(stderr, "%s: error: --set %s: expected NAME=VALUE\n", program, settings[i]);
      rc = -1;
    }
    free(cpp_used);
    free(hopper_used);
    return rc;
  }
  m->given = m->model;
  cli_dialect dialect = any_dialect ? CLI_DIALECT_ANY : cli_model_dialect(m->model);
  if (dialect == CLI_DIALECT_PTX) {
    /* C++ tests keep cuda-cpp: a PTX model reads their events' C++ orders as nothing */
    m->cpp = cli_model_load(program, m->search, "cuda-cpp", NULL);
    return m->cpp ? 0 : -1;
  }
  if (dialect == CLI_DIALECT_CPP) {
    /* PTX tests keep ptx-v7.5 (ptx-v8 for Hopper instructions) */
    m->cpp = m->model;
    m->model = cli_model_load(program, m->search, "ptx-v7.5", NULL);
    m->hopper = cli_model_load(program, m->search, "ptx-v8", NULL);
    return m->model && m->hopper ? 0 : -1;
  }
  return 0;
}

bool cli_models_other_dialect(const cli_models *m, const lt_test *t) {
  if (!m->given || !t) return false;
  const cat_model *used = !t->cpp && m->hopper && lt_uses_hopper(t) ? m->hopper : t->cpp && m->cpp ? m->cpp : m->model;
  return used != m->given;
}

bool cli_models_other_dialect_file(const cli_models *m, const char *path) {
  if (!m->given || !m->cpp) return false;   /* the named model checks every test */
  FILE *f = fopen(path, "r");
  if (!f) return false;
  char word[8] = {0};
  int got = fscanf(f, " %7s", word);
  fclose(f);
  if (got != 1) return false;
  bool cpp = strcmp(word, "CUDA") == 0 || strcmp(word, "C") == 0 || strcmp(word, "C++") == 0;
  bool ptx = strcmp(word, "PTX") == 0;
  return (cpp && m->cpp != m->given) || (ptx && m->model != m->given);
}

void cli_models_fini(cli_models *m) {
  cat_model_free(m->model);
  cat_model_free(m->cpp);
  cat_model_free(m->hopper);
  lc_model_search_free(m->search);
  m->model = m->cpp = m->hopper = NULL;
  m->search = NULL;
}

int cli_test_read(cli_test *t, const char *program, const char *path, const lx_options *lo, lc_diag *d) {
  return cli_test_read_with(t, program, path, lo, NULL, d);
}

int cli_test_read_with(cli_test *t, const char *program, const char *path, const lx_options *lo,
                       const kn_options *ko, lc_diag *d) {
  memset(t, 0, sizeof *t);
  if (lc_source_read(&t->src, path) < 0) {
    /* kept in d for what reports it as data (JSON), and printed as
     * programs name a file they cannot open, not as an "error:" line */
    const char *why = strerror(errno);
    FILE *out = d->out;
    d->out = NULL;
    lc_error(d, (lc_loc){0}, "cannot read '%s': %s", path, why);
    d->out = out;
    fprintf(out ? out : stderr, "%s: cannot read '%s': %s\n", program, path, why);
    return -1;
  }
  t->read = true;
  d->src = &t->src;
  t->test = kn_is_kernel_path(path) ? kn_read(&t->src, ko, d) : lt_parse(&t->src, d);
  if (t->test && lo) t->prog = lx_lower(t->test, lo, d);
  return t->test && (!lo || t->prog) ? 0 : -1;
}

void cli_test_fini(cli_test *t) {
  lx_program_free(t->prog);
  lt_test_free(t->test);
  if (t->read) lc_source_fini(&t->src);
  memset(t, 0, sizeof *t);
}

int cli_finish(const char *program, int status) {
  if (fflush(stdout) != 0 && status == LC_EXIT_OK) {
    fprintf(stderr, "%s: write error: %s\n", program, strerror(errno));
    status = LC_EXIT_INTERNAL;
  }
  return status;
}
