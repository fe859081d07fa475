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
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <unistd.h>

#include <z3.h>

#include "isolate.h"
#include "lc.h"

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

#if defined(__SANITIZE_ADDRESS__)
#define LC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LC_ASAN 1
#endif
#endif

#ifdef LC_ASAN
/* AddressSanitizer's runtime (sanitizer/allocator_interface.h, which gcc
 * does not install): hooks on every allocation and release. */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));
size_t __sanitizer_get_allocated_size(const volatile void *p);

/* The hooks take no context, so the limit and the count are the one
 * global state outside main: in the sanitizer build only, set once per
 * child before its work begins. */
static long long asan_limit;
static _Atomic long long asan_live;   /* signed: a release of what the parent allocated counts too */

static void asan_malloc_hook(const volatile void *p, size_t size) {
  (void)p;
  if (atomic_fetch_add(&asan_live, (long long)size) + (long long)size > asan_limit) {
    static const char msg[] = "litmus-check: fatal: out of memory (--max-memory, counted in the sanitizer build)\n";
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) { /* nothing more to say */ }
    _exit(LC_EXIT_NO_MEMORY);
  }
}

static void asan_free_hook(const volatile void *p) {
  if (p) atomic_fetch_sub(&asan_live, (long long)__sanitizer_get_allocated_size(p));
}
#endif

int mem_limit_self(size_t bytes) {
  /* Z3 first: its global parameters allocate on first use, which a tight
   * limit made a C++ exception no one catches (SIGABRT) */
  char mb[32];
  snprintf(mb, sizeof mb, "%zu", bytes / (1024 * 1024));
  Z3_global_param_set("memory_max_size", mb);
#ifdef LC_ASAN
  /* RLIMIT_AS would leave ASan no room for its shadow memory; what the
   * program allocates is counted instead (from here on: what the parent
   * allocated before the fork is not) */
  asan_limit = bytes > LLONG_MAX ? LLONG_MAX : (long long)bytes;
  __sanitizer_install_malloc_and_free_hooks(asan_malloc_hook, asan_free_hook);
  return 0;
#else
  struct rlimit r;
  if (getrlimit(RLIMIT_AS, &r) < 0) return -1;
  if (r.rlim_max != RLIM_INFINITY && r.rlim_max < bytes) bytes = r.rlim_max;
  r.rlim_cur = bytes;
  return setrlimit(RLIMIT_AS, &r);
#endif
}

/* ---- a mode's work in a child process ----------------------------------------------- */

typedef struct bounded {
  int (*fn)(void *ctx, int fd);
  void *ctx;
  size_t bytes;
  lc_iso_end end;
  int status, signal, code, error;
  char *doing;          /* the last fallback's "while ..." */
} bounded;

static void bounded_run(void *ctx, size_t i, int fd) {
  (void)i;
  bounded *b = ctx;
  if (b->bytes) mem_limit_self(b->bytes);
  int status = b->fn(b->ctx, fd);
  fflush(stdout);
  fflush(stderr);
  char s[16];
  snprintf(s, sizeof s, "%d", status);
  const char *fields[] = {s};
  lc_iso_send(fd, LC_ISO_RESULT, fields, 1);
}

static void bounded_done(void *ctx, size_t i, const lc_iso_outcome *o) {
  (void)i;
  bounded *b = ctx;
  b->end = o->end;
  b->signal = o->signal;
  b->code = o->code;
  b->error = o->error;
  if (o->end == LC_ISO_DONE && o->nfields == 1 && o->fields[0]) b->status = atoi(o->fields[0]);
  else if (o->end == LC_ISO_DONE) b->end = LC_ISO_CRASHED;   /* an answer it could not have sent */
  if (o->end != LC_ISO_DONE && o->nfields >= 1 && o->fields[0]) b->doing = lc_xstrdup(o->fields[0]);
}

int mem_run_bounded(const char *program, double timeout, size_t bytes, int (*fn)(void *ctx, int fd),
                    void *ctx) {
  bounded b = {fn, ctx, bytes, LC_ISO_NOT_RUN, LC_EXIT_INTERNAL, 0, 0, 0, NULL};
  lc_iso_ops ops = {bounded_run, bounded_done};
  lc_isolate_run(1, 1, timeout > 0 ? lc_iso_hard_limit(timeout) : 0, &ops, &b);
  const char *sep = b.doing ? " " : "", *doing = b.doing ? b.doing : "";
  int status = LC_EXIT_INTERNAL;
  char size[32];
  mem_format_size(size, sizeof size, bytes);
  if (b.end == LC_ISO_DONE) status = b.status;
  else if (b.end == LC_ISO_KILLED)
    fprintf(stderr, "%s: error: out of time (--timeout %g s)%s%s\n", program, timeout, sep, doing);
  else if (b.end == LC_ISO_CRASHED && !b.signal && b.code == LC_EXIT_NO_MEMORY && bytes)
    fprintf(stderr, "%s: error: out of memory (--max-memory %s)%s%s\n", program, size, sep, doing);
  else if (b.end == LC_ISO_CRASHED && b.signal)
    fprintf(stderr, "%s: error: crashed (signal %d)%s%s\n", program, b.signal, sep, doing);
  else if (b.end == LC_ISO_CRASHED)
    fprintf(stderr, "%s: error: ended without an answer (exit status %d)%s%s\n", program, b.code, sep, doing);
  else
    fprintf(stderr, "%s: error: cannot start a process: %s\n", program, strerror(b.error));
  free(b.doing);
  return status;
}
