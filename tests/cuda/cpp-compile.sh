#!/bin/sh
# cpp-compile.sh - the kernels of the C++ tests (litmus/cuda-cpp), whose
# accesses are written as the tests write them (cuda::atomic_ref calls,
# cuda::atomic members, atomicAdd and friends, __threadfence, volatile),
# through nvcc for sm_75 and sm_90, the spin loops (CAS-lock,
# spinlock+atomicCAS, MP+cuda-api) included.  Skips without nvcc.
# CPP_COMPILE_KEEP=FILE keeps the translation unit.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
cd "$top_srcdir" || exit 99
require_nvcc
make_tmp
n=0
# one translation unit (nvcc's start-up and libcu++ cost more than a test),
# each test's kernels renamed, the first rotation of each test kernel only
echo "#define CU_FIRST_ROTATION_ONLY" >"$tmp/all.cu"
for t in litmus/cuda-cpp/*.litmus tests/e2e/cpp/MP+wait+notify.litmus tests/e2e/cpp/continue.litmus; do
  if ! "$lr" --emit-cuda "$t" >"$tmp/t.cu" 2>"$tmp/err"; then
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
[ "$n" = "$(($(ls litmus/cuda-cpp/*.litmus | wc -l) + 2))" ] || bad "only $n C++ tests emitted"
[ -n "${CPP_COMPILE_KEEP:-}" ] && cp "$tmp/all.cu" "$CPP_COMPILE_KEEP"
echo "cpp-compile: $n tests compiled for sm_75 and sm_90"
finish cpp-compile
