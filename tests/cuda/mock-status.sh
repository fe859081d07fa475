#!/bin/sh
# mock-status.sh - litmus-run's exit status and messages on every way a
# GPU run can end, against the stand-in libcuda.so.1 (tests/cuda/mock,
# which MOCK_CUDA_* set up as a machine without a device, with an old GPU,
# or with a driver call that fails) and the real NVRTC:
#   0 the run went through; 1 a forbidden outcome observed;
#   2 the test or the parameters cannot run here (with the hint at --backend host);
#   3 the driver failed.
# The whole output (stdout and stderr) is compared with mock-status/NAME.expected.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
require_nvrtc
source_models
make_tmp
cd "$top_srcdir" || exit 99
d=tests/cuda/mock-status
LD_LIBRARY_PATH="$abs_top_builddir/tests/cuda/mock${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
# what changes from run to run (the seed, the clock) or with the toolkit
filter() { grep -v -e '^Instances ' -e '^Seed ' -e '^Time ' -e '^Machine '; }

mock() {   # NAME STATUS ENV... -- ARGS...: litmus-run ARGS with ENV
  _name=$1 _status=$2
  shift 2
  _env=
  while [ "$1" != -- ]; do _env="$_env $1"; shift; done
  shift
  # shellcheck disable=SC2086  # ENV is words
  check_run "$_name" "$_status" "$d/$_name.expected" env $_env "$lr" -n 1 -s 1 "$@"
}

mock ok 0 -- litmus/MP.litmus
mock forbidden 1 -- litmus/SB+fence.sc-gpu.litmus
mock no-device 2 MOCK_CUDA_NO_DEVICE=1 -- litmus/MP.litmus
mock device-index 2 -- -d 3 litmus/MP.litmus
mock old-gpu 2 MOCK_CUDA_SM=70 -- litmus/MP.litmus
mock cluster-on-sm80 2 MOCK_CUDA_SM=80 -- litmus/MP+rel-acq-cluster.litmus
mock threads-per-cta 2 -- --threads-per-cta 48 litmus/MP.litmus
mock shared-too-big 2 -- --threads-per-cta 1024 --stride 16 "$d/shared.litmus"
mock unsupported 2 -- "$d/surface.litmus"
mock emit-unsupported 2 -- --emit-cuda "$d/surface.litmus"
mock host-unsupported 2 -- --backend host "$d/surface.litmus"
mock init-fails 2 MOCK_CUDA_FAIL=cuInit -- litmus/MP.litmus
mock count-fails 3 MOCK_CUDA_FAIL=cuDeviceGetCount -- litmus/MP.litmus
mock load-fails 3 MOCK_CUDA_FAIL=cuModuleLoadData -- litmus/MP.litmus
mock meminfo-fails 3 MOCK_CUDA_FAIL=cuMemGetInfo_v2 -- litmus/MP.litmus
mock sync-fails 3 MOCK_CUDA_FAIL=cuCtxSynchronize -- litmus/MP.litmus
mock download-fails 3 MOCK_CUDA_FAIL=cuMemcpyDtoH_v2 -- litmus/MP.litmus
# the worst status of the files wins; every file still runs
mock unsupported-then-ok 2 -- "$d/surface.litmus" litmus/MP.litmus
mock failed-then-unsupported 3 MOCK_CUDA_FAIL=cuCtxSynchronize -- litmus/MP.litmus "$d/surface.litmus"
finish mock-status
