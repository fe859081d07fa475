// __trap() is PTX's trap, not modelled (assert() is: a call of
// __assertfail).
// @Launch: <<<1, 1>>>
// @Input: x = {0}
// @Output: forall (x[0] == 1)

__global__ void trapping(int *x) {
  if (x[0] == 1) __trap();
  x[0] = 1;
}
