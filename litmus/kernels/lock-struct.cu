// A spin lock as a struct, constructed from the kernel's pointer and used
// through its member functions (Lock lock(l); lock.acquire(); ...), 2
// blocks of 1 thread.  acquire() exchanges 1 into the lock word with
// memory_order_acquire until it reads 0; release() stores 0 with
// memory_order_release, both at device scope.  The exchange that takes the
// lock reads the release store of the previous holder (or the initial 0):
// a release store read by an acquire RMW at a scope that includes both
// threads synchronises with it (CUDA C++ memory model, "Scope
// Relationships" and the release/acquire rules), so the first critical
// section happens before the second.  The counter ends at 2 and the plain
// accesses do not race.
//
// @Launch: <<<2, 1>>>
// @Input: l = {0}; count = {0}
// @Output: forall (count[0] == 2)
#include <cuda/atomic>

struct Lock {
  int *word;

  __device__ explicit Lock(int *w) : word(w) {}

  __device__ void acquire() {
    cuda::atomic_ref<int, cuda::thread_scope_device> a(*word);
    while (a.exchange(1, cuda::memory_order_acquire) != 0) {
    }
  }

  __device__ void release() {
    cuda::atomic_ref<int, cuda::thread_scope_device> a(*word);
    a.store(0, cuda::memory_order_release);
  }
};

__global__ void lock_struct(int *l, int *count) {
  Lock lock(l);
  lock.acquire();
  *count = *count + 1;
  lock.release();
}
