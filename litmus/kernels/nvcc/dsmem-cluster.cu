// Distributed shared memory in a cluster of two CTAs, through cooperative
// groups: block 0 writes block 1's copy of the shared x (map_shared_rank,
// which nvcc compiles to mapa and st.shared::cluster), the cluster meets at
// cluster.sync() (barrier.cluster.arrive, .release by default, and
// barrier.cluster.wait, .acquire by default), and block 1 reads its own x.
// The launch's cluster(2) is the kernel's __cluster_dims__.  The
// source-level reader has no clusters.
//
// Why it holds (PTX ISA, barrier.cluster: the arrive has release and the
// wait acquire semantics at cluster scope): the arrive of block 0 and the
// wait of block 1 synchronise, so the remote write happens before the
// read: out = {42}, no race.  -D NO_SYNC drops cluster.sync(): nothing
// orders the write and the read, which race, and out may be 0.
//
// @Launch: <<<2, 1>>> cluster(2)
// @Input: out = {-1}
// @Output: forall (out[0] == 42)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) dsmem(int *out) {
  __shared__ int x;
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0) {
    int *remote = cluster.map_shared_rank(&x, 1);
    *remote = 42;
  }
#ifndef NO_SYNC
  cluster.sync();
#endif
  if (cluster.block_rank() == 1) out[0] = x;
}
