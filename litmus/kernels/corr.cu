// Coherence of read-read: one block writes x twice (relaxed, device scope),
// another reads it twice.  Coherence forbids reading the newer value and
// then the older one (CUDA C++ memory model, read-read coherence).
//
// @Launch: <<<2, 1>>>
// @Input: x = {0}; r = {-1, -1}
// @Output: not exists (r[0] == 2 && r[1] == 1)
#include <cuda/atomic>

__global__ void corr(int *x, int *r) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*x);
  if (blockIdx.x == 0) {
    a.store(1, cuda::memory_order_relaxed);
    a.store(2, cuda::memory_order_relaxed);
  } else {
    r[0] = a.load(cuda::memory_order_relaxed);
    r[1] = a.load(cuda::memory_order_relaxed);
  }
}
