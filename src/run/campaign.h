/* campaign.h - a campaign: every test of a suite under every point of a
 * parameter grid, one JSON-lines results file, resumable and shardable.
 * SPDX-License-Identifier: MIT
 *
 * The file (docs/campaigns.md):
 *   line 1   {"campaign":1,"seed":"0x..","backend":..,"tests":[..],"grid":[{"name":..,"values":[..]}],
 *             "points":P,"runs":R,"shard":[I,N]}
 *   then     {"run":r,"test":PATH,"point":{NAME:VALUE,..},"seed":"0x..","result":{..litmus-run --json..}}
 *            one per finished run, each appended with one write(2) and synced
 *   and      {"status":"partial"|"complete","done":D,"of":M} when an invocation ends
 * Run r is test r % T under grid point r / T; shard I of N runs the r with
 * r % N == I.  Run r's seed is drawn from the campaign's seed and r, so a
 * run has the same seed whichever shard or invocation runs it.
 */
#ifndef RUN_CAMPAIGN_H
#define RUN_CAMPAIGN_H

#include <jansson.h>

#include "lc.h"
#include "run/run.h"

/* "stress-iterations=0,1024;barrier=on,off": axes over litmus-run's
 * options; every combination is a point (the first axis varies slowest). */
typedef struct run_grid_axis {
  char *name;
  LC_VEC(char *) values;
} run_grid_axis;

typedef struct run_grid {
  LC_VEC(run_grid_axis) axes;
} run_grid;

/* Sets the parameter of litmus-run's option NAME (iterations, stride,
 * barrier, ...) from its text; -1 with a message when NAME or the value is
 * not one (also for --config files). */
int run_params_set(run_params *par, const char *name, const char *value, lc_diag *d);

/* Returns 0, or -1 with a message naming the bad part in d. */
int run_grid_parse(run_grid *g, const char *spec, lc_diag *d);
void run_grid_free(run_grid *g);
size_t run_grid_points(const run_grid *g);
/* Sets the point's values in par; -1 with a message when one does not fit. */
int run_grid_apply(const run_grid *g, size_t point, run_params *par, lc_diag *d);

typedef struct run_campaign {
  char *path;
  int fd;
  uint64_t seed;
  size_t ntests, npoints;
  unsigned shard, nshards;
  bool *done;               /* per run */
  json_t *header;
  const run_grid *grid;     /* borrowed */
  char **tests;             /* borrowed */
  char *const *args;        /* the options of the invocation (recorded in the header); borrowed */
  size_t nargs;
} run_campaign;

/* Opens path for the campaign: a new file (refused when one is there
 * without resume), or with resume the file of an earlier invocation with
 * the same tests, grid and shard, whose finished runs are kept (a last
 * line cut short by a crash is dropped); a refusal names what differs.
 * Tests are the same when they are the same files, however their paths
 * are spelled: the header records each test's path relative to the
 * campaign file's folder ("paths"), beside the paths as given ("tests"),
 * and the invocation's options (args, nargs: "args"), which
 * run_campaign_resume_args gives back.  seed is taken from that file on
 * resume.  Returns 0, or -1 with a message in d. */
int run_campaign_open(run_campaign *c, const char *path, char **tests, size_t ntests, const run_grid *g,
                      const char *backend, uint64_t seed, unsigned shard, unsigned nshards, bool resume,
                      char *const *args, size_t nargs, lc_diag *d);
/* The campaign file at path, for a --resume that did not repeat what it
 * ran: its header's options (*args, *nargs; strings owned by the caller,
 * free with run_campaign_args_free) and its tests, as paths that name
 * them from here (*tests, *ntests).  0, or -1 when path has no header
 * with them (an older file, or none: nothing is taken). */
int run_campaign_resume_args(const char *path, char ***args, size_t *nargs, char ***tests, size_t *ntests);
void run_campaign_args_free(char **v, size_t n);
/* Runs of this shard still to do, in order; false when none is left. */
bool run_campaign_next(const run_campaign *c, size_t *run);
size_t run_campaign_test(const run_campaign *c, size_t run);
size_t run_campaign_point(const run_campaign *c, size_t run);
uint64_t run_campaign_seed(const run_campaign *c, size_t run);
/* Appends a finished run (result is litmus-run's JSON object, borrowed). */
int run_campaign_append(run_campaign *c, size_t run, json_t *result, lc_diag *d);
/* Appends the status line and closes; complete when every run of the
 * shard is done.  Returns 0, or -1 with a message in d. */
int run_campaign_close(run_campaign *c, lc_diag *d);
/* Runs of this shard, and how many of them are done. */
size_t run_campaign_mine(const run_campaign *c, size_t *done);

/* Merges shard files of one campaign into out (a header with shard [0,1],
 * the runs by number, the status).  Returns 0 when complete, 1 when runs
 * are missing, -1 with a message in d when the files do not belong
 * together or cannot be read. */
int run_campaign_merge(char *const *paths, size_t n, const char *out, lc_diag *d);

#endif
