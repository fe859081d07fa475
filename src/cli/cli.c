/* cli.c - what the programs share around the library (cli.h).
 * SPDX-License-Identifier: MIT
 */
#include "cli/cli.h"

#include <errno.h>
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

int cli_models_load(cli_models *m, const char *program, const char *argv0, const char *name, bool given,
                    const char *const *settings) {
  m->search = lc_model_search(argv0);
  m->cpp = m->hopper = NULL;
  m->model = cli_model_load(program, m->search, name, given ? settings : NULL);
  if (m->model && !given) m->cpp = cli_model_load(program, m->search, "cuda-cpp", settings);
  if (m->model && !given) m->hopper = cli_model_load(program, m->search, "ptx-v8", NULL);
  return m->model && (given || (m->cpp && m->hopper)) ? 0 : -1;
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
