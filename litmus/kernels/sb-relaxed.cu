// sb-seq-cst.cu with relaxed atomics: no order relates the two threads'
// stores and loads, and both loads may read 0 (CUDA C++ memory model: a
// relaxed load may read any write not hidden by coherence).  No race: the
// results go to different elements of r.
//
// @Launch: <<<2, 1>>>
// @Input: x = {0}; y = {0}; r = {-1, -1}
// @Output: not exists (r[0] == 0 && r[1] == 0)
#include <cuda/atomic>

__global__ void sb_relaxed(int *x, int *y, int *r) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ax(*x), ay(*y);
  if (blockIdx.x == 0) {
    ax.store(1, cuda::memory_order_relaxed);
    r[0] = ay.load(cuda::memory_order_relaxed);
  } else {
    ay.store(1, cuda::memory_order_relaxed);
    r[1] = ax.load(cuda::memory_order_relaxed);
  }
}
