#!/bin/sh
# herd-tools.sh - `--format herd` output as herdtools7's log tools read it.
#   Always: SB and MP (tests/e2e/herd-cli) under the default C++ model
#   (RC11 at system scope for a C test), in herd's format, against
#   herd-tools/ours.expected; every line of that output has the form
#   herd7 writes (Test, States and N:reg=v; state lines, Ok/No,
#   Witnesses, Positive/Negative, Flag, Condition, Observation, Time,
#   Hash=32 hex digits); a failed undefined_unless printed as herd7
#   prints it (Undef, Flag *undef*; herd-tools/flags.cat and
#   flags.expected, herd7's output); and each test's Hash equals the one herd7
#   (herdtools7 61e77ef, -model rc11.cat) wrote in herd-tools/herd7.log.
#   With mcompare7 and msum7 (MCOMPARE7/MSUM7, else on PATH, else
#   /work/tools/bin; skipped without them): mcompare7 puts our log beside
#   herd7's with every state set equal (herd-tools/mcompare.expected),
#   and shows SB's difference when ours is checked under SC; msum7 sums
#   both logs into one (herd-tools/msum.expected).
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/herd-tools"
tests="$top_srcdir/tests/e2e/herd-cli"
make_tmp

(cd "$tests" && "$lc" --format herd SB.litmus MP.litmus) 2>&1 | sed 's/^Time \([^ ]*\) .*/Time \1 T/' >"$tmp/ours"
check_whole "$dir/ours.expected" "$tmp/ours" "SB and MP in herd's format"

# the form of every line, as herd7 writes it
bad_lines=$(awk '
  /^Test [^ ]+ (Allowed|Forbidden|Required)$/ { st = 0; next }
  /^States [0-9]+$/ { st = $2; next }
  st > 0 { st--; if ($0 !~ /^(([0-9]+:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_.]*(\[[0-9]+\])?)=[^; ]+; )*([0-9]+:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_.]*(\[[0-9]+\])?)=[^; ]+;$/) print; next }
  /^(Ok|No|Undef)$/ || /^Witnesses$/ || /^Positive: [0-9]+ Negative: [0-9]+$/ || /^Flag / || /^Condition / { next }
  /^Observation [^ ]+ (Always|Sometimes|Never) [0-9]+ [0-9]+$/ || /^Time [^ ]+ / || (/^Hash=[0-9a-f]+$/ && length($0) == 37) || /^$/ { next }
  { print }' "$tmp/ours")
if [ -z "$bad_lines" ]; then ok "every line has herd7's form"; else bad "lines herd7 does not write: $bad_lines"; fi

# herd counts the witnesses of the test's condition: for ~exists p those
# of ~p (herd7 61e77ef -model rc11.cat on SB-forbidden: Positive: 3
# Negative: 0), while its Observation line counts p's (Never 0 3)
(cd "$dir" && "$lc" --format herd SB-forbidden.litmus) >"$tmp/forb" 2>&1
if grep -qx 'Positive: 3 Negative: 0' "$tmp/forb" && grep -qx 'Observation SB-forbidden Never 0 3' "$tmp/forb"; then
  ok "~exists: herd's witness counts"
else bad "~exists: $(grep -E '^(Positive|Observation)' "$tmp/forb" | tr '\n' ' ')"; fi

# a failed undefined_unless is herd's `Flag *undef*`, once, and its
# verdict line Undef; a flag statement is named (herd7 61e77ef's output
# on SB under flags.cat: herd-tools/flags.expected)
(cd "$tests" && "$lc" --format herd --model "$dir/flags.cat" SB.litmus) 2>&1 | sed 's/^Time \([^ ]*\) .*/Time \1 T/' >"$tmp/flags"
check_whole "$dir/flags.expected" "$tmp/flags" "flags and Undef as herd7 prints them"

grep '^Hash=' "$dir/herd7.log" >"$tmp/herd-hashes"
grep '^Hash=' "$tmp/ours" >"$tmp/our-hashes"
if cmp -s "$tmp/herd-hashes" "$tmp/our-hashes"; then ok "hashes are herd7's"; else bad "hashes differ from herd7's: $(cat "$tmp/our-hashes")"; fi

find_tool() {   # VAR NAME
  eval "_t=\${$1:-}"
  [ -n "$_t" ] || _t=$(command -v "$2" 2>/dev/null || true)
  [ -n "$_t" ] || { [ -x "/work/tools/bin/$2" ] && _t=/work/tools/bin/$2; }
  echo "$_t"
}
mcompare=$(find_tool MCOMPARE7 mcompare7)
msum=$(find_tool MSUM7 msum7)
if [ -z "$mcompare" ] || [ -z "$msum" ]; then
  echo "SKIP: mcompare7 or msum7 not found (set MCOMPARE7 and MSUM7)"
  finish herd-tools
fi
(cd "$tests" && "$lc" --format herd SB.litmus MP.litmus) >"$tmp/ours.log" 2>&1
cp "$dir/herd7.log" "$tmp/herd7.log"
(cd "$tmp" && "$mcompare" ours.log herd7.log) >"$tmp/out" 2>&1
echo "exit $?" >>"$tmp/out"
check_whole "$dir/mcompare.expected" "$tmp/out" "mcompare7 reads our log beside herd7's: same states"
(cd "$tests" && "$lc" --format herd --model sc SB.litmus MP.litmus) >"$tmp/sc.log" 2>&1
(cd "$tmp" && "$mcompare" sc.log herd7.log) >"$tmp/out" 2>&1
if grep -q '^SB|' "$tmp/out" && grep -q 'Warning positive differences in:.* +SB' "$tmp/out"; then
  ok "mcompare7 shows the outcomes SC forbids"
else
  bad "mcompare7 does not show SB's difference under SC: $(cat "$tmp/out")"
fi
(cd "$tmp" && "$msum" ours.log herd7.log) 2>&1 | sed 's/^Time \([^ ]*\) .*/Time \1 T/' >"$tmp/out"
check_whole "$dir/msum.expected" "$tmp/out" "msum7 sums our log and herd7's"
# a PTX test, which herd7 does not read, gets a hash all the same (the
# MD5 of its text): msum7 refuses a log with a test without one
"$lc" --format herd "$top_srcdir/litmus/MP.litmus" "$top_srcdir/litmus/SB.litmus" >"$tmp/ptx.log" 2>&1
if [ "$(grep -c '^Hash=[0-9a-f]\{32\}$' "$tmp/ptx.log")" = 2 ]; then ok "PTX tests have a Hash line"; else bad "PTX hashes: $(cat "$tmp/ptx.log")"; fi
(cd "$tmp" && "$msum" ptx.log ptx.log) >"$tmp/out" 2>&1
if grep -q '^Test MP ' "$tmp/out" && ! grep -q 'Hash missing\|Fatal' "$tmp/out"; then
  ok "msum7 reads PTX tests' herd-format log"
else
  bad "msum7 on PTX tests: $(cat "$tmp/out")"
fi
finish herd-tools
