// A TMA load whose producer thread is picked as CUTLASS picks it:
// cute::elect_one_sync() (cute/arch/cluster_sm90.hpp: elect.sync over the
// full warp, its predicate turned into an int), and whose consumers poll
// with ClusterBarrier::try_wait (try_wait.parity once, selp to a bool) in
// a loop of their own, as PipelineTmaAsync::consumer_try_wait does before
// consumer_wait.  Three threads of one warp: the elected one initialises
// the mbarrier (one arrival), then after __syncthreads() announces 16
// bytes with arrive_and_expect_tx and issues the bulk copy; the two
// others poll and read the buffer.
//
// Why it holds (PTX ISA, elect.sync: one leader among the warp's threads
// in membermask - the lowest lane here, as CUTLASS's fallback writes it;
// mbarrier: the phase completes when its one arrival and the 16 announced
// bytes are both in; a try_wait that returns true acquires the copy's
// write, which its complete_tx releases): both readers see 42: out =
// {42, 42}, no race.  -D NO_EXPECT_TX arrives without announcing the
// bytes (ClusterBarrier::arrive): the phase may complete on the arrival
// alone, before the copy lands, so a reader may see 0 and it races with
// the copy's write.
//
// @Launch: <<<1, 3>>>
// @Input: src = {42, 0, 0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 42 /\ out[1] == 42)
#include <cstdint>

__device__ __forceinline__ uint32_t cast_smem_ptr_to_uint(void const *const ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

__device__ uint32_t elect_one_sync() {
  uint32_t pred = 0;
  uint32_t laneid = 0;
  asm volatile(
      "{\n"
      ".reg .b32 %%rx;\n"
      ".reg .pred %%px;\n"
      "     elect.sync %%rx|%%px, %2;\n"
      "@%%px mov.s32 %1, 1;\n"
      "     mov.s32 %0, %%rx;\n"
      "}\n"
      : "+r"(laneid), "+r"(pred)
      : "r"(0xFFFFFFFF));
  return pred;
}

struct ClusterBarrier {
  static __device__ void init(uint64_t const *smem_ptr, uint32_t arrive_count) {
    asm volatile("{\n\tmbarrier.init.shared::cta.b64 [%1], %0; \n}"
                 :
                 : "r"(arrive_count), "r"(cast_smem_ptr_to_uint(smem_ptr))
                 : "memory");
  }
  static __device__ bool try_wait(uint64_t const *smem_ptr, uint32_t phase) {
    uint32_t waitComplete;
    asm volatile(
        "{\n\t"
        ".reg .pred P1; \n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2; \n\t"
        "selp.b32 %0, 1, 0, P1; \n\t"
        "}"
        : "=r"(waitComplete)
        : "r"(cast_smem_ptr_to_uint(smem_ptr)), "r"(phase)
        : "memory");
    return static_cast<bool>(waitComplete);
  }
  static __device__ void arrive(uint64_t const *smem_ptr) {
    asm volatile("{\n\tmbarrier.arrive.shared::cta.b64 _, [%0];\n\t}" : : "r"(cast_smem_ptr_to_uint(smem_ptr)) : "memory");
  }
  static __device__ void arrive_and_expect_tx(uint64_t const *smem_ptr, uint32_t transaction_bytes) {
    asm volatile("{\n\tmbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0; \n\t}"
                 :
                 : "r"(transaction_bytes), "r"(cast_smem_ptr_to_uint(smem_ptr))
                 : "memory");
  }
};

__global__ void elect_tma(const int *src, int *out) {
  __shared__ alignas(16) int buf[4];
  __shared__ uint64_t full;
  bool leader = elect_one_sync();
  if (leader) ClusterBarrier::init(&full, 1);
  __syncthreads();
  if (leader) {
#ifdef NO_EXPECT_TX
    ClusterBarrier::arrive(&full);
#else
    ClusterBarrier::arrive_and_expect_tx(&full, 16);
#endif
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :
                 : "r"(cast_smem_ptr_to_uint(buf)), "l"(src), "r"(16), "r"(cast_smem_ptr_to_uint(&full))
                 : "memory");
  } else {
    while (!ClusterBarrier::try_wait(&full, 0)) {
    }
    out[threadIdx.x - 1] = buf[0];
  }
}
