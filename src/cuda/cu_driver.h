/* cu_driver.h - the part of the CUDA driver API litmus-run uses, declared
 * here and resolved with dlopen/dlsym from libcuda.so.1.
 * SPDX-License-Identifier: MIT
 *
 * The driver API's C ABI is stable; the types below follow its header
 * (cuda.h) field for field, under our own names so they never clash with
 * it.  Versioned entry points are looked up under the names the header
 * maps them to (cuMemAlloc -> cuMemAlloc_v2, ...).
 */
#ifndef CU_DRIVER_H
#define CU_DRIVER_H

#include <stddef.h>

#include "lc.h"

typedef int cu_result;                      /* CUresult; 0 = CUDA_SUCCESS */
typedef int cu_device;                      /* CUdevice */
typedef struct cu_ctx_st *cu_context;       /* CUcontext */
typedef struct cu_mod_st *cu_module;        /* CUmodule */
typedef struct cu_func_st *cu_function;     /* CUfunction */
typedef struct cu_stream_st *cu_stream;     /* CUstream */
typedef struct cu_event_st *cu_event;       /* CUevent */
typedef unsigned long long cu_devptr;       /* CUdeviceptr */
typedef unsigned long long cu_mem_handle;   /* CUmemGenericAllocationHandle */

enum {
  CU_ERR_NO_DEVICE = 100,                   /* CUDA_ERROR_NO_DEVICE */
  CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
  CU_ATTR_MAX_SHARED_PER_BLOCK = 8,
  CU_ATTR_SM_COUNT = 16,
  CU_ATTR_MAX_THREADS_PER_SM = 39,
  CU_ATTR_CC_MAJOR = 75,
  CU_ATTR_CC_MINOR = 76,
  CU_ATTR_VMM = 102,                        /* VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED */
  CU_ATTR_CLUSTER_LAUNCH = 120,
  CU_LAUNCH_ATTR_CLUSTER_DIM = 4            /* CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION */
};

/* CUlaunchAttribute: an id, padding to 8 bytes, a 64-byte value union. */
typedef struct cu_launch_attr {
  int id;
  char pad[4];
  union {
    char pad[64];
    struct { unsigned x, y, z; } cluster_dim;
  } value;
} cu_launch_attr;

/* CUlaunchConfig */
typedef struct cu_launch_config {
  unsigned grid_x, grid_y, grid_z;
  unsigned block_x, block_y, block_z;
  unsigned shared_bytes;
  cu_stream stream;
  cu_launch_attr *attrs;
  unsigned nattrs;
} cu_launch_config;

/* CUmemLocation, CUmemAllocationProp, CUmemAccessDesc */
typedef struct cu_mem_location { int type, id; } cu_mem_location;
typedef struct cu_mem_prop {
  int type;                                 /* 1 = CU_MEM_ALLOCATION_TYPE_PINNED */
  int handle_types;                         /* 0 = CU_MEM_HANDLE_TYPE_NONE */
  cu_mem_location location;                 /* type 1 = CU_MEM_LOCATION_TYPE_DEVICE */
  void *win32_meta;
  struct { unsigned char compression, rdma; unsigned short usage; unsigned char reserved[4]; } flags;
} cu_mem_prop;
typedef struct cu_mem_access { cu_mem_location location; int flags; } cu_mem_access;  /* 3 = READWRITE */

typedef struct cu_driver {
  void *lib;
  cu_result (*Init)(unsigned);
  cu_result (*DriverGetVersion)(int *);
  cu_result (*GetErrorName)(cu_result, const char **);
  cu_result (*GetErrorString)(cu_result, const char **);
  cu_result (*DeviceGetCount)(int *);
  cu_result (*DeviceGet)(cu_device *, int);
  cu_result (*DeviceGetName)(char *, int, cu_device);
  cu_result (*DeviceGetAttribute)(int *, int, cu_device);
  cu_result (*DevicePrimaryCtxRetain)(cu_context *, cu_device);
  cu_result (*DevicePrimaryCtxRelease)(cu_device);
  cu_result (*CtxSetCurrent)(cu_context);
  cu_result (*CtxSynchronize)(void);
  cu_result (*ModuleLoadData)(cu_module *, const void *);
  cu_result (*ModuleUnload)(cu_module);
  cu_result (*ModuleGetFunction)(cu_function *, cu_module, const char *);
  cu_result (*MemGetInfo)(size_t *, size_t *);
  cu_result (*MemAlloc)(cu_devptr *, size_t);
  cu_result (*MemFree)(cu_devptr);
  cu_result (*MemcpyHtoD)(cu_devptr, const void *, size_t);
  cu_result (*MemcpyDtoH)(void *, cu_devptr, size_t);
  cu_result (*MemsetD8)(cu_devptr, unsigned char, size_t);
  cu_result (*LaunchKernel)(cu_function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            cu_stream, void **, void **);
  cu_result (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, cu_function, int, size_t);
  cu_result (*FuncSetAttribute)(cu_function, int, int);
  /* optional: CUDA 12 (clusters) */
  cu_result (*LaunchKernelEx)(const cu_launch_config *, cu_function, void **, void **);
  cu_result (*OccupancyMaxActiveClusters)(int *, cu_function, const cu_launch_config *);
  /* optional (all in CUDA 10 and later): streams and events, to overlap the
   * classify kernel with the next test launch */
  cu_result (*StreamCreate)(cu_stream *, unsigned);
  cu_result (*StreamDestroy)(cu_stream);
  cu_result (*EventCreate)(cu_event *, unsigned);
  cu_result (*EventDestroy)(cu_event);
  cu_result (*EventRecord)(cu_event, cu_stream);
  cu_result (*StreamWaitEvent)(cu_stream, cu_event, unsigned);
  /* optional: CUDA 10.2 (virtual memory management, for generic aliases) */
  cu_result (*MemGetAllocationGranularity)(size_t *, const cu_mem_prop *, int);
  cu_result (*MemCreate)(cu_mem_handle *, size_t, const cu_mem_prop *, unsigned long long);
  cu_result (*MemRelease)(cu_mem_handle);
  cu_result (*MemAddressReserve)(cu_devptr *, size_t, size_t, cu_devptr, unsigned long long);
  cu_result (*MemAddressFree)(cu_devptr, size_t);
  cu_result (*MemMap)(cu_devptr, size_t, size_t, cu_mem_handle, unsigned long long);
  cu_result (*MemUnmap)(cu_devptr, size_t);
  cu_result (*MemSetAccess)(cu_devptr, size_t, const cu_mem_access *, size_t);
} cu_driver;

/* Opens libcuda.so.1 and resolves the entry points.  Returns NULL with
 * CU_NO_DRIVER_MSG (or a missing entry point) in d. */
cu_driver *cu_driver_open(lc_diag *d);
void cu_driver_close(cu_driver *drv);

/* Reports a failed call as "call: CUDA_ERROR_NAME: description" to d;
 * returns -1 when r is an error, else 0. */
int cu_check(const cu_driver *drv, cu_result r, const char *call, lc_diag *d);

#endif
