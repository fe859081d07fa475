/* memory.c - litmus-check's --max-memory.
 * SPDX-License-Identifier: MIT
 *
 * Why an address-space limit (setrlimit RLIMIT_AS) in the child process
 * that checks a test, rather than counting allocations: every allocator
 * in the process (ours, Z3's C++ new, jansson's) fails past it, so no
 * component can grow unbounded, and the parent, which outlives the child,
 * reports the test as out of memory and goes on with the batch.
 */
#define _DEFAULT_SOURCE
#include "cli/memory.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include <z3.h>

enum { MIN_MB = 16 };

int mem_parse_size(const char *s, size_t *bytes) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || !(v >= 0)) return -1;
  double unit = 1;
  switch (*end) {
  case 'k': case 'K': unit = 1024.0, end++; break;
  case 'm': case 'M': unit = 1024.0 * 1024, end++; break;
  case 'g': case 'G': unit = 1024.0 * 1024 * 1024, end++; break;
  case 't': case 'T': unit = 1024.0 * 1024 * 1024 * 1024, end++; break;
  default: break;
  }
  if (strcasecmp(end, "ib") == 0 && unit > 1) end += 2;
  else if (strcasecmp(end, "b") == 0) end++;
  if (*end) return -1;
  double b = floor(v * unit);
  if (b < MIN_MB * 1024.0 * 1024 || b >= (double)SIZE_MAX) return -1;
  *bytes = (size_t)b;
  return 0;
}

size_t mem_default_limit(unsigned jobs) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || size <= 0) return 0;
  double half = (double)pages * (double)size / 2 / (jobs ? jobs : 1);
  double least = MIN_MB * 1024.0 * 1024;
  return (size_t)(half > least ? half : least);
}

void mem_format_size(char *buf, size_t len, size_t bytes) {
  static const char units[] = "KMGT";
  int u = -1;
  while (u < 3 && bytes % 1024 == 0 && bytes >= 1024) bytes /= 1024, u++;
  if (u < 0) snprintf(buf, len, "%zu", bytes);
  else snprintf(buf, len, "%zu%c", bytes, units[u]);
}

int mem_limit_self(size_t bytes) {
  struct rlimit r;
  if (getrlimit(RLIMIT_AS, &r) < 0) return -1;
  if (r.rlim_max != RLIM_INFINITY && r.rlim_max < bytes) bytes = r.rlim_max;
  r.rlim_cur = bytes;
  if (setrlimit(RLIMIT_AS, &r) < 0) return -1;
  char mb[32];
  snprintf(mb, sizeof mb, "%zu", bytes / (1024 * 1024));
  Z3_global_param_set("memory_max_size", mb);
  return 0;
}
