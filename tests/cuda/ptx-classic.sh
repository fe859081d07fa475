#!/bin/sh
# ptx-classic.sh - the kernels of the classic tests (litmus/*.litmus) and of
# the generator coverage tests (tests/cuda/gen/*.litmus)
# through nvcc -ptx + ptxas and NVRTC for sm_75, sm_80 and sm_90, with the
# check that the PTX holds every litmus instruction in program order.
. "$(dirname "$0")/../e2e/lib.sh"
[ -n "${NVCC:-}" ] || echo "nvcc was not found at configure time (--with-cuda=DIR): NVRTC only"
exec "$top_builddir/tests/cuda/cu-ptx-check" --nvrtc-cubin 90 "$top_srcdir/litmus" "$top_srcdir/tests/cuda/gen"
