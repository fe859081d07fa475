// Message passing between two blocks: block 0 writes data and sets a flag
// with a device-scope release store; block 1 spins on the flag with an
// acquire load and reads data.  The release/acquire pair at device scope
// synchronises across blocks (CUDA C++ memory model: a release store and
// an acquire load that reads it, with scopes including both threads), so
// the read of data happens after the write: r can only be 42, and there is
// no data race.
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; r = {-1}
// @Output: forall (r[0] == 42)
#include <cuda/atomic>

__global__ void mp(int *flag, int *data, int *r) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    *r = *data;
  }
}
