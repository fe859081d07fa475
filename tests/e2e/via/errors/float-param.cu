// Floating-point arithmetic on a scalar parameter: the reader knows the
// parameter's value but not its arithmetic (integer arithmetic on a
// float's bits would be a wrong value).
// @Launch: <<<1, 1>>>
// @Input: f = 1; x = {0}
// @Output: forall (x[0] == 0)

__global__ void float_param(float f, int *x) {
  x[0] = __float_as_int(f + 1.0f);
}
