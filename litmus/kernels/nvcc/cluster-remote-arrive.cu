// A CTA signals its peer in the cluster the way CUTLASS's
// ClusterBarrier::arrive(cta_id, pred) does (cutlass/arch/barrier.h):
// block 1 writes block 0's copy of the shared data through distributed
// shared memory (mapa, st.shared::cluster), then arrives on block 0's
// mbarrier through mapa.shared::cluster and
// mbarrier.arrive.shared::cluster.b64 _, [remAddr32]; block 0, which
// initialised its mbarrier for one arrival and published the init with
// fence.mbarrier_init and a cluster barrier, waits with
// try_wait.parity.shared::cta and reads its data.
//
// Why it holds (PTX ISA, mbarrier.arrive: the arrive is a release at its
// scope, .cta by default; try_wait.parity that observes the phase
// complete an acquire; an arrive on another CTA's object through
// .shared::cluster is allowed with the default .release.cta): the
// operation is performed on block 0's object, which only block 0 waits
// on, so the arrive and the wait synchronise (ptx-v8's default
// remote-arrive=barrier reading, docs/hopper.md) and the remote write
// happens before the read: out = {42}, no race.  -D EARLY_ARRIVE arrives
// before the write: nothing orders the write with the read, which race,
// and out may be 0.
//
// @Launch: <<<2, 1>>> cluster(2)
// @Input: out = {-1}
// @Output: forall (out[0] == 42)
#include <cstdint>

__device__ __forceinline__ uint32_t cast_smem_ptr_to_uint(void const *const ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

struct ClusterBarrier {
  uint64_t barrier_;

  static __device__ void init(uint64_t const *smem_ptr, uint32_t arrive_count) {
    uint32_t smem_addr = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("{\n\t"
                 "mbarrier.init.shared::cta.b64 [%1], %0; \n"
                 "}"
                 :
                 : "r"(arrive_count), "r"(smem_addr)
                 : "memory");
  }

  static __device__ void wait(uint64_t const *smem_ptr, uint32_t phase) {
    uint32_t smem_addr = cast_smem_ptr_to_uint(smem_ptr);
    asm volatile("{\n\t"
                 ".reg .pred       P1; \n\t"
                 "LAB_WAIT: \n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1; \n\t"
                 "@P1 bra DONE; \n\t"
                 "bra     LAB_WAIT; \n\t"
                 "DONE: \n\t"
                 "}"
                 :
                 : "r"(smem_addr), "r"(phase)
                 : "memory");
  }

  // Remote SMEM arrive with a predicate (usually done to pick the thread doing the arrive)
  static __device__ void arrive(uint64_t const *smem_ptr, uint32_t cta_id, uint32_t pred) {
    uint32_t smem_addr = cast_smem_ptr_to_uint(smem_ptr);
    if (pred) {
      asm volatile("{\n\t"
                   ".reg .b32 remAddr32;\n\t"
                   "mapa.shared::cluster.u32  remAddr32, %0, %1;\n\t"
                   "mbarrier.arrive.shared::cluster.b64  _, [remAddr32];\n\t"
                   "}"
                   :
                   : "r"(smem_addr), "r"(cta_id)
                   : "memory");
    }
  }
};

__device__ void fence_barrier_init() { asm volatile("{\n\tfence.mbarrier_init.release.cluster; \n}" ::: "memory"); }
__device__ void cluster_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" : :); }
__device__ void cluster_wait() { asm volatile("barrier.cluster.wait.aligned;\n" : :); }

__device__ void st_peer(int const *p, uint32_t cta_id, int v) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(cast_smem_ptr_to_uint(p)), "r"(cta_id));
  asm volatile("st.shared::cluster.u32 [%0], %1;\n" : : "r"(remote), "r"(v) : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) remote_arrive(int *out) {
  __shared__ uint64_t bar;
  __shared__ int data;
  if (blockIdx.x == 0) {
    ClusterBarrier::init(&bar, 1);
    fence_barrier_init();
  }
  cluster_arrive_relaxed();
  cluster_wait();
  if (blockIdx.x == 1) {
#ifdef EARLY_ARRIVE
    ClusterBarrier::arrive(&bar, 0, 1);
    st_peer(&data, 0, 42);
#else
    st_peer(&data, 0, 42);
    ClusterBarrier::arrive(&bar, 0, 1);
#endif
  } else {
    ClusterBarrier::wait(&bar, 0);
    out[0] = data;
  }
}
