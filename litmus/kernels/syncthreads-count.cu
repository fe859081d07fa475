// __syncthreads_count over a block of 4 threads: each thread's predicate
// is whether its element of flags is positive; flags = {1, 0, 3, 0}.
//
// Why it holds: __syncthreads_count(p) is __syncthreads() that returns to
// every thread of the block the number of its threads for which p is
// non-zero (CUDA C++ Programming Guide, "Synchronization Functions"):
// 2 here, in every thread.  Each thread reads only its own element of
// flags and writes only its own element of out: no race.
//
// @Launch: <<<1, 4>>>
// @Input: flags = {1, 0, 3, 0}; out = {-1, -1, -1, -1}
// @Output: forall (out[0] == 2 && out[1] == 2 && out[2] == 2 && out[3] == 2)

__global__ void syncthreads_count(const int *flags, int *out) {
  int n = __syncthreads_count(flags[threadIdx.x] > 0);
  out[threadIdx.x] = n;
}
