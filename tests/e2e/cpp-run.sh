#!/bin/sh
# cpp-run.sh - C++ tests on the host backend (C11 atomics, every scope
# widened to system): each litmus/cuda-cpp test runs and shows no outcome
# that cuda-cpp forbids; the CUDA backend refuses a C++ test with its
# message (whole stderr) and exit status 2.
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
"$lr" litmus/cuda-cpp/SB+rlx.litmus >"$tmp/out" 2>"$tmp/err"
status=$?
cat >"$tmp/want" <<'END'
litmus/cuda-cpp/SB+rlx.litmus:1:6: error: SB+rlx is a C++ test: the CUDA backend runs PTX tests only (C++ is not yet compiled to PTX); run it with --backend host
END
if [ "$status" != 2 ] || ! diff -u "$tmp/want" "$tmp/err"; then
  echo "FAIL: the CUDA backend's refusal of a C++ test (exit status $status)"; fail=$((fail + 1))
fi
echo "cpp-run: $fail failures"
[ "$fail" -eq 0 ]
