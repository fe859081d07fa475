// lock-struct.cu with both orders weakened to memory_order_relaxed: the
// exchange that takes the lock still reads the previous holder's store,
// but a relaxed store read by a relaxed RMW does not synchronise (CUDA
// C++ memory model: only release/acquire pairs, or fences around them,
// do), so nothing orders the two critical sections by happens-before.
// The plain read and write of count in one block and the write in the
// other are a data race (undefined behaviour), and the counter may end at
// 1.
//
// @Launch: <<<2, 1>>>
// @Input: l = {0}; count = {0}
// @Output: forall (count[0] == 2)
#include <cuda/atomic>

struct Lock {
  int *word;

  __device__ explicit Lock(int *w) : word(w) {}

  __device__ void acquire() {
    cuda::atomic_ref<int, cuda::thread_scope_device> a(*word);
    while (a.exchange(1, cuda::memory_order_relaxed) != 0) {
    }
  }

  __device__ void release() {
    cuda::atomic_ref<int, cuda::thread_scope_device> a(*word);
    a.store(0, cuda::memory_order_relaxed);
  }
};

__global__ void lock_struct_relaxed(int *l, int *count) {
  Lock lock(l);
  lock.acquire();
  *count = *count + 1;
  lock.release();
}
