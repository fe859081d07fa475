#!/bin/sh
# run-host.sh - litmus-run --backend host end to end on this machine:
#   SB without fences shows its weak outcome (store buffering, which x86
#     and every other multicore CPU does) within a second or so;
#   MP with release/acquire never shows its forbidden outcome;
#   SB under the SC model: the weak outcome is forbidden there, so the
#     run reports it (headline, '!' mark, a sample) and exits 1;
#   --json -o writes one JSON object per test to the file.
set -u
. "$(dirname "$0")/lib.sh"
source_models
run=$lr
make_tmp
cd "$top_srcdir" || exit 99

# SB: the weak outcome P0:r0=0; P1:r1=0; is the one marked '*'.
"$run" --backend host --time 1.5 litmus/SB.litmus > "$tmp/sb" 2> "$tmp/sb.err"
rc=$?
weak=$(sed -n 's/^\([0-9][0-9]*\) *\*>P0:r0=0; P1:r1=0;$/\1/p' "$tmp/sb")
if [ $rc -eq 0 ] && [ -n "$weak" ] && [ "$weak" -gt 0 ]; then
  ok "SB shows its weak outcome ($weak times; $(grep '^Instances' "$tmp/sb"))"
else
  cat "$tmp/sb" "$tmp/sb.err"; bad "SB: exit $rc, weak outcome not seen"
fi
grep -q '^Condition exists (P0:r0 == 0 /\\ P1:r1 == 0) is validated$' "$tmp/sb" || bad "SB: condition line"
grep -q '^Seed SB 0x[0-9a-f]\{16\}$' "$tmp/sb" || bad "SB: seed line"

# MP with release/acquire: nothing forbidden.
"$run" --backend host --time 1 litmus/MP+rel-acq-gpu.litmus > "$tmp/mp" 2> "$tmp/mp.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^Model MP+rel-acq-gpu PTX v7.5: 3 allowed, [0-9]* observed, 0 forbidden observed$' "$tmp/mp" &&
   ! grep -q '^!!!' "$tmp/mp" && grep -q '^Observation MP+rel-acq-gpu Never 0 ' "$tmp/mp"; then
  ok "MP+rel-acq-gpu shows no forbidden outcome ($(grep '^Instances' "$tmp/mp"))"
else
  cat "$tmp/mp" "$tmp/mp.err"; bad "MP+rel-acq-gpu: exit $rc"
fi

# SB against SC: a forbidden outcome observed, exit 1.
"$run" --backend host --time 1.5 --model sc --max-forbidden 2 litmus/SB.litmus > "$tmp/sc" 2> "$tmp/sc.err"
rc=$?
if [ $rc -eq 1 ] && grep -q '^!!! SB: the CPU showed 1 outcome that SC forbids (' "$tmp/sc" &&
   grep -q '^!!! sample: iteration [0-9]*, instance [0-9]*: P0:r0=0; P1:r1=0; (P0 cpu [0-9]*, P1 cpu [0-9]*)$' "$tmp/sc" &&
   grep -q '^[0-9][0-9]* *!\*>P0:r0=0; P1:r1=0;$' "$tmp/sc"; then
  ok "SB under SC: forbidden outcome reported, exit 1"
else
  cat "$tmp/sc" "$tmp/sc.err"; bad "SB under SC: exit $rc"
fi

# --json -o: the file holds one object per test, written atomically.
"$run" --backend host -n 2 -i 100 --json -o "$tmp/out.json" litmus/SB.litmus litmus/MP.litmus > "$tmp/json.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/json.out" ] && [ "$(wc -l < "$tmp/out.json")" -eq 2 ] &&
   grep -q '^{"test":"SB",.*"histogram":\[' "$tmp/out.json" && grep -q '"seed":"0x' "$tmp/out.json" &&
   [ "$(ls "$tmp" | grep -c 'out.json')" -eq 1 ]; then
  ok "--json -o"
else
  cat "$tmp/json.out"; bad "--json -o: exit $rc"
fi

# The same seed gives the same choices (which CPU, which copies): the
# seed is printed and accepted back.
"$run" --backend host -n 1 -i 10 --seed 0x2a litmus/MP.litmus | grep -q '^Seed MP 0x000000000000002a$' ||
  bad "--seed is printed back"
finish run-host
