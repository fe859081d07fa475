// An element chosen by a value read from memory: thread 1 writes slot 1
// if it sees thread 0's flag, else slot 0.  The index is one of two
// constants, so the address is followed per value (nvcc computes it with
// selp, no branch).  Both outcomes are possible: thread 1's atomic read
// may come before or after thread 0's atomic write (CUDA C++ memory model:
// nothing orders them), so slots is {7, 0} or {0, 7}, never both or
// neither.  flag is accessed only atomically, slots by thread 1 only: no
// race.
//
// @Launch: <<<1, 2>>>
// @Input: flag = {0}; slots = {0, 0}
// @Output: forall ((slots[0] == 7 && slots[1] == 0) || (slots[0] == 0 && slots[1] == 7))

__global__ void select_slot(int *flag, int *slots) {
  if (threadIdx.x == 0) {
    atomicExch(flag, 1);
  } else {
    int i = atomicAdd(flag, 0) != 0 ? 1 : 0;
    slots[i] = 7;
  }
}
