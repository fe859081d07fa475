// cuda::memcpy_async into shared memory bound to a block-scope
// cuda::barrier, as the CUDA C++ Programming Guide's "Asynchronous Data
// Copies" writes it: thread 0 starts the copy of 16 aligned bytes
// (cuda::aligned_size_t<16>: on sm_90 libcu++ issues cp.async.bulk with
// the barrier's mbarrier, then mbarrier.expect_tx of the bytes), both
// threads arrive_and_wait(), and thread 1 reads the buffer.
//
// Why it holds (libcu++ memcpy_async: the copy's completion is bound to
// the barrier's current phase, which completes only when the copy has
// completed; PTX ISA: the phase completes when its arrivals and its
// transaction bytes are both in, and a wait that observes it acquires the
// copy's write, released by its complete_tx): thread 1 reads 42: out =
// {42}, no race.  -D EARLY_READ reads the buffer before arriving: nothing
// orders the read with the copy's write, which race, and out may be 0.
//
// @Launch: <<<1, 2>>>
// @Input: src = {42, 0, 0, 0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void memcpy_async_barrier(const int *src, int *out) {
  __shared__ alignas(16) int buf[4];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) cuda::memcpy_async(buf, src, cuda::aligned_size_t<16>(16), bar);
#ifdef EARLY_READ
  if (threadIdx.x == 1) out[0] = buf[0];
  bar.arrive_and_wait();
#else
  bar.arrive_and_wait();
  if (threadIdx.x == 1) out[0] = buf[0];
#endif
}
