// @Launch: <<<1, 64>>>
// @Input: x = {0}
__global__ void k(int *x) {
  __syncwarp();
}
