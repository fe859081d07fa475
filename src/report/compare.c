/* compare.c - results files side by side.
 * SPDX-License-Identifier: MIT
 *
 * Loading records (test, column, outcome, count, status) entries; the
 * outcome-by-column matrix of each test is built once every file is in,
 * since a later file may add both columns and outcomes.
 */
#define _GNU_SOURCE   /* getline */
#include "report/compare.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
  size_t col, outcome;
  uint64_t count;
  cmp_status status;
  bool positive;            /* hardware: the outcome satisfies the proposition */
} entry;

/* What loading gathers per test (parallel to cmp_table.tests), until
 * cmp_finish builds the matrices. */
typedef struct pending {
  LC_VEC(entry) entries;
  LC_VEC(size_t) cols;
  LC_VEC(char *) verdicts;   /* parallel to cols */
  LC_VEC(const char *) models; /* parallel to cols: the model named (a model column's string), or NULL */
} pending;

typedef LC_VEC(pending) pending_vec;

void cmp_init(cmp_table *t) {
  assert(t);
  memset(t, 0, sizeof *t);
  t->match = CMP_MATCH_TAIL;
}

static void free_test(cmp_test *x, size_t ncols) {
  free(x->key);
  free(x->path);
  free(x->name);
  free(x->kind);
  free(x->condition);
  for (size_t i = 0; i < x->outcomes.n; i++) free(x->outcomes.v[i]);
  lc_vec_free(&x->outcomes);
  free(x->cells);
  free(x->positive);
  free(x->unfinished);
  free(x->model);
  free(x->present);
  for (size_t c = 0; x->verdict && c < ncols; c++) free(x->verdict[c]);
  free(x->verdict);
}

static void free_pending(cmp_table *t);

void cmp_fini(cmp_table *t) {
  free_pending(t);
  for (size_t i = 0; i < t->tests.n; i++) free_test(&t->tests.v[i], t->columns.n);
  lc_vec_free(&t->tests);
  lc_vec_free(&t->runs);
  for (size_t c = 0; c < t->columns.n; c++) {
    free(t->columns.v[c].path);
    free(t->columns.v[c].label);
    free(t->columns.v[c].desc);
    free(t->columns.v[c].point);
    for (size_t k = 0; k < t->columns.v[c].models.n; k++) free(t->columns.v[c].models.v[k]);
    lc_vec_free(&t->columns.v[c].models);
    lc_vec_free(&t->columns.v[c].model_runs);
    free(t->columns.v[c].engine);
  }
  lc_vec_free(&t->columns);
  free(t->clash);
  for (size_t i = 0; i < t->roots.n; i++) free(t->roots.v[i]);
  lc_vec_free(&t->roots);
}

/* ---- loading ------------------------------------------------------------------------- */

static const char *str(json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

/* The path a results file gives a test, tidied: "litmus//MP.litmus" and
 * "./litmus/MP.litmus" are "litmus/MP.litmus"; a result without a file
 * (older files) goes by its test's name. */
static char *test_path(json_t *o) {
  const char *file = str(o, "file");
  if (!*file) file = str(o, "test");
  lc_buf b;
  lc_buf_init(&b);
  for (const char *p = file; *p;) {
    if (p[0] == '.' && p[1] == '/' && (p == file || p[-1] == '/')) {
      p += 2;
    } else if (*p == '/' && b.n && b.s[b.n - 1] == '/') {
      p++;
    } else {
      lc_buf_putc(&b, *p++);
    }
  }
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

void cmp_add_root(cmp_table *t, const char *root) {
  assert(t && root);
  json_t *o = json_pack("{s:s}", "file", root);
  char *r = test_path(o);   /* tidied as the paths it is taken off */
  json_decref(o);
  size_t n = strlen(r);
  while (n > 1 && r[n - 1] == '/') r[--n] = '\0';
  lc_vec_push(&t->roots, r);
}

/* path less the longest root it starts with (a whole folder: "corpus"
 * is no root of "corpus2/MP.litmus"). */
static char *under_root(const cmp_table *t, char *path) {
  size_t best = 0;
  for (size_t i = 0; i < t->roots.n; i++) {
    const char *r = t->roots.v[i];
    size_t n = strlen(r);
    bool slash = n && r[n - 1] == '/';   /* the root "/" */
    if (n > best && strncmp(path, r, n) == 0 && (slash || path[n] == '/') && path[n + !slash])
      best = n + !slash;
  }
  if (!best) return path;
  char *rest = lc_xstrdup(path + best);
  free(path);
  return rest;
}

/* While loading, a test is a path, a name and a condition; cmp_finish
 * then matches paths across files by their tails (match_tests). */
static size_t find_test(cmp_table *t, json_t *o, pending **side, pending_vec *pend) {
  char *path = under_root(t, test_path(o));
  json_t *cond = json_object_get(o, "condition");
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "%s %s", str(cond, "quantifier"), str(cond, "proposition"));
  char *condition = lc_buf_take(&b);
  lc_buf_fini(&b);
  for (size_t i = 0; i < t->tests.n; i++) {
    cmp_test *x = &t->tests.v[i];
    if (strcmp(x->path, path) == 0 && strcmp(x->name, str(o, "test")) == 0 && strcmp(x->condition, condition) == 0) {
      free(path);
      free(condition);
      *side = &pend->v[i];
      return i;
    }
  }
  cmp_test x = {0};
  x.path = path;
  x.name = lc_xstrdup(str(o, "test"));
  x.kind = lc_xstrdup(str(o, "kind"));
  x.condition = condition;
  lc_vec_push(&t->tests, x);
  pending p = {0};
  lc_vec_push(pend, p);
  *side = &pend->v[pend->n - 1];
  return t->tests.n - 1;
}

/* "P1:r0=0; x=1;" in the order of the object's observables. */
static char *outcome_text(json_t *observables, json_t *values) {
  lc_buf b;
  lc_buf_init(&b);
  size_t i;
  json_t *name;
  json_array_foreach(observables, i, name) {
    json_t *v = json_object_get(values, json_string_value(name));
    lc_buf_printf(&b, "%s%s=", i ? " " : "", json_string_value(name));
    if (json_is_integer(v)) lc_buf_printf(&b, "%lld", (long long)json_integer_value(v));
    else if (json_is_string(v)) lc_buf_puts(&b, json_string_value(v));
    else lc_buf_puts(&b, "?");
    lc_buf_putc(&b, ';');
  }
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

static size_t outcome_index(cmp_test *x, char *text) {
  for (size_t i = 0; i < x->outcomes.n; i++)
    if (strcmp(x->outcomes.v[i], text) == 0) {
      free(text);
      return i;
    }
  lc_vec_push(&x->outcomes, text);
  return x->outcomes.n - 1;
}

static void add_entry(cmp_test *x, pending *p, size_t col, char *text, uint64_t count, cmp_status st,
                      bool positive) {
  entry e = {col, outcome_index(x, text), count, st, positive};
  lc_vec_push(&p->entries, e);
}

static cmp_status run_status(json_t *bin) {
  const char *s = str(bin, "status");
  if (strcmp(s, "forbidden") == 0) return CMP_FORBIDDEN;
  if (strcmp(s, "unexplored") == 0) return CMP_UNEXPLORED;
  return CMP_ALLOWED;
}

static void load_run(cmp_test *x, pending *p, size_t col, json_t *o) {
  json_t *obs = json_object_get(o, "observables"), *bin;
  size_t i;
  json_array_foreach(json_object_get(o, "histogram"), i, bin)
    add_entry(x, p, col, outcome_text(obs, json_object_get(bin, "values")),
              (uint64_t)json_integer_value(json_object_get(bin, "count")), run_status(bin),
              json_is_true(json_object_get(bin, "positive")));
  json_t *values;
  json_array_foreach(json_object_get(o, "unobserved_allowed"), i, values)
    add_entry(x, p, col, outcome_text(obs, values), 0, CMP_ALLOWED, false);
}

static void load_check(cmp_test *x, pending *p, size_t col, json_t *o) {
  json_t *obs = json_object_get(o, "observables"), *state;
  size_t i;
  json_array_foreach(json_object_get(o, "states"), i, state)
    add_entry(x, p, col, outcome_text(obs, json_object_get(state, "values")), 0, CMP_ALLOWED,
              json_is_true(json_object_get(state, "positive")));
}

static char *column_desc(json_t *o, bool hardware) {
  lc_buf b;
  lc_buf_init(&b);
  if (hardware) {
    json_t *dev = json_object_get(o, "device");
    lc_buf_printf(&b, "%s: %s", str(dev, "backend"), str(dev, "name"));
    json_t *sm = json_object_get(dev, "sm");
    if (json_is_string(sm)) lc_buf_printf(&b, " (sm_%s)", json_string_value(sm));
    if (*str(dev, "driver")) lc_buf_printf(&b, ", %s", str(dev, "driver"));
  } else {
    lc_buf_printf(&b, "model %s (%s engine)", str(o, "model"), str(o, "engine"));
  }
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

/* A model column may hold results under several models: -m named one
 * dialect's model and the tests of the other kept theirs (PTX tests
 * under ptx-v7.5, C++ tests under cuda-cpp). */
static const char *count_model(cmp_column *c, const char *model) {
  for (size_t k = 0; k < c->models.n; k++)
    if (strcmp(c->models.v[k], model) == 0) {
      c->model_runs.v[k]++;
      return c->models.v[k];
    }
  lc_vec_push(&c->models, lc_xstrdup(model));
  lc_vec_push(&c->model_runs, (size_t)1);
  return c->models.v[c->models.n - 1];
}

/* "models PTX v7.5 (81 results), CUDA C++ (35 results) (enum engine)" when
 * a column's results name more than one model. */
static void describe_models(cmp_column *c) {
  if (c->hardware || c->models.n < 2) return;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, "models ");
  for (size_t k = 0; k < c->models.n; k++)
    lc_buf_printf(&b, "%s%s (%zu result%s)", k ? ", " : "", c->models.v[k], c->model_runs.v[k],
                  c->model_runs.v[k] == 1 ? "" : "s");
  lc_buf_printf(&b, " (%s engine)", c->engine ? c->engine : "");
  free(c->desc);
  c->desc = lc_buf_take(&b);
  lc_buf_fini(&b);
}

static int load_object(cmp_table *t, pending_vec *pend, size_t col, json_t *o) {
  cmp_column *c = &t->columns.v[col];
  bool hardware = json_object_get(o, "histogram") != NULL;
  if (!json_object_get(o, "states") && !hardware) return -1;
  if (c->nruns == 0) {
    c->hardware = hardware;
    c->desc = column_desc(o, hardware);
    if (!hardware) c->engine = lc_xstrdup(str(o, "engine"));
  } else if (c->hardware != hardware) {
    return -1;
  }
  const char *model = hardware ? NULL : count_model(c, str(o, "model"));
  pending *p;
  size_t ti = find_test(t, o, &p, pend);
  cmp_test *x = &t->tests.v[ti];
  lc_vec_push(&p->cols, col);
  lc_vec_push(&p->models, model);
  const char *v = str(o, "verdict");
  lc_vec_push(&p->verdicts, *v ? lc_xstrdup(v) : NULL);
  if (hardware) {
    load_run(x, p, col, o);
    cmp_run r = {.test = ti, .col = col,
                 .instances = (uint64_t)json_integer_value(json_object_get(o, "instances")),
                 .weak = (uint64_t)json_integer_value(json_object_get(o, "positive")),
                 .unfinished = (uint64_t)json_integer_value(json_object_get(o, "incomplete")),
                 .seconds = json_number_value(json_object_get(json_object_get(o, "timings"), "run_seconds"))};
    lc_vec_push(&t->runs, r);
  } else {
    load_check(x, p, col, o);
  }
  c->nruns++;
  return 0;
}

static pending_vec *pending_of(cmp_table *t) {
  if (!t->loading) t->loading = lc_xcalloc(1, sizeof(pending_vec));
  return t->loading;
}

static void free_pending(cmp_table *t) {
  pending_vec *pend = t->loading;
  if (!pend) return;
  for (size_t i = 0; i < pend->n; i++) {
    lc_vec_free(&pend->v[i].entries);
    lc_vec_free(&pend->v[i].cols);
    for (size_t k = 0; k < pend->v[i].verdicts.n; k++) free(pend->v[i].verdicts.v[k]);
    lc_vec_free(&pend->v[i].verdicts);
    lc_vec_free(&pend->v[i].models);
  }
  lc_vec_free(pend);
  free(pend);
  t->loading = NULL;
}

char *cmp_point_text(json_t *point) {
  lc_buf b;
  lc_buf_init(&b);
  const char *k;
  json_t *v;
  json_object_foreach(point, k, v) {
    lc_buf_printf(&b, "%s%s=", b.n ? " " : "", k);
    if (json_is_string(v)) lc_buf_puts(&b, json_string_value(v));
    else if (json_is_integer(v)) lc_buf_printf(&b, "%lld", (long long)json_integer_value(v));
    else lc_buf_puts(&b, "?");
  }
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

/* The column of a campaign's grid point: the file's first column takes
 * the first point, each new point a column of its own, so that a test
 * gets counts and a verdict per point rather than sums over runs made
 * under different stress. */
static size_t point_column(cmp_table *t, size_t first, json_t *point) {
  char *text = cmp_point_text(point);
  for (size_t c = first; c < t->columns.n; c++) {
    cmp_column *col = &t->columns.v[c];
    if (!col->point) {
      col->point = text;
      return c;
    }
    if (strcmp(col->point, text) == 0) {
      free(text);
      return c;
    }
  }
  cmp_column c = {0};
  c.path = lc_xstrdup(t->columns.v[first].path);
  c.file = t->columns.v[first].file;
  c.point = text;
  lc_vec_push(&t->columns, c);
  return t->columns.n - 1;
}

/* A litmus test (or a cat model) given where a results file belongs:
 * its name, or its first line, a test's header ("PTX MP", "CUDA ..."). */
static bool looks_like_a_test(const char *path, const char *line) {
  size_t n = strlen(path);
  if ((n > 7 && strcmp(path + n - 7, ".litmus") == 0) || (n > 4 && strcmp(path + n - 4, ".cat") == 0)) return true;
  static const char *const heads[] = {"PTX ", "CUDA ", "C ", "C++ "};
  for (size_t i = 0; i < LC_ARRAY_LEN(heads); i++)
    if (strncmp(line, heads[i], strlen(heads[i])) == 0) return true;
  return false;
}

int cmp_add_file(cmp_table *t, const char *path, lc_diag *d) {
  assert(t && path && d);
  FILE *f = fopen(path, "r");
  if (!f) {
    lc_error(d, (lc_loc){path, 0, 0}, "cannot read results file");
    return -1;
  }
  cmp_column c = {0};
  c.path = lc_xstrdup(path);
  c.file = t->columns.n ? t->columns.v[t->columns.n - 1].file + 1 : 1;
  lc_vec_push(&t->columns, c);
  size_t first = t->columns.n - 1;
  pending_vec *pend = pending_of(t);
  int rc = 0, lineno = 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while (rc == 0 && (n = getline(&line, &cap, f)) > 0) {
    lineno++;
    if (n <= 1) continue;
    json_error_t err;
    json_t *o = json_loads(line, 0, &err);
    /* a campaign's file (litmus-run --campaign): its runs' results; the
     * mutation scores of litmus-run --mutants are not compared */
    if (o && json_is_object(o) &&
        (json_object_get(o, "campaign") || json_object_get(o, "done") || json_object_get(o, "mutants"))) {
      json_decref(o);
      continue;
    }
    /* a test litmus-check could not answer (it does not parse, the
     * solver gave up): no states to compare, said and left out, so that
     * one bad test does not make its whole results file unreadable */
    const char *status = o ? json_string_value(json_object_get(o, "status")) : NULL;
    if (o && status && strcmp(status, "ok") != 0 && !json_object_get(o, "states") &&
        !json_object_get(o, "histogram")) {
      const char *msg = json_string_value(json_object_get(o, "message"));
      lc_warning(d, (lc_loc){path, lineno, 1}, "%s has no result (%s%s%s): left out", str(o, "file"), status,
                 msg ? ": " : "", msg ? msg : "");
      json_decref(o);
      continue;
    }
    json_t *res = o ? json_object_get(o, "result") : NULL;
    size_t col = first;
    if (res && json_is_object(res) && json_object_get(o, "run")) {
      json_t *point = json_object_get(o, "point");
      if (json_is_object(point) && json_object_size(point)) col = point_column(t, first, point);
      json_incref(res);
      json_decref(o);
      o = res;
    }
    if (!o && lineno == 1 && looks_like_a_test(path, line)) {
      size_t plen = strlen(path);
      if (plen > 4 && strcmp(path + plen - 4, ".cat") == 0)
        lc_error(d, (lc_loc){path, 0, 0}, "a cat model (litmus-check --model FILE), not a results file");
      else
        lc_error(d, (lc_loc){path, 0, 0}, "a litmus test, not a results file; run litmus-check --json (or "
                 "litmus-run --json) on it first");
      rc = -1;
    } else if (!o || !json_is_object(o) || load_object(t, pend, col, o) < 0) {
      lc_error(d, (lc_loc){path, lineno, o ? 1 : err.column}, "%s",
               o ? "not a litmus-run or litmus-check result (or mixed with the other kind)" : err.text);
      rc = -1;
    }
    json_decref(o);
  }
  free(line);
  fclose(f);
  if (rc == 0 && t->columns.v[first].nruns == 0) {
    lc_error(d, (lc_loc){path, 0, 0}, "no results in this file");
    rc = -1;
  }
  return rc;
}

/* ---- the matrices ------------------------------------------------------------------------ */

const cmp_cell *cmp_cell_at(const cmp_table *t, const cmp_test *x, size_t outcome, size_t col) {
  assert(t && x && outcome < x->outcomes.n && col < t->columns.n);
  return &x->cells[outcome * t->columns.n + col];
}

bool cmp_outcome_forbidden_seen(const cmp_table *t, const cmp_test *x, size_t i) {
  bool seen = false, forbidden = false;
  for (size_t c = 0; c < t->columns.n; c++) {
    const cmp_cell *cell = cmp_cell_at(t, x, i, c);
    if (!x->present[c]) continue;
    if (t->columns.v[c].hardware) {
      seen |= cell->count > 0;
      forbidden |= cell->count > 0 && cell->status == CMP_FORBIDDEN;
    } else {
      forbidden |= cell->status != CMP_ALLOWED;
    }
  }
  return seen && forbidden;
}

/* Models disagree about an outcome when one allows it and another does
 * not.  Hardware columns do not disagree about an outcome one of them saw
 * and another did not: a rare outcome is missed by chance, and the counts
 * show it; runs disagree when their verdicts do (cmp_finish). */
static bool row_differs(const cmp_table *t, const cmp_test *x, size_t i) {
  int allowed = -1;
  for (size_t c = 0; c < t->columns.n; c++) {
    if (!x->present[c] || t->columns.v[c].hardware) continue;
    int v = cmp_cell_at(t, x, i, c)->status == CMP_ALLOWED;
    if (allowed >= 0 && allowed != v) return true;
    allowed = v;
  }
  return false;
}

/* A column that ran a test several times (merged results files) shows
 * the sums of their counts, and so the verdict of those sums, not the
 * last run's: herd's rule on the instances satisfying the proposition. */
static void summed_verdict(cmp_test *x, const pending *p, size_t c) {
  uint64_t positive = 0, negative = 0;
  for (size_t k = 0; k < p->entries.n; k++) {
    const entry *e = &p->entries.v[k];
    if (e->col != c) continue;
    if (e->positive) positive += e->count;
    else negative += e->count;
  }
  bool ok = strncmp(x->condition, "~exists", 7) == 0 ? positive == 0
            : strncmp(x->condition, "forall", 6) == 0 ? negative == 0
            : positive > 0;
  free(x->verdict[c]);
  x->verdict[c] = lc_xstrdup(ok ? "Ok" : "No");
}

static void build_matrix(cmp_table *t, cmp_test *x, pending *p) {
  size_t ncols = t->columns.n;
  x->cells = lc_xcalloc(x->outcomes.n * ncols + 1, sizeof(cmp_cell));
  x->present = lc_xcalloc(ncols, sizeof(bool));
  x->verdict = lc_xcalloc(ncols, sizeof(char *));
  x->model = lc_xcalloc(ncols + 1, sizeof(char *));
  for (size_t k = 0; k < p->cols.n; k++) {
    size_t c = p->cols.v[k];
    x->present[c] = true;
    x->model[c] = p->models.v[k];
    free(x->verdict[c]);
    x->verdict[c] = p->verdicts.v[k];
    p->verdicts.v[k] = NULL;
    for (size_t i = 0; i < x->outcomes.n; i++) {
      cmp_cell *cell = &x->cells[i * ncols + c];
      cell->present = true;
      cell->status = t->columns.v[c].hardware ? CMP_ALLOWED : CMP_FORBIDDEN;
    }
  }
  x->positive = lc_xcalloc(x->outcomes.n + 1, sizeof(bool));
  for (size_t k = 0; k < p->entries.n; k++) {
    const entry *e = &p->entries.v[k];
    cmp_cell *cell = &x->cells[e->outcome * ncols + e->col];
    cell->count += e->count;
    cell->status = e->status;
    x->positive[e->outcome] |= e->positive;
  }
  for (size_t c = 0; c < ncols; c++) {
    size_t runs = 0;
    for (size_t k = 0; k < p->cols.n; k++) runs += p->cols.v[k] == c;
    if (runs > 1 && t->columns.v[c].hardware) summed_verdict(x, p, c);
  }
}

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "[2]" for a file's only column, "[2.1]", "[2.2]", ... for the grid
 * points of a campaign's file. */
static void label_columns(cmp_table *t) {
  for (size_t c = 0, k = 0; c < t->columns.n; c++) {
    cmp_column *col = &t->columns.v[c];
    k = c && t->columns.v[c - 1].file == col->file ? k + 1 : 1;
    bool alone = k == 1 && (c + 1 == t->columns.n || t->columns.v[c + 1].file != col->file);
    lc_buf b;
    lc_buf_init(&b);
    if (alone) lc_buf_printf(&b, "[%zu]", col->file);
    else lc_buf_printf(&b, "[%zu.%zu]", col->file, k);
    free(col->label);
    col->label = lc_buf_take(&b);
    lc_buf_fini(&b);
  }
}

/* The last k components of path ("gpu/MP.litmus" for k = 2), or all of it. */
static const char *path_tail(const char *path, size_t k) {
  const char *p = path + strlen(path);
  while (p > path) {
    if (p[-1] == '/' && --k == 0) return p;
    p--;
  }
  return path;
}

static const char *base_name(const char *path) { return path_tail(path, 1); }

static bool in_column(const pending *p, size_t c) {
  for (size_t k = 0; k < p->cols.n; k++)
    if (p->cols.v[k] == c) return true;
  return false;
}

/* Do two tests that one column holds under different paths share their
 * last k components? */
static bool tails_clash(const cmp_table *t, const pending_vec *pend, size_t i, size_t j, size_t k) {
  const char *a = t->tests.v[i].path, *b = t->tests.v[j].path;
  if (strcmp(a, b) == 0 || strcmp(path_tail(a, k), path_tail(b, k)) != 0) return false;
  for (size_t c = 0; c < t->columns.n; c++)
    if (in_column(&pend->v[i], c) && in_column(&pend->v[j], c)) return true;
  return false;
}

/* Moves test j's entries, runs and columns into test i (the same test
 * read from another file). */
static void merge_into(cmp_table *t, pending_vec *pend, size_t i, size_t j) {
  cmp_test *x = &t->tests.v[i], *y = &t->tests.v[j];
  pending *p = &pend->v[i], *q = &pend->v[j];
  for (size_t k = 0; k < q->entries.n; k++) {
    entry e = q->entries.v[k];
    e.outcome = outcome_index(x, lc_xstrdup(y->outcomes.v[e.outcome]));
    lc_vec_push(&p->entries, e);
  }
  for (size_t k = 0; k < q->cols.n; k++) {
    lc_vec_push(&p->cols, q->cols.v[k]);
    lc_vec_push(&p->models, q->models.v[k]);
    lc_vec_push(&p->verdicts, q->verdicts.v[k]);
    q->verdicts.v[k] = NULL;
  }
  q->entries.n = q->cols.n = 0;
  for (size_t k = 0; k < t->runs.n; k++)
    if (t->runs.v[k].test == j) t->runs.v[k].test = i;
}

/* Gives each test its key, the shortest tail of its path that tells it
 * apart from the other tests of its file name in every column, and makes
 * one test of those with the same key, name and condition. */
static void match_tests(cmp_table *t, pending_vec *pend) {
  size_t n = t->tests.n;
  for (size_t i = 0; i < n && t->match != CMP_MATCH_TAIL; i++)
    t->tests.v[i].key = lc_xstrdup(t->match == CMP_MATCH_PATH ? t->tests.v[i].path : t->tests.v[i].name);
  for (size_t i = 0; i < n; i++) {
    cmp_test *x = &t->tests.v[i];
    if (x->key) continue;
    /* the tests of x's file name, and the tail length they need */
    size_t k = 1;
    for (bool clash = true; clash; ) {
      clash = false;
      for (size_t a = i; a < n && !clash; a++) {
        if (t->tests.v[a].key || strcmp(base_name(t->tests.v[a].path), base_name(x->path)) != 0) continue;
        for (size_t b = a + 1; b < n && !clash; b++)
          if (!t->tests.v[b].key && strcmp(base_name(t->tests.v[b].path), base_name(x->path)) == 0)
            clash = tails_clash(t, pend, a, b, k);
      }
      if (clash) k++;
    }
    char *base = lc_xstrdup(base_name(x->path));
    for (size_t a = i; a < n; a++)
      if (!t->tests.v[a].key && strcmp(base_name(t->tests.v[a].path), base) == 0)
        t->tests.v[a].key = lc_xstrdup(path_tail(t->tests.v[a].path, k));
    free(base);
  }
  /* merge, keeping the first-seen order */
  size_t *to = lc_xcalloc(n + 1, sizeof *to), kept = 0;
  bool *gone = lc_xcalloc(n + 1, sizeof *gone);
  for (size_t j = 0; j < n; j++) {
    cmp_test *y = &t->tests.v[j];
    for (size_t i = 0; i < j && !gone[j]; i++) {
      cmp_test *x = &t->tests.v[i];
      /* by name: the name alone, as mcompare7 (a changed condition
       * shows as outcomes of one row) */
      if (!gone[i] && strcmp(x->key, y->key) == 0 &&
          (t->match == CMP_MATCH_NAME ||
           (strcmp(x->name, y->name) == 0 && strcmp(x->condition, y->condition) == 0))) {
        bool clash = false;
        for (size_t c = 0; c < t->columns.n && !clash; c++)
          clash = strcmp(x->path, y->path) && in_column(&pend->v[i], c) && in_column(&pend->v[j], c);
        if (clash && !t->name_clashes++) t->clash = lc_xstrdup(x->name);
        merge_into(t, pend, i, j);
        gone[j] = true;
      }
    }
  }
  for (size_t j = 0; j < n; j++) {
    if (gone[j]) {
      free_test(&t->tests.v[j], 0);
      pending *q = &pend->v[j];
      lc_vec_free(&q->entries);
      lc_vec_free(&q->cols);
      lc_vec_free(&q->verdicts);
      lc_vec_free(&q->models);
      continue;
    }
    to[j] = kept;
    t->tests.v[kept] = t->tests.v[j];
    pend->v[kept] = pend->v[j];
    kept++;
  }
  t->tests.n = pend->n = kept;
  for (size_t k = 0; k < t->runs.n; k++) t->runs.v[k].test = to[t->runs.v[k].test];
  free(to);
  free(gone);
}

void cmp_finish(cmp_table *t) {
  label_columns(t);
  for (size_t c = 0; c < t->columns.n; c++) describe_models(&t->columns.v[c]);
  pending_vec *pend = pending_of(t);
  match_tests(t, pend);
  for (size_t i = 0; i < t->tests.n; i++) {
    cmp_test *x = &t->tests.v[i];
    /* Sort outcomes, renumbering the entries that point at them. */
    char **old = lc_xmalloc((x->outcomes.n + 1) * sizeof(char *));
    memcpy(old, x->outcomes.v, x->outcomes.n * sizeof(char *));
    qsort(x->outcomes.v, x->outcomes.n, sizeof(char *), cmp_cstr);
    for (size_t k = 0; k < pend->v[i].entries.n; k++) {
      entry *e = &pend->v[i].entries.v[k];
      for (size_t j = 0; j < x->outcomes.n; j++)
        if (x->outcomes.v[j] == old[e->outcome]) {
          e->outcome = j;
          break;
        }
    }
    free(old);
    build_matrix(t, x, &pend->v[i]);
    x->unfinished = lc_xcalloc(t->columns.n + 1, sizeof(uint64_t));
    for (size_t c = 0; c < t->columns.n; c++) t->columns.v[c].ntests += x->present[c];
    for (size_t r = 0; r < x->outcomes.n; r++) {
      x->forbidden_seen |= cmp_outcome_forbidden_seen(t, x, r);
      x->differs |= row_differs(t, x, r);
    }
    /* A GPU not showing an allowed outcome is no disagreement with a
     * model: verdicts are compared among runs and among models. */
    const char *first[2] = {NULL, NULL};
    for (size_t c = 0; c < t->columns.n; c++) {
      const char **f = &first[t->columns.v[c].hardware];
      if (!x->verdict[c]) continue;
      if (*f && strcmp(*f, x->verdict[c]) != 0) x->differs = true;
      *f = x->verdict[c];
    }
  }
  for (size_t k = 0; k < t->runs.n; k++) t->tests.v[t->runs.v[k].test].unfinished[t->runs.v[k].col] += t->runs.v[k].unfinished;
  free_pending(t);
}

/* ---- reports ------------------------------------------------------------------------------ */

static void cell_text(lc_buf *b, const cmp_table *t, const cmp_test *x, size_t i, size_t c) {
  const cmp_cell *cell = cmp_cell_at(t, x, i, c);
  if (!x->present[c]) lc_buf_puts(b, "-");
  else if (!t->columns.v[c].hardware) lc_buf_puts(b, cell->status == CMP_ALLOWED ? "allowed" : "forbidden");
  else lc_buf_printf(b, "%llu%s", (unsigned long long)cell->count,
                     cell->count && cell->status == CMP_FORBIDDEN ? "!" :
                     cell->count && cell->status == CMP_UNEXPLORED ? "?" : "");
}

/* Does another test of the table have x's name?  Its path then follows
 * the name. */
static bool name_shared(const cmp_table *t, const cmp_test *x) {
  for (size_t i = 0; i < t->tests.n; i++)
    if (&t->tests.v[i] != x && strcmp(t->tests.v[i].name, x->name) == 0) return true;
  return false;
}

static void print_test(lc_buf *out, const cmp_table *t, const cmp_test *x) {
  size_t w = 7;
  for (size_t i = 0; i < x->outcomes.n; i++)
    if (strlen(x->outcomes.v[i]) > w) w = strlen(x->outcomes.v[i]);
  for (size_t c = 0; c < t->columns.n; c++)
    if (x->unfinished[c]) w = w > 9 ? w : 9;   /* the row "hung or cut" */
  lc_buf_printf(out, "Test %s", x->name);
  if (name_shared(t, x)) lc_buf_printf(out, " (%s)", x->key);
  lc_buf_printf(out, " %s: %s%s%s\n", x->kind, x->condition,
                x->forbidden_seen ? "  [FORBIDDEN OUTCOME OBSERVED]" : "", x->differs ? "  [differs]" : "");
  lc_buf_puts(out, "    outcome");
  lc_buf_pad(out, w + 6);
  for (size_t c = 0; c < t->columns.n; c++) lc_buf_printf(out, " %12s", t->columns.v[c].label);
  lc_buf_putc(out, '\n');
  for (size_t i = 0; i < x->outcomes.n; i++) {
    lc_buf_printf(out, "  %s %s", cmp_outcome_forbidden_seen(t, x, i) ? "!" : " ", x->outcomes.v[i]);
    lc_buf_pad(out, w + 6);
    for (size_t c = 0; c < t->columns.n; c++) {
      lc_buf cell;
      lc_buf_init(&cell);
      cell_text(&cell, t, x, i, c);
      lc_buf_printf(out, " %12s", cell.s);
      lc_buf_fini(&cell);
    }
    lc_buf_putc(out, '\n');
  }
  /* instances that hung or were cut are in no outcome: said, so that an
   * empty or thin histogram is not taken for a run that saw nothing */
  bool unfinished = false;
  for (size_t c = 0; c < t->columns.n; c++) unfinished |= x->unfinished[c] > 0;
  if (unfinished) {
    lc_buf_puts(out, "    hung or cut");
    lc_buf_pad(out, w + 6);
    for (size_t c = 0; c < t->columns.n; c++) {
      if (t->columns.v[c].hardware && x->present[c]) lc_buf_printf(out, " %12llu", (unsigned long long)x->unfinished[c]);
      else lc_buf_printf(out, " %12s", "-");
    }
    lc_buf_putc(out, '\n');
  }
  /* a column whose results name several models (one per dialect): each
   * test's, so that a difference of models is not taken for a difference
   * of what one model says */
  bool mixed = false;
  for (size_t c = 0; c < t->columns.n; c++) mixed |= t->columns.v[c].models.n > 1;
  if (mixed) {
    lc_buf_puts(out, "    model");
    lc_buf_pad(out, w + 6);
    for (size_t c = 0; c < t->columns.n; c++) lc_buf_printf(out, " %12s", x->model[c] ? x->model[c] : "-");
    lc_buf_putc(out, '\n');
  }
  lc_buf_puts(out, "    verdict");
  lc_buf_pad(out, w + 6);
  for (size_t c = 0; c < t->columns.n; c++) lc_buf_printf(out, " %12s", x->verdict[c] ? x->verdict[c] : "-");
  lc_buf_puts(out, "\n\n");
}

void cmp_print(lc_buf *out, const cmp_table *t, bool only_differences) {
  assert(out && t);
  for (size_t c = 0; c < t->columns.n; c++) {
    const cmp_column *col = &t->columns.v[c];
    lc_buf_printf(out, "%s %s%s%s%s: %s, %zu tests", col->label, col->path, col->point ? " (" : "",
                  col->point ? col->point : "", col->point ? ")" : "", col->desc, col->ntests);
    if (col->nruns != col->ntests) lc_buf_printf(out, " (%zu runs, counts summed)", col->nruns);
    lc_buf_putc(out, '\n');
  }
  lc_buf_putc(out, '\n');
  size_t forbidden = 0, differ = 0;
  for (size_t i = 0; i < t->tests.n; i++) {
    const cmp_test *x = &t->tests.v[i];
    forbidden += x->forbidden_seen;
    differ += x->differs;
    if (!only_differences || x->differs || x->forbidden_seen) print_test(out, t, x);
  }
  lc_buf_printf(out, "%zu tests, %zu where the columns disagree, %zu with a forbidden outcome observed\n",
                t->tests.n, differ, forbidden);
}

static json_t *test_json(const cmp_table *t, const cmp_test *x) {
  json_t *o = json_object();
  json_object_set_new(o, "test", json_string(x->name));
  json_object_set_new(o, "file", json_string(x->key));
  json_object_set_new(o, "kind", json_string(x->kind));
  json_object_set_new(o, "condition", json_string(x->condition));
  json_object_set_new(o, "differs", json_boolean(x->differs));
  json_object_set_new(o, "forbidden_observed", json_boolean(x->forbidden_seen));
  json_t *rows = json_array();
  for (size_t i = 0; i < x->outcomes.n; i++) {
    json_t *row = json_object(), *cells = json_array();
    json_object_set_new(row, "outcome", json_string(x->outcomes.v[i]));
    json_object_set_new(row, "forbidden_observed", json_boolean(cmp_outcome_forbidden_seen(t, x, i)));
    for (size_t c = 0; c < t->columns.n; c++) {
      const cmp_cell *cell = cmp_cell_at(t, x, i, c);
      if (!x->present[c]) json_array_append_new(cells, json_null());
      else if (t->columns.v[c].hardware) json_array_append_new(cells, json_integer((json_int_t)cell->count));
      else json_array_append_new(cells, json_boolean(cell->status == CMP_ALLOWED));
    }
    json_object_set_new(row, "columns", cells);
    json_array_append_new(rows, row);
  }
  json_object_set_new(o, "outcomes", rows);
  json_t *models = json_array();
  for (size_t c = 0; c < t->columns.n; c++)
    json_array_append_new(models, x->model[c] ? json_string(x->model[c]) : json_null());
  json_object_set_new(o, "models", models);
  return o;
}

json_t *cmp_json(const cmp_table *t, bool only_differences) {
  assert(t);
  json_t *o = json_object(), *cols = json_array(), *tests = json_array();
  for (size_t c = 0; c < t->columns.n; c++) {
    json_t *col = json_object();
    json_object_set_new(col, "file", json_string(t->columns.v[c].path));
    if (t->columns.v[c].point) json_object_set_new(col, "point", json_string(t->columns.v[c].point));
    json_object_set_new(col, "kind", json_string(t->columns.v[c].hardware ? "run" : "model"));
    json_object_set_new(col, "description", json_string(t->columns.v[c].desc));
    json_array_append_new(cols, col);
  }
  for (size_t i = 0; i < t->tests.n; i++) {
    const cmp_test *x = &t->tests.v[i];
    if (!only_differences || x->differs || x->forbidden_seen) json_array_append_new(tests, test_json(t, x));
  }
  json_object_set_new(o, "columns", cols);
  json_object_set_new(o, "tests", tests);
  return o;
}
