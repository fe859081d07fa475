// An inter-block barrier of the classic kind (a counter every block's
// thread 0 increments, then spins on), called from a device function
// between two __syncthreads(); 2 blocks of 2 threads.  Thread 0 of each
// block writes its block's slot of data before the barrier; thread 1 of
// each block reads the other block's slot after it.
//
// Why it holds: the writer's __threadfence() (a seq_cst fence at device
// scope) comes before its atomicAdd; the other block's thread 0 reads the
// counter's final value, written by that atomicAdd or by a later one in its
// release sequence (atomic read-modify-writes continue it), and fences
// after the read: the two fences synchronise (CUDA C++ memory model,
// fence-to-fence synchronisation).  __syncthreads() then orders the
// block's threads around the barrier.  So out = {2, 1} always, and no
// access races.
//
// @Launch: <<<2, 2>>>
// @Input: count = {0}; data = {0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 2 && out[1] == 1)

__device__ void grid_barrier(unsigned int *count, unsigned int blocks) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(count, 1);
    while (atomicAdd(count, 0) < blocks) {
    }
    __threadfence();
  }
  __syncthreads();
}

__global__ void barrier_2x2(unsigned int *count, int *data, int *out) {
  if (threadIdx.x == 0)
    data[blockIdx.x] = blockIdx.x + 1;
  grid_barrier(count, gridDim.x);
  if (threadIdx.x == 1)
    out[blockIdx.x] = data[1 - blockIdx.x];
}
