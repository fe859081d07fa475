// Nine threads (3 blocks of 3): thread 0 of each block adds 1 to a counter
// with atomicAdd, and every thread writes its global index into its own
// slot of ids.  Read-modify-writes
// are atomic (each reads the last value before its own write in the
// counter's coherence order), so the counter ends at 3; every slot is
// written by one thread only, so nothing races.
//
// @Launch: <<<3, 3>>>
// @Input: count = {0}; ids = {-1, -1, -1, -1, -1, -1, -1, -1, -1}
// @Output: forall (count[0] == 3 && ids[0] == 0 && ids[4] == 4 && ids[8] == 8)

__global__ void counter_3x3(int *count, int *ids) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    atomicAdd(count, 1);
  ids[tid] = tid;
}
