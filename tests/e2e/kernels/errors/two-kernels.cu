// @Launch: <<<1, 2>>>
// @Input: x = {0}; n = 3
__global__ void k(int *x, int n) {
  *x = n;
}
__global__ void k2(int *x) {
  *x = 2;
}
