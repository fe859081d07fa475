// The "last block" reduction (CUDA samples' threadFenceReduction, CUB's
// single-pass reductions): each block writes its partial result, then
// counts itself done with a fetch_add(1, memory_order_acq_rel) on a
// cuda::atomic_ref<unsigned, SCOPE>; the block that sees count 1 (the
// last of two) adds both partials.  SCOPE is cuda::thread_scope_device;
// -D BLOCK_SCOPE makes it cuda::thread_scope_block, the scope bug of a
// counter shared by the grid.
//
// Why it holds (CUDA C++ memory model: atomicity and release/acquire
// synchronisation need the two operations morally strong, each thread in
// the other's scope): at device scope the fetch_adds are atomic with each
// other, so exactly one block reads 1, and its acq_rel read synchronises
// with the other block's release: it reads both partials.  out = {7}, no
// race.  With block scope the two blocks are outside each other's scope:
// both fetch_adds may read 0 (out stays -1), or the last block may read
// the other's partial before it is written (out = 5 or 2, from the input
// 0): the verdict is No and the accesses of partial race.
//
// @Launch: <<<2, 1>>>
// @Input: count = {0}; partial = {0, 0}; out = {-1}
// @Output: forall (out[0] == 7)
#include <cuda/atomic>

#ifdef BLOCK_SCOPE
#define SCOPE cuda::thread_scope_block
#else
#define SCOPE cuda::thread_scope_device
#endif

__global__ void last_block(unsigned *count, int *partial, int *out) {
  partial[blockIdx.x] = blockIdx.x == 0 ? 5 : 2;
  cuda::atomic_ref<unsigned, SCOPE> done(*count);
  if (done.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1)
    out[0] = partial[0] + partial[1];
}
