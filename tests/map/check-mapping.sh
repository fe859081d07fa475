#!/bin/sh
# check-mapping.sh - litmus-check --lower and --check-mapping, whole
# outputs (stdout and stderr) against tests/map/expected/NAME.expected:
# every broken table refuted by its minimal counterexample, the shipped
# tables' verdicts on the classic C++ tests under each C++ variant, the
# lowering of a few tests (which must read back as PTX), the errors, and
# --json.
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/../e2e/lib.sh"
cd "$top_srcdir" || exit 99
make_tmp
exp=tests/map/expected
cpp=tests/map/cpp
# run NAME WANT-STATUS ARGS...: stdout+stderr against $exp/NAME.expected
# the mappings folder the error names, wherever the tree is
srcdir_real=$(cd "$top_srcdir" && pwd -P)
filter() { sed "s|$srcdir_real/|SRCDIR/|g"; }
run() {
  name=$1 want=$2
  shift 2
  check_run "$name" "$want" "$exp/$name.expected" "$lc" "$@"
}

# Each broken table and the smallest test that refutes it (no-thin-air
# off, so that only the broken row can be at fault).
ntaoff="--set no-thin-air=off"
run broken-sc-load-no-fence 1 --check-mapping mappings/broken/sc-load-no-fence.map $ntaoff $cpp/SB+sc.litmus
run broken-release-store-relaxed 1 --check-mapping mappings/broken/release-store-relaxed.map $ntaoff $cpp/MP+rel+acq.litmus
run broken-acq-rel-rmw-acquire 1 --check-mapping mappings/broken/acq-rel-rmw-acquire.map $ntaoff $cpp/MP+rmw-acq_rel+acq.litmus
run broken-acquire-load-relaxed 1 --check-mapping mappings/broken/acquire-load-relaxed.map $ntaoff $cpp/MP+rel+acq.litmus
run broken-sc-fence-acq-rel 1 --check-mapping mappings/broken/sc-fence-acq-rel.map $ntaoff $cpp/SB+rlx+fence-sc.litmus
run broken-device-scope-as-cta 1 --check-mapping mappings/broken/device-scope-as-cta.map $ntaoff $cpp/MP+rel+acq.litmus

# The shipped tables on the classic tests: RC11 (no-thin-air on: LB+rlx
# refutes every table), RC11 without no-thin-air, C++20 release sequences.
# Both readings of the NVVM text lose SB+sc (a seq_cst load with no fence
# before it), whatever the C++ variant.
for t in ptx-abi ptx-abi-cuda12 asplos19 nvvm nvvm-gated; do
  case $t in nvvm*) w=1 ;; *) w=0 ;; esac
  run classic-$t-rc11 1 --check-mapping $t $cpp/*.litmus
  run classic-$t-rc11-nta-off $w --check-mapping $t $ntaoff $cpp/*.litmus
  run classic-$t-c20 $w --check-mapping $t $ntaoff --set release-sequence=c20 $cpp/*.litmus
done
# ASPLOS'19 Fig. 12 (tests/map/fig12/): the current ABI's seq_cst RMW
# (fence.sc; atom.acquire) and its acq_rel alternative without an
# atom.release lose RC11's release sequence through the RMW's thread;
# sound under C++20's release sequences, where the guarded tests race.
fig12=tests/map/fig12/*.litmus
# shellcheck disable=SC2086
run fig12-ptx-abi-rc11 1 --check-mapping ptx-abi $fig12
# shellcheck disable=SC2086
run fig12-ptx-abi-c20 0 --check-mapping ptx-abi --set release-sequence=c20 $fig12
for t in ptx-abi-cuda12 asplos19 nvvm nvvm-gated; do
  # shellcheck disable=SC2086
  run fig12-$t-rc11 0 --check-mapping $t $fig12
done
# The CUDA API (volatile, atomicAdd and friends, __threadfence, cuda::atomic
# members) through each shipped table: the volatile rows exercised.
cuda_api="litmus/cuda-cpp/MP+volatile.litmus litmus/cuda-cpp/MP+volatile+threadfence.litmus
  litmus/cuda-cpp/MP+atomicExch+threadfence.litmus litmus/cuda-cpp/atomicInc-wrap.litmus
  litmus/cuda-cpp/MP+cuda-atomic+members.litmus litmus/cuda-cpp/SB+cuda-std-atomic+defaults.litmus"
# (nvvm's prose reading of seq_cst breaks SB, as in the classic tests above)
for t in ptx-abi asplos19 nvvm; do
  case $t in nvvm*) w=1 ;; *) w=0 ;; esac
  # shellcheck disable=SC2086
  run cuda-api-$t $w --check-mapping $t $ntaoff $cuda_api
done
run lower-volatile 0 --lower ptx-abi litmus/cuda-cpp/MP+volatile+threadfence.litmus
run classic-ptx-abi-json 0 --check-mapping ptx-abi $ntaoff --json $cpp/SB+sc.litmus $cpp/MP+block-flag+diff-cta.litmus
run json-violation 1 --check-mapping mappings/broken/sc-load-no-fence.map $ntaoff --json $cpp/SB+sc.litmus
run pruned 0 --check-mapping ptx-abi $ntaoff --max-combinations 4 $cpp/IRIW+sc.litmus

# Lowering: whole output, and it reads back as PTX (comments dropped).
lower() {
  name=$1
  shift
  run "$name" 0 "$@"
  sed 's/ (\* C++ line.*\*)$//' "$exp/$name.expected" >"$tmp/plain.litmus"
  if "$lc" --print "$tmp/plain.litmus" >"$tmp/printed" 2>&1 && compare_whole "$tmp/plain.litmus" "$tmp/printed" keep; then
    ok "$name: the lowered test reads back as the same PTX test"
  else
    bad "$name: the lowered test does not read back as the same PTX test"
  fi
}
lower lower-ptx-abi-MP --lower ptx-abi $cpp/MP+rel+acq.litmus
lower lower-ptx-abi-SB-rmw --lower ptx-abi $cpp/SB+rmw-sc.litmus
lower lower-asplos19-CAS --lower asplos19 $cpp/CAS+acq.litmus
lower lower-nvvm-cluster-sm80 --lower nvvm --sm 80 $cpp/MP+cluster.litmus
lower lower-nvvm-cluster-sm90 --lower nvvm --sm 90 $cpp/MP+cluster.litmus

# Errors: a table invalid for the target, a table without a scope row.
run error-cluster-sm80 2 --lower tests/map/tables/cluster-sm80.map --sm 80 $cpp/MP+cluster.litmus
run error-no-scope 2 --lower ptx-abi --sm 80 $cpp/MP+cluster.litmus
run error-not-cpp 2 --check-mapping ptx-abi litmus/MP.litmus
# a table name that is not one: the tables there are, and the compilers
run error-no-table 2 --check-mapping no-such-table $cpp/SB+sc.litmus
run error-no-table-lower 2 --lower nvvvm $cpp/SB+sc.litmus

# --json: --lower's test as one object, and an object for each test in
# error (a PTX test, a table invalid for it) beside the others.
run lower-json 0 --lower ptx-abi --json $cpp/MP+rel+acq.litmus
run json-errors 2 --check-mapping ptx-abi $ntaoff --json $cpp/SB+sc.litmus litmus/MP.litmus no-such.litmus
run lower-json-error 2 --lower ptx-abi --sm 80 --json $cpp/MP+cluster.litmus
finish check-mapping
