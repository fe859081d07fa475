// Message passing across two blocks with release/acquire at block scope:
// a block-scope atomic is atomic, and synchronises, only between threads of
// one block (CUDA C++ memory model: the scopes of the two operations must
// each include the other thread).  Here the threads are in different
// blocks, so nothing synchronises: the read of data races with its write
// (undefined behaviour) and may see 0.
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; r = {-1}
// @Output: forall (r[0] == 42)
#include <cuda/atomic>

__global__ void mp_block_scope(int *flag, int *data, int *r) {
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (blockIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    *r = *data;
  }
}
