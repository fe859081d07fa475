#!/bin/sh
# nvrtc.sh - --check-mapping nvrtc: the runs of nvcc.sh, compiled through
# NVRTC instead of nvcc.  The same toolkit's front end makes the same PTX,
# so the whole outputs are nvcc.sh's expected files with the compiler's
# name changed.  Skips without NVRTC or without the toolkit's headers.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lc=$(cd "$top_builddir" && pwd)/src/litmus-check
cd "$top_srcdir" || exit 99
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$lc" --check-mapping nvrtc tests/map/nvcc/loads-device.litmus >"$tmp/out" 2>"$tmp/err"
if grep -q 'NVRTC (libnvrtc.so) not found\|headers for NVRTC .* were not found' "$tmp/err"; then
  echo "SKIP: $(cat "$tmp/err")"; exit 77
fi
fail=0
exp=tests/map/expected
run() {
  name=$1 want=$2
  shift 2
  "$lc" "$@" >"$tmp/out" 2>&1
  got=$?
  sed 's/ compiler nvcc / compiler nvrtc /' "$exp/$name.expected" >"$tmp/want"
  if [ "$got" != "$want" ]; then
    echo "FAIL: $name through NVRTC: exit status $got, expected $want"; cat "$tmp/out"; fail=$((fail + 1))
  elif ! diff -u "$tmp/want" "$tmp/out"; then
    echo "FAIL: $name through NVRTC"; fail=$((fail + 1))
  fi
}
classic=$(ls tests/map/cpp/*.litmus | grep -v cluster)
# shellcheck disable=SC2086
run nvcc-classic-sm90-rc11 1 --check-mapping nvrtc --sm 90 $classic
orders=$(ls tests/map/nvcc/*.litmus | grep -v cluster)
# shellcheck disable=SC2086
run nvcc-orders-sm75 0 --check-mapping nvrtc --sm 75 $orders
# shellcheck disable=SC2086
run nvcc-orders-sm90 0 --check-mapping nvrtc --sm 90 $orders
run nvcc-cluster 2 --check-mapping nvrtc --sm 90 tests/map/nvcc/loads-cluster.litmus tests/map/nvcc/loads-device.litmus
[ "$fail" = 0 ] && echo "nvrtc: all passed"
[ "$fail" = 0 ]
