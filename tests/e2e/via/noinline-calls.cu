// Message passing through two __noinline__ device functions, one returning
// the value read: nvcc keeps them as .func bodies called with call.uni
// (parameters and the return value through .param), which --via inlines.
// Release and acquire at device scope synchronise: out = {42}, no race.
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cuda/atomic>

__device__ __noinline__ int wait_read(int *flag, int *data) {
  while (cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).load(cuda::memory_order_acquire) == 0) {
  }
  return *data;
}

__device__ __noinline__ void publish(int *flag, int *data, int v) {
  *data = v;
  cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
}

__global__ void noinline_calls(int *flag, int *data, int *out) {
  if (blockIdx.x == 0)
    publish(flag, data, 42);
  else
    out[0] = wait_read(flag, data);
}
