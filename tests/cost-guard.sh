#!/bin/sh
# cost-guard.sh - the engines' work on fixed tests, pinned: a change that
# makes any of them MARGIN times (default 2) more costly fails here, on
# any machine, however loaded.
#
# Work is counted, not timed (tests/engine-cost --work): the explicit
# engine's nodes (every evaluation of the model on a partial or complete
# choice), Z3's satisfiability checks and Z3's own resource count
# ("rlimit count"), which is the same on every run of one Z3 version; a
# line pinned under another Z3 version has its resource count skipped
# (said), its checks still compared.  An enum line may pin the explicit
# engine's work per node too: the model's values it built and the
# expressions its walks of the model visited (WORK, then "values"), which
# grow when a change makes each node costlier (a replay of the model's
# walk lost, values rebuilt that did not move).  The states are compared
# exactly.
#
# tests/cost/pins lists the cases, one a line:
#   ENGINE TEST STATES CHECKS [WORK Z3-VERSION|values]
# TEST is FAMILY-SIZE (written by litmus-gen --family), a path in the
# source tree, or corpus/PATH under $CORPUS_DIR (skipped without it);
# TEST:termination asks the termination question too (engine-cost
# --termination: a kernel under OBE, as litmus-check asks it), its
# checks added to the listing's.
# PROMOTE=1 rewrites the counts from this run (review the diff: a pin
# raised is a slowdown accepted).  A case that got MARGIN times cheaper
# passes with a note: pin it again so that the guard keeps the gain.
set -u
. "$(dirname "$0")/e2e/lib.sh"
source_models
make_tmp
pins=$abs_top_srcdir/tests/cost/pins
cost=$abs_top_builddir/tests/engine-cost
margin=${COST_MARGIN:-2}
[ -x "$cost" ] || skip "tests/engine-cost is not built (make check builds it)"

new=$tmp/pins
: > "$new"
while IFS= read -r line; do
  case $line in '#'* | '') echo "$line" >> "$new"; continue ;; esac
  set -- $line
  engine=$1 test=$2 states=$3 checks=$4 work=${5:-} z3=${6:-}
  term=
  case $test in *:termination) term=--termination ;; esac
  case ${test%:termination} in
    corpus/*)
      if [ -z "${CORPUS_DIR:-}" ] || [ ! -f "$CORPUS_DIR/${test#corpus/}" ]; then
        echo "skip: $engine $test (no corpus)"
        echo "$line" >> "$new"
        continue
      fi
      file=$CORPUS_DIR/${test#corpus/} ;;
    */*) file=$abs_top_srcdir/${test%:termination} ;;
    *)
      file=$tmp/fam/$test.litmus
      [ -f "$file" ] || "$lgen" --family "${test%-*}" --size "${test##*-}" -o "$tmp/fam" < /dev/null > /dev/null ;;
  esac
  if ! "$cost" --work "$engine" $term "$file" < /dev/null > "$tmp/out" 2> "$tmp/err"; then
    bad "$engine $test: $(cat "$tmp/err")"
    echo "$line" >> "$new"
    continue
  fi
  set -- $(cat "$tmp/out")
  got_states=$3 got_checks=$4 got_work=${5:-} got_z3=${6:-}
  echo "$engine $test $got_states $got_checks${got_work:+ $got_work $got_z3}" >> "$new"
  verdict=$(awk -v e="$engine" -v t="$test" -v s="$states" -v c="$checks" -v w="$work" -v z="$z3" \
                -v gs="$got_states" -v gc="$got_checks" -v gw="$got_work" -v gz="$got_z3" -v m="$margin" '
    BEGIN {
      msg = sprintf("%s %s: checks %d (pinned %d, x%.2f)", e, t, gc, c, gc / c)
      bad = gs != s ? sprintf("; states %d, pinned %d", gs, s) : ""
      if (gc > m * c) bad = bad sprintf("; checks over %g times the pin", m)
      what = z == "values" ? "values" : "Z3 work"
      if (w != "" && z == gz) {
        msg = msg sprintf(", %s %d (pinned %d, x%.2f)", what, gw, w, gw / w)
        if (gw > m * w) bad = bad sprintf("; %s over %g times the pin", what, m)
      } else if (w != "") msg = msg sprintf(", Z3 work not compared (pinned under %s, this is %s)", z, gz)
      note = gc * m < c || (w != "" && z == gz && gw * m < w) ? " - cheaper: pin it again (PROMOTE=1)" : ""
      print (bad == "" ? "ok " : "bad ") msg bad note
    }')
  case $verdict in ok*) ok "${verdict#ok }" ;; *) bad "${verdict#bad }" ;; esac
done < "$pins"
[ "${PROMOTE:-0}" = 1 ] && cp "$new" "$pins"
finish cost-guard
