// __syncthreads() is a barrier of one block: used across two blocks (1
// thread each) to order a global write before a read, it orders nothing
// between them.  The plain write and read of x race (undefined behaviour)
// and the read may see 0.
//
// @Launch: <<<2, 1>>>
// @Input: x = {0}; out = {-1}
// @Output: forall (out[0] == 1)

__global__ void syncthreads_across_blocks(int *x, int *out) {
  if (blockIdx.x == 0)
    *x = 1;
  __syncthreads();
  if (blockIdx.x == 1)
    *out = *x;
}
