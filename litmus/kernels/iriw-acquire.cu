// IRIW over four blocks: two writers, two readers reading x and y in
// opposite orders with acquire loads at device scope.  Release/acquire is
// not multi-copy atomic in the CUDA C++ model (as in ISO C++): the readers
// may disagree on the order of the two writes.  No race.  The two readers'
// loads are written in a device function; r holds the four values read.
//
// @Launch: <<<4, 1>>>
// @Input: x = {0}; y = {0}; r = {-1, -1, -1, -1}
// @Output: exists (r[0] == 1 && r[1] == 0 && r[2] == 1 && r[3] == 0)
#include <cuda/atomic>

__device__ void read2(int *a, int *b, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ra(*a), rb(*b);
  out[0] = ra.load(cuda::memory_order_acquire);
  out[1] = rb.load(cuda::memory_order_acquire);
}

__global__ void iriw_acquire(int *x, int *y, int *r) {
  if (blockIdx.x == 0)
    cuda::atomic_ref<int, cuda::thread_scope_device>(*x).store(1, cuda::memory_order_release);
  if (blockIdx.x == 1)
    cuda::atomic_ref<int, cuda::thread_scope_device>(*y).store(1, cuda::memory_order_release);
  if (blockIdx.x == 2)
    read2(x, y, &r[0]);
  if (blockIdx.x == 3)
    read2(y, x, &r[2]);
}
