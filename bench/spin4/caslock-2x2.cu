// A spin lock taken with atomicCAS and released with atomicExch, each
// fenced with __threadfence(), protecting a plain counter; 2 blocks of 2
// threads (litmus/kernels/caslock.cu on a larger launch).  The CUDA atomic functions are relaxed; __threadfence() is a
// seq_cst fence at device scope, so the fence after the lock is taken and
// the one before the lock is released make the release synchronise with the
// next acquisition (fence-to-fence synchronisation in the CUDA C++ memory
// model: a release fence, an atomic write after it, an atomic read of that
// write and an acquire fence after the read).  The critical sections are
// ordered: the counter ends at 4 and no access races.
//
// @Launch: <<<2, 2>>>
// @Input: lock = {0}; count = {0}
// @Output: forall (count[0] == 4)

__device__ void lock(int *l) {
  while (atomicCAS(l, 0, 1) != 0) {
  }
  __threadfence();
}

__device__ void unlock(int *l) {
  __threadfence();
  atomicExch(l, 0);
}

__global__ void caslock(int *lock, int *count) {
  ::lock(lock);
  *count = *count + 1;
  unlock(lock);
}
