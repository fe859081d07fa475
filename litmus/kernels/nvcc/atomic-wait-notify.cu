// Producer and consumer through cuda::atomic<int, thread_scope_device>'s
// blocking wait (libcu++, C++20 atomic waiting): block 0 writes data,
// stores 1 to the flag with memory_order_release and notify_one()s; block
// 1 calls flag.wait(0, memory_order_acquire), which returns once it loads
// a value other than 0, then reads data.
//
// wait() is libcu++'s polling wait: 16 loads of the flag unrolled by nvcc,
// then a back-off loop on %globaltimer with nanosleep; notify_one() on the
// device writes nothing (docs/via-nvcc.md, "Blocking waits").
//
// Why it holds (CUDA C++ memory model; [atomics.wait]: wait(old, order)
// returns after a load with `order` that reads a value other than old):
// the acquire load that reads the release store of 1 synchronises with it
// at device scope, which holds both blocks, so the write of data happens
// before its read: out = {42}, no race.  -D RELAXED stores and waits with
// memory_order_relaxed: nothing orders the accesses of data, which race,
// and out may be 0.  Under --termination block 1 may wait for ever for a
// block 0 that never starts (CUDA does not promise that the blocks of a
// grid run at once: obe), as in atomic-device-mp.cu.
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cuda/atomic>

#ifdef RELAXED
#define STORE_ORDER cuda::memory_order_relaxed
#define WAIT_ORDER cuda::memory_order_relaxed
#else
#define STORE_ORDER cuda::memory_order_release
#define WAIT_ORDER cuda::memory_order_acquire
#endif

__global__ void wait_notify(cuda::atomic<int, cuda::thread_scope_device> *flag, int *data, int *out) {
  if (blockIdx.x == 0) {
    data[0] = 42;
    flag->store(1, STORE_ORDER);
    flag->notify_one();
  } else {
    flag->wait(0, WAIT_ORDER);
    out[0] = data[0];
  }
}
