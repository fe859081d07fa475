/* abi-check.c - the driver API types litmus-run declares itself
 * (cu_driver.h) against the toolkit's cuda.h: same sizes, same offsets,
 * same constants.  Built only when the toolkit is present; a mismatch
 * stops the build of this test.
 * SPDX-License-Identifier: MIT
 */
#include <cuda.h>
#include <stddef.h>
#include <stdio.h>

#include "cuda/cu_driver.h"

#define SAME_SIZE(a, b) _Static_assert(sizeof(a) == sizeof(b), "size of " #a " differs from " #b)
/* Compared as ints: the two sides are different enum types. */
#define SAME_VALUE(a, b) _Static_assert((int)(a) == (int)(b), #a " differs from " #b)
#define SAME_AT(a, fa, b, fb) \
  _Static_assert(offsetof(a, fa) == offsetof(b, fb), "offset of " #a "." #fa " differs from " #b "." #fb)

SAME_SIZE(cu_result, CUresult);
SAME_SIZE(cu_device, CUdevice);
SAME_SIZE(cu_devptr, CUdeviceptr);
SAME_SIZE(cu_event, CUevent);
SAME_SIZE(cu_mem_handle, CUmemGenericAllocationHandle);

SAME_SIZE(cu_launch_attr, CUlaunchAttribute);
SAME_AT(cu_launch_attr, id, CUlaunchAttribute, id);
SAME_AT(cu_launch_attr, value, CUlaunchAttribute, value);
SAME_AT(cu_launch_attr, value.cluster_dim.z, CUlaunchAttribute, value.clusterDim.z);

SAME_SIZE(cu_launch_config, CUlaunchConfig);
SAME_AT(cu_launch_config, grid_x, CUlaunchConfig, gridDimX);
SAME_AT(cu_launch_config, block_x, CUlaunchConfig, blockDimX);
SAME_AT(cu_launch_config, shared_bytes, CUlaunchConfig, sharedMemBytes);
SAME_AT(cu_launch_config, stream, CUlaunchConfig, hStream);
SAME_AT(cu_launch_config, attrs, CUlaunchConfig, attrs);
SAME_AT(cu_launch_config, nattrs, CUlaunchConfig, numAttrs);

SAME_SIZE(cu_mem_prop, CUmemAllocationProp);
SAME_AT(cu_mem_prop, handle_types, CUmemAllocationProp, requestedHandleTypes);
SAME_AT(cu_mem_prop, location, CUmemAllocationProp, location);
SAME_AT(cu_mem_prop, win32_meta, CUmemAllocationProp, win32HandleMetaData);
SAME_AT(cu_mem_prop, flags, CUmemAllocationProp, allocFlags);
SAME_SIZE(cu_mem_access, CUmemAccessDesc);
SAME_AT(cu_mem_access, flags, CUmemAccessDesc, flags);

SAME_VALUE(CU_ERR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
SAME_VALUE(CU_ATTR_MAX_THREADS_PER_BLOCK, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
SAME_VALUE(CU_ATTR_MAX_SHARED_PER_BLOCK, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
SAME_VALUE(CU_ATTR_SM_COUNT, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
SAME_VALUE(CU_ATTR_MAX_THREADS_PER_SM, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
SAME_VALUE(CU_ATTR_CC_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
SAME_VALUE(CU_ATTR_CC_MINOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
SAME_VALUE(CU_ATTR_VMM, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED);
SAME_VALUE(CU_ATTR_CLUSTER_LAUNCH, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
SAME_VALUE(CU_LAUNCH_ATTR_CLUSTER_DIM, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION);
_Static_assert(CU_MEM_ALLOCATION_TYPE_PINNED == 1 && CU_MEM_LOCATION_TYPE_DEVICE == 1 &&
               CU_MEM_ACCESS_FLAGS_PROT_READWRITE == 3 && CU_MEM_ALLOC_GRANULARITY_MINIMUM == 0,
               "constants used by alloc_aliased (cu_run.c)");

int main(void) {
  puts("cu_driver.h matches cuda.h");
  return 0;
}
