// A float array: ld.global.f32 and arithmetic on it; the test's values
// are integers.
// @Launch: <<<1, 1>>>
// @Input: x = {0}
// @Output: forall (x[0] == 0)

__global__ void float_access(float *x) {
  x[0] = x[0] * 2.5f + 1.0f;
}
