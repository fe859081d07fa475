// An address that is a number, not derived from a parameter or a
// variable: no array of the test holds it.
// @Launch: <<<1, 1>>>
// @Input: x = {0}
// @Output: forall (x[0] == 0)

__global__ void number_address(int *x) {
  *(volatile int *)0x1000 = x[0];
}
