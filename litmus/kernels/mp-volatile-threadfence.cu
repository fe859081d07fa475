// Message passing with a volatile flag and __threadfence() on both sides,
// the way pre-libcu++ CUDA code writes it (the CUDA samples'
// threadFenceReduction).  nvcc compiles a volatile access as a relaxed
// access at system scope (ld.volatile/st.volatile), and __threadfence() is
// a seq_cst fence at device scope: the fence before the flag's store and
// the fence after the load that reads it synchronise (fence-to-fence
// synchronisation), so the read of data sees 42, and no access races.
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; r = {-1}
// @Output: forall (r[0] == 42)

__global__ void mp_volatile_threadfence(volatile int *flag, int *data, int *r) {
  if (blockIdx.x == 0) {
    *data = 42;
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    __threadfence();
    *r = *data;
  }
}
