// grid-sync-mp.cu without the grid's barrier: nothing orders thread 0's
// write of its block's slot with the other block's read of it.
//
// Why it fails: two non-atomic accesses to one location, one a write, by
// threads of different blocks and not ordered by happens-before, are a
// data race (CUDA C++ memory model, "Data Races"), which is undefined
// behaviour; among the outcomes, the reader may see the initial 0, so
// out = {2, 1} is not guaranteed: No, racy.
//
// @Launch: <<<2, 2>>>
// @Input: data = {0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 2 && out[1] == 1)

__global__ void grid_sync_missing(int *data, int *out) {
  if (threadIdx.x == 0)
    data[blockIdx.x] = blockIdx.x + 1;
  if (threadIdx.x == 1)
    out[blockIdx.x] = data[1 - blockIdx.x];
}
