// A producer warp and a consumer warp handing over a tile through a named
// barrier, with CUTLASS's NamedBarrier (cutlass/arch/barrier.h:
// arrive is bar.arrive id, num_threads; sync is bar.sync id,
// num_threads; ids past the 8 CUTLASS reserves): warp 0's thread 0
// writes the tile (global: a __shared__ slot only ever written 42 nvcc
// folds), then warp 0 arrives at barrier 8 for 64 threads; warp
// 1 syncs at barrier 8 for 64 threads and its thread 32 reads the tile.
//
// Why it holds (PTX ISA, bar/barrier: bar.arrive marks the arrival and
// does not wait; bar.sync waits until the barrier's thread count, 64, has
// arrived; the memory model orders the accesses before an arrival with
// those after a sync of the same barrier instance, at CTA scope): the
// write happens before the read: out = {42}, no race.  -D WRITE_AFTER writes
// the tile after warp 0's arrival: nothing orders it with the read; they
// race and out may be 0.
//
// @Launch: <<<1, 64>>>
// @Input: tile = {0}; out = {-1}
// @Output: forall (out[0] == 42)
#include <cstdint>

struct NamedBarrier {
  static constexpr uint32_t ReservedNamedBarrierCount = 8;
  static __device__ void arrive(uint32_t num_threads, uint32_t barrier_id) {
    barrier_id += ReservedNamedBarrierCount;
    asm volatile("bar.arrive %0, %1;" : : "r"(barrier_id), "r"(num_threads) : "memory");
  }
  static __device__ void sync(uint32_t num_threads, uint32_t barrier_id) {
    barrier_id += ReservedNamedBarrierCount;
    asm volatile("bar.sync %0, %1;" : : "r"(barrier_id), "r"(num_threads) : "memory");
  }
};

__global__ void named_barrier(int *tile, int *out) {
  int warp = threadIdx.x / 32;
  if (warp == 0) {
#ifdef WRITE_AFTER
    NamedBarrier::arrive(64, 0);
    if (threadIdx.x == 0) tile[0] = 42;
#else
    if (threadIdx.x == 0) tile[0] = 42;
    NamedBarrier::arrive(64, 0);
#endif
  } else {
    NamedBarrier::sync(64, 0);
    if (threadIdx.x == 32) out[0] = tile[0];
  }
}
