// A local array indexed by a value read from memory: nvcc keeps it in
// local memory (st.local/ld.local), which this route does not model.
// @Launch: <<<1, 1>>>
// @Input: idx = {1}; x = {0}
// @Output: forall (x[0] == 0)

__global__ void local_array(int *idx, int *x) {
  int a[8];
  for (int j = 0; j < 8; j++) a[j] = j * x[0];
  x[0] = a[idx[0] & 7];
}
