// @Launch: <<<1, 2>>>
// @Input: x = {0}
__global__ void k(int *x) {
  extern __shared__ int buf[];
  buf[threadIdx.x] = 1;
}
