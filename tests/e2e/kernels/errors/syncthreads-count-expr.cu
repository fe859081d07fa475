// @Launch: <<<1, 2>>>
// @Input: x = {0}
__global__ void k(int *x) {
  x[0] = 1 + __syncthreads_count(threadIdx.x == 0);
}
