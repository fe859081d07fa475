// A decoupled look-back prefix sum in the style of CUB's single-pass scan,
// 3 blocks of 1 thread: a class template TileState<T> holds each tile's
// status word (0 invalid, 1 aggregate, 2 inclusive prefix) and its two
// values; the kernel is a template instantiated for int.  Tile i's
// aggregate is i + 1.  Tile 0 publishes its inclusive prefix; every other
// tile publishes its aggregate, then looks back: it waits for each
// predecessor's status, adds that tile's aggregate and goes on, or adds
// its inclusive prefix and stops; then it publishes its own inclusive
// prefix and writes its exclusive prefix to out.  A value is written
// (plain) before its status is stored with memory_order_release, and read
// after a memory_order_acquire load of the status returns it: the store
// synchronises with the load (CUDA C++ memory model, release/acquire at
// device scope), so every read of a value happens after its write, and
// the two values are separate words, never written twice.  out is
// {0, 1, 3} in every execution; no race.  With --termination it may not
// terminate (obe): tile i spins on tile i - 1, whose block need not have
// started (CUB takes tile numbers from an atomic counter, in the order
// blocks start, for this reason).
//
// @Launch: <<<3, 1>>>
// @Input: status = {0, 0, 0}; aggregate = {0, 0, 0}; inclusive = {0, 0, 0}; out = {-1, -1, -1}
// @Output: forall (out[0] == 0 && out[1] == 1 && out[2] == 3)
#include <cuda/atomic>

#define STATUS_INVALID 0
#define STATUS_AGGREGATE 1
#define STATUS_INCLUSIVE 2

template <typename T>
struct TileState {
  int *status;
  T *aggregate;
  T *inclusive;

  __device__ TileState(int *s, T *a, T *p) : status(s), aggregate(a), inclusive(p) {}

  __device__ void set_partial(int tile, T value) {
    aggregate[tile] = value;
    cuda::atomic_ref<int, cuda::thread_scope_device>(status[tile]).store(STATUS_AGGREGATE, cuda::memory_order_release);
  }

  __device__ void set_inclusive(int tile, T value) {
    inclusive[tile] = value;
    cuda::atomic_ref<int, cuda::thread_scope_device>(status[tile]).store(STATUS_INCLUSIVE, cuda::memory_order_release);
  }

  __device__ int wait_for(int tile) {
    int s;
    do {
      s = cuda::atomic_ref<int, cuda::thread_scope_device>(status[tile]).load(cuda::memory_order_acquire);
    } while (s == STATUS_INVALID);
    return s;
  }

  __device__ T aggregate_of(int tile) const { return aggregate[tile]; }
  __device__ T inclusive_of(int tile) const { return inclusive[tile]; }
};

template <typename T>
__global__ void lookback(int *status, T *aggregate, T *inclusive, T *out) {
  TileState<T> tiles(status, aggregate, inclusive);
  int tile = blockIdx.x;
  T mine = tile + 1;
  if (tile == 0) {
    tiles.set_inclusive(0, mine);
    out[0] = 0;
    return;
  }
  tiles.set_partial(tile, mine);
  T prefix = 0;
  for (int pred = tile - 1; pred >= 0; pred--) {
    int s = tiles.wait_for(pred);
    if (s == STATUS_INCLUSIVE) {
      prefix = prefix + tiles.inclusive_of(pred);
      break;
    }
    prefix = prefix + tiles.aggregate_of(pred);
  }
  tiles.set_inclusive(tile, prefix + mine);
  out[tile] = prefix;
}

template __global__ void lookback<int>(int *, int *, int *, int *);
