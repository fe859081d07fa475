// semaphore-splitk.cu with the semaphore released by a relaxed store:
// block 1's acquire load still reads block 0's store of 1, but a relaxed
// store does not synchronise with the load that reads it (CUDA C++ memory
// model: the write must be a release, or follow a release fence), so
// block 0's writes of out do not happen before block 1's reads of them.
// The plain accesses of out race (undefined behaviour) and an element may
// end at 2.
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
      cuda::atomic_ref<int, cuda::thread_scope_device>(*lock).store(status, cuda::memory_order_relaxed);
    }
  }
};

__global__ void splitk_relaxed_release(int *lock, int *out) {
  Semaphore semaphore(lock, threadIdx.x);
  int k = blockIdx.x;
  semaphore.fetch();
  semaphore.wait(k);
  out[threadIdx.x] = out[threadIdx.x] + (k + 1);
  semaphore.release(k + 1);
}
