// The grid's barrier reached by block 0 only: block 1 returns without
// calling grid.sync().
//
// Why it hangs: grid.sync() waits for every thread of the grid (CUDA C++
// Programming Guide, "Grid Synchronization": all threads of the grid must
// call it), and a thread that exits never arrives, so block 0 waits for
// ever.  No execution finishes (no verdict), and --termination answers
// `may not terminate`: block 0 waits at the grid's barrier, block 1 has
// finished.  No data is accessed twice: no race.
//
// @Launch: <<<2, 1>>>
// @Input: x = {0, 0}
#include <cooperative_groups.h>

__global__ void grid_sync_divergent(int *x) {
  x[blockIdx.x] = 1;
  if (blockIdx.x == 0)
    cooperative_groups::this_grid().sync();
}
