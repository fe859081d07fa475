/* litmus-run.c - the litmus-run program: run tests on a GPU or on CPU
 * threads and compare what happened with what the model allows.
 * SPDX-License-Identifier: MIT
 *
 * For each test: parse, compute the model's allowed states with
 * run_model_check (with --timeout, in a child process: run_model.h), run it
 * on the chosen backend, compare, report.  Reports go to stdout or, with
 * -o, to a file rewritten atomically after every test, so an interrupted
 * run keeps every finished test.  SIGINT and SIGTERM are taken by a thread
 * of their own (sigwait) that asks the running test to stop after its
 * current batch; a second one ends the program at once.  That thread holds
 * no lock but stderr's, briefly, as it says so, and the model check's child
 * writes its messages to memory: the fork stays safe (isolate.h).
 */
#define _GNU_SOURCE   /* getopt_long */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cli/cli.h"
#include "cli/run-status.h"
#include "explain.h"
#include "report/why.h"
#include "paths.h"
#include "cuda/cuda.h"
#include "cuda/cu_sass.h"
#include "host/host.h"
#include "lc.h"
#include "litmus/ast.h"
#include "run/campaign.h"
#include "run/mutants.h"
#include "run/tune.h"
#include "run/run.h"
#include "run/run_model.h"
#include "atomic_file.h"
#include "run/run_report.h"
#include "run/run_term.h"
#include "term.h"
#include "unroll_hint.h"

typedef enum { BACKEND_CUDA, BACKEND_HOST } backend_kind;

/* Exit status of a run stopped by SIGINT or SIGTERM: the results it wrote
 * are partial (and say so). */
enum { EXIT_INTERRUPTED = 130 };

typedef struct options {
  backend_kind backend;
  bool emit_cuda, json, seeded, check_sass, resume, mutants;
  bool model_given;                   /* -m; else PTX tests use ptx-v7.5, C++ tests cuda-cpp */
  bool any_dialect;                   /* --any-dialect: -m's model for every test */
  unsigned tune;                      /* --tune N: trials */
  const char *config;                 /* --config FILE: read, or written by --tune */
  const char *campaign, *grid_spec;   /* --campaign FILE, --grid SPEC */
  char **args;                        /* the options given (for a campaign's header) */
  size_t nargs;
  unsigned shard, nshards;            /* --shard I/N */
  atomic_bool *checking;              /* set while the model check runs (interrupts quit then) */
  const char *model, *output;
  lc_check_options check;
  run_params par;
  cu_sass_opts sass;
  lc_paths files;
} options;

static void usage(FILE *out) {
  fputs("Usage: litmus-run [OPTION]... FILE|DIR...\n"
        "Run litmus tests (scoped PTX or CUDA C++) many times on a GPU (or on CPU\n"
        "threads) and compare the outcomes with those a memory model allows.\n"
        "\n"
        "  -b, --backend cuda|host   where to run (default cuda); host: CPU threads\n"
        "      --emit-cuda           print the generated CUDA source and exit\n"
        "      --check-sass          check that ptxas keeps every access (needs cuobjdump)\n"
        "      --sm LIST             architectures of --check-sass (default 75,80,90)\n"
        "      --first-rotation      --check-sass: only the first role order of each kernel\n"
        "  -n, --iterations N        kernel launches (cuda) or batches (host)\n"
        "  -t, --time S              stop after S seconds (with -n: whichever first)\n"
        "  -i, --instances N         test instances per launch or batch\n"
        "  -s, --seed S              64-bit seed for all randomness (default: from the clock)\n"
        "  -d, --device N            CUDA device (default 0)\n"
        "  -m, --model NAME|FILE     memory model (default ptx-v7.5; ptx-v8 for tests with\n"
        "                            mbarrier, cluster barriers or bulk copies; cuda-cpp for C++);\n"
        "                            a PTX model for the PTX tests, a C++ model for the C++ ones\n"
        "      --any-dialect         run every test against --model, PTX or C++\n"
        "  -u, --unroll N            loop bound of the model check (default 2)\n"
        "  -e, --engine smt|enum|auto  engine of the model check (default auto)\n"
        "      --timeout S           give up the model check of a test after S seconds\n"
        "  -k, --max-forbidden K     record the first K forbidden instances (default 8)\n"
        "      --json                one JSON object per test, one per line\n"
        "  -o, --output FILE         write the results to FILE (atomically)\n"
        "  -q, --quiet               no progress on the terminal\n"
        "      --tune N              N trials of a random search of the stress and layout\n"
        "                            options (seeded by -s); the best to --config FILE\n"
        "      --config FILE         options from a --tune config (later options win)\n"
        "      --mutants             also run each ~exists test's weakened twins; report\n"
        "                            the mutation score\n"
        "Campaigns (docs/campaigns.md):\n"
        "      --campaign FILE       run every test at every grid point; one JSON line per run\n"
        "      --grid SPEC           e.g. 'stress-iterations=0,1024;barrier=on,off'\n"
        "      --shard I/N           only runs r with r % N == I (0 <= I < N)\n"
        "      --resume              go on with the runs FILE lacks; the options and\n"
        "                            tests not given again are FILE's\n"
        "Stress and layout (defaults in litmus-run(1)):\n"
        "      --[no-]mem-stress     idle threads hammer a scratchpad during the test\n"
        "      --[no-]pre-stress     testing threads hammer it before the test\n"
        "      --stress-pattern P    st-st, st-ld, ld-st or ld-ld (or 0-3)\n"
        "      --stress-lines N      scratchpad lines the stress targets\n"
        "      --stress-iterations N rounds per stressing thread at most (they stop\n"
        "                            when the testing CTAs are done)\n"
        "      --pre-stress-pattern P, --pre-stress-lines N, --pre-stress-iterations N\n"
        "                            the same for the pre-stress of the testing threads\n"
        "      --loc-offset N        words between an instance's locations (0: apart)\n"
        "      --[no-]barrier        spin barrier before each instance\n"
        "      --[no-]shuffle        shuffle CTAs (cuda) or location copies (host)\n"
        "      --testing-pct P       percentage of CTAs that run tests (cuda)\n"
        "      --stride N            words between consecutive instances' locations\n"
        "      --threads-per-cta N   threads per CTA (cuda)\n"
        "      --spin-limit N        backward jumps (or barrier waits) of one thread before\n"
        "                            its instance is cut (host 1000000, cuda 65536)\n"
        "      --watchdog S          seconds one instance may spin before it is cut (1);\n"
        "                            a host run stops once cut instances spun 3 S in all\n"
        "      --[no-]pin            pin each litmus thread to a CPU (host)\n"
        "  -h, --help                show this help and exit\n"
        "  -V, --version             show the version and exit\n"
        "\n"
        "Exit status: 0 nothing forbidden observed, 1 a forbidden outcome observed\n"
        "(or a hang of a test the model says terminates),\n"
        "2 bad input, no GPU or a test the backend cannot run, 3 internal error;\n"
        "--check-sass: 77 when NVRTC or cuobjdump is missing.\n"
        "See litmus-run(1).\n",
        out);
}

/* ---- options ---------------------------------------------------------------------- */

enum {
  OPT_EMIT = 256, OPT_JSON, OPT_MEM_STRESS, OPT_NO_MEM_STRESS, OPT_PRE_STRESS, OPT_NO_PRE_STRESS,
  OPT_PATTERN, OPT_LINES, OPT_STRESS_ITERS, OPT_BARRIER, OPT_NO_BARRIER, OPT_SHUFFLE, OPT_NO_SHUFFLE,
  OPT_TESTING_PCT, OPT_STRIDE, OPT_TPC, OPT_SPIN_LIMIT, OPT_PIN, OPT_NO_PIN, OPT_CHECK_SASS, OPT_SM,
  OPT_CAMPAIGN, OPT_GRID, OPT_SHARD, OPT_RESUME, OPT_TIMEOUT,
  OPT_PRE_PATTERN, OPT_PRE_LINES, OPT_PRE_ITERS, OPT_LOC_OFFSET, OPT_MUTANTS, OPT_TUNE, OPT_CONFIG,
  OPT_FIRST_ROTATION, OPT_WATCHDOG, OPT_ANY_DIALECT
};

static int bad_value(const char *what, const char *s, const char *expected) {
  fprintf(stderr, "litmus-run: %s: '%s' is not %s\n", what, s, expected);
  return -1;
}

/* An unsigned integer in [lo, hi], decimal or 0x hex. */
static int parse_uint(const char *what, const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  char *end;
  errno = 0;
  if (*s == '-' || *s == '\0') return bad_value(what, s, "a non-negative integer");
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return bad_value(what, s, "a non-negative integer");
  if (v < lo || v > hi) {
    fprintf(stderr, "litmus-run: %s takes %" PRIu64 " to %" PRIu64 "\n", what, lo, hi);
    return -1;
  }
  *out = v;
  return 0;
}

static int parse_seconds(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v > 0) || v > 1e7)
    return bad_value("--time", s, "a positive number of seconds");
  *out = v;
  return 0;
}

static int parse_pattern(const char *what, const char *s, unsigned *out) {
  static const char *names[] = {"st-st", "st-ld", "ld-st", "ld-ld"};
  for (unsigned i = 0; i < 4; i++)
    if (strcmp(s, names[i]) == 0 || (s[0] == (char)('0' + i) && s[1] == '\0')) {
      *out = i;
      return 0;
    }
  return bad_value(what, s, "st-st, st-ld, ld-st, ld-ld or 0-3");
}

/* "75,80,90": the architectures of --check-sass. */
static int parse_sms(const char *s, cu_sass_opts *so) {
  so->nsms = 0;
  for (const char *p = s; *p;) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 50 || v > 200 || so->nsms == (int)LC_ARRAY_LEN(so->sms) || (*end && *end != ','))
      return bad_value("--sm", s, "a list of architectures like 75,80,90");
    so->sms[so->nsms++] = (int)v;
    p = *end ? end + 1 : end;
  }
  return so->nsms ? 0 : bad_value("--sm", s, "a list of architectures like 75,80,90");
}

/* Options that take an unsigned 32-bit number: where it goes and its range. */
static int uint_option(options *o, int c, const char *arg) {
  uint64_t v;
  switch (c) {
  case 'i':
    if (parse_uint("--instances", arg, 1, 1u << 24, &v) < 0) return -1;
    o->par.instances = (uint32_t)v;
    return 0;
  case 'd':
    if (parse_uint("--device", arg, 0, 1024, &v) < 0) return -1;
    o->par.device = (int)v;
    return 0;
  case 'u':
    if (parse_uint("--unroll", arg, 1, 64, &v) < 0) return -1;
    o->check.unroll = (unsigned)v;
    return 0;
  case 'k':
    if (parse_uint("--max-forbidden", arg, 0, 1u << 16, &v) < 0) return -1;
    o->par.max_forbidden = (unsigned)v;
    return 0;
  case OPT_LINES:
    if (parse_uint("--stress-lines", arg, 1, 1u << 24, &v) < 0) return -1;
    o->par.stress_lines = (unsigned)v;
    return 0;
  case OPT_STRESS_ITERS:
    if (parse_uint("--stress-iterations", arg, 0, 1u << 30, &v) < 0) return -1;
    o->par.stress_iterations = (unsigned)v;
    return 0;
  case OPT_TESTING_PCT:
    if (parse_uint("--testing-pct", arg, 1, 100, &v) < 0) return -1;
    o->par.testing_pct = (unsigned)v;
    return 0;
  case OPT_STRIDE:
    if (parse_uint("--stride", arg, 1, 1u << 16, &v) < 0) return -1;
    o->par.stride = (unsigned)v;
    return 0;
  case OPT_TPC:
    if (parse_uint("--threads-per-cta", arg, 1, 1024, &v) < 0) return -1;
    o->par.threads_per_cta = (unsigned)v;
    return 0;
  case OPT_PRE_LINES:
    if (parse_uint("--pre-stress-lines", arg, 1, 1u << 24, &v) < 0) return -1;
    o->par.pre_stress_lines = (unsigned)v;
    return 0;
  case OPT_PRE_ITERS:
    if (parse_uint("--pre-stress-iterations", arg, 0, 1u << 30, &v) < 0) return -1;
    o->par.pre_stress_iterations = (unsigned)v;
    return 0;
  case OPT_LOC_OFFSET:
    if (parse_uint("--loc-offset", arg, 0, 1u << 16, &v) < 0) return -1;
    o->par.loc_offset = (unsigned)v;
    return 0;
  case OPT_SPIN_LIMIT:
    if (parse_uint("--spin-limit", arg, 1, 1u << 30, &v) < 0) return -1;
    o->par.spin_limit = (unsigned)v;
    return 0;
  }
  return -1;
}

static bool flag_option(options *o, int c) {
  switch (c) {
  case OPT_MEM_STRESS: o->par.mem_stress = true; return true;
  case OPT_NO_MEM_STRESS: o->par.mem_stress = false; return true;
  case OPT_PRE_STRESS: o->par.pre_stress = true; return true;
  case OPT_NO_PRE_STRESS: o->par.pre_stress = false; return true;
  case OPT_BARRIER: o->par.barrier = true; return true;
  case OPT_NO_BARRIER: o->par.barrier = false; return true;
  case OPT_SHUFFLE: o->par.shuffle = true; return true;
  case OPT_NO_SHUFFLE: o->par.shuffle = false; return true;
  case OPT_PIN: o->par.pin = true; return true;
  case OPT_NO_PIN: o->par.pin = false; return true;
  case OPT_EMIT: o->emit_cuda = true; return true;
  case OPT_CHECK_SASS: o->check_sass = true; return true;
  case OPT_FIRST_ROTATION: o->sass.first_rotation = true; return true;
  case OPT_RESUME: o->resume = true; return true;
  case OPT_MUTANTS: o->mutants = true; return true;
  case OPT_JSON: o->json = true; return true;
  case OPT_ANY_DIALECT: o->any_dialect = true; return true;
  case 'q': o->par.progress = false; return true;
  }
  return false;
}

static int other_option(options *o, int c, const char *arg) {
  uint64_t v;
  switch (c) {
  case 'b':
    if (strcmp(arg, "cuda") == 0) o->backend = BACKEND_CUDA;
    else if (strcmp(arg, "host") == 0) o->backend = BACKEND_HOST;
    else return bad_value("--backend", arg, "cuda or host");
    return 0;
  case 'n':
    if (parse_uint("--iterations", arg, 1, UINT64_MAX, &v) < 0) return -1;
    o->par.iterations = v;
    return 0;
  case 't': return parse_seconds(arg, &o->par.seconds);
  case 's':
    if (parse_uint("--seed", arg, 0, UINT64_MAX, &o->par.seed) < 0) return -1;
    o->seeded = true;
    return 0;
  case 'm':
    o->model = arg;
    o->model_given = true;
    return 0;
  case 'o': o->output = arg; return 0;
  case OPT_PATTERN: return parse_pattern("--stress-pattern", arg, &o->par.stress_pattern);
  case OPT_PRE_PATTERN: return parse_pattern("--pre-stress-pattern", arg, &o->par.pre_stress_pattern);
  case OPT_SM: return parse_sms(arg, &o->sass);
  case OPT_CAMPAIGN: o->campaign = arg; return 0;
  case OPT_CONFIG: o->config = arg; return 0;
  case OPT_TUNE:
    if (parse_uint("--tune", arg, 1, 1u << 20, &v) < 0) return -1;
    o->tune = (unsigned)v;
    return 0;
  case 'e':
    return lc_engine_parse(arg, &o->check.engine) < 0 ? bad_value("--engine", arg, "smt, enum or auto") : 0;
  case OPT_WATCHDOG: {
    char *end;
    errno = 0;
    double secs = strtod(arg, &end);
    if (errno || end == arg || *end || !(secs > 0) || secs > 1e6)
      return bad_value("--watchdog", arg, "a positive number of seconds");
    o->par.watchdog = secs;
    return 0;
  }
  case OPT_TIMEOUT: {
    char *end;
    errno = 0;
    double secs = strtod(arg, &end);
    if (errno || end == arg || *end || !(secs > 0) || secs > 1e7)
      return bad_value("--timeout", arg, "a positive number of seconds");
    o->check.timeout = secs;
    return 0;
  }
  case OPT_GRID: o->grid_spec = arg; return 0;
  case OPT_SHARD: {
    unsigned i, n;
    char end;
    if (sscanf(arg, "%u/%u%c", &i, &n, &end) != 2 || n == 0 || i >= n)
      return bad_value("--shard", arg, "I/N with 0 <= I < N");
    o->shard = i;
    o->nshards = n;
    return 0;
  }
  }
  return uint_option(o, c, arg);
}

static const struct option longopts[] = {
  {"backend", required_argument, NULL, 'b'},     {"emit-cuda", no_argument, NULL, OPT_EMIT},
  {"check-sass", no_argument, NULL, OPT_CHECK_SASS}, {"sm", required_argument, NULL, OPT_SM},
  {"first-rotation", no_argument, NULL, OPT_FIRST_ROTATION},
  {"campaign", required_argument, NULL, OPT_CAMPAIGN}, {"grid", required_argument, NULL, OPT_GRID},
  {"shard", required_argument, NULL, OPT_SHARD}, {"resume", no_argument, NULL, OPT_RESUME},
  {"engine", required_argument, NULL, 'e'},     {"timeout", required_argument, NULL, OPT_TIMEOUT},
  {"iterations", required_argument, NULL, 'n'},  {"time", required_argument, NULL, 't'},
  {"instances", required_argument, NULL, 'i'},   {"seed", required_argument, NULL, 's'},
  {"device", required_argument, NULL, 'd'},      {"model", required_argument, NULL, 'm'},
  {"unroll", required_argument, NULL, 'u'},      {"max-forbidden", required_argument, NULL, 'k'},
  {"any-dialect", no_argument, NULL, OPT_ANY_DIALECT},
  {"json", no_argument, NULL, OPT_JSON},         {"output", required_argument, NULL, 'o'},
  {"quiet", no_argument, NULL, 'q'},
  {"mem-stress", no_argument, NULL, OPT_MEM_STRESS}, {"no-mem-stress", no_argument, NULL, OPT_NO_MEM_STRESS},
  {"pre-stress", no_argument, NULL, OPT_PRE_STRESS}, {"no-pre-stress", no_argument, NULL, OPT_NO_PRE_STRESS},
  {"stress-pattern", required_argument, NULL, OPT_PATTERN},
  {"stress-lines", required_argument, NULL, OPT_LINES},
  {"stress-iterations", required_argument, NULL, OPT_STRESS_ITERS},
  {"pre-stress-pattern", required_argument, NULL, OPT_PRE_PATTERN},
  {"pre-stress-lines", required_argument, NULL, OPT_PRE_LINES},
  {"pre-stress-iterations", required_argument, NULL, OPT_PRE_ITERS},
  {"loc-offset", required_argument, NULL, OPT_LOC_OFFSET},
  {"mutants", no_argument, NULL, OPT_MUTANTS},
  {"tune", required_argument, NULL, OPT_TUNE},   {"config", required_argument, NULL, OPT_CONFIG},
  {"barrier", no_argument, NULL, OPT_BARRIER},   {"no-barrier", no_argument, NULL, OPT_NO_BARRIER},
  {"shuffle", no_argument, NULL, OPT_SHUFFLE},   {"no-shuffle", no_argument, NULL, OPT_NO_SHUFFLE},
  {"testing-pct", required_argument, NULL, OPT_TESTING_PCT},
  {"stride", required_argument, NULL, OPT_STRIDE},
  {"threads-per-cta", required_argument, NULL, OPT_TPC},
  {"spin-limit", required_argument, NULL, OPT_SPIN_LIMIT}, {"watchdog", required_argument, NULL, OPT_WATCHDOG},
  {"pin", no_argument, NULL, OPT_PIN},           {"no-pin", no_argument, NULL, OPT_NO_PIN},
  {"help", no_argument, NULL, 'h'},              {"version", no_argument, NULL, 'V'},
  {NULL, 0, NULL, 0},
};

/* --config FILE before the other options, so that they override it; not
 * with --tune, which writes it. */
static int preload_config(int argc, char **argv, options *o) {
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--tune") == 0 || strncmp(argv[i], "--tune=", 7) == 0) return 0;
    if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) path = argv[i + 1];
    else if (strncmp(argv[i], "--config=", 9) == 0) path = argv[i] + 9;
  }
  if (!path) return 0;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = run_config_load(path, &o->par, &d);
  if (rc < 0) fprintf(stderr, "litmus-run: --config: %s\n", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return rc;
}

/* Returns -1 to go on, or the exit status when the options say to stop. */
static int parse_options(int argc, char **argv, options *o, char **fallback, size_t nfallback) {
  int c;
  if (preload_config(argc, argv, o) < 0) return LC_EXIT_INPUT;
  while ((c = getopt_long(argc, argv, "b:n:t:i:s:d:m:u:k:o:e:qhV", longopts, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return LC_EXIT_OK;
    }
    if (c == 'V') {
      printf("litmus-run (%s)\n", PACKAGE_STRING);
      return LC_EXIT_OK;
    }
    if (c == '?' || c == ':') {
      fputs("Try 'litmus-run --help'.\n", stderr);
      return LC_EXIT_INPUT;
    }
    if (!flag_option(o, c) && other_option(o, c, optarg) < 0) return LC_EXIT_INPUT;
  }
  if (o->tune && !o->config) {
    fputs("litmus-run: --tune needs --config FILE to write the best options to\n", stderr);
    return LC_EXIT_INPUT;
  }
  if (o->par.loc_offset > o->par.stride) {
    fprintf(stderr, "litmus-run: --loc-offset %u is more than --stride %u: an instance's locations must fit in its slot\n",
            o->par.loc_offset, o->par.stride);
    return LC_EXIT_INPUT;
  }
  for (int i = optind; i < argc; i++) lc_paths_add(&o->files, argv[i]);
  /* --resume without tests: the campaign's */
  for (size_t i = 0; optind == argc && i < nfallback; i++) lc_paths_add(&o->files, fallback[i]);
  /* the options, for the campaign's header (--resume is not one of them) */
  o->args = lc_xcalloc((size_t)optind + 1, sizeof(char *));
  for (int i = 1; i < optind; i++)
    if (strcmp(argv[i], "--resume") != 0) o->args[o->nargs++] = argv[i];
  if (optind == argc && nfallback == 0) {
    fputs("litmus-run: no input files (try 'litmus-run --help')\n", stderr);
    return LC_EXIT_INPUT;
  }
  if (o->files.n == 0) {
    fputs("litmus-run: no *.litmus files in the folders given\n", stderr);
    return LC_EXIT_INPUT;
  }
  return -1;
}

/* A seed from the clock and the process id, mixed so that runs started in
 * the same second differ in every bit. */
static uint64_t clock_seed(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t z = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 40);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* ---- interrupts ---------------------------------------------------------------------- */

typedef struct interrupts {
  sigset_t set;
  pthread_t thread;
  bool running;
  atomic_bool stop;
  atomic_bool checking;      /* the model check runs: it cannot stop between batches */
} interrupts;

static void *interrupt_thread(void *arg) {
  interrupts *in = arg;
  int sig;
  for (;;) {
    if (sigwait(&in->set, &sig) != 0) continue;
    if (atomic_load(&in->checking)) {
      /* every finished test is written already (stdout is flushed, -o and
       * --campaign files are written per test and run) */
      fputs("\nlitmus-run: interrupted during the model check; the results are partial\n", stderr);
      _exit(EXIT_INTERRUPTED);
    }
    if (!atomic_exchange(&in->stop, true)) {
      fputs("\nlitmus-run: interrupted; finishing the current batch (again to quit at once)\n", stderr);
      continue;
    }
    signal(sig, SIG_DFL);
    pthread_sigmask(SIG_UNBLOCK, &in->set, NULL);
    raise(sig);
  }
  return NULL;
}

/* Blocks SIGINT and SIGTERM in every thread (the backends' threads inherit
 * the mask) and takes them on a thread of their own. */
static void interrupts_start(interrupts *in) {
  sigemptyset(&in->set);
  sigaddset(&in->set, SIGINT);
  sigaddset(&in->set, SIGTERM);
  atomic_init(&in->stop, false);
  atomic_init(&in->checking, false);
  in->running = pthread_sigmask(SIG_BLOCK, &in->set, NULL) == 0 &&
                pthread_create(&in->thread, NULL, interrupt_thread, in) == 0;
}

static void interrupts_stop(interrupts *in) {
  if (!in->running) return;
  pthread_cancel(in->thread);
  pthread_join(in->thread, NULL);
  pthread_sigmask(SIG_UNBLOCK, &in->set, NULL);
}

/* ---- one test ----------------------------------------------------------------------- */

typedef struct session {
  const options *o;
  const cat_model *model;
  const cat_model *cpp_model;  /* for C++ tests, when no -m */
  const cat_model *hopper_model; /* for PTX tests with Hopper instructions, when no -m */
  lc_buf out;                /* everything reported so far (for -o) */
  run_campaign *camp;        /* --campaign, else NULL */
  run_mutant_score score;    /* --mutants */
  const run_params *par;     /* --tune: the trial's parameters, else NULL */
  double weak, seconds;      /* --tune: weak instances and seconds run in this trial */
  char *device;              /* --tune: the machine the trials ran on */
  const run_grid *grid;
  size_t file;               /* index of the file being run */
  const cli_models *models;
} session;

/* The model a test is run against: without -m, C++ tests use cuda-cpp and
 * PTX tests with mbarrier, cluster barriers or bulk copies ptx-v8. */
static const cat_model *session_model(const session *s, const lt_test *t) {
  if (!t->cpp && s->hopper_model && lt_uses_hopper(t)) return s->hopper_model;
  return t->cpp && s->cpp_model ? s->cpp_model : s->model;
}

static int emit(session *s, const char *path, const lx_program *prog) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lc_buf src;
  lc_buf_init(&src);
  int rc = cu_emit(&src, prog, &d) < 0 ? LC_EXIT_INPUT : 0;
  cli_print_messages(stderr, "litmus-run", path, &d);
  if (rc == 0) lc_buf_puts(&s->out, src.s);
  lc_buf_fini(&src);
  lc_diag_fini(&d);
  return rc;
}

static run_status run_backend(const options *o, const run_params *par, const char *path, const lx_program *prog,
                              const lc_result *allowed, run_result *rr) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  run_status rc = o->backend == BACKEND_HOST ? host_run(prog, par, allowed, rr, &d)
                                             : cu_run(prog, par, allowed, rr, &d);
  cli_print_messages(stderr, "litmus-run", path, &d);
  if (rc == RUN_CANNOT && o->backend == BACKEND_CUDA && !prog->test->cpp)
    fprintf(stderr, "litmus-run: %s: the CUDA backend cannot run here (no GPU, driver or NVRTC?); "
                    "--backend host runs the test on CPU threads\n", path);
  lc_diag_fini(&d);
  return rc;
}

static bool interrupted(const options *o) { return o->par.stop && atomic_load(o->par.stop); }

static void report(session *s, const run_result *rr) {
  bool partial = interrupted(s->o);
  if (s->o->json) {
    json_t *js = run_report_json(rr);
    if (partial) json_object_set_new(js, "partial", json_true());
    char *text = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
    lc_buf_printf(&s->out, "%s\n", text);
    free(text);
    json_decref(js);
  } else {
    if (s->out.n) lc_buf_putc(&s->out, '\n');
    run_report_text(&s->out, rr);
    if (partial) lc_buf_puts(&s->out, "Partial: interrupted; the counts are of the instances run before\n");
  }
}

/* --tune: a trial's weak instances and seconds. */
static void tune_add(session *s, const run_result *rr) {
  for (size_t b = 0; b < rr->nbins; b++)
    if (rr->bins[b].positive) s->weak += (double)rr->bins[b].count;
  s->seconds += rr->seconds;
  if (!s->device && rr->device_name) s->device = lc_xstrdup(rr->device_name);
}

/* Each forbidden outcome gets the first set of checks that rules it out,
 * for the headline. */
static void explain_forbidden(session *s, const lx_program *prog, run_result *rr) {
  for (size_t i = 0; i < rr->nbins; i++) {
    run_bin *b = &rr->bins[i];
    if (run_bin_classify(b) != RUN_BIN_FORBIDDEN) continue;
    lc_state st;
    lc_state_of_values(prog, b->values, &st);
    const cat_model *model = session_model(s, prog->test);
    lc_explain_result *x = lc_explain(prog, model, s->o->check.engine, s->o->check.timeout, &st, 1, rr->model);
    lc_buf why;
    lc_buf_init(&why);
    report_explain_headline(&why, x);
    if (x->ex[0].kind == LC_EXPLAIN_ERROR) lc_buf_printf(&why, "not explained: %s", x->ex[0].message);
    b->why = lc_buf_take(&why);
    lc_buf_fini(&why);
    lc_explain_free(x);
    lc_state_fini(&st);
  }
}

/* Runs prog with par; the report goes to s->out, or with js as a JSON
 * object to *js (a campaign's run). */
static int run_program(session *s, const char *path, const lx_program *prog, const lc_result *allowed,
                       const run_params *par, json_t **js) {
  const char *backend = s->o->backend == BACKEND_HOST ? "host" : "cuda";
  run_result rr;
  run_result_init(&rr, prog, backend);
  int rc = cli_run_exit(run_backend(s->o, par, path, prog, allowed, &rr));
  rr.termination = allowed->termination;
  rr.termination_witness = allowed->termination_witness ? lc_xstrdup(allowed->termination_witness) : NULL;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  if (rc == 0 && run_result_finish(&rr, &d) < 0) {
    cli_print_messages(stderr, "litmus-run", path, &d);
    rc = LC_EXIT_INTERNAL;
  }
  if (rc == 0) {
    if (run_compare(&rr, allowed) > 0) {
      rc = LC_EXIT_MISMATCH;
      explain_forbidden(s, prog, &rr);
    }
    if (run_unexpected_hangs(&rr)) rc = LC_EXIT_MISMATCH;
    if (s->par) tune_add(s, &rr);
    else if (js) {
      *js = run_report_json(&rr);
    } else {
      report(s, &rr);
    }
  }
  lc_diag_fini(&d);
  run_result_fini(&rr);
  return rc;
}

/* The campaign's runs of this file still to do, each appended when it
 * finishes; a run cut short by an interrupt is not kept. */
static int campaign_runs(session *s, const char *path, const lx_program *prog, const lc_result *allowed) {
  int status = LC_EXIT_OK;
  for (size_t r = 0; run_campaign_next(s->camp, &r) && !interrupted(s->o); r++) {
    if (run_campaign_test(s->camp, r) != s->file) continue;
    run_params par = s->o->par;
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    run_grid_apply(s->grid, run_campaign_point(s->camp, r), &par, &d);   /* checked when parsed */
    par.seed = run_campaign_seed(s->camp, r);
    json_t *js = NULL;
    int rc = run_program(s, path, prog, allowed, &par, &js);
    if (js && !interrupted(s->o) && run_campaign_append(s->camp, r, js, &d) < 0) {
      fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
      rc = LC_EXIT_INTERNAL;
    }
    json_decref(js);
    lc_diag_fini(&d);
    if (rc > status) status = rc;
  }
  return status;
}

typedef struct mutant_ctx {
  session *s;
  const char *path;
} mutant_ctx;

static run_status run_mutant(void *ctx, const lx_program *prog, const lc_result *allowed, run_result *rr) {
  mutant_ctx *c = ctx;
  return run_backend(c->s->o, &c->s->o->par, c->path, prog, allowed, rr);
}

/* --mutants: the test's weakened twins after it, as a block or a JSON line. */
static int mutants(session *s, const char *path, const lt_test *t, const lc_source *src) {
  mutant_ctx c = {s, path};
  lc_buf text;
  lc_buf_init(&text);
  json_t *js = NULL;
  int rc = cli_run_exit(run_mutants(t, src, s->model, &s->o->check, run_mutant, &c, &text, &js, &s->score));
  if (js && s->o->json) {
    char *line = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
    lc_buf_printf(&s->out, "%s\n", line);
    free(line);
  } else if (text.n) {
    lc_buf_puts(&s->out, text.s);
  }
  json_decref(js);
  lc_buf_fini(&text);
  return rc;
}

/* As litmus-check's, with what it means for the run. */
static void bound_warning(const char *path, const lx_program *prog, const lc_result *r, const lc_unroll_hint *h) {
  lc_buf b;
  lc_buf_init(&b);
  lc_unroll_cut_loops(&b, prog, r);
  lc_buf_puts(&b, "); outcomes only they reach are marked '?'; ");
  lc_unroll_hint_text(&b, h, r->termination);
  fprintf(stderr, "litmus-run: %s: warning: some executions need more loop iterations than --unroll %u allows (%s\n",
          path, prog->unroll, b.s);
  lc_buf_fini(&b);
}

static int check_and_run(session *s, const char *path, const lt_test *t, const lc_source *src) {
  lc_diag d;
  lc_diag_init(&d, src, stderr);
  lx_program *prog = NULL;
  if (s->o->par.progress)
    fprintf(stderr, "litmus-run: %s: model check (%s engine)...", path, lc_engine_name(s->o->check.engine));
  if (s->o->checking) atomic_store(s->o->checking, true);
  const cat_model *model = session_model(s, t);
  if (cli_models_other_dialect(s->models, t))
    fprintf(stderr, "litmus-run: %s: warning: a %s test: run against %s, not --model %s (a %s model); "
            "--any-dialect insists\n", path, t->cpp ? "C++" : "PTX", cat_model_name(model), s->o->model,
            t->cpp ? "PTX" : "C++");
  /* only a test that can block may hang: only such a test costs a
   * termination check (its verdict goes with the run's hung instances) */
  lc_check_options check = s->o->check;
  check.termination = !s->o->emit_cuda && run_test_can_block(t);
  /* a C++ test's loops show only once lowered: the termination question
   * then follows the check; the loop warning's hint comes with it */
  lc_unroll_hint hint;
  bool emitting = s->o->emit_cuda;
  lc_result *allowed = run_model_check(t, model, &check, !emitting, emitting ? NULL : &hint, &prog, &d);
  if (s->o->checking) atomic_store(s->o->checking, false);
  if (s->o->par.progress) fputs("\r\033[K", stderr);
  lc_diag_fini(&d);
  int rc;
  if (!allowed) rc = LC_EXIT_INPUT;
  else if (s->o->emit_cuda) rc = emit(s, path, prog);
  else if (allowed->status != LC_RESULT_OK) {
    fprintf(stderr, "litmus-run: %s: the model check failed: %s\n", path,
            allowed->message ? allowed->message : "no answer");
    rc = LC_EXIT_INTERNAL;
  } else if (allowed->ub_reached) {
    /* no outcome list would be the program's: as litmus-check, refuse */
    fprintf(stderr, "litmus-run: %s: error: undefined behaviour (an index outside its array or a division by "
                    "zero) in an allowed execution; litmus-check names the place; not run\n", path);
    rc = LC_EXIT_INPUT;
  } else {
    if (allowed->bound_reached) bound_warning(path, prog, allowed, &hint);
    rc = s->camp ? campaign_runs(s, path, prog, allowed)
                 : run_program(s, path, prog, allowed, s->par ? s->par : &s->o->par, NULL);
    if (s->o->mutants && !s->camp && rc <= LC_EXIT_MISMATCH && !interrupted(s->o)) {
      int mrc = mutants(s, path, t, src);
      if (mrc > LC_EXIT_MISMATCH && mrc > rc) rc = mrc;
    }
  }
  lc_result_free(allowed);
  lx_program_free(prog);
  return rc;
}

static int run_file(session *s, const char *path) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  cli_test ct;
  int rc = cli_test_read(&ct, "litmus-run", path, NULL, &d);
  lc_diag_fini(&d);
  if (rc == 0) rc = check_and_run(s, path, ct.test, &ct.src);
  else rc = LC_EXIT_INPUT;
  cli_test_fini(&ct);
  return rc;
}

/* Writes what is new in s->out to stdout, or all of it to -o. */
static int flush_output(session *s, size_t *printed) {
  if (s->o->output) {
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    int rc = lc_write_atomic(s->o->output, s->out.s, s->out.n, &d);
    if (rc < 0) fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
    lc_diag_fini(&d);
    return rc < 0 ? LC_EXIT_INTERNAL : 0;
  }
  fwrite(s->out.s + *printed, 1, s->out.n - *printed, stdout);
  fflush(stdout);
  *printed = s->out.n;
  return 0;
}

/* Whether the campaign still has a run of file i. */
static bool campaign_pending(const session *s, size_t i) {
  for (size_t r = 0; run_campaign_next(s->camp, &r); r++)
    if (run_campaign_test(s->camp, r) == i) return true;
  return false;
}

static int open_campaign(session *s, run_campaign *c, run_grid *g) {
  const options *o = s->o;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = (o->grid_spec && run_grid_parse(g, o->grid_spec, &d) < 0) ||
           run_campaign_open(c, o->campaign, o->files.v, o->files.n, g, o->backend == BACKEND_HOST ? "host" : "cuda",
                             o->par.seed, o->shard, o->nshards, o->resume, o->args, o->nargs, &d) < 0 ? -1 : 0;
  if (rc < 0) fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  s->camp = rc == 0 ? c : NULL;
  s->grid = g;
  return rc;
}

static int close_campaign(session *s) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  size_t done, mine = run_campaign_mine(s->camp, &done);
  fprintf(stderr, "litmus-run: %s: %zu of %zu runs done%s\n", s->o->campaign, done, mine,
          done == mine ? "" : " (partial: --resume goes on)");
  int rc = run_campaign_close(s->camp, &d) < 0 ? LC_EXIT_INTERNAL : 0;
  if (rc) fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return rc;
}

/* Without a driver the CUDA backend can run no test: one message, before
 * the first. */
static bool gpu_ready(const options *o) {
  if (o->backend != BACKEND_CUDA || o->emit_cuda) return true;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  bool ok = cu_probe(&d) == 0;
  if (!ok) fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return ok;
}

/* --tune: every trial runs every test; the best score's options go to
 * --config.  A trial cut short by an interrupt does not count. */
static int tune(session *s, const atomic_bool *stop) {
  const options *o = s->o;
  double best = -1;
  json_t *best_params = NULL;
  unsigned done = 0;
  int status = LC_EXIT_OK;
  for (unsigned k = 0; k < o->tune && !(stop && atomic_load(stop)); k++) {
    run_params par;
    json_t *params;
    run_tune_draw(o->par.seed, k, &o->par, &par, &params);
    s->par = &par;
    s->weak = s->seconds = 0;
    for (size_t i = 0; i < o->files.n && !(stop && atomic_load(stop)); i++) {
      int rc = run_file(s, o->files.v[i]);
      if (rc > LC_EXIT_MISMATCH && rc > status) status = rc;
    }
    double score = s->seconds > 0 ? s->weak / s->seconds : 0;
    if (!(stop && atomic_load(stop))) {
      char *text = json_dumps(params, JSON_COMPACT);
      fprintf(stderr, "litmus-run: trial %u: %.6g weak outcomes per second: %s\n", k + 1, score, text);
      free(text);
      done++;
      if (score > best) {
        best = score;
        json_decref(best_params);
        best_params = json_incref(params);
      }
    }
    json_decref(params);
  }
  s->par = NULL;
  if (best_params) {
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    if (run_tune_write(o->config, s->device, o->backend == BACKEND_HOST ? "host" : "cuda", o->par.seed, done, best,
                       best_params, &d) < 0) {
      fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
      status = LC_EXIT_INTERNAL;
    } else {
      fprintf(stderr, "litmus-run: best of %u trials (%.6g weak outcomes per second) written to %s\n", done, best,
              o->config);
    }
    lc_diag_fini(&d);
    json_decref(best_params);
  }
  return status;
}

static int run_all(const options *o, const cli_models *models, const atomic_bool *stop) {
  session s = {.o = o, .model = models->model, .cpp_model = models->cpp, .hopper_model = models->hopper,
               .models = models};
  lc_buf_init(&s.out);
  run_campaign camp;
  run_grid grid = {{0}};
  int status = LC_EXIT_OK;
  bool ready = !(o->campaign && open_campaign(&s, &camp, &grid) < 0) && gpu_ready(o);
  if (!ready) status = LC_EXIT_INPUT;
  size_t printed = 0;
  if (ready && o->tune) {
    status = tune(&s, stop);
    ready = false;
  }
  for (size_t i = 0; i < o->files.n && ready && !(stop && atomic_load(stop)); i++) {
    s.file = i;
    if (s.camp && !campaign_pending(&s, i)) continue;
    int rc = run_file(&s, o->files.v[i]);
    int wrc = flush_output(&s, &printed);
    if (rc > status) status = rc;
    if (wrc > status) status = wrc;
  }
  if (s.camp) {
    int rc = close_campaign(&s);
    if (rc > status) status = rc;
  }
  if (o->mutants)
    fprintf(stderr, "litmus-run: mutation score: %zu of %zu mutants showed their weak outcome\n", s.score.observed,
            s.score.total);
  if (stop && atomic_load(stop)) {
    fputs("litmus-run: interrupted; the results are partial\n", stderr);
    status = EXIT_INTERRUPTED;
  }
  run_grid_free(&grid);
  free(s.device);
  lc_buf_fini(&s.out);
  return status;
}

static void options_init(options *o) {
  memset(o, 0, sizeof *o);
  o->backend = BACKEND_CUDA;
  o->model = "ptx-v7.5";
  lc_check_options_init(&o->check);
  o->check.races = false;   /* the runner needs states only */
  run_params_init(&o->par);
  o->par.progress = true;
  o->sass = (cu_sass_opts){{75, 80, 90}, 3, NULL, false, false, stdout};
}

/* --check-sass: no model, no run; 77 when cuobjdump or NVRTC is missing. */
static int check_sass(const options *o) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = cli_sass_exit(cu_sass_check(o->files.v, o->files.n, &o->sass, &d));
  if (lc_diag_first_error(&d)) fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
  lc_diag_fini(&d);
  return rc;
}

/* --resume --campaign FILE: the options FILE's header records come
 * first, so that those not repeated are taken from it and those given
 * override it, and its tests when none are given. */
static char **resume_argv(int argc, char **argv, int *argc2, char ***hargs, size_t *nh, char ***tests, size_t *nt) {
  const char *campaign = NULL;
  bool resume = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) break;
    if (strcmp(argv[i], "--resume") == 0) resume = true;
    else if (strcmp(argv[i], "--campaign") == 0 && i + 1 < argc) campaign = argv[i + 1];
    else if (strncmp(argv[i], "--campaign=", 11) == 0) campaign = argv[i] + 11;
  }
  *hargs = *tests = NULL;
  *nh = *nt = 0;
  if (!resume || !campaign || run_campaign_resume_args(campaign, hargs, nh, tests, nt) < 0) return NULL;
  char **v = lc_xcalloc((size_t)argc + *nh + 1, sizeof(char *));
  int n = 0;
  v[n++] = argv[0];
  for (size_t i = 0; i < *nh; i++) v[n++] = (*hargs)[i];
  for (int i = 1; i < argc; i++) v[n++] = argv[i];
  *argc2 = n;
  return v;
}

int main(int argc, char **argv) {
  options o;
  options_init(&o);
  char **hargs, **htests;
  size_t nh, nt;
  int argc2 = argc;
  char **argv2 = resume_argv(argc, argv, &argc2, &hargs, &nh, &htests, &nt);
  int status = parse_options(argc2, argv2 ? argv2 : argv, &o, htests, nt);
  if (status < 0 && o.check_sass) status = check_sass(&o);
  if (!o.seeded) o.par.seed = clock_seed();
  o.par.progress = o.par.progress && lc_is_tty(stderr);
  cli_models models = {0};
  if (status < 0 && cli_models_load(&models, "litmus-run", argv[0], o.model, o.model_given, o.any_dialect, NULL) < 0)
    status = LC_EXIT_INPUT;
  if (status < 0) {
    interrupts in;
    interrupts_start(&in);
    o.par.stop = in.running ? &in.stop : NULL;
    o.checking = in.running ? &in.checking : NULL;
    status = run_all(&o, &models, o.par.stop);
    interrupts_stop(&in);
  }
  status = cli_finish("litmus-run", status);
  cli_models_fini(&models);
  lc_paths_free(&o.files);
  free(o.args);
  free(argv2);
  run_campaign_args_free(hargs, nh);
  run_campaign_args_free(htests, nt);
  return status;
}
