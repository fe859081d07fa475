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
} search;

static void *worker(void *arg) {
  search *s = arg;
  while (!interrupted) {
    size_t i = atomic_fetch_add(&s->next, 1);
    if (i >= s->n) break;
    ex_check(&s->progs[i], s->m, s->o, s->cache, &s->res[i]);
    atomic_store(&s->done[i], 1);
    atomic_fetch_add(&s->finished, 1);
  }
  return NULL;
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
                   const char *model_text) {
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
  printf("Exhaustive search: table %s sm_%d, %s, bound %s: %zu programs\n", m->name, m->sm, model_text, bt.s, n);
  fflush(stdout);
  if (jobs == 0) {
    free(progs);
    lc_buf_fini(&bt);
    return LC_EXIT_OK;
  }
  search s = {m, o, ex_cache_new(), progs, n, lc_xcalloc(n + 1, sizeof(ex_result)), lc_xcalloc(n + 1, sizeof(atomic_uchar)), 0, 0};
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  pthread_t *th = lc_xcalloc((size_t)jobs, sizeof *th);
  int started = 0;
  for (int j = 0; j < jobs; j++)
    if (pthread_create(&th[j], NULL, worker, &s) == 0) started++;
  if (!started) worker(&s);
  bool tty = isatty(2);
  while (started && atomic_load(&s.finished) < n && !interrupted) {
    usleep(50000);
    if (tty) {
      size_t f = atomic_load(&s.finished);
      double el = now() - t0;
      fprintf(stderr, "\r%zu of %zu programs, %.0f s, %.1f programs/s   ", f, n, el, el > 0 ? (double)f / el : 0.0);
    }
    /* the workers end themselves; this loop only shows progress */
    if (atomic_load(&s.next) >= n && atomic_load(&s.finished) >= n) break;
  }
  for (int j = 0; j < started; j++) pthread_join(th[j], NULL);
  if (tty) fputs("\r\033[K", stderr);
  sigaction(SIGINT, &old, NULL);
  free(th);
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
  double el = now() - t0, cpu = cpu_seconds() - c0;
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
