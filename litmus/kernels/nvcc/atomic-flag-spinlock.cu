// A spinlock over cuda::std::atomic_flag (libcu++; its scope is the
// system's): each of two blocks takes the lock with
// test_and_set(memory_order_acquire) in a loop, increments a plain
// counter and releases the lock with clear(memory_order_release).
//
// Why it holds (CUDA C++ memory model: the clear of one block and the
// test_and_set that reads it synchronise; test_and_set is an atomic
// read-modify-write, so the two critical sections never overlap): the
// second increment reads the first's write: out = {2}, no race.
// -D RELAXED takes and releases the lock relaxed: the read-modify-writes
// still exclude each other, but nothing orders the counter's accesses,
// which race: an increment may read 0 and the count end at 1.  Under
// --termination it terminates (obe): the lock's holder has started, so it
// runs on to its clear().
//
// @Launch: <<<2, 1>>>
// @Input: lock = {0}; counter = {0}
// @Output: forall (counter[0] == 2)
#include <cuda/std/atomic>

#ifdef RELAXED
#define ACQUIRE cuda::std::memory_order_relaxed
#define RELEASE cuda::std::memory_order_relaxed
#else
#define ACQUIRE cuda::std::memory_order_acquire
#define RELEASE cuda::std::memory_order_release
#endif

__global__ void spinlock(cuda::std::atomic_flag *lock, int *counter) {
  while (lock->test_and_set(ACQUIRE)) {
  }
  counter[0] = counter[0] + 1;
  lock->clear(RELEASE);
}
