/* via.c - litmus-check --via nvcc|nvrtc: a kernel file compiled by the CUDA
 * compiler, its PTX read back as the PTX test of its launch (via.h,
 * src/kptx/, docs/via-nvcc.md).
 * SPDX-License-Identifier: MIT
 */
#include "cli/via.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuda/cuda.h"
#include "report/report.h"
#include "exec/exec.h"
#include "kernel/kernel.h"
#include "kptx/kptx.h"
#include "map/map_cc.h"

/* The options both compilers take: line information (the .loc lines that
 * map PTX back to the source) and each -D. */
static const char **compiler_options(const kn_options *ko, size_t *n) {
  size_t nd = ko ? ko->ndefines : 0;
  const char **v = lc_xcalloc(nd + 2, sizeof *v);
  *n = 0;
  v[(*n)++] = "-lineinfo";
  for (size_t i = 0; i < nd; i++) {
    char *o = lc_xmalloc(strlen(ko->defines[i]) + 3);
    sprintf(o, "-D%s", ko->defines[i]);
    v[(*n)++] = o;
  }
  return v;
}

static void options_free(const char **v, size_t n) {
  for (size_t i = 1; i < n; i++) free((char *)v[i]);
  free(v);
}

/* A wait of libcu++ left as written (kp_wait.c says why) may make a thread
 * more paths than lowering follows; that error names the test's thread,
 * this one the wait's PTX and source lines, as every error of the route
 * does.  True when it was so (the error given in d). */
static bool unfolded_too_many(const lt_test *t, const lx_options *trial, const kp_unfolded *u, const char *ptx_name,
                              lc_diag *d) {
  lc_diag quiet;
  lc_diag_init(&quiet, d->src, NULL);
  lx_program *p = lx_lower(t, trial, &quiet);
  const char *e = p ? NULL : lc_diag_first_error(&quiet);
  bool paths = e && strstr(e, "paths through its branches and loops");
  if (paths)
    lc_error(d, (lc_loc){d->src ? d->src->name : NULL, u->src_line > 0 ? u->src_line : 1, 1},
             "%s line %d (source line %d): a blocking wait (libcu++'s polls of one word) is read poll by poll, not as "
             "one spin loop (%s, PTX line %d): more than %zu paths through a thread's branches and loops; lower "
             "--unroll (docs/via-nvcc.md, \"Blocking waits\")",
             ptx_name, u->ptx_line, u->src_line, u->why, u->at_ptx_line, trial->max_paths);
  lx_program_free(p);
  lc_diag_fini(&quiet);
  return paths;
}

int cli_via_read(cli_test *t, const char *program, const char *path, const lx_options *lo, const kn_options *ko,
                 const char *via, int sm, bool fold_waits, const lx_options *trial, lc_diag *d) {
  memset(t, 0, sizeof *t);
  if (lc_source_read(&t->src, path) < 0) {
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
  char buf[4096];
  const char *nvcc = strcmp(via, "nvrtc") ? map_nvcc_path(buf, sizeof buf) : NULL;
  size_t nopts;
  const char **opts = compiler_options(ko, &nopts);
  char *ptx = NULL;
  /* the compiler's messages name its own files: reported without a position */
  const lc_source *src = d->src;
  d->src = NULL;
  int rc = nvcc ? map_nvcc_ptx_file(nvcc, path, sm, opts, nopts, &ptx, d)
                : cu_nvrtc_kernel_ptx(t->src.text, path, sm, opts, nopts, &ptx, d);
  d->src = src;
  options_free(opts, nopts);
  if (rc == 0) {
    kp_options o = {ko ? ko->kernel : NULL, ko ? ko->launch : NULL, ko ? ko->input : NULL, ko ? ko->output : NULL,
                    nvcc ? "nvcc" : "NVRTC", sm, nvcc ? "nvcc's PTX" : "NVRTC's PTX", fold_waits, NULL};
    kp_unfolded left = {0};
    o.unfolded = &left;
    t->test = kp_read(&t->src, ptx, &o, d);
    if (t->test && left.ptx_line && trial && unfolded_too_many(t->test, trial, &left, o.ptx_name, d)) {
      lt_test_free(t->test);
      t->test = NULL;
    }
  }
  free(ptx);
  if (t->test && lo) t->prog = lx_lower(t->test, lo, d);
  return t->test && (!lo || t->prog) ? 0 : -1;
}

void via_level(lc_buf *out, const lt_test *t, const char *model) {
  const char *doc = t->doc ? t->doc : "";
  const char *a = strstr(doc, "as compiled by ");
  const char *e = a ? strstr(a, " (PTX entry") : NULL;
  if (a && e) lc_buf_printf(out, "Level: PTX as compiled by %.*s, checked under %s\n", (int)(e - a - 15), a + 15, model);
  else lc_buf_printf(out, "Level: PTX, checked under %s\n", model);
}

/* The states of the block that starts in text: each line after `States N`,
 * its locations only (registers differ between the levels: a C++ local is
 * a register of its own in PTX), made one string each. */
typedef LC_VEC(char *) str_vec;

static void block_states(const char *text, str_vec *v) {
  const char *p = strstr(text, "\nStates ");
  if (!p && !strncmp(text, "States ", 7)) p = text - 1;
  if (!p) return;
  long n = strtol(p + 8, NULL, 10);
  p = strchr(p + 1, '\n');
  for (long k = 0; k < n && p; k++) {
    const char *s = p + 1, *e = strchr(s, '\n');
    if (!e) e = s + strlen(s);
    lc_buf b;
    lc_buf_init(&b);
    for (const char *q = s; q < e;) {
      while (q < e && *q == ' ') q++;
      const char *te = memchr(q, ';', (size_t)(e - q));
      if (!te) te = e;
      if (te > q && !memchr(q, ':', (size_t)(te - q))) {
        /* element 0: x[0] at source level (as the question names it), x in PTX */
        const char *z = memchr(q, '[', (size_t)(te - q));
        if (z && te - z > 3 && !memcmp(z, "[0]=", 4)) lc_buf_printf(&b, "%.*s%.*s; ", (int)(z - q), q, (int)(te - z - 3), z + 3);
        else lc_buf_printf(&b, "%.*s; ", (int)(te - q), q);
      }
      q = te < e ? te + 1 : e;
    }
    while (b.n >= 2 && b.s[b.n - 1] == ' ' && b.s[b.n - 2] == ';') b.s[b.n -= 2] = '\0';
    lc_vec_push(v, lc_xstrdup(b.s ? b.s : ""));
    lc_buf_fini(&b);
    p = *e ? e : NULL;
  }
}

static bool in_vec(const str_vec *v, const char *s) {
  for (size_t i = 0; i < v->n; i++)
    if (!strcmp(v->v[i], s)) return true;
  return false;
}

/* The source-level test's states under cuda-cpp without its no-thin-air
 * axiom (RC11's acyclic(po | rf), which PTX does not have): the outcomes
 * that only load buffering gives. */
static void lb_states(const lt_test *t, char *const *search, const lc_check_options *co, str_vec *v) {
  const char *settings[] = {"no-thin-air=off", NULL};
  cat_model *m = t ? cli_model_load("litmus-check", search, "cuda-cpp", settings) : NULL;
  if (!m) return;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lx_program *prog = NULL;
  lc_check_options o = *co;
  o.termination = false;
  o.progress = 0;
  lc_result *r = lc_check_test(t, m, &o, &prog, &d);
  if (r && r->status == LC_RESULT_OK) {
    lc_buf b;
    lc_buf_init(&b);
    report_text(&b, r);
    block_states(b.s, v);
    lc_buf_fini(&b);
  }
  lc_result_free(r);
  lx_program_free(prog);
  lc_diag_fini(&d);
  cat_model_free(m);
}

void via_compare(lc_buf *out, size_t source_end, const lt_test *src, char *const *search,
                 const lc_check_options *co) {
  char *text = lc_xstrndup(out->s, source_end);
  str_vec a = {0}, b = {0}, lb = {0};
  block_states(text, &a);
  block_states(out->s + source_end, &b);
  size_t findings = 0, by_design = 0, strengthened = 0, undefined = 0;
  bool lb_read = false;
  /* a source with undefined behaviour (a data race at the C++ level) has
   * no outcomes C++ promises: what the compiled kernel adds is the
   * behaviour's, not the compiler's */
  bool ub = strstr(text, "\nFlag undefined-behaviour") != NULL;
  for (size_t i = 0; i < b.n; i++) {
    if (in_vec(&a, b.v[i]) || !b.v[i][0]) continue;
    bool dup = false;
    for (size_t k = 0; k < i; k++) dup |= !strcmp(b.v[k], b.v[i]);
    if (dup) continue;
    if (!lb_read) lb_states(src, search, co, &lb), lb_read = true;
    if (in_vec(&lb, b.v[i])) {
      lc_buf_printf(out, "Models differ: the compiled kernel allows %s, which cuda-cpp forbids by its no-thin-air "
                         "axiom alone (load buffering: PTX allows it by design, --set no-thin-air=off allows it "
                         "in C++); not a compiler fault\n", b.v[i]);
      by_design++;
    } else if (ub) {
      lc_buf_printf(out, "Undefined behaviour: the compiled kernel allows %s, which the source's outcomes do not "
                         "include; the source's undefined behaviour (flagged above) allows anything, so this is "
                         "no compiler fault\n", b.v[i]);
      undefined++;
    } else {
      lc_buf_printf(out, "Compilation finding: the compiled kernel allows %s, which the source (cuda-cpp) does "
                         "not\n", b.v[i]);
      findings++;
    }
  }
  for (size_t i = 0; i < a.n; i++)
    if (!in_vec(&b, a.v[i]) && a.v[i][0]) strengthened++;
  if (!findings && !by_design && !undefined)
    lc_buf_printf(out, "Compiled: no outcome beyond the source's%s\n",
                  strengthened ? " (the compiled kernel allows fewer: the compiler strengthened it)" : "");
  else if (undefined)
    lc_buf_printf(out, "Compiled: %zu compilation finding%s, %zu outcome%s of load buffering, %zu of the source's "
                       "undefined behaviour\n", findings, findings == 1 ? "" : "s", by_design,
                  by_design == 1 ? "" : "s", undefined);
  else
    lc_buf_printf(out, "Compiled: %zu compilation finding%s, %zu outcome%s of load buffering\n", findings,
                  findings == 1 ? "" : "s", by_design, by_design == 1 ? "" : "s");
  str_vec *all[] = {&a, &b, &lb};
  for (size_t k = 0; k < 3; k++) {
    for (size_t i = 0; i < all[k]->n; i++) free(all[k]->v[i]);
    free(all[k]->v);
  }
  free(text);
}
