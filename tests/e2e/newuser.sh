#!/bin/sh
# newuser.sh - what a new user tried and tripped on: options taken as
# files or meaning "no limit", errors that named nothing, files written
# over or beside the one asked for, undefined behaviour of C++ tests
# passed off as loops, help and manual pages that disagreed with the
# programs.  The cases of newuser/cases compare whole outputs
# (PROMOTE=1 rewrites them); the rest look at files written and at docs.
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/newuser"
make_tmp

while IFS='|' read -r name want args; do
  case "$name" in ''|'#'*) continue ;; esac
  prog=${args%% *} rest=${args#* }
  [ "$rest" = "$args" ] && rest=
  case $prog in check) p=$lc ;; run) p=$lr ;; gen) p=$lgen ;; compare) p=$lcmp ;; *) exit 99 ;; esac
  mkdir -p "$tmp/cwd-$name"
  # from a folder of its own: nothing may be written into it
  D=$dir T=$abs_top_srcdir
  (cd "$tmp/cwd-$name" && eval "\"\$p\" $rest" >"$tmp/out" 2>&1; echo $? >"$tmp/status")
  # without the times, which change from run to run (Time lines, JSON seconds)
  sed -e '/^Time /d' -e "s|$dir/|\$D/|g" -e "s|$abs_top_srcdir/|\$T/|g" \
    -e 's/"seconds":[0-9][0-9.e+-]*/"seconds":0/' -e 's/"seconds_by_phase":{[^}]*}/"seconds_by_phase":{}/' \
    "$tmp/out" >"$tmp/out2"
  got=$(cat "$tmp/status")
  if [ "$got" != "$want" ]; then
    [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/out2" "$dir/$name.expected"
    bad "$name: exit status $got, expected $want"
    cat "$tmp/out2"
  else
    check_whole "$dir/$name.expected" "$tmp/out2" "$name"
  fi
  if [ -n "$(ls -A "$tmp/cwd-$name")" ]; then bad "$name: wrote into the current folder: $(ls "$tmp/cwd-$name")"; fi
done <"$dir/cases"

# --explain race is --explain=race
mp_race=$top_srcdir/litmus/cuda-cpp/MP+rlx-flag+na-data.litmus
"$lc" --explain race "$mp_race" 2>&1 | grep -v '^Time ' >"$tmp/space"
"$lc" --explain=race "$mp_race" 2>&1 | grep -v '^Time ' >"$tmp/equals"
check_whole "$tmp/equals" "$tmp/space" "--explain race is --explain=race" keep

# --graph out.png: out.dot (and out.png through dot when installed), never out.png.dot
mkdir -p "$tmp/g"
"$lc" --graph "$tmp/g/out.png" "$top_srcdir/litmus/MP.litmus" >/dev/null 2>&1
rc=$?
if [ $rc = 0 ] && [ -f "$tmp/g/out.dot" ] && [ ! -e "$tmp/g/out.png.dot" ] &&
   { ! command -v dot >/dev/null 2>&1 || [ -s "$tmp/g/out.png" ]; }; then
  ok "--graph out.png: $(cd "$tmp/g" && ls | tr '\n' ' ')"
else
  bad "--graph out.png: exit $rc, wrote $(cd "$tmp/g" && ls | tr '\n' ' ')"
fi

# --graph x.svg without Graphviz: every execution's DOT file, and one warning
mkdir -p "$tmp/nodot"
(cd "$tmp/nodot" && PATH=/nonexistent "$lc" --show all --graph x.svg "$abs_top_srcdir/litmus/MP.litmus" >/dev/null 2>err)
{ sed "s|$abs_top_srcdir/||" "$tmp/nodot/err"; rm "$tmp/nodot/err"; ls "$tmp/nodot"; } >"$tmp/nodot.out"
printf '%s\n' "litmus/MP.litmus: warning: --graph: Graphviz's dot is not installed: wrote DOT files only" \
  x-1.dot x-2.dot x-3.dot x-4.dot >"$tmp/nodot.want"
check_whole "$tmp/nodot.want" "$tmp/nodot.out" "--graph x.svg without dot: all four DOT files" keep

# two tests named MP: --html and --graph keep both, in the order given
two="$top_srcdir/litmus/MP.litmus $dir/MP-again.litmus"
mkdir -p "$tmp/g2"
# shellcheck disable=SC2086
"$lc" -j 2 --html "$tmp/html" --graph "$tmp/g2/x.dot" $two >/dev/null 2>&1
if [ -f "$tmp/html/MP.html" ] && [ -f "$tmp/html/MP~2.html" ] &&
   [ "$(grep -c 'href="MP' "$tmp/html/index.html")" = 2 ] &&
   grep -q 'href="MP~2.html"' "$tmp/html/index.html"; then
  ok "--html: MP.html and MP~2.html, both in the index"
else
  bad "--html with two tests named MP: $(ls "$tmp/html" | tr '\n' ' ')"
fi
if [ -f "$tmp/g2/x-MP-1.dot" ] && [ -f "$tmp/g2/x-MP~2-1.dot" ] &&
   [ "$(ls "$tmp/g2" | grep -c '^x-MP-')" = "$(ls "$tmp/g2" | grep -c '^x-MP~2-')" ]; then
  ok "--graph: x-MP-N.dot and x-MP~2-N.dot"
else
  bad "--graph with two tests named MP: $(ls "$tmp/g2" | tr '\n' ' ')"
fi

# --check-mapping nvcc on an architecture nvcc refuses names each test
if [ -n "${NVCC:-}" ] && [ -x "${NVCC:-}" ]; then
  "$lc" --check-mapping nvcc --sm 70 "$top_srcdir/litmus/cuda-cpp/MP+rlx.litmus" >/dev/null 2>"$tmp/err"
  if grep -q 'cuda-cpp/MP+rlx.litmus: error: not checked' "$tmp/err"; then ok "nvcc --sm 70: the test named"
  else bad "nvcc --sm 70: no test named"; cat "$tmp/err"; fi
else
  echo "skipped: nvcc --sm 70 (no nvcc)"
fi

# a folder given with a trailing slash: folder/a/MP.litmus, not folder//a/MP.litmus
(cd "$abs_top_srcdir/tests/e2e/compare" && "$lc" --json folders/ 2>/dev/null) |
  sed -n 's/.*"file":"\([^"]*\)".*/\1/p' >"$tmp/slash"
printf '%s\n' folders/a/MP.litmus folders/b/MP.litmus >"$tmp/slash.want"
check_whole "$tmp/slash.want" "$tmp/slash" "a folder with a trailing slash: no '//' in paths" keep

# help and manual pages agree with the programs
for p in litmus-check litmus-run litmus-gen litmus-compare; do
  "$abs_top_builddir/src/$p" --help >"$tmp/help" 2>&1
  if grep -q '%%' "$tmp/help"; then bad "$p --help prints '%%'"; else ok "$p --help: no '%%'"; fi
  # the tools read C++ tests too
  if grep -q 'scoped-PTX' "$tmp/help"; then bad "$p --help: scoped-PTX only"; else ok "$p --help: not scoped-PTX only"; fi
  grep -q "man/$p.1\|$p\.1" "$top_srcdir/README.md" && ok "README lists $p.1" || bad "README does not list $p.1"
done
{ "$lgen" --help; "$lgen" --cpp --help; } 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$tmp/opts"
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$top_srcdir/man/litmus-gen.1" >"$tmp/man"
missing=
while read -r o; do
  case $o in --check-mapping) continue ;; esac   # litmus-check's, named by the help
  grep -q -- "$o" "$tmp/man" || missing="$missing $o"
done <"$tmp/opts"
[ -z "$missing" ] && ok "man litmus-gen documents every option of its help" || bad "man litmus-gen lacks:$missing"
for f in random-cpp spin; do
  grep -q "$f" "$tmp/man" && ok "man litmus-gen names the $f family" || bad "man litmus-gen lacks the $f family"
done
grep -q 'order the thread declares' "$top_srcdir/man/litmus-check.1" && ok "man litmus-check: C++ locals in declaration order" ||
  bad "man litmus-check: the order of C++ locals"
if grep -q 'refuses C++ tests' "$top_srcdir/docs/litmus-format.md"; then bad "litmus-format.md: the CUDA backend refuses C++"
elif "$lr" --emit-cuda "$top_srcdir/litmus/cuda-cpp/MP+rlx.litmus" >/dev/null 2>&1; then ok "the CUDA backend compiles C++ tests, as documented"
else bad "litmus-run --emit-cuda on a C++ test"; fi
# litmus-run's loop warning agrees with its termination answer (MP+mbarrier
# on the CPU: the warning goes before the run, whose counts vary); a
# warning that names no loop cut would be no warning at all
(cd "$top_srcdir" && "$lr" --backend host -n 1 -i 64 litmus/hopper/MP+mbarrier.litmus 2>&1) >"$tmp/mbar"
if ! grep -q '^Termination MP+mbarrier terminates$' "$tmp/mbar"; then
  bad "litmus-run MP+mbarrier: no termination answer"; cat "$tmp/mbar"
elif grep -q 'warning: some executions need more' "$tmp/mbar" &&
     ! grep -q 'warning: .*, yet under fair scheduling every execution ends (Termination: terminates)$' "$tmp/mbar"; then
  bad "litmus-run MP+mbarrier: the loop warning contradicts the termination answer"; cat "$tmp/mbar"
else
  ok "litmus-run MP+mbarrier: the loop warning and the termination answer agree"
fi

finish newuser
