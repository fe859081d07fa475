/* cu_driver.c - the CUDA driver API through dlopen.
 * SPDX-License-Identifier: MIT
 */
#include <assert.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cu_driver.h"
#include "cuda/cu_int.h"

static bool sym(void *lib, const char *name, void *fn, size_t size) {
  void *p = dlsym(lib, name);
  if (!p) return false;
  memcpy(fn, &p, size);   /* object to function pointer, as POSIX allows */
  return true;
}
#define SYM(d, f, name) sym((d)->lib, name, &(d)->f, sizeof((d)->f))

static bool resolve_required(cu_driver *d, const char **missing) {
#define REQ(f, name) if (!SYM(d, f, name)) { *missing = name; return false; }
  REQ(Init, "cuInit");
  REQ(DriverGetVersion, "cuDriverGetVersion");
  REQ(GetErrorName, "cuGetErrorName");
  REQ(GetErrorString, "cuGetErrorString");
  REQ(DeviceGetCount, "cuDeviceGetCount");
  REQ(DeviceGet, "cuDeviceGet");
  REQ(DeviceGetName, "cuDeviceGetName");
  REQ(DeviceGetAttribute, "cuDeviceGetAttribute");
  REQ(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  REQ(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  REQ(CtxSetCurrent, "cuCtxSetCurrent");
  REQ(CtxSynchronize, "cuCtxSynchronize");
  REQ(ModuleLoadData, "cuModuleLoadData");
  REQ(ModuleUnload, "cuModuleUnload");
  REQ(ModuleGetFunction, "cuModuleGetFunction");
  REQ(MemGetInfo, "cuMemGetInfo_v2");
  REQ(MemAlloc, "cuMemAlloc_v2");
  REQ(MemFree, "cuMemFree_v2");
  REQ(MemcpyHtoD, "cuMemcpyHtoD_v2");
  REQ(MemcpyDtoH, "cuMemcpyDtoH_v2");
  REQ(MemsetD8, "cuMemsetD8_v2");
  REQ(LaunchKernel, "cuLaunchKernel");
  REQ(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  REQ(FuncSetAttribute, "cuFuncSetAttribute");
#undef REQ
  return true;
}

static void resolve_optional(cu_driver *d) {
  SYM(d, LaunchKernelEx, "cuLaunchKernelEx");
  SYM(d, OccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters");
  bool vmm = SYM(d, MemGetAllocationGranularity, "cuMemGetAllocationGranularity") &&
             SYM(d, MemCreate, "cuMemCreate") && SYM(d, MemRelease, "cuMemRelease") &&
             SYM(d, MemAddressReserve, "cuMemAddressReserve") && SYM(d, MemAddressFree, "cuMemAddressFree") &&
             SYM(d, MemMap, "cuMemMap") && SYM(d, MemUnmap, "cuMemUnmap") && SYM(d, MemSetAccess, "cuMemSetAccess");
  if (!vmm) d->MemCreate = NULL;
  bool streams = SYM(d, StreamCreate, "cuStreamCreate") && SYM(d, StreamDestroy, "cuStreamDestroy_v2") &&
                 SYM(d, EventCreate, "cuEventCreate") && SYM(d, EventDestroy, "cuEventDestroy_v2") &&
                 SYM(d, EventRecord, "cuEventRecord") && SYM(d, StreamWaitEvent, "cuStreamWaitEvent");
  if (!streams) d->StreamCreate = NULL;
}

cu_driver *cu_driver_open(lc_diag *diag) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    lc_error(diag, (lc_loc){0}, "%s", CU_NO_DRIVER_MSG);
    return NULL;
  }
  cu_driver *d = lc_xcalloc(1, sizeof *d);
  d->lib = lib;
  const char *missing = NULL;
  if (!resolve_required(d, &missing)) {
    lc_error(diag, (lc_loc){0}, "the CUDA driver (libcuda.so.1) lacks %s: it is too old for litmus-run", missing);
    cu_driver_close(d);
    return NULL;
  }
  resolve_optional(d);
  return d;
}

void cu_driver_close(cu_driver *d) {
  if (!d) return;
  if (d->lib) dlclose(d->lib);
  free(d);
}

int cu_check(const cu_driver *d, cu_result r, const char *call, lc_diag *diag) {
  assert(d && call && diag);
  if (r == 0) return 0;
  const char *name = NULL, *text = NULL;
  if (d->GetErrorName(r, &name) != 0 || !name) name = "CUDA_ERROR_UNKNOWN";
  if (d->GetErrorString(r, &text) != 0 || !text) text = "unrecognised error code";
  lc_error(diag, (lc_loc){0}, "%s: %s (%d): %s", call, name, r, text);
  return -1;
}

int cu_probe(lc_diag *d) {
  assert(d);
  cu_driver *drv = cu_driver_open(d);
  int rc = drv ? 0 : -1;
  cu_driver_close(drv);
  return rc;
}
