// A loop over constants nvcc unrolls to 9000 atomics: more instructions
// in one thread than a test holds (8000).
// @Launch: <<<1, 1>>>
// @Input: x = {0}
// @Output: forall (x[0] >= 0)

__global__ void long_unroll(int *x) {
#pragma unroll
  for (int i = 0; i < 9000; i++) atomicAdd(x, i);
}
