#!/bin/sh
# ptx-random.sh - the kernels of 50 random tests of litmus-gen through
# nvcc -ptx + ptxas (sm_75, sm_90) and NVRTC (sm_90), with the check that
# the PTX holds every litmus instruction in program order: random tests
# combine sems, scopes, RMWs, branches, placements and filters as the
# corpus does not.  None may be refused (they use no proxies).
. "$(dirname "$0")/../e2e/lib.sh"
[ -n "${NVCC:-}" ] || echo "nvcc was not found at configure time (--with-cuda=DIR): NVRTC only"
make_tmp
"$lgen" --seed 20261122 --count 50 --out "$tmp" || exit 99
"$top_builddir/tests/cuda/cu-ptx-check" --arch 75,90 --ptxas 75 --nvrtc 90 --nvrtc-cubin none \
  --refused /dev/null "$tmp"
