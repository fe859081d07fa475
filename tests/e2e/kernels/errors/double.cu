// @Launch: <<<2, 1>>>
// @Input: x = {0}
__global__ void k(int *x) {
  double f = 1.5;
  *x = f;
}
