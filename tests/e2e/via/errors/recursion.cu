// A recursive device function nvcc cannot turn into a loop: its calls
// are inlined up to 8 deep, then refused.
// @Launch: <<<1, 1>>>
// @Input: n = {3}; x = {1, 1, 0}
// @Output: forall (x[0] == 3)

__device__ __noinline__ int fib(int *x, int n) {
  if (n < 2) return x[n];
  return fib(x, n - 1) + fib(x, n - 2);
}

__global__ void recursion(int *n, int *x) {
  x[0] = fib(x, n[0]);
}
