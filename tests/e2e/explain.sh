#!/bin/sh
# explain.sh - litmus-check --explain, --graph and --html end to end.
#
#   explain/NAME.expected   each litmus/NAME.litmus --explain (ptx-v7.5, default
#                           engine): the whole output, `Time` lines dropped
#   explain/checks          NAME CHECK: the check litmus/NAME.litmus's doc
#                           string names; with both engines, every forbidden
#                           state of the condition must be ruled out by it
#                           (alone or in a set), and the engines must give
#                           the same sets
#   explain/cases           NAME|STATUS|ARGS: other uses (a state given,
#                           races, JSON, DOT); stdout and stderr in
#                           NAME.expected
# Every DOT file written here must pass `dot -Tsvg` when Graphviz is
# installed.  PROMOTE=1 rewrites the expected files from the output.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/explain"
make_tmp
mkdir "$tmp/g"
have_dot=0
command -v dot >/dev/null 2>&1 && have_dot=1
[ $have_dot = 1 ] || echo "note: Graphviz's dot is not installed: DOT files are not checked with dot -Tsvg"

# dot -Tsvg accepts FILE
dot_ok() {
  [ $have_dot = 1 ] || return 0
  if dot -Tsvg "$1" -o "$tmp/check.svg" 2>"$tmp/dot.err"; then ok "dot -Tsvg $2"; else bad "dot -Tsvg $2"; cat "$tmp/dot.err"; fi
}

for exp in "$dir"/*.expected; do
  name=$(basename "$exp" .expected)
  [ -f "$top_srcdir/litmus/$name.litmus" ] || continue
  (cd "$top_srcdir" && "$lc" --explain --graph "$tmp/g/$name.dot" "litmus/$name.litmus" 2>&1) | grep -v '^Time ' >"$tmp/out"
  check_whole "$exp" "$tmp/out" "litmus/$name.litmus --explain"
done

# The named checks, with both engines; the sets the engines give agree.
while read -r name check; do
  case "$name" in ''|'#'*) continue ;; esac
  for engine in smt enum; do
    (cd "$top_srcdir" && "$lc" --engine $engine --explain --graph "$tmp/g/$name-$engine.dot" "litmus/$name.litmus" 2>&1) |
      grep -E '^Why|^  (Forbidden|Allowed|No explanation)' >"$tmp/$engine"
    if grep '^  Forbidden: ruled out by' "$tmp/$engine" | grep -v -w -q -e "$check"; then
      bad "litmus/$name.litmus ($engine): a forbidden state is not ruled out by $check"
      cat "$tmp/$engine"
    elif ! grep -q '^  Forbidden: ruled out by' "$tmp/$engine"; then
      bad "litmus/$name.litmus ($engine): no forbidden state"
      cat "$tmp/$engine"
    else
      ok "litmus/$name.litmus ($engine): ruled out by $check"
    fi
  done
  check_whole "$tmp/smt" "$tmp/enum" "litmus/$name.litmus: the engines agree" keep
done <"$dir/checks"

while IFS='|' read -r name want args; do
  case "$name" in ''|'#'*) continue ;; esac
  (cd "$top_srcdir" && eval "\"\$lc\" $args" >"$tmp/out" 2>&1; echo $? >"$tmp/status")
  got=$(cat "$tmp/status")
  sed -e 's/^Time .*//' -e 's/"seconds":[0-9][0-9.e+-]*/"seconds":0/g' \
    -e 's/"\(lower\|encode\|flags\|states\)":[0-9][0-9.e+-]*/"\1":0/g' -e 's/"solver_checks":[0-9]*/"solver_checks":0/' \
    -e "s|$tmp|TMP|g" "$tmp/out" >"$tmp/out2"
  for d in "$tmp"/case*.dot; do [ -f "$d" ] && cat "$d" >>"$tmp/out2" && mv "$d" "$tmp/g/$name-$(basename "$d")"; done
  if [ "$got" != "$want" ]; then bad "explain/$name: exit status $got, expected $want"; cat "$tmp/out2"
  else check_whole "$dir/$name.expected" "$tmp/out2" "explain/$name"; fi
done <"$dir/cases"

# every violation shown for the Dat3M C11 corpus (herd's C tests under
# cuda-cpp) is checked again relation by relation as it is made: none may
# come back "No explanation"
c11=${C11_CORPUS_DIR:-$top_srcdir/../shared/dat3m-c11}
if [ -d "$c11/litmus" ]; then
  "$lc" --explain "$c11/litmus" >"$tmp/c11" 2>/dev/null
  n=$(grep -c '^  .* fails in this execution' "$tmp/c11")
  if grep -q '^  No explanation' "$tmp/c11" || [ "$n" -lt 50 ]; then
    bad "--explain on the C11 corpus: $n violations shown"; grep -B2 '^  No explanation' "$tmp/c11" | head -20
  else ok "--explain on the C11 corpus: $n violations shown, each a cycle (or pair) of its check"; fi
else
  echo "note: no C11 corpus at $c11: its explanations are not checked"
fi

# --html: a page per test, each linked from the index, pictures as SVG
# (the PTX classic tests: litmus/cuda-cpp has a loop whose unroll warning
# would fill stderr)
(cd "$top_srcdir" && "$lc" --html "$tmp/html" litmus/*.litmus >/dev/null 2>"$tmp/err")
n=$(ls "$top_srcdir"/litmus/*.litmus | wc -l)
rows=$(grep -c '^<tr><td><a href=' "$tmp/html/index.html" 2>/dev/null || echo 0)
pages=$(ls "$tmp"/html/*.html 2>/dev/null | grep -v -c index.html)
if [ "$rows" = "$n" ] && [ "$pages" = "$n" ] && [ ! -s "$tmp/err" ]; then ok "--html: $n pages"; else
  bad "--html: $rows rows and $pages pages for $n tests"; cat "$tmp/err"; fi
# each row of the index names the model its test was checked under
(cd "$top_srcdir" && "$lc" -q --html "$tmp/html2" litmus/MP.litmus litmus/cuda-cpp/MP+rlx.litmus >/dev/null 2>&1)
grep -o '<tr><td><a href="[^"]*">[^<]*</a></td><td>[^<]*</td>' "$tmp/html2/index.html" >"$tmp/models" 2>/dev/null
printf '%s\n' '<tr><td><a href="MP.html">MP</a></td><td>PTX v7.5</td>' \
  '<tr><td><a href="MP+rlx.html">MP+rlx</a></td><td>CUDA C++</td>' >"$tmp/want"
check_whole "$tmp/want" "$tmp/models" "--html: each row names its model" keep
# a C++ test's page explains in the C++ model's relations (the counter of
# the last-block pattern: hb through the fences' sw)
(cd "$top_srcdir" && "$lc" -q --html "$tmp/html4" tests/e2e/explain/counter+threadfence.litmus >/dev/null 2>&1)
if grep -q '^      cycle q -hb-&gt; f -eco-&gt; q  (irreflexive hb; eco?)$' "$tmp/html4/counter+threadfence.html" 2>/dev/null &&
   grep -q '^        r -sw-&gt; e = r -po-&gt; t -strong-rf-&gt; c -po-&gt; e$' "$tmp/html4/counter+threadfence.html"; then
  ok "--html: a C++ test's cycle of hb; eco?, sw through the fences"
else
  bad "--html: a C++ test's cycle"; grep -i cycle "$tmp/html4/counter+threadfence.html"
fi
# a test no execution of which finishes: no verdict, and no check to blame
(cd "$top_srcdir" && "$lc" -q --html "$tmp/html3" tests/e2e/explain/lock-held.litmus >/dev/null 2>&1)
if grep -q '<td>Allowed</td><td>no verdict Unfinished</td><td>n=1; <span class="forbidden">no execution finishes</span></td>' \
     "$tmp/html3/index.html" 2>/dev/null &&
   grep -q 'no execution finishes within --unroll 2: every one needs more loop iterations' "$tmp/html3/lock-held.html" &&
   ! grep -q 'WF-mo' "$tmp/html3/lock-held.html"; then
  ok "--html: a test no execution of which finishes"
else
  bad "--html: a test no execution of which finishes"; cat "$tmp/html3/index.html"
fi
if [ $have_dot = 1 ]; then
  imgs=$(grep -h -o '<img src="[^"]*"' "$tmp"/html/*.html | sed 's/<img src="//; s/"$//' | sort)
  missing=$(for i in $imgs; do [ -s "$tmp/html/$i" ] || echo "$i"; done)
  if [ -n "$imgs" ] && [ -z "$missing" ]; then ok "--html: pictures"; else bad "--html: pictures missing: $missing"; fi
fi
# every DOT file written here, one execution each
for d in "$tmp"/g/*.dot "$tmp"/html/*.dot; do dot_ok "$d" "$(basename "$d")"; done

# litmus-run headlines a forbidden outcome with why: SB on the CPU under
# SC (x86 shows store buffering often; when no instance does, nothing to check)
(cd "$top_srcdir" && "$lr" --backend host -m sc -n 4 litmus/SB.litmus 2>&1) >"$tmp/run"
if grep -q '^!!! SB: the CPU showed' "$tmp/run"; then
  if grep -q '^!!! why P0:r0=0; P1:r1=0; ruled out by SC (a -po-> b -fr-> c -po-> d -fr-> a)$' "$tmp/run"; then
    ok "litmus-run: why SB is forbidden under SC"
  else bad "litmus-run: the forbidden outcome of SB under SC has no why"; cat "$tmp/run"; fi
fi

finish "e2e explain"
