// A generic-proxy store, then a bulk copy that reads it, written with
// libcu++'s cuda::ptx wrappers (<cuda/ptx>): thread 0 writes the global
// source (src[0] = 42, over the input 7), then initialises an mbarrier,
// arms it with mbarrier_arrive_expect_tx and issues cp_async_bulk
// (cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes) of
// src to a shared buffer; thread 1 waits for the phase with
// mbarrier_try_wait_parity and reads the buffer.
//
// Why it holds (PTX ISA, cp.async.bulk "Async proxy": the copy reads
// through the async proxy, "accessing the same memory location across
// multiple proxies needs a cross-proxy fence", fence.proxy.async;
// "Completion mechanisms": the copy's completion is followed by an
// implicit generic-async proxy fence, and the try_wait that sees the
// phase complete acquires the copy's write): with
// fence_proxy_async(space_global) between the store and the copy, the
// copy reads 42: out = {42}, no race.  -D NO_PROXY_FENCE leaves the fence
// out, the mistake the ISA warns of: the copy may read the stale 7 (out
// may be 7), and the store races with the copy's read.
//
// @Launch: <<<1, 2>>>
// @Input: src = {7, 0, 0, 0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cuda/ptx>
#include <cuda/std/cstdint>

namespace ptx = cuda::ptx;

__global__ void proxy_fence(int *src, int *out) {
  __shared__ alignas(16) int buf[4];
  __shared__ cuda::std::uint64_t bar;
  if (threadIdx.x == 0) {
    src[0] = 42;
#ifndef NO_PROXY_FENCE
    ptx::fence_proxy_async(ptx::space_global);
#endif
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 16);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, 16, &bar);
  } else {
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    out[0] = buf[0];
  }
}
