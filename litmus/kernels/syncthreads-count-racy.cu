// syncthreads-and-or.cu with thread 0's write after the barrier:
// __syncthreads_count orders what comes before it, not what comes after.
//
// Why it fails: thread 0's write of data and thread 1's read of it both
// follow the barrier and nothing orders them: a data race (CUDA C++
// memory model, "Data Races"), undefined behaviour; thread 1 may read 0.
// The count itself is exact: 1 (out = 0 + 1 * 100 or 42 + 100).
//
// @Launch: <<<1, 2>>>
// @Input: data = {0}; out = {-1}
// @Output: forall (out[0] == 142)

__global__ void syncthreads_count_racy(int *data, int *out) {
  int n = __syncthreads_count(threadIdx.x == 0);
  if (threadIdx.x == 0)
    *data = 42;
  if (threadIdx.x == 1)
    *out = *data + n * 100;
}
