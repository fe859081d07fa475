// @Launch: <<<1, 3>>>
// @Input: A = {0, 0}
__global__ void k(int *A) {
  A[threadIdx.x] = 1;
}
