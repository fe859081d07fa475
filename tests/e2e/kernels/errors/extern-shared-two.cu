// @Launch: <<<1, 2, 16>>>
// @Input: x = {0}
extern __shared__ int a[];
__global__ void k(int *x) {
  extern __shared__ float b[];
  a[threadIdx.x] = 1;
}
