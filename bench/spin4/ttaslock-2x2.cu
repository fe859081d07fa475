// A test-and-test-and-set lock: spin reading the lock word (relaxed) until
// it looks free, then try an acquire compare-exchange; release with a
// release store, all at device scope.  The successful compare-exchange
// reads the previous holder's release store, so the critical sections are
// ordered (release/acquire synchronisation): the counter ends at 4, no race.
// 2 blocks of 2 threads (litmus/kernels/ttaslock.cu on a larger launch).
//
// @Launch: <<<2, 2>>>
// @Input: l = {0}; count = {0}
// @Output: forall (count[0] == 4)
#include <cuda/atomic>

__device__ void ttas_lock(int *l) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*l);
  while (true) {
    while (a.load(cuda::memory_order_relaxed) != 0) {
    }
    int expected = 0;
    if (a.compare_exchange_strong(expected, 1, cuda::memory_order_acquire, cuda::memory_order_relaxed))
      break;
  }
}

__device__ void ttas_unlock(int *l) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*l);
  a.store(0, cuda::memory_order_release);
}

__global__ void ttaslock(int *l, int *count) {
  ttas_lock(l);
  *count = *count + 1;
  ttas_unlock(l);
}
