# lib.sh - what the end-to-end drivers share; each sources it first:
#   . "$(dirname "$0")/lib.sh"          (from tests/e2e/)
# It finds the source and build trees, names the programs, makes a
# temporary folder removed on exit, compares whole outputs (PROMOTE=1
# rewrites the expected files), counts and prints results, and skips
# (exit 77) with the reason.  POSIX sh.
#
# Under `make check`, TESTS_ENVIRONMENT gives top_srcdir and top_builddir
# (absolute, and apart in a VPATH build or distcheck); by hand both default
# to the current folder, the top of a tree built in place.

# shellcheck disable=SC2034  # the names set here are for the drivers
: "${top_srcdir:=.}" "${top_builddir:=.}"
# absolute, as drivers change folder to run tests by their short names
abs_top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
abs_top_builddir=$(cd "$top_builddir" && pwd) || exit 99
# the programs
lc=$abs_top_builddir/src/litmus-check
lr=$abs_top_builddir/src/litmus-run
lgen=$abs_top_builddir/src/litmus-gen
lcmp=$abs_top_builddir/src/litmus-compare
roundtrip=$abs_top_builddir/tests/lt-roundtrip

# source_models: the programs take the models of the source tree, also
# from a build tree apart from it (a VPATH build, make distcheck).
source_models() {
  LITMUS_MODELS=${LITMUS_MODELS:-$abs_top_srcdir/models}
  export LITMUS_MODELS
}

# make_tmp [PARENT]: $tmp, a new folder in PARENT (TMPDIR, /tmp) removed
# when the driver exits, also when it is interrupted.
make_tmp() {
  tmp=$(mktemp -d "${1:-${TMPDIR:-/tmp}}/$(basename "$0" .sh).XXXXXX") || exit 99
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# skip WHY...: the driver cannot run here; says why and exits 77.
skip() {
  echo "SKIP: $*"
  exit 77
}

# require_corpus [FOLDER]: $CORPUS_DIR must hold the public PTX corpus, its
# FOLDER (litmus) at least.
require_corpus() {
  if [ -z "${CORPUS_DIR:-}" ] || [ ! -d "$CORPUS_DIR/${1:-litmus}" ]; then
    skip "no corpus at '${CORPUS_DIR:-}' (configure --with-corpus=DIR)"
  fi
}

# require_nvrtc: NVRTC, which the CUDA runner compiles with, is installed.
require_nvrtc() {
  if ! LD_LIBRARY_PATH='' ldconfig -p 2>/dev/null | grep -q libnvrtc &&
     ! ls "${CUDA_DIR:-/nonexistent}"/lib64/libnvrtc.so* >/dev/null 2>&1; then
    skip "NVRTC (libnvrtc.so) not found; the runner cannot compile without it"
  fi
}

# require_nvcc: $NVCC names an nvcc (configure's, or CUDA_DIR's).
require_nvcc() {
  if [ -n "${NVCC:-}" ] && [ -x "${NVCC:-}" ]; then :
  elif [ -x "${CUDA_DIR:-/usr/local/cuda}/bin/nvcc" ]; then NVCC=${CUDA_DIR:-/usr/local/cuda}/bin/nvcc
  else skip "no nvcc (set NVCC or CUDA_DIR)"
  fi
  export NVCC
}

# Results: `ok WHAT` and `bad WHAT` count and print a line each; finish
# prints the totals and exits 0 when nothing failed, 1 otherwise.
pass=0
fail=0
ok() {
  pass=$((pass + 1))
  echo "ok: $1"
}
bad() {
  fail=$((fail + 1))
  echo "FAIL: $1"
}
finish() {   # NAME
  echo "$1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ] || exit 1
  exit 0
}

# timed NAME COMMAND...: COMMAND's stdout in $tmp/NAME.out, its stderr
# in $tmp/NAME.err, its exit status in $rc and its wall time in $wall;
# then `within SECONDS WHAT` and `exit_was STATUS WHAT` check them.
timed() {
  _name=$1; shift
  _t0=$(date +%s.%N)
  "$@" >"$tmp/$_name.out" 2>"$tmp/$_name.err"
  rc=$?
  wall=$(echo "$(date +%s.%N) - $_t0" | bc)
}
within() {
  if [ "$(echo "$wall < $1" | bc)" = 1 ]; then ok "$2: $wall s"; else bad "$2: took $wall s (at most $1 s)"; fi
}
exit_was() {
  if [ "$rc" = "$1" ]; then ok "$2: exit status $1"; else bad "$2: exit status $rc, expected $1"; fi
}

# compare_whole EXPECTED ACTUAL [keep]: true when ACTUAL is EXPECTED byte
# for byte; otherwise prints the unified diff (- expected, + actual).
# With PROMOTE=1, ACTUAL first replaces EXPECTED (review the diff before
# committing it), unless `keep` is given: EXPECTED is made by the driver,
# or belongs to another run (a second engine is compared with the first).
compare_whole() {
  if [ "${PROMOTE:-0}" = 1 ] && [ "${3:-}" != keep ]; then
    cp "$2" "$1" || return 1
  fi
  diff -u "$1" "$2"
}

# check_whole EXPECTED ACTUAL WHAT [keep]: compare_whole, counted.
check_whole() {
  if compare_whole "$1" "$2" "${4:-}"; then ok "$3"; else bad "$3"; fi
}
# the name check.sh and explain.sh gave it, for code written against them
# (an undefined function would skip its check without failing)
compare() { check_whole "$@"; }

# check_run WHAT STATUS EXPECTED COMMAND...: COMMAND's stdout and stderr,
# through the driver's `filter` (by default none), must be EXPECTED, and
# its exit status STATUS.  The output stays in $tmp/out.
filter() { cat; }
check_run() {
  _what=$1 _want=$2 _exp=$3
  shift 3
  "$@" >"$tmp/raw" 2>&1
  _got=$?
  filter <"$tmp/raw" >"$tmp/out"
  if [ "$_got" != "$_want" ]; then
    [ "${PROMOTE:-0}" = 1 ] && cp "$tmp/out" "$_exp"
    bad "$_what: exit status $_got, expected $_want"
    cat "$tmp/out"
  else
    check_whole "$_exp" "$tmp/out" "$_what"
  fi
}

# round_trips FILE: FILE parses, its print parses to the same print, and
# tests/lt-roundtrip finds the reparsed AST equal; counted.
round_trips() {
  if ! "$lc" --print "$1" >"$tmp/first" 2>"$tmp/err"; then
    bad "$1 does not parse"; cat "$tmp/err"
  elif ! "$lc" --print - <"$tmp/first" >"$tmp/second" 2>"$tmp/err"; then
    bad "the print of $1 does not parse"; cat "$tmp/err"
  elif ! cmp -s "$tmp/first" "$tmp/second"; then
    bad "printing $1 is not idempotent"; diff -u "$tmp/first" "$tmp/second"
  elif ! "$roundtrip" "$1"; then
    bad "$1 does not round-trip to an equal AST"
  else
    pass=$((pass + 1))
  fi
}

# expect_verdicts LABEL CSV CORPUS KNOWN LITMUS-CHECK-ARGS...: every test of
# CSV (relative to CORPUS) checked with --expect CSV; its mismatches must be
# exactly KNOWN's lines that begin with LABEL.
expect_verdicts() {
  _label=$1 _csv=$2 _corpus=$3 _known=$4
  shift 4
  _want=$(grep -c ',' "$_csv")
  sed 's/,.*//' "$_csv" | sed "s|^|$_corpus/|" >"$tmp/files"
  # shellcheck disable=SC2046
  "$lc" -q -j2 "$@" --expect "$_csv" $(cat "$tmp/files") >"$tmp/err" 2>&1
  _rc=$?
  _compared=$(sed -n 's/^expect: \([0-9]*\) tests compared.*/\1/p' "$tmp/err")
  if [ "$_compared" != "$_want" ]; then
    bad "$_label: compared ${_compared:-0} of $_want tests (exit status $_rc)"
    cat "$tmp/err"
    return
  fi
  sed -n "s|^mismatch: $_corpus/\(.*\): expected \([01]\), got \([01]\)|$_label \1 expected=\2 got=\3|p" "$tmp/err" |
    sort >"$tmp/got"
  grep "^$_label " "$_known" | sort >"$tmp/known" || true
  if diff -u "$tmp/known" "$tmp/got"; then
    ok "$_label: $_compared tests, $(wc -l <"$tmp/got") known differences"
  else
    bad "$_label: mismatches differ from $_known (- listed there, + found now)"
  fi
}
