#!/bin/sh
# slurm-exhaustive.sh - scripts/slurm-exhaustive as a real Slurm job array
# on this machine (a private Slurm, slurm-lib.sh): a 4-task array checks
# the programs of a small bound of --check-mapping ptx-abi --exhaustive,
# the merge reports them, and its verdicts, rows and minimal
# counterexamples are those of one unsharded run byte for byte (the
# summary's times apart).  Skipped when Slurm (Debian slurm-wlm) or munge
# is not installed, or not as root.  SLURM_EXHAUSTIVE_BOUND=SPEC runs
# another bound (the default bound, 191,291 programs: some minutes).
. "$(dirname "$0")/lib.sh"
source_models
. "$(dirname "$0")/slurm-lib.sh"
script=$abs_top_srcdir/scripts/slurm-exhaustive
bound=${SLURM_EXHAUSTIVE_BOUND:-threads=2,strong=2,rmws=1}
cd "$tmp" || exit 1
LITMUS_CHECK="$lc" sbatch --wait --array=0-3 --chdir="$tmp" -o "$tmp/task-%a.log" "$script" "$tmp/x" \
  ptx-abi --bound "$bound" >"$tmp/sbatch.log" 2>&1 || fail "sbatch --wait: $(cat "$tmp/sbatch.log")"
for i in 0 1 2 3; do
  [ -f "$tmp/x.shard-$i.jsonl" ] || fail "task $i wrote no shard"
done
LITMUS_CHECK="$lc" "$script" --merge "$tmp/x" ptx-abi --bound "$bound" >"$tmp/merged.out" 2>"$tmp/merged.err"
merged_rc=$?
"$lc" --check-mapping ptx-abi --exhaustive --bound "$bound" >"$tmp/one.out" 2>/dev/null
one_rc=$?
[ "$merged_rc" = "$one_rc" ] || fail "the merge exits $merged_rc, one run $one_rc ($(cat "$tmp/merged.err"))"
drop_times() { sed -e 's/; [0-9.]* s, [0-9.]* CPU s, [0-9.]* programs\/s, -j [0-9]*/; TIME/' "$1"; }
drop_times "$tmp/one.out" >"$tmp/one"
drop_times "$tmp/merged.out" >"$tmp/merged"
compare_whole "$tmp/one" "$tmp/merged" keep || fail "the job array's merged shards differ from the unsharded run"
echo "slurm-exhaustive: a 4-task job array on a private Slurm; merge = unsharded run ($(grep -c '^Row ' "$tmp/one") rows with a counterexample, exit $one_rc)"
