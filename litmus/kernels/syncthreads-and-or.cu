// __syncthreads_and and __syncthreads_or, and the barrier they are:
// thread 0 of a block of 2 writes data before both; thread 1 reads it
// after them.
//
// Why it holds: each is __syncthreads() that also returns to every thread
// of the block whether the predicate is non-zero for all of its threads
// (_and) or for any (_or) (CUDA C++ Programming Guide, "Synchronization
// Functions"), so thread 0's write happens before thread 1's read (no
// race) and thread 1 reads 42; threadIdx.x == 0 holds for one thread of
// two, so _and gives 0 and _or non-zero: out = 42 + 0 + 100 = 142.
//
// @Launch: <<<1, 2>>>
// @Input: data = {0}; out = {-1}
// @Output: forall (out[0] == 142)

__global__ void syncthreads_and_or(int *data, int *out) {
  if (threadIdx.x == 0)
    *data = 42;
  int all = __syncthreads_and(threadIdx.x == 0);
  int any = __syncthreads_or(threadIdx.x == 0);
  if (threadIdx.x == 1)
    *out = *data + (all != 0) * 10 + (any != 0) * 100;
}
