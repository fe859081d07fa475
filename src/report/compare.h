/* compare.h - results of several runs and models side by side
 * (litmus-compare): which outcomes each GPU showed, which each model
 * allows, and where they disagree.
 * SPDX-License-Identifier: MIT
 *
 * Inputs are JSON-lines results files as `litmus-run --json` and
 * `litmus-check --json` write them, one object per test.  Each file is a
 * column, each grid point of a campaign's file (litmus-run --campaign)
 * one; tests are matched across columns by their path: the shortest
 * tail of it (file name, then parent folders) that tells apart the tests
 * one column holds under one file name, with the test's name and
 * condition, so that the same test run from different folders on
 * different machines meets itself, and two tests that share a file name
 * (cuda-cpp/MP+volatile.litmus and gpu/MP+volatile.litmus) stay apart.
 * A column holding a test several times shows the sums of their counts.
 * Other ways to match (cmp_table.match): by the path relative to roots
 * the caller names (--root: the same corpus checked in two places), or by
 * the test's name alone, as herd's mcompare7 does.
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <jansson.h>

#include "lc.h"

typedef struct cmp_column {
  char *path;
  size_t file;             /* the results file's number, from 1 */
  char *point;             /* a campaign's grid point ("barrier=on"), or NULL */
  char *label;             /* "[1]", "[2]", ...; "[1.1]", "[1.2]" for the points of a campaign */
  char *desc;              /* "cuda: NVIDIA H100 (sm_90), driver ...", "model PTX v7.5 (smt engine)", or
                              "models PTX v7.5 (81 tests), CUDA C++ (35 tests) (enum engine)" */
  bool hardware;           /* litmus-run results (else litmus-check results) */
  size_t nruns;            /* results read into the column */
  size_t ntests;           /* the distinct tests among them (cmp_finish) */
  LC_VEC(char *) models;   /* model columns: the models named, in first-seen order ... */
  LC_VEC(size_t) model_runs; /* ... and the results under each */
  char *engine;            /* model columns: the first result's engine */
} cmp_column;

typedef enum { CMP_ABSENT, CMP_ALLOWED, CMP_FORBIDDEN, CMP_UNEXPLORED } cmp_status;

typedef struct cmp_cell {
  bool present;            /* the column has this test */
  uint64_t count;          /* hardware: instances with this outcome */
  cmp_status status;       /* hardware: what the run's model said; model: allowed or not */
} cmp_cell;

typedef struct cmp_test {
  char *key;               /* the test's path, as much of it as tells it apart ("gpu/MP+volatile.litmus") */
  char *path;              /* its path as the first results file holding it spells it (tidied) */
  char *name, *kind, *condition;
  LC_VEC(char *) outcomes; /* "P1:r0=0; P1:r1=0;" in first-seen order, then sorted */
  bool *positive;          /* per outcome: it satisfies the condition's proposition (some file says so) */
  cmp_cell *cells;         /* outcomes.n x ncolumns, row-major */
  bool *present;           /* per column */
  char **verdict;          /* per column: "Ok", "No", or NULL */
  uint64_t *unfinished;    /* per column: instances that hung or were cut (hardware) */
  const char **model;      /* per column: the model a model column checked it under (the column's), or NULL */
  bool forbidden_seen;     /* hardware showed an outcome some model forbids */
  bool differs;            /* columns disagree about some outcome */
} cmp_test;

/* A hardware run's totals, for the rates (compare_out.h). */
typedef struct cmp_run {
  size_t test, col;
  uint64_t instances, weak;
  uint64_t unfinished;     /* instances that hung or were cut: in no outcome */
  double seconds;
} cmp_run;

typedef enum {
  CMP_MATCH_TAIL,          /* the shortest tail of the path that tells tests apart (default) */
  CMP_MATCH_PATH,          /* the whole path, less the longest root it starts with */
  CMP_MATCH_NAME           /* the test's name alone (mcompare7): same-named tests merge */
} cmp_match;

typedef struct cmp_table {
  cmp_match match;         /* set before the first cmp_add_file (cmp_init: TAIL) */
  LC_VEC(char *) roots;    /* folders taken off the front of test paths (cmp_add_root) */
  size_t name_clashes;     /* CMP_MATCH_NAME: tests of different paths that one file
                              holds under one name, merged (cmp_finish) */
  char *clash;             /* the first such name */
  LC_VEC(cmp_column) columns;
  LC_VEC(cmp_test) tests;
  LC_VEC(cmp_run) runs;    /* in the order read */
  void *loading;           /* entries read but not yet in matrices (compare.c) */
} cmp_table;

void cmp_init(cmp_table *t);
/* A root: a test path that starts with it ("corpus/" then more) is read
 * as the rest ("corpus/gpu/MP.litmus" under root "corpus" is
 * "gpu/MP.litmus"); the longest root that fits is taken. */
void cmp_add_root(cmp_table *t, const char *root);
void cmp_fini(cmp_table *t);
/* "barrier=on stress-iterations=0": a campaign run's grid point (caller frees). */
char *cmp_point_text(json_t *point);
/* Adds a results file as a column (a campaign's file: a column per grid point).  Returns 0, or -1 after reporting a
 * malformed file to d (file:line). */
int cmp_add_file(cmp_table *t, const char *path, lc_diag *d);
/* Sorts outcomes and marks disagreements and forbidden observations. */
void cmp_finish(cmp_table *t);

const cmp_cell *cmp_cell_at(const cmp_table *t, const cmp_test *test, size_t outcome, size_t col);
/* Was outcome i of a test seen on hardware while some column's model (or
 * the run's own) forbids it? */
bool cmp_outcome_forbidden_seen(const cmp_table *t, const cmp_test *test, size_t i);

void cmp_print(lc_buf *out, const cmp_table *t, bool only_differences);
json_t *cmp_json(const cmp_table *t, bool only_differences);

#endif
