#!/bin/sh
# run-nogpu.sh - litmus-run without a GPU: the CUDA backend (the stub, or
# the real one finding no driver) refuses with exit 2 and points at
# --backend host.  Skipped (77) on a machine with an NVIDIA GPU.  Also the
# usage errors, which need no GPU either.
set -u
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
run=$builddir/src/litmus-run
# models from the source tree, also in a VPATH build (make distcheck)
LITMUS_MODELS=${LITMUS_MODELS:-${top_srcdir:-.}/models}
export LITMUS_MODELS
case $run in /*) ;; *) run=$(pwd)/$run ;; esac
tmp=${TMPDIR:-/tmp}/run-nogpu.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$srcdir" || exit 99
fail=0

expect() {   # what expected-exit expected-stderr-file command...
  what=$1 want=$2 exp=$3
  shift 3
  "$@" > "$tmp/out" 2> "$tmp/err"
  rc=$?
  if [ $rc -ne "$want" ]; then cat "$tmp/err"; echo "FAIL: $what: exit $rc, expected $want"; fail=1; return; fi
  if ! diff -u "$exp" "$tmp/err"; then echo "FAIL: $what"; fail=1; return; fi
  echo "ok: $what"
}

echo "litmus-run: --backend: 'gpu' is not cuda or host" > "$tmp/e1a"
expect "unknown backend" 2 "$tmp/e1a" "$run" --backend gpu litmus/MP.litmus
echo "litmus-run: no input files (try 'litmus-run --help')" > "$tmp/e2"
expect "no files" 2 "$tmp/e2" "$run" --backend host
echo "litmus-run: --instances takes 1 to 16777216" > "$tmp/e3"
expect "instances range" 2 "$tmp/e3" "$run" --instances 0 litmus/MP.litmus

if [ -e /dev/nvidiactl ] || nvidia-smi -L > /dev/null 2>&1; then
  echo "SKIP: this machine has an NVIDIA GPU; the no-GPU path is not testable here"
  [ $fail -eq 0 ] && exit 77
  exit $fail
fi

# The backend's message (stub or real), then our hint, exactly.
"$run" --backend cuda litmus/MP.litmus > "$tmp/out" 2> "$tmp/err"
rc=$?
first=$(sed -n 1p "$tmp/err")
last=$(sed -n '$p' "$tmp/err")
hint="litmus-run: litmus/MP.litmus: the CUDA backend cannot run here (no GPU, driver or NVRTC?); --backend host runs the test on CPU threads"
case $first in
  "litmus-run: litmus/MP.litmus: error: this litmus-run has no CUDA backend") which=stub ;;
  "litmus-run: litmus/MP.litmus: error: "*"no CUDA driver"*) which=driver ;;
  *) which= ;;
esac
if [ $rc -eq 2 ] && [ -n "$which" ] && [ "$last" = "$hint" ] && [ ! -s "$tmp/out" ]; then
  echo "ok: --backend cuda without a GPU ($which): exit 2"
else
  cat "$tmp/err"; echo "FAIL: --backend cuda without a GPU: exit $rc"; fail=1
fi
# cuda is the default backend
"$run" litmus/MP.litmus > /dev/null 2>&1
rc=$?
[ $rc -eq 2 ] && echo "ok: cuda is the default" || { echo "FAIL: default backend: exit $rc"; fail=1; }
exit $fail
