/* diff-cli.c - litmus-check --diff-models A B: the tests on which two
 * models' state sets differ, from files, from litmus-gen's generators, or
 * every small program within a bound (--exhaustive), smallest first, each
 * with a state one model allows and the other forbids and the checks that
 * forbid it (docs/diff-models.md).  Option parsing, the search's rounds
 * and printing; the comparison is in src/query/diff.c, the programs come
 * from src/map/exhaustive.c.
 * SPDX-License-Identifier: MIT
 */
#define _DEFAULT_SOURCE
#include "cli/diff-cli.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <z3.h>

#include "check.h"
#include "cli/cli.h"
#include "cli/memory.h"
#include "diff.h"
#include "isolate.h"
#include "gen/gen.h"
#include "gen/gen_cycle.h"
#include "litmus/cpp_ast.h"
#include "map/exhaustive.h"
#include "paths.h"

typedef struct dopts {
  const char *name[2];      /* the models as given: the report's labels */
  lc_check_options check;
  bool json;
  bool exhaustive;
  const char *bound;        /* --bound SPEC */
  const char *gen;          /* --gen SPEC */
  long jobs;
  long max;                 /* distinguishing tests printed (0: all) */
  bool all_sizes;           /* go on past the first size that differs */
  bool count_only;
  bool explain;             /* name the checks that forbid each state */
  bool no_cycles;           /* --no-cycles: --exhaustive stops at its bound */
  size_t max_memory;        /* --max-memory, bytes, for the whole run (default: half the memory) */
  size_t child_memory;      /* each test's process: --max-memory (default: half the memory shared
                               among the jobs) */
  lc_paths files;
} dopts;

bool diff_cli_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--diff-models")) return true;
  return false;
}

static int usage_error(const char *msg) {
  fprintf(stderr, "litmus-check: --diff-models: %s (try 'litmus-check --help')\n", msg);
  return LC_EXIT_INPUT;
}

static int parse_long(const char *what, const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || end == s || v < lo || v > hi) {
    fprintf(stderr, "litmus-check: %s takes %ld to %ld\n", what, lo, hi);
    return -1;
  }
  *out = v;
  return 0;
}

enum { O_JSON = 256, O_EXH, O_BOUND, O_GEN, O_MAX, O_ALL, O_COUNT, O_NOEXPLAIN, O_NORACES, O_MAXMEM, O_NOCYCLES };

/* -1 when the run goes on, else the exit status. */
static int parse(int argc, char **argv, dopts *o) {
  /* --diff-models takes two arguments, which getopt cannot say: they are
   * taken out first */
  char **args = lc_xcalloc((size_t)argc + 1, sizeof *args);
  int n = 0, found = 0;
  for (int i = 0; i < argc; i++) {
    if (i > 0 && !strcmp(argv[i], "--diff-models")) {
      if (found++) { free(args); return usage_error("give --diff-models once"); }
      if (i + 2 >= argc) { free(args); return usage_error("takes two models, A and B"); }
      o->name[0] = argv[i + 1];
      o->name[1] = argv[i + 2];
      i += 2;
      continue;
    }
    args[n++] = argv[i];
  }
  static const struct option longs[] = {
    {"json", no_argument, NULL, O_JSON}, {"exhaustive", no_argument, NULL, O_EXH},
    {"bound", required_argument, NULL, O_BOUND}, {"gen", required_argument, NULL, O_GEN},
    {"max", required_argument, NULL, O_MAX}, {"all-sizes", no_argument, NULL, O_ALL},
    {"count-only", no_argument, NULL, O_COUNT}, {"no-explain", no_argument, NULL, O_NOEXPLAIN},
    {"no-races", no_argument, NULL, O_NORACES}, {"max-memory", required_argument, NULL, O_MAXMEM},
    {"no-cycles", no_argument, NULL, O_NOCYCLES},
    {"engine", required_argument, NULL, 'e'}, {"timeout", required_argument, NULL, 't'},
    {"unroll", required_argument, NULL, 'u'}, {"jobs", required_argument, NULL, 'j'},
    {NULL, 0, NULL, 0}};
  int c, status = -1;
  long v;
  opterr = 0;
  optind = 1;
  while (status < 0 && (c = getopt_long(n, args, "e:t:u:j:", longs, NULL)) != -1) {
    switch (c) {
    case O_JSON: o->json = true; break;
    case O_EXH: o->exhaustive = true; break;
    case O_BOUND: o->bound = optarg; break;
    case O_GEN: o->gen = optarg; break;
    case O_MAX: if (parse_long("--max", optarg, 0, 1000000, &o->max)) status = LC_EXIT_INPUT; break;
    case O_ALL: o->all_sizes = true; break;
    case O_COUNT: o->count_only = true; break;
    case O_NOEXPLAIN: o->explain = false; break;
    case O_NOCYCLES: o->no_cycles = true; break;
    case O_NORACES: o->check.races = false; break;
    case O_MAXMEM:
      if (mem_parse_size(optarg, &o->max_memory)) {
        fprintf(stderr, "litmus-check: --max-memory: '%s' is not a size of at least 16M (e.g. 512M, 2G)\n", optarg);
        status = LC_EXIT_INPUT;
      }
      break;
    case 'e':
      if (lc_engine_parse(optarg, &o->check.engine)) status = usage_error("--engine takes smt, enum or auto");
      break;
    case 't': {
      char *end;
      errno = 0;
      double secs = strtod(optarg, &end);
      if (errno || end == optarg || *end || !(secs > 0) || secs > 1e7) {
        fprintf(stderr, "litmus-check: --timeout: '%s' is not a positive number of seconds\n", optarg);
        status = LC_EXIT_INPUT;
      } else {
        o->check.timeout = secs;
      }
      break;
    }
    case 'u':
      if (parse_long("--unroll", optarg, 1, 64, &v)) status = LC_EXIT_INPUT;
      else o->check.unroll = (unsigned)v;
      break;
    case 'j': if (parse_long("--jobs", optarg, 1, 256, &o->jobs)) status = LC_EXIT_INPUT; break;
    default: {
      lc_buf b;
      lc_buf_init(&b);
      lc_buf_printf(&b, "unknown option or missing argument '%s'", args[optind - 1]);
      status = usage_error(b.s);
      lc_buf_fini(&b);
    }
    }
  }
  if (status < 0) {
    for (int i = optind; i < n; i++) lc_paths_walk(&o->files, args[i], NULL);
    int sources = (o->exhaustive ? 1 : 0) + (o->gen ? 1 : 0) + (o->files.n || optind < n ? 1 : 0);
    if (sources != 1) status = usage_error("give test files, --gen SPEC or --exhaustive (one of them)");
    else if (o->bound && !o->exhaustive) status = usage_error("--bound goes with --exhaustive");
    else if (o->count_only && !o->exhaustive) status = usage_error("--count-only goes with --exhaustive");
    else if (o->all_sizes && !o->exhaustive) status = usage_error("--all-sizes goes with --exhaustive");
    else if (o->no_cycles && !o->exhaustive) status = usage_error("--no-cycles goes with --exhaustive");
    else if (!o->files.n && optind < n) status = usage_error("no test file found in the folders given");
  }
  free(args);
  return status;
}

/* ---- one test ------------------------------------------------------------------- */

/* A test of the run and what the models said of it. */
typedef struct item {
  char *label;              /* the path, or the generator's name for a test */
  char *text;               /* the test's text, for generated programs (printed) */
  lt_test *t;               /* NULL when it could not be read (message) */
  lc_source src;            /* what t points into */
  bool has_src;
  size_t threads, instrs;
  bool skipped;             /* of a dialect neither model is for */
  char *error;              /* could not be read or parsed */
  lc_diff d;
  bool done;
  size_t order;             /* in the order given */
} item;

/* Threads and instructions (a C++ test: its threads' statements, a block
 * one). */
static void item_size(item *it) {
  it->threads = it->t->nthreads;
  it->instrs = 0;
  for (size_t i = 0; i < it->t->nthreads; i++) {
    if (it->t->cpp) it->instrs += it->t->cpp->threads[i].body.n;
    else
      for (size_t k = 0; k < it->t->threads[i].ncells; k++) it->instrs += it->t->threads[i].cells[k].instr != NULL;
  }
}

static void item_fini(item *it) {
  free(it->label);
  free(it->text);
  lt_test_free(it->t);
  if (it->has_src) lc_source_fini(&it->src);
  free(it->error);
  lc_diff_fini(&it->d);
}

/* Parses text (named label) into it. */
static void item_from_text(item *it, const char *label, const char *text, bool keep_text) {
  memset(it, 0, sizeof *it);
  it->label = lc_xstrdup(label);
  if (keep_text) it->text = lc_xstrdup(text);
  lc_source_from_string(&it->src, it->label, text, strlen(text));
  it->has_src = true;
  lc_diag d;
  lc_diag_init(&d, &it->src, NULL);
  it->t = lt_parse(&it->src, &d);
  if (!it->t) {
    const char *e = lc_diag_first_error(&d);
    it->error = lc_xstrdup(e ? e : "cannot be parsed");
  } else {
    item_size(it);
  }
  lc_diag_fini(&d);
}

typedef struct run {
  const dopts *o;
  const cat_model *m[2];
  cli_dialect dialect;      /* of the pair: PTX, C++ or any */
  item *items;
  size_t n;
  bool explain;             /* in the workers */
  const ex_prog *progs;     /* --exhaustive: item i is program i, built by the worker that
                               checks it and freed unless it differs */
  bool ptx;                 /* ... a PTX program, else C++ */
} run;

/* Item i of an exhaustive round: program p, parsed from its text. */
static void build_program(item *it, const ex_prog *p, bool ptx, size_t i) {
  lc_buf name;
  lc_buf_init(&name);
  if (ptx) ex_prog_ptx_name(&name, p);
  else ex_prog_name(&name, p);
  char *text = ptx ? ex_prog_ptx_text(p, NULL, NULL) : ex_prog_text(p, NULL, NULL);
  item_from_text(it, name.s, text, false);
  it->instrs = ex_prog_events(p);   /* a C++ test's code table holds no instructions */
  it->order = i;
  free(text);
  lc_buf_fini(&name);
}

static bool of_dialect(const run *r, const lt_test *t) {
  return r->dialect == CLI_DIALECT_ANY || (r->dialect == CLI_DIALECT_CPP) == (t->cpp != NULL);
}

/* ---- each test in a child process (isolate.h) ------------------------------------ */

/* One round of tests checked apart: its[i] is task i. */
typedef struct batch {
  run *r;
  item **its;
  size_t n;
  bool explain;
  size_t memory;            /* each child's --max-memory, bytes (0: none) */
  int fd;                   /* in a child: the pipe to the parent */
} batch;

static size_t item_index(const run *r, const item *it) { return (size_t)(it - r->items); }

/* Each explanation is a part with a --timeout of its own: the parent's
 * kill moves with it. */
static void new_phase(void *ctx) {
  batch *b = ctx;
  double timeout = b->r->o->check.timeout;
  if (timeout <= 0 || b->fd < 0) return;
  char s[32];
  snprintf(s, sizeof s, "%.3f", lc_iso_hard_limit(timeout));
  const char *in[] = {s};
  lc_iso_send(b->fd, LC_ISO_DEADLINE, in, 1);
}

/* In a child: the test's comparison, sent as fields: skipped, error,
 * kind, message, the two state counts, seconds, then per differing state
 * its text, model, checks and message. */
static void child_run(void *ctx, size_t i, int fd) {
  batch *b = ctx;
  run *r = b->r;
  item *it = b->its[i];
  b->fd = fd;
  if (b->memory) mem_limit_self(b->memory);
  if (r->progs && !it->label) build_program(it, &r->progs[item_index(r, it)], r->ptx, item_index(r, it));
  bool skipped = it->t && !of_dialect(r, it->t);
  lc_diff d = {0};
  if (it->t && !skipped) lc_diff_test_phases(it->t, r->m, &r->o->check, b->explain, 0, new_phase, b, &d);
  size_t nf = 7 + 4 * d.n;
  char **f = lc_xcalloc(nf, sizeof *f);
  char num[4][32];
  snprintf(num[0], sizeof num[0], "%d", (int)d.kind);
  snprintf(num[1], sizeof num[1], "%zu", d.nstates[0]);
  snprintf(num[2], sizeof num[2], "%zu", d.nstates[1]);
  snprintf(num[3], sizeof num[3], "%.17g", d.seconds);
  f[0] = skipped ? "1" : "0";
  f[1] = it->error;
  f[2] = num[0];
  f[3] = d.message;
  f[4] = num[1];
  f[5] = num[2];
  f[6] = num[3];
  for (size_t k = 0; k < d.n; k++) {
    f[7 + 4 * k] = d.v[k].state;
    f[8 + 4 * k] = d.v[k].allowed_by ? "1" : "0";
    f[9 + 4 * k] = d.v[k].why;
    f[10 + 4 * k] = d.v[k].message;
  }
  lc_iso_send(fd, LC_ISO_RESULT, (const char *const *)f, nf);
  free(f);
  lc_diff_fini(&d);
  /* a child takes task after task: a program it built goes with its
   * task (rounds of --exhaustive hold 10^5 of them) */
  if (r->progs) {
    item_fini(it);
    memset(it, 0, sizeof *it);
  }
}

static char *dup_or_null(const char *s) { return s ? lc_xstrdup(s) : NULL; }

/* The comparison a child sent, or why none came. */
static void outcome_diff(const batch *b, const lc_iso_outcome *x, lc_diff *d, bool *skipped, char **error) {
  memset(d, 0, sizeof *d);
  *skipped = false;
  *error = NULL;
  if (x->end == LC_ISO_DONE && x->nfields >= 7 && (x->nfields - 7) % 4 == 0) {
    *skipped = x->fields[0] && !strcmp(x->fields[0], "1");
    *error = dup_or_null(x->fields[1]);
    d->kind = (lc_diff_kind)atoi(x->fields[2] ? x->fields[2] : "2");
    d->message = dup_or_null(x->fields[3]);
    d->nstates[0] = strtoul(x->fields[4] ? x->fields[4] : "0", NULL, 10);
    d->nstates[1] = strtoul(x->fields[5] ? x->fields[5] : "0", NULL, 10);
    d->seconds = strtod(x->fields[6] ? x->fields[6] : "0", NULL);
    d->n = (x->nfields - 7) / 4;
    d->v = lc_xcalloc(d->n + 1, sizeof *d->v);
    for (size_t k = 0; k < d->n; k++) {
      d->v[k].state = lc_xstrdup(x->fields[7 + 4 * k] ? x->fields[7 + 4 * k] : "");
      d->v[k].allowed_by = x->fields[8 + 4 * k] && !strcmp(x->fields[8 + 4 * k], "1");
      d->v[k].why = dup_or_null(x->fields[9 + 4 * k]);
      d->v[k].message = dup_or_null(x->fields[10 + 4 * k]);
    }
    return;
  }
  lc_buf why;
  lc_buf_init(&why);
  if (x->end == LC_ISO_KILLED) {
    lc_buf_printf(&why, "out of time (--timeout %g s)", b->r->o->check.timeout);
  } else if (x->end == LC_ISO_CRASHED && !x->signal && x->code == LC_EXIT_NO_MEMORY && b->memory) {
    char size[32];
    mem_format_size(size, sizeof size, b->memory);
    lc_buf_printf(&why, "out of memory (--max-memory %s)", size);
  } else if (x->end == LC_ISO_NOT_RUN) {
    lc_buf_printf(&why, "cannot start a process for the test: %s", strerror(x->error));
  } else if (x->signal) {
    lc_buf_printf(&why, "the comparison crashed (signal %d)", x->signal);
  } else {
    lc_buf_printf(&why, "the comparison ended without an answer (exit status %d)", x->code);
  }
  d->kind = LC_DIFF_UNKNOWN;
  d->message = lc_buf_take(&why);
  lc_buf_fini(&why);
}

/* In the parent, as each child ends.  A program of --exhaustive is built
 * here again only when the models do not agree on it (it is printed). */
static void child_done(void *ctx, size_t i, const lc_iso_outcome *x) {
  batch *b = ctx;
  run *r = b->r;
  item *it = b->its[i];
  lc_diff d;
  bool skipped;
  char *error;
  outcome_diff(b, x, &d, &skipped, &error);
  if (r->progs && !it->label && (error || d.kind != LC_DIFF_SAME))
    build_program(it, &r->progs[item_index(r, it)], r->ptx, item_index(r, it));
  if (error && !it->error) it->error = error;
  else free(error);
  lc_diff_fini(&it->d);
  it->d = d;
  it->skipped = skipped;
  it->done = true;
}

/* Checks the items its[0, n), each in a child process of its own, o->jobs
 * at a time: a test past --timeout is killed and one past --max-memory
 * ends, each costing itself only (its comparison is unknown).  The parent
 * stays single-threaded and never runs an engine, so forking it is safe. */
static void check_items(run *r, item **its, size_t n, bool explain) {
  const dopts *o = r->o;
  size_t jobs = o->jobs > 0 ? (size_t)o->jobs : 1;
  batch b = {r, its, n, explain, o->child_memory, -1};
  lc_iso_ops ops = {child_run, child_done};
  double timeout = o->check.timeout;
  lc_isolate_run(n, (unsigned)jobs, timeout > 0 ? lc_iso_hard_limit(timeout) : 0, &ops, &b);
}

/* Checks every item of r. */
static void check_all(run *r) {
  item **its = lc_xcalloc(r->n + 1, sizeof *its);
  for (size_t i = 0; i < r->n; i++) its[i] = &r->items[i];
  check_items(r, its, r->n, r->explain);
  free(its);
}

/* Smallest first: threads, then instructions, then the order given. */
static int size_cmp(const void *x, const void *y) {
  const item *a = *(item *const *)x, *b = *(item *const *)y;
  if (a->threads != b->threads) return a->threads < b->threads ? -1 : 1;
  if (a->instrs != b->instrs) return a->instrs < b->instrs ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* ---- printing ------------------------------------------------------------------- */

static void print_item_text(const run *r, const item *it) {
  printf("Differ %s", it->t->name);
  if (strcmp(it->label, it->t->name)) printf(" (%s)", it->label);
  printf(": %zu thread%s, %zu instruction%s; %zu state%s under %s, %zu under %s\n", it->threads,
         it->threads == 1 ? "" : "s", it->instrs, it->instrs == 1 ? "" : "s", it->d.nstates[0],
         it->d.nstates[0] == 1 ? "" : "s", r->o->name[0], it->d.nstates[1], r->o->name[1]);
  for (size_t k = 0; k < it->d.n; k++) {
    const lc_diff_state *s = &it->d.v[k];
    printf("  %s  allowed by %s, forbidden by %s", s->state, r->o->name[s->allowed_by], r->o->name[1 - s->allowed_by]);
    if (s->why) printf(": %s", s->why);
    else if (s->message) printf(" (no check named: %s)", s->message);
    putchar('\n');
  }
  if (it->text) printf("\n%s\n", it->text);
}

static json_t *item_json(const run *r, const item *it) {
  json_t *states = json_array();
  for (size_t k = 0; k < it->d.n; k++) {
    const lc_diff_state *s = &it->d.v[k];
    json_t *j = json_pack("{s:s, s:s, s:s}", "state", s->state, "allowed_by", r->o->name[s->allowed_by],
                          "forbidden_by", r->o->name[1 - s->allowed_by]);
    json_object_set_new(j, "checks", s->why ? json_string(s->why) : json_null());
    if (s->message) json_object_set_new(j, "message", json_string(s->message));
    json_array_append_new(states, j);
  }
  json_t *j = json_pack("{s:s, s:s, s:I, s:I, s:[I,I], s:o}", "test", it->t->name, "path", it->label, "threads",
                        (json_int_t)it->threads, "instructions", (json_int_t)it->instrs, "nstates",
                        (json_int_t)it->d.nstates[0], (json_int_t)it->d.nstates[1], "states", states);
  if (it->text) json_object_set_new(j, "text", json_string(it->text));
  return j;
}

static void print_json(json_t *j) {
  char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (s) puts(s);
  free(s);
  json_decref(j);
}

static void print_header(const run *r) {
  if (r->o->json) return;
  for (int i = 0; i < 2; i++)
    printf("Model %c: %s (%s, %s)\n", 'A' + i, r->o->name[i], cat_model_name(r->m[i]), cat_model_path(r->m[i]));
}

/* ---- tests from files or generators ---------------------------------------------------- */

typedef LC_VEC(item) itemvec;

static void add_text(itemvec *v, const char *label, const char *text) {
  item it;
  item_from_text(&it, label, text, false);
  it.order = v->n;
  lc_vec_push(v, it);
}

static int emit_cycle(const char *name, const char *text, const char *cycle, void *arg) {
  (void)cycle;
  add_text(arg, name, text);
  return 0;
}

/* "A-B" or "N" */
static int parse_range(const char *s, size_t n, unsigned *lo, unsigned *hi) {
  char buf[32];
  if (n == 0 || n >= sizeof buf) return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  char *end;
  long a = strtol(buf, &end, 10), b = a;
  if (*end == '-') b = strtol(end + 1, &end, 10);
  if (*end || a < 1 || b < a || b > 64) return -1;
  *lo = (unsigned)a;
  *hi = (unsigned)b;
  return 0;
}

/* --gen family=NAME[;size=A-B][;count=N][;seed=S] or
 * --gen cycles=EDGES[;safe=EDGES][;size=A-B] */
static int gen_tests(const char *spec, itemvec *v, gen_dialect dialect) {
  const char *family = NULL, *cycles = NULL, *safe = NULL;
  size_t nfamily = 0, ncycles = 0, nsafe = 0;
  unsigned lo = 0, hi = 0;
  long count = 1, seed = 1;
  bool sized = false;
  for (const char *s = spec; *s;) {
    size_t n = strcspn(s, ";");
    const char *eq = memchr(s, '=', n);
    size_t kn = eq ? (size_t)(eq - s) : n, vn = eq ? n - kn - 1 : 0;
    const char *val = eq ? eq + 1 : s + n;
#define KEY(k) (eq && kn == strlen(k) && !memcmp(s, k, kn))
    char num[24] = {0};
    memcpy(num, val, vn < sizeof num - 1 ? vn : sizeof num - 1);
    char *end;
    if (KEY("family")) family = val, nfamily = vn;
    else if (KEY("cycles")) cycles = val, ncycles = vn;
    else if (KEY("safe")) safe = val, nsafe = vn;
    else if (KEY("size") && parse_range(val, vn, &lo, &hi) == 0) sized = true;
    else if (KEY("count") && (count = strtol(num, &end, 10)) >= 1 && count <= 100000 && !*end) {}
    else if (KEY("seed") && (seed = strtol(num, &end, 10)) >= 0 && !*end) {}
    else {
      fprintf(stderr, "litmus-check: --gen: cannot read '%.*s' (family=NAME;size=A-B, cycles=EDGES;size=A-B, "
              "random: family=random;count=N;seed=S)\n", (int)n, s);
      return LC_EXIT_INPUT;
    }
#undef KEY
    s += n;
    if (*s) s++;
  }
  if (!family == !cycles) {
    fputs("litmus-check: --gen: give family=NAME or cycles=EDGES\n", stderr);
    return LC_EXIT_INPUT;
  }
  int status = -1;
  if (family) {
    char *f = lc_xstrndup(family, nfamily);
    gen_family fam;
    if (gen_family_parse(f, &fam)) {
      fprintf(stderr, "litmus-check: --gen: unknown family '%s'\n", f);
      status = LC_EXIT_INPUT;
    } else if (fam == GEN_RANDOM || fam == GEN_RANDOM_CPP || fam == GEN_SPIN) {
      gen_options go;
      gen_options_init(&go);
      go.seed = (uint64_t)seed;
      for (long i = 0; i < count; i++) {
        lt_test *t = fam == GEN_RANDOM ? gen_random(&go, (uint64_t)i)
                     : fam == GEN_SPIN ? gen_spin(&go, (uint64_t)i) : gen_random_cpp(&go, (uint64_t)i);
        lc_buf b;
        lc_buf_init(&b);
        lt_print(&b, t);
        add_text(v, t->name, b.s);
        lc_buf_fini(&b);
        lt_test_free(t);
      }
    } else {
      if (!sized) lo = hi = gen_family_min(fam);
      for (unsigned k = lo; k <= hi; k++) {
        lt_test *t = gen_family_test(fam, k);
        if (!t) continue;
        lc_buf b;
        lc_buf_init(&b);
        lt_print(&b, t);
        add_text(v, t->name, b.s);
        lc_buf_fini(&b);
        lt_test_free(t);
      }
    }
    free(f);
    return status;
  }
  char *text = lc_xstrndup(cycles, ncycles), *stext = safe ? lc_xstrndup(safe, nsafe) : NULL, *err = NULL;
  gen_edge *relax = NULL, *safe_edges = NULL;
  size_t nr = 0, ns = 0;
  if (gen_edges_parse(text, &relax, &nr, &err) == 0 && (!stext || gen_edges_parse(stext, &safe_edges, &ns, &err) == 0)) {
    gen_edge *pool = lc_xcalloc(nr + ns + 1, sizeof *pool);
    memcpy(pool, relax, nr * sizeof *pool);
    if (ns) memcpy(pool + nr, safe_edges, ns * sizeof *pool);
    gen_cycle_options co = {dialect, LT_SCOPE_GPU};
    if (!sized) lo = 2, hi = 4;
    gen_cycles_each(pool, nr + ns, nr, lo, hi, &co, emit_cycle, v);
    free(pool);
  } else {
    fprintf(stderr, "litmus-check: --gen: %s\n", err ? err : "bad edges");
    status = LC_EXIT_INPUT;
  }
  free(err);
  free(relax);
  free(safe_edges);
  free(text);
  free(stext);
  return status;
}

static int read_files(const dopts *o, itemvec *v) {
  for (size_t i = 0; i < o->files.n; i++) {
    item it;
    memset(&it, 0, sizeof it);
    it.order = v->n;
    it.label = lc_xstrdup(o->files.v[i]);
    if (lc_source_read(&it.src, o->files.v[i]) < 0) {
      it.error = lc_xstrdup("cannot be read");
    } else {
      it.has_src = true;
      lc_diag d;
      lc_diag_init(&d, &it.src, NULL);
      it.t = lt_parse(&it.src, &d);
      if (!it.t) {
        const char *e = lc_diag_first_error(&d);
        it.error = lc_xstrdup(e ? e : "cannot be parsed");
      } else {
        item_size(&it);
      }
      lc_diag_fini(&d);
    }
    lc_vec_push(v, it);
  }
  return -1;
}

/* The report of a batch of tests: the differing ones smallest first. */
static int report_batch(run *r, double seconds) {
  item **sorted = lc_xcalloc(r->n + 1, sizeof *sorted);
  size_t nd = 0, same = 0, unknown = 0, skipped = 0, bad = 0;
  for (size_t i = 0; i < r->n; i++) {
    item *it = &r->items[i];
    if (it->error) bad++;
    else if (it->skipped) skipped++;
    else if (it->d.kind == LC_DIFF_DIFFER) sorted[nd++] = it;
    else if (it->d.kind == LC_DIFF_UNKNOWN) unknown++;
    else same++;
  }
  qsort(sorted, nd, sizeof *sorted, size_cmp);
  print_header(r);
  for (size_t i = 0; i < r->n; i++) {
    const item *it = &r->items[i];
    if (it->error) fprintf(stderr, "litmus-check: %s: %s\n", it->label, it->error);
    else if (!it->skipped && it->d.kind == LC_DIFF_UNKNOWN && !r->o->json)
      printf("Unknown %s (%s): %s\n", it->t->name, it->label, it->d.message);
  }
  for (size_t i = 0; i < nd; i++) {
    if (r->o->json) print_json(item_json(r, sorted[i]));
    else print_item_text(r, sorted[i]);
  }
  if (r->o->json) {
    json_t *s = json_pack("{s:[s,s], s:I, s:I, s:I, s:I, s:I, s:I, s:f}", "models", r->o->name[0], r->o->name[1],
                          "tests", (json_int_t)r->n, "differ", (json_int_t)nd, "same", (json_int_t)same, "unknown",
                          (json_int_t)unknown, "skipped", (json_int_t)skipped, "unreadable", (json_int_t)bad,
                          "seconds", seconds);
    print_json(json_pack("{s:o}", "summary", s));
  } else {
    printf("Summary: %zu test%s, %zu differ, %zu same, %zu unknown", r->n, r->n == 1 ? "" : "s", nd, same, unknown);
    if (skipped) printf(", %zu of another dialect", skipped);
    if (bad) printf(", %zu unreadable", bad);
    printf("\nTime %.2f\n", seconds);
  }
  free(sorted);
  return nd ? LC_EXIT_MISMATCH : bad ? LC_EXIT_INPUT : unknown ? LC_EXIT_INTERNAL : LC_EXIT_OK;
}

/* ---- --exhaustive ---------------------------------------------------------------------- */

static void bound_default(ex_bound *b, bool ptx) {
  if (ptx) {
    ex_bound_default_ptx(b);
  } else {
    /* C++ programs of every shape, the orders C++ gives (non-atomic ones
     * need ctrl=1), device scope */
    ex_bound_default(b);
    b->threads = 2;
    b->any = true;
    b->strong = 32;
    b->rmws = 1;
    b->fences = 1;
  }
}

static int key_cmp(const void *x, const void *y) {
  return memcmp(x, y, EX_KEY_MAX * sizeof(unsigned));
}

/* No program one step weaker than p (ex_weakenings) is among the
 * distinguishing ones (keys, sorted): p needs every order it has. */
static bool order_minimal(const ex_prog *p, const ex_bound *b, unsigned (*keys)[EX_KEY_MAX], size_t nk) {
  ex_prog w[4 * EX_MAX_THREADS * EX_MAX_EVENTS];
  size_t nw = ex_weakenings(p, b, w);
  for (size_t i = 0; i < nw; i++) {
    unsigned key[EX_KEY_MAX];
    ex_prog_key(&w[i], key);
    if (bsearch(key, keys, nk, sizeof *keys, key_cmp)) return false;
  }
  return true;
}

/* Past the bound: an axiom whose smallest witness is larger than the
 * bound (two fence.sc in two threads: 6 instructions; a dependency, which
 * the enumerator's vocabulary has not) gets no test from it.  When no
 * program within the bound differs, the critical cycles of litmus-gen
 * over diy's edges (every cycle of 2 to 6 edges over the set below: 21,541
 * PTX tests, 7 s here) are compared as well, and those that differ
 * printed smallest first: not the smallest that exist, but tests all the
 * same.  *ncycles and *ndiffer count them. */
static const char *const beyond_ptx =
    "cycles=Rfe,Fre,Coe,PodWW,PodWR,PodRW,PodRR,Fenced.sc.gpuWR,Fenced.sc.gpuWW,Fenced.sc.gpuRR,"
    "Fenced.sc.gpuRW,Fenced.acq_rel.gpuWR,Fenced.acq_rel.gpuWW,Fenced.acq_rel.gpuRR,Fenced.acq_rel.gpuRW,"
    "DpDatadW,DpCtrldW,DpCtrldR;size=2-6";
static const char *const beyond_cpp =
    "cycles=RfeRlxRlx,FreRlxRlx,CoeRlxRlx,PodWWRlxRlx,PodWRRlxRlx,PodRWRlxRlx,PodRRRlxRlx,RfeRelAcq,"
    "PodWWRlxRel,PodRRAcqRlx,PodWRScSc,RfeScSc,FreScSc,Fenced.sc.gpuWR,Fenced.sc.gpuRR,Fenced.sc.gpuWW,"
    "DpDatadW,DpCtrldW;size=2-5";

static int beyond_bound(run *r, bool ptx, size_t *ncycles, size_t *ndiffer) {
  const dopts *o = r->o;
  itemvec v = {0};
  double t0 = lc_now();
  int status = gen_tests(ptx ? beyond_ptx : beyond_cpp, &v, ptx ? GEN_DIALECT_PTX : GEN_DIALECT_CPP);
  run rc = *r;
  rc.items = v.v;
  rc.n = v.n;
  rc.explain = false;
  rc.progs = NULL;
  if (status < 0) check_all(&rc);
  item **sorted = lc_xcalloc(v.n + 1, sizeof *sorted);
  size_t nd = 0;
  for (size_t i = 0; i < v.n; i++)
    if (!v.v[i].error && !v.v[i].skipped && v.v[i].d.kind == LC_DIFF_DIFFER) sorted[nd++] = &v.v[i];
  qsort(sorted, nd, sizeof *sorted, size_cmp);
  const char *edges = (ptx ? beyond_ptx : beyond_cpp) + strlen("cycles=");
  if (!o->json)
    printf("Beyond the bound: %zu critical cycles of litmus-gen (%.*s), %zu differ (%.2f s)\n", v.n,
           (int)strcspn(edges, ";"), edges, nd, lc_now() - t0);
  size_t limit = o->max && (size_t)o->max < nd ? (size_t)o->max : nd;
  if (!o->json && limit) printf("\n");
  check_items(&rc, sorted, limit, o->explain);
  for (size_t i = 0; i < limit; i++) {
    item *it = sorted[i];
    if (it->d.kind != LC_DIFF_DIFFER) continue;
    it->text = lc_xstrndup(it->src.text, it->src.len);
    if (o->json) print_json(item_json(r, it));
    else print_item_text(r, it);
  }
  if (!o->json && limit < nd) printf("... and %zu more (--max 0 shows all)\n\n", nd - limit);
  *ncycles = v.n;
  *ndiffer = nd;
  free(sorted);
  for (size_t i = 0; i < v.n; i++) item_fini(&v.v[i]);
  lc_vec_free(&v);
  return status < 0 ? LC_EXIT_OK : status;
}

static int exhaustive(run *r) {
  const dopts *o = r->o;
  bool ptx = r->dialect != CLI_DIALECT_CPP;
  ex_bound b;
  bound_default(&b, ptx);
  char *err = NULL;
  if (o->bound && ex_bound_parse(o->bound, &b, &err)) {
    fprintf(stderr, "litmus-check: %s\n", err);
    free(err);
    return LC_EXIT_INPUT;
  }
  if (!ptx) {   /* the kinds the bound leaves out (a PTX bound says so itself) */
    if (!b.fences) b.orders[EX_F] = 0;
    if (!b.cas) b.orders[EX_C] = 0;
  }
  lc_buf printed;
  lc_buf_init(&printed);
  ex_bound_print(&printed, &b);
  int most = b.events ? b.events : b.threads * (b.accesses + b.fences);
  if (!o->json) {
    print_header(r);
    printf("Bound %s\n", printed.s);
  }
  json_t *sizes = json_array();
  double t0 = lc_now();
  size_t total = 0, differ = 0, unknown = 0, shown = 0, minimal = 0;
  int status = LC_EXIT_OK;
  bool found = false;
  for (int k = 1; k <= most && (!found || o->all_sizes); k++) {
    double t1 = lc_now();
    ex_bound bk = b;
    bk.events = bk.min_events = k;
    ex_prog *progs = NULL;
    size_t n = ex_enumerate(&bk, &progs);
    total += n;
    if (o->count_only) {
      if (o->json) json_array_append_new(sizes, json_pack("{s:i, s:I}", "instructions", k, "programs", (json_int_t)n));
      else printf("Size %d: %zu programs\n", k, n);
      free(progs);
      continue;
    }
    item *items = lc_xcalloc(n + 1, sizeof *items);
    run rk = *r;
    rk.items = items;
    rk.n = n;
    rk.explain = false;
    rk.progs = progs;
    rk.ptx = ptx;
    check_all(&rk);
    size_t nd = 0, nu = 0;
    for (size_t i = 0; i < n; i++) {
      if (items[i].error) {   /* a program the printer wrote wrong: the tool's fault */
        fprintf(stderr, "litmus-check: internal error: program %s: %s\n", items[i].label, items[i].error);
        status = LC_EXIT_INTERNAL;
      } else if (items[i].d.kind == LC_DIFF_DIFFER) {
        nd++;
      } else if (items[i].d.kind == LC_DIFF_UNKNOWN) {
        nu++;
        if (!o->json) printf("Unknown %s: %s\n", items[i].label, items[i].d.message);
      }
    }
    differ += nd;
    unknown += nu;
    double secs = lc_now() - t1;
    if (o->json)
      json_array_append_new(sizes, json_pack("{s:i, s:I, s:I, s:I, s:f}", "instructions", k, "programs", (json_int_t)n,
                                             "differ", (json_int_t)nd, "unknown", (json_int_t)nu, "seconds", secs));
    else if (nd)
      printf("Size %d: %zu programs, %zu differ (%.2f s)\n", k, n, nd, secs);
    else
      printf("Size %d: %zu programs, none differ (%.2f s)\n", k, n, secs);
    /* the distinguishing programs of this size, smallest first, each
     * checked again with its states explained and printed with the first
     * one as its condition */
    item **sorted = lc_xcalloc(nd + 1, sizeof *sorted);
    size_t m = 0;
    unsigned (*keys)[EX_KEY_MAX] = lc_xcalloc(nd + 1, sizeof *keys);
    size_t nk = 0;
    for (size_t i = 0; i < n; i++)
      if (!items[i].error && items[i].d.kind == LC_DIFF_DIFFER) ex_prog_key(&progs[i], keys[nk++]);
    qsort(keys, nk, sizeof *keys, key_cmp);
    for (size_t i = 0; i < n; i++)
      if (!items[i].error && items[i].d.kind == LC_DIFF_DIFFER && order_minimal(&progs[i], &bk, keys, nk))
        sorted[m++] = &items[i];
    free(keys);
    minimal += m;
    if (!o->json && nd) printf("  of which %zu minimal: no instruction's order or scope can be weakened\n", m);
    if (o->json) json_object_set_new(json_array_get(sizes, json_array_size(sizes) - 1), "minimal", json_integer((json_int_t)m));
    qsort(sorted, m, sizeof *sorted, size_cmp);
    size_t limit = o->max && (size_t)o->max < m ? (size_t)o->max : m;
    if (!o->json && m) printf("\n");
    check_items(&rk, sorted, limit, o->explain);
    for (size_t i = 0; i < limit; i++) {
      item *it = sorted[i];
      if (it->d.kind != LC_DIFF_DIFFER) continue;   /* out of time or memory this time */
      const ex_prog *p = &progs[it->order];
      it->text = ptx ? ex_prog_ptx_text(p, it->d.v[0].state, "A smallest test on which the two models differ.")
                     : ex_prog_text(p, it->d.v[0].state, "A smallest test on which the two models differ.");
      if (o->json) print_json(item_json(r, it));
      else print_item_text(r, it);
      shown++;
    }
    if (!o->json && limit < m) printf("... and %zu more minimal ones of %d instructions (--max 0 shows all)\n\n", m - limit, k);
    free(sorted);
    for (size_t i = 0; i < n; i++) item_fini(&items[i]);
    free(items);
    free(progs);
    if (nd) found = true;
  }
  size_t ncycles = 0, cdiffer = 0;
  bool beyond = !found && !o->count_only && !o->no_cycles && status == LC_EXIT_OK;
  if (beyond) status = beyond_bound(r, ptx, &ncycles, &cdiffer);
  double secs = lc_now() - t0;
  if (o->json) {
    json_t *s = json_pack("{s:[s,s], s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:f}", "models", o->name[0], o->name[1],
                          "bound", printed.s, "programs", (json_int_t)total, "differ", (json_int_t)differ, "minimal",
                          (json_int_t)minimal, "unknown", (json_int_t)unknown, "shown", (json_int_t)shown, "sizes",
                          sizes, "seconds", secs);
    if (beyond)
      json_object_set_new(s, "beyond", json_pack("{s:I, s:I}", "cycles", (json_int_t)ncycles, "differ", (json_int_t)cdiffer));
    print_json(json_pack("{s:o}", "summary", s));
  } else {
    json_decref(sizes);
    if (o->count_only) printf("Summary: %zu programs within the bound\n", total);
    else if (found)
      printf("Summary: %zu programs checked, %zu differ, %zu minimal%s\n", total, differ, minimal,
             o->all_sizes ? "" : " (the search stops at the first size with a difference; --all-sizes goes on)");
    else if (beyond && cdiffer)
      printf("Summary: %zu programs checked, every one within the bound (up to symmetry): no difference; "
             "beyond it %zu of %zu critical cycles differ\n", total, cdiffer, ncycles);
    else if (beyond)
      printf("Summary: %zu programs checked, every one within the bound (up to symmetry): no difference; "
             "nor in %zu critical cycles beyond it\n", total, ncycles);
    else printf("Summary: %zu programs checked, every one within the bound (up to symmetry): no difference\n", total);
    printf("Time %.2f\n", secs);
  }
  lc_buf_fini(&printed);
  if (status != LC_EXIT_OK) return status;
  return o->count_only ? LC_EXIT_OK : differ || cdiffer ? LC_EXIT_MISMATCH : unknown ? LC_EXIT_INTERNAL : LC_EXIT_OK;
}

/* ---- main ------------------------------------------------------------------------------ */

typedef struct whole {
  dopts *o;
  const char *argv0;
} whole;

/* The run, in a child process under --max-memory (mem_run_bounded); each
 * test in a child of its own, under --timeout and --max-memory
 * (check_items). */
static int whole_run(void *ctx, int fd) {
  (void)fd;
  whole *w = ctx;
  dopts *o = w->o;
  int status = -1;
  char **search = lc_model_search(w->argv0);
  cat_model *m[2] = {NULL, NULL};
  for (int i = 0; i < 2 && status < 0; i++)
    if (!(m[i] = cli_model_load("litmus-check", search, o->name[i], NULL))) status = LC_EXIT_INPUT;
  cli_dialect dialect = CLI_DIALECT_ANY;
  if (status < 0) {
    cli_dialect a = cli_model_dialect(m[0]), b = cli_model_dialect(m[1]);
    if (a != CLI_DIALECT_ANY && b != CLI_DIALECT_ANY && a != b) {
      fprintf(stderr, "litmus-check: --diff-models: %s is a %s model and %s a %s one: no test is read by both\n",
              o->name[0], a == CLI_DIALECT_PTX ? "PTX" : "C++", o->name[1], b == CLI_DIALECT_PTX ? "PTX" : "C++");
      status = LC_EXIT_INPUT;
    }
    dialect = a != CLI_DIALECT_ANY ? a : b;
  }
  if (status < 0) {
    run r = {.o = o, .m = {m[0], m[1]}, .dialect = dialect, .explain = o->explain};
    if (o->exhaustive) {
      status = exhaustive(&r);
    } else {
      itemvec v = {0};
      double t0 = lc_now();
      status = o->gen ? gen_tests(o->gen, &v, dialect == CLI_DIALECT_CPP ? GEN_DIALECT_CPP : GEN_DIALECT_PTX)
                      : read_files(o, &v);
      if (status < 0) {
        r.items = v.v;
        r.n = v.n;
        check_all(&r);
        status = report_batch(&r, lc_now() - t0);
      }
      for (size_t i = 0; i < v.n; i++) item_fini(&v.v[i]);
      lc_vec_free(&v);
    }
  }
  for (int i = 0; i < 2; i++) cat_model_free(m[i]);
  lc_model_search_free(search);
  fflush(stdout);
  /* Z3 keeps process-wide tables (the memory limit set in this child among
   * them) after every context is gone: released for leak checkers */
  Z3_finalize_memory();
  return status;
}

int diff_cli_main(int argc, char **argv) {
  dopts o = {.explain = true, .max = 10};
  lc_check_options_init(&o.check);
  int status = parse(argc, argv, &o);
  if (o.jobs == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = n < 1 ? 1 : n > 64 ? 64 : n;
  }
  o.child_memory = o.max_memory ? o.max_memory : mem_default_limit((unsigned)o.jobs);
  if (!o.max_memory) o.max_memory = mem_default_limit(1);
  if (status < 0) {
    whole w = {&o, argv[0]};
    status = mem_run_bounded("litmus-check", 0, o.max_memory, whole_run, &w);
  }
  lc_paths_free(&o.files);
  return cli_finish("litmus-check", status);
}
