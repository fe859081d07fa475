// A block-scope cuda::barrier (libcu++ <cuda/barrier>) in shared memory,
// initialised by thread 0 with init(&bar, 2) and published by
// __syncthreads(), as the CUDA C++ Programming Guide writes it: thread 0
// writes data and meets thread 1 at arrive_and_wait(); thread 1 then
// reads data.  (data is global: a __shared__ slot only ever written 42 is
// folded by nvcc, which may take its uninitialised value to be 42.)  On sm_90 libcu++ makes the barrier an mbarrier:
// arrive is mbarrier.arrive (release, CTA scope), the wait a
// try_wait loop (acquire).
//
// Why it holds (libcu++ cuda::barrier: "arrive ... strongly happens
// before ... the completion step; the completion step happens before the
// return of wait"; PTX ISA, mbarrier: the arrive is a release, a wait
// that observes the phase complete an acquire): thread 0's write happens
// before thread 1's read: out = {42}, no race.  -D WRITE_LATE splits
// thread 0's call into arrive() and wait(token), as the barrier's API
// allows, and writes the slot between them: the write is after thread 0's
// arrival, so nothing orders it with thread 1's read, which may see 0;
// they race.
//
// @Launch: <<<1, 2>>>
// @Input: data = {0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cuda/barrier>
#include <cuda/std/utility>

#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void block_barrier(int *data, int *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
#ifdef WRITE_LATE
    auto token = bar.arrive();
    data[0] = 42;
    bar.wait(cuda::std::move(token));
#else
    data[0] = 42;
    bar.arrive_and_wait();
#endif
  } else {
    bar.arrive_and_wait();
    out[0] = data[0];
  }
}
