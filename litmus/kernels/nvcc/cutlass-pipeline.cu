// A two-round TMA pipeline written as CUTLASS writes one
// (cutlass/arch/barrier.h, cutlass/pipeline/sm90_pipeline.hpp): a "full"
// ClusterTransactionBarrier that the producer arms with
// arrive_and_expect_tx before each bulk copy (cp.async.bulk ...
// mbarrier::complete_tx::bytes) and the consumer waits on with a
// try_wait.parity loop carrying CUTLASS's suspend-time hint, and an
// "empty" ClusterBarrier the consumer arrives on once it has read the
// buffer and the producer waits on (from phase parity 1, as CUTLASS's
// producer starts) before it overwrites the one-stage buffer.  The
// barriers are initialised by thread 0, published with
// fence_barrier_init() (fence.mbarrier_init.release.cluster) and
// cluster_arrive_relaxed() / cluster_wait(), as CUTLASS's kernels do.
// The inline asm is barrier.h's, reproduced (CUTLASS is not installed).
//
// Why it holds (PTX ISA, mbarrier: "Phase completion", try_wait.parity
// with the parity of the phase before the current one returns true at
// once; "Asynchronous operations": the copy's complete_tx releases its
// write, a wait that observes the phase complete acquires it): round k's
// full phase completes only when the producer's arrive and the 16 bytes
// of copy k have both come, so the consumer's read in round k sees copy
// k; the producer issues copy 1 only after the empty phase 0 completed,
// that is after the consumer read round 0's buffer (its arrive releases
// the read, the producer's try_wait acquires).  out = {42, 43}, no race.
// -D NO_EMPTY_WAIT drops the producer's wait on "empty": copy 1 may land
// before the consumer's first read (out[0] may be 43), and it races with
// that read.  Under --termination it terminates (obe): one CTA, each wait
// completed by the other thread's arrival or the copy.
//
// The consumer's fence_view_async_shared() (fence.proxy.async.shared::cta)
// before it releases the buffer: the ISA ("Async proxy" under
// cp.async.bulk; "Proxies" in the memory model) asks for a cross-proxy
// fence between accesses of one location through the generic proxy (the
// consumer's ld.shared) and the async proxy (the next copy's write), and
// proxy-preserved causality orders the two only through one.  CUTLASS's
// PipelineTmaAsync::consumer_release arrives without it; -D NO_PROXY_FENCE
// writes it so, and under the ISA's letter (ptx-v8) the read and copy 1's
// write then race and out[0] may be 43.
//
// @Launch: <<<1, 2>>>
// @Input: src = {42, 0, 0, 0, 43, 0, 0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 42 /\ out[1] == 43)
#include <cstdint>

namespace cutlass {
namespace arch {

__device__ __forceinline__ uint32_t cast_smem_ptr_to_uint(void const *const ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

struct ClusterBarrier {
  using ValueType = uint64_t;
  ValueType barrier_;

  __device__ void init(uint32_t arrive_count) const { ClusterBarrier::init(&this->barrier_, arrive_count); }
  __device__ void wait(uint32_t phase) const { ClusterBarrier::wait(&this->barrier_, phase); }
  __device__ void arrive() const { ClusterBarrier::arrive(&this->barrier_); }

  static __device__ void init(ValueType const *smem_ptr, uint32_t arrive_count) {
    uint32_t smem_addr = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile(
        "{\n\t"
        "mbarrier.init.shared::cta.b64 [%1], %0; \n"
        "}"
        :
        : "r"(arrive_count), "r"(smem_addr)
        : "memory");
  }

  static __device__ void wait(ValueType const *smem_ptr, uint32_t phase) {
    uint32_t smem_addr = cast_smem_ptr_to_uint(smem_ptr);
    // Arbitrarily large timer value after which try-wait expires and re-tries.
    uint32_t ticks = 0x989680;
    asm volatile(
        "{\n\t"
        ".reg .pred       P1; \n\t"
        "LAB_WAIT: \n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %2; \n\t"
        "@P1 bra DONE; \n\t"
        "bra     LAB_WAIT; \n\t"
        "DONE: \n\t"
        "}"
        :
        : "r"(smem_addr), "r"(phase), "r"(ticks)
        : "memory");
  }

  static __device__ void arrive(ValueType const *smem_ptr) {
    uint32_t smem_addr = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile(
        "{\n\t"
        "mbarrier.arrive.shared::cta.b64 _, [%0];\n\t"
        "}"
        :
        : "r"(smem_addr)
        : "memory");
  }
};

struct ClusterTransactionBarrier : public ClusterBarrier {
  __device__ void arrive_and_expect_tx(uint32_t transaction_bytes) const {
    ClusterTransactionBarrier::arrive_and_expect_tx(&this->barrier_, transaction_bytes);
  }

  static __device__ void arrive_and_expect_tx(ValueType const *smem_ptr, uint32_t transaction_bytes) {
    uint32_t smem_addr = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile(
        "{\n\t"
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0; \n\t"
        "}"
        :
        : "r"(transaction_bytes), "r"(smem_addr)
        : "memory");
  }
};

__device__ void fence_view_async_shared() {
  asm volatile(
      "{\n\t"
      "fence.proxy.async.shared::cta; \n"
      "}" ::
          : "memory");
}

__device__ void fence_barrier_init() {
  asm volatile(
      "{\n\t"
      "fence.mbarrier_init.release.cluster; \n"
      "}" ::
          : "memory");
}

}  // namespace arch
}  // namespace cutlass

namespace cute {
__device__ void cluster_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" : :); }
__device__ void cluster_wait() { asm volatile("barrier.cluster.wait.aligned;\n" : :); }

// SM90_BULK_COPY_G2S::copy
__device__ void bulk_copy_g2s(void const *gmem_ptr, uint64_t *mbar_ptr, void *smem_ptr, int32_t load_bytes) {
  uint32_t smem_int_mbar = cutlass::arch::cast_smem_ptr_to_uint(mbar_ptr);
  uint32_t smem_int_ptr = cutlass::arch::cast_smem_ptr_to_uint(smem_ptr);
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
               :
               : "r"(smem_int_ptr), "l"(gmem_ptr), "r"(load_bytes), "r"(smem_int_mbar)
               : "memory");
}
}  // namespace cute

constexpr int kStages = 1;
constexpr int kRounds = 2;
constexpr uint32_t kTileBytes = 16;

__global__ void pipeline(const int *src, int *out) {
  __shared__ alignas(128) int smem_buf[kStages][4];
  __shared__ cutlass::arch::ClusterTransactionBarrier full[kStages];
  __shared__ cutlass::arch::ClusterBarrier empty[kStages];
  if (threadIdx.x == 0) {
    full[0].init(1);
    empty[0].init(1);
    cutlass::arch::fence_barrier_init();
  }
  cute::cluster_arrive_relaxed();
  cute::cluster_wait();

  if (threadIdx.x == 0) {   // the producer
    uint32_t phase = 1;
    for (int k = 0; k < kRounds; k++) {
#ifndef NO_EMPTY_WAIT
      empty[0].wait(phase);
#endif
      full[0].arrive_and_expect_tx(kTileBytes);
      cute::bulk_copy_g2s(src + 4 * k, &full[0].barrier_, smem_buf[0], kTileBytes);
      phase ^= 1;
    }
  } else {   // the consumer
    uint32_t phase = 0;
    for (int k = 0; k < kRounds; k++) {
      full[0].wait(phase);
      out[k] = smem_buf[0][0];
#ifndef NO_PROXY_FENCE
      cutlass::arch::fence_view_async_shared();
#endif
      empty[0].arrive();
      phase ^= 1;
    }
  }
}
