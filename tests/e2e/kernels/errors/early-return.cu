// @Launch: <<<2, 1>>>
// @Input: x = {0}
__device__ int f(int *p) {
  if (*p == 0) return 1;
  return 2;
}
__global__ void k(int *x) {
  int r = f(x);
}
