#!/bin/sh
# run-nogpu.sh - litmus-run without a GPU: the CUDA backend (the stub, or
# the real one finding no driver) refuses with exit 2 and points at
# --backend host.  Skipped (77) on a machine with an NVIDIA GPU.  Also the
# usage errors, which need no GPU either.
set -u
. "$(dirname "$0")/lib.sh"
source_models
run=$lr
make_tmp
cd "$top_srcdir" || exit 99

expect() {   # what expected-exit expected-stderr-file command...
  what=$1 want=$2 exp=$3
  shift 3
  "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne "$want" ]; then cat "$tmp/err"; bad "$what: exit $rc, expected $want"; return; fi
  check_whole "$exp" "$tmp/err" "$what" keep
}

echo "litmus-run: --backend: 'gpu' is not cuda or host" > "$tmp/e1a"
expect "unknown backend" 2 "$tmp/e1a" "$run" --backend gpu litmus/MP.litmus
echo "litmus-run: no input files (try 'litmus-run --help')" > "$tmp/e2"
expect "no files" 2 "$tmp/e2" "$run" --backend host
echo "litmus-run: --instances takes 1 to 16777216" > "$tmp/e3"
expect "instances range" 2 "$tmp/e3" "$run" --instances 0 litmus/MP.litmus

if [ -e /dev/nvidiactl ] || nvidia-smi -L > /dev/null 2>&1; then
  [ $fail -eq 0 ] || finish run-nogpu
  skip "this machine has an NVIDIA GPU; the no-GPU path is not testable here"
fi

# One line, before any test (no GPU, no driver): the driver's absence and the hint.
msg="litmus-run: error: no CUDA driver (libcuda.so.1) found: litmus-run needs an NVIDIA GPU; --backend host runs the test on CPU threads"
echo "$msg" > "$tmp/e4"
expect "--backend cuda without a GPU" 2 "$tmp/e4" "$run" --backend cuda litmus/MP.litmus
[ ! -s "$tmp/out" ] || bad "--backend cuda without a GPU wrote to stdout"
# a folder of tests: the same one line, not one per test
expect "a folder without a GPU: one message" 2 "$tmp/e4" "$run" litmus/
# cuda is the default backend
"$run" litmus/MP.litmus > /dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then ok "cuda is the default"; else bad "default backend: exit $rc"; fi
finish run-nogpu
