// @Launch: <<<2, 1>>>
// @Input: l = {0}
struct Lock {
  int *word;
  __device__ Lock(int *w) : word(w) {}
  __device__ void acquire() {
    while (atomicCAS(word, 0, 1) != 0) {
    }
  }
};
__global__ void k(int *l) {
  Lock(l).acquire();
}
