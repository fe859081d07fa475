// lookback-template.cu with the statuses stored memory_order_relaxed: a
// tile that loads a predecessor's status with acquire still sees it, but
// the relaxed store does not synchronise with that load (CUDA C++ memory
// model: a release store, or a release fence before it, is needed), so
// the predecessor's plain write of its aggregate or inclusive value does
// not happen before the read of it.  Those accesses race (undefined
// behaviour) and a tile may add a stale 0: out[2] may be 1 or 2.
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
    cuda::atomic_ref<int, cuda::thread_scope_device>(status[tile]).store(STATUS_AGGREGATE, cuda::memory_order_relaxed);
  }

  __device__ void set_inclusive(int tile, T value) {
    inclusive[tile] = value;
    cuda::atomic_ref<int, cuda::thread_scope_device>(status[tile]).store(STATUS_INCLUSIVE, cuda::memory_order_relaxed);
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
__global__ void lookback_relaxed(int *status, T *aggregate, T *inclusive, T *out) {
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

template __global__ void lookback_relaxed<int>(int *, int *, int *, int *);
