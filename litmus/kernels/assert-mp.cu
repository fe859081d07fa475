// An assert in the consumer of a release/acquire message: once the flag is
// seen, the data must be there.  The acquire load reads the release store,
// so the assert cannot fail (CUDA C++ memory model: synchronises-with,
// happens-before).  No @Output: the question is that no assert fails.
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}
#include <cassert>
#include <cuda/atomic>

__global__ void assert_mp(int *flag, int *data) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    assert(*data == 42);
  }
}
