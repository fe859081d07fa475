// A kernel that includes the C library's headers, which NVRTC does not
// have (--via nvrtc supplies small ones: assert() as the CUDA headers
// define it, through __assertfail; printf; the fixed-width integers).
// One thread: in[0] is 5, so the assert holds and out[0] = 6 (in = {4}:
// the assert fails, No).  No race.
//
// @Launch: <<<1, 1>>>
// @Input: in = {5}; out = {0}
// @Output: forall (out[0] == 6)
#include <cassert>
#include <cstdio>
#include <cstdint>

__global__ void c_headers(const uint32_t *in, std::uint32_t *out) {
  uint32_t v = in[0];
  assert(v == 5);
  out[0] = v + 1;
}
