/* litmus-check.c - the litmus-check program: options, then the library.
 * SPDX-License-Identifier: MIT
 *
 * Modes: the default checks each test against a model and prints a
 * herd-style block (or JSON); --print normalises tests; --events shows the
 * lowered events; --lint reports structural mistakes.  Each test, in every
 * mode, runs in one of --jobs child processes (isolate.h), under
 * --max-memory, which the parent kills at the --timeout deadline.  Output
 * is printed in the order given.
 */
#define _GNU_SOURCE   /* getopt_long, open_memstream */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <z3.h>

#include "check.h"
#include "cli/cli.h"
#include "cli/diff-cli.h"
#include "cli/map-cli.h"
#include "cli/via.h"
#include "cli/memory.h"
#include "paths.h"
#include "progress.h"
#include "lc.h"
#include "litmus/ast.h"
#include "litmus/herd_hash.h"
#include "cli/herd-cli.h"
#include "report/report.h"
#include "report/show.h"
#include "report/why.h"
#include "explain.h"
#include "isolate.h"
#include "unroll_hint.h"

typedef enum { MODE_CHECK, MODE_PRINT, MODE_EVENTS, MODE_LINT } run_mode;

typedef struct options {
  run_mode mode;
  const char *model;
  const char *expect;
  bool json, quiet;
  bool herd;                  /* --format herd: herd7's output (report_herd) */
  bool unroll_search;         /* --unroll-search: check larger bounds to word the warning */
  size_t max_memory;          /* --max-memory, bytes; 0: not set (the default) */
  bool explain;
  const char *explain_state;  /* NULL: the condition's states; "race": the races */
  const char *graph, *html;
  const char *show;           /* --show all|STATE */
  const char *herd_dir;       /* herd7's -o DIR: DIR/TEST.dot, the executions herd_show selects */
  const char *herd_show;      /* herd7's -show: prop, all, neg, cond, wit or none */
  const char *herd_suffix;    /* herd7's -suffix: added to the .dot files' names */
  const char *herd_skip;      /* herd7's -skipcheck names (comma-separated), "*" for -through invalid */
  const char *show_rels;      /* --show-rel LIST|all; NULL: the checks' own */
  size_t show_limit;          /* --show-limit N (default 100) */
  unsigned jobs;
  lc_check_options check;
  lc_paths files;
  bool model_given;           /* -m: the tests of its dialect under it; else PTX tests
                                 under ptx-v7.5 (with Hopper instructions ptx-v8) and C++
                                 tests under cuda-cpp (--set then sets those two's options) */
  bool any_dialect;           /* --any-dialect: -m's model checks every test */
  const char *settings[17];   /* --set NAME=VALUE and --variant V (as "variant:V"), NULL-terminated */
  char *variant_settings[16]; /* the "variant:V" strings (owned) */
  size_t nvariants;
  size_t nsettings;
  kn_options kernel;          /* --kernel, --launch, --input, --output, -D: for .cu files */
  const char *defines[33];    /* -D NAME[=VALUE] */
  const char *via;            /* --via nvcc|nvrtc|both: .cu files through the compiler; NULL: as written */
  int sm;                     /* --sm N: the compiler's target (90) */
} options;

static void usage(FILE *out) {
  fputs("Usage: litmus-check [OPTION]... FILE|DIR...\n"
        "Check litmus tests (scoped PTX or CUDA C++) against a memory model: every\n"
        "allowed final state, the verdict of the test's condition, and data races.\n"
        "\n"
        "  -m, --model NAME|FILE  memory model (default: ptx-v7.5 for PTX tests, ptx-v8\n"
        "                         for those with mbarrier, cluster barriers or bulk\n"
        "                         copies, cuda-cpp\n"
        "                         for C and CUDA C++ tests; see models/); a PTX\n"
        "                         model checks the PTX tests, a C++ model the C++\n"
        "                         tests, the others keep their default\n"
        "      --any-dialect      check every test under --model, PTX or C++\n"
        "      --set NAME=VALUE   set an option of the model (e.g. no-thin-air=off)\n"
        "      --variant V        set herd's variant V: the model's `if \"V\"` holds\n"
        "  -e, --engine smt|enum|auto  engine (default auto)\n"
        "  -j, --jobs N           check N tests at a time (default: one per processor);\n"
        "                         given, with fewer tests than N, split each test's\n"
        "                         states among the jobs\n"
        "  -t, --timeout S        give up on a test after S seconds (exit 3)\n"
        "      --max-memory SIZE  give up on a test past SIZE bytes (K, M, G; default:\n"
        "                         half the memory, shared among the jobs; exit 3)\n"
        "  -u, --unroll N         take each backward jump at most N times (default 2)\n"
        "      --unroll-search    when the bound cuts executions, check up to 4 larger\n"
        "                         bounds (2 s) for one that explores them all\n"
        "      --json             one JSON object per test, one per line\n"
        "      --format text|herd|json  the output: ours (default), herd7's (read by\n"
        "                         mcompare7 and msum7), or --json\n"
        "      --expect CSV       compare verdicts with lines `path,0|1` (1: the\n"
        "                         condition holds); print mismatches (on stdout, with\n"
        "                         --json on stderr), exit 1 on any\n"
        "      --no-races         do not evaluate the model's flags (data races)\n"
        "      --all-retries      unroll every retry of a spin loop up to --unroll (by\n"
        "                         default a retry that only read is kept once)\n"
        "      --explain[=STATE]  why each state of the condition (or STATE, written\n"
        "                         'P1:r0=1; P1:r1=0;') is forbidden or allowed;\n"
        "                         --explain=race (or --explain race): an execution\n"
        "                         for each racy pair\n"
        "      --show all|STATE   print every allowed execution (or those giving STATE)\n"
        "                         with rf, co, fr and the model's named relations\n"
        "      --show-limit N     print at most N of them (default 100); they are\n"
        "                         counted up to 10000 (or N)\n"
        "      --show-rel LIST    the relations --show prints: names of the model's\n"
        "                         `let`s, comma-separated, or all (default: those its\n"
        "                         checks name)\n"
        "      --graph FILE.dot|.svg|.png|.pdf  draw the explained executions (Graphviz),\n"
        "                         or --show's executions\n"
        "      --html DIR         a page per test and an index, with explanations\n"
        "      --lint             report structural mistakes in barrier, mbarrier, cluster\n"
        "                         and async-proxy code instead of checking (exit 1 if any)\n"
        "      --termination      also say whether some fair run may hang (spin loops,\n"
        "                         barriers), with a witness\n"
        "      --progress M       ... under the CTA progress model M: fair, obe, lobe,\n"
        "                         hsa, hsa-obe, unfair, a comma list or all (a line each)\n"
        "  -q, --quiet            print no test blocks (with --expect: mismatches only)\n"
        "  -p, --print            print each test in normal form\n"
        "      --events           print each test's lowered events and paths\n"
        "      --lower TABLE|nvcc|nvrtc  print a C++ test compiled to PTX through a\n"
        "                         mapping table (or by the compiler), as a PTX test\n"
        "      --check-mapping TABLE|nvcc|nvrtc  check a table (or a compiler) on C++\n"
        "                         tests; with --sm N, --ptx-model M,\n"
        "                         --max-combinations N (docs/mappings.md); or with\n"
        "                         --exhaustive [--bound SPEC] [-j N] every program\n"
        "                         within a bound (--shard K/N: a part, as JSON lines;\n"
        "                         --merge FILE...: the report of the parts)\n"
        "                         within a bound\n"
        "      --diff-models A B  the tests (FILEs, --gen SPEC, or with --exhaustive\n"
        "                         [--bound SPEC] every program within a bound, then\n"
        "                         if none differs litmus-gen's cycles past it, unless\n"
        "                         --no-cycles) on which models A and B allow\n"
        "                         different states, smallest first, with the checks\n"
        "                         that forbid each (docs/diff-models.md); exit 1 when\n"
        "                         they differ\n"
        "      --kernel NAME      in a .cu file, check kernel NAME (docs/kernels.md)\n"
        "      --launch '<<<G, B>>>'  the launch, instead of the file's // @Launch:\n"
        "      --input 'x = {0}; ...'  the parameters' values, instead of // @Input:\n"
        "      --output 'forall (...)'  the question, instead of // @Output:\n"
        "      --sm N             the target of .cu files: __CUDA_ARCH__ is N * 10 and\n"
        "                         NV_IF_TARGET takes its branch (default 70; with\n"
        "                         --via, nvcc's -arch=sm_N, default 90)\n"
        "  -D NAME[=VALUE]        define a macro for .cu files\n"
        "      --via nvcc|nvrtc|both  check a .cu file's kernel as the CUDA compiler\n"
        "                         made it (its PTX, under ptx-v8), or both levels\n"
        "                         side by side (docs/via-nvcc.md)\n"
        "  -h, --help             show this help and exit\n"
        "  -V, --version          show the version and exit\n"
        "\n"
        "A DIR is searched for *.litmus and *.cu files (a .cu file is a CUDA kernel\n"
        "with its launch, checked as written).  FILE may be - for standard input.\n"
        "Every mode (--print, --events, --lint, --lower, --check-mapping too) and a\n"
        "model given with -m run under --timeout and --max-memory.\n"
        "Exit status: 0 success, 1 --expect mismatch (or a finding), 2 bad input or\n"
        "usage, 3 internal error or no answer (the solver's, out of time or memory),\n"
        "4 litmus-check itself out of memory (not a test's process: that is 3).\n"
        "See litmus-check(1).\n",
        out);
}

/* ---- options ------------------------------------------------------------------ */

enum { OPT_JSON = 256, OPT_ANY_DIALECT, OPT_EXPECT, OPT_NO_RACES, OPT_EVENTS, OPT_EXPLAIN, OPT_GRAPH, OPT_HTML, OPT_SET,
       OPT_SHOW, OPT_SHOW_LIMIT, OPT_SHOW_REL,
       OPT_TERMINATION, OPT_PROGRESS, OPT_LINT, OPT_UNROLL_SEARCH, OPT_MAX_MEMORY, OPT_FORMAT, OPT_VARIANT,
       OPT_KERNEL, OPT_LAUNCH, OPT_INPUT, OPT_OUTPUT, OPT_VIA, OPT_SM, OPT_ALL_RETRIES,
       OPT_HERD_O, OPT_HERD_SHOW, OPT_HERD_SUFFIX, OPT_HERD_LIBDIR, OPT_HERD_SKIP };

/* A finite number (strtod also reads "nan" and "inf"); -1 when s is none. */
static int read_number(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

/* The argument of a separated --explain: `race`, or a state (it has an
 * `=`) that names no file. */
static bool explain_word(const char *s) {
  return strcmp(s, "race") == 0 || (strchr(s, '=') && access(s, F_OK) != 0);
}

/* ---- herd7's command line ------------------------------------------------------ */

typedef herd_strs str_vec;

/* Returns -1 to go on, or the exit status when the options say to stop. */
static int parse_options(int argc, char **argv, options *o) {
  static const struct option longopts[] = {
    {"model", required_argument, NULL, 'm'}, {"engine", required_argument, NULL, 'e'},
    {"jobs", required_argument, NULL, 'j'},  {"timeout", required_argument, NULL, 't'},
    {"unroll", required_argument, NULL, 'u'}, {"json", no_argument, NULL, OPT_JSON},
    {"unroll-search", no_argument, NULL, OPT_UNROLL_SEARCH}, {"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
    {"expect", required_argument, NULL, OPT_EXPECT}, {"no-races", no_argument, NULL, OPT_NO_RACES},
    {"all-retries", no_argument, NULL, OPT_ALL_RETRIES},
    {"quiet", no_argument, NULL, 'q'},       {"print", no_argument, NULL, 'p'},
    {"events", no_argument, NULL, OPT_EVENTS}, {"help", no_argument, NULL, 'h'},
    {"explain", optional_argument, NULL, OPT_EXPLAIN}, {"graph", required_argument, NULL, OPT_GRAPH},
    {"show", required_argument, NULL, OPT_SHOW}, {"show-limit", required_argument, NULL, OPT_SHOW_LIMIT},
    {"show-rel", required_argument, NULL, OPT_SHOW_REL},
    {"html", required_argument, NULL, OPT_HTML},     {"set", required_argument, NULL, OPT_SET},
    {"termination", no_argument, NULL, OPT_TERMINATION}, {"progress", required_argument, NULL, OPT_PROGRESS},
    {"lint", no_argument, NULL, OPT_LINT}, {"any-dialect", no_argument, NULL, OPT_ANY_DIALECT},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"variant", required_argument, NULL, OPT_VARIANT},
    {"kernel", required_argument, NULL, OPT_KERNEL}, {"launch", required_argument, NULL, OPT_LAUNCH},
    {"input", required_argument, NULL, OPT_INPUT}, {"output", required_argument, NULL, OPT_OUTPUT},
    {"via", required_argument, NULL, OPT_VIA}, {"sm", required_argument, NULL, OPT_SM},
    {"version", no_argument, NULL, 'V'},
    /* herd7's -o DIR, -show, -suffix and -libdir, as herd-cli.c rewrites them */
    {"herd-o", required_argument, NULL, OPT_HERD_O}, {"herd-show", required_argument, NULL, OPT_HERD_SHOW},
    {"herd-suffix", required_argument, NULL, OPT_HERD_SUFFIX}, {"herd-libdir", no_argument, NULL, OPT_HERD_LIBDIR},
    {"herd-skip", required_argument, NULL, OPT_HERD_SKIP},
    {NULL, 0, NULL, 0},
  };
  int c;
  double num;
  while ((c = getopt_long(argc, argv, "m:e:j:t:u:D:qphV", longopts, NULL)) != -1) {
    switch (c) {
    case 'm':
      o->model = optarg;
      o->model_given = true;
      break;
    case OPT_SET:
      if (o->nsettings + 1 >= LC_ARRAY_LEN(o->settings)) {
        fputs("litmus-check: at most 16 --set options\n", stderr);
        return LC_EXIT_INPUT;
      }
      o->settings[o->nsettings++] = optarg;
      break;
    case 'e':
      if (lc_engine_parse(optarg, &o->check.engine) < 0) {
        fprintf(stderr, "litmus-check: unknown engine '%s' (smt, enum or auto)\n", optarg);
        return LC_EXIT_INPUT;
      }
      break;
    case 'j':
      if (read_number(optarg, &num) < 0 || num < 1 || num > 256 || num != (unsigned)num) {
        fputs("litmus-check: --jobs takes 1 to 256\n", stderr);
        return LC_EXIT_INPUT;
      }
      o->jobs = (unsigned)num;
      break;
    case 't':
      /* 0 would mean no limit inside: a user asking for none leaves it out */
      if (read_number(optarg, &num) < 0 || !(num > 0) || num > 1e7) {
        fprintf(stderr, "litmus-check: --timeout: '%s' is not a positive number of seconds\n", optarg);
        return LC_EXIT_INPUT;
      }
      o->check.timeout = num;
      break;
    case 'u':
      if (read_number(optarg, &num) < 0 || num < 1 || num > 64 || num != (unsigned)num) {
        fputs("litmus-check: --unroll takes 1 to 64\n", stderr);
        return LC_EXIT_INPUT;
      }
      o->check.unroll = (unsigned)num;
      break;
    case OPT_JSON: o->json = true; break;
    case OPT_ANY_DIALECT: o->any_dialect = true; break;
    case OPT_VARIANT: {
      /* herd's variants: an `if "V"` of the model takes its then-branch */
      if (o->nsettings + 1 >= LC_ARRAY_LEN(o->settings)) {
        fputs("litmus-check: at most 16 --set and --variant options\n", stderr);
        return LC_EXIT_INPUT;
      }
      size_t n = strlen(optarg) + 9;
      char *v = lc_xmalloc(n);
      snprintf(v, n, "variant:%s", optarg);
      o->variant_settings[o->nvariants++] = v;
      o->settings[o->nsettings++] = v;
      break;
    }
    case OPT_FORMAT:
      if (strcmp(optarg, "herd") == 0) o->herd = true;
      else if (strcmp(optarg, "json") == 0) o->json = true;
      else if (strcmp(optarg, "text") != 0) {
        fprintf(stderr, "litmus-check: --format: '%s' is not text, herd or json\n", optarg);
        return LC_EXIT_INPUT;
      }
      break;
    case OPT_UNROLL_SEARCH: o->unroll_search = true; break;
    case OPT_MAX_MEMORY:
      if (mem_parse_size(optarg, &o->max_memory) < 0) {
        fprintf(stderr, "litmus-check: --max-memory: '%s' is not a size of 16M or more (e.g. 512M, 4G)\n", optarg);
        return LC_EXIT_INPUT;
      }
      break;
    case OPT_EXPECT: o->expect = optarg; break;
    case OPT_NO_RACES: o->check.races = false; break;
    case OPT_ALL_RETRIES: o->check.no_spin_reduce = true; break;
    case OPT_TERMINATION: o->check.termination = true; break;
    case OPT_PROGRESS:
      o->check.termination = true;
      if (!(o->check.progress = lc_progress_parse(optarg))) {
        fprintf(stderr, "litmus-check: --progress: '%s' is not fair, obe, lobe, hsa, hsa-obe, unfair or all\n", optarg);
        return LC_EXIT_INPUT;
      }
      break;
    case OPT_EVENTS: o->mode = MODE_EVENTS; break;
    case OPT_KERNEL: o->kernel.kernel = optarg; break;
    case OPT_LAUNCH: o->kernel.launch = optarg; break;
    case OPT_INPUT: o->kernel.input = optarg; break;
    case OPT_OUTPUT: o->kernel.output = optarg; break;
    case OPT_VIA:
      if (strcmp(optarg, "nvcc") && strcmp(optarg, "nvrtc") && strcmp(optarg, "both")) {
        fprintf(stderr, "litmus-check: --via: '%s' is not nvcc, nvrtc or both\n", optarg);
        return LC_EXIT_INPUT;
      }
      o->via = optarg;
      break;
    case OPT_SM:
      if (read_number(optarg, &num) || num < 50 || num > 200 || num != (int)num) {
        fprintf(stderr, "litmus-check: --sm: '%s' is not an architecture number (70, 80, 90, ...)\n", optarg);
        return LC_EXIT_INPUT;
      }
      o->sm = (int)num;
      o->kernel.sm = o->sm;
      break;
    case 'D':
      if (o->kernel.ndefines + 1 >= LC_ARRAY_LEN(o->defines)) {
        fputs("litmus-check: at most 32 -D options\n", stderr);
        return LC_EXIT_INPUT;
      }
      o->defines[o->kernel.ndefines++] = optarg;
      o->kernel.defines = o->defines;
      break;
    case OPT_LINT: o->mode = MODE_LINT; break;
    case OPT_EXPLAIN:
      /* `--explain race` and `--explain 'P1:r0=1;'` as well as the `=` forms:
       * the word after is taken when it is `race` or a state, never a file */
      if (!optarg && optind < argc && explain_word(argv[optind])) optarg = argv[optind++];
      o->explain = true, o->explain_state = optarg;
      break;
    case OPT_GRAPH: o->graph = optarg; break;
    case OPT_HTML: o->html = optarg; break;
    case OPT_SHOW: o->show = optarg; break;
    case OPT_SHOW_REL: o->show_rels = optarg; break;
    case OPT_SHOW_LIMIT:
      if (read_number(optarg, &num) < 0 || num < 0 || num > 1e6 || num != (size_t)num) {
        fprintf(stderr, "litmus-check: --show-limit: '%s' is not a number from 0 to 1000000\n", optarg);
        return LC_EXIT_INPUT;
      }
      o->show_limit = (size_t)num;
      break;
    case OPT_HERD_O: o->herd_dir = optarg; break;
    case OPT_HERD_SHOW: o->herd_show = optarg; break;
    case OPT_HERD_SUFFIX: o->herd_suffix = optarg; break;
    case OPT_HERD_SKIP: o->herd_skip = optarg; break;
    case OPT_HERD_LIBDIR: {
      char **dirs = lc_model_search(argv[0]);
      if (dirs && dirs[0]) printf("%s\n", dirs[0]);
      lc_model_search_free(dirs);
      return LC_EXIT_OK;
    }
    case 'q': o->quiet = true; break;
    case 'p': o->mode = MODE_PRINT; break;
    case 'h': usage(stdout); return LC_EXIT_OK;
    case 'V': printf("%s\n", PACKAGE_STRING); return LC_EXIT_OK;
    default:
      fputs("Try 'litmus-check --help'.\n", stderr);
      return LC_EXIT_INPUT;
    }
  }
  if (o->graph && !report_graph_format(o->graph)) {
    fprintf(stderr, "litmus-check: --graph: '%s' does not end in .dot, .svg, .png or .pdf\n", o->graph);
    return LC_EXIT_INPUT;
  }
  lc_diag walk;
  lc_diag_init(&walk, NULL, stderr);
  for (int i = optind; i < argc; i++) lc_paths_walk_kernels(&o->files, argv[i], &walk, true);
  lc_diag_fini(&walk);
  if (optind == argc) {
    fputs("litmus-check: no input files (try 'litmus-check --help')\n", stderr);
    return LC_EXIT_INPUT;
  }
  if (o->files.n == 0) {
    fputs("litmus-check: no *.litmus files in the folders given\n", stderr);
    return LC_EXIT_INPUT;
  }
  return -1;
}

/* ---- one test ------------------------------------------------------------------- */

typedef struct expectation {
  char *path;
  int value;
} expectation;

typedef LC_VEC(expectation) expect_vec;

typedef struct job {
  const char *path;
  char *out, *err;          /* what to print, in order */
  size_t errlen;
  int status;               /* exit status this test asks for */
  int verdict;              /* 1 Ok, 0 No, -1 none */
  char *html_row;           /* --html: the test's line of the index */
  char *stem;               /* --html, --graph: the test's file names; NULL: its name's */
  char herd_hash[33];       /* --format herd: herd's hash of the test, or "" */
  atomic_bool done;
} job;

typedef struct batch {
  const options *o;
  const cat_model *model;
  const cat_model *cpp_model;   /* for C++ tests, when no -m */
  job *jobs;
  size_t njobs;
  const expect_vec *ex;
  int status;                   /* the worst exit status so far */
  size_t compared, mismatches;  /* --expect */
  size_t expected;              /* --expect: the tests the file names */
  size_t printed;               /* the tests printed, in order */
  int fd;                       /* in an isolated child: the pipe to the parent; else -1 */
  const cat_model *hopper_model; /* for PTX tests with Hopper instructions, when no -m */
  char *const *search;          /* where models are found (--via both loads one more) */
} batch;

/* The error object the man page documents, for a test that has no
 * result: it did not parse, or lowering refused it. */
static void json_error(lc_buf *out, const char *path, const lt_test *t, const char *message) {
  json_t *o = json_object();
  json_object_set_new(o, "test", json_string(t ? t->name : ""));
  json_object_set_new(o, "file", json_string(path));
  json_object_set_new(o, "status", json_string("error"));
  json_object_set_new(o, "message", json_string(message ? message : "the test could not be read"));
  char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
  lc_buf_printf(out, "%s\n", s);
  free(s);
  json_decref(o);
}

/* The model a test is checked against: without -m, C++ tests use cuda-cpp. */
static const cat_model *model_for(const batch *b, const lt_test *t) {
  /* a kernel's PTX (--via) under the model of its target's PTX */
  if (!t->cpp && b->hopper_model && (lt_uses_hopper(t) || t->thread_label)) return b->hopper_model;
  return t->cpp && b->cpp_model ? b->cpp_model : b->model;
}

/* --graph FILE with several tests: FILE-TEST.ext for each (TEST as the
 * job's stem says when two tests share a name). */
static char *graph_path(const batch *b, const job *j, const lt_test *t) {
  const char *g = b->o->graph, *dot = strrchr(g, '.');
  lc_buf p;
  lc_buf_init(&p);
  if (b->njobs == 1 || !dot) {
    lc_buf_puts(&p, g);
  } else {
    lc_buf_printf(&p, "%.*s-", (int)(dot - g), g);
    if (j->stem) lc_buf_puts(&p, j->stem);
    else report_file_stem(&p, t->name);
    lc_buf_puts(&p, dot);
  }
  char *s = lc_buf_take(&p);
  lc_buf_fini(&p);
  return s;
}

static void write_graph(const batch *b, job *j, const lc_explain_result *x, FILE *err) {
  char *path = graph_path(b, j, x->prog->test), *msg = NULL;
  size_t n;
  if (report_graph_file(x, path, &n, &msg) < 0) {
    fprintf(err, "%s: error: --graph: %s\n", j->path, msg);
    j->status = LC_EXIT_INTERNAL;
  } else if (msg) {
    fprintf(err, "%s: warning: --graph: %s\n", j->path, msg);
  }
  free(msg);
  free(path);
}

static lc_explain_result *explain_test(const batch *b, job *j, const lc_result *r, FILE *err) {
  const lx_program *p = r->prog;
  lc_state *states = NULL, one = {0};
  size_t n = 0;
  const char *st = b->o->explain_state;
  char *msg = NULL;
  bool races = st && strcmp(st, "race") == 0;
  if (st && !races) {
    if (lc_state_parse(p, st, &one, &msg) < 0) {
      fprintf(err, "%s: error: --explain: %s\n", j->path, msg);
      free(msg);
      j->status = LC_EXIT_INPUT;
      return NULL;
    }
    states = &one, n = 1;
  } else if (!races && !lc_state_of_condition(p, &states, &n)) {
    fprintf(err, "%s: warning: --explain: the condition is not a disjunction of conjunctions of "
                 "equalities; give a state (--explain='P1:r0=1;')\n", j->path);
  }
  lc_explain_result *x = lc_explain(p, model_for(b, p->test), b->o->check.engine, b->o->check.timeout, states, n, r);
  if (races || (b->o->html && !st)) lc_explain_races(x, r, b->o->check.timeout);
  for (size_t i = 0; i < n; i++) lc_state_fini(&states[i]);
  if (states != &one) free(states);
  if (lc_explain_failed(x)) j->status = LC_EXIT_INTERNAL;
  if (b->o->graph && !b->o->show) write_graph(b, j, x, err);
  return x;
}

/* --show: the allowed executions, as the explicit engine lists them. */
static lc_show_result *show_test(const batch *b, job *j, const lc_result *r, FILE *err) {
  const lx_program *p = r->prog;
  lc_state one = {0};
  char *msg = NULL;
  bool all = strcmp(b->o->show, "all") == 0;
  if (!all && lc_state_parse(p, b->o->show, &one, &msg) < 0) {
    fprintf(err, "%s: error: --show: %s\n", j->path, msg);
    free(msg);
    j->status = LC_EXIT_INPUT;
    return NULL;
  }
  lc_show_result *s = lc_show(p, model_for(b, p->test), all ? NULL : &one, b->o->show_limit, b->o->show_rels,
                                  b->o->check.timeout, &msg);
  if (!all) lc_state_fini(&one);
  if (!s) {
    fprintf(err, "%s: error: --show-rel: %s\n", j->path, msg);
    free(msg);
    j->status = LC_EXIT_INPUT;
    return NULL;
  }
  if (s->stopped) j->status = LC_EXIT_INTERNAL;
  if (b->o->graph && s->n) {
    char *path = graph_path(b, j, p->test);
    if (report_show_graph(s, path, &msg) < 0) {
      fprintf(err, "%s: error: --graph: %s\n", j->path, msg);
      j->status = LC_EXIT_INTERNAL;
    } else if (msg) {
      fprintf(err, "%s: warning: --graph: %s\n", j->path, msg);
    }
    free(msg);
    free(path);
  }
  return s;
}

/* herd7's -o DIR: DIR/TEST.dot (TEST the file's name less .litmus, then
 * -suffix) with the executions -show selects, as herd's top_herd.ml
 * chooses them: prop, those whose final state satisfies the condition's
 * proposition; neg, the others; cond, those of prop (of neg for ~exists);
 * wit, those of prop (of neg for forall); all.  No execution: an empty
 * file, as herd7 leaves. */
static void herd_dot(const batch *b, job *j, const lc_result *r, FILE *err) {
  const lx_program *p = r->prog;
  const char *sh = b->o->herd_show;
  const lt_prop *prop = NULL;
  bool holds = true;
  lt_quant q = p->test->quant;
  if (strcmp(sh, "all") != 0) {
    prop = p->test->cond;
    if (strcmp(sh, "neg") == 0) holds = false;
    else if (strcmp(sh, "cond") == 0) holds = q != LT_COND_NOT_EXISTS;
    else if (strcmp(sh, "wit") == 0) holds = q != LT_COND_FORALL;
  }
  char *msg = NULL;
  lc_show_result *s = lc_show_where(p, model_for(b, p->test), NULL, prop, holds, b->o->show_limit,
                                    b->o->show_rels, b->o->check.timeout, &msg);
  if (!s) {
    fprintf(err, "%s: error: -show: %s\n", j->path, msg);
    free(msg);
    j->status = LC_EXIT_INPUT;
    return;
  }
  const char *base = strrchr(j->path, '/');
  base = base ? base + 1 : j->path;
  size_t blen = strlen(base);
  if (blen > 7 && strcmp(base + blen - 7, ".litmus") == 0) blen -= 7;
  lc_buf path;
  lc_buf_init(&path);
  lc_buf_printf(&path, "%s/%.*s%s.dot", b->o->herd_dir, (int)blen, base, b->o->herd_suffix ? b->o->herd_suffix : "");
  if (s->stopped) j->status = LC_EXIT_INTERNAL;
  if (s->n) {
    if (report_show_graph(s, path.s, &msg) < 0) {
      fprintf(err, "%s: error: -o: %s\n", j->path, msg);
      j->status = LC_EXIT_INTERNAL;
    } else if (msg) {
      fprintf(err, "%s: warning: -o: %s\n", j->path, msg);
    }
    free(msg);
  } else {
    FILE *f = fopen(path.s, "w");
    if (!f || fclose(f) != 0) {
      fprintf(err, "%s: error: -o: cannot write '%s': %s\n", j->path, path.s, strerror(errno));
      j->status = LC_EXIT_INTERNAL;
    }
  }
  lc_buf_fini(&path);
  lc_show_free(s);
}

/* ---- in an isolated child (--timeout) ---------------------------------------- */

typedef struct fallback_ctx {
  const batch *b;
  job *j;
  const lt_test *t;
  FILE *err;
} fallback_ctx;

/* The JSON record of a test without a verdict (status "unknown").  Before
 * lowering (p NULL) the engine named is the one asked for, which may be
 * auto. */
static char *unknown_record(const batch *b, const lt_test *t, const lx_program *p, const char *message) {
  lx_program stub = {0};
  stub.test = t;
  lc_engine e = b->o->check.engine;
  if (p && e == LC_ENGINE_AUTO) e = lc_engine_choose_for(p, model_for(b, t));
  lc_result r = {0};
  r.prog = p ? p : &stub, r.status = LC_RESULT_UNKNOWN, r.message = (char *)message;
  r.engine = lc_engine_name(e), r.model = cat_model_name(model_for(b, t));
  json_t *js = report_json(&r);
  char *record = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(js);
  return record;
}

/* Tells the parent what to report should it kill this child at the
 * deadline: what the test wrote on stderr so far and, for --json, the
 * record of a test without a verdict. */
static void send_fallback(const fallback_ctx *f, const lx_program *p) {
  const batch *b = f->b;
  char *record = NULL;
  if (b->o->json) {
    lc_buf msg;
    lc_buf_init(&msg);
    lc_buf_printf(&msg, "out of time (--timeout %g s); no verdict", b->o->check.timeout);
    record = unknown_record(b, f->t, p, msg.s);
    lc_buf_fini(&msg);
  }
  fflush(f->err);
  const char *fields[] = {f->j->err ? f->j->err : "", record};
  lc_iso_send(b->fd, LC_ISO_FALLBACK, fields, 2);
  free(record);
}

static void fallback_lowered(void *ctx, const lx_program *p) { send_fallback(ctx, p); }

/* The JSON of a test lowering refused: "unknown" when out of time, with
 * lowering's message, else the error object. */
/* Lowering refused a program whose static relations pass half of
 * --max-memory (lower.c, too_large): out of memory, not a bad input. */
static bool lowering_past_memory(const lc_diag *d) {
  const char *e = lc_diag_first_error(d);
  return e && strstr(e, "out of memory (--max-memory ");
}

static void lowering_failed(const batch *b, const job *j, const lt_test *t, const lc_diag *d, bool late,
                            lc_buf *out) {
  const lc_message *m = NULL;
  for (size_t i = 0; i < d->msgs.n && !m; i++)
    if (d->msgs.v[i].sev == LC_SEV_ERROR) m = &d->msgs.v[i];
  if (!late || !m) {
    json_error(out, j->path, t, lc_diag_first_error(d));
    return;
  }
  char *record = unknown_record(b, t, NULL, m->msg);
  lc_buf_printf(out, "%s\n", record);
  free(record);
}

/* An allowed execution reaches undefined behaviour (a C++ index outside
 * its array, a division by zero): no state list would be the program's,
 * so the test is refused, as herd7 refuses an out-of-bounds access, with
 * the place that execution reached (one, when there are several). */
static void undefined_behaviour(const batch *b, job *j, const lt_test *t, const lc_result *r, FILE *err,
                                lc_buf *out) {
  const lx_program *p = r->prog;
  const lx_path *path = &p->paths[r->ub_path < p->npaths ? r->ub_path : 0];
  lc_buf msg;
  lc_buf_init(&msg);
  lc_buf_printf(&msg, "undefined behaviour in an allowed execution: P%d reaches %s", p->threads[path->thread].id,
                path->ub ? path->ub : "it");
  fprintf(err, "%s:%d:%d: error: %s\n", j->path, path->cut_at.line, path->cut_at.col, msg.s);
  if (b->o->json) {
    lc_buf_printf(&msg, " (line %d, column %d)", path->cut_at.line, path->cut_at.col);
    json_error(out, j->path, t, msg.s);
  }
  lc_buf_fini(&msg);
  j->status = LC_EXIT_INPUT;
}

static void check_one(const batch *b, job *j, lt_test *t, FILE *err, lc_buf *out) {
  lc_diag d;
  lc_diag_init(&d, NULL, err);
  d.errors_only = b->o->quiet;
  lx_program *prog = NULL;
  double start = lc_now();
  lc_check_options co = b->o->check;
  /* A kernel's blocks are scheduled as CUDA documents it (a block that has
   * started keeps running; one may not start before others finish): the
   * OBE model, unless --progress names others. */
  if (t->thread_label && co.termination && !co.progress) co.progress = 1u << LC_PROGRESS_OBE;
  fallback_ctx fc = {b, j, t, err};
  if (b->fd >= 0) {
    send_fallback(&fc, NULL);
    co.lowered = fallback_lowered, co.lowered_ctx = &fc;
  }
  lc_result *r = lc_check_test(t, model_for(b, t), &co, &prog, &d);
  if (!r) {
    /* lowering gave up: out of time (no verdict, as when an engine runs
     * out), or the test asks too much of it */
    double timeout = b->o->check.timeout;
    bool late = timeout > 0 && lc_now() - start >= timeout;
    late |= lowering_past_memory(&d);
    if (b->o->json) lowering_failed(b, j, t, &d, late, out);
    j->status = late ? LC_EXIT_INTERNAL : LC_EXIT_INPUT;
    lc_diag_fini(&d);
    lx_program_free(prog);
    return;
  }
  lc_diag_fini(&d);
  if (r->status == LC_RESULT_OK && r->ub_reached) {
    undefined_behaviour(b, j, t, r, err, out);
    lc_result_free(r);
    lx_program_free(prog);
    return;
  }
  if (r->status != LC_RESULT_OK) {
    fprintf(err, "%s: error: %s\n", j->path, r->message ? r->message : "the engine failed");
    j->status = LC_EXIT_INTERNAL;
  } else {
    j->verdict = lc_result_verdict(r).ok;
    if (r->bound_reached && !b->o->quiet) {
      lc_buf loops;
      lc_buf_init(&loops);
      lc_unroll_cut_loops(&loops, prog, r);
      lc_buf_puts(&loops, "); they are not explored; ");
      /* the search for a bound that covers them costs up to four checks
       * at larger bounds, each dearer than this one (the corpus's 483
       * spin tests: 326 s against 6.8 s): only when asked for */
      lc_unroll_hint h = {prog->unroll, 0, prog->unroll, false};
      if (b->o->unroll_search) h = lc_unroll_cover(t, model_for(b, t), &b->o->check, prog->unroll, start);
      lc_unroll_hint_text(&loops, &h, r->termination);
      if (!b->o->unroll_search) lc_buf_puts(&loops, " (--unroll-search tries larger bounds)");
      fprintf(err, "%s: warning: some executions need more loop iterations than --unroll %u allows (%s\n", j->path,
              prog->unroll, loops.s);
      lc_buf_fini(&loops);
    }
  }
  lc_explain_result *x = NULL;
  bool explain = r->status == LC_RESULT_OK && (b->o->explain || (b->o->graph && !b->o->show) || b->o->html);
  bool show = r->status == LC_RESULT_OK && b->o->show;
  /* the explanations' questions have timeouts of their own: the deadline
   * bounds the check only */
  if ((explain || show || b->o->herd_dir) && b->fd >= 0) lc_iso_send(b->fd, LC_ISO_RELAX, NULL, 0);
  if (explain) x = explain_test(b, j, r, err);
  lc_show_result *shown = show ? show_test(b, j, r, err) : NULL;
  if (r->status == LC_RESULT_OK && b->o->herd_dir && strcmp(b->o->herd_show, "none") != 0) herd_dot(b, j, r, err);
  if (b->o->json) {
    json_t *js = report_json(r);
    if (t->thread_label && !t->cpp) {
      lc_buf level;
      lc_buf_init(&level);
      via_level(&level, t, r->model);
      level.s[level.n - 1] = '\0';   /* the line without "Level: " and its newline */
      json_object_set_new(js, "level", json_string(level.s + 7));
      lc_buf_fini(&level);
    }
    if (x) json_object_set_new(js, "explain", report_explain_json(x));
    if (shown) json_object_set_new(js, "show", report_show_json(shown));
    char *s = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
    lc_buf_printf(out, "%s\n", s);
    free(s);
    json_decref(js);
  } else if (r->status == LC_RESULT_OK && !b->o->quiet) {
    if (b->o->herd) {
      report_herd(out, r);
      /* herd's last line, which msum7 and mcompare7 match logs by */
      if (j->herd_hash[0]) lc_buf_printf(out, "Hash=%s\n", j->herd_hash);
    }
    else report_text(out, r);
    if (t->thread_label && !t->cpp) via_level(out, t, r->model);
    if (x && b->o->explain) report_explain_text(out, x);
  }
  /* asked for by name: printed under -q too, which drops the test block */
  if (shown && !b->o->json) report_show_text(out, shown);
  lc_show_free(shown);
  if (x && b->o->html) j->html_row = report_html_page(b->o->html, j->stem, x, r, err);
  lc_explain_free(x);
  lc_result_free(r);
  lx_program_free(prog);
}

/* --lint: one line per finding (or one JSON object per test); exit
 * status 1 when there is one. */
static int lint_one(const options *o, const char *path, const lx_program *p, lc_buf *out) {
  lx_lint *l;
  size_t n = lx_lint_program(p, &l);
  if (o->json) {
    json_t *obj = json_object(), *arr = json_array();
    json_object_set_new(obj, "test", json_string(p->test->name));
    json_object_set_new(obj, "file", json_string(path));
    json_object_set_new(obj, "status", json_string("ok"));
    for (size_t i = 0; i < n; i++) {
      json_t *x = json_object();
      json_object_set_new(x, "rule", json_string(l[i].rule));
      json_object_set_new(x, "line", json_integer(l[i].at.line));
      json_object_set_new(x, "column", json_integer(l[i].at.col));
      json_object_set_new(x, "message", json_string(l[i].message));
      json_array_append_new(arr, x);
    }
    json_object_set_new(obj, "lints", arr);
    char *js = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
    lc_buf_printf(out, "%s\n", js);
    free(js);
    json_decref(obj);
  } else {
    for (size_t i = 0; i < n; i++)
      lc_buf_printf(out, "%s:%d:%d: warning: %s [%s]\n", path, l[i].at.line, l[i].at.col, l[i].message, l[i].rule);
  }
  lx_lints_free(l, n);
  return n ? LC_EXIT_MISMATCH : LC_EXIT_OK;
}

static void run_job(const batch *b, job *j) {
  FILE *err = open_memstream(&j->err, &j->errlen);
  lc_buf out;
  lc_buf_init(&out);
  j->verdict = -1;
  lc_diag d;
  lc_diag_init(&d, NULL, err);
  d.errors_only = b->o->quiet;
  double timeout = b->o->check.timeout;
  lx_options lo = {b->o->check.unroll ? b->o->check.unroll : LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS,
                   timeout > 0 ? lc_now() + timeout : 0, false, timeout, b->o->max_memory};
  cli_test ct;
  bool lower = b->o->mode == MODE_EVENTS || b->o->mode == MODE_LINT;
  const char *via = kn_is_kernel_path(j->path) ? b->o->via : NULL;
  bool both = via && !strcmp(via, "both") && b->o->mode == MODE_CHECK;
  size_t source_end = 0;
  int source_verdict = -1, source_status = LC_EXIT_OK;
  cli_test src_ct = {0};
  if (both) {
    /* the source-level answer first, then the compiled one and what differs */
    int rc = cli_test_read_with(&ct, "litmus-check", j->path, NULL, &b->o->kernel, &d);
    if (rc < 0 && b->o->json) json_error(&out, j->path, ct.test, lc_diag_first_error(&d));
    if (rc < 0) source_status = LC_EXIT_INPUT;
    else check_one(b, j, ct.test, err, &out);
    if (rc == 0 && !b->o->json && !b->o->quiet && b->cpp_model)
      lc_buf_printf(&out, "Level: CUDA C++ as written, checked under %s\n", cat_model_name(b->cpp_model));
    source_end = out.n;
    source_verdict = j->verdict, source_status = j->status > source_status ? j->status : source_status;
    j->verdict = -1;
    j->status = LC_EXIT_OK;
    src_ct = ct;
    via = "nvcc";
  }
  /* libcu++'s blocking waits are folded only under a model closed under deleting reads */
  const cat_model *via_model = b->hopper_model ? b->hopper_model : b->model;
  bool fold_waits = !via_model || cat_model_deletion_closed(via_model, b->o->check.races);
  int rc = via ? cli_via_read(&ct, "litmus-check", j->path, lower ? &lo : NULL, &b->o->kernel, via,
                              b->o->sm ? b->o->sm : 90, fold_waits, &lo, &d)
               : cli_test_read_with(&ct, "litmus-check", j->path, lower ? &lo : NULL, &b->o->kernel, &d);
  if (rc < 0 && b->o->json && (b->o->mode == MODE_CHECK || b->o->mode == MODE_LINT))
    json_error(&out, j->path, ct.test, lc_diag_first_error(&d));
  bool past_memory = rc < 0 && lowering_past_memory(&d);
  lc_diag_fini(&d);
  /* lowering out of time or memory is no fault of the test's: as when checking, 3 */
  if (rc < 0)
    j->status = ct.test && ((lo.deadline > 0 && lc_now() >= lo.deadline) || past_memory)
                ? LC_EXIT_INTERNAL : LC_EXIT_INPUT;
  else if (b->o->mode == MODE_PRINT) lt_print(&out, ct.test);
  else if (b->o->mode == MODE_EVENTS) lx_program_print(&out, ct.prog);
  else if (b->o->mode == MODE_LINT) j->status = lint_one(b->o, j->path, ct.prog, &out);
  else {
    if (b->o->herd && ct.read && lt_herd_hash(ct.src.text, ct.src.len, j->herd_hash) < 0) {
      j->herd_hash[0] = '\0';
      /* a test herd7 does not read (PTX, GPU_PTX, CUDA) gets the MD5 of
       * its text: msum7 refuses a log without hashes, and no herd7 log can
       * hold another hash for it.  A C test whose hash is not reproduced
       * gets none rather than one herd's would contradict. */
      if (ct.test && !ct.test->cpp) {
        uint8_t md[16];
        lt_md5(ct.src.text, ct.src.len, md);
        for (int k = 0; k < 16; k++) snprintf(j->herd_hash + 2 * k, 3, "%02x", md[k]);
      }
    }
    check_one(b, j, ct.test, err, &out);
  }
  if (both) {
    if (rc == 0 && source_status == LC_EXIT_OK && !b->o->json)
      via_compare(&out, source_end, src_ct.test, b->search, &b->o->check);
    cli_test_fini(&src_ct);
    if (source_status > j->status) j->status = source_status;
    if (j->verdict < 0) j->verdict = source_verdict;
  }
  cli_test_fini(&ct);
  fclose(err);
  j->out = lc_buf_take(&out);
  lc_buf_fini(&out);
}

/* ---- expectations ------------------------------------------------------------------ */

static int load_expect(const char *path, expect_vec *out) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "litmus-check: cannot read '%s': %s\n", path, strerror(errno));
    return -1;
  }
  char line[4096];
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0] || line[0] == '#') continue;
    char *comma = strrchr(line, ',');
    if (!comma || (strcmp(comma + 1, "0") != 0 && strcmp(comma + 1, "1") != 0)) {
      fprintf(stderr, "%s:%d: error: expected `path,0` or `path,1`\n", path, lineno);
      fclose(f);
      return -1;
    }
    *comma = '\0';
    expectation e = {lc_xstrdup(line), comma[1] - '0'};
    lc_vec_push(out, e);
  }
  fclose(f);
  return 0;
}

/* A CSV path names a file when it is the file's path or a tail of it
 * starting at a '/' (the corpus CSVs give paths from the corpus root). */
static const expectation *find_expect(const expect_vec *ex, const char *file) {
  size_t n = strlen(file);
  for (size_t i = 0; i < ex->n; i++) {
    size_t m = strlen(ex->v[i].path);
    if (m <= n && strcmp(file + n - m, ex->v[i].path) == 0 && (m == n || file[n - m - 1] == '/'))
      return &ex->v[i];
  }
  return NULL;
}

/* ---- the batch -------------------------------------------------------------------------- */

static void progress(const batch *b, size_t i) {
  if (b->njobs > 1 && !b->o->quiet && lc_is_tty(stderr))
    fprintf(stderr, "\r[%zu/%zu] %-60.60s\r", i + 1, b->njobs, b->jobs[i].path);
}

/* Exit statuses grow with severity. */
static int worst(int a, int b) { return a > b ? a : b; }

/* --expect's mismatches and count are results: on stdout with the test
 * blocks (also under -q, which leaves only them), on stderr beside JSON
 * lines, which stdout keeps to. */
static FILE *expect_out(const options *o) { return o->json ? stderr : stdout; }

/* Prints the test, once every test before it is printed. */
static void emit(batch *b, size_t i) {
  const options *o = b->o;
  job *j = &b->jobs[i];
  progress(b, i);
  fputs(j->err, stderr);
  fputs(j->out, stdout);
  b->status = worst(b->status, j->status);
  const expectation *e = b->ex->n ? find_expect(b->ex, j->path) : NULL;
  if (e) b->expected++;
  if (e && j->verdict >= 0) {
    b->compared++;
    if (e->value != j->verdict) {
      b->mismatches++;
      fprintf(expect_out(o), "mismatch: %s: expected %d, got %d\n", j->path, e->value, j->verdict);
    }
  }
  if (!o->json && o->mode != MODE_LINT && *j->out && i + 1 < b->njobs) fputc('\n', stdout);
  free(j->out);
  free(j->err);
  b->printed = i + 1;
}

/* ---- each test in a child process (isolate.h) ------------------------------------ */

/* In a child: the test, sent whole to the parent. */
static void isolated_run(void *ctx, size_t i, int fd) {
  batch *b = ctx;
  job *j = &b->jobs[i];
  b->fd = fd;
  if (b->o->max_memory) mem_limit_self(b->o->max_memory);
  run_job(b, j);
  char status[16], verdict[16];
  snprintf(status, sizeof status, "%d", j->status);
  snprintf(verdict, sizeof verdict, "%d", j->verdict);
  const char *fields[] = {status, verdict, j->out, j->err, j->html_row};
  lc_iso_send(fd, LC_ISO_RESULT, fields, LC_ARRAY_LEN(fields));
  free(j->out);
  free(j->err);
  free(j->html_row);
}

/* A test whose child did not answer: the stderr it had written, then why
 * (the fallback's JSON record, or the error object, for --json). */
static void no_answer(const batch *b, job *j, const lc_iso_outcome *x, const char *why, const char *status) {
  const char *err = x->nfields == 2 && x->fields[0] ? x->fields[0] : "";
  const char *record = x->nfields == 2 ? x->fields[1] : NULL;
  lc_buf e, out;
  lc_buf_init(&e);
  lc_buf_init(&out);
  lc_buf_puts(&e, err);
  if (!b->o->json) {
    lc_buf_printf(&e, "%s: error: %s\n", j->path, why);
  } else {
    json_t *js = record ? json_loads(record, 0, NULL) : NULL;
    if (!js) {
      json_error(&out, j->path, NULL, why);
    } else {
      json_object_set_new(js, "status", json_string(status));
      json_object_set_new(js, "message", json_string(why));
      char *s = json_dumps(js, JSON_COMPACT | JSON_PRESERVE_ORDER);
      lc_buf_printf(&out, "%s\n", s);
      free(s);
      json_decref(js);
    }
  }
  j->err = lc_buf_take(&e);
  j->out = lc_buf_take(&out);
  lc_buf_fini(&e);
  lc_buf_fini(&out);
  j->status = LC_EXIT_INTERNAL;
  j->verdict = -1;
}

static void take_answer(job *j, const lc_iso_outcome *x) {
  j->status = atoi(x->fields[0]);
  j->verdict = atoi(x->fields[1]);
  j->out = lc_xstrdup(x->fields[2] ? x->fields[2] : "");
  j->err = lc_xstrdup(x->fields[3] ? x->fields[3] : "");
  j->html_row = x->fields[4] ? lc_xstrdup(x->fields[4]) : NULL;
}

/* What a test without an answer misses: a verdict when checking. */
static const char *no_verdict(const batch *b) { return b->o->mode == MODE_CHECK ? "; no verdict" : ""; }

/* In the parent, as each child ends. */
static void isolated_done(void *ctx, size_t i, const lc_iso_outcome *x) {
  batch *b = ctx;
  job *j = &b->jobs[i];
  lc_buf why;
  lc_buf_init(&why);
  if (x->end == LC_ISO_DONE && x->nfields == 5) {
    take_answer(j, x);
  } else if (x->end == LC_ISO_KILLED) {
    lc_buf_printf(&why, "out of time (--timeout %g s)%s", b->o->check.timeout, no_verdict(b));
    no_answer(b, j, x, why.s, "unknown");
  } else if (x->end == LC_ISO_CRASHED && !x->signal && x->code == LC_EXIT_NO_MEMORY && b->o->max_memory) {
    char size[32];
    mem_format_size(size, sizeof size, b->o->max_memory);
    lc_buf_printf(&why, "out of memory (--max-memory %s)%s", size, no_verdict(b));
    no_answer(b, j, x, why.s, "unknown");
  } else {
    const char *what = b->o->mode == MODE_CHECK ? "the check" : "the process";
    if (x->end == LC_ISO_NOT_RUN) lc_buf_printf(&why, "cannot start a process for the test: %s", strerror(x->error));
    else if (x->signal) lc_buf_printf(&why, "%s crashed (signal %d)", what, x->signal);
    else lc_buf_printf(&why, "%s ended without an answer (exit status %d)", what, x->code);
    no_answer(b, j, x, why.s, "error");
  }
  lc_buf_fini(&why);
  atomic_store(&j->done, true);
  while (b->printed < b->njobs && atomic_load(&b->jobs[b->printed].done)) emit(b, b->printed);
}

/* Checks: the parent stays single-threaded and never touches Z3, so that
 * forking it is safe (isolate.h).  A child out of memory (past --max-memory)
 * or killed at the --timeout deadline costs its test only. */
static void run_isolated(batch *b) {
  lc_iso_ops ops = {isolated_run, isolated_done};
  double timeout = b->o->check.timeout;
  lc_isolate_run(b->njobs, b->o->jobs, timeout > 0 ? lc_iso_hard_limit(timeout) : 0, &ops, b);
}

/* --html and --graph name files after the tests, and two tests may share
 * a name (litmus/MP.litmus and litmus/cuda-cpp/MP.litmus, or two copies):
 * each job gets a stem of its own before any runs, the first of a name the
 * name itself, the next NAME~2, NAME~3, ... in the order given, so the
 * files never overwrite one another and do not depend on --jobs (`~` is
 * no character of a name's stem, so NAME~2 is no other test's, nor one
 * of NAME's numbered pictures NAME-2.svg).  A file
 * that cannot be parsed (or standard input, read once) keeps no stem. */
static void name_files(batch *b) {
  LC_VEC(char *) taken = {0};
  for (size_t i = 0; i < b->njobs; i++) {
    job *j = &b->jobs[i];
    lc_source src;
    if (strcmp(j->path, "-") == 0 || lc_source_read(&src, j->path) < 0) continue;
    lc_diag d;
    lc_diag_init(&d, &src, NULL);
    lt_test *t = kn_is_kernel_path(j->path) ? kn_read(&src, &b->o->kernel, &d) : lt_parse(&src, &d);
    if (t) {
      lc_buf base, stem;
      lc_buf_init(&base), lc_buf_init(&stem);
      report_file_stem(&base, t->name);
      lc_buf_puts(&stem, base.s);
      for (unsigned k = 2;; k++) {
        bool clash = false;
        for (size_t n = 0; n < taken.n && !clash; n++) clash = strcmp(taken.v[n], stem.s) == 0;
        if (!clash) break;
        stem.n = 0, stem.s[0] = '\0';
        lc_buf_printf(&stem, "%s~%u", base.s, k);
      }
      j->stem = lc_buf_take(&stem);
      lc_vec_push(&taken, j->stem);
      lc_buf_fini(&base), lc_buf_fini(&stem);
    }
    lt_test_free(t);
    lc_diag_fini(&d);
    lc_source_fini(&src);
  }
  lc_vec_free(&taken);
}

/* -m named a model of one dialect: the tests of the other were checked
 * under their default, said once (their results name their model). */
static void other_dialect_note(const options *o, const cli_models *m) {
  size_t n = 0;
  const char *first = NULL;
  for (size_t i = 0; i < o->files.n; i++)
    if (cli_models_other_dialect_file(m, o->files.v[i])) n++, first = first ? first : o->files.v[i];
  if (!n) return;
  bool ptx = cli_model_dialect(m->given) == CLI_DIALECT_PTX;
  fprintf(stderr, "litmus-check: warning: --model %s is a %s model: %zu %s test%s (%s%s) checked under %s, "
          "%s default; --any-dialect checks %s under %s\n", o->model, ptx ? "PTX" : "C++", n, ptx ? "C++" : "PTX",
          n == 1 ? "" : "s", n == 1 ? "" : "the first: ", first,
          ptx ? "cuda-cpp" : "ptx-v7.5 (ptx-v8 with Hopper instructions)", n == 1 ? "its" : "their",
          n == 1 ? "it" : "them", o->model);
}

static int run_batch(const options *o, const cli_models *models, const expect_vec *ex) {
  batch b = {o, models->model, models->cpp, lc_xcalloc(o->files.n, sizeof(job)), o->files.n, ex,
             LC_EXIT_OK, 0, 0, 0, 0, -1, models->hopper, models->search};
  for (size_t i = 0; i < b.njobs; i++) b.jobs[i].path = o->files.v[i];
  if (o->mode == MODE_CHECK && (o->html || (o->graph && b.njobs > 1))) name_files(&b);
  /* every mode: --print, --events and --lint too are bounded by
   * --timeout and --max-memory (lowering a 1 KB test with --unroll 64 ran
   * for minutes in the one process) */
  run_isolated(&b);
  int status = b.status;
  if (o->html) {
    char **rows = lc_xcalloc(b.njobs + 1, sizeof(char *));
    for (size_t i = 0; i < b.njobs; i++) rows[i] = b.jobs[i].html_row;
    if (report_html_index(o->html, rows, b.njobs, stderr) < 0) status = worst(status, LC_EXIT_INTERNAL);
    for (size_t i = 0; i < b.njobs; i++) free(rows[i]);
    free(rows);
  }
  if (b.njobs > 1 && !o->quiet && lc_is_tty(stderr)) fprintf(stderr, "\r%70s\r", "");
  if (o->expect) {
    fprintf(expect_out(o), "expect: %zu tests compared, %zu mismatches\n", b.compared, b.mismatches);
    fflush(stdout);
    if (b.mismatches) status = worst(status, LC_EXIT_MISMATCH);
    /* a file for other tests (or other paths) would otherwise pass */
    if (b.expected == 0) {
      fprintf(stderr, "litmus-check: --expect: %s names none of the %zu tests checked\n",
              o->expect, b.njobs);
      status = worst(status, LC_EXIT_INPUT);
    }
  }
  if (o->mode == MODE_CHECK && !o->quiet) other_dialect_note(o, models);
  for (size_t i = 0; i < b.njobs; i++) free(b.jobs[i].stem);
  free(b.jobs);
  return status;
}

/* A model the user gives is loaded first in a child process under
 * --timeout and --max-memory: loading is bounded (cat_load caps what
 * expansions make), but by sizes, not by the user's limits.  Loaded
 * there, it is loaded again here (the children that check inherit it),
 * with its messages; the child says nothing. */
typedef struct model_probe {
  const options *o;
  const char *argv0;
} model_probe;

static int probe_model(void *ctx, int fd) {
  const model_probe *p = ctx;
  const char *why[] = {"while loading the model"};
  lc_iso_send(fd, LC_ISO_FALLBACK, why, 1);
  if (!freopen("/dev/null", "w", stderr)) return LC_EXIT_INTERNAL;
  cli_models m = {0};
  int rc = cli_models_load(&m, "litmus-check", p->argv0, p->o->model, true, p->o->any_dialect, p->o->settings);
  cli_models_fini(&m);
  return rc < 0 ? LC_EXIT_INPUT : LC_EXIT_OK;
}

/* herd7's -skipcheck NAME and -through invalid: -model's file with those
 * checks (every one) blanked out (herd_skip_checks), written to a folder
 * of its own under $TMPDIR with the file's name, its folder first among
 * those includes are looked up in; o->model then names the copy, *dir and
 * *copy (removed at the end) what was made.  Returns -1 to go on, or the
 * exit status. */
static int herd_skip_model(options *o, const char *argv0, char **dir, char **copy) {
  if (!o->model_given) {
    fputs("litmus-check: herd7's -skipcheck and -through invalid need -model (the checks are the model's)\n", stderr);
    return LC_EXIT_INPUT;
  }
  const char *m = o->model;
  size_t ml = strlen(m);
  char *path = NULL;
  if (strchr(m, '/') || (ml > 4 && !strcmp(m + ml - 4, ".cat"))) {
    path = lc_xstrdup(m);
  } else {
    char **dirs = lc_model_search(argv0);
    for (char **d = dirs; d && *d && !path; d++) {
      size_t n = strlen(*d) + ml + 6;
      char *p = lc_xmalloc(n);
      snprintf(p, n, "%s/%s.cat", *d, m);
      if (access(p, R_OK) == 0) path = p;
      else free(p);
    }
    lc_model_search_free(dirs);
  }
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f) {
    fprintf(stderr, "litmus-check: herd7's -skipcheck: cannot read the model '%s'\n", m);
    free(path);
    return LC_EXIT_INPUT;
  }
  lc_buf text;
  lc_buf_init(&text);
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) lc_buf_printf(&text, "%.*s", (int)got, chunk);
  fclose(f);
  lc_buf missing;
  lc_buf_init(&missing);
  char *out = herd_skip_checks(text.s ? text.s : "", text.n, o->herd_skip, &missing);
  int status = -1;
  if (missing.n) {
    fprintf(stderr, "litmus-check: herd7's -skipcheck: %s has no check named %s (the checks of the files it "
                    "includes are not skipped)\n", path, missing.s);
    status = LC_EXIT_INPUT;
  }
  const char *tmpdir = getenv("TMPDIR");
  lc_buf d;
  lc_buf_init(&d);
  lc_buf_printf(&d, "%s/litmus-check-skip-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (status < 0 && !mkdtemp(d.s)) {
    fprintf(stderr, "litmus-check: cannot make a folder for the model without its checks: %s\n", strerror(errno));
    status = LC_EXIT_INTERNAL;
  }
  if (status < 0) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    lc_buf c;
    lc_buf_init(&c);
    lc_buf_printf(&c, "%s/%s", d.s, base);
    FILE *w = fopen(c.s, "w");
    bool ok = w && fputs(out, w) >= 0;
    if (w && fclose(w) != 0) ok = false;
    *dir = lc_buf_take(&d);
    *copy = lc_buf_take(&c);
    lc_buf_fini(&c);
    if (!ok) {
      fprintf(stderr, "litmus-check: cannot write '%s': %s\n", *copy, strerror(errno));
      status = LC_EXIT_INTERNAL;
    } else {
      /* the model's includes, beside it */
      char *slash = strrchr(path, '/');
      const char *old = getenv("LITMUS_MODELS");
      lc_buf env;
      lc_buf_init(&env);
      if (slash) lc_buf_printf(&env, "%.*s", (int)(slash - path), path);
      else lc_buf_puts(&env, ".");
      if (old && *old) lc_buf_printf(&env, ":%s", old);
      setenv("LITMUS_MODELS", env.s, 1);
      lc_buf_fini(&env);
      o->model = *copy;
      if (strcmp(o->herd_skip, "*") == 0 || strstr(o->herd_skip, "*"))
        fprintf(stderr, "litmus-check: herd7's -through invalid: no check of %s applies (those of the files it "
                        "includes still do)\n", path);
      else
        fprintf(stderr, "litmus-check: herd7's -skipcheck: %s's checks %s do not apply\n", path, o->herd_skip);
    }
  }
  lc_buf_fini(&d);
  lc_buf_fini(&missing);
  lc_buf_fini(&text);
  free(out);
  free(path);
  return status;
}

int main(int argc, char **argv) {
  if (map_cli_wanted(argc, argv)) return map_cli_main(argc, argv);
  if (diff_cli_wanted(argc, argv)) return diff_cli_main(argc, argv);
  options o = {0};
  o.model = "ptx-v7.5";
  o.jobs = 0;   /* not given: one per processor, set below */
  o.show_limit = 100;
  lc_check_options_init(&o.check);
  str_vec owned = {0};
  int nargc = 0;
  char **nargv = herd_argv(argc, argv, &nargc, &owned);
  int status = nargv ? parse_options(nargc, nargv, &o) : LC_EXIT_INPUT;
  /* Tests are checked in processes apart and printed in the order given,
   * so using every processor changes nothing but the time (the full Dat3M
   * PTX corpus: 6.98 s with one job, 4.72 s with two, on 2 cores). */
  bool jobs_given = o.jobs > 0;
  if (!jobs_given) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
  }
  if (!o.max_memory) o.max_memory = mem_default_limit(o.jobs);
  o.check.max_memory = o.max_memory;
  expect_vec ex = {0};
  cli_models models = {0};
  if (status < 0 && o.expect && load_expect(o.expect, &ex) < 0) status = LC_EXIT_INPUT;
  char *skip_dir = NULL, *skip_copy = NULL;
  if (status < 0 && o.herd_skip) status = herd_skip_model(&o, nargv[0], &skip_dir, &skip_copy);
  if (status < 0 && o.mode == MODE_CHECK && o.model_given) {
    model_probe mp = {&o, nargv[0]};
    int s = mem_run_bounded("litmus-check", o.check.timeout, o.max_memory, probe_model, &mp);
    if (s == LC_EXIT_INTERNAL) status = s;   /* out of time or memory, said; else as loaded here */
  }
  if (status < 0 && o.mode == MODE_CHECK &&
      cli_models_load(&models, "litmus-check", nargv[0], o.model, o.model_given, o.any_dialect, o.settings) < 0)
    status = LC_EXIT_INPUT;
  /* Jobs a batch of few tests leaves idle split the states of each test. */
  if (jobs_given && o.files.n && o.jobs > o.files.n) o.check.threads = o.jobs / (unsigned)o.files.n;
  if (status < 0 && o.herd_dir && mkdir(o.herd_dir, 0777) < 0 && errno != EEXIST) {
    fprintf(stderr, "litmus-check: -o: cannot make '%s': %s\n", o.herd_dir, strerror(errno));
    status = LC_EXIT_INPUT;
  }
  if (status < 0 && o.html && mkdir(o.html, 0777) < 0 && errno != EEXIST) {
    fprintf(stderr, "litmus-check: cannot make '%s': %s\n", o.html, strerror(errno));
    status = LC_EXIT_INPUT;
  }
  if (status < 0) status = run_batch(&o, &models, &ex);
  status = cli_finish("litmus-check", status);
  if (skip_copy) unlink(skip_copy);
  if (skip_dir) rmdir(skip_dir);
  free(skip_copy);
  free(skip_dir);
  cli_models_fini(&models);
  lc_paths_free(&o.files);
  for (size_t i = 0; i < owned.n; i++) free(owned.v[i]);
  for (size_t i = 0; i < o.nvariants; i++) free(o.variant_settings[i]);
  lc_vec_free(&owned);
  for (size_t i = 0; i < ex.n; i++) free(ex.v[i].path);
  lc_vec_free(&ex);
  /* Z3 keeps process-wide tables (symbols, memory pools) after every
   * context is gone; released here so leak checkers see a clean exit. */
  Z3_finalize_memory();
  return status;
}
