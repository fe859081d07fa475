/* tune.c - random search over run parameters, and config files.
 * SPDX-License-Identifier: MIT
 *
 * A random search rather than a finer optimiser: the score (weak outcomes
 * per second) is noisy and the parameters interact, and GPUHarbor and MC
 * Mutants found random search as good as anything cleverer here.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/campaign.h"
#include "atomic_file.h"
#include "run/run_report.h"
#include "run/tune.h"

static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

typedef struct axis {
  const char *name;
  const char *const *values;
  size_t n;
} axis;

static const char *const onoff[] = {"on", "off"};
static const char *const patterns[] = {"st-st", "st-ld", "ld-st", "ld-ld"};
static const char *const lines[] = {"1", "2", "4", "8", "16", "32", "64", "128", "256"};
static const char *const iters[] = {"0", "64", "256", "1024", "4096", "16384", "65536"};
static const char *const pre_iters[] = {"0", "16", "64", "256", "1024"};
static const char *const pct[] = {"25", "50", "75", "100"};
static const char *const strides[] = {"1", "2", "4", "8", "16", "32"};
static const char *const offsets[] = {"0", "1"};

#define AXIS(name, v) {name, v, LC_ARRAY_LEN(v)}
static const axis axes[] = {
  AXIS("mem-stress", onoff),        AXIS("pre-stress", onoff),          AXIS("stress-pattern", patterns),
  AXIS("stress-lines", lines),      AXIS("stress-iterations", iters),   AXIS("pre-stress-pattern", patterns),
  AXIS("pre-stress-lines", lines),  AXIS("pre-stress-iterations", pre_iters), AXIS("testing-pct", pct),
  AXIS("barrier", onoff),           AXIS("shuffle", onoff),             AXIS("stride", strides),
  AXIS("loc-offset", offsets),
};

void run_tune_draw(uint64_t seed, unsigned k, const run_params *base, run_params *par, json_t **json) {
  assert(base && par && json);
  *par = *base;
  *json = json_object();
  uint64_t s = mix(seed ^ mix((uint64_t)k + 1));
  for (size_t i = 0; i < LC_ARRAY_LEN(axes); i++) {
    s = mix(s + 0x9e3779b97f4a7c15ull);
    const char *v = axes[i].values[s % axes[i].n];
    lc_diag d;
    lc_diag_init(&d, NULL, NULL);
    run_params_set(par, axes[i].name, v, &d);   /* the values above are all valid */
    lc_diag_fini(&d);
    json_object_set_new(*json, axes[i].name, json_string(v));
  }
  if (par->loc_offset > par->stride) {
    par->loc_offset = 0;
    json_object_set_new(*json, "loc-offset", json_string("0"));
  }
}

int run_tune_write(const char *path, const char *device, const char *backend, uint64_t seed, unsigned trials,
                   double score, json_t *params, lc_diag *d) {
  char hex[24];
  snprintf(hex, sizeof hex, "0x%016" PRIx64, seed);
  json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:f, s:O}", "device", device ? device : "?", "backend", backend, "seed",
                        hex, "trials", (int)trials, "weak_per_second", score, "params", params);
  char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_printf(&b, "%s\n", text);
  int rc = lc_write_atomic(path, b.s, b.n, d);
  lc_buf_fini(&b);
  free(text);
  json_decref(o);
  return rc;
}

int run_config_load(const char *path, run_params *par, lc_diag *d) {
  assert(path && par && d);
  json_error_t err;
  json_t *o = json_load_file(path, 0, &err);
  json_t *params = o ? json_object_get(o, "params") : NULL;
  if (!json_is_object(params)) {
    lc_error(d, (lc_loc){path, o ? 0 : err.line, o ? 0 : err.column}, "%s",
             o ? "not a litmus-run config (no \"params\" object)" : err.text);
    json_decref(o);
    return -1;
  }
  const char *key;
  json_t *v;
  int rc = 0;
  json_object_foreach(params, key, v) {
    if (!json_is_string(v)) {
      lc_error(d, (lc_loc){path, 0, 0}, "params: %s is not a string", key);
      rc = -1;
      break;
    }
    if (run_params_set(par, key, json_string_value(v), d) < 0) {
      rc = -1;
      break;
    }
  }
  json_decref(o);
  return rc;
}
