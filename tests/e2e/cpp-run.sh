#!/bin/sh
# cpp-run.sh - C++ tests on the host backend (C11 atomics, every scope
# widened to system): each litmus/cuda-cpp test runs and shows no outcome
# that cuda-cpp forbids; the CUDA backend's kernel source for a C++ test
# (--emit-cuda, which needs no GPU) is the stored one, and a C++ loop is
# refused with its message (whole stderr) and exit status 2.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lr=$(cd "$top_builddir" && pwd)/src/litmus-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$top_srcdir" || exit 99
for t in litmus/cuda-cpp/*.litmus; do
  if ! "$lr" --backend host -n 10 -i 500 -q -s 7 "$t" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL: $t on the host backend:"; cat "$tmp/err"; fail=$((fail + 1)); continue
  fi
  if ! grep -q '^Model .* 0 forbidden observed$' "$tmp/out"; then
    echo "FAIL: $t: a forbidden outcome on the host backend:"; cat "$tmp/out"; fail=$((fail + 1))
  fi
done
# the CUDA backend's kernels: each C++ access the cuda::atomic_ref call
# that --check-mapping nvcc compiles, a branch a goto (whole source)
t=litmus/cuda-cpp/MP+rlx-flag+na-data.litmus
"$lr" --emit-cuda "$t" >"$tmp/out" 2>"$tmp/err"
status=$?
sed '1s/litmus-check [^ ]*$/litmus-check VERSION/' "$tmp/out" >"$tmp/out.s"
if [ "$status" != 0 ] || [ -s "$tmp/err" ] || ! diff -u tests/e2e/cpp-run/MP+rlx-flag+na-data.cu "$tmp/out.s"; then
  echo "FAIL: the CUDA kernels of $t (exit status $status)"; cat "$tmp/err"; fail=$((fail + 1))
fi
# a loop is refused (whole stderr)
"$lr" --emit-cuda litmus/cuda-cpp/CAS-lock.litmus >"$tmp/out" 2>"$tmp/err"
status=$?
cat >"$tmp/want" <<'END'
litmus/cuda-cpp/CAS-lock.litmus:14:5: error: P0: 'goto L0' cannot run on the GPU: C++ tests with loops do not run on the CUDA backend yet
END
if [ "$status" != 2 ] || ! diff -u "$tmp/want" "$tmp/err"; then
  echo "FAIL: the CUDA backend's refusal of a C++ loop (exit status $status)"; fail=$((fail + 1))
fi
echo "cpp-run: $fail failures"
[ "$fail" -eq 0 ]
