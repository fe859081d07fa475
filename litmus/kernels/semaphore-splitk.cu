// A split-K reduction serialised by a semaphore class written as
// CUTLASS's semaphore.h writes it (a lock pointer, a wait_thread flag, a
// cached state; fetch/wait/release), 2 blocks of 2 threads.  Block k
// waits until the semaphore holds k, each of its threads adds k + 1 to
// its element of out, and the block releases k + 1.  Thread 0 of each
// block is the waiting thread: it loads the semaphore with
// memory_order_acquire and stores it with memory_order_release, at device
// scope; __syncthreads() before the release and after the wait orders the
// other thread's accesses (a CTA barrier, CUDA C++ Programming Guide).
// So block 0's writes of out happen before its release, which
// synchronises with block 1's acquire load that reads it, which happens
// before block 1's reads of out (happens-before is transitive across the
// barrier and the release/acquire pair, CUDA C++ memory model).  Each
// element ends at 1 + 2 = 3; no race.  (CUTLASS waits with
// __syncthreads_and(state != status) in the loop; here the waiting
// thread spins and the block meets at a barrier after it.)  With
// --termination it may not terminate (obe): block 1 spins until block 0,
// which need not have started, releases the semaphore.
//
// @Launch: <<<2, 2>>>
// @Input: lock = {0}; out = {0, 0}
// @Output: forall (out[0] == 3 && out[1] == 3)
#include <cuda/atomic>

class Semaphore {
 public:
  int *lock;
  bool wait_thread;
  int state;

  __device__ Semaphore(int *lock_, int thread_id)
      : lock(lock_), wait_thread(thread_id < 0 || thread_id == 0), state(-1) {}

  __device__ void fetch() {
    if (wait_thread) {
      state = cuda::atomic_ref<int, cuda::thread_scope_device>(*lock).load(cuda::memory_order_acquire);
    }
  }

  __device__ int get_state() const { return state; }

  __device__ void wait(int status = 0) {
    if (wait_thread) {
      while (state != status) {
        fetch();
      }
    }
    __syncthreads();
  }

  __device__ void release(int status = 0) {
    __syncthreads();
    if (wait_thread) {
      cuda::atomic_ref<int, cuda::thread_scope_device>(*lock).store(status, cuda::memory_order_release);
    }
  }
};

__global__ void splitk(int *lock, int *out) {
  Semaphore semaphore(lock, threadIdx.x);
  int k = blockIdx.x;
  semaphore.fetch();
  semaphore.wait(k);
  out[threadIdx.x] = out[threadIdx.x] + (k + 1);
  semaphore.release(k + 1);
}
