// @Launch: <<<1, 2>>>
// @Input: x = {0}
__global__ void k(int *x) {
  __frobnicate(x);
}
