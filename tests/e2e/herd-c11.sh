#!/bin/sh
# herd-c11.sh - herd's C11 dialect and herd's cat, with no herd needed:
#   tests/e2e/herd-c11/herd-style.cat   RC11 written with herd's constructs
#       (include, if "variant", with co from generate_cos, let ... in,
#       procedure/call, unnamed checks, show, undefined_unless, a skipped
#       functional definition); its checks against herd-style.checks;
#   tests/e2e/herd-c11/NAME.litmus      C tests with herd's forms (no
#       condition, [x], locations, filter, regions, __int128, CAS with a
#       location as expected value), whole output under herd-style.cat with
#       both engines against NAME.expected, and the same states and race
#       flag as cuda-cpp; a test that does not read against
#       NAME.expected-err.
# With herd7 and a herdtools7 checkout (HERD7, HERDTOOLS7), herd's own
# rc11.cat must give the same as herd-style.cat; otherwise a line says so.
# PROMOTE=1 rewrites the expected files from the SMT engine's output.
set -u
. "$(dirname "$0")/lib.sh"
source_models
dir="$top_srcdir/tests/e2e/herd-c11"
make_tmp

"$abs_top_builddir/tests/cat-load-check" "$dir/herd-style.cat" >"$tmp/out" 2>&1
check_whole "$dir/herd-style.checks" "$tmp/out" "herd-style.cat loads"

# the states and the race flag of an output, sorted
summary() {
  awk '/^States [0-9]+$/ { n = $2; next } n > 0 { print; n--; next } /^Flag / { print "race" }' "$1" | sort
}

ht=${HERDTOOLS7:-/work/tools/herdtools7}
rc11=$ht/herd/libdir/rc11.cat
[ -f "$rc11" ] || echo "herd-c11: no herdtools7 checkout at $ht: herd's rc11.cat not compared"

for t in "$dir"/*.litmus; do
  name=$(basename "$t" .litmus)
  if [ -f "$dir/$name.expected-err" ]; then
    (cd "$dir" && "$lc" --model herd-style.cat "$name.litmus") >"$tmp/out" 2>&1
    check_whole "$dir/$name.expected-err" "$tmp/out" "$name does not read"
    continue
  fi
  for engine in smt enum; do
    (cd "$dir" && "$lc" --model herd-style.cat --engine $engine "$name.litmus" 2>&1) | grep -v '^Time ' >"$tmp/out"
    if [ $engine = smt ]; then check_whole "$dir/$name.expected" "$tmp/out" "$name ($engine)"
    else check_whole "$dir/$name.expected" "$tmp/out" "$name ($engine)" keep; fi
  done
  summary "$tmp/out" >"$tmp/herd"
  (cd "$dir" && "$lc" "$name.litmus" 2>&1) >"$tmp/cpp"
  summary "$tmp/cpp" >"$tmp/cs"
  if cmp -s "$tmp/herd" "$tmp/cs"; then ok "$name: cuda-cpp gives the same"; else bad "$name: cuda-cpp differs"; diff "$tmp/herd" "$tmp/cs"; fi
  if [ -f "$rc11" ]; then
    (cd "$dir" && "$lc" --model "$rc11" "$name.litmus" 2>&1) >"$tmp/rc11"
    summary "$tmp/rc11" >"$tmp/rs"
    if cmp -s "$tmp/herd" "$tmp/rs"; then ok "$name: herd's rc11.cat gives the same"; else bad "$name: herd's rc11.cat differs"; diff "$tmp/herd" "$tmp/rs"; fi
  fi
done

# a raised undefined_unless flag is a race in JSON, as cuda-cpp's undefined-behaviour
for engine in smt enum; do
  if (cd "$dir" && "$lc" --json --engine $engine --model herd-style.cat RMW+race.litmus) | grep -q '"race":true'; then
    ok "RMW+race --json: race ($engine)"
  else
    bad "RMW+race --json: no race ($engine)"
  fi
done

for t in "$dir"/*.litmus; do
  [ -f "${t%.litmus}.expected-err" ] || round_trips "$t"
done
finish herd-c11
