// mp-volatile-threadfence.cu without the fences: the volatile flag is
// relaxed, so reading it orders nothing.  The plain write and read of data
// race (undefined behaviour) and the reader may see 0.
//
// @Launch: <<<2, 1>>>
// @Input: flag = {0}; data = {0}; r = {-1}
// @Output: forall (r[0] == 42)

__global__ void mp_volatile(volatile int *flag, int *data, int *r) {
  if (blockIdx.x == 0) {
    *data = 42;
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    *r = *data;
  }
}
