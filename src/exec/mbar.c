/* mbar.c - the state of an mbarrier object and its transitions.
 * SPDX-License-Identifier: MIT
 *
 * An mbarrier (PTX ISA, "mbarrier": "Contents of the mbarrier object",
 * "Phase of the mbarrier object", "Arrive-on operation", "Tx-count
 * operations", "Phase completion") is a shared-memory word that every
 * mbarrier instruction reads and updates atomically.  litmus-check keeps
 * it as one location whose value packs the state, so that the engines see
 * arrivals and transaction updates as read-modify-writes and waits as
 * reads, and the memory model orders them like any other atomics (the
 * arrive's release and the wait's acquire: docs/hopper.md).
 *
 * Layout (bit 63 stays 0, so states print as non-negative numbers):
 *   bits  0-15  expected arrival count of each phase
 *   bits 16-31  pending arrivals of the current phase
 *   bits 32-55  pending transaction bytes, two's complement (24 bits hold
 *               the ISA's range, -(2^20-1) .. 2^20-1)
 *   bits 56-62  the phase number, wrapping at 128 (only its parity and
 *               equality with a returned state are ever tested)
 * The phase completes when both pending counts are zero: the phase number
 * advances, pending arrivals reset to the expected count.
 * smt_engine.c encodes the same transitions on bit-vectors.
 */
#include "exec/exec.h"

lx_mbar_state lx_mbar_decode(lx_val v) {
  uint64_t u = (uint64_t)v;
  lx_mbar_state s;
  s.expected = (unsigned)(u & 0xffff);
  s.pending = (unsigned)((u >> 16) & 0xffff);
  uint32_t tx = (uint32_t)((u >> 32) & 0xffffff);
  s.tx = (tx & 0x800000) ? (int)tx - 0x1000000 : (int)tx;
  s.phase = (unsigned)((u >> 56) & 0x7f);
  return s;
}

static lx_val encode(lx_mbar_state s) {
  uint64_t u = (uint64_t)(s.expected & 0xffff) | (uint64_t)(s.pending & 0xffff) << 16 |
               (uint64_t)((uint32_t)s.tx & 0xffffff) << 32 | (uint64_t)(s.phase & 0x7f) << 56;
  return (lx_val)u;
}

/* 24-bit wrapping, as the field holds it */
static int tx_wrap(int64_t t) {
  uint32_t u = (uint32_t)t & 0xffffff;
  return (u & 0x800000) ? (int)u - 0x1000000 : (int)u;
}

static lx_mbar_state complete(lx_mbar_state s) {
  if (s.pending == 0 && s.tx == 0) {
    s.phase = (s.phase + 1) & 0x7f;
    s.pending = s.expected;
  }
  return s;
}

/* More arrivals than pending is undefined in the ISA; the phase simply
 * completes (pending clamps at zero). */
static lx_mbar_state arrive(lx_mbar_state s, uint64_t n) {
  n &= 0xffff;
  s.pending = n > s.pending ? 0 : s.pending - (unsigned)n;
  return s;
}

lx_val lx_mbar_apply(lx_op op, lx_val a, lx_val b) {
  lx_mbar_state s = lx_mbar_decode(a);
  uint64_t ub = (uint64_t)b;
  switch (op) {
  case LX_OP_MB_INIT: {
    lx_mbar_state i = {(unsigned)((uint64_t)a & 0xffff), (unsigned)((uint64_t)a & 0xffff), 0, 0};
    return encode(i);
  }
  case LX_OP_MB_ARRIVE: return encode(complete(arrive(s, ub)));
  case LX_OP_MB_ARRIVE_TX:
    s.tx = tx_wrap((int64_t)s.tx + (int64_t)(ub & 0xffffff));
    return encode(complete(arrive(s, 1)));
  case LX_OP_MB_EXPECT:
    s.tx = tx_wrap((int64_t)s.tx + (int64_t)(ub & 0xffffff));
    return encode(complete(s));
  case LX_OP_MB_COMPLETE:
    s.tx = tx_wrap((int64_t)s.tx - (int64_t)(ub & 0xffffff));
    return encode(complete(s));
  case LX_OP_MB_DROP:
    s.expected = (s.expected - 1) & 0xffff;
    return encode(complete(arrive(s, ub)));
  case LX_OP_MB_PHASE: return s.phase;
  case LX_OP_MB_DONE: return s.phase != (ub & 0x7f);
  case LX_OP_MB_DONE_PARITY: return (s.phase & 1) != (ub & 1);
  default: return 0;
  }
}
