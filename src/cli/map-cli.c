/* map-cli.c - litmus-check --lower and --check-mapping: compile C++ tests
 * to PTX through a mapping table or the installed compiler, and check the
 * compilation (docs/mappings.md).  Option parsing and printing only; the
 * work is in src/map/.
 * SPDX-License-Identifier: MIT
 */
#define _DEFAULT_SOURCE
#include "cli/map-cli.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli/cli.h"
#include "cli/memory.h"
#include "cuda/cuda.h"
#include "isolate.h"
#include "map/check_mapping.h"
#include "map/map_cc.h"
#include "map/map_nvcc.h"
#include "paths.h"

typedef struct mopts {
  bool lower;
  const char *table;        /* a table name or path, "nvcc" or "nvrtc" */
  int sm;
  const char *cpp_model, *ptx_model;
  bool json;
  size_t max_combinations;
  lc_check_options check;
  const char *sets[17];     /* --set NAME=VALUE for the C++ model, NULL-terminated */
  size_t nsets;
  lc_paths files;
  bool exhaustive;          /* --exhaustive: programs within --bound, not files */
  const char *bound;
  int jobs;
  bool count_only;          /* --count-only: how many programs the bound holds */
  long shard, shards;       /* --shard K/N (shards 0: none) */
  bool merge;               /* --merge: the files are shard files */
  size_t max_memory;        /* --max-memory, bytes (default: half the memory) */
  int fd;                   /* to the parent, in the bounded child (mem_run_bounded); else -1 */
} mopts;

bool map_cli_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--lower") || !strcmp(argv[i], "--check-mapping") ||
        !strncmp(argv[i], "--lower=", 8) || !strncmp(argv[i], "--check-mapping=", 16))
      return true;
  return false;
}

static int usage_error(const char *msg) {
  fprintf(stderr, "litmus-check: %s (try 'litmus-check --help')\n", msg);
  return LC_EXIT_INPUT;
}

static int parse_int(const char *what, const char *s, long lo, long hi, long *out) {
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

enum { O_LOWER = 256, O_CHECK, O_SM, O_PTX_MODEL, O_JSON, O_MAXC, O_SET, O_NORACES, O_EXH, O_BOUND, O_COUNT, O_SHARD,
       O_MERGE, O_MAXMEM };

static int parse(int argc, char **argv, mopts *o) {
  static const struct option longs[] = {
    {"lower", required_argument, NULL, O_LOWER}, {"check-mapping", required_argument, NULL, O_CHECK},
    {"sm", required_argument, NULL, O_SM}, {"model", required_argument, NULL, 'm'},
    {"ptx-model", required_argument, NULL, O_PTX_MODEL}, {"json", no_argument, NULL, O_JSON},
    {"max-combinations", required_argument, NULL, O_MAXC}, {"set", required_argument, NULL, O_SET},
    {"engine", required_argument, NULL, 'e'}, {"timeout", required_argument, NULL, 't'},
    {"unroll", required_argument, NULL, 'u'}, {"exhaustive", no_argument, NULL, O_EXH},
    {"bound", required_argument, NULL, O_BOUND}, {"jobs", required_argument, NULL, 'j'},
    {"count-only", no_argument, NULL, O_COUNT}, {"shard", required_argument, NULL, O_SHARD},
    {"merge", no_argument, NULL, O_MERGE}, {"max-memory", required_argument, NULL, O_MAXMEM},
    {NULL, 0, NULL, 0}};
  int c;
  long v;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "m:e:t:u:j:", longs, NULL)) != -1) {
    switch (c) {
    case O_LOWER: case O_CHECK:
      if (o->table) return usage_error("give one of --lower and --check-mapping, once");
      o->lower = c == O_LOWER;
      o->table = optarg;
      break;
    case O_SM: if (parse_int("--sm", optarg, 20, 200, &v)) return LC_EXIT_INPUT; o->sm = (int)v; break;
    case 'm': o->cpp_model = optarg; break;
    case O_PTX_MODEL: o->ptx_model = optarg; break;
    case O_JSON: o->json = true; break;
    case O_MAXC:
      if (parse_int("--max-combinations", optarg, 1, 1000000, &v)) return LC_EXIT_INPUT;
      o->max_combinations = (size_t)v;
      break;
    case O_SET:
      if (o->nsets + 1 >= LC_ARRAY_LEN(o->sets)) return usage_error("at most 16 --set options");
      o->sets[o->nsets++] = optarg;
      break;
    case 'e':
      if (lc_engine_parse(optarg, &o->check.engine)) return usage_error("--engine takes smt, enum or auto");
      break;
    case 't': {   /* as litmus-check's: a positive, finite number of seconds */
      char *end;
      errno = 0;
      double secs = strtod(optarg, &end);
      if (errno || end == optarg || *end || !(secs > 0) || secs > 1e7) {
        fprintf(stderr, "litmus-check: --timeout: '%s' is not a positive number of seconds\n", optarg);
        return LC_EXIT_INPUT;
      }
      o->check.timeout = secs;
      break;
    }
    case 'u': if (parse_int("--unroll", optarg, 1, 64, &v)) return LC_EXIT_INPUT; o->check.unroll = (unsigned)v; break;
    case O_EXH: o->exhaustive = true; break;
    case O_BOUND: o->bound = optarg; break;
    case O_COUNT: o->count_only = true; break;
    case O_SHARD: {   /* K/N, 0 <= K < N, as litmus-run's --shard */
      char *end;
      errno = 0;
      long k = strtol(optarg, &end, 10), n = 0;
      if (!errno && end != optarg && *end == '/') {
        char *num = end + 1;
        n = strtol(num, &end, 10);
        if (errno || end == num || *end) n = 0;
      }
      if (n < 1 || n > 100000 || k < 0 || k >= n) {
        fprintf(stderr, "litmus-check: --shard: '%s' is not K/N with 0 <= K < N\n", optarg);
        return LC_EXIT_INPUT;
      }
      o->shard = k;
      o->shards = n;
      break;
    }
    case O_MERGE: o->merge = true; break;
    case O_MAXMEM:
      if (mem_parse_size(optarg, &o->max_memory) < 0) {
        fprintf(stderr, "litmus-check: --max-memory: '%s' is not a size of at least 16M (512M, 2G, ...)\n", optarg);
        return LC_EXIT_INPUT;
      }
      break;
    case 'j': if (parse_int("-j", optarg, 1, 256, &v)) return LC_EXIT_INPUT; o->jobs = (int)v; break;
    default: {
      /* name the option: -q, -j and --no-races are litmus-check's, not these modes' */
      const char *arg = argv[optind - 1];
      if (optopt > 0 && optopt < 256 && !strchr("metuj", optopt))
        fprintf(stderr, "litmus-check: no option '-%c' with --lower or --check-mapping", optopt);
      else if (optopt == 0)
        fprintf(stderr, "litmus-check: no option '%.*s' with --lower or --check-mapping", (int)strcspn(arg, "="), arg);
      else
        fprintf(stderr, "litmus-check: '%s' needs a value", arg);
      fputs(" (try 'litmus-check --help')\n", stderr);
      return LC_EXIT_INPUT;
    }
    }
  }
  for (int i = optind; i < argc; i++) lc_paths_add(&o->files, argv[i]);
  if (o->exhaustive || o->bound || o->count_only || o->shards || o->merge) {
    if (o->lower || !o->exhaustive)
      return usage_error("--bound, --count-only, --shard, --merge and -j go with --check-mapping TABLE --exhaustive");
    if (o->shards && o->merge) return usage_error("--shard checks a part, --merge reports the parts: not both");
    if (o->merge && !o->files.n) return usage_error("--merge needs the shard files");
    if (o->files.n && !o->merge) return usage_error("--exhaustive takes no input files");
    if (o->json) return usage_error("--exhaustive has no --json output");
    return -1;
  }
  if (!o->files.n) return usage_error("no input files");
  if (o->lower && o->files.n != 1) return usage_error("--lower takes one file");
  return -1;
}

/* ---- tables and models ------------------------------------------------------------- */

/* A table given by path, or by name in the mappings/ folder beside each
 * models folder of the search path (source tree, install). */
static char *find_table(const char *name, char **search) {
  if (strchr(name, '/') || access(name, R_OK) == 0) return lc_xstrdup(name);
  for (char **d = search; *d; d++) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s/../mappings/%s%s", *d, name, strstr(name, ".map") ? "" : ".map");
    char *path = access(b.s, R_OK) == 0 ? lc_buf_take(&b) : NULL;
    lc_buf_fini(&b);
    if (path) return path;
  }
  return lc_xstrdup(name);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The tables a name can stand for: "asplos19, nvvm, ... (in DIR)" from the
 * first mappings folder of the search path that has any. */
static void list_tables(lc_buf *b, char **search) {
  for (char **d = search; *d; d++) {
    lc_buf dir;
    lc_buf_init(&dir);
    lc_buf_printf(&dir, "%s/../mappings", *d);
    DIR *dp = opendir(dir.s);
    LC_VEC(char *) names = {0};
    for (struct dirent *e; dp && (e = readdir(dp));) {
      size_t n = strlen(e->d_name);
      if (n > 4 && !strcmp(e->d_name + n - 4, ".map")) lc_vec_push(&names, lc_xstrndup(e->d_name, n - 4));
    }
    if (dp) closedir(dp);
    if (names.n) qsort(names.v, names.n, sizeof *names.v, by_name);
    for (size_t i = 0; i < names.n; i++) lc_buf_printf(b, "%s%s", i ? ", " : "", names.v[i]);
    char *real = names.n ? realpath(dir.s, NULL) : NULL;
    if (names.n) lc_buf_printf(b, " (in %s)", real ? real : dir.s);
    free(real);
    for (size_t i = 0; i < names.n; i++) free(names.v[i]);
    bool found = names.n > 0;
    lc_vec_free(&names);
    lc_buf_fini(&dir);
    if (found) return;
  }
  lc_buf_puts(b, "none found");
}

/* A table that cannot be read: why, and what there is to choose from. */
static void no_table(const char *name, const char *path, char **search) {
  lc_buf b;
  lc_buf_init(&b);
  list_tables(&b, search);
  if (strcmp(name, path) == 0 && !strchr(name, '/') && !strstr(name, ".map"))
    fprintf(stderr, "litmus-check: no mapping table '%s'; the tables are %s; or nvcc or nvrtc, the CUDA "
                    "compiler installed here\n", name, b.s);
  else
    fprintf(stderr, "litmus-check: cannot read mapping table '%s': %s; the tables are %s; or nvcc or nvrtc, "
                    "the CUDA compiler installed here\n", path, strerror(errno), b.s);
  lc_buf_fini(&b);
}

static map_table *load_table(const char *path, int sm) {
  lc_source src;
  if (lc_source_read(&src, path) < 0) {
    fprintf(stderr, "litmus-check: cannot read mapping table '%s': %s\n", path, strerror(errno));
    return NULL;
  }
  lc_diag d;
  lc_diag_init(&d, &src, stderr);
  map_table *m = map_parse(&src, sm, &d);
  lc_diag_fini(&d);
  lc_source_fini(&src);
  return m;
}

/* ---- one test ---------------------------------------------------------------------- */

/* A C++ test read and parsed into ct, messages to d (whose source
 * becomes the test's); NULL after saying why not (a PTX test stays in ct,
 * for its name).  Free ct with cli_test_fini either way. */
static lt_test *read_test(const char *path, cli_test *ct, lc_diag *d) {
  cli_test_read(ct, "litmus-check", path, NULL, d);
  if (ct->test && !ct->test->cpp) {
    lc_error(d, (lc_loc){path, 0, 0}, "not a C++ test (header `C` or `CUDA`): nothing to compile");
    return NULL;
  }
  return ct->test;
}

/* ---- JSON: one object per test, one per line ---------------------------------------- */

static void print_json(json_t *js) {
  char *s = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
  printf("%s\n", s);
  free(s);
  json_decref(js);
}

/* The members every object starts with: what was compiled, by what
 * (`table` or `compiler`) and for which target. */
static json_t *json_head(const char *test, const char *path, const char *by, const char *what, int sm) {
  json_t *o = json_object();
  json_object_set_new(o, "test", json_string(test));
  json_object_set_new(o, "file", json_string(path));
  json_object_set_new(o, by, json_string(what));
  json_object_set_new(o, "sm", json_integer(sm));
  return o;
}

/* A test that could not be read, compiled or checked. */
static void print_json_error(const lt_test *t, const char *path, const char *by, const char *what, int sm,
                             const char *message) {
  json_t *o = json_head(t ? t->name : "", path, by, what, sm);
  json_object_set_new(o, "verdict", json_string(map_verdict_name(MAP_V_ERROR)));
  json_object_set_new(o, "message", json_string(message ? message : "the test could not be read"));
  print_json(o);
}

/* The first error d holds, to report once d is gone; NULL if none. */
static char *first_error(const lc_diag *d) {
  const char *e = lc_diag_first_error(d);
  return e ? lc_xstrdup(e) : NULL;
}

static int lower_one(const mopts *o, const map_table *m, const char *path) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  cli_test in;
  lt_test *t = read_test(path, &in, &d);
  map_plan p;
  int status = LC_EXIT_INPUT;
  lc_arena *a = lc_arena_new();
  const lt_test *ct = t ? map_cpp_cells(t, a, &d) : NULL;
  if (ct && map_plan_make(ct, m, &p, &d) == 0) {
    size_t *choice = lc_xcalloc(p.n + 1, sizeof *choice);
    lt_test *ptx = map_compile(ct, &p, choice);
    lc_buf b;
    lc_buf_init(&b);
    map_print_lowered(&b, ptx);
    if (o->json) {
      json_t *js = json_head(t->name, path, "table", m->name, m->sm);
      json_object_set_new(js, "ptx", json_string(b.s));
      print_json(js);
    } else {
      fputs(b.s, stdout);
    }
    lc_buf_fini(&b);
    map_compiled_free(ptx);
    free(choice);
    map_plan_fini(&p);
    status = LC_EXIT_OK;
  } else if (o->json) {
    print_json_error(in.test, path, "table", m->name, m->sm, lc_diag_first_error(&d));
  }
  lc_arena_free(a);
  lc_diag_fini(&d);
  cli_test_fini(&in);
  return status;
}

static void rows_text(lc_buf *b, const lt_test *t, const map_plan *p, const size_t *choice) {
  for (size_t i = 0; i < p->n; i++) {
    const map_site *s = &p->v[i];
    lc_buf_printf(b, "  P%d line %d: ", t->threads[s->thread].id, s->at.line);
    if (!s->row) { lc_buf_printf(b, "fence relaxed (nothing)\n"); continue; }
    const map_alt *a = &s->row->alts[choice[i]];
    map_print_alt_name(b, s->row, a);
    lc_buf_puts(b, " (");
    map_print_alt(b, a);
    lc_buf_printf(b, ") scope %s\n", s->scope ? lt_scope_name(s->scope) : "-");
  }
}

static void text_report(lc_buf *b, const lt_test *t, const map_table *m, const map_check_result *r) {
  lc_buf_printf(b, "Test %s table %s sm_%d: %s", t->name, m->name, m->sm, map_verdict_name(r->verdict));
  switch (r->verdict) {
  case MAP_V_RACY:
    lc_buf_printf(b, " (flag %s under the C++ model: constrains nothing)\n", r->race);
    return;
  case MAP_V_UNKNOWN:
    lc_buf_printf(b, " (%s)\n", r->message);
    return;
  default: break;
  }
  lc_buf_printf(b, " (%zu of %zu combinations checked%s, %zu C++ outcomes)\n", r->checked,
                r->combinations, r->checked < r->combinations && r->verdict == MAP_V_SOUND ? ", pruned" : "",
                r->cpp_states);
  if (r->verdict != MAP_V_VIOLATION) return;
  lc_buf_printf(b, "Extra outcome: %s\nRows used:\n", r->extra);
  rows_text(b, t, &r->plan, r->choice);
  lc_buf_puts(b, "C++ test:\n");
  lt_print(b, t);
  lc_buf_puts(b, "PTX test:\n");
  map_print_lowered(b, r->ptx);
}

static json_t *json_report(const lt_test *t, const char *path, const map_table *m, const map_check_result *r) {
  json_t *o = json_head(t->name, path, "table", m->name, m->sm);
  json_object_set_new(o, "verdict", json_string(map_verdict_name(r->verdict)));
  json_object_set_new(o, "combinations", json_integer((json_int_t)r->combinations));
  json_object_set_new(o, "checked", json_integer((json_int_t)r->checked));
  json_object_set_new(o, "cpp_outcomes", json_integer((json_int_t)r->cpp_states));
  if (r->race) json_object_set_new(o, "flag", json_string(r->race));
  if (r->message) json_object_set_new(o, "message", json_string(r->message));
  if (r->verdict == MAP_V_VIOLATION) {
    lc_buf b;
    lc_buf_init(&b);
    json_object_set_new(o, "extra", json_string(r->extra));
    rows_text(&b, t, &r->plan, r->choice);
    json_object_set_new(o, "rows", json_string(b.s));
    b.n = 0;
    b.s[0] = '\0';
    map_print_lowered(&b, r->ptx);
    json_object_set_new(o, "ptx", json_string(b.s));
    b.n = 0;
    b.s[0] = '\0';
    lt_print(&b, t);
    json_object_set_new(o, "cpp", json_string(b.s));
    lc_buf_fini(&b);
  }
  return o;
}

typedef struct totals {
  size_t n[MAP_V_ERROR + 1];
  size_t combos, checked;
  unsigned used[MAP_NKINDS][MAP_NORDERS][MAP_MAX_ALT + 1];
} totals;

static int check_one(const mopts *o, const map_table *m, const map_check_options *co,
                     const char *path, totals *tot) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  cli_test in;
  lt_test *t = read_test(path, &in, &d);
  map_check_result r;
  memset(&r, 0, sizeof r);
  int status = LC_EXIT_INPUT;
  if (t && map_check_test(t, m, co, &r, &d) == 0) {
    if (o->json) {
      print_json(json_report(t, path, m, &r));
    } else {
      lc_buf b;
      lc_buf_init(&b);
      text_report(&b, t, m, &r);
      fputs(b.s, stdout);
      lc_buf_fini(&b);
    }
    tot->n[r.verdict]++;
    tot->combos += r.combinations;
    tot->checked += r.checked;
    for (int k = 0; k < MAP_NKINDS; k++)
      for (int x = 0; x < MAP_NORDERS; x++)
        for (int a = 0; a <= MAP_MAX_ALT; a++) tot->used[k][x][a] += r.used[k][x][a];
    status = r.verdict == MAP_V_VIOLATION ? LC_EXIT_MISMATCH
           : r.verdict == MAP_V_UNKNOWN ? LC_EXIT_INTERNAL : LC_EXIT_OK;
  } else {
    tot->n[MAP_V_ERROR]++;
    if (o->json) print_json_error(in.test, path, "table", m->name, m->sm, lc_diag_first_error(&d));
  }
  map_check_result_fini(&r);
  lc_diag_fini(&d);
  cli_test_fini(&in);
  return status;
}

static void coverage(const map_table *m, const totals *tot) {
  size_t rows = 0, hit = 0;
  lc_buf never;
  lc_buf_init(&never);
  for (int k = 0; k < MAP_NKINDS; k++)
    for (int x = 0; x < MAP_NORDERS; x++) {
      const map_row *r = &m->rows[k][x];
      for (size_t a = 0; a < r->nalts; a++) {
        rows++;
        int id = r->alts[a].id;
        if (id <= MAP_MAX_ALT && tot->used[k][x][id]) { hit++; continue; }
        lc_buf_puts(&never, " ");
        map_print_alt_name(&never, r, &r->alts[a]);
        lc_buf_puts(&never, ";");
      }
    }
  printf("Coverage: %zu of %zu rows exercised%s%s\n", hit, rows, never.n ? "; never:" : "",
         never.n ? never.s : "");
  lc_buf_fini(&never);
}

/* In the bounded child: each test gets --timeout of its own (the parent
 * kills the child past it), and the message names the test. */
static void announce(const mopts *o, const char *doing, const char *path) {
  if (o->fd < 0) return;
  fflush(stdout);
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "while %s %s", doing, path);
  const char *why[] = {b.s};
  lc_iso_send(o->fd, LC_ISO_FALLBACK, why, 1);
  if (o->check.timeout > 0) {
    char s[32];
    snprintf(s, sizeof s, "%.3f", lc_iso_hard_limit(o->check.timeout));
    const char *in[] = {s};
    lc_iso_send(o->fd, LC_ISO_DEADLINE, in, 1);
  }
  lc_buf_fini(&b);
}

static int check_all(const mopts *o, const map_table *m, const map_check_options *co) {
  totals tot = {0};
  int status = LC_EXIT_OK;
  for (size_t i = 0; i < o->files.n; i++) {
    announce(o, "checking", o->files.v[i]);
    int s = check_one(o, m, co, o->files.v[i], &tot);
    if (s > status) status = s;
  }
  if (!o->json) {
    printf("Summary: %zu sound, %zu violations, %zu undefined behaviour, %zu unknown, %zu errors; "
           "%zu of %zu combinations checked\n", tot.n[MAP_V_SOUND], tot.n[MAP_V_VIOLATION],
           tot.n[MAP_V_RACY], tot.n[MAP_V_UNKNOWN], tot.n[MAP_V_ERROR], tot.checked, tot.combos);
    coverage(m, &tot);
  }
  return status;
}

/* ---- the compiler installed here ------------------------------------------------------ */

enum { NTABLES = 5 };
static const char *const shipped[NTABLES] = {"ptx-abi", "ptx-abi-cuda12", "asplos19", "nvvm", "nvvm-gated"};

/* Is sem b the same as a or stronger (the ABI's first note: every order
 * may be strengthened)? */
static bool sem_at_least(lt_sem a, lt_sem b) {
  if (a == b) return true;
  switch (a) {
  case LT_SEM_RELAXED: return b == LT_SEM_ACQUIRE || b == LT_SEM_RELEASE || b == LT_SEM_ACQ_REL || b == LT_SEM_SC;
  case LT_SEM_ACQUIRE: case LT_SEM_RELEASE: return b == LT_SEM_ACQ_REL || b == LT_SEM_SC;
  case LT_SEM_ACQ_REL: return b == LT_SEM_SC;
  default: return false;
  }
}

/* seq equals row under scope s (strengthened: or has a stronger order in
 * some instruction, and the same instructions otherwise).  membar.{cta,
 * gl,sys} is fence.sc.{cta,gpu,sys}: the PTX ISA ("membar / fence") gives
 * them the same semantics, so nvcc's membar.gl for __threadfence() is the
 * seq_cst fence row at device scope (both have sem SC, the scope of the
 * level). */
static bool same_sequence(const map_alt *row, lt_scope s, const map_alt *seq, bool strengthened) {
  if (row->nins != seq->nins) return false;
  for (size_t i = 0; i < row->nins; i++) {
    const map_instr *a = &row->ins[i], *b = &seq->ins[i];
    lt_scope want = a->scope_from_cpp ? s : a->scope;
    bool sem = strengthened ? sem_at_least(a->sem, b->sem) : a->sem == b->sem;
    bool sc_fence = a->kind == LT_I_FENCE && a->sem == LT_SEM_SC && b->sem == LT_SEM_SC;
    if (a->kind != b->kind || !sem || (a->membar != b->membar && !sc_fence) || want != b->scope) return false;
  }
  return true;
}

/* The rows of the shipped tables whose sequence equals the compiler's
 * for s: "ptx-abi store release #1", "nvvm store release #1", ...; a table
 * with no equal row names the rows the sequence strengthens:
 * "ptx-abi fence acquire #1 strengthened". */
static json_t *matches(map_table *const *tables, const map_site *s) {
  json_t *found = json_array();
  for (size_t t = 0; t < NTABLES; t++) {
    const map_row *r = tables[t] ? map_row_for(tables[t], s->kind, s->order) : NULL;
    lt_scope scope = s->order == MAP_NA ? LT_SCOPE_NONE : tables[t] ? tables[t]->scope[s->cscope] : 0;
    bool equal = false;
    for (int strong = 0; strong < 2 && !equal; strong++)
      for (size_t a = 0; r && a < r->nalts; a++)
        if (same_sequence(&r->alts[a], scope, &s->row->alts[0], strong)) {
          lc_buf b;
          lc_buf_init(&b);
          lc_buf_printf(&b, "%s ", tables[t]->name);
          map_print_alt_name(&b, r, &r->alts[a]);
          if (strong) lc_buf_puts(&b, " strengthened");
          else equal = true;
          json_array_append_new(found, json_string(b.s));
          lc_buf_fini(&b);
        }
  }
  return found;
}

/* "ptx-abi store release #1, nvvm store release #1" or "no row of a shipped table". */
static void matches_text(lc_buf *b, map_table *const *tables, const map_site *s) {
  json_t *found = matches(tables, s);
  for (size_t i = 0; i < json_array_size(found); i++)
    lc_buf_printf(b, "%s%s", i ? ", " : "", json_string_value(json_array_get(found, i)));
  if (!json_array_size(found)) lc_buf_puts(b, "no row of a shipped table");
  json_decref(found);
}

static void sequences_text(lc_buf *b, const lt_test *t, const map_compiled *c, map_table *const *tables) {
  for (size_t i = 0; i < c->plan.n; i++) {
    const map_site *s = &c->plan.v[i];
    lc_buf_printf(b, "  P%d line %d: %s %s", t->threads[s->thread].id, s->at.line, map_kind_name(s->kind),
                  map_order_name(s->order));
    if (s->order != MAP_NA) lc_buf_printf(b, " %s", map_cscope_name(s->cscope));
    if (!s->row) { lc_buf_puts(b, " -> (nothing)\n"); continue; }
    lc_buf_puts(b, " -> ");
    map_print_alt(b, &s->row->alts[0]);
    lc_buf_puts(b, "; matches ");
    matches_text(b, tables, s);
    lc_buf_putc(b, '\n');
  }
}

/* sequences_text's lines as objects: the access (thread, line, kind,
 * order, and scope unless non-atomic), the compiler's PTX sequence (null
 * for nothing) and the rows it matches. */
static json_t *sequences_json(const lt_test *t, const map_compiled *c, map_table *const *tables) {
  json_t *all = json_array();
  for (size_t i = 0; i < c->plan.n; i++) {
    const map_site *s = &c->plan.v[i];
    json_t *o = json_object();
    json_object_set_new(o, "thread", json_integer(t->threads[s->thread].id));
    json_object_set_new(o, "line", json_integer(s->at.line));
    json_object_set_new(o, "kind", json_string(map_kind_name(s->kind)));
    json_object_set_new(o, "order", json_string(map_order_name(s->order)));
    if (s->order != MAP_NA) json_object_set_new(o, "scope", json_string(map_cscope_name(s->cscope)));
    if (!s->row) {
      json_object_set_new(o, "ptx", json_null());
    } else {
      lc_buf b;
      lc_buf_init(&b);
      map_print_alt(&b, &s->row->alts[0]);
      json_object_set_new(o, "ptx", json_string(b.s));
      lc_buf_fini(&b);
      json_object_set_new(o, "matches", matches(tables, s));
    }
    json_array_append_new(all, o);
  }
  return all;
}

/* One test of a compiler run: read and emitted first, checked once the
 * whole batch is compiled. */
typedef struct unit {
  const char *path;
  cli_test in;
  lt_test *t;         /* in.test */
  lc_arena *a;
  const lt_test *ct;
  char prefix[32];
  bool emitted;
  char *error;        /* why it was not emitted (NULL: see stderr) */
} unit;

static void unit_fini(unit *u) {
  lc_arena_free(u->a);
  cli_test_fini(&u->in);
  free(u->error);
}

static bool emit_unit(unit *u, size_t k, lc_buf *source) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  u->t = read_test(u->path, &u->in, &d);
  if (u->t) {
    u->a = lc_arena_new();
    u->ct = map_cpp_cells(u->t, u->a, &d);
    snprintf(u->prefix, sizeof u->prefix, "T%zu_", k);
    char *text = u->ct ? map_emit_cuda(u->ct, u->prefix, &d) : NULL;
    if (text) lc_buf_puts(source, text);
    u->emitted = text != NULL;
    free(text);
  }
  if (!u->emitted) u->error = first_error(&d);
  lc_diag_fini(&d);
  return u->emitted;
}

/* What the check of a compiled test found. */
typedef struct unit_report {
  map_verdict v;
  const char *racy;         /* the flag a racy C++ test raises */
  const char *message;      /* why unknown, or an error */
  const char *extra;        /* a violation's PTX outcome */
  size_t cpp_outcomes;
} unit_report;

static void unit_text(const mopts *o, const unit *u, const map_compiled *c, map_table *const *tables,
                      const unit_report *r) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "Test %s compiler %s sm_%d: %s", u->t->name, o->table, o->sm, map_verdict_name(r->v));
  if (r->v == MAP_V_RACY) lc_buf_printf(&b, " (flag %s under the C++ model: constrains nothing)\n", r->racy);
  else if (r->message) lc_buf_printf(&b, " (%s)\n", r->message);
  else lc_buf_printf(&b, " (%zu C++ outcomes)\n", r->cpp_outcomes);
  sequences_text(&b, u->t, c, tables);
  if (r->v == MAP_V_VIOLATION) {
    lc_buf_printf(&b, "Extra outcome: %s\nPTX test:\n", r->extra);
    map_print_lowered(&b, c->ptx_test);
  }
  fputs(b.s, stdout);
  lc_buf_fini(&b);
}

static void unit_json(const mopts *o, const unit *u, const map_compiled *c, map_table *const *tables,
                      const unit_report *r) {
  json_t *js = json_head(u->t->name, u->path, "compiler", o->table, o->sm);
  json_object_set_new(js, "verdict", json_string(map_verdict_name(r->v)));
  json_object_set_new(js, "cpp_outcomes", json_integer((json_int_t)r->cpp_outcomes));
  if (r->racy) json_object_set_new(js, "flag", json_string(r->racy));
  if (r->message) json_object_set_new(js, "message", json_string(r->message));
  json_object_set_new(js, "sequences", sequences_json(u->t, c, tables));
  if (r->v == MAP_V_VIOLATION) {
    lc_buf b;
    lc_buf_init(&b);
    map_print_lowered(&b, c->ptx_test);
    json_object_set_new(js, "extra", json_string(r->extra));
    json_object_set_new(js, "ptx", json_string(b.s));
    lc_buf_fini(&b);
  }
  print_json(js);
}

static int check_unit(const mopts *o, unit *u, const char *ptx, map_table *const *tables,
                      const map_check_options *co, totals *tot) {
  lc_diag d;
  lc_diag_init(&d, &u->in.src, stderr);
  map_compiled c = {0};
  lx_program *prog = NULL;
  const char *racy = NULL;
  lc_result *cpp = NULL;
  int status = LC_EXIT_INPUT;
  if (map_nvcc_lift(u->ct, ptx, u->prefix, &c, &d) == 0 && (cpp = map_check_cpp(u->t, co, &prog, &racy, &d))) {
    char *extra = NULL, *message = NULL;
    map_verdict v = racy ? MAP_V_RACY : cpp->status != LC_RESULT_OK ? MAP_V_UNKNOWN : MAP_V_SOUND;
    if (v == MAP_V_SOUND) {
      int rc = map_check_ptx(c.ptx_test, cpp, co, &extra, &message, &d);
      v = rc < 0 ? MAP_V_ERROR : rc > 0 ? MAP_V_UNKNOWN : extra ? MAP_V_VIOLATION : MAP_V_SOUND;
    }
    /* the text shows the PTX check's message only (an unknown C++ check
     * shows its count of outcomes); JSON has the C++ check's too */
    unit_report r = {v, racy, message, extra, cpp->nstates};
    if (o->json) {
      if (!message && v == MAP_V_UNKNOWN) r.message = cpp->message ? cpp->message : "the C++ model gave no answer";
      unit_json(o, u, &c, tables, &r);
    } else {
      unit_text(o, u, &c, tables, &r);
    }
    tot->n[v]++;
    status = v == MAP_V_VIOLATION ? LC_EXIT_MISMATCH : v == MAP_V_SOUND || v == MAP_V_RACY ? LC_EXIT_OK
           : LC_EXIT_INTERNAL;
    free(extra);
    free(message);
  } else {
    tot->n[MAP_V_ERROR]++;
    if (o->json) print_json_error(u->in.test, u->path, "compiler", o->table, o->sm, lc_diag_first_error(&d));
  }
  lc_result_free(cpp);
  lx_program_free(prog);
  map_compiled_fini(&c);
  lc_diag_fini(&d);
  return status;
}

/* The PTX of source from nvcc (a path) or, with nvcc NULL, from NVRTC. */
static int compile_source(const mopts *o, const char *nvcc, const char *source, char **ptx, lc_diag *d) {
  if (nvcc) return map_nvcc_ptx(nvcc, source, o->sm, ptx, d);
  return cu_nvrtc_cpp_ptx(source, "check-mapping.cu", o->sm, ptx, d);
}

/* Every test in one file and one compiler run (nvcc's start-up and the
 * library headers cost more than the tests). */
static int compile_batch(const mopts *o, const char *nvcc, map_table *const *tables,
                         const map_check_options *co) {
  unit *units = lc_xcalloc(o->files.n + 1, sizeof *units);
  lc_buf source;
  lc_buf_init(&source);
  lc_buf_puts(&source, map_cuda_prelude());
  totals tot = {0};
  int status = LC_EXIT_OK;
  size_t emitted = 0;
  for (size_t i = 0; i < o->files.n; i++) {
    units[i].path = o->files.v[i];
    if (emit_unit(&units[i], i, &source)) emitted++;
    else { tot.n[MAP_V_ERROR]++; status = LC_EXIT_INPUT; }
  }
  char *ptx = NULL, *failed = NULL;   /* failed: why the compiler failed */
  if (emitted) {
    lc_diag d;
    lc_diag_init(&d, NULL, stderr);
    if (compile_source(o, nvcc, source.s, &ptx, &d)) {
      tot.n[MAP_V_ERROR] += emitted;
      emitted = 0;
      status = LC_EXIT_INPUT;
      failed = first_error(&d);
    }
    lc_diag_fini(&d);
  }
  /* JSON has an object for every test, in order, those in error too */
  for (size_t i = 0; i < o->files.n; i++) {
    unit *u = &units[i];
    if (u->emitted && emitted) {
      int s = check_unit(o, u, ptx, tables, co, &tot);
      if (s > status) status = s;
    } else if (o->json) {
      print_json_error(u->in.test, u->path, "compiler", o->table, o->sm, u->emitted ? failed : u->error);
    } else if (u->emitted) {
      /* one compilation for all the tests, whose error names none: say
       * which tests it leaves unchecked */
      fprintf(stderr, "%s: error: not checked: the CUDA compiler failed (above)\n", u->path);
    }
  }
  free(failed);
  if (!o->json) printf("Summary: %zu sound, %zu violations, %zu undefined behaviour, %zu unknown, %zu errors\n",
         tot.n[MAP_V_SOUND], tot.n[MAP_V_VIOLATION], tot.n[MAP_V_RACY], tot.n[MAP_V_UNKNOWN],
         tot.n[MAP_V_ERROR]);
  for (size_t i = 0; i < o->files.n; i++) unit_fini(&units[i]);
  free(units);
  free(ptx);
  lc_buf_fini(&source);
  return status;
}

/* The compiler of --check-mapping/--lower nvcc|nvrtc: *nvcc is nvcc's
 * path (in buf), or NULL for NVRTC; -1, said, when nvcc is asked for and
 * none is found. */
static int compiler_path(const mopts *o, char *buf, size_t size, const char **nvcc) {
  bool nvrtc = !strcmp(o->table, "nvrtc");
  *nvcc = nvrtc ? NULL : map_nvcc_path(buf, size);
  if (!nvrtc && !*nvcc) {
    fputs("litmus-check: no nvcc found (set NVCC, or LC_CUDA_DIR to the CUDA toolkit)\n", stderr);
    return -1;
  }
  return 0;
}

static int compiler_all(const mopts *o, char **search) {
  char buf[4096];
  const char *nvcc;
  if (compiler_path(o, buf, sizeof buf, &nvcc) < 0) return LC_EXIT_INPUT;
  map_table *tables[NTABLES] = {NULL};
  for (size_t i = 0; i < NTABLES; i++) {
    char *path = find_table(shipped[i], search);
    tables[i] = load_table(path, o->sm);
    free(path);
  }
  cat_model *cm = cli_model_load("litmus-check", search, o->cpp_model, o->sets);
  cat_model *pm = cm ? cli_model_load("litmus-check", search, o->ptx_model, NULL) : NULL;
  int status = LC_EXIT_INPUT;
  if (cm && pm) {
    map_check_options co = {cm, pm, o->check, o->max_combinations};
    status = compile_batch(o, nvcc, tables, &co);
  }
  for (size_t i = 0; i < NTABLES; i++) map_table_free(tables[i]);
  cat_model_free(cm);
  cat_model_free(pm);
  return status;
}

/* --lower nvcc|nvrtc: the compiler's PTX for the test's accesses, read
 * back into the test's cells (as --check-mapping nvcc checks it), printed
 * as a PTX litmus test that litmus-check reads and checks. */
static int lower_compiler(const mopts *o, const char *path) {
  char buf[4096];
  const char *nvcc;
  if (compiler_path(o, buf, sizeof buf, &nvcc) < 0) return LC_EXIT_INPUT;
  unit u = {.path = path};
  lc_buf source;
  lc_buf_init(&source);
  lc_buf_puts(&source, map_cuda_prelude());
  int status = LC_EXIT_INPUT;
  char *ptx = NULL;
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  if (emit_unit(&u, 0, &source) && compile_source(o, nvcc, source.s, &ptx, &d) == 0) {
    lc_diag_fini(&d);
    lc_diag_init(&d, &u.in.src, stderr);
    map_compiled c = {0};
    if (map_nvcc_lift(u.ct, ptx, u.prefix, &c, &d) == 0) {
      lc_buf b;
      lc_buf_init(&b);
      map_print_lowered(&b, c.ptx_test);
      if (o->json) {
        json_t *js = json_head(u.t->name, path, "compiler", o->table, o->sm);
        json_object_set_new(js, "ptx", json_string(b.s));
        print_json(js);
      } else {
        fputs(b.s, stdout);
      }
      lc_buf_fini(&b);
      status = LC_EXIT_OK;
    }
    map_compiled_fini(&c);
  }
  if (status != LC_EXIT_OK && o->json)
    print_json_error(u.in.test, path, "compiler", o->table, o->sm, u.error ? u.error : lc_diag_first_error(&d));
  lc_diag_fini(&d);
  free(ptx);
  lc_buf_fini(&source);
  unit_fini(&u);
  return status;
}

/* The models and options a verdict of the search names. */
static int exhaustive(const mopts *o, const map_table *m, const map_check_options *co) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "C++ model %s", o->cpp_model);
  for (size_t i = 0; i < o->nsets; i++) lc_buf_printf(&b, "%s%s", i ? ", " : " (", o->sets[i]);
  lc_buf_printf(&b, "%s, PTX model %s, engine %s", o->nsets ? ")" : "", o->ptx_model, lc_engine_name(co->check.engine));
  map_shards sh = {(size_t)o->shard, (size_t)o->shards, o->merge ? o->files.v : NULL, o->merge ? o->files.n : 0};
  int status = map_exhaustive(m, co, o->bound, o->count_only ? 0 : o->jobs ? o->jobs : 1, b.s, &sh);
  lc_buf_fini(&b);
  return status;
}

/* --lower and --check-mapping with a table: the table, the models and the
 * tests, in the bounded child when there is one. */
typedef struct table_run {
  mopts *o;
  char **search;
} table_run;

static int with_table(void *ctx, int fd) {
  table_run *r = ctx;
  mopts *o = r->o;
  o->fd = fd;
  if (fd >= 0) {
    const char *why[] = {"while reading the mapping table and the models"};
    lc_iso_send(fd, LC_ISO_FALLBACK, why, 1);
  }
  int status = -1;
  char *path = find_table(o->table, r->search);
  map_table *m = NULL;
  if (access(path, R_OK) != 0) no_table(o->table, path, r->search);
  else m = load_table(path, o->sm);
  free(path);
  cat_model *cm = NULL, *pm = NULL;
  if (!m) {
    status = LC_EXIT_INPUT;
  } else if (o->lower) {
    announce(o, "lowering", o->files.v[0]);
    status = lower_one(o, m, o->files.v[0]);
  } else {
    cm = cli_model_load("litmus-check", r->search, o->cpp_model, o->sets);
    pm = cm ? cli_model_load("litmus-check", r->search, o->ptx_model, NULL) : NULL;
    map_check_options co = {cm, pm, o->check, o->max_combinations};
    if (!cm || !pm) status = LC_EXIT_INPUT;
    else if (o->exhaustive) status = exhaustive(o, m, &co);
    else status = check_all(o, m, &co);
  }
  cat_model_free(cm);
  cat_model_free(pm);
  map_table_free(m);
  return status;
}

int map_cli_main(int argc, char **argv) {
  mopts o = {.sm = MAP_DEFAULT_SM, .cpp_model = "cuda-cpp", .ptx_model = "ptx-v7.5", .fd = -1};
  lc_check_options_init(&o.check);
  int status = parse(argc, argv, &o);
  char **search = lc_model_search(argv[0]);
  if (status < 0 && !o.lower && (!strcmp(o.table, "nvcc") || !strcmp(o.table, "nvrtc"))) {
    if (o.exhaustive) status = usage_error("--exhaustive checks a table, not a compiler");
    else status = compiler_all(&o, search);
  }
  if (status < 0 && o.lower && (!strcmp(o.table, "nvcc") || !strcmp(o.table, "nvrtc"))) {
    status = lower_compiler(&o, o.files.v[0]);
  }
  if (status < 0) {
    table_run r = {&o, search};
    /* the table, the models and each test under --max-memory and --timeout,
     * in a child process; --exhaustive runs its programs in children of
     * its own (map_exhaustive), each under --timeout */
    if (o.exhaustive) {
      status = with_table(&r, -1);
    } else {
      if (!o.max_memory) o.max_memory = mem_default_limit(1);
      status = mem_run_bounded("litmus-check", o.check.timeout, o.max_memory, with_table, &r);
    }
  }
  lc_model_search_free(search);
  lc_paths_free(&o.files);
  return cli_finish("litmus-check", status);
}
