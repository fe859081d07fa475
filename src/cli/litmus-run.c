/* litmus-run.c - the litmus-run program: run tests on a GPU or on CPU
 * threads and compare what happened with what the model allows.
 * SPDX-License-Identifier: MIT
 *
 * For each test: parse, compute the model's allowed states with
 * lc_check_test, run it on the chosen backend, compare, report.  Reports go
 * to stdout or, with -o, to a file rewritten atomically after every test,
 * so an interrupted run keeps every finished test.  SIGINT and SIGTERM are
 * taken by a thread of their own (sigwait) that asks the running test to
 * stop after its current batch; a second one ends the program at once.
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
#include "explain.h"
#include "report/why.h"
#include "paths.h"
#include "cuda/cuda.h"
#include "host/host.h"
#include "lc.h"
#include "litmus/ast.h"
#include "run/run.h"
#include "run/run_report.h"

typedef enum { BACKEND_CUDA, BACKEND_HOST } backend_kind;

typedef struct options {
  backend_kind backend;
  bool emit_cuda, json, seeded;
  bool model_given;           /* -m; else PTX tests use ptx-v7.5, C++ tests cuda-cpp */
  const char *model, *output;
  lc_check_options check;
  run_params par;
  lc_paths files;
} options;

static void usage(FILE *out) {
  fputs("Usage: litmus-run [OPTION]... FILE|DIR...\n"
        "Run scoped-PTX litmus tests many times on a GPU (or on CPU threads) and\n"
        "compare the outcomes with those a memory model allows.\n"
        "\n"
        "  -b, --backend cuda|host   where to run (default cuda); host: CPU threads\n"
        "      --emit-cuda           print the generated CUDA source and exit\n"
        "  -n, --iterations N        kernel launches (cuda) or batches (host)\n"
        "  -t, --time S              stop after S seconds (with -n: whichever first)\n"
        "  -i, --instances N         test instances per launch or batch\n"
        "  -s, --seed S              64-bit seed for all randomness (default: from the clock)\n"
        "  -d, --device N            CUDA device (default 0)\n"
        "  -m, --model NAME|FILE     memory model (default ptx-v7.5; cuda-cpp for C++ tests)\n"
        "  -u, --unroll N            loop bound of the model check (default 2)\n"
        "  -k, --max-forbidden K     record the first K forbidden instances (default 8)\n"
        "      --json                one JSON object per test, one per line\n"
        "  -o, --output FILE         write the results to FILE (atomically)\n"
        "  -q, --quiet               no progress on the terminal\n"
        "Stress and layout (defaults in litmus-run(1)):\n"
        "      --[no-]mem-stress     idle threads hammer a scratchpad during the test\n"
        "      --[no-]pre-stress     testing threads hammer it before the test\n"
        "      --stress-pattern P    st-st, st-ld, ld-st or ld-ld (or 0-3)\n"
        "      --stress-lines N      scratchpad lines the stress targets\n"
        "      --stress-iterations N accesses per stressing thread\n"
        "      --[no-]barrier        spin barrier before each instance\n"
        "      --[no-]shuffle        shuffle CTAs (cuda) or location copies (host)\n"
        "      --testing-pct P       percentage of CTAs that run tests (cuda)\n"
        "      --stride N            words between consecutive instances' locations\n"
        "      --threads-per-cta N   threads per CTA (cuda)\n"
        "      --spin-limit N        spins before an instance is abandoned\n"
        "      --[no-]pin            pin each litmus thread to a CPU (host)\n"
        "  -h, --help                show this help and exit\n"
        "  -V, --version             show the version and exit\n"
        "\n"
        "Exit status: 0 nothing forbidden observed, 1 a forbidden outcome observed,\n"
        "2 bad input, no GPU or a test the backend cannot run, 3 internal error.\n"
        "See litmus-run(1).\n",
        out);
}

/* ---- options ---------------------------------------------------------------------- */

enum {
  OPT_EMIT = 256, OPT_JSON, OPT_MEM_STRESS, OPT_NO_MEM_STRESS, OPT_PRE_STRESS, OPT_NO_PRE_STRESS,
  OPT_PATTERN, OPT_LINES, OPT_STRESS_ITERS, OPT_BARRIER, OPT_NO_BARRIER, OPT_SHUFFLE, OPT_NO_SHUFFLE,
  OPT_TESTING_PCT, OPT_STRIDE, OPT_TPC, OPT_SPIN_LIMIT, OPT_PIN, OPT_NO_PIN
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

static int parse_pattern(const char *s, unsigned *out) {
  static const char *names[] = {"st-st", "st-ld", "ld-st", "ld-ld"};
  for (unsigned i = 0; i < 4; i++)
    if (strcmp(s, names[i]) == 0 || (s[0] == (char)('0' + i) && s[1] == '\0')) {
      *out = i;
      return 0;
    }
  return bad_value("--stress-pattern", s, "st-st, st-ld, ld-st, ld-ld or 0-3");
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
  case OPT_JSON: o->json = true; return true;
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
  case OPT_PATTERN: return parse_pattern(arg, &o->par.stress_pattern);
  }
  return uint_option(o, c, arg);
}

static const struct option longopts[] = {
  {"backend", required_argument, NULL, 'b'},     {"emit-cuda", no_argument, NULL, OPT_EMIT},
  {"iterations", required_argument, NULL, 'n'},  {"time", required_argument, NULL, 't'},
  {"instances", required_argument, NULL, 'i'},   {"seed", required_argument, NULL, 's'},
  {"device", required_argument, NULL, 'd'},      {"model", required_argument, NULL, 'm'},
  {"unroll", required_argument, NULL, 'u'},      {"max-forbidden", required_argument, NULL, 'k'},
  {"json", no_argument, NULL, OPT_JSON},         {"output", required_argument, NULL, 'o'},
  {"quiet", no_argument, NULL, 'q'},
  {"mem-stress", no_argument, NULL, OPT_MEM_STRESS}, {"no-mem-stress", no_argument, NULL, OPT_NO_MEM_STRESS},
  {"pre-stress", no_argument, NULL, OPT_PRE_STRESS}, {"no-pre-stress", no_argument, NULL, OPT_NO_PRE_STRESS},
  {"stress-pattern", required_argument, NULL, OPT_PATTERN},
  {"stress-lines", required_argument, NULL, OPT_LINES},
  {"stress-iterations", required_argument, NULL, OPT_STRESS_ITERS},
  {"barrier", no_argument, NULL, OPT_BARRIER},   {"no-barrier", no_argument, NULL, OPT_NO_BARRIER},
  {"shuffle", no_argument, NULL, OPT_SHUFFLE},   {"no-shuffle", no_argument, NULL, OPT_NO_SHUFFLE},
  {"testing-pct", required_argument, NULL, OPT_TESTING_PCT},
  {"stride", required_argument, NULL, OPT_STRIDE},
  {"threads-per-cta", required_argument, NULL, OPT_TPC},
  {"spin-limit", required_argument, NULL, OPT_SPIN_LIMIT},
  {"pin", no_argument, NULL, OPT_PIN},           {"no-pin", no_argument, NULL, OPT_NO_PIN},
  {"help", no_argument, NULL, 'h'},              {"version", no_argument, NULL, 'V'},
  {NULL, 0, NULL, 0},
};

/* Returns -1 to go on, or the exit status when the options say to stop. */
static int parse_options(int argc, char **argv, options *o) {
  int c;
  while ((c = getopt_long(argc, argv, "b:n:t:i:s:d:m:u:k:o:qhV", longopts, NULL)) != -1) {
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
  for (int i = optind; i < argc; i++) lc_paths_add(&o->files, argv[i]);
  if (optind == argc) {
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
} interrupts;

static void *interrupt_thread(void *arg) {
  interrupts *in = arg;
  int sig;
  for (;;) {
    if (sigwait(&in->set, &sig) != 0) continue;
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
  lc_buf out;                /* everything reported so far (for -o) */
} session;

/* Prints the messages a backend left in d: positioned ones as they are,
 * the others after the program's and the file's name. */
static void print_messages(const lc_diag *d, const char *path) {
  for (size_t i = 0; i < d->msgs.n; i++) {
    const lc_message *m = &d->msgs.v[i];
    if (m->loc.file) fprintf(stderr, "%s\n", m->text);
    else fprintf(stderr, "litmus-run: %s: %s\n", path, m->text);
  }
}

static int emit(session *s, const char *path, const lx_program *prog) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  lc_buf src;
  lc_buf_init(&src);
  int rc = cu_emit(&src, prog, &s->o->par, &d);
  print_messages(&d, path);
  if (rc == 0) lc_buf_puts(&s->out, src.s);
  lc_buf_fini(&src);
  lc_diag_fini(&d);
  return rc;
}

static int run_backend(const options *o, const char *path, const lx_program *prog, const lc_result *allowed,
                       run_result *rr) {
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = o->backend == BACKEND_HOST ? host_run(prog, &o->par, allowed, rr, &d)
                                      : cu_run(prog, &o->par, allowed, rr, &d);
  print_messages(&d, path);
  if (rc == LC_EXIT_INPUT && o->backend == BACKEND_CUDA && !prog->test->cpp)
    fprintf(stderr, "litmus-run: %s: the CUDA backend cannot run here (no GPU, driver or NVRTC?); "
                    "--backend host runs the test on CPU threads\n", path);
  lc_diag_fini(&d);
  return rc;
}

static void report(session *s, const run_result *rr) {
  if (s->o->json) {
    json_t *js = run_report_json(rr);
    char *text = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
    lc_buf_printf(&s->out, "%s\n", text);
    free(text);
    json_decref(js);
  } else {
    if (s->out.n) lc_buf_putc(&s->out, '\n');
    run_report_text(&s->out, rr);
  }
}

/* Each forbidden outcome gets the first set of checks that rules it out,
 * for the headline. */
static void explain_forbidden(session *s, const lx_program *prog, run_result *rr) {
  for (size_t i = 0; i < rr->nbins; i++) {
    run_bin *b = &rr->bins[i];
    if (run_bin_classify(b) != RUN_BIN_FORBIDDEN) continue;
    lc_state st;
    lc_state_of_values(prog, b->values, &st);
    lc_explain_result *x = lc_explain(prog, s->model, s->o->check.engine, s->o->check.timeout, &st, 1, rr->model);
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

static int run_program(session *s, const char *path, const lx_program *prog, const lc_result *allowed) {
  const char *backend = s->o->backend == BACKEND_HOST ? "host" : "cuda";
  run_result rr;
  run_result_init(&rr, prog, backend);
  int rc = run_backend(s->o, path, prog, allowed, &rr);
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  if (rc == 0 && run_result_finish(&rr, &d) < 0) {
    print_messages(&d, path);
    rc = LC_EXIT_INTERNAL;
  }
  if (rc == 0) {
    if (run_compare(&rr, allowed) > 0) {
      rc = LC_EXIT_MISMATCH;
      explain_forbidden(s, prog, &rr);
    }
    report(s, &rr);
  }
  lc_diag_fini(&d);
  run_result_fini(&rr);
  return rc;
}

static int check_and_run(session *s, const char *path, const lt_test *t, const lc_source *src) {
  lc_diag d;
  lc_diag_init(&d, src, stderr);
  lx_program *prog = NULL;
  const cat_model *model = t->cpp && s->cpp_model ? s->cpp_model : s->model;
  lc_result *allowed = lc_check_test(t, model, &s->o->check, &prog, &d);
  lc_diag_fini(&d);
  int rc;
  if (!allowed) rc = LC_EXIT_INPUT;
  else if (s->o->emit_cuda) rc = emit(s, path, prog);
  else if (allowed->status != LC_RESULT_OK) {
    fprintf(stderr, "litmus-run: %s: the model check failed: %s\n", path,
            allowed->message ? allowed->message : "no answer");
    rc = LC_EXIT_INTERNAL;
  } else {
    if (allowed->bound_reached)
      fprintf(stderr, "litmus-run: %s: warning: some executions need more loop iterations than --unroll %u; "
                      "outcomes only they reach are marked '?'\n", path, prog->unroll);
    rc = run_program(s, path, prog, allowed);
  }
  lc_result_free(allowed);
  lx_program_free(prog);
  return rc;
}

static int run_file(session *s, const char *path) {
  lc_source src;
  if (lc_source_read(&src, path) < 0) {
    fprintf(stderr, "litmus-run: cannot read '%s': %s\n", path, strerror(errno));
    return LC_EXIT_INPUT;
  }
  lc_diag d;
  lc_diag_init(&d, &src, stderr);
  lt_test *t = lt_parse(&src, &d);
  lc_diag_fini(&d);
  int rc = t ? check_and_run(s, path, t, &src) : LC_EXIT_INPUT;
  lt_test_free(t);
  lc_source_fini(&src);
  return rc;
}

/* Writes what is new in s->out to stdout, or all of it to -o. */
static int flush_output(session *s, size_t *printed) {
  if (s->o->output) {
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    int rc = run_write_atomic(s->o->output, s->out.s, s->out.n, &d);
    if (rc < 0) fprintf(stderr, "litmus-run: %s\n", lc_diag_first_error(&d));
    lc_diag_fini(&d);
    return rc < 0 ? LC_EXIT_INTERNAL : 0;
  }
  fwrite(s->out.s + *printed, 1, s->out.n - *printed, stdout);
  fflush(stdout);
  *printed = s->out.n;
  return 0;
}

static int run_all(const options *o, const cat_model *m, const cat_model *mcpp,
                   const atomic_bool *stop) {
  session s = {o, m, mcpp, {0}};
  lc_buf_init(&s.out);
  int status = LC_EXIT_OK;
  size_t printed = 0;
  for (size_t i = 0; i < o->files.n && !(stop && atomic_load(stop)); i++) {
    int rc = run_file(&s, o->files.v[i]);
    int wrc = flush_output(&s, &printed);
    if (rc > status) status = rc;
    if (wrc > status) status = wrc;
  }
  if (stop && atomic_load(stop)) fputs("litmus-run: interrupted; the results are partial\n", stderr);
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
}

int main(int argc, char **argv) {
  options o;
  options_init(&o);
  int status = parse_options(argc, argv, &o);
  if (!o.seeded) o.par.seed = clock_seed();
  o.par.progress = o.par.progress && lc_is_tty(stderr);
  cat_model *m = NULL, *mcpp = NULL;
  char **search = NULL;
  if (status < 0) {
    search = lc_model_search(argv[0]);
    lc_diag d;
    lc_diag_init(&d, NULL, stderr);
    m = cat_load(o.model, (const char *const *)search, &d);
    if (m && !o.model_given) mcpp = cat_load("cuda-cpp", (const char *const *)search, &d);
    lc_diag_fini(&d);
    if (!m || (!o.model_given && !mcpp)) status = LC_EXIT_INPUT;
  }
  if (status < 0) {
    interrupts in;
    interrupts_start(&in);
    o.par.stop = in.running ? &in.stop : NULL;
    status = run_all(&o, m, mcpp, o.par.stop);
    interrupts_stop(&in);
  }
  if (fflush(stdout) != 0 && status == LC_EXIT_OK) {
    fprintf(stderr, "litmus-run: write error: %s\n", strerror(errno));
    status = LC_EXIT_INTERNAL;
  }
  cat_model_free(m);
  cat_model_free(mcpp);
  lc_model_search_free(search);
  lc_paths_free(&o.files);
  return status;
}
