// Function templates with explicit arguments called as a statement, as a
// local's initialiser (const too) and assigned to an element: x = 2 + 3 +
// 1 + 4 = 10; a = 2 + 3 = 5, b = 5 + 1 = 6, y = {6 + 4, a + b} = {10, 11}.
// @Launch: <<<1, 1>>>
// @Input: x = {0}; y = {0, 0}
// @Output: forall (x[0] == 10 && y[0] == 10 && y[1] == 11)
template <int N>
__device__ int g(int *p) { int v = atomicAdd(p, N); return v + N; }
__global__ void template_calls(int *x, int *y) {
  g<2>(x);
  int a = g<3>(x);
  const int b = g<1>(x);
  y[0] = g<4>(x);
  y[1] = a + b;
}
