// A block reduction in shared memory, 2 blocks of 4 threads: each thread
// stores its value, then the tree halves the active threads, with
// __syncthreads() between the steps; thread 0 of each block adds the
// block's sum to the total with atomicAdd.  __syncthreads() orders each
// step's writes before the next step's reads within the block, so the sum
// is exact: total = 2 * (1 + 2 + 3 + 4) = 20.  No race.
//
// @Launch: <<<2, 4>>>
// @Input: total = {0}
// @Output: forall (total[0] == 20)

__global__ void reduce_2x4(int *total) {
  __shared__ int s[4];
  unsigned int t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride = stride / 2) {
    if (t < stride)
      s[t] = s[t] + s[t + stride];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(total, s[0]);
}
