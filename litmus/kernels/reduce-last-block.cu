// The CUDA samples' last-block reduction (threadFenceReduction) with a
// function template for the block's sum and a kernel template over the
// element type and the block size, 2 blocks of 2 threads.  Each block
// sums its threads' values in shared memory (a __syncthreads() between
// the stores and the sum), thread 0 stores the block's partial sum,
// executes __threadfence() and takes a ticket with atomicInc; the block
// that takes the last ticket sums the partials.  __threadfence() is a
// seq_cst fence at device scope and the ticket an RMW (relaxed): a fence
// before an atomic write that is read (through the RMW chain, a release
// sequence) by an atomic followed by a fence synchronises them (CUDA C++
// memory model, fence synchronisation), so the other block's partial
// store happens before the last block's reads.  The last block's reader
// is its thread 0, which took the ticket and fences after it.  The total
// is (1 + 2) + (3 + 4) = 10; no race.
//
// @Launch: <<<2, 2>>>
// @Input: in = {1, 2, 3, 4}; partial = {0, 0}; count = {0}; total = {0}
// @Output: forall (total[0] == 10)

template <typename T, int N>
__device__ T block_sum(const T *values) {
  T sum = 0;
  for (int i = 0; i < N; i++) {
    sum = sum + values[i];
  }
  return sum;
}

template <typename T, int BLOCK>
__global__ void reduce_last_block(const T *in, T *partial, unsigned int *count, T *total) {
  __shared__ T values[BLOCK];
  __shared__ bool is_last;
  unsigned int tid = threadIdx.x;
  values[tid] = in[blockIdx.x * BLOCK + tid];
  __syncthreads();
  if (tid == 0) {
    T sum = block_sum<T, BLOCK>(values);
    partial[blockIdx.x] = sum;
    __threadfence();
    unsigned int ticket = atomicInc(count, gridDim.x);
    is_last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (is_last && tid == 0) {
    __threadfence();
    T sum = 0;
    for (int b = 0; b < gridDim.x; b++) {
      sum = sum + partial[b];
    }
    *total = sum;
  }
}

template __global__ void reduce_last_block<int, 2>(const int *, int *, unsigned int *, int *);
