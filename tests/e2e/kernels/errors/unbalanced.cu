// @Launch: <<<2, 1>>>
// @Input: x = {0}
__global__ void k(int *x) {
  if (blockIdx.x == 0) {
    *x = 1;
  }}
}
