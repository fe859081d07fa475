// @Launch: <<<1, 1>>>
// @Input: x = {0}
struct Base {
  int *p;
};
struct Lock : Base {
  __device__ void acquire() { atomicCAS(p, 0, 1); }
};
__global__ void k(int *x) {
  Lock l;
  l.acquire();
}
