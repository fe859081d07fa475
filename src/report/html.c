/* html.c - a report of a suite for people who would rather look than
 * read: one page per test (states, verdict, explanations, pictures) and
 * an index.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/why.h"
#include "unroll_hint.h"

static const char style[] =
  "<style>body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;color:#222}"
  "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
  "pre{background:#f6f6f6;padding:8px;border:1px solid #ddd;overflow-x:auto}"
  ".forbidden{color:#b00}.allowed{color:#070}.pos{font-weight:bold}"
  "img{max-width:100%;border:1px solid #ddd;margin:4px 0}</style>\n";

static void escape(lc_buf *out, const char *s) {
  for (; *s; s++) {
    if (*s == '<') lc_buf_puts(out, "&lt;");
    else if (*s == '>') lc_buf_puts(out, "&gt;");
    else if (*s == '&') lc_buf_puts(out, "&amp;");
    else if (*s == '"') lc_buf_puts(out, "&quot;");
    else lc_buf_putc(out, *s);
  }
}

/* The test's name as a file name. */
void report_file_stem(lc_buf *out, const char *name) {
  for (; *name; name++)
    lc_buf_putc(out, isalnum((unsigned char)*name) || strchr("+-._", *name) ? *name : '_');
}

static void states_table(lc_buf *out, const lc_result *r) {
  const lx_program *p = r->prog;
  lc_buf_puts(out, "<h2>Allowed final states</h2>\n<table><tr>");
  for (size_t k = 0; k < r->nshown; k++) {
    lc_buf_puts(out, "<th>");
    escape(out, p->obs[k].label);
    lc_buf_puts(out, "</th>");
  }
  lc_buf_puts(out, "<th>condition</th></tr>\n");
  for (size_t i = 0; i < r->nstates; i++) {
    bool pos = lc_result_state_positive(r, i);
    lc_buf_printf(out, "<tr%s>", pos ? " class=\"pos\"" : "");
    for (size_t k = 0; k < r->nshown; k++) {
      lc_buf v;
      lc_buf_init(&v);
      lx_print_obs(&v, p, k, lc_result_state(r, i)[k]);
      lc_buf_printf(out, "<td>%s</td>", v.s);
      lc_buf_fini(&v);
    }
    lc_buf_printf(out, "<td>%s</td></tr>\n", pos ? "satisfied" : "");
  }
  lc_buf_puts(out, "</table>\n");
}

/* "allowed" or "forbidden by X" per explained state, for the index. */
static void summary(lc_buf *out, const lc_explain_result *x) {
  for (size_t i = 0; i < x->n; i++) {
    const lc_explanation *e = &x->ex[i];
    if (i) lc_buf_puts(out, "<br>");
    lc_buf b;
    lc_buf_init(&b);
    lc_state_print(&b, x->prog, &e->state);
    escape(out, b.s);
    lc_buf_fini(&b);
    if (e->kind == LC_EXPLAIN_ALLOWED) lc_buf_puts(out, " <span class=\"allowed\">allowed</span>");
    else if (e->kind == LC_EXPLAIN_NO_CANDIDATE) lc_buf_puts(out, " <span class=\"forbidden\">no candidate</span>");
    else if (e->kind == LC_EXPLAIN_ERROR) lc_buf_puts(out, " no explanation");
    else if (e->kind == LC_EXPLAIN_UNFINISHED) lc_buf_puts(out, " <span class=\"forbidden\">no execution finishes</span>");
    for (size_t r = 0; e->kind == LC_EXPLAIN_FORBIDDEN && r < e->nreasons; r++) {
      lc_buf_puts(out, r ? " or " : " <span class=\"forbidden\">forbidden by</span> ");
      for (size_t k = 0; k < e->reasons[r].n; k++) {
        lc_buf_puts(out, k ? " + " : "");
        escape(out, e->reasons[r].why[k].v.name);
      }
    }
  }
}

static int write_text(const char *path, const char *text, FILE *err) {
  FILE *f = fopen(path, "w");
  bool ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) fprintf(err, "litmus-check: cannot write '%s': %s\n", path, strerror(errno));
  return ok ? 0 : -1;
}

static void picture(lc_buf *out, const char *dir, const char *stem, const lc_explain_result *x, FILE *err) {
  lc_buf svg;
  lc_buf_init(&svg);
  lc_buf_printf(&svg, "%s/%s.svg", dir, stem);
  char *msg = NULL;
  size_t n = 0;
  int rc = report_graph_file(x, svg.s, &n, &msg);
  lc_buf_puts(out, "<h2>Executions</h2>\n");
  if (rc < 0) fprintf(err, "litmus-check: --html: %s\n", msg);
  else if (msg) lc_buf_printf(out, "<p>Graphviz is not installed: the pictures are in %s.dot or %s-N.dot.</p>\n", stem, stem);
  else if (n == 1) lc_buf_printf(out, "<p><img src=\"%s.svg\" alt=\"an execution of %s\"></p>\n", stem, stem);
  else
    for (size_t k = 1; k <= n; k++) lc_buf_printf(out, "<p><img src=\"%s-%zu.svg\" alt=\"execution %zu of %s\"></p>\n", stem, k, k, stem);
  free(msg);
  lc_buf_fini(&svg);
}

char *report_html_page(const char *dir, const char *name, const lc_explain_result *x, const lc_result *r,
                       FILE *err) {
  assert(dir && x && x->prog && r && err);
  const lt_test *t = x->prog->test;
  lc_buf stem, page, text, row;
  lc_buf_init(&stem), lc_buf_init(&page), lc_buf_init(&text), lc_buf_init(&row);
  if (name) lc_buf_puts(&stem, name);
  else report_file_stem(&stem, t->name);
  lc_verdict v = lc_result_verdict(r);
  lc_buf_puts(&page, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
  escape(&page, t->name);
  lc_buf_printf(&page, "</title>%s</head><body>\n<p><a href=\"index.html\">index</a></p>\n<h1>", style);
  escape(&page, t->name);
  lc_buf_printf(&page, "</h1>\n<p>Model %s, engine %s. ", r->model ? r->model : "", x->engine);
  report_condition(&text, t);
  escape(&page, text.s);
  lc_buf_printf(&page, ": <b>%s</b> (%s).</p>\n", v.unfinished ? "no verdict" : v.ok ? "Ok" : "No",
                report_observation(&v));
  if (v.unfinished) {
    text.n = 0, text.s[0] = '\0';
    lc_unfinished_text(&text, r);
    lc_buf_puts(&page, "<p class=\"forbidden\">");
    escape(&page, text.s);
    lc_buf_puts(&page, ".</p>\n");
  }
  if (t->doc && *t->doc) {
    /* the doc string as written, without its quotes */
    size_t n = strlen(t->doc), q = t->doc[0] == '"' && n > 1 && t->doc[n - 1] == '"';
    lc_buf doc;
    lc_buf_init(&doc);
    lc_buf_putn(&doc, t->doc + q, n - 2 * q);
    lc_buf_puts(&page, "<p><i>");
    escape(&page, doc.s);
    lc_buf_puts(&page, "</i></p>\n");
    lc_buf_fini(&doc);
  }
  states_table(&page, r);
  lc_buf_puts(&page, "<h2>Why</h2>\n<p>");
  summary(&page, x);
  lc_buf_puts(&page, "</p>\n<pre>");
  text.n = 0, text.s[0] = '\0';
  report_explain_text(&text, x);
  escape(&page, text.s);
  lc_buf_puts(&page, "</pre>\n");
  picture(&page, dir, stem.s, x, err);
  lc_buf_puts(&page, "</body></html>\n");
  lc_buf path;
  lc_buf_init(&path);
  lc_buf_printf(&path, "%s/%s.html", dir, stem.s);
  write_text(path.s, page.s, err);
  lc_buf_printf(&row, "<tr><td><a href=\"%s.html\">", stem.s);
  escape(&row, t->name);
  lc_buf_puts(&row, "</a></td><td>");
  escape(&row, r->model);
  lc_buf_printf(&row, "</td><td>%s</td><td>%s %s</td><td>", report_kind(t->quant),
                v.unfinished ? "no verdict" : v.ok ? "Ok" : "No",
                report_observation(&v));
  summary(&row, x);
  lc_buf_puts(&row, "</td></tr>\n");
  char *s = lc_buf_take(&row);
  lc_buf_fini(&path), lc_buf_fini(&stem), lc_buf_fini(&page), lc_buf_fini(&text), lc_buf_fini(&row);
  return s;
}

int report_html_index(const char *dir, char *const *rows, size_t n, FILE *err) {
  assert(dir && (rows || n == 0) && err);
  lc_buf page, path;
  lc_buf_init(&page), lc_buf_init(&path);
  /* each row names its model: C++ tests are checked under the C++ one */
  lc_buf_printf(&page, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>litmus-check</title>%s"
                       "</head><body>\n<h1>litmus-check</h1>\n<table>\n"
                       "<tr><th>test</th><th>model</th><th>kind</th><th>verdict</th>"
                       "<th>the condition's states</th></tr>\n",
                style);
  for (size_t i = 0; i < n; i++)
    if (rows[i]) lc_buf_puts(&page, rows[i]);
  lc_buf_puts(&page, "</table>\n</body></html>\n");
  lc_buf_printf(&path, "%s/index.html", dir);
  int rc = write_text(path.s, page.s, err);
  lc_buf_fini(&page), lc_buf_fini(&path);
  return rc;
}
