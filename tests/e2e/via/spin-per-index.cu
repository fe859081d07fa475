// A spin loop inside a loop over an index, kept a loop by nvcc: the wait
// on flag[i] is reached with i = 0, 1, 2, 3.  Widening the spin loop's
// head early (as for libcu++'s poll counters) would make i a register of
// the test and flag[i] an element that cannot be followed; the kernel is
// then read with the plain bound, and the index stays a constant.
// @Launch: <<<1, 1>>>
// @Input: flag = {1, 1, 1, 1}; out = {0}
// @Output: forall (out[0] == 4)
__global__ void spin_per_index(int *flag, int *out) {
  int n = 0;
#pragma unroll 1
  for (int i = 0; i < 4; i++) {
    while (((volatile int *)flag)[i] == 0) {
    }
    n++;
  }
  out[0] = n;
}
