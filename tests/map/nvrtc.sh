#!/bin/sh
# nvrtc.sh - --check-mapping nvrtc: the runs of nvcc.sh, compiled through
# NVRTC instead of nvcc.  The same toolkit's front end makes the same PTX,
# so the whole outputs are nvcc.sh's expected files with the compiler's
# name changed.  Skips without NVRTC or without the toolkit's headers.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
cd "$top_srcdir" || exit 99
make_tmp
"$lc" --check-mapping nvrtc tests/map/nvcc/loads-device.litmus >"$tmp/out" 2>"$tmp/err"
if grep -q 'NVRTC (libnvrtc.so) not found\|headers for NVRTC .* were not found' "$tmp/err"; then
  skip "$(cat "$tmp/err")"
fi
exp=tests/map/expected
PROMOTE=0   # the expected files are nvcc.sh's
# run NAME WANT-STATUS ARGS...: stdout+stderr against nvcc.sh's NAME.expected,
# the compiler's name changed
run() {
  name=$1 want=$2
  shift 2
  sed -e 's/ compiler nvcc / compiler nvrtc /' -e 's/"compiler":"nvcc"/"compiler":"nvrtc"/g' "$exp/$name.expected" >"$tmp/want"
  check_run "$name through NVRTC" "$want" "$tmp/want" "$lc" "$@"
}
classic=$(ls tests/map/cpp/*.litmus | grep -v cluster)
# shellcheck disable=SC2086
run nvcc-classic-sm90-rc11 1 --check-mapping nvrtc --sm 90 $classic
orders=$(ls tests/map/nvcc/*.litmus | grep -v cluster)
# shellcheck disable=SC2086
run nvcc-orders-sm75 0 --check-mapping nvrtc --sm 75 $orders
# shellcheck disable=SC2086
run nvcc-orders-sm90 0 --check-mapping nvrtc --sm 90 $orders
# the CUDA API as kernels write it (volatile int*, atomicAdd and friends,
# __threadfence, cuda::atomic members, named atomic_refs): what the
# compiler emits for each form (ld.volatile, membar.gl, ...)
cuda_api="litmus/cuda-cpp/MP+volatile.litmus litmus/cuda-cpp/MP+atomicExch+threadfence.litmus
  litmus/cuda-cpp/atomicInc-wrap.litmus litmus/cuda-cpp/MP+cuda-atomic+members.litmus
  litmus/cuda-cpp/SB+cuda-std-atomic+defaults.litmus litmus/cuda-cpp/MP+atomic_ref-locals+same-block.litmus"
# shellcheck disable=SC2086
run nvcc-cuda-api-sm90 0 --check-mapping nvrtc --sm 90 $cuda_api
run nvcc-cluster 2 --check-mapping nvrtc --sm 90 tests/map/nvcc/loads-cluster.litmus tests/map/nvcc/loads-device.litmus
# shellcheck disable=SC2086
run nvcc-json 2 --check-mapping nvrtc --sm 90 --json $classic tests/map/nvcc/loads-cluster.litmus litmus/MP.litmus
finish nvrtc
