// A launch of more threads than a test has (1024): one error at the
// launch, before nvcc's PTX is read.
// @Launch: <<<2, 1024>>>
// @Input: x = {0}
// @Output: forall (x[0] == 1)

__global__ void too_many(int *x) {
  if (threadIdx.x == 5) x[0] = 1;
}
