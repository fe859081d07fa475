// A ticket lock: each thread takes a ticket with atomicAdd (relaxed), waits
// until `serving` reaches it with an acquire load, and releases by storing
// the next ticket with a release store, both at device scope.  The release
// store of one holder is read by the acquire load of the next, so the
// critical sections are ordered by happens-before (CUDA C++ memory model:
// release/acquire synchronisation at a scope including both threads): the
// counter ends at 4 and there is no race.  2 blocks of 2 threads
// (litmus/kernels/ticketlock.cu on a larger launch).
//
// @Launch: <<<2, 2>>>
// @Input: next = {0}; serving = {0}; count = {0}
// @Output: forall (count[0] == 4)
#include <cuda/atomic>

__global__ void ticketlock(unsigned *next, unsigned *serving, int *count) {
  unsigned ticket = atomicAdd(next, 1);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> s(*serving);
  while (s.load(cuda::memory_order_acquire) != ticket) {
  }
  *count = *count + 1;
  s.store(ticket + 1, cuda::memory_order_release);
}
