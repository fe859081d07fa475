#!/bin/sh
# mock-run.sh - cu_run end to end with a stand-in libcuda.so.1 (tests/cuda/mock)
# and the real NVRTC: everything the runner does short of running a kernel.
. "$(dirname "$0")/../e2e/lib.sh"
probe="$top_builddir/tests/cuda/test_cu_mock"
require_nvrtc
LD_LIBRARY_PATH="$top_builddir/tests/cuda/mock${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$probe"
