// Dynamic shared memory: `extern __shared__ int buf[];` sized by the
// launch's third parameter, 8 bytes (two ints), one array per block.
// Each thread writes its slot, then reads the other thread's after
// __syncthreads().
//
// Why it holds: an extern __shared__ array's size is the launch's
// dynamic shared memory (CUDA C++ Programming Guide, "__shared__" and
// "Execution Configuration"), one per block; __syncthreads() orders each
// write before the other thread's read, so out[b * 2 + t] = b * 2 + 1 - t:
// out = {1, 0, 3, 2}, and no race.
//
// @Launch: <<<2, 2, 8>>>
// @Input: out = {-1, -1, -1, -1}
// @Output: forall (out[0] == 1 && out[1] == 0 && out[2] == 3 && out[3] == 2)

__global__ void extern_shared(int *out) {
  extern __shared__ int buf[];
  unsigned t = threadIdx.x;
  buf[t] = blockIdx.x * 2 + t;
  __syncthreads();
  out[blockIdx.x * 2 + t] = buf[1 - t];
}
