// @Launch: <<<2, 1>>>
// @Input: x = {0}
template <int N>
__global__ void k(int *x) {
  *x = N;
}
