#!/bin/sh
# slurm-campaign.sh - scripts/slurm-campaign as a real Slurm job array on
# this machine: starts munged, slurmctld and slurmd of its own (private
# key, ports, spool and state folders), submits a 3-task array running a
# campaign on the host backend, merges the shards with litmus-compare
# --merge and compares them with one unsharded run (same seed).  Skipped
# when Slurm (Debian slurm-wlm) or munge is not installed, or not as root.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/slurm-lib.sh"
run=$lr compare=$lcmp
script=$abs_top_srcdir/scripts/slurm-campaign
lit=$abs_top_srcdir/litmus
grid='stress-iterations=0,64;barrier=on,off'
tests="$lit/MP.litmus $lit/SB.litmus $lit/CoRR.litmus"
cd "$tmp" || exit 1
LITMUS_RUN="$run" sbatch --wait --array=0-2 --chdir="$tmp" -o "$tmp/task-%a.log" "$script" "$tmp/c" \
  -q -b host -n 2 -i 200 -s 11 --grid "$grid" $tests >"$tmp/sbatch.log" 2>&1 || fail "sbatch --wait: $(cat "$tmp/sbatch.log")"
for i in 0 1 2; do
  [ -f "$tmp/c.shard-$i.jsonl" ] || fail "task $i wrote no shard"
done
"$compare" --merge "$tmp/merged.jsonl" "$tmp"/c.shard-*.jsonl || fail "merge"
"$run" -q -b host -n 2 -i 200 -s 11 --campaign "$tmp/all.jsonl" --grid "$grid" $tests 2>/dev/null || fail "unsharded run"
runs() { jq -s -c '[.[] | select(.run != null) | {run, test, point, seed, params: .result.params,
  instances: .result.instances, iterations: .result.iterations}] | sort_by(.run) | .[]' "$1"; }
runs "$tmp/all.jsonl" >"$tmp/all.runs"
runs "$tmp/merged.jsonl" >"$tmp/merged.runs"
[ "$(wc -l <"$tmp/all.runs")" -eq 12 ] || fail "unsharded: not 12 runs"
cmp -s "$tmp/all.runs" "$tmp/merged.runs" || fail "the job array's merged shards differ from the unsharded run"
echo "slurm-campaign: a 3-task job array on a private Slurm; merged shards = unsharded run (12 runs)"
