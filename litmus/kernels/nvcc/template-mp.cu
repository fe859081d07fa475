// Message passing written as a template over the scope of its atomics, as
// libraries write their synchronisation: block 0 writes data and releases
// flag, block 1 acquires flag and reads data.  The kernel is instantiated
// for SCOPE (by default cuda::thread_scope_device; -D SCOPE=... picks
// another).  The source-level reader refuses templates.
//
// Why it holds (CUDA C++ memory model, "Scope Relationships" and
// release/acquire synchronisation): at device scope the release store and
// the acquire load that reads it are morally strong for threads of two
// blocks, so they synchronise, the write of data happens before its read:
// out = {42} and no access races.  With SCOPE=cuda::thread_scope_block the
// two blocks are outside each other's scope: the pair does not
// synchronise, out may be 0 and the accesses of data race (PTX: the
// .cta-scoped release and acquire of two CTAs are not morally strong).
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cuda/atomic>

#ifndef SCOPE
#define SCOPE cuda::thread_scope_device
#endif

template <typename T, cuda::thread_scope S>
__device__ void publish(T *flag, T *data, T value) {
  *data = value;
  cuda::atomic_ref<T, S>(*flag).store(1, cuda::memory_order_release);
}

template <typename T, cuda::thread_scope S>
__device__ T consume(T *flag, T *data) {
  while (cuda::atomic_ref<T, S>(*flag).load(cuda::memory_order_acquire) == 0) {
  }
  return *data;
}

template <cuda::thread_scope S>
__global__ void template_mp(int *flag, int *data, int *out) {
  if (blockIdx.x == 0)
    publish<int, S>(flag, data, 42);
  else
    out[0] = consume<int, S>(flag, data);
}

template __global__ void template_mp<SCOPE>(int *, int *, int *);
