#!/bin/sh
# mock-run.sh - cu_run end to end with a stand-in libcuda.so.1 (tests/cuda/mock)
# and the real NVRTC: everything the runner does short of running a kernel.
: "${top_builddir:=.}"
probe="$top_builddir/tests/cuda/test_cu_mock"
if ! LD_LIBRARY_PATH= ldconfig -p 2>/dev/null | grep -q libnvrtc && ! ls "${CUDA_DIR:-/nonexistent}"/lib64/libnvrtc.so* >/dev/null 2>&1; then
  echo "SKIP: NVRTC (libnvrtc.so) not found; the runner cannot compile without it"
  exit 77
fi
LD_LIBRARY_PATH="$top_builddir/tests/cuda/mock${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$probe"
