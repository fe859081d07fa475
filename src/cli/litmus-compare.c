/* litmus-compare.c - results of several GPUs, runs and models side by side.
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE   /* getopt_long */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lc.h"
#include "report/compare.h"
#include "report/compare_out.h"
#include "run/campaign.h"

static void usage(FILE *out) {
  fputs("Usage: litmus-compare [OPTION]... RESULTS...\n"
        "Put results side by side: each RESULTS file (JSON lines from\n"
        "`litmus-run --json` or `litmus-check --json`) is a column, tests are\n"
        "matched by path (as much of it as tells them apart), name and condition.\n"
        "Hardware columns show how often each outcome was\n"
        "seen, model columns whether it is allowed; `!` marks an outcome seen on\n"
        "hardware that a model forbids.\n"
        "\n"
        "  -d, --differences  only tests where the columns disagree or a forbidden\n"
        "                     outcome was seen\n"
        "      --json         the comparison as one JSON object\n"
        "      --csv          the table as CSV (with --rates: the rates as CSV)\n"
        "      --rates        weak outcomes per second and per million instances\n"
        "                     of each hardware column\n"
        "      --svg DIR      one plot per test, DIR/NAME.svg: outcome histogram per\n"
        "                     hardware column (rare counts written out), forbidden\n"
        "                     outcomes seen in red, the condition's in bold, a row\n"
        "                     per model column\n"
        "      --merge OUT    merge the shards of a campaign (litmus-run --campaign\n"
        "                     --shard) into OUT, which must not exist; exit 1 when\n"
        "                     runs are missing (the warning names them)\n"
        "      --force        --merge writes over an existing OUT\n"
        "      --root DIR     read test paths under DIR as relative to it (repeat for\n"
        "                     each place a corpus was checked from); implies\n"
        "                     --match path\n"
        "      --match M      how tests of different files meet: tail (default: the\n"
        "                     shortest tail of the path that tells tests apart, with\n"
        "                     name and condition), path (the whole path less its\n"
        "                     --root, with name and condition), or name (the test's\n"
        "                     name alone, as herd's mcompare7)\n"
        "  -h, --help         show this help and exit\n"
        "  -V, --version      show the version and exit\n"
        "\n"
        "Exit status: 0, 1 a forbidden outcome was seen, 2 bad input or usage, or\n"
        "files that share no test.\n",
        out);
}

/* With two files or more, some test must be in two of them. */
static bool shares_a_test(const cmp_table *t) {
  if (t->columns.n < 2) return true;
  for (size_t i = 0; i < t->tests.n; i++) {
    size_t n = 0;
    for (size_t c = 0; c < t->columns.n; c++) n += t->tests.v[i].present[c];
    if (n >= 2) return true;
  }
  return false;
}

/* --rates (text after the table, or the CSV asked for) and --svg. */
static int extra_outputs(const cmp_table *t, bool diff, bool csv, bool rates, const char *svg) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  int rc = 0;
  if (rates) {
    cmp_rates r = {0};
    if (cmp_rates_load(&r, t, &d) < 0) rc = -1;
    lc_buf b;
    lc_buf_init(&b);
    bool hardware = false;
    for (size_t c = 0; c < t->columns.n; c++) hardware |= t->columns.v[c].hardware;
    if (!hardware) fputs("litmus-compare: warning: --rates: no hardware column (litmus-run results): no rates\n", stderr);
    if (rc == 0 && hardware) cmp_print_rates(&b, &r, csv);
    if (csv) fputs(b.s, stdout);
    else if (b.n) fprintf(stdout, "%s\n", b.s);
    lc_buf_fini(&b);
    cmp_rates_free(&r);
  }
  if (rc == 0 && svg) {
    if (mkdir(svg, 0777) < 0 && errno != EEXIST) {
      fprintf(stderr, "litmus-compare: cannot create '%s': %s\n", svg, strerror(errno));
      rc = -1;
    } else if (cmp_write_svgs(t, svg, diff, &d) < 0) {
      rc = -1;
    }
  }
  lc_diag_fini(&d);
  return rc;
}

/* OUT is written only when it is not there (or --force): a merge into a
 * shard's own name, or over an earlier merge, would lose runs. */
static int merge_shards(char *const *paths, size_t n, const char *out, bool force) {
  struct stat st;
  if (!force && stat(out, &st) == 0) {
    fprintf(stderr, "litmus-compare: %s already exists: --force to write over it, or another name\n", out);
    return LC_EXIT_INPUT;
  }
  for (size_t i = 0; i < n; i++)
    if (strcmp(paths[i], out) == 0) {
      fprintf(stderr, "litmus-compare: %s is both a shard and the file to merge into\n", out);
      return LC_EXIT_INPUT;
    }
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  int rc = run_campaign_merge(paths, n, out, &d);
  if (rc < 0) fprintf(stderr, "litmus-compare: %s\n", lc_diag_first_error(&d));
  if (rc == 1) fprintf(stderr, "litmus-compare: %s: %s\n", out, d.msgs.n ? d.msgs.v[d.msgs.n - 1].text : "runs are missing");
  lc_diag_fini(&d);
  return rc < 0 ? LC_EXIT_INPUT : rc;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
    {"differences", no_argument, NULL, 'd'}, {"json", no_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},        {"version", no_argument, NULL, 'V'},
    {"merge", required_argument, NULL, 'm'}, {"csv", no_argument, NULL, 'c'},
    {"rates", no_argument, NULL, 'r'},       {"svg", required_argument, NULL, 's'},
    {"force", no_argument, NULL, 'f'},       {"root", required_argument, NULL, 'R'},
    {"match", required_argument, NULL, 'M'}, {NULL, 0, NULL, 0},
  };
  bool diff = false, json = false, csv = false, rates = false, force = false;
  const char *merge = NULL, *svg = NULL, *match = NULL;
  LC_VEC(const char *) roots = {0};
  int c;
  while ((c = getopt_long(argc, argv, "dhV", longopts, NULL)) != -1) {
    switch (c) {
    case 'd': diff = true; break;
    case 'j': json = true; break;
    case 'm': merge = optarg; break;
    case 'c': csv = true; break;
    case 'r': rates = true; break;
    case 's': svg = optarg; break;
    case 'f': force = true; break;
    case 'R': lc_vec_push(&roots, optarg); break;
    case 'M':
      if (strcmp(optarg, "tail") && strcmp(optarg, "path") && strcmp(optarg, "name")) {
        fprintf(stderr, "litmus-compare: --match takes tail, path or name, not '%s'\n", optarg);
        lc_vec_free(&roots);
        return LC_EXIT_INPUT;
      }
      match = optarg;
      break;
    case 'h': usage(stdout); return LC_EXIT_OK;
    case 'V': printf("litmus-compare (%s)\n", PACKAGE_STRING); return LC_EXIT_OK;
    default: fputs("Try 'litmus-compare --help'.\n", stderr); return LC_EXIT_INPUT;
    }
  }
  if (optind == argc) {
    fputs("litmus-compare: no results files (try 'litmus-compare --help')\n", stderr);
    lc_vec_free(&roots);
    return LC_EXIT_INPUT;
  }
  if (roots.n && match && strcmp(match, "path")) {
    fprintf(stderr, "litmus-compare: --root goes with --match path, not --match %s\n", match);
    lc_vec_free(&roots);
    return LC_EXIT_INPUT;
  }
  if (merge) {
    lc_vec_free(&roots);
    return merge_shards(argv + optind, (size_t)(argc - optind), merge, force);
  }
  cmp_table t;
  cmp_init(&t);
  if ((match && !strcmp(match, "path")) || roots.n) t.match = CMP_MATCH_PATH;
  if (match && !strcmp(match, "name")) t.match = CMP_MATCH_NAME;
  for (size_t i = 0; i < roots.n; i++) cmp_add_root(&t, roots.v[i]);
  lc_vec_free(&roots);
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  int status = LC_EXIT_OK;
  for (int i = optind; i < argc && status == LC_EXIT_OK; i++)
    if (cmp_add_file(&t, argv[i], &d) < 0) status = LC_EXIT_INPUT;
  lc_diag_fini(&d);
  if (status == LC_EXIT_OK) {
    cmp_finish(&t);
    if (t.name_clashes)
      fprintf(stderr, "litmus-compare: warning: --match name: %zu test%s of another path in the same file as a test "
              "of its name (the first: %s) merged into it\n", t.name_clashes, t.name_clashes == 1 ? "" : "s", t.clash);
    for (size_t i = 0; i < t.tests.n; i++)
      if (t.tests.v[i].forbidden_seen) status = LC_EXIT_MISMATCH;
    if (!shares_a_test(&t)) {
      fprintf(stderr, "litmus-compare: warning: the files share no test (tests are matched by %s): "
              "nothing to compare\n", t.match == CMP_MATCH_NAME ? "name" :
              t.match == CMP_MATCH_PATH ? "path less its --root, name and condition" : "path, name and condition");
      status = LC_EXIT_INPUT;
    }
    if (status != LC_EXIT_INPUT && extra_outputs(&t, diff, csv, rates, svg) < 0) status = LC_EXIT_INPUT;
    if (status == LC_EXIT_INPUT || (csv && rates)) {
      /* nothing to compare, or the rates were the table asked for */
    } else if (csv) {
      lc_buf b;
      lc_buf_init(&b);
      cmp_print_csv(&b, &t, diff);
      fputs(b.s, stdout);
      lc_buf_fini(&b);
    } else if (json) {
      json_t *o = cmp_json(&t, diff);
      json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
      fputc('\n', stdout);
      json_decref(o);
    } else {
      lc_buf b;
      lc_buf_init(&b);
      cmp_print(&b, &t, diff);
      fputs(b.s, stdout);
      lc_buf_fini(&b);
    }
  }
  cmp_fini(&t);
  return cli_finish("litmus-compare", status);
}
