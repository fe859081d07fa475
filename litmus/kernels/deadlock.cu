// Two blocks each wait for the other's flag before setting their own: no
// order of execution lets either leave its loop.  --termination answers
// `may not terminate` with the hang: both blocks spin on a flag that stays
// 0.  (As a question of values, the kernel asks nothing: forall (true).)
//
// @Launch: <<<2, 1>>>
// @Input: flags = {0, 0}
#include <cuda/atomic>

__global__ void deadlock(int *flags) {
  int me = blockIdx.x, other = 1 - blockIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_device> mine(flags[me]), theirs(flags[other]);
  while (theirs.load(cuda::memory_order_acquire) == 0) {
  }
  mine.store(1, cuda::memory_order_release);
}
