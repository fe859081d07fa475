// Pointers and references held in locals, 1 block of 2 threads: p walks
// a with p = p + 1, q with q++ and q - 1, r is a reference to x[0], a
// function template deduces T from a pointer argument and another takes
// a non-type argument, and a device function returns from inside its
// loop.  Each thread adds 1 to a[0] twice (through p and q - 1), 1 to
// a[1] twice (through p and &q[0]) and 2 to x: a = {4, 4, 0}, x = 4; it
// finds the first nonzero element of b at index 1.  No race: a and x are
// only accessed atomically, b only read.
// @Launch: <<<1, 2>>>
// @Input: a = {0, 0, 0}; x = {0}; b = {0, 5, 0}; out = {-1, -1}
// @Output: forall (a[0] == 4 && a[1] == 4 && a[2] == 0 && x[0] == 4 && out[0] == 1 && out[1] == 1)
template <typename T>
__device__ T bump(T *p, T v) {
  return atomicAdd(p, v);
}

template <int N>
__device__ int times(int v) { return v * N; }

__device__ int first_nonzero(const int *p, int n) {
  for (int i = 0; i < n; i++) {
    if (p[i] != 0) return i;
  }
  return -1;
}

__global__ void pointers(int *a, int *x, const int *b, int *out) {
  int *p = &a[0];
  atomicAdd(p, 1);
  p = p + 1;
  atomicAdd(p, 1);
  int &r = x[0];
  bump(&r, times<1>(2));
  int *q = a;
  q++;
  bump<int>(q - 1, 1);
  atomicAdd(&q[0], 1);
  out[threadIdx.x] = first_nonzero(b, 3);
}
