/* mock-libcuda.c - a stand-in libcuda.so.1 for machines without a GPU, so
 * that tests can drive litmus-run's runner through its dlopen'd driver
 * path: host memory for device memory, and "launches" that check the
 * parameter block the runner built instead of running kernels.
 * SPDX-License-Identifier: MIT
 *
 * cu_test launches check the grid against the block and that every role
 * maps the testing threads one to one onto the instances (cu_map.h, the
 * code the real kernel runs).  cu_classify launches count every instance
 * in dense bin 0 (or the out-of-domain table when there are no dense
 * bins), and record instance 0 as a sample when that bin is forbidden, so
 * the runner's collection can be checked against what it launched.  Generic aliases get two real views of one
 * memory file, as cuMemMap gives on a GPU.
 *
 * The environment picks a broken machine: MOCK_CUDA_NO_DEVICE=1 has cuInit
 * find no device, MOCK_CUDA_FAIL=NAME makes the entry point NAME (one of
 * those marked FAILS below) reject its call, and MOCK_CUDA_SM sets the
 * compute capability (default 90).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuda/cu_driver.h"
#include "cuda/cu_map.h"

#define API __attribute__((visibility("default")))

enum { ERR_INVALID_VALUE = 1, ERR_LAUNCH_FAILED = 719, ERR_NOT_FOUND = 500 };

/* The entry points the runner resolves. */
API cu_result cuInit(unsigned flags);
API cu_result cuDriverGetVersion(int *v);
API cu_result cuGetErrorName(cu_result r, const char **s);
API cu_result cuGetErrorString(cu_result r, const char **s);
API cu_result cuDeviceGetCount(int *n);
API cu_result cuDeviceGet(cu_device *d, int ordinal);
API cu_result cuDeviceGetName(char *name, int len, cu_device d);
API cu_result cuDeviceGetAttribute(int *v, int attr, cu_device d);
API cu_result cuDevicePrimaryCtxRetain(cu_context *c, cu_device d);
API cu_result cuDevicePrimaryCtxRelease_v2(cu_device d);
API cu_result cuCtxSetCurrent(cu_context c);
API cu_result cuCtxSynchronize(void);
API cu_result cuModuleLoadData(cu_module *m, const void *image);
API cu_result cuModuleUnload(cu_module m);
API cu_result cuModuleGetFunction(cu_function *f, cu_module m, const char *name);
API cu_result cuMemGetInfo_v2(size_t *free_b, size_t *total_b);
API cu_result cuMemAlloc_v2(cu_devptr *p, size_t n);
API cu_result cuMemFree_v2(cu_devptr p);
API cu_result cuMemcpyHtoD_v2(cu_devptr dst, const void *src, size_t n);
API cu_result cuMemcpyDtoH_v2(void *dst, cu_devptr src, size_t n);
API cu_result cuMemsetD8_v2(cu_devptr dst, unsigned char v, size_t n);
API cu_result cuLaunchKernel(cu_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned shared, cu_stream s, void **params, void **extra);
API cu_result cuLaunchKernelEx(const cu_launch_config *c, cu_function f, void **params, void **extra);
API cu_result cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, cu_function f, int block, size_t shared);
API cu_result cuFuncSetAttribute(cu_function f, int attr, int v);
API cu_result cuMemGetAllocationGranularity(size_t *g, const cu_mem_prop *p, int option);
API cu_result cuMemCreate(cu_mem_handle *h, size_t size, const cu_mem_prop *p, unsigned long long flags);
API cu_result cuMemRelease(cu_mem_handle h);
API cu_result cuMemAddressReserve(cu_devptr *p, size_t size, size_t align, cu_devptr addr, unsigned long long flags);
API cu_result cuMemAddressFree(cu_devptr p, size_t size);
API cu_result cuMemMap(cu_devptr p, size_t size, size_t off, cu_mem_handle h, unsigned long long flags);
API cu_result cuMemUnmap(cu_devptr p, size_t size);
API cu_result cuMemSetAccess(cu_devptr p, size_t size, const cu_mem_access *d, size_t n);
/* NVRTC looks this one up in whatever libcuda.so.1 is loaded; no tables here. */
API cu_result cuGetExportTable(const void **table, const void *id);

static struct cu_func_st { int which; } f_test = {1}, f_classify = {2};
static struct cu_mod_st { int dummy; } module;
static struct cu_ctx_st { int dummy; } context;

cu_result cuGetExportTable(const void **table, const void *id) {
  *table = NULL;
  (void)id;
  return 801;   /* CUDA_ERROR_NOT_SUPPORTED */
}

/* Whether MOCK_CUDA_FAIL names this entry point. */
static bool fails(const char *name) {
  const char *f = getenv("MOCK_CUDA_FAIL");
  return f && strcmp(f, name) == 0;
}
#define FAILS(name) do { if (fails(name)) return ERR_INVALID_VALUE; } while (0)

cu_result cuInit(unsigned flags) {
  if (getenv("MOCK_CUDA_NO_DEVICE")) return 100;   /* CUDA_ERROR_NO_DEVICE */
  FAILS("cuInit");
  return flags ? ERR_INVALID_VALUE : 0;
}
cu_result cuDriverGetVersion(int *v) { *v = 13000; return 0; }
cu_result cuGetErrorName(cu_result r, const char **s) {
  *s = r == ERR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_MOCK";
  return 0;
}
cu_result cuGetErrorString(cu_result r, const char **s) { *s = r ? "the mock driver rejected the call" : "no error"; return 0; }
cu_result cuDeviceGetCount(int *n) {
  FAILS("cuDeviceGetCount");
  *n = 1;
  return 0;
}
cu_result cuDeviceGet(cu_device *d, int ordinal) { *d = ordinal; return ordinal == 0 ? 0 : ERR_INVALID_VALUE; }
cu_result cuDeviceGetName(char *name, int len, cu_device d) { snprintf(name, (size_t)len, "Mock GPU %d", d); return 0; }

cu_result cuDeviceGetAttribute(int *v, int attr, cu_device d) {
  switch (attr) {
  case CU_ATTR_MAX_THREADS_PER_BLOCK: *v = 1024; break;
  case CU_ATTR_MAX_SHARED_PER_BLOCK: *v = 48 * 1024; break;
  case CU_ATTR_SM_COUNT: *v = 4; break;
  case CU_ATTR_MAX_THREADS_PER_SM: *v = 2048; break;
  case CU_ATTR_CC_MAJOR: *v = getenv("MOCK_CUDA_SM") ? atoi(getenv("MOCK_CUDA_SM")) / 10 : 9; break;
  case CU_ATTR_CC_MINOR: *v = getenv("MOCK_CUDA_SM") ? atoi(getenv("MOCK_CUDA_SM")) % 10 : 0; break;
  case CU_ATTR_VMM: case CU_ATTR_CLUSTER_LAUNCH: *v = 1; break;
  default: *v = 0; break;
  }
  (void)d;
  return 0;
}

cu_result cuDevicePrimaryCtxRetain(cu_context *c, cu_device d) { *c = &context; (void)d; return 0; }
cu_result cuDevicePrimaryCtxRelease_v2(cu_device d) { (void)d; return 0; }
cu_result cuCtxSetCurrent(cu_context c) { return c == &context ? 0 : ERR_INVALID_VALUE; }
static void sim_synchronized(void);
/* Everything launched so far is done: no wait is needed for it. */
cu_result cuCtxSynchronize(void) {
  FAILS("cuCtxSynchronize");
  sim_synchronized();
  return 0;
}
cu_result cuModuleLoadData(cu_module *m, const void *image) {
  FAILS("cuModuleLoadData");
  *m = &module;
  return image ? 0 : ERR_INVALID_VALUE;
}
cu_result cuModuleUnload(cu_module m) { return m == &module ? 0 : ERR_INVALID_VALUE; }

cu_result cuModuleGetFunction(cu_function *f, cu_module m, const char *name) {
  if (m != &module) return ERR_INVALID_VALUE;
  if (strcmp(name, "cu_test") == 0 || strncmp(name, "cu_test_r", 9) == 0) *f = &f_test;
  else if (strcmp(name, "cu_classify") == 0) *f = &f_classify;
  else return ERR_NOT_FOUND;
  return 0;
}

cu_result cuMemGetInfo_v2(size_t *free_b, size_t *total_b) {
  FAILS("cuMemGetInfo_v2");
  *free_b = *total_b = (size_t)1 << 30;
  return 0;
}
cu_result cuMemAlloc_v2(cu_devptr *p, size_t n) { *p = (cu_devptr)(uintptr_t)calloc(1, n); return *p ? 0 : 2; }
cu_result cuMemFree_v2(cu_devptr p) { free((void *)(uintptr_t)p); return 0; }
cu_result cuMemcpyHtoD_v2(cu_devptr dst, const void *src, size_t n) { memcpy((void *)(uintptr_t)dst, src, n); return 0; }
cu_result cuMemcpyDtoH_v2(void *dst, cu_devptr src, size_t n) {
  FAILS("cuMemcpyDtoH_v2");
  memcpy(dst, (void *)(uintptr_t)src, n);
  return 0;
}
cu_result cuMemsetD8_v2(cu_devptr dst, unsigned char v, size_t n) { memset((void *)(uintptr_t)dst, v, n); return 0; }
cu_result cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, cu_function f, int block, size_t shared) {
  *n = 2048 / block;
  (void)f, (void)shared;
  return 0;
}
cu_result cuFuncSetAttribute(cu_function f, int attr, int v) { (void)f, (void)attr, (void)v; return 0; }
/* Clusters fit on 3 of the 4 SMs' worth of CTAs, as when clusters must
 * stay in a GPC. */
API cu_result cuOccupancyMaxActiveClusters(int *n, cu_function f, const cu_launch_config *c);
cu_result cuOccupancyMaxActiveClusters(int *n, cu_function f, const cu_launch_config *c) {
  (void)f;
  unsigned cs = c->nattrs == 1 ? c->attrs[0].value.cluster_dim.x : 1;
  *n = (int)(3 * (2048 / c->block_x) / cs);
  return 0;
}

/* ---- launches ----------------------------------------------------------------------- */

static int fail(const char *what) {
  fprintf(stderr, "mock libcuda: %s\n", what);
  return ERR_LAUNCH_FAILED;
}

/* The loop bounds of the last test launch (mock_loop_bounds). */
static cu_u32 seen_spin_limit;
static cu_u64 seen_watchdog_ns;

static cu_result check_test(const cu_launch *P, unsigned grid, unsigned block, unsigned cluster) {
  if (grid != P->nctas || block != P->T || cluster != P->cs) return fail("cu_test: grid, block or cluster size");
  /* resident at once: 4 SMs x 2048 threads, clusters on 3 SMs' worth */
  unsigned resident = cluster > 1 ? 3 * (2048 / block) / cluster * cluster : 4 * (2048 / block);
  if (grid > resident) return fail("cu_test: a grid that cannot be resident at once");
  if (P->ninst != P->ntest_clusters * P->cs * P->T) return fail("cu_test: ninst");
  seen_spin_limit = P->spin_limit;
  seen_watchdog_ns = P->watchdog_ns;
  /* what the kernel's first thread of each CTA records: its SM (4 SMs) */
  for (cu_u32 b = 0; b < P->nctas; b++) ((cu_u32 *)(uintptr_t)P->ctasm)[b] = b % 4;
  char *seen = calloc(P->ninst, 1);
  int bad = 0;
  for (cu_u32 k = 0; k < P->nroles && !bad; k++) {
    memset(seen, 0, P->ninst);
    for (cu_u32 b = 0; b < P->nctas; b++) {
      cu_u32 B;
      if (!cu_logical_cta(P, b, &B)) continue;
      for (cu_u32 lane = 0; lane < P->T; lane++) {
        cu_u32 i = cu_role_instance(P, k, B, lane);
        bad |= i >= P->ninst || seen[i];
        if (i < P->ninst) seen[i] = 1;
      }
    }
  }
  free(seen);
  return bad ? fail("cu_test: a role does not map threads one to one onto instances") : 0;
}

/* Instance 0 of the launch as a forbidden sample, laid out as cu_forbidden
 * (cu_gen.c) writes it. */
static void record_sample(const cu_launch *P) {
  uint64_t *cnt = (uint64_t *)(uintptr_t)P->counters;
  uint64_t k = cnt[CU_CNT_SAMPLED]++;
  if (k >= P->max_samples) return;
  uint64_t *rec = (uint64_t *)(uintptr_t)P->samples + k * cu_sample_words(P->nshown, P->nroles);
  cu_i64 v[CU_MAX_SHOWN];
  cu_dense_values(P, (const cu_i64 *)(uintptr_t)P->dom, 0, P->nshown, v);
  rec[0] = P->iteration;
  rec[1] = 0;
  for (cu_u32 j = 0; j < P->nshown; j++) rec[2 + j] = (uint64_t)v[j];
  for (cu_u32 r = 0; r < P->nroles; r++) {
    cu_u32 B, lane;
    cu_role_thread(P, r, 0, &B, &lane);
    cu_u32 cta = cu_physical_cta(P, B), sm = ((const cu_u32 *)(uintptr_t)P->ctasm)[cta];
    rec[2 + P->nshown + r] = ((uint64_t)cta << 32) | ((uint64_t)sm << 16) | lane;
  }
}

/* ---- streams and events: the order the runner's events impose ----------------------
 * Launches run at once, in call order; what is checked is that the
 * runner's waits make that order the only possible one on a GPU: a test
 * launch on an output set that was classified before waits for an event
 * recorded after that classify step, and a classify step waits for an
 * event recorded after the test launch of its set. */
typedef struct mark { int kind; uintptr_t set; unsigned long seq; } mark;   /* kind 1 test, 2 classify */
enum { MAX_SETS = 4, MAX_WAITS = 8 };
static struct {
  unsigned long seq;
  mark last[3];                  /* per stream (0: the NULL stream): its last launch */
  mark waited[3][MAX_WAITS];     /* per stream: marks waited for since its last launch */
  int nwaited[3];
  uintptr_t sets[MAX_SETS];
  unsigned long tested[MAX_SETS], classified[MAX_SETS];
  int nsets;
  unsigned overlapped;           /* test launches on a stream of their own */
} sim;
static char streams[2], events[4];

API cu_result cuStreamCreate(cu_stream *s, unsigned flags);
API cu_result cuStreamDestroy_v2(cu_stream s);
API cu_result cuEventCreate(cu_event *e, unsigned flags);
API cu_result cuEventDestroy_v2(cu_event e);
API cu_result cuEventRecord(cu_event e, cu_stream s);
API cu_result cuStreamWaitEvent(cu_stream s, cu_event e, unsigned flags);
API unsigned mock_overlapped_tests(void);
API void mock_loop_bounds(unsigned *spin_limit, unsigned long long *watchdog_ns);
API void mock_cluster_launches(unsigned long *n, unsigned *dim);

static int stream_index(cu_stream s) {
  return !s ? 0 : (char *)s == &streams[0] ? 1 : (char *)s == &streams[1] ? 2 : -1;
}
static mark recorded[4];
static int nstream_made, nevent_made;

cu_result cuStreamCreate(cu_stream *s, unsigned flags) {
  (void)flags;
  if (nstream_made >= 2) nstream_made = 0;
  *s = (cu_stream)(void *)&streams[nstream_made++];
  return 0;
}
cu_result cuStreamDestroy_v2(cu_stream s) { return stream_index(s) > 0 ? 0 : ERR_INVALID_VALUE; }
cu_result cuEventCreate(cu_event *e, unsigned flags) {
  (void)flags;
  if (nevent_made >= 4) nevent_made = 0;
  *e = (cu_event)(void *)&events[nevent_made++];
  return 0;
}
cu_result cuEventDestroy_v2(cu_event e) { (void)e; return 0; }
cu_result cuEventRecord(cu_event e, cu_stream s) {
  int i = stream_index(s);
  if (i < 0) return fail("cuEventRecord: not a stream");
  recorded[(char *)e - events] = sim.last[i];
  return 0;
}
cu_result cuStreamWaitEvent(cu_stream s, cu_event e, unsigned flags) {
  int i = stream_index(s);
  (void)flags;
  if (i < 0 || sim.nwaited[i] >= MAX_WAITS) return fail("cuStreamWaitEvent");
  sim.waited[i][sim.nwaited[i]++] = recorded[(char *)e - events];
  return 0;
}
unsigned mock_overlapped_tests(void) { return sim.overlapped; }

/* The loop bounds of the last test launch. */
void mock_loop_bounds(unsigned *spin_limit, unsigned long long *watchdog_ns) {
  *spin_limit = seen_spin_limit;
  *watchdog_ns = seen_watchdog_ns;
}

/* Test launches through cuLaunchKernelEx, and the last one's cluster size. */
static unsigned long ex_launches;
static unsigned ex_cluster;

void mock_cluster_launches(unsigned long *n, unsigned *dim) {
  *n = ex_launches;
  *dim = ex_cluster;
}

static void sim_synchronized(void) {
  unsigned overlapped = sim.overlapped;
  unsigned long seq = sim.seq;
  memset(&sim, 0, sizeof sim);
  sim.overlapped = overlapped;
  sim.seq = seq;
}

static int set_index(uintptr_t set) {
  for (int i = 0; i < sim.nsets; i++)
    if (sim.sets[i] == set) return i;
  if (sim.nsets == MAX_SETS) return -1;
  sim.sets[sim.nsets] = set;
  sim.tested[sim.nsets] = sim.classified[sim.nsets] = 0;
  return sim.nsets++;
}

static bool waited_for(int st, int kind, uintptr_t set, unsigned long seq) {
  for (int i = 0; i < sim.nwaited[st]; i++)
    if (sim.waited[st][i].kind == kind && sim.waited[st][i].set == set && sim.waited[st][i].seq >= seq) return true;
  return false;
}

/* Checks a launch on stream s against the order, then notes it. */
static cu_result order(cu_stream s, int kind, const cu_launch *P) {
  int st = stream_index(s), k = set_index((uintptr_t)P->regs ^ (uintptr_t)P->sync);
  if (st < 0 || k < 0) return fail("launch on an unknown stream, or too many output sets");
  unsigned long seq = ++sim.seq;
  if (st > 0 && kind == 1) {
    sim.overlapped++;
    if (sim.classified[k] && !waited_for(st, 2, sim.sets[k], sim.classified[k]))
      return fail("a test launch may overwrite outputs its set's classify step has not read");
  }
  if (st > 0 && kind == 2 && P->phase && !waited_for(st, 1, sim.sets[k], sim.tested[k]))
    return fail("a classify step may run before the test launch of its set");
  if (kind == 1) sim.tested[k] = seq;
  else sim.classified[k] = seq;
  sim.last[st] = (mark){kind, sim.sets[k], seq};
  sim.nwaited[st] = 0;
  return 0;
}

/* With MOCK_CUDA_CUT set, each launch has one instance cut by the
 * deadline and one beyond the unroll bound (all values 7, under the salted
 * key), as cu_classify would count them. */
static cu_u32 mock_cut(const cu_launch *P) {
  if (!getenv("MOCK_CUDA_CUT")) return 0;
  uint64_t *cnt = (uint64_t *)(uintptr_t)P->counters;
  cnt[CU_CNT_CUT]++;
  cnt[CU_CNT_LATE]++;
  uint64_t *e = (uint64_t *)(uintptr_t)P->hash + (uint64_t)(P->hash_cap - 1) * cu_hash_entry_words(P->nshown);
  cu_i64 v[CU_MAX_SHOWN];
  for (cu_u32 j = 0; j < P->nshown; j++) v[j] = e[2 + j] = 7;
  e[0] = cu_outcome_hash(v, P->nshown) ^ CU_BEYOND_SALT;
  e[1]++;
  cnt[CU_CNT_HASHED]++;
  return 2;
}

static cu_result classify(const cu_launch *P) {
  if (P->phase == 0) return 0;
  uint64_t *cnt = (uint64_t *)(uintptr_t)P->counters;
  cu_u32 apart = mock_cut(P);
  if (P->ndense) {
    ((uint64_t *)(uintptr_t)P->hist)[0] += P->ninst - apart;
    if (P->judge && !cu_bit((const cu_u32 *)(uintptr_t)P->allowed, 0)) record_sample(P);
    return 0;
  }
  /* no dense bins: one out-of-domain outcome, all values 7 */
  uint64_t *e = (uint64_t *)(uintptr_t)P->hash;
  cu_i64 v[CU_MAX_SHOWN];
  for (cu_u32 j = 0; j < P->nshown; j++) v[j] = 7;
  e[0] = cu_outcome_hash(v, P->nshown);
  e[1] += P->ninst - apart;
  for (cu_u32 j = 0; j < P->nshown; j++) e[2 + j] = 7;
  cnt[CU_CNT_HASHED] += P->ninst - apart;
  return 0;
}

cu_result cuLaunchKernel(cu_function f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                         unsigned bz, unsigned shared, cu_stream s, void **params, void **extra) {
  const cu_launch *P = params[0];
  if (gy != 1 || gz != 1 || by != 1 || bz != 1 || extra) return fail("launch shape");
  (void)shared;
  cu_result r = order(s, f == &f_test ? 1 : 2, P);
  if (r) return r;
  return f == &f_test ? check_test(P, gx, bx, 1) : classify(P);
}

cu_result cuLaunchKernelEx(const cu_launch_config *c, cu_function f, void **params, void **extra) {
  if (c->nattrs != 1 || c->attrs[0].id != CU_LAUNCH_ATTR_CLUSTER_DIM || f != &f_test || extra)
    return fail("cluster launch");
  const cu_launch *P = params[0];
  if (c->grid_x % c->attrs[0].value.cluster_dim.x) return fail("grid not a multiple of the cluster");
  ex_launches++;
  ex_cluster = c->attrs[0].value.cluster_dim.x;
  cu_result r = order(c->stream, 1, P);
  if (r) return r;
  return check_test(P, c->grid_x, c->block_x, c->attrs[0].value.cluster_dim.x);
}

/* ---- virtual memory: one memory file mapped twice ------------------------------------ */

cu_result cuMemGetAllocationGranularity(size_t *g, const cu_mem_prop *p, int option) {
  *g = (size_t)sysconf(_SC_PAGESIZE);
  (void)p, (void)option;
  return 0;
}

cu_result cuMemCreate(cu_mem_handle *h, size_t size, const cu_mem_prop *p, unsigned long long flags) {
  int fd = memfd_create("mock-cuda", 0);
  if (fd < 0 || ftruncate(fd, (off_t)size) < 0) return 2;
  *h = (cu_mem_handle)fd + 1;
  (void)p, (void)flags;
  return 0;
}

cu_result cuMemRelease(cu_mem_handle h) { return close((int)h - 1) == 0 ? 0 : ERR_INVALID_VALUE; }

cu_result cuMemAddressReserve(cu_devptr *p, size_t size, size_t align, cu_devptr addr, unsigned long long flags) {
  void *m = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return 2;
  *p = (cu_devptr)(uintptr_t)m;
  (void)align, (void)addr, (void)flags;
  return 0;
}

cu_result cuMemAddressFree(cu_devptr p, size_t size) { return munmap((void *)(uintptr_t)p, size) ? 1 : 0; }

cu_result cuMemMap(cu_devptr p, size_t size, size_t off, cu_mem_handle h, unsigned long long flags) {
  void *m = mmap((void *)(uintptr_t)p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, (int)h - 1, (off_t)off);
  (void)flags;
  return m == MAP_FAILED ? 2 : 0;
}

cu_result cuMemUnmap(cu_devptr p, size_t size) {
  void *m = mmap((void *)(uintptr_t)p, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  return m == MAP_FAILED ? 1 : 0;
}

cu_result cuMemSetAccess(cu_devptr p, size_t size, const cu_mem_access *d, size_t n) {
  (void)p, (void)size;
  return n == 1 && d->flags == 3 ? 0 : ERR_INVALID_VALUE;
}
