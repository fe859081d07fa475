/* cu_run.c - a litmus test on the GPU: plan, compile with NVRTC, launch
 * through the driver API, count outcomes on the device, collect.
 * SPDX-License-Identifier: MIT
 *
 * One iteration is two launches on the default stream: cu_test (every
 * testing thread plays every role) and cu_classify (counts each instance's
 * outcome and resets its locations).  The histogram stays on the device
 * until the end; the host only waits now and then to watch the clock, so
 * there is no per-instance host traffic.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cu_driver.h"
#include "cuda/cu_int.h"

enum {
  DEFAULT_T = 256,
  DEFAULT_ITERATIONS = 1000,
  DEFAULT_STRESS_LINES = 64,
  DEFAULT_STRESS_ITERS = 128,
  HASH_CAP = 4096,
  SHARED_HIST_MAX = 8192,
  BARRIER_SPINS = 1 << 20,
  /* A role that waits for one played later by its own thread spins until
   * the limit: keep that short (the model's loops need a few iterations) */
  DEFAULT_SPIN_LIMIT = 65536,
  MAX_CLUSTER = 8
};

enum { B_MEM, B_REGS, B_FIN, B_CUT, B_SCRATCH, B_SYNC, B_HIST, B_ALLOWED, B_DOM, B_HASH, B_SAMPLES, B_COUNTERS,
       B_CTASM, NBUF };

typedef struct runner {
  const lx_program *p;
  run_params par;               /* with defaults filled in */
  const lc_result *allowed;
  run_result *out;
  lc_diag *d;
  cu_plan *pl;
  cu_driver *drv;
  cu_nvrtc *rtc;
  cu_device dev;
  bool ctx_held;
  cu_module mod;
  cu_function ftest[CU_MAX_ROTATIONS], fclassify;
  int nrot;                     /* copies of the test kernel (role orders) */
  int sm, nsm, max_block, max_shared, cluster_launch, vmm;
  char name[256];
  cu_devptr buf[NBUF];
  size_t size[NBUF];
  /* Overlap: the classify kernel of launch t runs on a stream of its own
   * while launch t+1 tests, so each launch's outputs (and locations, spin
   * barrier, SM records) come in two sets used in turn. */
  bool overlap;
  cu_devptr buf2[NBUF];         /* the second set (B_MEM, B_REGS, B_FIN, B_CUT, B_SYNC, B_CTASM) */
  cu_stream st[2];              /* tests, classify */
  cu_event tested[2], classified[2];   /* per set */
  cu_mem_handle vmm_handle;     /* mem as two views of one allocation (generic aliases) */
  cu_devptr vmm_va;
  size_t vmm_size;
  cu_shape shape;
  cu_launch P;
  cu_domains dm;
  size_t test_shared, cls_shared;
  unsigned cls_grid, cls_block;
  uint64_t iterations;
} runner;

#define CHECK(R, call, what) cu_check((R)->drv, (call), (what), (R)->d)

/* ---- parameters ------------------------------------------------------------------- */

static void fill_defaults(run_params *q, const run_params *par) {
  *q = *par;
  if (!q->threads_per_cta) q->threads_per_cta = DEFAULT_T;
  if (!q->stride) q->stride = 1;
  if (!q->stress_lines) q->stress_lines = DEFAULT_STRESS_LINES;
  if (!q->pre_stress_lines) q->pre_stress_lines = DEFAULT_STRESS_LINES;
  if (q->loc_offset > q->stride) q->loc_offset = q->stride;
  q->pre_stress_pattern &= 3;
  if (!q->stress_iterations) q->stress_iterations = DEFAULT_STRESS_ITERS;
  /* memory stress needs stressing CTAs: 100% testing would leave none */
  if (!q->testing_pct || q->testing_pct >= 100) q->testing_pct = q->mem_stress ? 50 : 100;
  if (!q->mem_stress) q->testing_pct = 100;
  q->stress_pattern &= 3;
  if (!q->spin_limit) q->spin_limit = DEFAULT_SPIN_LIMIT;
  if (!(q->watchdog > 0)) q->watchdog = RUN_DEFAULT_WATCHDOG;
}

/* mbarriers and bulk copies need every instance's slot 16-byte aligned
 * and as large as the largest copy, in global and shared memory: the
 * stride grows to that, and the locations of an instance stay apart. */
static void fit_slots(runner *R) {
  unsigned words = (unsigned)R->pl->slot_bytes / (unsigned)(R->pl->width / 8);
  if (!words) return;
  R->par.stride = (R->par.stride + words - 1) / words * words;
  R->par.loc_offset = 0;
}

/* ---- the device ----------------------------------------------------------------------- */

static int attr(runner *R, int which, int *v) {
  return CHECK(R, R->drv->DeviceGetAttribute(v, which, R->dev), "cuDeviceGetAttribute");
}

static run_status open_device(runner *R) {
  cu_result r = R->drv->Init(0);
  if (r == CU_ERR_NO_DEVICE) {
    lc_error(R->d, (lc_loc){0}, "no CUDA device found: litmus-run needs an NVIDIA GPU; --backend host runs the "
                                "test on CPU threads");
    return RUN_CANNOT;
  }
  if (CHECK(R, r, "cuInit") < 0) return RUN_CANNOT;
  int n = 0;
  if (CHECK(R, R->drv->DeviceGetCount(&n), "cuDeviceGetCount") < 0) return RUN_FAILED;
  if (R->par.device < 0 || R->par.device >= n) {
    lc_error(R->d, (lc_loc){0}, "CUDA device %d does not exist (%d found)", R->par.device, n);
    return RUN_CANNOT;
  }
  int major = 0, minor = 0;
  if (CHECK(R, R->drv->DeviceGet(&R->dev, R->par.device), "cuDeviceGet") < 0 ||
      CHECK(R, R->drv->DeviceGetName(R->name, (int)sizeof R->name, R->dev), "cuDeviceGetName") < 0 ||
      attr(R, CU_ATTR_CC_MAJOR, &major) < 0 || attr(R, CU_ATTR_CC_MINOR, &minor) < 0 ||
      attr(R, CU_ATTR_SM_COUNT, &R->nsm) < 0 || attr(R, CU_ATTR_MAX_THREADS_PER_BLOCK, &R->max_block) < 0 ||
      attr(R, CU_ATTR_MAX_SHARED_PER_BLOCK, &R->max_shared) < 0)
    return RUN_FAILED;
  R->sm = major * 10 + minor;
  if (major >= 9) attr(R, CU_ATTR_CLUSTER_LAUNCH, &R->cluster_launch);
  if (R->drv->MemCreate && R->drv->DeviceGetAttribute(&R->vmm, CU_ATTR_VMM, R->dev) != 0) R->vmm = 0;
  return RUN_OK;
}

/* ---- what the device can give the test -------------------------------------------- */

static run_status check_fit(runner *R) {
  const cu_plan *pl = R->pl;
  if (R->sm < 75) {
    lc_error(R->d, (lc_loc){0}, "%s is sm_%d; litmus-run needs sm_75 or later", R->name, R->sm);
    return RUN_CANNOT;
  }
  if (pl->sm90_at && R->sm < 90) {
    lc_error(R->d, pl->sm90_at->at, "P%d: '%s' needs sm_90; %s is sm_%d", pl->sm90_thread,
             pl->sm90_at->mnemonic ? pl->sm90_at->mnemonic : "this instruction", R->name, R->sm);
    return RUN_CANNOT;
  }
  if (pl->min_sm > R->sm) {
    lc_error(R->d, (lc_loc){0}, "the test has .cluster scope, which needs sm_%d; %s is sm_%d", pl->min_sm,
             R->name, R->sm);
    return RUN_CANNOT;
  }
  if (pl->cluster_bars && pl->ctas_per_cl > 1 && !(R->cluster_launch && R->drv->LaunchKernelEx)) {
    lc_error(R->d, (lc_loc){0}, "the test has cluster barriers or distributed shared memory, which need its "
                                "CTAs in one cluster; %s or its driver cannot launch clusters", R->name);
    return RUN_CANNOT;
  }
  if (pl->alias && !R->vmm) {
    lc_error(R->d, (lc_loc){0}, "the test has a generic alias, which needs the CUDA virtual memory "
                                "management API; %s or its driver does not offer it", R->name);
    return RUN_CANNOT;
  }
  if (pl->ctas_per_cl > MAX_CLUSTER) {
    lc_error(R->d, (lc_loc){0}, "the test puts %d CTAs in one cluster; litmus-run launches clusters of at "
                                "most %d", pl->ctas_per_cl, MAX_CLUSTER);
    return RUN_CANNOT;
  }
  if ((int)R->par.threads_per_cta % 32 || (int)R->par.threads_per_cta > R->max_block ||
      (int)R->par.threads_per_cta < pl->roles_per_cta) {
    lc_error(R->d, (lc_loc){0}, "%u threads per CTA: need a multiple of 32 between %d and %d",
             R->par.threads_per_cta, pl->roles_per_cta, R->max_block);
    return RUN_CANNOT;
  }
  return RUN_OK;
}

/* Placements the device cannot give run in the nearest narrower one:
 * more scopes then include both threads, which only removes behaviours. */
static void note_placement(runner *R) {
  const cu_plan *pl = R->pl;
  if (pl->multi_gpu)
    run_result_note(R->out, "threads written on different GPUs run on one GPU, in different clusters "
                            "(a narrower placement: it only removes behaviours)");
  if (pl->ctas_per_cl > 1 && !(R->cluster_launch && R->drv->LaunchKernelEx))
    run_result_note(R->out, "%s cannot launch clusters: CTAs written in one cluster run as CTAs of "
                            "different clusters, which no instruction of this test can tell apart "
                            "(none has .cluster scope)", R->name);
}

static unsigned cluster_size(const runner *R) {
  if (R->pl->ctas_per_cl > 1 && R->cluster_launch && R->drv->LaunchKernelEx) return (unsigned)R->pl->ctas_per_cl;
  return 1;
}

/* ---- compiling and loading ------------------------------------------------------------ */

static run_status build(runner *R) {
  lc_buf src;
  lc_buf_init(&src);
  cu_gen(&src, R->pl);
  R->rtc = cu_nvrtc_open(R->d);
  if (!R->rtc) {
    lc_buf_fini(&src);
    return RUN_CANNOT;
  }
  char *image = NULL;
  size_t size = 0;
  int rc = cu_nvrtc_compile(R->rtc, src.s, "litmus.cu", R->sm, false, &image, &size, R->d);
  lc_buf_fini(&src);
  if (rc < 0) return RUN_FAILED;
  cu_context ctx;
  rc = CHECK(R, R->drv->DevicePrimaryCtxRetain(&ctx, R->dev), "cuDevicePrimaryCtxRetain");
  if (rc == 0) {
    R->ctx_held = true;
    rc = CHECK(R, R->drv->CtxSetCurrent(ctx), "cuCtxSetCurrent");
  }
  if (rc == 0) rc = CHECK(R, R->drv->ModuleLoadData(&R->mod, image), "cuModuleLoadData");
  free(image);
  R->nrot = cu_gen_rotations(R->pl);
  for (int r = 0; r < R->nrot && rc == 0; r++) {
    char name[32];
    snprintf(name, sizeof name, r ? "cu_test_r%d" : "cu_test", r);
    rc = CHECK(R, R->drv->ModuleGetFunction(&R->ftest[r], R->mod, name), "cuModuleGetFunction");
  }
  if (rc == 0)
    rc = CHECK(R, R->drv->ModuleGetFunction(&R->fclassify, R->mod, "cu_classify"), "cuModuleGetFunction");
  return rc < 0 ? RUN_FAILED : RUN_OK;
}

/* ---- sizes ------------------------------------------------------------------------------ */

static size_t word_bytes(const runner *R) { return R->pl->width / 8; }

/* Bytes of the per-instance buffers, which bound how many instances fit. */
static size_t bytes_per_instance(const runner *R) {
  const cu_plan *pl = R->pl;
  return ((size_t)pl->nglobal * R->par.stride + (size_t)pl->nregout + (size_t)pl->nfin) * word_bytes(R) +
         (size_t)pl->ncut * 4;
}

/* CTAs the device holds at once for this kernel: the occupancy API, and
 * for a cluster launch cuOccupancyMaxActiveClusters (clusters must fit on
 * a GPC, which can leave SMs unused). */
static int resident_ctas(runner *R, int per_sm, unsigned T, unsigned cs, uint64_t *out) {
  *out = (uint64_t)R->nsm * (uint64_t)(per_sm > 0 ? per_sm : 1);
  if (cs <= 1 || !R->drv->OccupancyMaxActiveClusters) return 0;
  cu_launch_attr a;
  memset(&a, 0, sizeof a);
  a.id = CU_LAUNCH_ATTR_CLUSTER_DIM;
  a.value.cluster_dim.x = cs;
  a.value.cluster_dim.y = a.value.cluster_dim.z = 1;
  cu_launch_config c = {(unsigned)(*out / cs * cs), 1, 1, T, 1, 1, (unsigned)R->test_shared, NULL, &a, 1};
  int nclusters = 0;
  for (int r = 0; r < R->nrot; r++) {
    if (CHECK(R, R->drv->OccupancyMaxActiveClusters(&nclusters, R->ftest[r], &c), "cuOccupancyMaxActiveClusters") < 0)
      return -1;
    if (nclusters > 0 && (uint64_t)nclusters * cs < *out) *out = (uint64_t)nclusters * cs;
  }
  return 0;
}

static run_status size_grid(runner *R) {
  const cu_plan *pl = R->pl;
  unsigned T = R->par.threads_per_cta, cs = cluster_size(R);
  R->test_shared = (size_t)pl->nshared * T * R->par.stride * word_bytes(R);
  if (R->test_shared > (size_t)R->max_shared) {
    lc_error(R->d, (lc_loc){0}, "shared locations need %zu bytes per CTA (%d shared locations, %u threads, "
                                "stride %u); %s gives %d", R->test_shared, pl->nshared, T, R->par.stride, R->name,
             R->max_shared);
    return RUN_CANNOT;
  }
  /* the copies of the test kernel may differ in registers: the fewest resident */
  int per_sm = 0;
  for (int r = 0; r < R->nrot; r++) {
    int n = 0;
    if (CHECK(R, R->drv->OccupancyMaxActiveBlocksPerMultiprocessor(&n, R->ftest[r], (int)T, R->test_shared),
              "cuOccupancyMaxActiveBlocksPerMultiprocessor") < 0)
      return RUN_FAILED;
    if (r == 0 || n < per_sm) per_sm = n;
  }
  /* Resident CTAs by default, so that the roles of an instance overlap. */
  uint64_t ntest = R->par.instances ? (R->par.instances + T - 1) / T
                                    : (uint64_t)R->nsm * (per_sm > 0 ? per_sm : 1) * R->par.testing_pct / 100;
  size_t free_b = 0, total_b = 0;
  if (CHECK(R, R->drv->MemGetInfo(&free_b, &total_b), "cuMemGetInfo") < 0) return RUN_FAILED;
  uint64_t fit = free_b / 4 / (bytes_per_instance(R) ? bytes_per_instance(R) : 1) / T;
  if (ntest > fit) ntest = fit;
  uint64_t need = (uint64_t)pl->nlcl * cs;
  if (ntest < need) ntest = need;
  ntest = (ntest + cs - 1) / cs * cs;
  if (ntest * T > CU_MAX_INSTANCES) ntest = CU_MAX_INSTANCES / T / cs * cs;
  uint64_t all = R->par.mem_stress ? ntest * 100 / R->par.testing_pct : ntest;
  all = (all + cs - 1) / cs * cs;
  /* never a grid that cannot be resident: the roles of an instance must
   * overlap in time, and the spin barrier waits for every testing CTA */
  uint64_t resident;
  if (resident_ctas(R, per_sm, T, cs, &resident) < 0) return RUN_FAILED;
  if (all > resident) {
    uint64_t was = ntest * T;
    ntest = R->par.mem_stress ? resident * R->par.testing_pct / 100 : resident;
    ntest = ntest / cs * cs;
    if (ntest < need) {
      lc_error(R->d, (lc_loc){0}, "the test needs %" PRIu64 " CTAs resident at once; %s holds %" PRIu64, need,
               R->name, resident);
      return RUN_CANNOT;
    }
    all = R->par.mem_stress ? ntest * 100 / R->par.testing_pct / cs * cs : ntest;
    if (all > resident) all = resident / cs * cs;
    if (R->par.instances)
      run_result_note(R->out, "%" PRIu64 " instances per launch asked, %" PRIu64 " run: %s holds %" PRIu64
                      " CTAs of this kernel at once, and every CTA of a launch must be resident", was, ntest * T,
                      R->name, resident);
  }
  if (all / cs > CU_MAX_CLUSTERS) {
    lc_error(R->d, (lc_loc){0}, "%" PRIu64 " CTAs are too many for one launch", all);
    return RUN_CANNOT;
  }
  R->shape = (cu_shape){(cu_u32)all, cs, (cu_u32)(ntest / cs), T, R->par.shuffle};
  R->cls_block = 256;
  R->cls_grid = (unsigned)R->nsm * 4;
  return RUN_OK;
}

/* ---- device memory ------------------------------------------------------------------------ */

static int alloc(runner *R, int b, size_t bytes) {
  R->size[b] = bytes ? bytes : 8;
  if (CHECK(R, R->drv->MemAlloc(&R->buf[b], R->size[b]), "cuMemAlloc") < 0) return -1;
  return CHECK(R, R->drv->MemsetD8(R->buf[b], 0, R->size[b]), "cuMemsetD8");
}

/* Generic aliases: one physical allocation mapped twice, so that a
 * location and its alias are different virtual addresses of one place. */
static int alloc_aliased(runner *R, size_t bytes) {
  const cu_driver *v = R->drv;
  cu_mem_prop prop;
  memset(&prop, 0, sizeof prop);
  prop.type = 1;
  prop.location.type = 1;
  prop.location.id = R->dev;
  size_t gran = 0;
  if (CHECK(R, v->MemGetAllocationGranularity(&gran, &prop, 0), "cuMemGetAllocationGranularity") < 0) return -1;
  size_t size = (bytes + gran - 1) / gran * gran;
  if (CHECK(R, v->MemCreate(&R->vmm_handle, size, &prop, 0), "cuMemCreate") < 0) return -1;
  R->vmm_size = size;
  if (CHECK(R, v->MemAddressReserve(&R->vmm_va, 2 * size, 0, 0, 0), "cuMemAddressReserve") < 0) return -1;
  if (CHECK(R, v->MemMap(R->vmm_va, size, 0, R->vmm_handle, 0), "cuMemMap") < 0 ||
      CHECK(R, v->MemMap(R->vmm_va + size, size, 0, R->vmm_handle, 0), "cuMemMap") < 0)
    return -1;
  cu_mem_access acc = {{1, R->dev}, 3};
  if (CHECK(R, v->MemSetAccess(R->vmm_va, size, &acc, 1), "cuMemSetAccess") < 0 ||
      CHECK(R, v->MemSetAccess(R->vmm_va + size, size, &acc, 1), "cuMemSetAccess") < 0)
    return -1;
  R->buf[B_MEM] = R->vmm_va;
  R->size[B_MEM] = size;
  R->P.alias_delta = (cu_i64)size;
  return CHECK(R, R->drv->MemsetD8(R->vmm_va, 0, size), "cuMemsetD8");
}

static void free_aliased(runner *R) {
  const cu_driver *v = R->drv;
  if (R->vmm_va) {
    v->MemUnmap(R->vmm_va, R->vmm_size);
    v->MemUnmap(R->vmm_va + R->vmm_size, R->vmm_size);
    v->MemAddressFree(R->vmm_va, 2 * R->vmm_size);
  }
  if (R->vmm_handle) v->MemRelease(R->vmm_handle);
  R->buf[B_MEM] = 0;
}

static int upload(runner *R, int b, const void *src, size_t bytes) {
  if (alloc(R, b, bytes) < 0) return -1;
  return bytes ? CHECK(R, R->drv->MemcpyHtoD(R->buf[b], src, bytes), "cuMemcpyHtoD") : 0;
}

static int alloc_buffers(runner *R) {
  const cu_plan *pl = R->pl;
  size_t ninst = (size_t)R->shape.ntest_clusters * R->shape.cs * R->shape.T, w = word_bytes(R);
  size_t mem = (size_t)pl->nglobal * ninst * R->par.stride * w;
  if ((pl->alias ? alloc_aliased(R, mem) : alloc(R, B_MEM, mem)) < 0) return -1;
  unsigned lines = R->par.stress_lines > R->par.pre_stress_lines ? R->par.stress_lines : R->par.pre_stress_lines;
  size_t stress = (R->par.mem_stress || R->par.pre_stress) ? (size_t)lines * CU_LINE_WORDS * 4 : 0;
  if (alloc(R, B_REGS, (size_t)pl->nregout * ninst * w) < 0 || alloc(R, B_FIN, (size_t)pl->nfin * ninst * w) < 0 ||
      alloc(R, B_CUT, (size_t)pl->ncut * ninst * 4) < 0 || alloc(R, B_SCRATCH, stress) < 0 ||
      alloc(R, B_SYNC, 8) < 0 || alloc(R, B_HIST, (size_t)R->P.ndense * 8) < 0 ||
      alloc(R, B_HASH, (size_t)HASH_CAP * cu_hash_entry_words(R->P.nshown) * 8) < 0 ||
      alloc(R, B_SAMPLES, (size_t)R->par.max_forbidden * cu_sample_words(R->P.nshown, R->P.nroles) * 8) < 0 ||
      alloc(R, B_COUNTERS, CU_NCOUNTERS * 8) < 0 || alloc(R, B_CTASM, (size_t)R->shape.nctas * 4) < 0 ||
      upload(R, B_DOM, R->dm.values, R->dm.nvalues * sizeof(cu_i64)) < 0)
    return -1;
  uint32_t *bits = cu_allowed_bitmap(&R->dm, &R->P, R->allowed);
  int rc = upload(R, B_ALLOWED, bits, ((size_t)R->P.ndense + 31) / 32 * 4);
  free(bits);
  return rc;
}

static bool per_set(int b) {
  return b == B_MEM || b == B_REGS || b == B_FIN || b == B_CUT || b == B_SYNC || b == B_CTASM;
}

/* The second set of per-launch buffers, the streams and the events.
 * Without the stream API, or with generic aliases (one mapping per
 * allocation), launches stay in one set, one after the other. */
static int setup_overlap(runner *R) {
  const cu_driver *drv = R->drv;
  R->overlap = drv->StreamCreate && !R->pl->alias;
  if (!R->overlap) return 0;
  for (int b = 0; b < NBUF; b++)
    if (per_set(b) && CHECK(R, drv->MemAlloc(&R->buf2[b], R->size[b]), "cuMemAlloc") < 0) return -1;
  for (int i = 0; i < 2; i++)
    if (CHECK(R, drv->StreamCreate(&R->st[i], 1 /* CU_STREAM_NON_BLOCKING */), "cuStreamCreate") < 0 ||
        CHECK(R, drv->EventCreate(&R->tested[i], 2 /* CU_EVENT_DISABLE_TIMING */), "cuEventCreate") < 0 ||
        CHECK(R, drv->EventCreate(&R->classified[i], 2), "cuEventCreate") < 0)
      return -1;
  return 0;
}

static void free_buffers(runner *R) {
  if (R->vmm_handle || R->vmm_va) free_aliased(R);
  for (int b = 0; b < NBUF; b++) {
    if (R->buf[b]) R->drv->MemFree(R->buf[b]);
    if (R->buf2[b]) R->drv->MemFree(R->buf2[b]);
  }
  for (int i = 0; i < 2; i++) {
    if (R->tested[i]) R->drv->EventDestroy(R->tested[i]);
    if (R->classified[i]) R->drv->EventDestroy(R->classified[i]);
    if (R->st[i]) R->drv->StreamDestroy(R->st[i]);
  }
}

/* Points P's per-launch buffers at set s. */
static void use_set(const runner *R, cu_launch *P, unsigned s) {
  const cu_devptr *b = s ? R->buf2 : R->buf;
  P->mem = b[B_MEM];
  P->regs = b[B_REGS];
  P->fin = b[B_FIN];
  P->cut = b[B_CUT];
  P->sync = b[B_SYNC];
  P->ctasm = b[B_CTASM];
}

/* ---- the parameter block ---------------------------------------------------------------- */

static int fill_launch(runner *R) {
  cu_launch *P = &R->P;
  const cu_plan *pl = R->pl;
  cu_launch_roles(P, pl);
  /* Without a cluster launch every CTA is a cluster of its own
   * (note_placement says why that is sound). */
  if (R->shape.cs == 1)
    for (cu_u32 k = 0; k < P->nroles; k++) P->role_cl[k] = P->role_cta[k];
  /* the sizes (ninst, ...) of the template; every launch redraws the rest */
  if (cu_launch_draw(P, &R->shape, R->par.seed, 0) < 0) {
    lc_error(R->d, (lc_loc){0}, "internal error: the grid (%u CTAs, clusters of %u) cannot hold the test's placement",
             R->shape.nctas, R->shape.cs);
    return -1;
  }
  cu_domains_build(&R->dm, R->p, R->allowed);
  for (size_t j = 0; j < R->dm.nshown; j++) P->dom_off[j] = R->dm.off[j], P->dom_len[j] = R->dm.len[j];
  P->ndense = R->dm.ndense <= CU_MAX_DENSE ? (cu_u32)R->dm.ndense : 0;
  P->shared_hist = P->ndense && P->ndense <= SHARED_HIST_MAX;
  P->word = (cu_u32)word_bytes(R);
  P->stride = P->sstride = R->par.stride;
  P->hash_cap = HASH_CAP;
  P->max_samples = R->par.max_forbidden;
  P->judge = R->allowed && R->allowed->status == LC_RESULT_OK;
  P->barrier = R->par.barrier;
  P->barrier_spins = BARRIER_SPINS;
  P->mem_stress = R->par.mem_stress;
  P->pre_stress = R->par.pre_stress;
  P->stress_pattern = R->par.stress_pattern;
  P->stress_lines = R->par.stress_lines;
  P->stress_iters = R->par.stress_iterations;
  P->pre_pattern = R->par.pre_stress_pattern;
  P->pre_lines = R->par.pre_stress_lines;
  P->pre_iters = R->par.pre_stress_iterations;
  P->loc_offset = R->par.loc_offset;
  P->spin_limit = R->par.spin_limit;
  P->watchdog_ns = (cu_u64)(R->par.watchdog * 1e9);
  R->cls_shared = (CU_NCTA_COUNTERS + (P->shared_hist ? (size_t)P->ndense : 0)) * 4;
  return 0;
}

static void set_pointers(runner *R) {
  cu_launch *P = &R->P;
  P->mem = R->buf[B_MEM];
  P->regs = R->buf[B_REGS];
  P->fin = R->buf[B_FIN];
  P->cut = R->buf[B_CUT];
  P->scratch = R->buf[B_SCRATCH];
  P->sync = R->buf[B_SYNC];
  P->hist = R->buf[B_HIST];
  P->allowed = R->buf[B_ALLOWED];
  P->dom = R->buf[B_DOM];
  P->hash = R->buf[B_HASH];
  P->samples = R->buf[B_SAMPLES];
  P->counters = R->buf[B_COUNTERS];
  P->ctasm = R->buf[B_CTASM];
}

/* ---- launching ------------------------------------------------------------------------------ */

static int launch_test(runner *R, cu_launch *P, cu_stream st) {
  void *args[] = {P};
  cu_function f = R->ftest[P->iteration % (uint64_t)R->nrot];
  if (R->shape.cs == 1)
    return CHECK(R, R->drv->LaunchKernel(f, R->shape.nctas, 1, 1, R->shape.T, 1, 1, (unsigned)R->test_shared,
                                         st, args, NULL),
                 "cuLaunchKernel(cu_test)");
  cu_launch_attr a;
  memset(&a, 0, sizeof a);
  a.id = CU_LAUNCH_ATTR_CLUSTER_DIM;
  a.value.cluster_dim.x = R->shape.cs;
  a.value.cluster_dim.y = a.value.cluster_dim.z = 1;
  cu_launch_config c = {R->shape.nctas, 1, 1, R->shape.T, 1, 1, (unsigned)R->test_shared, st, &a, 1};
  return CHECK(R, R->drv->LaunchKernelEx(&c, f, args, NULL), "cuLaunchKernelEx(cu_test, cluster)");
}

static int launch_classify(runner *R, cu_launch *P, cu_stream st) {
  void *args[] = {P};
  return CHECK(R, R->drv->LaunchKernel(R->fclassify, R->cls_grid, 1, 1, R->cls_block, 1, 1, (unsigned)R->cls_shared,
                                       st, args, NULL),
               "cuLaunchKernel(cu_classify)");
}

/* Launch `it` and its classify step.  Overlapped: set it % 2; the test
 * waits until the classify step two launches back has read that set, the
 * classify step waits for the test; classify steps run one after the
 * other on their stream (they share the histogram). */
static int launch_pair(runner *R, cu_launch *P, uint64_t it) {
  if (!R->overlap) return launch_test(R, P, NULL) < 0 || launch_classify(R, P, NULL) < 0 ? -1 : 0;
  unsigned s = (unsigned)(it & 1);
  use_set(R, P, s);
  const cu_driver *drv = R->drv;
  if ((it >= 2 && CHECK(R, drv->StreamWaitEvent(R->st[0], R->classified[s], 0), "cuStreamWaitEvent") < 0) ||
      launch_test(R, P, R->st[0]) < 0 || CHECK(R, drv->EventRecord(R->tested[s], R->st[0]), "cuEventRecord") < 0 ||
      CHECK(R, drv->StreamWaitEvent(R->st[1], R->tested[s], 0), "cuStreamWaitEvent") < 0 ||
      launch_classify(R, P, R->st[1]) < 0 || CHECK(R, drv->EventRecord(R->classified[s], R->st[1]), "cuEventRecord") < 0)
    return -1;
  return 0;
}

static int draw(runner *R, cu_launch *P, uint64_t it) {
  *P = R->P;
  if (cu_launch_draw(P, &R->shape, R->par.seed, it) == 0) return 0;
  lc_error(R->d, (lc_loc){0}, "internal error: the grid (%u CTAs, clusters of %u) cannot hold the test's placement",
           R->shape.nctas, R->shape.cs);
  return -1;
}

static void progress(const runner *R, uint64_t done, double t) {
  if (!R->par.progress || !lc_is_tty(stderr)) return;
  fprintf(stderr, "\rlitmus-run: %" PRIu64 " launches, %.3g instances/s   ", done,
          t > 0 ? (double)done * R->P.ninst / t : 0.0);
}

static run_status iterate(runner *R) {
  cu_launch P;
  if (draw(R, &P, 0) < 0) return RUN_FAILED;
  P.phase = 0;
  /* the initial values (and poison) in every set */
  for (unsigned s = 0; s < (R->overlap ? 2u : 1u); s++) {
    if (R->overlap) use_set(R, &P, s);
    if (launch_classify(R, &P, NULL) < 0) return RUN_FAILED;
  }
  if (CHECK(R, R->drv->CtxSynchronize(), "cuCtxSynchronize") < 0) return RUN_FAILED;
  uint64_t want = R->par.iterations ? R->par.iterations : R->par.seconds > 0 ? UINT64_MAX : DEFAULT_ITERATIONS;
  uint64_t batch = 4, it = 0;
  double t0 = lc_now(), t = 0;
  while (it < want && (R->par.seconds <= 0 || t < R->par.seconds)) {
    double b0 = lc_now();
    for (uint64_t n = 0; n < batch && it < want; n++, it++) {
      if (draw(R, &P, it) < 0) return RUN_FAILED;
      P.phase = 1;
      if (launch_pair(R, &P, it) < 0) return RUN_FAILED;
    }
    if (CHECK(R, R->drv->CtxSynchronize(), "cuCtxSynchronize") < 0) return RUN_FAILED;
    t = lc_now() - t0;
    if (lc_now() - b0 < 0.05 && batch < 1024) batch *= 2;
    progress(R, it, t);
  }
  if (R->par.progress && lc_is_tty(stderr)) fputc('\n', stderr);
  R->iterations = it;
  R->out->iterations = it;
  R->out->seconds = t;
  return RUN_OK;
}

/* ---- results ---------------------------------------------------------------------------------- */

static int download(runner *R, int b, void *dst, size_t bytes) {
  return bytes ? CHECK(R, R->drv->MemcpyDtoH(dst, R->buf[b], bytes), "cuMemcpyDtoH") : 0;
}

static uint64_t collect_dense(runner *R) {
  uint64_t n = R->P.ndense, sum = 0;
  uint64_t *hist = lc_xcalloc(n, sizeof *hist);
  cu_i64 v[CU_MAX_SHOWN];
  if (download(R, B_HIST, hist, n * 8) == 0)
    for (uint64_t b = 0; b < n; b++) {
      if (!hist[b]) continue;
      cu_dense_values(&R->P, R->dm.values, (cu_u32)b, R->P.nshown, v);
      run_result_add(R->out, v, hist[b]);
      sum += hist[b];
    }
  free(hist);
  return sum;
}

/* An entry keyed by the salted hash of its values holds instances beyond
 * the unroll bound (cu_count). */
static uint64_t collect_hashed(runner *R) {
  size_t w = cu_hash_entry_words(R->P.nshown);
  uint64_t *tab = lc_xcalloc((size_t)HASH_CAP * w, sizeof *tab), sum = 0;
  if (download(R, B_HASH, tab, (size_t)HASH_CAP * w * 8) == 0)
    for (size_t e = 0; e < HASH_CAP; e++) {
      const uint64_t *ent = tab + e * w;
      if (!ent[0] || !ent[1]) continue;
      const lx_val *v = (const lx_val *)(ent + 2);
      if (ent[0] == (cu_outcome_hash((const cu_i64 *)v, R->P.nshown) ^ CU_BEYOND_SALT))
        run_result_add_unexplored(R->out, v, ent[1]);
      else
        run_result_add(R->out, v, ent[1]);
      sum += ent[1];
    }
  free(tab);
  return sum;
}

static void collect_samples(runner *R, uint64_t claims) {
  size_t n = claims < R->P.max_samples ? (size_t)claims : R->P.max_samples;
  size_t w = cu_sample_words(R->P.nshown, R->P.nroles);
  uint64_t *rec = lc_xcalloc(n * w + 1, sizeof *rec);
  if (n && download(R, B_SAMPLES, rec, n * w * 8) == 0) {
    R->out->samples = lc_xcalloc(n, sizeof *R->out->samples);
    for (size_t s = 0; s < n; s++) {
      const uint64_t *r = rec + s * w;
      run_sample *o = &R->out->samples[R->out->nsamples++];
      o->iteration = r[0];
      o->instance = r[1];
      o->values = lc_xcalloc(R->P.nshown ? R->P.nshown : 1, sizeof *o->values);
      memcpy(o->values, r + 2, R->P.nshown * sizeof *o->values);
      o->ctas = lc_xcalloc(R->P.nroles, sizeof *o->ctas);
      o->threads = lc_xcalloc(R->P.nroles, sizeof *o->threads);
      o->sms = lc_xcalloc(R->P.nroles, sizeof *o->sms);
      for (size_t k = 0; k < R->P.nroles; k++) {
        o->ctas[k] = (int)(r[2 + R->P.nshown + k] >> 32);
        o->sms[k] = (int)(r[2 + R->P.nshown + k] >> 16 & 0xffffu);
        o->threads[k] = (int)(r[2 + R->P.nshown + k] & 0xffffu);
      }
    }
  }
  free(rec);
}

static run_status collect(runner *R) {
  uint64_t cnt[CU_NCOUNTERS];
  if (download(R, B_COUNTERS, cnt, sizeof cnt) < 0) return RUN_FAILED;
  uint64_t dense = collect_dense(R), hashed = collect_hashed(R);
  uint64_t run = R->iterations * R->P.ninst;
  if (cnt[CU_CNT_UNWRITTEN]) {
    lc_error(R->d, (lc_loc){0}, "internal error: %" PRIu64 " instances left a result slot unwritten (the test "
             "kernel did not run them); no histogram", cnt[CU_CNT_UNWRITTEN]);
    return RUN_FAILED;
  }
  if (hashed != cnt[CU_CNT_HASHED] ||
      dense + hashed + cnt[CU_CNT_LOST] + cnt[CU_CNT_CUT] + cnt[CU_CNT_FILTERED] != run) {
    lc_error(R->d, (lc_loc){0}, "internal error: the device histogram does not add up: %" PRIu64 " dense + %" PRIu64
             " other + %" PRIu64 " lost + %" PRIu64 " cut + %" PRIu64 " filtered != %" PRIu64 " instances run",
             dense, hashed, cnt[CU_CNT_LOST], cnt[CU_CNT_CUT], cnt[CU_CNT_FILTERED], run);
    return RUN_FAILED;
  }
  /* a GPU cannot prove that an instance would never end: all are cut */
  R->out->incomplete = cnt[CU_CNT_CUT];
  R->out->filtered = cnt[CU_CNT_FILTERED];
  R->out->instances = dense + hashed + cnt[CU_CNT_CUT] + cnt[CU_CNT_FILTERED];
  if (cnt[CU_CNT_LATE])
    run_result_note(R->out, "%" PRIu64 " of the cut instances ran into the watchdog's deadline (%g s after their "
                    "thread's litmus code began)", cnt[CU_CNT_LATE], R->par.watchdog);
  if (cnt[CU_CNT_LOST])
    run_result_note(R->out, "%" PRIu64 " instances had outcomes outside every value domain that the device table "
                    "(%d entries) could not hold; they are not counted", cnt[CU_CNT_LOST], HASH_CAP);
  if (cnt[CU_CNT_BARRIER_MISS])
    run_result_note(R->out, "%" PRIu64 " CTA launches gave up waiting at the spin barrier (CTAs not resident together)",
                    cnt[CU_CNT_BARRIER_MISS]);
  collect_samples(R, cnt[CU_CNT_SAMPLED]);
  return run_result_finish(R->out, R->d) < 0 ? RUN_FAILED : RUN_OK;
}

static void describe(runner *R) {
  run_result *o = R->out;
  int v = 0;
  o->device_name = lc_xstrdup(R->name);
  o->sm_major = R->sm / 10;
  o->sm_minor = R->sm % 10;
  lc_buf b;
  lc_buf_init(&b);
  if (R->drv->DriverGetVersion(&v) == 0) lc_buf_printf(&b, "CUDA driver %d.%d", v / 1000, v % 1000 / 10);
  o->driver_version = lc_buf_take(&b);
  lc_buf_printf(&b, "NVRTC %s", cu_nvrtc_version(R->rtc));
  o->compiler_version = lc_buf_take(&b);
  lc_buf_fini(&b);
  o->params = R->par;
  o->params.instances = R->P.ninst;
  o->params.iterations = R->iterations;
}

/* ---- cu_run ------------------------------------------------------------------------------------ */

static run_status prepare(runner *R) {
  run_status rc = open_device(R);
  if (rc == RUN_OK) rc = check_fit(R);
  if (rc == RUN_OK) rc = build(R);
  if (rc == RUN_OK) rc = size_grid(R);
  if (rc != RUN_OK) return rc;
  note_placement(R);
  if (fill_launch(R) < 0 || alloc_buffers(R) < 0 || setup_overlap(R) < 0) return RUN_FAILED;
  set_pointers(R);
  return RUN_OK;
}

static void teardown(runner *R) {
  if (R->drv) {
    if (R->ctx_held) {
      free_buffers(R);
      if (R->mod) R->drv->ModuleUnload(R->mod);
      R->drv->DevicePrimaryCtxRelease(R->dev);
    }
    cu_driver_close(R->drv);
  }
  cu_nvrtc_close(R->rtc);
  cu_domains_fini(&R->dm);
  cu_plan_free(R->pl);
}

run_status cu_run(const lx_program *p, const run_params *par, const lc_result *allowed, run_result *out, lc_diag *d) {
  assert(p && par && out && d);
  runner R;
  memset(&R, 0, sizeof R);
  R.p = p;
  R.allowed = allowed;
  R.out = out;
  R.d = d;
  fill_defaults(&R.par, par);
  run_result_init(out, p, "cuda");
  R.pl = cu_plan_new(p, d);
  if (!R.pl) return RUN_CANNOT;
  fit_slots(&R);
  R.drv = cu_driver_open(d);
  run_status rc = R.drv ? prepare(&R) : RUN_CANNOT;
  if (rc == RUN_OK) rc = iterate(&R);
  if (rc == RUN_OK) {
    describe(&R);
    rc = collect(&R);
  }
  teardown(&R);
  return rc;
}
