// A TMA load pipeline in the style of CUTLASS's cutlass/arch/barrier.h:
// the barrier's operations are inline PTX in static member functions
// (mbarrier.init, mbarrier.arrive.expect_tx, a try_wait.parity loop with a
// label and a predicate of its own), the copy a cp.async.bulk that
// completes its bytes on the mbarrier.  One CTA of two threads: thread 0
// initialises the barrier, both meet at __syncthreads(), thread 0 announces
// 16 bytes and issues the copy of src to the shared buffer, thread 1 waits
// for the phase and reads the buffer.
//
// Why it holds (PTX ISA, "Asynchronous operations" and mbarrier): the
// phase completes when its one arrival (arrive.expect_tx) is made and the
// 16 announced bytes are paid by the copy's complete_tx; a try_wait that
// observes the phase complete (acquire at CTA scope by default) makes the
// writes of the asynchronous operations that completed it visible.  So
// out = {42}, and no access races.  -D NO_WAIT reads the buffer without
// waiting: the copy's write and the read are then unordered (another
// proxy, nothing observed): out may stay 0 and they race.  The source-level
// reader refuses this kernel (a struct, inline asm).
//
// @Launch: <<<1, 2>>>
// @Input: src = {42, 0, 0, 0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

struct ClusterBarrier {
  uint64_t barrier_;

  static __device__ void init(uint64_t const *barrier, uint32_t arrive_count) {
    asm volatile("{\n\t"
                 "mbarrier.init.shared::cta.b64 [%1], %0; \n"
                 "}"
                 :
                 : "r"(arrive_count), "r"(smem_addr(barrier)));
  }

  static __device__ void arrive_and_expect_tx(uint64_t const *barrier, uint32_t bytes) {
    asm volatile("{\n\t"
                 "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0; \n\t"
                 "}"
                 :
                 : "r"(bytes), "r"(smem_addr(barrier)));
  }

  static __device__ void wait(uint64_t const *barrier, uint32_t phase) {
    asm volatile("{\n\t"
                 ".reg .pred       P1; \n\t"
                 "LAB_WAIT: \n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1; \n\t"
                 "@P1 bra DONE; \n\t"
                 "bra     LAB_WAIT; \n\t"
                 "DONE: \n\t"
                 "}"
                 :
                 : "r"(smem_addr(barrier)), "r"(phase));
  }
};

__device__ void bulk_copy(void *dst, const void *src, uint32_t bytes, uint64_t *bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :
               : "r"(smem_addr(dst)), "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}

__global__ void tma_pipeline(const int *src, int *out) {
  __shared__ alignas(16) int buf[4];
  __shared__ uint64_t full;
  if (threadIdx.x == 0) {
    ClusterBarrier::init(&full, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ClusterBarrier::arrive_and_expect_tx(&full, 16);
    bulk_copy(buf, src, 16, &full);
  } else {
#ifndef NO_WAIT
    ClusterBarrier::wait(&full, 0);
#endif
    out[0] = buf[0];
  }
}
