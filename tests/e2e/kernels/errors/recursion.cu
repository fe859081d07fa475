// @Launch: <<<2, 1>>>
// @Input: x = {0}
__device__ void f(int *p);
__device__ void g(int *p) { f(p); }
__device__ void f(int *p) {
  *p = 1;
  g(p);
}
__global__ void k(int *x) { f(x); }
