// A split-K semaphore in the style of CUTLASS's cutlass/semaphore.h: a
// class holding a pointer to the lock word, whose wait() spins on an
// acquire load and whose release() stores with release order, both
// through cuda::atomic_ref at device scope (libcu++, whose operations are
// inline PTX: ld.acquire.gpu, st.release.gpu).  Block 0 computes its
// partial sum and releases the semaphore with status 1; block 1 waits for
// status 1 and adds its own part to block 0's.  The source-level reader
// refuses classes.
//
// Why it holds (CUDA C++ memory model): the release store of status 1 and
// the acquire load that reads it synchronise at device scope (morally
// strong for two blocks of one device), so block 0's write of partial
// happens before block 1's read: out = {12} and no access races.  With
// -D RELAXED both orders are relaxed: nothing orders the accesses of
// partial, which race, and out may be 7.  Under --termination block 1 may
// wait for ever for a block 0 that never starts (CUDA does not promise
// that the blocks of a grid run at once: obe), as for mp-acq-rel.cu.
//
// @Launch: <<<2, 1>>>
// @Input: lock = {0}; partial = {0}; out = {-1}
// @Output: forall (out[0] == 12)
#include <cuda/atomic>

#ifdef RELAXED
#define ACQUIRE cuda::memory_order_relaxed
#define RELEASE cuda::memory_order_relaxed
#else
#define ACQUIRE cuda::memory_order_acquire
#define RELEASE cuda::memory_order_release
#endif

class Semaphore {
  int *lock_;

 public:
  __device__ explicit Semaphore(int *lock) : lock_(lock) {}

  __device__ void wait(int status) {
    cuda::atomic_ref<int, cuda::thread_scope_device> word(*lock_);
    while (word.load(ACQUIRE) != status) {
    }
  }

  __device__ void release(int status) {
    cuda::atomic_ref<int, cuda::thread_scope_device> word(*lock_);
    word.store(status, RELEASE);
  }
};

__global__ void splitk(int *lock, int *partial, int *out) {
  Semaphore sem(lock);
  if (blockIdx.x == 0) {
    partial[0] = 5;
    sem.release(1);
  } else {
    sem.wait(1);
    out[0] = partial[0] + 7;
  }
}
