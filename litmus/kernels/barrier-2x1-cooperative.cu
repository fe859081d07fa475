// The inter-block barrier of barrier-2x2.cu (a counter each block
// increments, then spins on), 2 blocks of 1 thread, launched
// cooperatively (`cooperative` after the launch: cudaLaunchCooperativeKernel).
//
// Why it holds: as barrier-2x2.cu, the fences around the counter's
// read-modify-writes synchronise (CUDA C++ memory model, fence-to-fence
// synchronisation), so out = {2, 1} and no access races.  Termination: a
// cooperative launch makes every block resident at once (CUDA C++
// Programming Guide, "Grid Synchronization"), so each block that spins on
// the counter is sure the other runs: it terminates (obe), where the same
// kernel launched as usual may not (a block may wait to start until the
// spinning one finishes).
//
// @Launch: <<<2, 1>>> cooperative
// @Input: count = {0}; data = {0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 2 && out[1] == 1)

__global__ void barrier_2x1(unsigned int *count, int *data, int *out) {
  data[blockIdx.x] = blockIdx.x + 1;
  __threadfence();
  atomicAdd(count, 1);
  while (atomicAdd(count, 0) < gridDim.x) {
  }
  __threadfence();
  out[blockIdx.x] = data[1 - blockIdx.x];
}
