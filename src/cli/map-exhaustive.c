/* map-exhaustive.c - litmus-check --check-mapping TABLE --exhaustive:
 * every C++ program within a bound checked against the table, the
 * smallest counterexample per row printed (docs/mappings.md, "Exhaustive
 * search").  Workers are threads, each with its own engines (the library
 * keeps no global state); an interrupt stops them and what was found is
 * printed.
 * SPDX-License-Identifier: MIT
 */
#define _DEFAULT_SOURCE
#include "cli/map-cli.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "map/exhaustive.h"

/* Set by SIGINT: a signal handler can reach nothing else. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) {
  (void)sig;
  interrupted = 1;
}

typedef struct search {
  const map_table *m;
  const map_check_options *o;
  ex_cache *cache;
  const ex_prog *progs;
  size_t n;
  ex_result *res;
  atomic_uchar *done;
  atomic_size_t next, finished;
  size_t shard, shards;     /* this run checks programs shard, shard + shards, ... */
  size_t mine;              /* how many that is */
} search;

static void *worker(void *arg) {
  search *s = arg;
  while (!interrupted) {
    size_t k = atomic_fetch_add(&s->next, 1);
    if (k >= s->mine) break;
    size_t i = s->shard + k * s->shards;
    ex_check(&s->progs[i], s->m, s->o, s->cache, &s->res[i]);
    atomic_store(&s->done[i], 1);
    atomic_fetch_add(&s->finished, 1);
  }
  return NULL;
}

/* ---- shards: a part of the programs checked, its results written as
 * JSON lines, and the report of their merge ------------------------------ */

/* The run a shard file belongs to: every shard of one search has it. */
static json_t *run_header(const map_table *m, const char *models, const char *bound, size_t n, size_t shards) {
  return json_pack("{s:s, s:i, s:s, s:s, s:I, s:I}", "table", m->name, "sm", m->sm, "models", models, "bound",
                   bound, "programs", (json_int_t)n, "shards", (json_int_t)shards);
}

static json_t *rows_json(const ex_row_use *rows, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; i < n; i++) json_array_append_new(a, json_pack("[i,i,i]", rows[i].kind, rows[i].order, rows[i].id));
  return a;
}

static void print_result_line(size_t i, const ex_result *r) {
  json_t *used = json_array();
  for (int k = 0; k < MAP_NKINDS; k++)
    for (int o = 0; o < MAP_NORDERS; o++)
      for (int id = 0; id <= MAP_MAX_ALT; id++)
        if (r->used[k][o][id]) json_array_append_new(used, json_pack("[i,i,i]", k, o, id));
  json_t *v = json_array();
  for (size_t x = 0; x < r->nv; x++)
    json_array_append_new(v, json_pack("{s:s, s:o}", "extra", r->v[x].extra ? r->v[x].extra : "", "rows",
                                       rows_json(r->v[x].rows, r->v[x].nrows)));
  json_t *o = json_pack("{s:I, s:i, s:I, s:I, s:o, s:o}", "program", (json_int_t)i, "verdict", (int)r->verdict,
                        "combinations", (json_int_t)r->combinations, "reducible", (json_int_t)r->reducible, "used",
                        used, "violations", v);
  if (r->message) json_object_set_new(o, "message", json_string(r->message));
  char *text = json_dumps(o, JSON_COMPACT);
  puts(text);
  free(text);
  json_decref(o);
}

static bool rows_from(json_t *a, ex_row_use **rows, size_t *n) {
  *n = json_array_size(a);
  *rows = lc_xcalloc(*n + 1, sizeof **rows);
  for (size_t i = 0; i < *n; i++) {
    json_int_t k, o, id;
    if (json_unpack(json_array_get(a, i), "[I,I,I]", &k, &o, &id) || k < 0 || k >= MAP_NKINDS || o < 0 ||
        o >= MAP_NORDERS || id < 0 || id > MAP_MAX_ALT)
      return false;
    (*rows)[i] = (ex_row_use){(unsigned char)k, (unsigned char)o, (unsigned char)id};
  }
  return true;
}

/* One program's result from its line; false when the line is not one. */
static bool result_from(json_t *j, size_t n, size_t *index, ex_result *r) {
  json_int_t i, verdict, combos, reducible;
  json_t *used, *v;
  const char *message = NULL;
  if (json_unpack(j, "{s:I, s:I, s:I, s:I, s:o, s:o, s?s}", "program", &i, "verdict", &verdict, "combinations",
                  &combos, "reducible", &reducible, "used", &used, "violations", &v, "message", &message) ||
      i < 0 || (size_t)i >= n || !json_is_array(used) || !json_is_array(v))
    return false;
  memset(r, 0, sizeof *r);
  *index = (size_t)i;
  r->verdict = (map_verdict)verdict;
  r->combinations = (size_t)combos;
  r->reducible = (size_t)reducible;
  r->message = message ? lc_xstrdup(message) : NULL;
  ex_row_use *u = NULL;
  size_t nu = 0;
  bool ok = rows_from(used, &u, &nu);
  for (size_t x = 0; ok && x < nu; x++) r->used[u[x].kind][u[x].order][u[x].id] = 1;
  free(u);
  r->nv = json_array_size(v);
  r->v = lc_xcalloc(r->nv + 1, sizeof *r->v);
  for (size_t x = 0; ok && x < r->nv; x++) {
    json_t *e = json_array_get(v, x);
    const char *extra = json_string_value(json_object_get(e, "extra"));
    r->v[x].extra = lc_xstrdup(extra ? extra : "");
    ok = extra && rows_from(json_object_get(e, "rows"), &r->v[x].rows, &r->v[x].nrows);
  }
  return ok;
}

typedef struct merged {
  double seconds, cpu;      /* the longest shard's wall time, the shards' CPU time summed */
  int jobs;                 /* threads per shard */
  bool interrupted;         /* a shard says it was */
} merged;

/* Reads the shard files into s (res, done); -1 after a message when a
 * file cannot be read, belongs to another search, or repeats a shard. */
static int read_shards(search *s, char *const *files, size_t nfiles, json_t *header, merged *mg) {
  size_t shards = 0;
  bool *seen = NULL;
  int rc = 0;
  for (size_t f = 0; f < nfiles && rc == 0; f++) {
    FILE *in = fopen(files[f], "r");
    if (!in) {
      fprintf(stderr, "litmus-check: cannot read '%s': %s\n", files[f], strerror(errno));
      rc = -1;
      break;
    }
    json_error_t je;
    size_t line = 0;
    bool ended = false;
    char *buf = NULL;
    size_t cap = 0;
    while (rc == 0 && getline(&buf, &cap, in) > 0) {
      line++;
      json_t *j = json_loads(buf, 0, &je);
      json_t *run = j ? json_object_get(j, "run") : NULL;
      if (!j) {
        fprintf(stderr, "%s:%zu:%d: error: not a shard line: %s\n", files[f], line, je.column, je.text);
        rc = -1;
      } else if (line == 1) {
        json_int_t k = -1;
        json_unpack(j, "{s:I}", "shard", &k);
        if (!run || !json_equal(json_object_get(run, "table"), json_object_get(header, "table")) ||
            !json_equal(json_object_get(run, "sm"), json_object_get(header, "sm")) ||
            !json_equal(json_object_get(run, "models"), json_object_get(header, "models")) ||
            !json_equal(json_object_get(run, "bound"), json_object_get(header, "bound")) ||
            !json_equal(json_object_get(run, "programs"), json_object_get(header, "programs")) ||
            (shards && (size_t)json_integer_value(json_object_get(run, "shards")) != shards)) {
          char *theirs = run ? json_dumps(run, JSON_COMPACT) : lc_xstrdup("nothing");
          fprintf(stderr, "%s:1: error: a shard of another search (%s); every shard needs the table, --sm, models, "
                          "options and --bound of this one\n", files[f], theirs);
          free(theirs);
          rc = -1;
        } else {
          shards = (size_t)json_integer_value(json_object_get(run, "shards"));
          if (!seen) seen = lc_xcalloc(shards + 1, sizeof(bool));
          if (k < 0 || (size_t)k >= shards || seen[k]) {
            fprintf(stderr, "%s:1: error: shard %lld of %zu %s\n", files[f], (long long)k, shards,
                    k >= 0 && (size_t)k < shards ? "given twice" : "is out of range");
            rc = -1;
          } else {
            seen[k] = true;
          }
        }
      } else if (json_object_get(j, "end")) {
        ended = true;
        double sec = json_number_value(json_object_get(j, "seconds")), cpu = json_number_value(json_object_get(j, "cpu"));
        if (sec > mg->seconds) mg->seconds = sec;
        mg->cpu += cpu;
        mg->jobs = (int)json_integer_value(json_object_get(j, "jobs"));
        mg->interrupted |= json_is_true(json_object_get(j, "interrupted"));
      } else {
        size_t i;
        ex_result r;
        if (!result_from(j, s->n, &i, &r)) {
          fprintf(stderr, "%s:%zu: error: not a program's result\n", files[f], line);
          ex_result_fini(&r);
          rc = -1;
        } else if (atomic_load(&s->done[i])) {
          ex_result_fini(&r);   /* the same program in two files: the shards overlap */
          fprintf(stderr, "%s:%zu: error: program %zu is in another shard file too\n", files[f], line, i);
          rc = -1;
        } else {
          s->res[i] = r;
          atomic_store(&s->done[i], 1);
        }
      }
      json_decref(j);
    }
    free(buf);
    fclose(in);
    if (rc == 0 && !line) {
      fprintf(stderr, "%s: error: empty, not a shard file\n", files[f]);
      rc = -1;
    }
    if (rc == 0 && !ended) mg->interrupted = true;   /* a shard still running, or killed */
  }
  /* a smallest counterexample may be in the shard missing: no report */
  for (size_t k = 0; rc == 0 && k < shards; k++)
    if (!seen[k]) {
      fprintf(stderr, "litmus-check: shard %zu of %zu missing (every shard file is needed)\n", k, shards);
      rc = -1;
    }
  free(seen);
  return rc;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const map_alt *alt_by_id(const map_row *r, int id) {
  for (size_t a = 0; a < r->nalts; a++)
    if (r->alts[a].id == id) return &r->alts[a];
  return NULL;
}

static void print_counterexample(const map_table *m, const ex_prog *p, const ex_violation *v, const map_row *row,
                                 const map_alt *alt) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, "Row ");
  map_print_alt_name(&b, row, alt);
  lc_buf_puts(&b, " (");
  map_print_alt(&b, alt);
  lc_buf_printf(&b, "): minimal counterexample, %zu events in %d threads\nExtra outcome: %s\nRows used:",
                ex_prog_events(p), p->nthreads, v->extra);
  for (size_t i = 0; i < v->nrows; i++) {
    const map_row *r = &m->rows[v->rows[i].kind][v->rows[i].order];
    const map_alt *a = alt_by_id(r, v->rows[i].id);
    lc_buf_puts(&b, i ? ", " : " ");
    if (a) map_print_alt_name(&b, r, a);
    else lc_buf_puts(&b, "fence relaxed (nothing)");
  }
  lc_buf_printf(&b, "\nC++ test (litmus-check --check-mapping %s reports the violation):\n", m->name);
  char *text = ex_prog_text(p, v->extra, "A minimal counterexample of litmus-check --check-mapping --exhaustive.");
  lc_buf_puts(&b, text);
  free(text);
  lc_buf_putc(&b, '\n');
  fputs(b.s, stdout);
  lc_buf_fini(&b);
}

/* Every row alternative: its smallest counterexample, exercised, or why
 * not; returns the number of rows with a counterexample. */
static size_t report_rows(const map_table *m, const ex_bound *bound, const search *s, size_t upto) {
  static const int kinds_of[MAP_NKINDS][2] = {{EX_R, -1}, {EX_W, -1}, {EX_U, EX_C}, {EX_F, -1}};
  size_t violated = 0, rows = 0, hit = 0;
  lc_buf never, unreachable;
  lc_buf_init(&never);
  lc_buf_init(&unreachable);
  for (int k = 0; k < MAP_NKINDS; k++)
    for (int o = 0; o < MAP_NORDERS; o++) {
      const map_row *r = &m->rows[k][o];
      bool reachable = false;
      for (int j = 0; j < 2; j++)
        if (kinds_of[k][j] >= 0 && bound->orders[kinds_of[k][j]] >> o & 1) reachable = true;
      for (size_t a = 0; a < r->nalts; a++) {
        int id = r->alts[a].id;
        rows++;
        bool used = false;
        for (size_t i = 0; i < upto && !used; i++)
          if (atomic_load(&s->done[i]) && id <= MAP_MAX_ALT && s->res[i].used[k][o][id]) used = true;
        if (used) hit++;
        size_t first = upto;
        size_t fv = 0;
        for (size_t i = 0; i < upto && first == upto; i++) {
          if (!atomic_load(&s->done[i])) continue;
          for (size_t x = 0; x < s->res[i].nv && first == upto; x++) {
            const ex_violation *v = &s->res[i].v[x];
            for (size_t e = 0; e < v->nrows; e++)
              if (v->rows[e].kind == k && v->rows[e].order == o && v->rows[e].id == id) { first = i; fv = x; break; }
          }
        }
        if (first < upto) {
          violated++;
          print_counterexample(m, &s->progs[first], &s->res[first].v[fv], r, &r->alts[a]);
        }
        if (!used) {
          lc_buf *to = reachable ? &never : &unreachable;
          lc_buf_puts(to, to->n ? "; " : " ");
          map_print_alt_name(to, r, &r->alts[a]);
        }
      }
    }
  printf("Rows: %zu of %zu exercised", hit, rows);
  if (unreachable.n) printf("; unreachable within the bound:%s", unreachable.s);
  if (never.n) printf("; never exercised (every program using them racy, or left to a weaker one):%s", never.s);
  printf("\n");
  lc_buf_fini(&never);
  lc_buf_fini(&unreachable);
  return violated;
}

int map_exhaustive(const map_table *m, const map_check_options *o, const char *spec, int jobs,
                   const char *model_text, const map_shards *sh) {
  lc_buf bt;
  lc_buf_init(&bt);
  double t0 = now(), c0 = cpu_seconds();
  ex_prog *progs = NULL;
  char *err = NULL;
  long got = ex_enumerate_spec(spec ? spec : EX_DEFAULT_BOUND, m, &progs, &bt, &err);
  if (got < 0) {
    fprintf(stderr, "litmus-check: %s\n", err);
    free(err);
    lc_buf_fini(&bt);
    return LC_EXIT_INPUT;
  }
  size_t n = (size_t)got;
  ex_bound bound;   /* what any part of the bound reaches, for the rows' report */
  memset(&bound, 0, sizeof bound);
  for (const char *p = spec ? spec : EX_DEFAULT_BOUND; *p;) {
    size_t len = strcspn(p, ";");
    char *one = lc_xstrndup(p, len);
    ex_bound b;
    ex_bound_default(&b);
    if (ex_bound_parse(one, &b, &err) == 0) {
      ex_bound_fit(&b, m);
      for (int k = 0; k < EX_NKINDS; k++) bound.orders[k] |= b.orders[k];
    }
    free(err);
    err = NULL;
    free(one);
    p += len;
    if (*p) p++;
  }
  bool sharded = sh && sh->shards > 0, merging = sh && sh->nmerge > 0;
  json_t *header = run_header(m, model_text, bt.s, n, sharded ? sh->shards : 0);
  if (sharded) {
    json_t *h = json_pack("{s:O, s:I}", "run", header, "shard", (json_int_t)sh->shard);
    char *text = json_dumps(h, JSON_COMPACT);
    puts(text);
    free(text);
    json_decref(h);
  } else {
    printf("Exhaustive search: table %s sm_%d, %s, bound %s: %zu programs\n", m->name, m->sm, model_text, bt.s, n);
  }
  fflush(stdout);
  if (jobs == 0) {
    json_decref(header);
    free(progs);
    lc_buf_fini(&bt);
    return LC_EXIT_OK;
  }
  search s = {m, o, ex_cache_new(), progs, n, lc_xcalloc(n + 1, sizeof(ex_result)), lc_xcalloc(n + 1, sizeof(atomic_uchar)), 0, 0,
              sharded ? sh->shard : 0, sharded ? sh->shards : 1, 0};
  s.mine = s.shard < n ? (n - s.shard + s.shards - 1) / s.shards : 0;
  merged mg = {0, 0, jobs, false};
  if (merging) {
    if (read_shards(&s, sh->merge, sh->nmerge, header, &mg) < 0) {
      for (size_t i = 0; i < n; i++) ex_result_fini(&s.res[i]);
      free(s.res);
      free((void *)s.done);
      ex_cache_free(s.cache);
      free(progs);
      lc_buf_fini(&bt);
      json_decref(header);
      return LC_EXIT_INPUT;
    }
    s.mine = 0;   /* nothing to check: the shards did */
  }
  json_decref(header);
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  pthread_t *th = lc_xcalloc((size_t)jobs, sizeof *th);
  int started = 0;
  for (int j = 0; j < jobs && s.mine; j++)
    if (pthread_create(&th[j], NULL, worker, &s) == 0) started++;
  if (!started) worker(&s);
  bool tty = isatty(2);
  while (started && atomic_load(&s.finished) < s.mine && !interrupted) {
    usleep(50000);
    if (tty) {
      size_t f = atomic_load(&s.finished);
      double el = now() - t0;
      fprintf(stderr, "\r%zu of %zu programs, %.0f s, %.1f programs/s   ", f, s.mine, el, el > 0 ? (double)f / el : 0.0);
    }
    /* the workers end themselves; this loop only shows progress */
    if (atomic_load(&s.next) >= s.mine && atomic_load(&s.finished) >= s.mine) break;
  }
  for (int j = 0; j < started; j++) pthread_join(th[j], NULL);
  if (tty) fputs("\r\033[K", stderr);
  sigaction(SIGINT, &old, NULL);
  free(th);
  if (sharded) {
    size_t finished = 0;
    for (size_t i = 0; i < n; i++)
      if (atomic_load(&s.done[i])) {
        print_result_line(i, &s.res[i]);
        finished++;
      }
    json_t *end = json_pack("{s:b, s:I, s:b, s:f, s:f, s:i}", "end", 1, "finished", (json_int_t)finished,
                            "interrupted", interrupted || finished < s.mine, "seconds", now() - t0, "cpu",
                            cpu_seconds() - c0, "jobs", jobs);
    char *text = json_dumps(end, JSON_COMPACT);
    puts(text);
    free(text);
    json_decref(end);
    for (size_t i = 0; i < n; i++) ex_result_fini(&s.res[i]);
    free(s.res);
    free((void *)s.done);
    ex_cache_free(s.cache);
    free(progs);
    lc_buf_fini(&bt);
    return interrupted || finished < s.mine ? LC_EXIT_INTERNAL : LC_EXIT_OK;
  }
  if (merging) interrupted = interrupted || mg.interrupted;
  size_t upto = n, finished = 0, racy = 0, idle = 0, unknown = 0, errors = 0, violating = 0, reducible = 0,
         combos = 0;
  for (size_t i = 0; i < n; i++) {
    if (!atomic_load(&s.done[i])) continue;
    finished++;
    const ex_result *r = &s.res[i];
    if (r->verdict == MAP_V_RACY) racy++;
    else if (r->verdict == MAP_V_UNKNOWN) unknown++;
    else if (r->verdict == MAP_V_ERROR) {
      if (!errors++) fprintf(stderr, "litmus-check: %s\n", r->message ? r->message : "a program could not be checked");
    }
    else if (r->reducible == (size_t)-1) idle++;
    else reducible += r->reducible;
    if (r->nv) violating++;
    combos += r->combinations;
  }
  size_t violated = report_rows(m, &bound, &s, upto);
  double el = merging ? mg.seconds : now() - t0, cpu = merging ? mg.cpu : cpu_seconds() - c0;
  jobs = merging ? mg.jobs : jobs;
  printf("Summary: %zu programs%s: %zu checked on %zu combinations, %zu left to a weaker program (an order "
         "the C++ model does not need), %zu racy (constrain nothing), %zu unknown, %zu errors; %zu with a "
         "minimal violation (%zu violating combinations a smaller program explains); %.1f s, %.1f CPU s, "
         "%.1f programs/s, -j %d\n",
         finished, interrupted ? " (interrupted)" : "", finished - racy - idle - unknown - errors, combos, idle,
         racy, unknown, errors, violating, reducible, el, cpu, el > 0 ? (double)finished / el : 0.0, jobs);
  int status;
  if (violated) {
    printf("violations of %zu rows up to %s: %zu programs\n", violated, bt.s, finished);
    status = LC_EXIT_MISMATCH;
  } else if (interrupted || finished < n) {
    printf("interrupted: no violation in %zu of %zu programs up to %s\n", finished, n, bt.s);
    status = LC_EXIT_INTERNAL;
  } else if (unknown || errors) {
    printf("no violation found, but %zu programs were not decided, up to %s\n", unknown + errors, bt.s);
    status = LC_EXIT_INTERNAL;
  } else {
    printf("sound up to %s: %zu programs\n", bt.s, n);
    status = LC_EXIT_OK;
  }
  for (size_t i = 0; i < n; i++) ex_result_fini(&s.res[i]);
  free(s.res);
  free((void *)s.done);
  ex_cache_free(s.cache);
  free(progs);
  lc_buf_fini(&bt);
  return status;
}
