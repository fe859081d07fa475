// Two blocks meet at a cuda::latch<SCOPE> (libcu++ <cuda/latch>) made
// for 2: each writes its slot, arrive_and_wait()s, then reads the other
// block's slot.  The latch starts at 2 (@Input bar = {2}: its one member
// is the count).  SCOPE is cuda::thread_scope_device; -D BLOCK_SCOPE makes
// it cuda::thread_scope_block, one block's scope for a latch two blocks
// share.
//
// arrive_and_wait() is count_down() - a fetch_sub with release order - and
// then libcu++'s blocking wait for the count to read 0 (16 polls unrolled
// by nvcc, then a back-off loop on %globaltimer with nanosleep;
// docs/via-nvcc.md, "Blocking waits").
//
// Why it holds (libcu++ latch, as [thread.latch]: "calls to count_down()
// strongly happen before the return of calls that are unblocked"): at
// device scope each block's write of its slot happens before the other
// block's read of it: out = {2, 1}, no race.  At block scope the two
// blocks' operations are not morally strong (PTX ISA, "Memory Consistency
// Model"): nothing orders the slots' accesses, which race, and a block
// may read the other's slot before it is written (out[0] may be 0).
// Under --termination a block may wait for ever at the latch for a block
// that never starts (CUDA does not promise that the blocks of a grid run
// at once: obe).
//
// @Launch: <<<2, 1>>>
// @Input: bar = {2}; slot = {0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 2 /\ out[1] == 1)
#include <cuda/latch>

#ifdef BLOCK_SCOPE
#define SCOPE cuda::thread_scope_block
#else
#define SCOPE cuda::thread_scope_device
#endif

__global__ void latch_exchange(cuda::latch<SCOPE> *bar, int *slot, int *out) {
  int b = blockIdx.x;
  slot[b] = b + 1;
  bar->arrive_and_wait();
  out[b] = slot[1 - b];
}
