// Broken: the last block reads without a fence after its ticket.
// A last-block reduction of floats in the style of the CUDA samples'
// threadFenceReduction: each block sums its two inputs through shared
// memory into partial[blockIdx.x], fences and takes a ticket; the block
// that takes the last ticket sums the partials.  The
// fence before each ticket and the one after it synchronise the blocks
// (fence-to-fence synchronisation in the CUDA C++ memory model), so no
// access races and the sum is 3.5 + 7.25 = 10.75 exactly, in that order.
//
// @Launch: <<<2, 2>>>
// @Input: in = {1.5, 2, 3.25, 4}; partial = {0, 0}; out = {0}; count = {0}
// @Output: forall (out[0] == 10.75)

__global__ void reduce(const float *in, float *partial, float *out, unsigned *count) {
  __shared__ float sdata[2];
  __shared__ bool amLast;
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 2 + tid];
  __syncthreads();
  if (tid == 0) {
    partial[blockIdx.x] = sdata[0] + sdata[1];
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && tid == 0) {
    // no fence: the partial of the other block races
    float total = 0.0f;
    for (int b = 0; b < gridDim.x; b++) total += partial[b];
    *out = total;
  }
}
