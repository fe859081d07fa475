// A TMA store: thread 0 writes a shared buffer with a generic store, then a
// bulk copy writes it to global memory, and waits for the copy's group.
// PTX ISA, "Async proxy": the generic store and the copy's async-proxy read
// of buf are ordered only by fence.proxy.async (of shared memory) between
// them; with it, and cp.async.bulk.wait_group 0, out = {7} and no race.
// -D NO_FENCE drops the fence: the copy may read the old 0, and the store
// and the copy's read race.
// @Launch: <<<1, 1>>>
// @Input: out = {0, 0, 0, 0}
// @Output: forall (out[0] == 7)
#include <cstdint>

__global__ void tma_store(int *out) {
  __shared__ alignas(16) int buf[4];
  buf[0] = 7;
#ifndef NO_FENCE
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;" ::"l"(out),
               "r"(static_cast<uint32_t>(__cvta_generic_to_shared(buf)))
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
