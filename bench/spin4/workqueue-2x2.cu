// A work queue shared by 2 blocks of 2 threads.  Thread 0 of each block
// pushes two items: an atomicAdd on tail claims a slot, the item is
// written, a __threadfence(), then the slot's flag is set.  Thread 1 of
// each block pops until the queue is drained: an atomicAdd on head claims
// a slot, it spins on the slot's flag, fences, and folds the item into its
// sum (s = 16 s + item, so the sum records the order of the items).  One
// consumer may take both items of one block, in order: sums 0x12 and 0x34.
//
// Unrolled twice (the default), the consumers' loops make 2,630 paths and
// 53,778 events: the static relations alone take 6.2 GB, and lowering says
// so (past half of --max-memory) instead of running out of memory.
//
// @Launch: <<<2, 2>>>
// @Input: head = {0}; tail = {0}; item = {0, 0, 0, 0}; ready = {0, 0, 0, 0}; sum = {0, 0}
// @Output: exists (sum[0] == 18 && sum[1] == 52)

__global__ void workqueue_2x2(unsigned int *head, unsigned int *tail, int *item, int *ready, int *sum) {
  if (threadIdx.x == 0) {
    for (int k = 0; k < 2; k++) {
      unsigned int slot = atomicAdd(tail, 1);
      item[slot] = 2 * blockIdx.x + k + 1;
      __threadfence();
      atomicExch(&ready[slot], 1);
    }
  } else {
    int s = 0;
    unsigned int slot = atomicAdd(head, 1);
    while (slot < 4) {
      while (atomicAdd(&ready[slot], 0) == 0) {
      }
      __threadfence();
      s = s * 16 + item[slot];
      slot = atomicAdd(head, 1);
    }
    sum[blockIdx.x] = s;
  }
}
