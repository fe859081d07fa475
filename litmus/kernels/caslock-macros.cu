// Dartagnan's way of writing variants: the orders and the scope are macros
// chosen with -D.  As written (acquire lock, release unlock, device scope)
// the compare-exchange that takes the lock reads the release store that
// gave it back, the critical sections are ordered, the counter ends at 2
// and nothing races (release/acquire synchronisation).  With -D ACQ2RX
// (relaxed lock) or -D REL2RX (relaxed unlock) nothing synchronises: the
// increments race (undefined behaviour) and the counter may end at 1.  With
// -D DV2WG (block scope) the two blocks' operations do not synchronise
// either: block scope does not include the other block.
//
// @Launch: <<<2, 1>>>
// @Input: l = {0}; x = {0}
// @Output: forall (x[0] == 2)
#include <cuda/atomic>

#ifdef ACQ2RX
#define mo_lock cuda::memory_order_relaxed
#else
#define mo_lock cuda::memory_order_acquire
#endif

#ifdef REL2RX
#define mo_unlock cuda::memory_order_relaxed
#else
#define mo_unlock cuda::memory_order_release
#endif

#ifdef DV2WG
#define SCOPE cuda::thread_scope_block
#else
#define SCOPE cuda::thread_scope_device
#endif

typedef cuda::atomic_ref<int, SCOPE> lock_ref;

__device__ void lock(int *l) {
  lock_ref a(*l);
  int e = 0;
  while (!a.compare_exchange_strong(e, 1, mo_lock, cuda::memory_order_relaxed)) {
    e = 0;
  }
}

__device__ void unlock(int *l) {
  lock_ref a(*l);
  a.store(0, mo_unlock);
}

__global__ void caslock_macros(int *l, int *x) {
  lock(l);
  int a = *x;
  *x = a + 1;
  unlock(l);
}
