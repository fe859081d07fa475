// dsmem-cluster.cu (litmus/kernels/nvcc/) without __cluster_dims__: the
// launch's cluster(2) gives the clusters, as the launch attribute
// cudaLaunchAttributeClusterDimension does for a kernel that declares
// none (CUDA C++ Programming Guide, "Thread Block Clusters").  Block 0
// writes block 1's shared x through map_shared_rank, the cluster meets at
// cluster.sync() (barrier.cluster.arrive has release, .wait acquire
// semantics at cluster scope: PTX ISA, barrier.cluster), and block 1
// reads its x: out = {42}, no race.
//
// @Launch: <<<2, 1>>> cluster(2)
// @Input: out = {-1}
// @Output: forall (out[0] == 42)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void dsmem(int *out) {
  __shared__ int x;
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0) {
    int *remote = cluster.map_shared_rank(&x, 1);
    *remote = 42;
  }
  cluster.sync();
  if (cluster.block_rank() == 1) out[0] = x;
}
