#!/bin/sh
# herd-cli.sh - herd7's command line and output (docs: litmus-check(1),
# "herd7's options"), with no herd needed, from tests/e2e/herd-cli:
#   -model and --format herd on SB and MP given by an @index file, without
#   a variant (no check: every outcome) and with -variant strong
#   (sequential consistency: SB's and MP's weak outcomes forbidden), and
#   the same through -conf strong.cfg, and through -conf gen.cfg (its
#   model, not there, overridden by -model), and through herd.cfg (herd's own
#   lines: hexa, pictures, a nested conf) on the index @all; -I DIR for
#   the model; -skipcheck and -through invalid; the options that change
#   states and are not honoured refused (-bell, -restrict, ...); -o DIR -show
#   prop|neg writing DIR/TEST.dot.  Whole outputs (Time lines left out)
#   against NAME.expected.
# PROMOTE=1 rewrites the expected files.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/herd-cli"
make_tmp

run() {   # NAME ARGS...
  _name=$1
  shift
  (cd "$dir" && "$lc" "$@" 2>&1) | grep -v '^Time ' >"$tmp/out"
  check_whole "$dir/$_name.expected" "$tmp/out" "$_name: $*"
}
run plain -model variant.cat --format herd @tests.index
run variant -model variant.cat -variant strong --format herd @tests.index
run conf -conf strong.cfg -show prop -through none --format herd @tests.index
# a configuration's model overridden by -model after it: the last wins,
# and the overridden one (gen.cat, not there) is not looked up
run variant -conf gen.cfg -model variant.cat --format herd @tests.index
# herd's own configuration lines (hexa, pictures, a nested conf: -hexa
# once read as -h, the help), an index named as herd names them (@all),
# -q with herd's meaning beside --format herd (its default: no effect)
run herd-cfg -conf herd.cfg -q --format herd @all
# a model found as herd finds it, in an -I folder
(cd "$dir/.." && "$lc" -I herd-cli -model variant.cat -variant strong --format herd herd-cli/@all 2>&1) |
  grep -v '^Time ' >"$tmp/out"
check_whole "$dir/variant.expected" "$tmp/out" "-I DIR -model NAME.cat: the model in DIR"
# options that change the states and are not honoured are refused, exit 2
for o in "-strictskip true" "-cycles SC" "-bell x.bell" "-restrict observed" "-throughflag x"; do
  # shellcheck disable=SC2086
  (cd "$dir" && "$lc" -model variant.cat $o SB.litmus) >"$tmp/out" 2>&1
  st=$?
  if [ "$st" = 2 ] && grep -q "herd7's ${o%% *}.* not supported" "$tmp/out" && ! grep -q '^Test' "$tmp/out"; then
    ok "$o refused"
  else
    bad "$o: exit $st: $(cat "$tmp/out")"
  fi
done
# -skipcheck SC and -through invalid: the model's checks left out, as
# herd7 leaves them (SB's and MP's four outcomes under -variant strong);
# a name the model has no check of is refused
run skipcheck -model variant.cat -variant strong -skipcheck SC --format herd @all
run through -model variant.cat -variant strong -through invalid --format herd @all
(cd "$dir" && "$lc" -model variant.cat -skipchecks SC,Nope SB.litmus) >"$tmp/out" 2>&1
if [ $? = 2 ] && grep -q "has no check named Nope" "$tmp/out"; then ok "-skipchecks of a check the model has not: refused"
else bad "-skipchecks SC,Nope: $(cat "$tmp/out")"; fi
# -o DIR -show X: DIR/TEST.dot with the executions X selects (prop: SB's
# weak outcome, one execution without the variant, none with it: an
# empty file, as herd7 leaves), -suffix added to the name
(cd "$dir" && "$lc" -model variant.cat -o "$tmp/dots" -show prop -suffix _p SB.litmus MP.litmus) >/dev/null 2>&1
if grep -q '^digraph' "$tmp/dots/SB_p.dot" && grep -q '^digraph' "$tmp/dots/MP_p.dot"; then
  ok "-o DIR -show prop: one execution each"
else
  bad "-o DIR -show prop: $(ls "$tmp/dots" 2>&1)"
fi
(cd "$dir" && "$lc" -model variant.cat -variant strong -o "$tmp/dots2" -show prop SB.litmus) >/dev/null 2>&1
if [ -f "$tmp/dots2/SB.dot" ] && [ ! -s "$tmp/dots2/SB.dot" ]; then
  ok "-o DIR -show prop, no such execution: an empty SB.dot"
else
  bad "-o DIR -show prop under SC: $(ls -l "$tmp/dots2" 2>&1)"
fi
(cd "$dir" && "$lc" -model variant.cat -o "$tmp/dots3" -show neg SB.litmus) >/dev/null 2>&1
n=$(ls "$tmp/dots3" | grep -c '^SB-[0-9]*\.dot$')
if [ "$n" = 3 ]; then ok "-o DIR -show neg: SB's three other executions, a file each"; else bad "-show neg: $(ls "$tmp/dots3")"; fi
# herd's documentation's own line (-show prop -gv): the states, the viewer
# left out with a notice
(cd "$dir" && "$lc" -model variant.cat -show prop -gv SB.litmus) >"$tmp/out" 2>&1
if [ $? = 0 ] && grep -q '^Observation SB' "$tmp/out" && grep -q "herd7's -gv is ignored" "$tmp/out"; then
  ok "-show prop -gv: the states, no viewer"
else
  bad "-show prop -gv: $(cat "$tmp/out")"
fi
finish herd-cli
