#!/bin/sh
# nvcc.sh - --check-mapping nvcc: the classic C++ tests compiled by the
# nvcc installed here for sm_75 and sm_90, their PTX read back and checked,
# and what the compiler emits for every order and scope (whole outputs
# against tests/map/expected/nvcc-*.expected).  Skips without nvcc.
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
cd "$top_srcdir" || exit 99
require_nvcc
make_tmp
exp=tests/map/expected
# the compiler's temporary folder has a random name
filter() { sed 's|/tmp/litmus-nvcc-[A-Za-z0-9]*|TMP|g'; }
# run NAME WANT-STATUS ARGS...: stdout+stderr against $exp/NAME.expected
run() {
  name=$1 want=$2
  shift 2
  check_run "$name" "$want" "$exp/$name.expected" "$lc" "$@"
}
classic=$(ls tests/map/cpp/*.litmus | grep -v cluster)
# shellcheck disable=SC2086
run nvcc-classic-sm90-rc11 1 --check-mapping nvcc --sm 90 $classic
# shellcheck disable=SC2086
run nvcc-classic-sm75-nta-off 0 --check-mapping nvcc --sm 75 --set no-thin-air=off $classic
orders=$(ls tests/map/nvcc/*.litmus | grep -v cluster)
# shellcheck disable=SC2086
run nvcc-orders-sm75 0 --check-mapping nvcc --sm 75 $orders
# shellcheck disable=SC2086
run nvcc-orders-sm90 0 --check-mapping nvcc --sm 90 $orders
# the CUDA API as kernels write it (volatile int*, atomicAdd and friends,
# __threadfence, cuda::atomic members, named atomic_refs): what the
# compiler emits for each form (ld.volatile, membar.gl, ...)
cuda_api="litmus/cuda-cpp/MP+volatile.litmus litmus/cuda-cpp/MP+atomicExch+threadfence.litmus
  litmus/cuda-cpp/atomicInc-wrap.litmus litmus/cuda-cpp/MP+cuda-atomic+members.litmus
  litmus/cuda-cpp/SB+cuda-std-atomic+defaults.litmus litmus/cuda-cpp/MP+atomic_ref-locals+same-block.litmus"
# shellcheck disable=SC2086
run nvcc-cuda-api-sm90 0 --check-mapping nvcc --sm 90 $cuda_api
run nvcc-cluster 2 --check-mapping nvcc --sm 90 tests/map/nvcc/loads-cluster.litmus tests/map/nvcc/loads-device.litmus
# ASPLOS'19 Fig. 12: nvcc's seq_cst RMW (fence.sc; atom.acquire) loses
# RC11's release sequence; sound under C++20's
run nvcc-fig12-sm90-rc11 1 --check-mapping nvcc --sm 90 tests/map/fig12/*.litmus
run nvcc-fig12-sm90-c20 0 --check-mapping nvcc --sm 90 --set release-sequence=c20 tests/map/fig12/*.litmus
# --json: an object per test, in order, those in error too (a cluster
# scope the toolkit cannot compile, a PTX test)
# shellcheck disable=SC2086
run nvcc-json 2 --check-mapping nvcc --sm 90 --json $classic tests/map/nvcc/loads-cluster.litmus litmus/MP.litmus
# --lower nvcc: what nvcc emits for a C++ spin lock and a flag handoff
# through volatile ints and __threadfence, as a PTX litmus test (whole
# output), which checked gives the C++ test's verdict
for t in CAS-lock MP+volatile+threadfence; do
  run "lower-nvcc-sm90-$t" 0 --lower nvcc --sm 90 "litmus/cuda-cpp/$t.litmus"
  "$lc" --lower nvcc --sm 90 "litmus/cuda-cpp/$t.litmus" >"$tmp/$t.litmus" 2>/dev/null
  "$lc" "$tmp/$t.litmus" 2>&1 | grep -E '^(Ok|No|Observation) ' >"$tmp/ptx.v"
  "$lc" "litmus/cuda-cpp/$t.litmus" 2>&1 | grep -E '^(Ok|No|Observation) ' >"$tmp/cpp.v"
  if [ -s "$tmp/cpp.v" ] && cmp -s "$tmp/ptx.v" "$tmp/cpp.v"; then
    ok "--lower nvcc of $t checks to the C++ test's verdict"
  else
    bad "--lower nvcc of $t checks to another verdict"; cat "$tmp/ptx.v" "$tmp/cpp.v"
  fi
done
run lower-nvcc-json 0 --lower nvcc --sm 90 --json litmus/cuda-cpp/MP+cuda-atomic+members.litmus
run lower-nvcc-not-cpp 2 --lower nvcc litmus/MP.litmus
finish nvcc
