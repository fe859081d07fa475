// Three rounds between four blocks of two threads, six grid barriers per
// thread: in each round thread 0 of each block reads the next block's
// slot into a shared variable, and after the grid's barrier thread 1
// adds it to its own block's slot.
//
// Why it holds: each grid.sync() orders everything before it in every
// thread before everything after it in every thread, at device scope
// (CUDA C++ Programming Guide, "Grid Synchronization"), and the shared
// variable within the block as __syncthreads() would.  The first barrier
// of a round orders the reads of the slots and the write of s before
// thread 1's read of s and its write of the slot; the second orders
// those before the next round's reads and write of s.  So no access
// races and the values are those of a sequential run: v = {1, 2, 3, 4},
// after round 1 {3, 5, 7, 5}, round 2 {8, 12, 12, 8}, round 3
// {20, 24, 20, 16}.
//
// With -D NO_SECOND_SYNC the second barrier of each round is gone: thread
// 1's write of its slot races with the previous block's thread 0 reading
// it in the next round, and thread 0's next write of s with thread 1's
// read of it; other values are allowed (No).
//
// @Launch: <<<4, 2>>>
// @Input: v = {1, 2, 3, 4}
// @Output: forall (v[0] == 20 && v[1] == 24 && v[2] == 20 && v[3] == 16)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void grid_sync_rounds(int *v) {
  __shared__ int s;
  cg::grid_group g = cg::this_grid();
  int me = blockIdx.x, n = gridDim.x;
  for (int round = 0; round < 3; round++) {
    if (threadIdx.x == 0) s = v[(me + 1) % n];
    g.sync();
    if (threadIdx.x == 1) v[me] = v[me] + s;
#ifndef NO_SECOND_SYNC
    g.sync();
#endif
  }
}
