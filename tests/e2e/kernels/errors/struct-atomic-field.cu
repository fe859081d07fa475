// @Launch: <<<1, 1>>>
// @Input: x = {0}
#include <cuda/atomic>
struct Flag {
  cuda::atomic_ref<int, cuda::thread_scope_device> f;
  __device__ Flag(int *p) : f(*p) {}
};
__global__ void k(int *x) {
  Flag fl(x);
}
