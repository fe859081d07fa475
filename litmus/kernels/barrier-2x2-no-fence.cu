// barrier-2x2.cu without the __threadfence() calls: the counter's atomic
// read-modify-writes are relaxed (CUDA's atomic functions order nothing),
// so reaching the barrier makes nothing visible.  The plain write of a
// block's slot and the other block's read of it race (undefined
// behaviour), and the read may see 0.
//
// @Launch: <<<2, 2>>>
// @Input: count = {0}; data = {0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 2 && out[1] == 1)

__device__ void grid_barrier(unsigned int *count, unsigned int blocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(count, 1);
    while (atomicAdd(count, 0) < blocks) {
    }
  }
  __syncthreads();
}

__global__ void barrier_2x2_no_fence(unsigned int *count, int *data, int *out) {
  if (threadIdx.x == 0)
    data[blockIdx.x] = blockIdx.x + 1;
  grid_barrier(count, gridDim.x);
  if (threadIdx.x == 1)
    out[blockIdx.x] = data[1 - blockIdx.x];
}
