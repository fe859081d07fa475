/* graph.c - executions as Graphviz pictures, after herd7's: one column
 * per thread, program order downwards, rf red, co blue, fr orange, the
 * Fence-SC order and barriers green; boxes for each CTA, cluster (when it
 * holds several CTAs) and GPU; the edges of the violated check drawn
 * thick, with a check's own pair in purple.
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE   /* posix_spawnp's environ */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/show.h"
#include "report/why.h"

extern char **environ;

/* ---- one execution -------------------------------------------------------------------- */

typedef struct picture {
  lc_buf *out;
  const lx_program *p;
  const lc_witness *w;
  const lc_violation *v;    /* NULL for an allowed execution */
  size_t k;                 /* its number in the file */
  size_t only;              /* the one execution drawn, or SIZE_MAX: all */
  const lc_edge *extra;     /* --show: the model's named relations, drawn thin */
  const bool *extra_both;   /* per extra edge: its relation is symmetric (one arrow, both ways) */
  size_t nextra;
} picture;

static void dot_escape(lc_buf *out, const char *s) {
  for (; *s; s++) {
    if (*s == '\n') {
      lc_buf_puts(out, "\\n");
      continue;
    }
    if (*s == '"' || *s == '\\') lc_buf_putc(out, '\\');
    lc_buf_putc(out, *s);
  }
}

static void node(const picture *g, int ev, const char *indent) {
  lc_buf b;
  lc_buf_init(&b);
  report_event_name(&b, g->p, ev);
  lc_buf_puts(&b, ": ");
  report_event_effect(&b, g->p, g->w, ev);
  if (g->p->events[ev].thread >= 0) {
    lc_buf_puts(&b, "\n");
    report_event_instr(&b, g->p, ev);
  }
  lc_buf_printf(g->out, "%sx%zu_e%d [label=\"", indent, g->k, ev);
  dot_escape(g->out, b.s);
  lc_buf_printf(g->out, "\"%s];\n", g->p->events[ev].thread < 0 ? ", fontsize=9, fontcolor=gray30" : "");
  lc_buf_fini(&b);
}

static void thread_box(const picture *g, size_t t, const char *indent) {
  const lx_path *path = &g->p->paths[g->w->paths[t]];
  lc_buf_printf(g->out, "%ssubgraph cluster_x%zu_t%zu {\n%s  label=\"P%d\"; style=invis;\n", indent, g->k, t,
                indent, g->p->threads[t].id);
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "%s  ", indent);
  for (size_t i = 0; i < path->nevents; i++) node(g, path->events[i], b.s);
  lc_buf_fini(&b);
  lc_buf_printf(g->out, "%s}\n", indent);
}

static bool cluster_has_two_ctas(const lx_program *p, int cluster) {
  int cta = -1;
  for (size_t t = 0; t < p->nthreads; t++)
    if (p->threads[t].cluster == cluster) {
      if (cta >= 0 && p->threads[t].cta != cta) return true;
      cta = p->threads[t].cta;
    }
  return false;
}

/* Is thread t the first with its value of the field (a box opens)? */
static bool first_with(const lx_program *p, size_t t, int which) {
  for (size_t u = 0; u < t; u++) {
    const lx_thread *a = &p->threads[u], *b = &p->threads[t];
    int x = which == 0 ? a->gpu : which == 1 ? a->cluster : a->cta;
    int y = which == 0 ? b->gpu : which == 1 ? b->cluster : b->cta;
    if (x == y && (which == 0 || a->gpu == b->gpu)) return false;
  }
  return true;
}

static void ctas(const picture *g, int gpu, int cluster, const char *indent) {
  const lx_program *p = g->p;
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_thread *th = &p->threads[t];
    if (th->gpu != gpu || th->cluster != cluster || !first_with(p, t, 2)) continue;
    lc_buf_printf(g->out, "%ssubgraph cluster_x%zu_cta%zu {\n%s  label=\"CTA %d\"; style=rounded; color=gray60;\n",
                  indent, g->k, t, indent, th->cta);
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s  ", indent);
    for (size_t u = 0; u < p->nthreads; u++)
      if (p->threads[u].gpu == gpu && p->threads[u].cta == th->cta) thread_box(g, u, b.s);
    lc_buf_fini(&b);
    lc_buf_printf(g->out, "%s}\n", indent);
  }
}

static void boxes(const picture *g) {
  const lx_program *p = g->p;
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_thread *th = &p->threads[t];
    if (!first_with(p, t, 0)) continue;
    lc_buf_printf(g->out, "    subgraph cluster_x%zu_gpu%zu {\n      label=\"GPU %d\"; style=solid; color=gray40;\n",
                  g->k, t, th->gpu);
    for (size_t u = 0; u < p->nthreads; u++) {
      const lx_thread *c = &p->threads[u];
      if (c->gpu != th->gpu || !first_with(p, u, 1)) continue;
      if (!cluster_has_two_ctas(p, c->cluster)) {
        ctas(g, c->gpu, c->cluster, "      ");
        continue;
      }
      lc_buf_printf(g->out, "      subgraph cluster_x%zu_cl%zu {\n        label=\"cluster %d\"; style=dashed;\n",
                    g->k, u, c->cluster);
      ctas(g, c->gpu, c->cluster, "        ");
      lc_buf_puts(g->out, "      }\n");
    }
    lc_buf_puts(g->out, "    }\n");
  }
}

static const char *const colors[LC_NBASE] = {"black", "red", "blue", "#ffa040", "purple", "darkgreen", "darkgreen",
                                             "indigo", "indigo", "indigo"};

/* Is (from, to, rel) an edge of the builtins the violation's derivation
 * comes down to? */
static bool hot(const picture *g, int from, int to, const char *rel) {
  for (size_t i = 0; g->v && i < g->v->nleaves; i++) {
    const lc_edge *e = &g->v->leaves[i];
    if (e->from == from && e->to == to && strcmp(e->rel, rel) == 0) return true;
  }
  return false;
}

static bool is_base(const char *rel) {
  for (size_t r = 0; r < LC_NBASE; r++)
    if (strcmp(rel, lc_base_names[r]) == 0) return true;
  return false;
}

typedef LC_VEC(lc_edge) edge_vec;

/* An edge of the model's relations in the violation: the check's own
 * (thick) or a step of a let's derivation (dashed), one per pair of
 * events (cause, ppcb and cause_base of one pair: the first drawn). */
static void model_edge(const picture *g, const lc_edge *e, bool own, edge_vec *drawn) {
  for (size_t i = 0; i < drawn->n; i++)
    if (drawn->v[i].from == e->from && drawn->v[i].to == e->to) return;
  lc_vec_push(drawn, *e);
  lc_buf_printf(g->out, "    x%zu_e%d -> x%zu_e%d [label=\"", g->k, e->from, g->k, e->to);
  dot_escape(g->out, e->rel);
  lc_buf_printf(g->out, "%s\", color=purple, fontcolor=purple, %s, constraint=false];\n", e->inverse ? "^-1" : "",
                own ? "penwidth=3" : "style=dashed");
}

static void edge(const picture *g, int a, int b, size_t rel, bool constrain) {
  bool h = hot(g, a, b, lc_base_names[rel]);
  lc_buf_printf(g->out, "    x%zu_e%d -> x%zu_e%d [label=\"%s\", color=\"%s\", fontcolor=\"%s\"%s%s%s];\n", g->k, a,
                g->k, b, lc_base_names[rel], colors[rel], colors[rel], constrain ? ", weight=10" : ", constraint=false",
                h ? ", penwidth=3" : "", rel == 6 ? ", style=dashed" : "");
}

/* Immediate steps only (herd draws po and co that way), fr from each
 * read to the co-successors of its source that are immediate. */
static rel_rel *steps(const rel_rel *r) {
  rel_rel *two = rel_seq(r, r), *s = rel_copy(r);
  rel_diff_into(s, two);
  rel_free(two);
  return s;
}

static void edges(const picture *g, rel_rel *base[LC_NBASE]) {
  rel_rel *po = steps(base[0]), *co = steps(base[2]), *fr = rel_copy(base[3]);
  rel_rel *none = rel_new(g->p->nevents);   /* dependencies: drawn only when in a violation */
  rel_rel *shown[LC_NBASE] = {po, base[1], co, fr, base[4], steps(base[5]), base[6], none, none, none};
  /* fr to a write co-after the first one it reaches is implied: dropped */
  rel_rel *frco = rel_seq(fr, base[2]);
  rel_diff_into(fr, frco);
  rel_free(frco);
  for (size_t r = 0; r < LC_NBASE; r++)
    for (size_t a = 0; a < g->p->nevents; a++)
      for (size_t b = 0; b < g->p->nevents; b++)
        if (rel_has(shown[r], a, b) || (rel_has(base[r], a, b) && hot(g, (int)a, (int)b, lc_base_names[r])))
          edge(g, (int)a, (int)b, r, r == 0);
  edge_vec drawn = {0};
  for (size_t i = 0; g->v && i < g->v->nedges; i++)
    if (!is_base(g->v->edges[i].rel) || g->v->edges[i].inverse) model_edge(g, &g->v->edges[i], true, &drawn);
  for (size_t i = 0; g->v && i < g->v->nlines; i++)
    for (size_t k = 0; k < g->v->lines[i].nsteps; k++) {
      const lc_edge *e = &g->v->lines[i].steps[k];
      if (e->line >= 0 || !is_base(e->rel)) model_edge(g, e, false, &drawn);
    }
  for (size_t i = 0; g->v && i < g->v->nleaves; i++)
    if (!is_base(g->v->leaves[i].rel)) model_edge(g, &g->v->leaves[i], true, &drawn);
  lc_vec_free(&drawn);
  for (size_t i = 0; i < g->nextra; i++)
    lc_buf_printf(g->out, "    x%zu_e%d -> x%zu_e%d [label=\"%s\", color=purple, fontcolor=purple, style=dotted, "
                  "constraint=false%s];\n", g->k, g->extra[i].from, g->k, g->extra[i].to, g->extra[i].rel,
                  g->extra_both[i] ? ", dir=both" : "");
  rel_free(po), rel_free(co), rel_free(fr), rel_free(shown[5]), rel_free(none);
}

/* Initial writes are drawn when some rf, co or fr edge has them. */
static bool init_used(rel_rel *base[LC_NBASE], const lx_program *p, size_t ev) {
  for (size_t r = 1; r < 4; r++)
    for (size_t b = 0; b < p->nevents; b++)
      if (rel_has(base[r], ev, b) || rel_has(base[r], b, ev)) return true;
  return false;
}

/* The initial writes drawn above the threads' first events, which are
 * side by side in thread order. */
static void init_above(const picture *g, rel_rel *base[LC_NBASE]) {
  const lx_program *p = g->p;
  int prev = -1;
  lc_buf_puts(g->out, "  { rank=same;");
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[g->w->paths[t]];
    if (path->nevents) lc_buf_printf(g->out, " x%zu_e%d;", g->k, path->events[0]);
  }
  lc_buf_puts(g->out, " }\n");
  for (size_t t = 0; t < p->nthreads; t++) {
    const lx_path *path = &p->paths[g->w->paths[t]];
    if (!path->nevents) continue;
    if (prev >= 0) lc_buf_printf(g->out, "  x%zu_e%d -> x%zu_e%d [style=invis];\n", g->k, prev, g->k, path->events[0]);
    prev = path->events[0];
    for (size_t ev = 0; ev < p->ninit; ev++)
      if (init_used(base, p, ev))
        lc_buf_printf(g->out, "  x%zu_e%zu -> x%zu_e%d [style=invis];\n", g->k, ev, g->k, path->events[0]);
  }
}

static void draw(picture *g, const char *title) {
  if (g->only != SIZE_MAX && g->only != g->k) {
    g->k++;
    return;
  }
  lc_buf_puts(g->out, "digraph \"");
  dot_escape(g->out, g->p->test->name);
  lc_buf_printf(g->out, " %zu\" {\n  graph [fontname=\"Helvetica\", newrank=true, nodesep=0.5, ranksep=0.45, "
                        "labelloc=t, labeljust=l, fontsize=12, label=\"", g->k + 1);
  dot_escape(g->out, title);
  lc_buf_puts(g->out, "\"];\n  node [shape=none, fontname=\"Helvetica\", fontsize=11, margin=0.02];\n"
                      "  edge [fontname=\"Helvetica\", fontsize=10, arrowsize=0.7];\n");
  rel_rel *base[LC_NBASE];
  lc_witness_base(g->p, g->w, base);
  for (size_t ev = 0; ev < g->p->ninit; ev++)
    if (init_used(base, g->p, ev)) node(g, (int)ev, "    ");
  boxes(g);
  init_above(g, base);
  edges(g, base);
  for (size_t i = 0; i < LC_NBASE; i++) rel_free(base[i]);
  lc_buf_puts(g->out, "}\n");
  g->k++;
}

size_t report_explain_dot(lc_buf *out, const lc_explain_result *x, size_t only) {
  assert(out && x && x->prog);
  const lx_program *p = x->prog;
  picture g = {out, p, NULL, NULL, 0, only, NULL, NULL, 0};
  for (size_t i = 0; i < x->n; i++) {
    const lc_explanation *e = &x->ex[i];
    lc_buf t;
    lc_buf_init(&t);
    lc_state_print(&t, p, &e->state);
    size_t len = t.n;
    if (e->witness) {
      g.w = e->witness, g.v = NULL;
      lc_buf_puts(&t, "  allowed");
      draw(&g, t.s);
    }
    for (size_t r = 0; r < e->nreasons; r++)
      for (size_t k = 0; k < e->reasons[r].n; k++) {
        g.w = e->reasons[r].why[k].w, g.v = &e->reasons[r].why[k].v;
        t.n = len, t.s[len] = '\0';
        lc_buf_printf(&t, "  forbidden: %s fails here", g.v->name);
        draw(&g, t.s);
      }
    lc_buf_fini(&t);
  }
  for (size_t i = 0; i < x->nraces; i++) {
    if (!x->races[i].w) continue;
    g.w = x->races[i].w, g.v = NULL;
    lc_buf t;
    lc_buf_init(&t);
    lc_buf_printf(&t, "%s: ", x->races[i].flag);
    report_event_name(&t, p, x->races[i].a);
    lc_buf_puts(&t, " / ");
    report_event_name(&t, p, x->races[i].b);
    draw(&g, t.s);
    lc_buf_fini(&t);
  }
  return g.k;
}

/* ---- --show: every allowed execution ------------------------------------------------------ */

/* The pairs of the relations shown in execution k, as edges. */
static lc_edge *show_edges(const lc_show_result *s, size_t k, size_t *n, bool **both) {
  LC_VEC(lc_edge) v = {0};
  LC_VEC(bool) sym = {0};
  for (size_t i = 0; i < s->nrels; i++) {
    const rel_rel *r = s->ex[k].rels[i];
    bool twice = report_show_symmetric(r);
    for (size_t a = 0; a < r->n; a++)
      for (size_t b = twice ? a : 0; b < r->n; b++)
        if (rel_has(r, a, b)) {
          lc_edge e = {(int)a, (int)b, s->rel_names[i], false, NULL, -1};
          lc_vec_push(&v, e);
          lc_vec_push(&sym, twice && a != b);
        }
  }
  *n = v.n;
  *both = sym.v;
  return v.v;
}

static void show_dot(lc_buf *out, const lc_show_result *s, size_t k) {
  lc_buf t;
  lc_buf_init(&t);
  lc_state st;
  lc_state_of_values(s->prog, s->ex[k].w->obs, &st);
  lc_buf_printf(&t, "execution %zu of %zu%s: ", k + 1, s->count, s->count > s->n ? " (some not shown)" : "");
  lc_state_print(&t, s->prog, &st);
  lc_state_fini(&st);
  picture g = {out, s->prog, s->ex[k].w, NULL, k, SIZE_MAX, NULL, NULL, 0};
  bool *both = NULL;
  lc_edge *e = show_edges(s, k, &g.nextra, &both);
  g.extra = e;
  g.extra_both = both;
  draw(&g, t.s);
  free(e);
  free(both);
  lc_buf_fini(&t);
}

/* ---- Graphviz ---------------------------------------------------------------------------- */

static bool on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path) return false;
  for (const char *s = path; *s;) {
    size_t n = strcspn(s, ":");
    char buf[4096];
    if (n && n + strlen(prog) + 2 < sizeof buf) {
      memcpy(buf, s, n);
      snprintf(buf + n, sizeof buf - n, "/%s", prog);
      if (access(buf, X_OK) == 0) return true;
    }
    s += n + (s[n] == ':');
  }
  return false;
}

int report_dot_to_svg(const char *dot_path, const char *svg_path, char **msg) {
  return report_dot_render(dot_path, svg_path, "svg", msg);
}

const char *report_graph_format(const char *path) {
  static const char *const formats[] = {"dot", "svg", "png", "pdf"};
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/')) return NULL;
  for (size_t i = 0; i < LC_ARRAY_LEN(formats); i++)
    if (strcmp(dot + 1, formats[i]) == 0) return formats[i];
  return NULL;
}

int report_dot_render(const char *dot_path, const char *out_path, const char *format, char **msg) {
  assert(dot_path && out_path && format && msg);
  if (!on_path("dot")) return 1;
  char flag[16];
  snprintf(flag, sizeof flag, "-T%s", format);
  char *argv[] = {"dot", flag, "-o", (char *)out_path, (char *)dot_path, NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "dot", NULL, NULL, argv, environ), status = 0;
  lc_buf b;
  lc_buf_init(&b);
  if (rc != 0) lc_buf_printf(&b, "cannot run dot: %s", strerror(rc));
  else if (waitpid(pid, &status, 0) < 0) lc_buf_printf(&b, "dot: %s", strerror(errno));
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) lc_buf_printf(&b, "dot failed on %s", dot_path);
  if (!b.n) {
    lc_buf_fini(&b);
    return 0;
  }
  *msg = lc_buf_take(&b);
  lc_buf_fini(&b);
  return -1;
}

static int write_file(const char *path, const char *text, char **msg) {
  FILE *f = fopen(path, "w");
  bool ok = f && fputs(text, f) >= 0;
  if (f && fclose(f) != 0) ok = false;
  if (ok) return 0;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "cannot write '%s': %s", path, strerror(errno));
  *msg = lc_buf_take(&b);
  lc_buf_fini(&b);
  return -1;
}

/* Execution k (of n) goes to STEM.EXT when it is the only one, else to
 * STEM-k.EXT, counting from 1. */
static void numbered(lc_buf *b, const char *stem, size_t k, size_t n, const char *ext) {
  if (n == 1) lc_buf_printf(b, "%s.%s", stem, ext);
  else lc_buf_printf(b, "%s-%zu.%s", stem, k + 1, ext);
}

static int write_dots(const char *path, size_t n, void (*one)(lc_buf *out, const void *x, size_t k), const void *x,
                      char **msg);

static void show_one(lc_buf *out, const void *x, size_t k) { show_dot(out, x, k); }

int report_show_graph(const lc_show_result *s, const char *path, char **msg) {
  assert(s && path && msg);
  return write_dots(path, s->n, show_one, s, msg);
}

/* Execution k of x drawn by one() into PATH (one) or STEM-k.EXT, each
 * DOT file rendered to PATH's format beside it, as report_graph_file. */
static int write_dots(const char *path, size_t n, void (*one)(lc_buf *out, const void *x, size_t k), const void *x,
                      char **msg) {
  const char *format = report_graph_format(path);
  if (!format) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "'%s' does not end in .dot, .svg, .png or .pdf", path);
    *msg = lc_buf_take(&b);
    lc_buf_fini(&b);
    return -1;
  }
  bool render = strcmp(format, "dot") != 0;
  char *stem = lc_xstrdup(path);
  stem[strlen(path) - 4] = '\0';
  int rc = 0;
  bool no_dot = false;
  for (size_t k = 0; k < n && rc == 0; k++) {
    lc_buf text, dpath, spath;
    lc_buf_init(&text), lc_buf_init(&dpath), lc_buf_init(&spath);
    one(&text, x, k);
    numbered(&dpath, stem, k, n, "dot");
    numbered(&spath, stem, k, n, format);
    rc = write_file(dpath.s, text.s, msg);
    if (rc == 0 && render) rc = report_dot_render(dpath.s, spath.s, format, msg);
    if (rc == 1) {   /* no dot: the other executions' DOT files all the same */
      no_dot = true;
      render = false;
      rc = 0;
    }
    lc_buf_fini(&text), lc_buf_fini(&dpath), lc_buf_fini(&spath);
  }
  if (rc == 0 && no_dot) *msg = lc_xstrdup("Graphviz's dot is not installed: wrote DOT files only");
  free(stem);
  return rc;
}

static void explain_one(lc_buf *out, const void *x, size_t k) { report_explain_dot(out, x, k); }

/* One DOT file per execution (Graphviz 2.43 corrupts memory on files of
 * several graphs, and loses edges when executions share one graph). */
int report_graph_file(const lc_explain_result *x, const char *path, size_t *n, char **msg) {
  assert(x && path && n && msg);
  *n = 0;
  if (report_graph_format(path)) {   /* else write_dots refuses the name */
    lc_buf scratch;
    lc_buf_init(&scratch);
    *n = report_explain_dot(&scratch, x, SIZE_MAX - 1);
    lc_buf_fini(&scratch);
  }
  return write_dots(path, *n, explain_one, x, msg);
}
