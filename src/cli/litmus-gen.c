/* litmus-gen.c - the litmus-gen program: write generated litmus tests.
 * SPDX-License-Identifier: MIT
 *
 * Random tests (seeded, deterministic) for cross-checking the engines, or
 * the benchmark families size by size.  Each test is printed by the front
 * end's printer, so files are in normal form, and written atomically.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gen-cpp-cli.h"
#include "gen/gen.h"
#include "lc.h"

typedef struct options {
  gen_options gen;
  gen_family family;
  uint64_t count;
  unsigned size_lo, size_hi;
  bool sized;
  const char *out;
} options;

static void usage(FILE *out) {
  fputs("Usage: litmus-gen [OPTION]...\n"
        "Write generated scoped-PTX litmus tests, one file per test.\n"
        "\n"
        "  -s, --seed S           seed of the random tests (default 1)\n"
        "  -n, --count N          number of random tests (default 1)\n"
        "  -o, --out DIR          folder to write to (created; default .)\n"
        "  -f, --family F         random (default), random-cpp (CUDA C++ tests), or a\n"
        "                         benchmark family:\n"
        "                         chain  release/acquire chain through N threads\n"
        "                         sb     store-buffering ring of N threads\n"
        "                         iriw   two writers, N readers\n"
        "                         wr     N writers and N readers of one location\n"
        "                         spin   random spin-loop programs (like random: --count)\n"
        "      --size N|A-B       family sizes to write (one file each)\n"
        "      --threads A-B      random: threads per test (default 2-4)\n"
        "      --instrs N         random: at most N instructions per thread (default 4)\n"
        "      --locs N           random: at most N locations (default 3)\n"
        "      --cpp              C++ tests in the classic shapes for --check-mapping\n"
        "                         (see litmus-gen --cpp --help)\n"
        "  -h, --help             show this help and exit\n"
        "  -V, --version          show the version and exit\n"
        "\n"
        "Random test I of seed S is written to DIR/gen-S-I.litmus; the same seed\n"
        "gives the same tests on every machine (spin tests: DIR/spin-S-I.litmus).\n"
        "Family tests go to DIR/F-N.litmus.\n",
        out);
}

static int parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || *s == '-') return -1;
  *out = v;
  return 0;
}

/* "N" or "A-B", 1 <= A <= B <= max. */
static int parse_range(const char *s, unsigned max, unsigned *lo, unsigned *hi) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", s);
  char *dash = strchr(buf, '-');
  uint64_t a, b;
  if (dash) *dash = '\0';
  if (parse_u64(buf, &a) < 0 || (dash && parse_u64(dash + 1, &b) < 0)) return -1;
  if (!dash) b = a;
  if (a < 1 || a > b || b > max) return -1;
  *lo = (unsigned)a;
  *hi = (unsigned)b;
  return 0;
}

static int bad(const char *opt, const char *arg) {
  fprintf(stderr, "litmus-gen: %s: bad value '%s'\n", opt, arg);
  return LC_EXIT_INPUT;
}

/* Returns -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, options *o) {
  enum { OPT_SIZE = 256, OPT_THREADS, OPT_INSTRS, OPT_LOCS };
  static const struct option longopts[] = {
    {"seed", required_argument, NULL, 's'},   {"count", required_argument, NULL, 'n'},
    {"out", required_argument, NULL, 'o'},    {"family", required_argument, NULL, 'f'},
    {"size", required_argument, NULL, OPT_SIZE}, {"threads", required_argument, NULL, OPT_THREADS},
    {"instrs", required_argument, NULL, OPT_INSTRS}, {"locs", required_argument, NULL, OPT_LOCS},
    {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
  };
  int c;
  unsigned lo, hi;
  while ((c = getopt_long(argc, argv, "s:n:o:f:hV", longopts, NULL)) != -1) {
    switch (c) {
    case 's': if (parse_u64(optarg, &o->gen.seed) < 0) return bad("--seed", optarg); break;
    case 'n': if (parse_u64(optarg, &o->count) < 0) return bad("--count", optarg); break;
    case 'o': o->out = optarg; break;
    case 'f': if (gen_family_parse(optarg, &o->family) < 0) return bad("--family", optarg); break;
    case OPT_SIZE:
      if (parse_range(optarg, 64, &o->size_lo, &o->size_hi) < 0) return bad("--size", optarg);
      o->sized = true;
      break;
    case OPT_THREADS:
      if (parse_range(optarg, 8, &lo, &hi) < 0) return bad("--threads", optarg);
      o->gen.min_threads = lo;
      o->gen.max_threads = hi;
      break;
    case OPT_INSTRS:
      if (parse_range(optarg, 8, &lo, &hi) < 0) return bad("--instrs", optarg);
      o->gen.max_instrs = hi;
      break;
    case OPT_LOCS:
      if (parse_range(optarg, 3, &lo, &hi) < 0) return bad("--locs", optarg);
      o->gen.max_locs = hi;
      break;
    case 'h': usage(stdout); return LC_EXIT_OK;
    case 'V': printf("litmus-gen (%s)\n", PACKAGE_STRING); return LC_EXIT_OK;
    default: fputs("Try 'litmus-gen --help'.\n", stderr); return LC_EXIT_INPUT;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "litmus-gen: unexpected argument '%s'\n", argv[optind]);
    return LC_EXIT_INPUT;
  }
  bool counted = o->family == GEN_RANDOM || o->family == GEN_RANDOM_CPP || o->family == GEN_SPIN;
  if (!counted && !o->sized) {
    fprintf(stderr, "litmus-gen: --family %s needs --size\n", gen_family_name(o->family));
    return LC_EXIT_INPUT;
  }
  /* --size alone would write a random test, not the family the user meant */
  if (counted && o->sized) {
    fprintf(stderr, "litmus-gen: --size needs a benchmark family (--family chain, sb, iriw or wr); "
                    "--family %s takes --count\n", gen_family_name(o->family));
    return LC_EXIT_INPUT;
  }
  return -1;
}

/* Prints t to DIR/NAME.litmus through a temporary file and a rename. */
static int write_test(const options *o, const lt_test *t) {
  lc_buf text, path, tmp;
  lc_buf_init(&text);
  lc_buf_init(&path);
  lc_buf_init(&tmp);
  lt_print(&text, t);
  lc_buf_printf(&path, "%s/%s.litmus", o->out, t->name);
  lc_buf_printf(&tmp, "%s.tmp%ld", path.s, (long)getpid());
  int rc = 0;
  FILE *f = fopen(tmp.s, "w");
  if (!f || fwrite(text.s, 1, text.n, f) != text.n || fclose(f) != 0 || rename(tmp.s, path.s) != 0) {
    fprintf(stderr, "litmus-gen: cannot write '%s': %s\n", path.s, strerror(errno));
    rc = -1;
  }
  lc_buf_fini(&text);
  lc_buf_fini(&path);
  lc_buf_fini(&tmp);
  return rc;
}

static int generate(const options *o) {
  if (mkdir(o->out, 0777) < 0 && errno != EEXIST) {
    fprintf(stderr, "litmus-gen: cannot create '%s': %s\n", o->out, strerror(errno));
    return LC_EXIT_INPUT;
  }
  if (o->family == GEN_RANDOM || o->family == GEN_RANDOM_CPP || o->family == GEN_SPIN) {
    for (uint64_t i = 0; i < o->count; i++) {
      lt_test *t = o->family == GEN_RANDOM ? gen_random(&o->gen, i)
                   : o->family == GEN_SPIN ? gen_spin(&o->gen, i) : gen_random_cpp(&o->gen, i);
      int rc = write_test(o, t);
      lt_test_free(t);
      if (rc < 0) return LC_EXIT_INTERNAL;
    }
    return LC_EXIT_OK;
  }
  unsigned lo = o->size_lo < gen_family_min(o->family) ? gen_family_min(o->family) : o->size_lo;
  for (unsigned n = lo; n <= o->size_hi; n++) {
    lt_test *t = gen_family_test(o->family, n);
    int rc = write_test(o, t);
    lt_test_free(t);
    if (rc < 0) return LC_EXIT_INTERNAL;
  }
  return LC_EXIT_OK;
}

int main(int argc, char **argv) {
  if (gen_cpp_wanted(argc, argv)) return cli_finish("litmus-gen", gen_cpp_main(argc, argv));
  options o;
  memset(&o, 0, sizeof o);
  gen_options_init(&o.gen);
  o.gen.seed = 1;
  o.count = 1;
  o.out = ".";
  /* with nothing to say what to write or where, writing tests into the
   * current folder would surprise: explain instead */
  if (argc == 1) {
    usage(stderr);
    fputs("litmus-gen: nothing written; give -o DIR (and -n N, or --family F --size N)\n", stderr);
    return LC_EXIT_INPUT;
  }
  int status = parse_options(argc, argv, &o);
  if (status >= 0) return status;
  return cli_finish("litmus-gen", generate(&o));
}
