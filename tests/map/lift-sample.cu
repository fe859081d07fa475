#include <cuda/atomic>
extern "C" __global__ void P0(int *x, int *y, int *lc_regs) {
  int r0 = 0; int r1 = 0;
  asm volatile("// lc 1" ::: "memory");
  *x = 1;
  asm volatile("// lc 2" ::: "memory");
  cuda::atomic_ref<int, cuda::thread_scope_device>(*y).store(1, cuda::memory_order_release);
  asm volatile("// lc 3" ::: "memory");
  r0 = cuda::atomic_ref<int, cuda::thread_scope_block>(*y).load(cuda::memory_order_seq_cst);
  asm volatile("// lc 4" ::: "memory");
  r1 = *x;
  asm volatile("// lc 5" ::: "memory");
  { int e = 1; cuda::atomic_ref<int, cuda::thread_scope_system>(*x).compare_exchange_strong(e, 2, cuda::memory_order_acq_rel, cuda::memory_order_acquire); }
  asm volatile("// lc 6" ::: "memory");
  *y = r0;
  asm volatile("// lc end" ::: "memory");
  lc_regs[0] = r0; lc_regs[1] = r1;
}
