// A hand-off through cuda::atomic_ref<int, thread_scope_device>'s
// blocking wait (libcu++, C++20 atomic waiting on a plain int): block 0
// writes data, stores 1 to ready with memory_order_release and
// notify_all()s; block 1 calls ready.wait(0, memory_order_acquire), which
// returns once it loads a value other than 0, then reads data.
//
// wait() is libcu++'s polling wait: 16 loads unrolled by nvcc, then a
// back-off loop on %globaltimer with nanosleep; notify_all() on the device
// writes nothing (docs/via-nvcc.md, "Blocking waits").
//
// Why it holds (CUDA C++ memory model; [atomics.wait]: wait(old, order)
// returns after a load with `order` that reads a value other than old):
// the acquire load that reads the release store synchronises with it at
// device scope, which holds both blocks: data's write happens before its
// read, out = {7}, no race.  -D WRITE_LATE writes data after the store to
// ready: nothing orders that write before the read, the two race, and out
// may be 0.  Under --termination block 1 may wait for ever for a block 0
// that never starts (obe).
//
// @Launch: <<<2, 1>>>
// @Input: ready = {0}; data = {0}; out = {-1}
// @Output: forall (out[0] == 7)
#include <cuda/atomic>

__global__ void ref_wait(int *ready, int *data, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> r(*ready);
  if (blockIdx.x == 0) {
#ifndef WRITE_LATE
    data[0] = 7;
#endif
    r.store(1, cuda::memory_order_release);
#ifdef WRITE_LATE
    data[0] = 7;
#endif
    r.notify_all();
  } else {
    r.wait(0, cuda::memory_order_acquire);
    out[0] = data[0];
  }
}
