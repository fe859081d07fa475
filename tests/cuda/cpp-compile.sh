#!/bin/sh
# cpp-compile.sh - the kernels of the C++ tests (litmus/cuda-cpp), whose
# accesses are cuda::atomic_ref calls, through nvcc for sm_75 and sm_90;
# the tests with loops are refused (whole stderr).  Skips without nvcc.
# CPP_COMPILE_KEEP=FILE keeps the translation unit.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
lr=$(cd "$top_builddir" && pwd)/src/litmus-run
cd "$top_srcdir" || exit 99
if [ -n "${NVCC:-}" ] && [ -x "${NVCC:-}" ]; then :;
elif [ -x "${CUDA_DIR:-/usr/local/cuda}/bin/nvcc" ]; then NVCC=${CUDA_DIR:-/usr/local/cuda}/bin/nvcc
else echo "SKIP: no nvcc (set NVCC or CUDA_DIR)"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
refused=litmus/cuda-cpp/CAS-lock.litmus
# one translation unit (nvcc's start-up and libcu++ cost more than a test),
# each test's kernels renamed, the first rotation of each test kernel only
echo "#define CU_FIRST_ROTATION_ONLY" >"$tmp/all.cu"
for t in litmus/cuda-cpp/*.litmus; do
  [ "$t" = "$refused" ] && continue
  if ! "$lr" --emit-cuda "$t" >"$tmp/t.cu" 2>"$tmp/err"; then
    echo "FAIL: $t refused:"; cat "$tmp/err"; fail=$((fail + 1)); continue
  fi
  n=$((n + 1))
  printf '#undef CU_KNAME\n#define CU_KNAME(name) t%d_##name\n' "$n" >>"$tmp/all.cu"
  cat "$tmp/t.cu" >>"$tmp/all.cu"
done
if ! (cd "$tmp" && "$NVCC" -std=c++17 -c -gencode arch=compute_75,code=sm_75 \
        -gencode arch=compute_90,code=sm_90 -o all.o all.cu) >"$tmp/log" 2>&1; then
  echo "FAIL: the C++ tests' kernels do not compile:"; head -40 "$tmp/log"; fail=$((fail + 1))
fi
"$lr" --emit-cuda "$refused" >/dev/null 2>"$tmp/err"
status=$?
cat >"$tmp/want" <<'END'
litmus/cuda-cpp/CAS-lock.litmus:14:5: error: P0: 'goto L0' cannot run on the GPU: C++ tests with loops do not run on the CUDA backend yet
END
if [ "$status" != 2 ] || ! diff -u "$tmp/want" "$tmp/err"; then
  echo "FAIL: the refusal of $refused (exit status $status)"; fail=$((fail + 1))
fi
[ -n "${CPP_COMPILE_KEEP:-}" ] && cp "$tmp/all.cu" "$CPP_COMPILE_KEEP"
echo "cpp-compile: $n tests compiled for sm_75 and sm_90, $fail failures"
[ "$fail" -eq 0 ]
