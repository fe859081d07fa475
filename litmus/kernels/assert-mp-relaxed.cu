// assert-mp.cu with a relaxed flag: nothing orders the data, the plain
// accesses race (undefined behaviour) and the assert may fail: the answer
// names the thread and the line of the assert.
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}
#include <cassert>
#include <cuda/atomic>

__global__ void assert_mp_relaxed(int *flag, int *data) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_relaxed);
  } else {
    while (f.load(cuda::memory_order_relaxed) == 0) {
    }
    assert(*data == 42);
  }
}
