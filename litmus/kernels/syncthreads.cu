// Two threads of one block share a __shared__ array: thread 0 writes it,
// both pass __syncthreads(), thread 1 reads it.  __syncthreads() orders
// the accesses of the block's threads before it with those after it (CUDA
// C++ Programming Guide, "Synchronization Functions": the barrier makes
// the writes before it visible to the block's threads after it), so the
// read sees 7 and there is no race.  Shared memory starts at 0 here (CUDA
// leaves it undefined; docs/kernels.md).
//
// @Launch: <<<1, 2>>>
// @Input: out = {-1}
// @Output: forall (out[0] == 7)

__global__ void syncthreads(int *out) {
  __shared__ int buf[2];
  if (threadIdx.x == 0)
    buf[1] = 7;
  __syncthreads();
  if (threadIdx.x == 1)
    *out = buf[1];
}
