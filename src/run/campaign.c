/* campaign.c - grids of run parameters, and the campaign results file:
 * JSON lines appended one finished run at a time, resumed, sharded, merged.
 * SPDX-License-Identifier: MIT
 *
 * Appending: each run's line goes out in one write(2) on an O_APPEND
 * descriptor, then fsync, so an interrupt or a crash leaves every finished
 * run whole; at worst a crash mid-write leaves a last line without its
 * newline, which the next --resume drops.  (Rewriting the whole file per
 * run, as litmus-run -o does, would cost O(runs^2) on big campaigns.)
 */
#define _DEFAULT_SOURCE   /* realpath */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/campaign.h"
#include "atomic_file.h"
#include "run/run_report.h"

/* ---- grids --------------------------------------------------------------------------- */

typedef enum { K_U64, K_U32, K_BOOL, K_PATTERN, K_SECONDS } kind;

typedef struct field {
  const char *name;
  kind k;
  uint64_t lo, hi;
  size_t off;
} field;

#define F(name, k, lo, hi, member) {name, k, lo, hi, offsetof(run_params, member)}
static const field fields[] = {
  F("iterations", K_U64, 1, UINT64_MAX, iterations),
  F("time", K_SECONDS, 0, 0, seconds),
  F("instances", K_U32, 1, 1u << 24, instances),
  F("stress-iterations", K_U32, 0, 1u << 30, stress_iterations),
  F("stress-lines", K_U32, 1, 1u << 24, stress_lines),
  F("stress-pattern", K_PATTERN, 0, 3, stress_pattern),
  F("pre-stress-iterations", K_U32, 0, 1u << 30, pre_stress_iterations),
  F("pre-stress-lines", K_U32, 1, 1u << 24, pre_stress_lines),
  F("pre-stress-pattern", K_PATTERN, 0, 3, pre_stress_pattern),
  F("loc-offset", K_U32, 0, 1u << 16, loc_offset),
  F("testing-pct", K_U32, 1, 100, testing_pct),
  F("stride", K_U32, 1, 1u << 16, stride),
  F("threads-per-cta", K_U32, 1, 1024, threads_per_cta),
  F("spin-limit", K_U32, 1, 1u << 30, spin_limit),
  F("watchdog", K_SECONDS, 0, 0, watchdog),
  F("mem-stress", K_BOOL, 0, 1, mem_stress),
  F("pre-stress", K_BOOL, 0, 1, pre_stress),
  F("barrier", K_BOOL, 0, 1, barrier),
  F("shuffle", K_BOOL, 0, 1, shuffle),
  F("pin", K_BOOL, 0, 1, pin),
};

static const field *find_field(const char *name) {
  for (size_t i = 0; i < LC_ARRAY_LEN(fields); i++)
    if (strcmp(fields[i].name, name) == 0) return &fields[i];
  return NULL;
}

static int set_field(const field *f, const char *v, run_params *par, lc_diag *d) {
  char *p = (char *)par + f->off, *end;
  static const char *const patterns[] = {"st-st", "st-ld", "ld-st", "ld-ld"};
  errno = 0;
  switch (f->k) {
  case K_BOOL: {
    bool on = strcmp(v, "on") == 0 || strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
    if (!on && strcmp(v, "off") != 0 && strcmp(v, "false") != 0 && strcmp(v, "0") != 0) break;
    *(bool *)p = on;
    return 0;
  }
  case K_SECONDS: {
    double s = strtod(v, &end);
    if (errno || end == v || *end || !(s > 0)) break;
    *(double *)p = s;
    return 0;
  }
  case K_PATTERN:
    for (unsigned i = 0; i < 4; i++)
      if (strcmp(v, patterns[i]) == 0 || (v[0] == (char)('0' + i) && !v[1])) {
        *(unsigned *)p = i;
        return 0;
      }
    break;
  default: {
    if (*v == '-' || !*v) break;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || *end || x < f->lo || x > f->hi) break;
    if (f->k == K_U64) *(uint64_t *)p = x;
    else *(unsigned *)p = (unsigned)x;
    return 0;
  }
  }
  /* what the parameter takes, so that the user need not look it up */
  if (f->k == K_BOOL)
    lc_error(d, (lc_loc){0}, "--grid: '%s' is not a value of %s (on or off)", v, f->name);
  else if (f->k == K_SECONDS)
    lc_error(d, (lc_loc){0}, "--grid: '%s' is not a value of %s (seconds, more than 0)", v, f->name);
  else if (f->k == K_PATTERN)
    lc_error(d, (lc_loc){0}, "--grid: '%s' is not a value of %s (st-st, st-ld, ld-st or ld-ld)", v, f->name);
  else
    lc_error(d, (lc_loc){0}, "--grid: '%s' is not a value of %s (an integer from %llu to %llu)", v, f->name,
             (unsigned long long)f->lo, (unsigned long long)f->hi);
  return -1;
}

int run_params_set(run_params *par, const char *name, const char *value, lc_diag *d) {
  assert(par && name && value && d);
  const field *f = find_field(name);
  if (!f) {
    lc_error(d, (lc_loc){0}, "'%s' is not a run parameter", name);
    return -1;
  }
  return set_field(f, value, par, d);
}

static void axis_free(run_grid_axis *a) {
  free(a->name);
  for (size_t i = 0; i < a->values.n; i++) free(a->values.v[i]);
  lc_vec_free(&a->values);
}

void run_grid_free(run_grid *g) {
  for (size_t i = 0; i < g->axes.n; i++) axis_free(&g->axes.v[i]);
  lc_vec_free(&g->axes);
}

/* One "name=v1,v2" part. */
static int parse_axis(run_grid *g, const char *s, size_t n, lc_diag *d) {
  const char *eq = memchr(s, '=', n);
  if (!eq) {
    lc_error(d, (lc_loc){0}, "--grid: '%.*s' is not NAME=VALUE,...", (int)n, s);
    return -1;
  }
  run_grid_axis a = {lc_xstrndup(s, (size_t)(eq - s)), {0}};
  const field *f = find_field(a.name);
  if (!f) {
    lc_error(d, (lc_loc){0}, "--grid: '%s' is not a parameter (iterations, time, instances, stress-iterations, "
                             "stress-lines, stress-pattern, testing-pct, stride, threads-per-cta, spin-limit, watchdog, "
                             "mem-stress, pre-stress, barrier, shuffle, pin)", a.name);
    axis_free(&a);
    return -1;
  }
  for (size_t i = 0; i < g->axes.n; i++)
    if (strcmp(g->axes.v[i].name, a.name) == 0) {
      lc_error(d, (lc_loc){0}, "--grid: %s is given twice", a.name);
      axis_free(&a);
      return -1;
    }
  const char *v = eq + 1, *end = s + n;
  while (v <= end) {
    size_t m = strcspn(v, ",;");
    if ((size_t)(end - v) < m) m = (size_t)(end - v);
    char *val = lc_xstrndup(v, m);
    run_params scratch;
    run_params_init(&scratch);
    lc_vec_push(&a.values, val);
    if (set_field(f, val, &scratch, d) < 0) {
      axis_free(&a);
      return -1;
    }
    v += m + 1;
  }
  lc_vec_push(&g->axes, a);
  return 0;
}

int run_grid_parse(run_grid *g, const char *spec, lc_diag *d) {
  assert(g && spec && d);
  for (const char *s = spec; *s;) {
    size_t n = strcspn(s, ";");
    if (n && parse_axis(g, s, n, d) < 0) return -1;
    s += n + (s[n] == ';');
  }
  return 0;
}

size_t run_grid_points(const run_grid *g) {
  assert(g);
  size_t n = 1;
  for (size_t i = 0; i < g->axes.n; i++) n *= g->axes.v[i].values.n;
  return n;
}

/* The value index of every axis at point p (the last axis fastest). */
static size_t value_at(const run_grid *g, size_t p, size_t axis) {
  for (size_t i = g->axes.n; i-- > axis + 1;) p /= g->axes.v[i].values.n;
  return p % g->axes.v[axis].values.n;
}

int run_grid_apply(const run_grid *g, size_t point, run_params *par, lc_diag *d) {
  assert(g && point < run_grid_points(g) && par && d);
  for (size_t i = 0; i < g->axes.n; i++)
    if (set_field(find_field(g->axes.v[i].name), g->axes.v[i].values.v[value_at(g, point, i)], par, d) < 0) return -1;
  return 0;
}

static json_t *point_json(const run_grid *g, size_t point) {
  json_t *o = json_object();
  for (size_t i = 0; i < g->axes.n; i++)
    json_object_set_new(o, g->axes.v[i].name, json_string(g->axes.v[i].values.v[value_at(g, point, i)]));
  return o;
}

/* ---- the file ------------------------------------------------------------------------- */

static json_t *grid_json(const run_grid *g) {
  json_t *a = json_array();
  for (size_t i = 0; i < g->axes.n; i++) {
    json_t *v = json_array();
    for (size_t j = 0; j < g->axes.v[i].values.n; j++) json_array_append_new(v, json_string(g->axes.v[i].values.v[j]));
    json_array_append_new(a, json_pack("{s:s, s:o}", "name", g->axes.v[i].name, "values", v));
  }
  return a;
}

static char *hex64(uint64_t v) {
  char *s = lc_xmalloc(24);
  snprintf(s, 24, "0x%016" PRIx64, v);
  return s;
}

/* The folder of path, resolved ("/home/u/camp" for "c.jsonl" run in
 * /home/u/camp); NULL when it cannot be resolved. */
static char *folder_of(const char *path) {
  char *copy = lc_xstrdup(path), *slash = strrchr(copy, '/');
  if (slash == copy) slash[1] = '\0';
  else if (slash) *slash = '\0';
  char *real = realpath(slash ? copy : ".", NULL);
  free(copy);
  return real;
}

/* to (absolute, resolved) as seen from the folder from: "../litmus/MP.litmus". */
static char *relative_to(const char *from, const char *to) {
  size_t common = 0;
  for (size_t i = 0;; i++) {
    bool end_f = from[i] == '\0' || from[i] == '/', end_t = to[i] == '\0' || to[i] == '/';
    if (end_f && end_t) {
      common = i;
      if (!from[i] || !to[i]) break;
      continue;
    }
    if (from[i] != to[i] || !from[i] || !to[i]) break;
  }
  lc_buf b;
  lc_buf_init(&b);
  /* a ".." for each component of from past the common part */
  for (const char *p = from + common; *p; p++)
    if (*p == '/' && p[1]) lc_buf_puts(&b, "../");
  const char *rest = to + common;
  if (*rest == '/') rest++;
  lc_buf_puts(&b, rest);
  char *s = lc_buf_take(&b);
  lc_buf_fini(&b);
  return s;
}

/* A test's identity in the header: its resolved path relative to the
 * campaign file's folder, so that "litmus/MP.litmus" and
 * "/home/u/camp/litmus/MP.litmus" are one test, also from another folder;
 * the path as given when it cannot be resolved. */
static char *test_identity(const char *dir, const char *test) {
  char *real = dir ? realpath(test, NULL) : NULL;
  if (!real) return lc_xstrdup(test);
  char *rel = relative_to(dir, real);
  free(real);
  return rel;
}

static json_t *make_header(const run_campaign *c, char **tests, const char *backend) {
  json_t *t = json_array(), *ids = json_array(), *args = json_array();
  char *dir = folder_of(c->path);
  for (size_t i = 0; i < c->ntests; i++) {
    json_array_append_new(t, json_string(tests[i]));
    char *id = test_identity(dir, tests[i]);
    json_array_append_new(ids, json_string(id));
    free(id);
  }
  free(dir);
  for (size_t i = 0; i < c->nargs; i++) json_array_append_new(args, json_string(c->args[i]));
  char *seed = hex64(c->seed);
  json_t *h = json_pack("{s:i, s:s, s:s, s:o, s:o, s:I, s:I, s:[I,I]}", "campaign", 1, "seed", seed, "backend",
                        backend, "tests", t, "grid", grid_json(c->grid), "points", (json_int_t)c->npoints, "runs",
                        (json_int_t)(c->ntests * c->npoints), "shard", (json_int_t)c->shard, (json_int_t)c->nshards);
  json_object_set_new(h, "paths", ids);
  json_object_set_new(h, "args", args);
  free(seed);
  return h;
}

static int write_line(run_campaign *c, json_t *js, lc_diag *d) {
  char *text = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
  size_t n = strlen(text);
  text = lc_xrealloc(text, n + 2);
  text[n++] = '\n';
  ssize_t w = write(c->fd, text, n);
  free(text);
  if (w != (ssize_t)n || fsync(c->fd) < 0) {
    lc_error(d, (lc_loc){0}, "%s: cannot append: %s", c->path, strerror(errno));
    return -1;
  }
  return 0;
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  lc_buf b;
  lc_buf_init(&b);
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) lc_buf_putn(&b, buf, n);
  fclose(f);
  *len = b.n;
  return b.s ? b.s : lc_xstrdup("");
}

/* Calls fn on every whole line of text that parses as a JSON object;
 * returns the length of the whole lines. */
typedef int (*line_fn)(json_t *js, size_t lineno, void *arg);
static size_t each_line(const char *text, size_t len, line_fn fn, void *arg, int *rc) {
  size_t pos = 0, lineno = 0;
  *rc = 0;
  while (pos < len && *rc == 0) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    if (!nl) break;
    json_error_t err;
    json_t *js = json_loadb(text + pos, (size_t)(nl - text - pos), 0, &err);
    lineno++;
    *rc = js && json_is_object(js) ? fn(js, lineno, arg) : -1;
    json_decref(js);
    pos = (size_t)(nl - text) + 1;
  }
  return pos;
}

typedef struct resume_ctx {
  run_campaign *c;
  json_t *want;
  lc_diag *d;
} resume_ctx;

/* The tests of two headers: by "paths" when both have them, else as given. */
static const char *tests_key(json_t *a, json_t *b) {
  return json_object_get(a, "paths") && json_object_get(b, "paths") ? "paths" : "tests";
}

static void grid_text(lc_buf *b, json_t *grid) {
  size_t i, j;
  json_t *axis, *v;
  json_array_foreach(grid, i, axis) {
    lc_buf_printf(b, "%s%s=", i ? ";" : "", json_string_value(json_object_get(axis, "name")));
    json_array_foreach(json_object_get(axis, "values"), j, v) lc_buf_printf(b, "%s%s", j ? "," : "", json_string_value(v));
  }
  if (!json_array_size(grid)) lc_buf_puts(b, "none");
}

/* What differs between the campaign a file holds (have) and the one asked
 * for (want), in words; empty when they are one campaign. */
static void campaign_differences(lc_buf *b, json_t *have, json_t *want) {
  const char *tk = tests_key(have, want);
  json_t *ht = json_object_get(have, tk), *wt = json_object_get(want, tk);
  if (!json_equal(json_object_get(have, "campaign"), json_object_get(want, "campaign")))
    lc_buf_puts(b, "; another version of the file format");
  if (!json_equal(json_object_get(have, "backend"), json_object_get(want, "backend")))
    lc_buf_printf(b, "; backend: the file's %s, now %s", json_string_value(json_object_get(have, "backend")),
                  json_string_value(json_object_get(want, "backend")));
  if (json_array_size(ht) != json_array_size(wt)) {
    lc_buf_printf(b, "; tests: the file's %zu, now %zu", json_array_size(ht), json_array_size(wt));
  } else {
    for (size_t i = 0; i < json_array_size(ht); i++)
      if (!json_equal(json_array_get(ht, i), json_array_get(wt, i))) {
        lc_buf_printf(b, "; test %zu: the file's %s, now %s", i + 1, json_string_value(json_array_get(ht, i)),
                      json_string_value(json_array_get(wt, i)));
        break;
      }
  }
  if (!json_equal(json_object_get(have, "grid"), json_object_get(want, "grid"))) {
    lc_buf_puts(b, "; grid: the file's ");
    grid_text(b, json_object_get(have, "grid"));
    lc_buf_puts(b, ", now ");
    grid_text(b, json_object_get(want, "grid"));
  }
  json_t *hs = json_object_get(have, "shard"), *ws = json_object_get(want, "shard");
  if (!json_equal(hs, ws))
    lc_buf_printf(b, "; shard: the file's %lld/%lld, now %lld/%lld", (long long)json_integer_value(json_array_get(hs, 0)),
                  (long long)json_integer_value(json_array_get(hs, 1)), (long long)json_integer_value(json_array_get(ws, 0)),
                  (long long)json_integer_value(json_array_get(ws, 1)));
}

static int resume_line(json_t *js, size_t lineno, void *arg) {
  resume_ctx *r = arg;
  if (lineno == 1) {
    lc_buf b;
    lc_buf_init(&b);
    campaign_differences(&b, js, r->want);
    if (b.n) {
      lc_error(r->d, (lc_loc){0}, "%s: --resume: the file is of another campaign: %s", r->c->path, b.s + 2);
      lc_buf_fini(&b);
      return -1;
    }
    lc_buf_fini(&b);
    const char *seed = json_string_value(json_object_get(js, "seed"));
    r->c->seed = seed ? strtoull(seed, NULL, 16) : 0;
    return 0;
  }
  json_t *run = json_object_get(js, "run");
  if (json_is_integer(run) && json_integer_value(run) >= 0 &&
      (size_t)json_integer_value(run) < r->c->ntests * r->c->npoints)
    r->c->done[json_integer_value(run)] = true;
  return 0;
}

static int resume(run_campaign *c, lc_diag *d) {
  size_t len;
  char *text = read_all(c->path, &len);
  if (!text) {
    lc_error(d, (lc_loc){0}, "%s: cannot read: %s", c->path, strerror(errno));
    return -1;
  }
  resume_ctx r = {c, c->header, d};
  int rc;
  size_t whole = each_line(text, len, resume_line, &r, &rc);
  free(text);
  if (rc < 0) {
    if (!lc_diag_first_error(d)) lc_error(d, (lc_loc){0}, "%s: --resume: a line is not a JSON object", c->path);
    return -1;
  }
  if (whole == 0) {
    lc_error(d, (lc_loc){0}, "%s: --resume: no campaign header", c->path);
    return -1;
  }
  /* a line cut short by a crash: dropped, its run runs again */
  if (whole < len && truncate(c->path, (off_t)whole) < 0) {
    lc_error(d, (lc_loc){0}, "%s: cannot drop the unfinished last line: %s", c->path, strerror(errno));
    return -1;
  }
  return 0;
}

static void campaign_free(run_campaign *c) {
  if (c->fd >= 0) close(c->fd);
  json_decref(c->header);
  free(c->done);
  free(c->path);
  memset(c, 0, sizeof *c);
  c->fd = -1;
}

static int campaign_open(run_campaign *c, const char *path, char **tests, size_t ntests, const run_grid *g,
                         const char *backend, uint64_t seed, unsigned shard, unsigned nshards, bool resume_it,
                         char *const *args, size_t nargs, lc_diag *d) {
  memset(c, 0, sizeof *c);
  c->args = args;
  c->nargs = nargs;
  c->path = lc_xstrdup(path);
  c->fd = -1;
  c->seed = seed;
  c->ntests = ntests;
  c->npoints = run_grid_points(g);
  c->shard = shard;
  c->nshards = nshards ? nshards : 1;
  c->grid = g;
  c->tests = tests;
  c->done = lc_xcalloc(ntests * c->npoints + 1, sizeof *c->done);
  c->header = make_header(c, tests, backend);
  struct stat st;
  bool exists = stat(path, &st) == 0 && st.st_size > 0;
  if (exists && !resume_it) {
    lc_error(d, (lc_loc){0}, "%s already holds results: --resume to go on with them, or remove it", path);
    return -1;
  }
  if (exists && resume(c, d) < 0) return -1;
  c->fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (c->fd < 0) {
    lc_error(d, (lc_loc){0}, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  return exists ? 0 : write_line(c, c->header, d);
}

int run_campaign_open(run_campaign *c, const char *path, char **tests, size_t ntests, const run_grid *g,
                      const char *backend, uint64_t seed, unsigned shard, unsigned nshards, bool resume_it,
                      char *const *args, size_t nargs, lc_diag *d) {
  assert(c && path && (tests || ntests == 0) && g && backend && (nshards == 0 || shard < nshards) && d);
  int rc = campaign_open(c, path, tests, ntests, g, backend, seed, shard, nshards, resume_it, args, nargs, d);
  if (rc < 0) campaign_free(c);
  return rc;
}

bool run_campaign_next(const run_campaign *c, size_t *run) {
  assert(c && run);
  for (size_t r = *run; r < c->ntests * c->npoints; r++)
    if (r % c->nshards == c->shard && !c->done[r]) {
      *run = r;
      return true;
    }
  return false;
}

size_t run_campaign_test(const run_campaign *c, size_t run) { return run % c->ntests; }
size_t run_campaign_point(const run_campaign *c, size_t run) { return run / c->ntests; }

uint64_t run_campaign_seed(const run_campaign *c, size_t run) {
  assert(c && run < c->ntests * c->npoints);
  uint64_t z = c->seed + (run + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int run_campaign_append(run_campaign *c, size_t run, json_t *result, lc_diag *d) {
  assert(c && run < c->ntests * c->npoints && result && d);
  char *seed = hex64(run_campaign_seed(c, run));
  json_t *line = json_pack("{s:I, s:s, s:o, s:s, s:O}", "run", (json_int_t)run, "test",
                           c->tests[run_campaign_test(c, run)], "point", point_json(c->grid, run_campaign_point(c, run)),
                           "seed", seed, "result", result);
  free(seed);
  int rc = write_line(c, line, d);
  json_decref(line);
  if (rc == 0) c->done[run] = true;
  return rc;
}

size_t run_campaign_mine(const run_campaign *c, size_t *done) {
  assert(c && done);
  size_t n = 0;
  *done = 0;
  for (size_t r = 0; r < c->ntests * c->npoints; r++)
    if (r % c->nshards == c->shard) {
      n++;
      *done += c->done[r];
    }
  return n;
}

int run_campaign_close(run_campaign *c, lc_diag *d) {
  int rc = 0;
  if (c->fd >= 0) {
    size_t done, mine = run_campaign_mine(c, &done);
    json_t *st = json_pack("{s:s, s:I, s:I}", "status", done == mine ? "complete" : "partial", "done",
                           (json_int_t)done, "of", (json_int_t)mine);
    rc = write_line(c, st, d);
    json_decref(st);
    if (close(c->fd) < 0 && rc == 0) {
      lc_error(d, (lc_loc){0}, "%s: %s", c->path, strerror(errno));
      rc = -1;
    }
    c->fd = -1;
  }
  campaign_free(c);
  return rc;
}

int run_campaign_resume_args(const char *path, char ***args, size_t *nargs, char ***tests, size_t *ntests) {
  assert(path && args && nargs && tests && ntests);
  *args = *tests = NULL;
  *nargs = *ntests = 0;
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, f);
  fclose(f);
  json_t *h = n > 0 ? json_loads(line, 0, NULL) : NULL;
  free(line);
  json_t *a = json_object_get(h, "args"), *p = json_object_get(h, "paths");
  if (!json_is_array(a) || !json_is_array(p)) {
    json_decref(h);
    return -1;
  }
  *args = lc_xcalloc(json_array_size(a) + 1, sizeof(char *));
  for (size_t i = 0; i < json_array_size(a); i++) {
    const char *s = json_string_value(json_array_get(a, i));
    (*args)[(*nargs)++] = lc_xstrdup(s ? s : "");
  }
  /* the tests from here: the campaign's folder joined with each path */
  char *dir = folder_of(path), *here = realpath(".", NULL);
  *tests = lc_xcalloc(json_array_size(p) + 1, sizeof(char *));
  for (size_t i = 0; i < json_array_size(p); i++) {
    const char *t = json_string_value(json_array_get(p, i));
    lc_buf b;
    lc_buf_init(&b);
    if (t && *t != '/' && dir) lc_buf_printf(&b, "%s/", dir);
    lc_buf_puts(&b, t ? t : "");
    char *real = realpath(b.s, NULL);
    (*tests)[(*ntests)++] = real && here ? relative_to(here, real) : lc_xstrdup(b.s);
    free(real);
    lc_buf_fini(&b);
  }
  free(dir);
  free(here);
  json_decref(h);
  return 0;
}

void run_campaign_args_free(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* ---- merging shards ---------------------------------------------------------------------- */

typedef struct merge_ctx {
  json_t *header;           /* the first file's, shard left out */
  json_int_t nshards;       /* the first file's shard count */
  json_t **runs;            /* by run number */
  size_t nruns;
  const char *path;
  lc_diag *d;
} merge_ctx;

static int merge_line(json_t *js, size_t lineno, void *arg) {
  merge_ctx *m = arg;
  if (lineno == 1) {
    json_t *h = json_deep_copy(js);
    json_t *shard = json_object_get(js, "shard");
    if (!m->header) m->nshards = json_integer_value(json_array_get(shard, 1));
    json_object_del(h, "shard");
    if (!json_object_get(h, "campaign")) {
      lc_error(m->d, (lc_loc){0}, "%s: not a campaign results file (no header)", m->path);
      json_decref(h);
      return -1;
    }
    if (!m->header) {
      m->header = h;
      m->nruns = (size_t)json_integer_value(json_object_get(h, "runs"));
      m->runs = lc_xcalloc(m->nruns + 1, sizeof *m->runs);
      return 0;
    }
    /* one campaign: the same but for the shard, the options that named it
     * and the spelling of the tests' paths (shards run from other folders) */
    json_t *a = json_deep_copy(m->header);
    const char *drop[] = {"args", json_object_get(h, "paths") && json_object_get(a, "paths") ? "tests" : "paths"};
    for (size_t i = 0; i < LC_ARRAY_LEN(drop); i++) json_object_del(a, drop[i]), json_object_del(h, drop[i]);
    bool same = json_equal(h, a);
    if (!same) {
      lc_buf b;
      lc_buf_init(&b);
      campaign_differences(&b, h, a);
      lc_error(m->d, (lc_loc){0}, "%s: another campaign than the first file's (%s)", m->path,
               b.n ? b.s + 2 : "header differs");
      lc_buf_fini(&b);
    }
    json_decref(h);
    json_decref(a);
    return same ? 0 : -1;
  }
  json_t *run = json_object_get(js, "run");
  if (!json_is_integer(run)) return 0;
  json_int_t r = json_integer_value(run);
  if (r < 0 || (size_t)r >= m->nruns) {
    lc_error(m->d, (lc_loc){0}, "%s:%zu: run %" JSON_INTEGER_FORMAT " is not in the campaign", m->path, lineno, r);
    return -1;
  }
  if (!m->runs[r]) m->runs[r] = json_incref(js);
  return 0;
}

/* Which runs no shard holds, as a warning: the first few by test and
 * grid point, and the shards they belong to (run r is shard r % N's). */
static void missing_runs(const merge_ctx *m, size_t done) {
  json_t *tests = json_object_get(m->header, "tests");
  size_t ntests = json_array_size(tests), shown = 0, nshards = m->nshards > 0 ? (size_t)m->nshards : 1;
  bool *shard = lc_xcalloc(nshards + 1, sizeof *shard);
  lc_buf b;
  lc_buf_init(&b);
  for (size_t r = 0; r < m->nruns; r++) {
    if (m->runs[r]) continue;
    shard[r % nshards] = true;
    if (shown++ == 8) {
      lc_buf_puts(&b, ", ...");
      continue;
    }
    if (shown > 8) continue;
    const char *test = ntests ? json_string_value(json_array_get(tests, r % ntests)) : NULL;
    lc_buf_printf(&b, "%srun %zu (%s", shown > 1 ? ", " : "", r, test ? test : "?");
    json_t *grid = json_object_get(m->header, "grid");
    if (ntests && json_array_size(grid)) {
      /* the point's values: the first axis varies slowest */
      size_t point = r / ntests, naxes = json_array_size(grid);
      const char **val = lc_xcalloc(naxes + 1, sizeof *val);
      for (size_t a = naxes; a-- > 0;) {
        json_t *values = json_object_get(json_array_get(grid, a), "values");
        size_t nv = json_array_size(values) ? json_array_size(values) : 1;
        val[a] = json_string_value(json_array_get(values, point % nv));
        point /= nv;
      }
      for (size_t a = 0; a < naxes; a++)
        lc_buf_printf(&b, "%s%s=%s", a ? " " : " at ", json_string_value(json_object_get(json_array_get(grid, a), "name")),
                      val[a] ? val[a] : "?");
      free(val);
    }
    lc_buf_putc(&b, ')');
  }
  lc_buf_printf(&b, "; in %s", nshards > 1 ? "shard" : "the campaign");
  if (nshards > 1) {
    size_t k = 0;
    for (size_t i = 0; i < nshards; i++)
      if (shard[i]) lc_buf_printf(&b, "%s%zu", k++ ? ", " : " ", i);
    lc_buf_printf(&b, " of %zu", nshards);
  }
  lc_warning(m->d, (lc_loc){0}, "%zu of %zu runs are missing: %s (not run, or not finished: --resume them)",
             m->nruns - done, m->nruns, b.s);
  lc_buf_fini(&b);
  free(shard);
}

int run_campaign_merge(char *const *paths, size_t n, const char *out, lc_diag *d) {
  assert((paths || n == 0) && out && d);
  merge_ctx m = {NULL, 0, NULL, 0, NULL, d};
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    size_t len;
    char *text = read_all(paths[i], &len);
    if (!text) {
      lc_error(d, (lc_loc){0}, "%s: cannot read: %s", paths[i], strerror(errno));
      rc = -1;
      break;
    }
    m.path = paths[i];
    each_line(text, len, merge_line, &m, &rc);
    if (rc < 0 && !lc_diag_first_error(d)) lc_error(d, (lc_loc){0}, "%s: a line is not a JSON object", paths[i]);
    free(text);
  }
  if (rc == 0 && !m.header) {
    lc_error(d, (lc_loc){0}, "no campaign results to merge");
    rc = -1;
  }
  if (rc == 0) {
    lc_buf b;
    lc_buf_init(&b);
    json_object_set_new(m.header, "shard", json_pack("[i,i]", 0, 1));
    size_t done = 0;
    char *h = json_dumps(m.header, JSON_COMPACT | JSON_PRESERVE_ORDER);
    lc_buf_printf(&b, "%s\n", h);
    free(h);
    for (size_t r = 0; r < m.nruns; r++) {
      if (!m.runs[r]) continue;
      char *t = json_dumps(m.runs[r], JSON_COMPACT | JSON_PRESERVE_ORDER);
      lc_buf_printf(&b, "%s\n", t);
      free(t);
      done++;
    }
    lc_buf_printf(&b, "{\"status\":\"%s\",\"done\":%zu,\"of\":%zu}\n", done == m.nruns ? "complete" : "partial", done,
                  m.nruns);
    rc = lc_write_atomic(out, b.s, b.n, d) < 0 ? -1 : done == m.nruns ? 0 : 1;
    lc_buf_fini(&b);
    if (rc == 1) missing_runs(&m, done);
  }
  for (size_t r = 0; r < m.nruns; r++) json_decref(m.runs[r]);
  free(m.runs);
  json_decref(m.header);
  return rc;
}
