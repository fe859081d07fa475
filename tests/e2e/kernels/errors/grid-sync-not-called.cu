// @Launch: <<<1, 2>>>
// @Input: x = {0, 0}
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *x) {
  cg::this_grid().sync;
}
