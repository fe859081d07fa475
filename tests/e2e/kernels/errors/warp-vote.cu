// @Launch: <<<1, 2>>>
// @Input: x = {0}
__global__ void k(int *x) {
  unsigned b = __ballot_sync(0xffffffff, threadIdx.x == 0);
  x[0] = b;
}
