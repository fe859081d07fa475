// A decoupled look-back in the style of CUB's ScanTileState for values
// that do not fit one word (cub/agent/single_pass_scan_operators.cuh:
// SetInclusive stores the value, __threadfence(), then the status;
// WaitForValid spins on the status, __threadfence(), then loads the
// value), templated over a policy struct that names the tile count and
// the status type, as CUB's agents are.  Tile 0 publishes its inclusive
// prefix; tile 1 waits for it and publishes its own.
//
// Why it holds (PTX ISA memory model: a fence.sc (or fence.acq_rel) before
// a strong store and one after a strong load that reads it form a
// fence-fence synchronisation at their scope, here the GPU's;
// __threadfence() is fence.acq_rel.gpu on sm_70 and later, the volatile
// status accesses are relaxed system-scope ones): tile 0's write of its
// value happens before tile 1's read of it: the prefixes are {5, 12}, no
// race.  -D NO_FENCE drops both __threadfence() calls: the value and the
// status are then unordered, tile 1 may read the value before it is
// written (out[1] = 7), and the value's accesses race.  Under
// --termination tile 1 may wait for ever for a tile 0 that never starts
// (obe): this is why CUB takes tile numbers from an atomic counter in the
// order blocks start, not from blockIdx.x as written here.
//
// @Launch: <<<2, 1>>>
// @Input: status = {0, 0}; value = {0, 0}; out = {-1, -1}
// @Output: forall (out[0] == 5 /\ out[1] == 12)

#ifdef NO_FENCE
#define FENCE()
#else
#define FENCE() __threadfence()
#endif

enum ScanTileStatus { SCAN_TILE_INVALID = 0, SCAN_TILE_INCLUSIVE = 2 };

struct LookbackPolicy {
  static constexpr int TILES = 2;
  using StatusWord = int;
};

template <typename T, typename Policy>
struct ScanTileState {
  using StatusWord = typename Policy::StatusWord;
  StatusWord *d_status;
  T *d_value;

  __device__ void SetInclusive(int tile_idx, T tile_inclusive) {
    d_value[tile_idx] = tile_inclusive;
    FENCE();
    *reinterpret_cast<volatile StatusWord *>(d_status + tile_idx) = SCAN_TILE_INCLUSIVE;
  }

  __device__ T WaitForValid(int tile_idx) {
    while (*reinterpret_cast<volatile StatusWord *>(d_status + tile_idx) == SCAN_TILE_INVALID) {
    }
    FENCE();
    return d_value[tile_idx];
  }
};

template <typename Policy>
__global__ void lookback(int *status, int *value, int *out) {
  ScanTileState<int, Policy> tile_state{status, value};
  int tile_idx = blockIdx.x;
  int aggregate = tile_idx == 0 ? 5 : 7;
  int inclusive = aggregate;
  if (tile_idx > 0) inclusive += tile_state.WaitForValid(tile_idx - 1);
  if (tile_idx < Policy::TILES - 1) tile_state.SetInclusive(tile_idx, inclusive);
  out[tile_idx] = inclusive;
}

template __global__ void lookback<LookbackPolicy>(int *, int *, int *);
