// A mutex over cuda::counting_semaphore<thread_scope_device, 2> (a
// ptrdiff_t count, started at 1) taken with the blocking acquire(): a
// load, a compare-and-swap loop, and a wait whose 16 relaxed polls and
// back-off loop are made one spin loop, between acquire loads of the same
// word that are not (their order differs from the polls'): more paths
// than a thread may have, one error naming the wait's PTX and source
// lines.
// @Launch: <<<2, 1>>>
// @Input: sem = {1}; counter = {0}
// @Output: forall (counter[0] == 2)
#include <cuda/semaphore>

__global__ void semaphore_mutex(cuda::counting_semaphore<cuda::thread_scope_device, 2> *sem, int *counter) {
  sem->acquire();
  counter[0] = counter[0] + 1;
  sem->release();
}
