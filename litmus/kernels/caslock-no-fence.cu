// caslock.cu without its fences: atomicCAS and atomicExch are relaxed
// atomics (CUDA C++ Programming Guide, "Atomic Functions": they give no
// ordering), so nothing makes the release of the lock happen before the
// next acquisition.  The two plain increments of count are not ordered by
// happens-before: a data race (undefined behaviour), and the counter may
// end at 1.
//
// @Launch: <<<2, 1>>>
// @Input: l = {0}; count = {0}
// @Output: forall (count[0] == 2)

__device__ void lock(int *l) {
  while (atomicCAS(l, 0, 1) != 0) {
  }
}

__device__ void unlock(int *l) { atomicExch(l, 0); }

__global__ void caslock_no_fence(int *l, int *count) {
  lock(l);
  *count = *count + 1;
  unlock(l);
}
