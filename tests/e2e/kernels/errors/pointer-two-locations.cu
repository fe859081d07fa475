// @Launch: <<<1, 2>>>
// @Input: x = {0}; y = {0}
__global__ void k(int *x, int *y) {
  int *p = x;
  if (threadIdx.x == 1) p = y;
  atomicAdd(p, 1);
}
