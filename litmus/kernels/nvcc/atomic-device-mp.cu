// Message passing through a cuda::atomic<int, cuda::thread_scope_device>
// flag (libcu++), as CUDA C++ users write it: block 0 writes data and
// stores 1 to the flag with memory_order_release; block 1 spins on
// load(memory_order_acquire) until it reads 1, then reads data.  The flag
// is an atomic object passed by pointer.
//
// Why it holds (CUDA C++ memory model, libcu++ "Memory model": a release
// store and an acquire load that reads it synchronise when each thread is
// in the other's scope - device scope holds both blocks): the write of
// data happens before its read, out = {42}, no race.  -D RELAXED uses
// memory_order_relaxed for both: no synchronisation, the accesses of data
// race and out may be 0.  Under --termination block 1 may spin for ever
// on a block 0 that never starts (CUDA does not promise that the blocks
// of a grid run at once: obe).
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cuda/atomic>

#ifdef RELAXED
#define STORE_ORDER cuda::memory_order_relaxed
#define LOAD_ORDER cuda::memory_order_relaxed
#else
#define STORE_ORDER cuda::memory_order_release
#define LOAD_ORDER cuda::memory_order_acquire
#endif

__global__ void atomic_mp(cuda::atomic<int, cuda::thread_scope_device> *flag, int *data, int *out) {
  if (blockIdx.x == 0) {
    data[0] = 42;
    flag->store(1, STORE_ORDER);
  } else {
    while (flag->load(LOAD_ORDER) != 1) {
    }
    out[0] = data[0];
  }
}
