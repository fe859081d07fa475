// Load buffering with relaxed device-scope atomics: each block reads one
// location and then writes the other.  The CUDA C++ model forbids both
// reads seeing 1 (its no-thin-air axiom, acyclic(po | rf), from RC11);
// PTX allows it (no such axiom: a load may be satisfied by a later store
// of another thread), so through nvcc the outcome appears, and --via both
// names it a difference of the models, not a compilation finding.
// @Launch: <<<2, 1>>>
// @Input: x = {0}; y = {0}; r = {0, 0}
// @Output: not exists (r[0] == 1 && r[1] == 1)
#include <cuda/atomic>
__global__ void lb(int *x, int *y, int *r) {
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
  if (blockIdx.x == 0) { r[0] = X.load(cuda::memory_order_relaxed); Y.store(1, cuda::memory_order_relaxed); }
  else { r[1] = Y.load(cuda::memory_order_relaxed); X.store(1, cuda::memory_order_relaxed); }
}
