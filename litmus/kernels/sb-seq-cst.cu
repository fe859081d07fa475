// Store buffering across two blocks with seq_cst atomics at device scope:
// the single total order of seq_cst operations forbids both loads reading
// 0 (CUDA C++ memory model, after ISO C++ [atomics.order]).  No race.
//
// @Launch: <<<2, 1>>>
// @Input: x = {0}; y = {0}; r = {-1, -1}
// @Output: not exists (r[0] == 0 && r[1] == 0)
#include <cuda/atomic>

__global__ void sb_seq_cst(int *x, int *y, int *r) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ax(*x), ay(*y);
  if (blockIdx.x == 0) {
    ax.store(1);
    r[0] = ay.load();
  } else {
    ay.store(1);
    r[1] = ax.load();
  }
}
