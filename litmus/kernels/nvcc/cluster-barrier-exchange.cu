// Two CTAs of a cluster exchange values through distributed shared
// memory, with the cluster barrier written as CUTLASS's cute::cluster_sync
// writes it in inline asm (cute/arch/cluster_sm90.hpp): each CTA finds
// its rank (%cluster_ctarank), maps its peer's copy of the shared slot
// with mapa.shared::cluster, stores its value there with
// st.shared::cluster, then arrives with barrier.cluster.arrive.release
// and waits with barrier.cluster.wait.acquire; after the wait each CTA
// reads its own slot, which its peer wrote.
//
// Why it holds (PTX ISA, barrier.cluster: the arrive with .release and
// the wait with .acquire form a release/acquire pattern at cluster
// scope; the wait completes only after every thread of the cluster has
// arrived): each remote store happens before the peer's read: out = {20,
// 10} (CTA 0 reads what CTA 1 stored, and back), no race.  -D RELAXED
// arrives with barrier.cluster.arrive.relaxed, which the same page says
// gives no ordering or visibility for the accesses before it: the stores
// and the reads race and a read may see 0.
//
// @Launch: <<<2, 1>>> cluster(2)
// @Input: out = {-1, -1}
// @Output: forall (out[0] == 20 /\ out[1] == 10)
#include <cstdint>

#ifdef RELAXED
#define ARRIVE "barrier.cluster.arrive.relaxed.aligned;\n"
#else
#define ARRIVE "barrier.cluster.arrive.release.aligned;\n"
#endif

__device__ __forceinline__ uint32_t block_rank_in_cluster() {
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank) :);
  return rank;
}

__device__ __forceinline__ uint32_t map_to_peer(void const *p, uint32_t rank) {
  uint32_t local = static_cast<uint32_t>(__cvta_generic_to_shared(p)), remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(local), "r"(rank));
  return remote;
}

__device__ __forceinline__ void st_cluster(uint32_t addr, int v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;\n" : : "r"(addr), "r"(v) : "memory");
}

__device__ __forceinline__ void cluster_sync() {
  asm volatile(ARRIVE : : : "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" : : : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) exchange(int *out) {
  __shared__ int slot;
  uint32_t rank = block_rank_in_cluster();
  st_cluster(map_to_peer(&slot, rank ^ 1), 10 * (rank + 1));
  cluster_sync();
  out[rank] = slot;
}
