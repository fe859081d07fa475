// @Launch: <<<8, 256>>>
// @Input: x = {0}
__global__ void k(int *x) {
  *x = 1;
}
