// A ticket lock as a class over two unsigned words (typedef'd), 2 blocks
// of 1 thread; inside the critical section a static __forceinline__
// device function that returns from inside its loop finds the first free
// slot, a pointer local names it and a reference names the counter.
// acquire() takes a ticket with atomicAdd (relaxed) and spins with a
// memory_order_acquire load of `serving` until it shows the ticket;
// release() adds 1 to `serving` with memory_order_release.  The holder's
// release RMW is read by the next holder's acquire load, so it
// synchronises with it (CUDA C++ memory model, release/acquire at device
// scope): the first critical section happens before the second, which
// finds slot 0 taken and takes slot 1.  count ends at 2, the slots hold
// the two block numbers + 1 in some order; no race.
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
    serving.fetch_add(1u, cuda::memory_order_release);
  }
};

static __device__ __forceinline__ int first_free(const int *slots, int n) {
  for (int i = 0; i < n; i++) {
    if (slots[i] == 0) return i;
  }
  return -1;
}

__global__ void ticketlock_class(ticket_t *next, ticket_t *serving, int *slots, counter_t *count) {
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
