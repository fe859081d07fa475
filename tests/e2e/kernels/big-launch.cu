// 512 threads in one block meet at one barrier: the explicit engine's
// arrival choices over the barrier's 261,632 pairs (it recursed once per
// pair and overflowed the stack here).
// @Launch: <<<1, 512>>>
// @Input: out = {-1}
// @Output: forall (out[0] == 7)
__global__ void big_launch(int *out) {
  __shared__ int slot[512];
  slot[threadIdx.x] = 7;
  __syncthreads();
  if (threadIdx.x == 511)
    *out = slot[0];
}
