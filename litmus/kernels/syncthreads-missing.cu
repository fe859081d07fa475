// syncthreads.cu without the barrier: the write of buf[1] by thread 0 and
// the read by thread 1 are plain accesses not ordered by happens-before, a
// data race (undefined behaviour); out may be 0 (shared memory starts at 0
// here) or 7.
//
// @Launch: <<<1, 2>>>
// @Input: out = {-1}
// @Output: forall (out[0] == 7)

__global__ void syncthreads_missing(int *out) {
  __shared__ int buf[2];
  if (threadIdx.x == 0)
    buf[1] = 7;
  if (threadIdx.x == 1)
    *out = buf[1];
}
