#!/bin/sh
# sass-classic.sh - litmus-run --check-sass on the classic tests and the
# generator coverage tests for sm_75, sm_80 and sm_90: in the SASS that
# ptxas makes of each test kernel, every litmus access and fence is there,
# in order, as strong as written.  Needs NVRTC and cuobjdump (the CUDA
# toolkit, or the PyPI package nvidia-cuda-cuobjdump with nvidia-cuda-nvdisasm).
. "$(dirname "$0")/../e2e/lib.sh"
out=$("$lr" --check-sass --sm 75,80,90 "$top_srcdir/litmus" "$top_srcdir/tests/cuda/gen" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -eq 77 ]; then
  echo "SKIP: the SASS check needs NVRTC and cuobjdump"
fi
exit $rc
