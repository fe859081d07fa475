#!/bin/sh
# hopper-emit.sh - the kernels of the sm_90 tests (litmus/hopper:
# mbarriers, bulk copies, async proxy fences, cluster barriers, mapa;
# docs/hopper.md, "Running on the GPU"): each one is emitted, one of them
# is the stored source (tests/e2e/hopper-run), every one compiles for
# sm_90 with nvcc (ptxas) and with NVRTC with its PTX in program order
# (cu-ptx-check), and --check-sass finds every instruction in the SASS
# and refuses --sm 80 naming the first sm_90 instruction.  Each compiler
# or cuobjdump that is missing skips its part; the emission is always
# checked.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
cd "$top_srcdir" || exit 99
make_tmp
checked=0
# every test emits, and with nvcc all of them compile in one translation
# unit for sm_90, each with its kernels renamed
: >"$tmp/all.cu"
n=0
for t in litmus/hopper/*.litmus; do
  case $t in
  # a CTA barrier whose count is never met would stop the GPU for good (no
  # bounded wait exists for bar.sync), so these are refused, saying why
  */MP+bar.sync+wrong-count.litmus | */MP+bar.sync+different-ids.litmus)
    if ! "$lr" --emit-cuda "$t" >/dev/null 2>"$tmp/err" && grep -q "cannot run on the GPU: it waits for .* so it never completes" "$tmp/err"; then
      ok "$t is refused: a CTA barrier that never completes"
    else
      bad "$t: not refused as a barrier that never completes:"; cat "$tmp/err"
    fi
    continue ;;
  esac
  n=$((n + 1))
  if "$lr" --emit-cuda "$t" >"$tmp/t.cu" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    ok "$t emits"
  else
    bad "$t does not emit:"; cat "$tmp/err"; continue
  fi
  printf '#undef CU_KNAME\n#define CU_KNAME(name) t%d_##name\n' "$n" >>"$tmp/all.cu"
  cat "$tmp/t.cu" >>"$tmp/all.cu"
done
checked=$((checked + 1))
# the whole source of one: distributed shared memory and a cluster barrier
t=litmus/hopper/MP+dsmem+barrier.cluster.litmus
"$lr" --emit-cuda "$t" 2>&1 | sed '1s/litmus-check [^ ]*$/litmus-check VERSION/' >"$tmp/out.s"
check_whole tests/e2e/hopper-run/MP+dsmem+barrier.cluster.cu "$tmp/out.s" "the CUDA kernels of $t"
nvcc=${NVCC:-}
[ -n "$nvcc" ] && [ -x "$nvcc" ] || nvcc=${CUDA_DIR:-/usr/local/cuda}/bin/nvcc
if [ -x "$nvcc" ]; then
  checked=$((checked + 1))
  if (cd "$tmp" && "$nvcc" -arch=sm_90 -cubin -o all.cubin all.cu) >"$tmp/log" 2>&1; then
    ok "the $n kernels compile for sm_90 (nvcc, ptxas)"
  else
    bad "the kernels do not compile for sm_90:"; head -40 "$tmp/log"
  fi
else
  echo "no nvcc (set NVCC or CUDA_DIR): not compiled with ptxas"
fi
"$top_builddir/tests/cuda/cu-ptx-check" --arch none --ptxas none --nvrtc 90 --nvrtc-cubin 90 litmus/hopper \
  tests/cuda/gen/Hopper+*.litmus >"$tmp/ptx" 2>&1
rc=$?
case $rc in
  0) checked=$((checked + 1)); ok "NVRTC compiles them for sm_90, the PTX in program order" ;;
  77) echo "no NVRTC: cu-ptx-check skipped" ;;
  *) bad "cu-ptx-check:"; cat "$tmp/ptx" ;;
esac
"$lr" --check-sass --sm 90 litmus/hopper tests/cuda/gen/Hopper+*.litmus >"$tmp/sass" 2>&1
rc=$?
case $rc in
  0) checked=$((checked + 1)); ok "--check-sass finds every instruction in the SASS for sm_90"
     "$lr" --check-sass --sm 80 litmus/hopper/MP+mbarrier.litmus >"$tmp/sass80" 2>&1
     if grep -q "^error litmus/hopper/MP+mbarrier.litmus:13:2: error: P0: 'mbarrier.init.shared::cta.b64' needs sm_90; --sm asks for sm_80 at most$" "$tmp/sass80"; then
       ok "--check-sass --sm 80 refuses an sm_90 test naming the instruction"
     else
       bad "--check-sass --sm 80:"; cat "$tmp/sass80"
     fi ;;
  77) echo "no cuobjdump or NVRTC: the SASS check skipped" ;;
  *) bad "--check-sass --sm 90:"; cat "$tmp/sass" ;;
esac
[ "$checked" -gt 0 ] || skip "nothing could be checked"
finish hopper-emit
