// A launch of 1024 threads (4 blocks of 256), the most a launch may have:
// each thread writes its slot of the block's shared array; after
// __syncthreads() thread 0 of each block reads slots 0 and 255.
// __syncthreads() orders every write of the block before its reads (CUDA
// C++ Programming Guide, "Synchronization Functions"): out[b] = 0 + 255 +
// 1000 * b, and no race.
//
// @Launch: <<<4, 256>>>
// @Input: out = {-1, -1, -1, -1}
// @Output: forall (out[0] == 255 && out[1] == 1255 && out[2] == 2255 && out[3] == 3255)

__global__ void launch_4x256(int *out) {
  __shared__ int slot[256];
  slot[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = slot[0] + slot[255] + 1000 * blockIdx.x;
}
