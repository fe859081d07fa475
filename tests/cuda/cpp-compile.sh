#!/bin/sh
# cpp-compile.sh - the kernels of the C++ tests (litmus/cuda-cpp), whose
# accesses are written as the tests write them (cuda::atomic_ref calls,
# cuda::atomic members, atomicAdd and friends, __threadfence, volatile),
# through nvcc for sm_75 and sm_90; the tests with loops are refused (one
# of them with its whole stderr).  Skips without nvcc.
# CPP_COMPILE_KEEP=FILE keeps the translation unit.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
cd "$top_srcdir" || exit 99
require_nvcc
make_tmp
n=0
refused=litmus/cuda-cpp/CAS-lock.litmus
# one translation unit (nvcc's start-up and libcu++ cost more than a test),
# each test's kernels renamed, the first rotation of each test kernel only
echo "#define CU_FIRST_ROTATION_ONLY" >"$tmp/all.cu"
for t in litmus/cuda-cpp/*.litmus; do
  [ "$t" = "$refused" ] && continue
  if ! "$lr" --emit-cuda "$t" >"$tmp/t.cu" 2>"$tmp/err"; then
    grep -q 'C++ tests with loops do not run on the CUDA backend yet$' "$tmp/err" && continue
    bad "$t refused:"; cat "$tmp/err"; continue
  fi
  n=$((n + 1))
  printf '#undef CU_KNAME\n#define CU_KNAME(name) t%d_##name\n' "$n" >>"$tmp/all.cu"
  cat "$tmp/t.cu" >>"$tmp/all.cu"
done
if ! (cd "$tmp" && "$NVCC" -std=c++17 -c -gencode arch=compute_75,code=sm_75 \
        -gencode arch=compute_90,code=sm_90 -o all.o all.cu) >"$tmp/log" 2>&1; then
  bad "the C++ tests' kernels do not compile:"; head -40 "$tmp/log"
fi
"$lr" --emit-cuda "$refused" >/dev/null 2>"$tmp/err"
status=$?
cat >"$tmp/want" <<'END'
litmus/cuda-cpp/CAS-lock.litmus:14:5: error: P0: 'goto L0' cannot run on the GPU: C++ tests with loops do not run on the CUDA backend yet
END
if [ "$status" = 2 ] && compare_whole "$tmp/want" "$tmp/err" keep; then
  ok "the refusal of $refused"
else
  bad "the refusal of $refused (exit status $status)"
fi
[ -n "${CPP_COMPILE_KEEP:-}" ] && cp "$tmp/all.cu" "$CPP_COMPILE_KEEP"
echo "cpp-compile: $n tests compiled for sm_75 and sm_90"
finish cpp-compile
