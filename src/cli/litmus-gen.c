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
#include "gen/gen_cycle.h"
#include "lc.h"

typedef struct options {
  gen_options gen;
  gen_family family;
  uint64_t count;
  unsigned size_lo, size_hi;
  bool sized;
  const char *out;
  bool out_given;
  const char *cycle, *cycles;          /* --cycle EDGES, --cycles EDGES */
  const char *safe;                    /* --safe EDGES */
  gen_cycle_options cyc;
  gen_cycles_options diy;              /* --mode, --nprocs, --ins */
} options;

static void usage(FILE *out) {
  fputs("Usage: litmus-gen [OPTION]...\n"
        "Write generated litmus tests (scoped PTX, or CUDA C++), one file per test.\n"
        "\n"
        "  -s, --seed S           seed of the random tests (default 1)\n"
        "  -n, --count N          number of random tests (default 1)\n"
        "  -o, --out DIR          folder to write to (created; default .)\n"
        "  -f, --family F         random (default), random-cpp (CUDA C++ tests), or a\n"
        "                         benchmark family:\n"
        "                         chain  release/acquire chain through N threads\n"
        "                         sb     store-buffering ring of N threads\n"
        "                         iriw   two writers, N readers\n"
        "                         iriw-sc  the same, fence.sc between each reader's loads\n"
        "                         wr     N writers and N readers of one location\n"
        "                         spin   random spin-loop programs (like random: --count)\n"
        "      --size N|A-B       family sizes to write (one file each)\n"
        "      --threads A-B      random: threads per test (default 2-4)\n"
        "      --instrs N         random: at most N instructions per thread (default 4)\n"
        "      --locs N           random: at most N locations (default 3)\n"
        "      --cycle EDGES      the test of one relaxation cycle, in herd's diy edges\n"
        "                         (e.g. \"Rfe PodRR Fre PodWW\"): to DIR/NAME.litmus with\n"
        "                         -o, else on standard output\n"
        "      --cycles EDGES     the cycles diy7 -safe EDGES makes (sizes from --size,\n"
        "                         default 2-4), one test each, into -o DIR\n"
        "      --safe EDGES       with --cycles: the safe edges; then each cycle has\n"
        "                         one of --cycles' edges (diy7 -relax R -safe S)\n"
        "      --mode M           --cycles: diy7's -mode: default (no two internal\n"
        "                         edges in a row but diy's exceptions), sc,\n"
        "                         critical, free, uni, thin (any sequence)\n"
        "      --nprocs N         --cycles: at most N threads (default 4)\n"
        "      --ins N            --cycles: at most N accesses a thread (default 4)\n"
        "      --dialect D        cycles: ptx (default), cpp (CUDA C++ tests) or c\n"
        "                         (herd's C11 tests, as diyone7 -arch C writes them)\n"
        "      --scope S          cycles: scope where an edge names none: cta,\n"
        "                         cluster, gpu (default) or sys\n"
        "      --cpp              C++ tests in the classic shapes for --check-mapping\n"
        "                         (see litmus-gen --cpp --help)\n"
        "  -h, --help             show this help and exit\n"
        "  -V, --version          show the version and exit\n"
        "\n"
        "Random test I of seed S is written to DIR/gen-S-I.litmus; the same seed\n"
        "gives the same tests on every machine (spin tests: DIR/spin-S-I.litmus).\n"
        "Family tests go to DIR/F-N.litmus.  Edges of cycles: Rfe Rfi Fre Fri Wse Wsi\n"
        "(Coe Coi), Pod/Pos with RR RW WR WW, Fence{d,s}.sc|.acq_rel|.acquire|.release\n"
        "[.SCOPE]XY, "
        "Membar{d,s}.cta|.gl|.sys XY, DpData{d,s}W, DpCtrl{d,s}R|W; annotations\n"
        "after an edge (source, target): P Rlx Acq Rel Sc [.SCOPE]; placement of an\n"
        "external edge's threads: @cta @cluster @gpu @sys; and every edge of\n"
        "diyone7 -arch C -show edges (FenceScdWR, Pod**, Dpd*, Ctrld*, Rmw Exch\n"
        "Fetch.Add, Hat, RfLeave..., R W, Na Acq ...; man litmus-gen, CYCLES).\n",
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
  enum { OPT_SIZE = 256, OPT_THREADS, OPT_INSTRS, OPT_LOCS, OPT_CYCLE, OPT_CYCLES, OPT_DIALECT, OPT_SCOPE,
         OPT_SAFE, OPT_MODE, OPT_NPROCS, OPT_INS };
  static const struct option longopts[] = {
    {"seed", required_argument, NULL, 's'},   {"count", required_argument, NULL, 'n'},
    {"out", required_argument, NULL, 'o'},    {"family", required_argument, NULL, 'f'},
    {"size", required_argument, NULL, OPT_SIZE}, {"threads", required_argument, NULL, OPT_THREADS},
    {"instrs", required_argument, NULL, OPT_INSTRS}, {"locs", required_argument, NULL, OPT_LOCS},
    {"cycle", required_argument, NULL, OPT_CYCLE}, {"cycles", required_argument, NULL, OPT_CYCLES},
    {"dialect", required_argument, NULL, OPT_DIALECT}, {"scope", required_argument, NULL, OPT_SCOPE},
    {"safe", required_argument, NULL, OPT_SAFE}, {"mode", required_argument, NULL, OPT_MODE},
    {"nprocs", required_argument, NULL, OPT_NPROCS}, {"ins", required_argument, NULL, OPT_INS},
    {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
  };
  int c;
  unsigned lo, hi;
  while ((c = getopt_long(argc, argv, "s:n:o:f:hV", longopts, NULL)) != -1) {
    switch (c) {
    case 's': if (parse_u64(optarg, &o->gen.seed) < 0) return bad("--seed", optarg); break;
    case 'n': if (parse_u64(optarg, &o->count) < 0) return bad("--count", optarg); break;
    case 'o': o->out = optarg; o->out_given = true; break;
    case OPT_CYCLE: o->cycle = optarg; break;
    case OPT_CYCLES: o->cycles = optarg; break;
    case OPT_SAFE: o->safe = optarg; break;
    case OPT_MODE:
      if (gen_cycles_mode_parse(optarg, &o->diy.mode) < 0) return bad("--mode", optarg);
      break;
    case OPT_NPROCS:
    case OPT_INS: {
      uint64_t v;
      if (parse_u64(optarg, &v) < 0 || v < 1 || v > 16) return bad(c == OPT_INS ? "--ins" : "--nprocs", optarg);
      if (c == OPT_INS) o->diy.max_ins = (unsigned)v;
      else o->diy.nprocs = (unsigned)v;
      break;
    }
    case OPT_DIALECT:
      if (strcmp(optarg, "ptx") && strcmp(optarg, "cpp") && strcmp(optarg, "c")) return bad("--dialect", optarg);
      o->cyc.dialect = !strcmp(optarg, "cpp") ? GEN_DIALECT_CPP : !strcmp(optarg, "c") ? GEN_DIALECT_C : GEN_DIALECT_PTX;
      break;
    case OPT_SCOPE: {
      static const char *const scopes[] = {"cta", "cluster", "gpu", "sys"};
      size_t i = 0;
      while (i < LC_ARRAY_LEN(scopes) && strcmp(optarg, scopes[i])) i++;
      if (i == LC_ARRAY_LEN(scopes)) return bad("--scope", optarg);
      o->cyc.scope = (lt_scope)(LT_SCOPE_CTA + i);
      break;
    }
    case 'f':
      if (gen_family_parse(optarg, &o->family) < 0) {
        fprintf(stderr, "litmus-gen: --family: bad value '%s' (the families:", optarg);
        for (int f = GEN_RANDOM; f <= GEN_SPIN; f++) fprintf(stderr, " %s", gen_family_name((gen_family)f));
        fputs(")\n", stderr);
        return LC_EXIT_INPUT;
      }
      break;
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
  if (o->cycle && o->cycles) {
    fputs("litmus-gen: --cycle and --cycles: give one of them\n", stderr);
    return LC_EXIT_INPUT;
  }
  if (o->safe && !o->cycles) {
    fputs("litmus-gen: --safe goes with --cycles\n", stderr);
    return LC_EXIT_INPUT;
  }
  if (o->cycles && !o->out_given) {
    fputs("litmus-gen: --cycles writes many tests: give -o DIR\n", stderr);
    return LC_EXIT_INPUT;
  }
  if (o->cycles && o->sized && (o->size_lo < 2 || o->size_hi > 8)) {
    fputs("litmus-gen: --cycles: --size is the number of edges of a cycle, 2 to 8\n", stderr);
    return LC_EXIT_INPUT;
  }
  if (o->cycle || o->cycles) return -1;
  bool counted = o->family == GEN_RANDOM || o->family == GEN_RANDOM_CPP || o->family == GEN_SPIN;
  if (!counted && !o->sized) {
    fprintf(stderr, "litmus-gen: --family %s needs --size\n", gen_family_name(o->family));
    return LC_EXIT_INPUT;
  }
  /* --size alone would write a random test, not the family the user meant */
  if (counted && o->sized) {
    fprintf(stderr, "litmus-gen: --size needs a benchmark family (--family chain, sb, iriw, iriw-sc or wr); "
                    "--family %s takes --count\n", gen_family_name(o->family));
    return LC_EXIT_INPUT;
  }
  return -1;
}

/* Writes text to DIR/NAME.litmus through a temporary file and a rename. */
static int write_text(const char *dir, const char *name, const lc_buf *text_in) {
  const lc_buf *tx = text_in;
  lc_buf path, tmp;
  lc_buf_init(&path);
  lc_buf_init(&tmp);
  lc_buf_printf(&path, "%s/%s.litmus", dir, name);
  lc_buf_printf(&tmp, "%s.tmp%ld", path.s, (long)getpid());
  int rc = 0;
  FILE *f = fopen(tmp.s, "w");
  if (!f || fwrite(tx->s, 1, tx->n, f) != tx->n || fclose(f) != 0 || rename(tmp.s, path.s) != 0) {
    fprintf(stderr, "litmus-gen: cannot write '%s': %s\n", path.s, strerror(errno));
    rc = -1;
  }
  lc_buf_fini(&path);
  lc_buf_fini(&tmp);
  return rc;
}

/* Prints t to DIR/NAME.litmus. */
static int write_test(const options *o, const lt_test *t) {
  lc_buf text;
  lc_buf_init(&text);
  lt_print(&text, t);
  int rc = write_text(o->out, t->name, &text);
  lc_buf_fini(&text);
  return rc;
}

static int make_dir(const char *dir) {
  if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
    fprintf(stderr, "litmus-gen: cannot create '%s': %s\n", dir, strerror(errno));
    return -1;
  }
  return 0;
}

/* --cycle: one test, on standard output unless -o. */
static int one_cycle(const options *o) {
  gen_edge *e = NULL;
  size_t n = 0;
  char *err = NULL, *name = NULL, *text = NULL;
  if (gen_edges_parse(o->cycle, &e, &n, &err) < 0 || gen_cycle_test(e, n, &o->cyc, &name, &text, &err) < 0) {
    fprintf(stderr, "litmus-gen: --cycle: %s\n", err);
    free(err);
    free(e);
    return LC_EXIT_INPUT;
  }
  int rc = LC_EXIT_OK;
  if (!o->out_given) {
    fputs(text, stdout);
  } else {
    lc_buf b = {0};
    lc_buf_init(&b);
    lc_buf_puts(&b, text);
    rc = make_dir(o->out) < 0 ? LC_EXIT_INPUT : write_text(o->out, name, &b) < 0 ? LC_EXIT_INTERNAL : LC_EXIT_OK;
    if (rc == LC_EXIT_OK) printf("%s/%s.litmus: %s\n", o->out, name, o->cycle);
    lc_buf_fini(&b);
  }
  free(name);
  free(text);
  free(e);
  return rc;
}

typedef struct cycles_out { const char *dir; uint64_t written; } cycles_out;

static int write_cycle(const char *name, const char *text, const char *cycle, void *arg) {
  cycles_out *c = arg;
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_puts(&b, text);
  int rc = write_text(c->dir, name, &b);
  lc_buf_fini(&b);
  if (rc < 0) return 1;
  printf("%s.litmus: %s\n", name, cycle);
  c->written++;
  return 0;
}

/* --cycles: every cycle over the edges given, like diy7. */
static int all_cycles(const options *o) {
  gen_edge *e = NULL, *safe = NULL;
  size_t n = 0, nsafe = 0;
  char *err = NULL;
  if (gen_edges_parse(o->cycles, &e, &n, &err) < 0 || (o->safe && gen_edges_parse(o->safe, &safe, &nsafe, &err) < 0)) {
    fprintf(stderr, "litmus-gen: %s: %s\n", e && o->safe ? "--safe" : "--cycles", err);
    free(err);
    free(e);
    return LC_EXIT_INPUT;
  }
  /* the relaxations first, then the safe edges: one pool */
  e = lc_xrealloc(e, (n + nsafe) * sizeof *e);
  if (nsafe) memcpy(e + n, safe, nsafe * sizeof *e);
  free(safe);
  if (make_dir(o->out) < 0) {
    free(e);
    return LC_EXIT_INPUT;
  }
  cycles_out c = {o->out, 0};
  unsigned lo = o->sized ? o->size_lo : 2, hi = o->sized ? o->size_hi : 4;
  /* diy7: --cycles alone are its -safe edges (every cycle over them);
   * with --safe they are its -relax edges (one of them in each cycle) */
  int rc = gen_cycles_diy(e, n + nsafe, nsafe ? n : 0, lo, hi, &o->cyc, &o->diy, write_cycle, &c);
  free(e);
  if (rc) return LC_EXIT_INTERNAL;
  printf("%" PRIu64 " tests written to %s\n", c.written, o->out);
  return LC_EXIT_OK;
}

static int generate(const options *o) {
  if (o->cycle) return one_cycle(o);
  if (o->cycles) return all_cycles(o);
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
  o.cyc.scope = LT_SCOPE_GPU;
  gen_cycles_options_init(&o.diy);
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
