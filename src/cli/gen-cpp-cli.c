/* gen-cpp-cli.c - litmus-gen --cpp: write the C++ shape tests that check
 * mapping tables (docs/mappings.md, "Generated tests").  Option parsing
 * and file writing only; the tests come from src/gen/gen_cpp.c.
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include "cli/gen-cpp-cli.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen/gen_cpp_shapes.h"
#include "lc.h"

bool gen_cpp_wanted(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--cpp")) return true;
  return false;
}

typedef struct out { const char *dir; uint64_t written; } out;

/* DIR/NAME.litmus through a temporary file and a rename, as litmus-gen. */
static int write_one(const char *name, const char *text, void *arg) {
  out *o = arg;
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/%s.litmus", o->dir, name);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  size_t n = strlen(text);
  if (!f || fwrite(text, 1, n, f) != n || fclose(f) != 0 || rename(tmp, path) != 0) {
    fprintf(stderr, "litmus-gen: cannot write '%s': %s\n", path, strerror(errno));
    return 1;
  }
  o->written++;
  return 0;
}

static int parse_u64(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || end == s || *end || *s == '-') return -1;
  *v = x;
  return 0;
}

static void usage(void) {
  printf("Usage: litmus-gen --cpp [--shapes LIST] [-n N] [-s SEED] [-o DIR] [--count-only]\n"
         "Write C++ litmus tests for --check-mapping: each shape with every memory\n"
         "order per access and three scope variants (device scope across CTAs, block\n"
         "scope in one CTA, block scope across CTAs).  With -n, N of them sampled\n"
         "with SEED (default 1); without, all.  Shapes: %s\n", gen_cpp_shape_names());
}

int gen_cpp_main(int argc, char **argv) {
  static const struct option longs[] = {
    {"cpp", no_argument, NULL, 'C'}, {"shapes", required_argument, NULL, 'S'},
    {"count", required_argument, NULL, 'n'}, {"seed", required_argument, NULL, 's'},
    {"out", required_argument, NULL, 'o'}, {"count-only", no_argument, NULL, 'k'},
    {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  gen_cpp_options g = {.seed = 1};
  out o = {.dir = "."};
  bool count_only = false;
  int c;
  while ((c = getopt_long(argc, argv, "n:s:o:h", longs, NULL)) != -1) {
    switch (c) {
    case 'C': break;
    case 'S': g.shapes = optarg; break;
    case 'n': case 's':
      if (parse_u64(optarg, c == 'n' ? &g.count : &g.seed)) {
        fprintf(stderr, "litmus-gen: %s: bad value '%s'\n", c == 'n' ? "--count" : "--seed", optarg);
        return LC_EXIT_INPUT;
      }
      break;
    case 'o': o.dir = optarg; break;
    case 'k': count_only = true; break;
    case 'h': usage(); return LC_EXIT_OK;
    default: fputs("Try 'litmus-gen --cpp --help'.\n", stderr); return LC_EXIT_INPUT;
    }
  }
  if (optind < argc) { fprintf(stderr, "litmus-gen: unexpected '%s'\n", argv[optind]); return LC_EXIT_INPUT; }
  if (count_only) {
    printf("%" PRIu64 "\n", gen_cpp_shape_count(g.shapes));
    return LC_EXIT_OK;
  }
  if (mkdir(o.dir, 0777) < 0 && errno != EEXIST) {
    fprintf(stderr, "litmus-gen: cannot create '%s': %s\n", o.dir, strerror(errno));
    return LC_EXIT_INPUT;
  }
  const char *bad;
  int rc = gen_cpp_shapes(&g, write_one, &o, &bad);
  if (rc < 0) {
    fprintf(stderr, "litmus-gen: unknown shape in '%s' (shapes: %s)\n", bad, gen_cpp_shape_names());
    return LC_EXIT_INPUT;
  }
  return rc ? LC_EXIT_INTERNAL : LC_EXIT_OK;
}
