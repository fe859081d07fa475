// ticketlock-class.cu with the lock released by a relaxed fetch_add: the
// next holder's acquire load still reads it, but a relaxed RMW does not
// synchronise with the load that reads it (CUDA C++ memory model: a
// release, or a release fence before it, is needed), so the critical
// sections are not ordered by happens-before.  The second holder's reads
// of the slots and of count race with the first holder's writes
// (undefined behaviour): both may take slot 0, and count may end at 1.
//
// @Launch: <<<2, 1>>>
// @Input: next = {0}; serving = {0}; slots = {0, 0}; count = {0}
// @Output: forall (count[0] == 2 && slots[0] != 0 && slots[1] != 0 && slots[0] != slots[1])
#include <cuda/atomic>

typedef unsigned int ticket_t;
using counter_t = int;

class TicketLock {
  ticket_t *next_;
  ticket_t *serving_;

 public:
  __device__ TicketLock(ticket_t *next, ticket_t *serving) : next_(next), serving_(serving) {}

  __device__ void acquire() {
    ticket_t mine = atomicAdd(next_, 1u);
    cuda::atomic_ref<ticket_t, cuda::thread_scope_device> serving(*serving_);
    while (serving.load(cuda::memory_order_acquire) != mine) {
    }
  }

  __device__ void release() {
    cuda::atomic_ref<ticket_t, cuda::thread_scope_device> serving(*serving_);
    serving.fetch_add(1u, cuda::memory_order_relaxed);
  }
};

static __device__ __forceinline__ int first_free(const int *slots, int n) {
  for (int i = 0; i < n; i++) {
    if (slots[i] == 0) return i;
  }
  return -1;
}

__global__ void ticketlock_class_relaxed(ticket_t *next, ticket_t *serving, int *slots, counter_t *count) {
  TicketLock lock(next, serving);
  lock.acquire();
  int s = first_free(slots, 2);
  if (s >= 0) {
    int *slot = &slots[s];
    *slot = blockIdx.x + 1;
    counter_t &c = count[0];
    c = c + 1;
  }
  lock.release();
}
