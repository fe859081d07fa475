// @Launch: <<<1, 1>>>
// @Input: x = {0}
template <int N>
__device__ void f(int *p) { if (N > 0) f<N - 1>(p); atomicAdd(p, 1); }
struct S { int *p; __device__ void g() { g(); } };
__global__ void k(int *x) {
  f<3>(x);
}
