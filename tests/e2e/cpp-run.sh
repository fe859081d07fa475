#!/bin/sh
# cpp-run.sh - C++ tests on the host backend (C11 atomics, every scope
# widened to system): each litmus/cuda-cpp test runs and shows no outcome
# that cuda-cpp forbids; the CUDA backend's kernel source for a C++ test
# (--emit-cuda, which needs no GPU) is the stored one: a C++ spin loop
# (the CAS lock) runs bounded by --spin-limit and the watchdog as a PTX
# loop does, and a compare-exchange sets its success flag and expected
# value; with --spin-limit 1 on the host backend the lock's spins are cut.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$top_srcdir" || exit 99
for t in litmus/cuda-cpp/*.litmus tests/e2e/cpp/MP+wait+notify.litmus tests/e2e/cpp/continue.litmus \
         tests/e2e/cpp/unsigned-wrap.litmus; do
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
# C++ spin loops (whole source): the lock's compare-exchange loop, each
# backward goto guarded by the unroll bound, --spin-limit and the watchdog
for t in litmus/cuda-cpp/CAS-lock.litmus litmus/cuda-cpp/MP+cuda-api.litmus; do
  b=$(basename "$t" .litmus)
  "$lr" --emit-cuda "$t" >"$tmp/out" 2>"$tmp/err"
  status=$?
  sed '1s/litmus-check [^ ]*$/litmus-check VERSION/' "$tmp/out" >"$tmp/out.s"
  [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/out.s" "tests/e2e/cpp-run/$b.cu"
  if [ "$status" = 0 ] && [ ! -s "$tmp/err" ] && compare_whole "tests/e2e/cpp-run/$b.cu" "$tmp/out.s"; then
    ok "the CUDA kernels of $t (a C++ spin loop)"
  else
    bad "the CUDA kernels of $t (exit status $status)"; cat "$tmp/err"
  fi
done
# the host backend bounds a C++ loop by --spin-limit: instances cut, none
# forbidden, the model's verdict (the lock always terminates)
"$lr" --backend host -n 10 -i 500 -s 7 --spin-limit 1 litmus/cuda-cpp/CAS-lock.litmus >"$tmp/out" 2>/dev/null
status=$?
if [ "$status" = 0 ] && grep -q '^Cut CAS-lock [1-9][0-9]* (instances stopped at --spin-limit 1 or after --watchdog 1 s; not in the histogram)$' "$tmp/out" &&
   grep -q '^Model CAS-lock CUDA C++: 1 allowed, 1 observed, 0 forbidden observed$' "$tmp/out" &&
   grep -q '^Termination CAS-lock terminates$' "$tmp/out"; then
  ok "the host backend cuts the C++ lock's spins at --spin-limit 1"
else
  bad "the host backend and --spin-limit 1 on the C++ lock (exit status $status)"; cat "$tmp/out"
fi
finish cpp-run
