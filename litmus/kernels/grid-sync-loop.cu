// Two rounds of a ping-pong between blocks, the grid's barrier called from
// a device function in a loop: in each round each block adds the other
// block's last value to its own slot.  2 blocks of 1 thread.
//
// Why it holds: each grid.sync() orders everything before it in every
// thread before everything after it in every thread (CUDA C++ Programming
// Guide, "Grid Synchronization"), and each round reads between the two
// syncs and writes after the second, so every read and write of one slot
// are ordered: no race, and the values are those of a sequential run.
// Round 1: v = {1, 2} read crosswise, slots become {1+2, 2+1} = {3, 3};
// round 2: {3+3, 3+3} = {6, 6}.  So v = {6, 6} always.
//
// @Launch: <<<2, 1>>>
// @Input: v = {1, 2}
// @Output: forall (v[0] == 6 && v[1] == 6)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void everyone() {
  cg::grid_group g = cg::this_grid();
  g.sync();
}

__global__ void grid_sync_loop(int *v) {
  int me = blockIdx.x;
  for (int round = 0; round < 2; round++) {
    everyone();
    int theirs = v[1 - me];
    everyone();
    v[me] = v[me] + theirs;
  }
}
