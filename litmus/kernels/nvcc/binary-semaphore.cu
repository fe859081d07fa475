// A lock over cuda::binary_semaphore<SCOPE> (libcu++ <cuda/semaphore>):
// each of two blocks acquire()s it, increments a plain counter and
// release()s it.  The semaphore starts at 1 (@Input sem = {1}: its one
// member is the count).  SCOPE is cuda::thread_scope_device; -D
// BLOCK_SCOPE makes it cuda::thread_scope_block, one block's scope for a
// semaphore two blocks share.
//
// The lock is taken with a try_acquire() loop.  -D ACQUIRE calls the
// blocking acquire(), whose libcu++ body polls 16 times unrolled, then
// backs off on %globaltimer in a second loop: read as one spin loop
// (docs/via-nvcc.md, "Blocking waits"), with the same verdicts.  Under
// --termination the lock terminates (obe): the block that holds it has
// started and runs on.
//
// Why it holds (libcu++ counting_semaphore: "release ... strongly
// happens before ... an acquire that observes its effect"; the count's
// decrement is an atomic compare-and-exchange at the semaphore's scope):
// at device scope the critical sections exclude each other and the first
// release happens before the second acquire's return: counter = {2}, no
// race.  At block scope the two blocks' operations are not morally
// strong: both may take the semaphore, and the counter's accesses race
// (counter may end at 1).
//
// @Launch: <<<2, 1>>>
// @Input: sem = {1}; counter = {0}
// @Output: forall (counter[0] == 2)
#include <cuda/semaphore>

#ifdef BLOCK_SCOPE
#define SCOPE cuda::thread_scope_block
#else
#define SCOPE cuda::thread_scope_device
#endif

__global__ void semaphore_lock(cuda::binary_semaphore<SCOPE> *sem, int *counter) {
#ifdef ACQUIRE
  sem->acquire();
#else
  while (!sem->try_acquire()) {
  }
#endif
  counter[0] = counter[0] + 1;
  sem->release();
}
