// A warp vote: vote.sync.ballot, not modelled (elect.sync is read).
// @Launch: <<<1, 2>>>
// @Input: x = {0, 0}
// @Output: forall (x[0] == 3)

__global__ void warp_vote(int *x) {
  int v = x[threadIdx.x];
  unsigned b = __ballot_sync(0x3, v == 0);
  x[threadIdx.x] = b;
}
