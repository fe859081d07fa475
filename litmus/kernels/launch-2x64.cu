// A launch of 128 threads (2 blocks of 64): each thread writes its slot of
// the block's shared array; after __syncthreads() the block's last thread
// sums the slots of threads 0, 31, 32 and 62 (both warps of the block).
//
// Why it holds: __syncthreads() orders every write of the block before the
// last thread's reads (CUDA C++ Programming Guide, "Synchronization
// Functions"), so it reads 0 + 31 + 32 + 62 = 125 in each block, plus 1000
// times the block's index: out = {125, 1125}, and no race.
//
// @Launch: <<<2, 64>>>
// @Input: out = {-1, -1}
// @Output: forall (out[0] == 125 && out[1] == 1125)

__global__ void launch_2x64(int *out) {
  __shared__ int slot[64];
  slot[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 63)
    out[blockIdx.x] = slot[0] + slot[31] + slot[32] + slot[62] + 1000 * blockIdx.x;
}
