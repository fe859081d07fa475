// @Launch: <<<1, 2>>>
// @Input: x = {0}
template <typename T>
__device__ void put(int *p, T v) {
  atomicExch(p, (int)v);
}
__global__ void k(int *x) {
  int v = threadIdx.x;
  put(x, v);
}
