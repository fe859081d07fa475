// mp-block-scope.cu with the two threads in one block (<<<1, 2>>>): now
// block scope includes both, the release store and the acquire load
// synchronise, the read sees 42 and nothing races.
//
// @Launch: <<<1, 2>>>
// @Input: flag = {0}; data = {0}; r = {-1}
// @Output: forall (r[0] == 42)
#include <cuda/atomic>

__global__ void mp_block_scope_same_block(int *flag, int *data, int *r) {
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (threadIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    *r = *data;
  }
}
