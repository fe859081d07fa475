// @Launch: <<<1, 1>>>
// @Input: x = {0}
template <int N>
__device__ int f() { return N; }
template <>
__device__ int f<0>() { return 1; }
__global__ void k(int *x) {
  *x = f<0>();
}
