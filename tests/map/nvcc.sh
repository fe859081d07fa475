#!/bin/sh
# nvcc.sh - --check-mapping nvcc: the classic C++ tests compiled by the
# nvcc installed here for sm_75 and sm_90, their PTX read back and checked,
# and what the compiler emits for every order and scope (whole outputs
# against tests/map/expected/nvcc-*.expected).  Skips without nvcc.
# PROMOTE=1 rewrites the expected files.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lc=$(cd "$top_builddir" && pwd)/src/litmus-check
cd "$top_srcdir" || exit 99
if [ -n "${NVCC:-}" ] && [ -x "${NVCC:-}" ]; then :; 
elif [ -x "${CUDA_DIR:-/usr/local/cuda}/bin/nvcc" ]; then NVCC=${CUDA_DIR:-/usr/local/cuda}/bin/nvcc
else echo "SKIP: no nvcc (set NVCC or CUDA_DIR)"; exit 77
fi
export NVCC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
exp=tests/map/expected
run() {
  name=$1 want=$2
  shift 2
  "$lc" "$@" >"$tmp/out" 2>&1
  got=$?
  # the compiler's temporary folder has a random name
  sed 's|/tmp/litmus-nvcc-[A-Za-z0-9]*|TMP|g' "$tmp/out" >"$tmp/out.s"
  [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/out.s" "$exp/$name.expected"
  if [ "$got" != "$want" ]; then
    echo "FAIL: $name: exit status $got, expected $want"; fail=$((fail + 1))
  elif ! diff -u "$exp/$name.expected" "$tmp/out.s"; then
    echo "FAIL: $name"; fail=$((fail + 1))
  fi
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
run nvcc-cluster 2 --check-mapping nvcc --sm 90 tests/map/nvcc/loads-cluster.litmus tests/map/nvcc/loads-device.litmus
[ "$fail" = 0 ] && echo "nvcc: all passed"
[ "$fail" = 0 ]
