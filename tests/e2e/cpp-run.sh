#!/bin/sh
# cpp-run.sh - C++ tests on the host backend (C11 atomics, every scope
# widened to system): each litmus/cuda-cpp test runs and shows no outcome
# that cuda-cpp forbids; the CUDA backend's kernel source for a C++ test
# (--emit-cuda, which needs no GPU) is the stored one, and a C++ loop is
# refused with its message (whole stderr) and exit status 2.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$top_srcdir" || exit 99
for t in litmus/cuda-cpp/*.litmus; do
  if ! "$lr" --backend host -n 10 -i 500 -q -s 7 "$t" >"$tmp/out" 2>"$tmp/err"; then
    bad "$t on the host backend:"; cat "$tmp/err"
  elif ! grep -q '^Model .* 0 forbidden observed$' "$tmp/out"; then
    bad "$t: a forbidden outcome on the host backend:"; cat "$tmp/out"
  else
    ok "$t on the host backend"
  fi
done
# the CUDA backend's kernels: each C++ access the cuda::atomic_ref call
# that --check-mapping nvcc compiles, a branch a goto (whole source)
t=litmus/cuda-cpp/MP+rlx-flag+na-data.litmus
"$lr" --emit-cuda "$t" >"$tmp/out" 2>"$tmp/err"
status=$?
sed '1s/litmus-check [^ ]*$/litmus-check VERSION/' "$tmp/out" >"$tmp/out.s"
if [ "$status" = 0 ] && [ ! -s "$tmp/err" ] && compare_whole tests/e2e/cpp-run/MP+rlx-flag+na-data.cu "$tmp/out.s"; then
  ok "the CUDA kernels of $t"
else
  bad "the CUDA kernels of $t (exit status $status)"; cat "$tmp/err"
fi
# the CUDA API as written: volatile accesses, __threadfence(), atomicExch,
# atomicAdd (whole source)
t=litmus/cuda-cpp/MP+atomicExch+threadfence.litmus
"$lr" --emit-cuda "$t" >"$tmp/out" 2>"$tmp/err"
status=$?
sed '1s/litmus-check [^ ]*$/litmus-check VERSION/' "$tmp/out" >"$tmp/out.s"
[ "${PROMOTE:-0}" = 1 ] && cp "$tmp/out.s" tests/e2e/cpp-run/MP+atomicExch+threadfence.cu
if [ "$status" = 0 ] && [ ! -s "$tmp/err" ] && compare_whole tests/e2e/cpp-run/MP+atomicExch+threadfence.cu "$tmp/out.s"; then
  ok "the CUDA kernels of $t"
else
  bad "the CUDA kernels of $t (exit status $status)"; cat "$tmp/err"
fi
# a loop is refused (whole stderr)
"$lr" --emit-cuda litmus/cuda-cpp/CAS-lock.litmus >"$tmp/out" 2>"$tmp/err"
status=$?
cat >"$tmp/want" <<'END'
litmus/cuda-cpp/CAS-lock.litmus:14:5: error: P0: 'goto L0' cannot run on the GPU: C++ tests with loops do not run on the CUDA backend yet
END
if [ "$status" = 2 ] && compare_whole "$tmp/want" "$tmp/err" keep; then
  ok "the CUDA backend's refusal of a C++ loop"
else
  bad "the CUDA backend's refusal of a C++ loop (exit status $status)"
fi
finish cpp-run
