/* compare_out.c - more forms of litmus-compare's table: CSV, the rates of
 * weak outcomes per hardware column, and one SVG plot per test.
 * SPDX-License-Identifier: MIT
 *
 * The SVG is written by hand: a bar chart is a few dozen elements, and a
 * plotting library (or gnuplot at run time) would be a dependency for
 * little.
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <errno.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/compare_out.h"
#include "atomic_file.h"

/* ---- CSV ------------------------------------------------------------------------- */

static void csv_field(lc_buf *out, const char *s) {
  bool quote = strpbrk(s, ",\"\n") != NULL;
  if (quote) lc_buf_putc(out, '"');
  for (; *s; s++) {
    if (*s == '"') lc_buf_putc(out, '"');
    lc_buf_putc(out, *s);
  }
  if (quote) lc_buf_putc(out, '"');
}

static const char *status_name(cmp_status s) {
  static const char *const names[] = {"", "allowed", "forbidden", "unexplored"};
  return names[s];
}

void cmp_print_csv(lc_buf *out, const cmp_table *t, bool only_differences) {
  assert(out && t);
  lc_buf_puts(out, "test,outcome,forbidden_seen");
  for (size_t c = 0; c < t->columns.n; c++) {
    lc_buf_putc(out, ',');
    lc_buf b;
    lc_buf_init(&b);
    /* the label, file, grid point and machine or model, as the table's header lines */
    lc_buf_printf(&b, "%s %s", t->columns.v[c].label, t->columns.v[c].path);
    if (t->columns.v[c].point) lc_buf_printf(&b, " (%s)", t->columns.v[c].point);   /* a campaign's grid point */
    lc_buf_printf(&b, ": %s", t->columns.v[c].desc ? t->columns.v[c].desc : "");
    csv_field(out, b.s);
    lc_buf_fini(&b);
  }
  lc_buf_putc(out, '\n');
  for (size_t i = 0; i < t->tests.n; i++) {
    const cmp_test *x = &t->tests.v[i];
    if (only_differences && !x->differs && !x->forbidden_seen) continue;
    for (size_t o = 0; o < x->outcomes.n; o++) {
      csv_field(out, x->key);
      lc_buf_putc(out, ',');
      csv_field(out, x->outcomes.v[o]);
      lc_buf_printf(out, ",%d", cmp_outcome_forbidden_seen(t, x, o) ? 1 : 0);
      for (size_t c = 0; c < t->columns.n; c++) {
        const cmp_cell *cell = cmp_cell_at(t, x, o, c);
        lc_buf_putc(out, ',');
        if (!cell->present) continue;
        if (t->columns.v[c].hardware) lc_buf_printf(out, "%" PRIu64, cell->count);
        else lc_buf_puts(out, status_name(cell->status));
      }
      lc_buf_putc(out, '\n');
    }
  }
}

/* ---- rates ------------------------------------------------------------------------- */

void cmp_rates_free(cmp_rates *r) {
  for (size_t i = 0; i < r->n; i++) free(r->v[i].key), free(r->v[i].column);
  lc_vec_free(r);
}

/* The runs of the hardware columns, column by column, each in the order read. */
int cmp_rates_load(cmp_rates *r, const cmp_table *t, lc_diag *d) {
  assert(r && t && d);
  for (size_t c = 0; c < t->columns.n; c++) {
    if (!t->columns.v[c].hardware) continue;
    for (size_t k = 0; k < t->runs.n; k++) {
      const cmp_run *run = &t->runs.v[k];
      if (run->col != c) continue;
      cmp_rate x = {lc_xstrdup(t->tests.v[run->test].key), lc_xstrdup(t->columns.v[c].label), run->instances,
                    run->weak, run->seconds};
      lc_vec_push(r, x);
    }
  }
  return 0;
}

static double per_second(const cmp_rate *x) { return x->seconds > 0 ? (double)x->weak / x->seconds : 0; }
static double per_million(const cmp_rate *x) { return x->instances ? (double)x->weak * 1e6 / (double)x->instances : 0; }

/* The text form's test and column fields are as wide as their longest
 * entry, so that long test names keep the numbers in line. */
void cmp_print_rates(lc_buf *out, const cmp_rates *r, bool csv) {
  assert(out && r);
  int wt = 32, wc = 6;
  for (size_t i = 0; i < r->n; i++) {
    if ((int)strlen(r->v[i].key) > wt) wt = (int)strlen(r->v[i].key);
    if ((int)strlen(r->v[i].column) > wc) wc = (int)strlen(r->v[i].column);
  }
  if (csv) lc_buf_puts(out, "test,column,instances,weak,seconds,weak_per_second,weak_per_million\n");
  else lc_buf_printf(out, "Weak outcomes (instances satisfying the condition)\n    %-*s %-*s %14s %12s %14s %14s\n",
                     wt, "test", wc, "column", "instances", "weak", "per second", "per million");
  for (size_t i = 0; i < r->n; i++) {
    const cmp_rate *x = &r->v[i];
    if (csv) {
      csv_field(out, x->key);
      lc_buf_printf(out, ",%s,%" PRIu64 ",%" PRIu64 ",%.6g,%.6g,%.6g\n", x->column, x->instances, x->weak, x->seconds,
                    per_second(x), per_million(x));
    } else {
      lc_buf_printf(out, "    %-*s %-*s %14" PRIu64 " %12" PRIu64 " %14.6g %14.6g\n", wt, x->key, wc, x->column,
                    x->instances, x->weak, per_second(x), per_million(x));
    }
  }
}

/* ---- SVG ---------------------------------------------------------------------------- */

static void xml_text(lc_buf *out, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': lc_buf_puts(out, "&lt;"); break;
    case '>': lc_buf_puts(out, "&gt;"); break;
    case '&': lc_buf_puts(out, "&amp;"); break;
    case '"': lc_buf_puts(out, "&quot;"); break;
    default: lc_buf_putc(out, *s);
    }
  }
}

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f"};

/* A column's line of the legend: label, results file (two runs on one
 * machine read alike without it), grid point, machine. */
static void legend_text(lc_buf *out, const cmp_column *col) {
  const char *slash = strrchr(col->path, '/');
  lc_buf_printf(out, "%s %s", col->label, slash ? slash + 1 : col->path);
  if (col->point) lc_buf_printf(out, " (%s)", col->point);
  lc_buf_printf(out, ": %s", col->desc ? col->desc : "");
}

/* Pixels a line of n characters takes at most in the sans-serif font:
 * no text metrics without a renderer, so the widest glyphs' advance
 * (0.7 em) bounds it; too wide costs blank space, too narrow clips. */
static size_t text_px(size_t n, size_t font) { return (n * font * 7 + 9) / 10; }

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

/* One test: for each outcome a group of bars, one per hardware column
 * that ran the test, the share of that column's instances; an outcome
 * seen that some model forbids is labelled in red with "!", the outcomes
 * satisfying the condition in bold.  A count too small to show on the
 * linear scale (under 2% of it) gets a bar of 3 pixels and its number
 * above it: rare weak outcomes are what a user looks for.  Under the axis,
 * a row per model column: allowed (a green check) or forbidden (a red
 * cross) for each outcome.  The legend names the columns that hold the
 * test, each in the colour it has in every plot.  The picture is as large
 * as its title, legend, rows and slanted outcome labels need. */
void cmp_svg_test(lc_buf *out, const cmp_table *t, const cmp_test *x) {
  assert(out && t && x);
  size_t nhw = 0, nmod = 0, legend = 0, label = 0;
  for (size_t c = 0; c < t->columns.n; c++) {
    if (!x->present[c]) continue;
    if (t->columns.v[c].hardware) nhw++;
    else nmod++;
    lc_buf b;
    lc_buf_init(&b);
    legend_text(&b, &t->columns.v[c]);
    legend = max_sz(legend, b.n + (t->columns.v[c].hardware ? 0 : 2));
    lc_buf_fini(&b);
  }
  for (size_t o = 0; o < x->outcomes.n; o++) label = max_sz(label, strlen(x->outcomes.v[o]) + 2);
  size_t n = x->outcomes.n, bar = 18, group = (nhw ? nhw : 1) * bar + 24, top = 40, plot = 200;
  size_t rows = nmod * 14, below = top + plot + 12 + rows;   /* where the outcome labels start */
  size_t nlegend = nhw + nmod + 1;                            /* and the line on bold labels */
  size_t title = strlen(x->name) + strlen(x->kind) + strlen(x->condition) + 3;
  /* labels slant at 40 degrees: cos 40 = 0.77 across, sin 40 = 0.64 down */
  size_t width = max_sz(max_sz(95 + n * group + text_px(max_sz(legend, 34), 11) + 10, 10 + text_px(title, 14) + 10),
                        60 + (n ? n - 1 : 0) * group + 12 + text_px(label, 11) * 77 / 100 + 10);
  size_t height = max_sz(max_sz(340, top + nlegend * 16 + 10), below + text_px(label, 11) * 64 / 100 + 20);
  lc_buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%zu\" height=\"%zu\" font-family=\"sans-serif\" "
                     "font-size=\"11\">\n", width, height);
  lc_buf_puts(out, "<title>");
  xml_text(out, x->name);
  lc_buf_puts(out, "</title>\n<text x=\"10\" y=\"20\" font-size=\"14\">");
  xml_text(out, x->name);
  lc_buf_puts(out, " ");
  xml_text(out, x->kind);
  lc_buf_puts(out, ": ");
  xml_text(out, x->condition);
  lc_buf_puts(out, "</text>\n");
  lc_buf_printf(out, "<line x1=\"60\" y1=\"%zu\" x2=\"%zu\" y2=\"%zu\" stroke=\"black\"/>\n", top + plot,
                60 + n * group, top + plot);
  for (int p = 0; p <= 4; p++)
    lc_buf_printf(out, "<text x=\"55\" y=\"%zu\" text-anchor=\"end\">%d%%</text>\n", top + plot - (size_t)p * plot / 4 + 4,
                  p * 25);
  size_t line = 0;   /* legend lines */
  for (size_t c = 0, h = 0, hw = 0; c < t->columns.n; c++) {
    if (!t->columns.v[c].hardware) continue;
    const char *colour = palette[hw++ % LC_ARRAY_LEN(palette)];   /* the column's colour in every plot */
    if (!x->present[c]) continue;
    uint64_t total = 0;
    for (size_t o = 0; o < n; o++) total += cmp_cell_at(t, x, o, c)->count;
    for (size_t o = 0; o < n; o++) {
      const cmp_cell *cell = cmp_cell_at(t, x, o, c);
      double share = total ? (double)cell->count / (double)total : 0;
      size_t hgt = (size_t)(share * (double)plot + 0.5), bx = 60 + o * group + 12 + h * bar;
      bool rare = cell->count && hgt < plot / 50;
      if (rare) hgt = 3;   /* seen at all: visible, and its count said */
      lc_buf_printf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"%zu\" height=\"%zu\" fill=\"%s\"><title>%s: %" PRIu64
                         "</title></rect>\n",
                    bx, top + plot - hgt, bar - 2, hgt, colour, t->columns.v[c].label, cell->count);
      if (rare)
        lc_buf_printf(out, "<text x=\"%zu\" y=\"%zu\" font-size=\"9\" text-anchor=\"middle\" fill=\"%s\">%" PRIu64
                           "</text>\n", bx + (bar - 2) / 2, top + plot - hgt - 3, colour, cell->count);
    }
    lc_buf_printf(out, "<rect x=\"%zu\" y=\"%zu\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", 80 + n * group,
                  top + line * 16, colour);
    lc_buf_printf(out, "<text x=\"%zu\" y=\"%zu\">", 95 + n * group, top + line * 16 + 9);
    lc_buf text;
    lc_buf_init(&text);
    legend_text(&text, &t->columns.v[c]);
    xml_text(out, text.s);
    lc_buf_fini(&text);
    lc_buf_puts(out, "</text>\n");
    h++, line++;
  }
  for (size_t c = 0, m = 0; c < t->columns.n; c++) {
    if (t->columns.v[c].hardware || !x->present[c]) continue;
    size_t y = top + plot + 16 + m * 14;
    lc_buf_printf(out, "<text x=\"55\" y=\"%zu\" text-anchor=\"end\">%s</text>\n", y, t->columns.v[c].label);
    for (size_t o = 0; o < n; o++) {
      bool allowed = cmp_cell_at(t, x, o, c)->status == CMP_ALLOWED;
      lc_buf_printf(out, "<text x=\"%zu\" y=\"%zu\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
                    60 + o * group + group / 2, y, allowed ? "green" : "red", allowed ? "\u2713" : "\u2717");
    }
    lc_buf_printf(out, "<text x=\"%zu\" y=\"%zu\">", 80 + n * group, top + line * 16 + 9);
    lc_buf text;
    lc_buf_init(&text);
    legend_text(&text, &t->columns.v[c]);
    lc_buf_puts(&text, " (\u2713 allowed, \u2717 forbidden)");
    xml_text(out, text.s);
    lc_buf_fini(&text);
    lc_buf_puts(out, "</text>\n");
    m++, line++;
  }
  lc_buf_printf(out, "<text x=\"%zu\" y=\"%zu\" font-weight=\"bold\">bold: the condition's outcomes</text>\n",
                80 + n * group, top + line * 16 + 9);
  for (size_t o = 0; o < n; o++) {
    bool bad = cmp_outcome_forbidden_seen(t, x, o);
    lc_buf_printf(out, "<text transform=\"translate(%zu,%zu) rotate(40)\"%s%s>%s", 60 + o * group + 12, below,
                  bad ? " fill=\"red\"" : "", x->positive[o] ? " font-weight=\"bold\"" : "", bad ? "! " : "");
    xml_text(out, x->outcomes.v[o]);
    lc_buf_puts(out, "</text>\n");
  }
  lc_buf_puts(out, "</svg>\n");
}

int cmp_write_svgs(const cmp_table *t, const char *dir, bool only_differences, lc_diag *d) {
  assert(t && dir && d);
  for (size_t i = 0; i < t->tests.n; i++) {
    const cmp_test *x = &t->tests.v[i];
    if (only_differences && !x->differs && !x->forbidden_seen) continue;
    lc_buf svg, path;
    lc_buf_init(&svg);
    lc_buf_init(&path);
    cmp_svg_test(&svg, t, x);
    const char *dot = strrchr(x->key, '.');
    lc_buf_printf(&path, "%s/%.*s.svg", dir, (int)(dot ? (size_t)(dot - x->key) : strlen(x->key)), x->key);
    /* a key with folders (gpu/MP+volatile.litmus): DIR/gpu/MP+volatile.svg */
    int rc = 0;
    for (char *p = path.s + strlen(dir) + 1; rc == 0 && (p = strchr(p, '/')) != NULL; p++) {
      *p = '\0';
      if (mkdir(path.s, 0777) < 0 && errno != EEXIST) {
        lc_error(d, (lc_loc){0}, "cannot create '%s': %s", path.s, strerror(errno));
        rc = -1;
      }
      *p = '/';
    }
    if (rc == 0) rc = lc_write_atomic(path.s, svg.s, svg.n, d);
    lc_buf_fini(&svg);
    lc_buf_fini(&path);
    if (rc < 0) return -1;
  }
  return 0;
}
