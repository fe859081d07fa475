// Message passing between blocks through the grid's barrier: thread 0 of
// each block writes its block's slot of data, every thread of the grid
// meets at grid.sync(), and thread 1 of each block reads the other
// block's slot.  2 blocks of 2 threads, launched cooperatively (a kernel
// that calls this_grid().sync() must be launched with
// cudaLaunchCooperativeKernel).
//
// Why it holds: grid.sync() is a barrier of every thread of the grid that
// orders memory as __syncthreads() does within a block, at device scope
// (CUDA C++ Programming Guide, "Cooperative Groups", "Grid
// Synchronization": writes before the sync are visible to every thread of
// the grid after it).  So each write happens before the other block's
// read: out = {2, 1} always and no access races.  Termination: a
// cooperative launch has every block resident, so no block waits to start
// while the others wait at the barrier: it terminates (obe).
//
// @Launch: <<<2, 2>>>
// @Input: data = {0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 2 && out[1] == 1)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_sync_mp(int *data, int *out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    data[blockIdx.x] = blockIdx.x + 1;
  grid.sync();
  if (threadIdx.x == 1)
    out[blockIdx.x] = data[1 - blockIdx.x];
}
