// @Launch: <<<2, 1>>>
// @Input: x = {0}; z = {1}
__global__ void k(int *x) {
  *x = 1;
}
