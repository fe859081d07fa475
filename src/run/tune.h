/* tune.h - litmus-run --tune: a seeded random search over the stress and
 * placement parameters, scored by weak behaviours per second; the best
 * goes to a per-device config file that --config loads.
 * SPDX-License-Identifier: MIT
 */
#ifndef RUN_TUNE_H
#define RUN_TUNE_H

#include <jansson.h>

#include "lc.h"
#include "run/run.h"

/* The parameters of trial k of a search seeded with seed, over base: the
 * draws depend on (seed, k) only.  Their text form (option name -> value)
 * goes to *json (caller owns). */
void run_tune_draw(uint64_t seed, unsigned k, const run_params *base, run_params *par, json_t **json);

/* Writes the config: {"device":..,"backend":..,"seed":..,"trials":N,
 * "score":S,"params":{..}}, atomically.  -1 with a message in d. */
int run_tune_write(const char *path, const char *device, const char *backend, uint64_t seed, unsigned trials,
                   double score, json_t *params, lc_diag *d);

/* Applies a config file's "params" to par.  -1 with a message in d. */
int run_config_load(const char *path, run_params *par, lc_diag *d);

#endif
