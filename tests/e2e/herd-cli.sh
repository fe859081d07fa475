#!/bin/sh
# herd-cli.sh - herd7's command line and output (docs: litmus-check(1),
# "herd7's options"), with no herd needed, from tests/e2e/herd-cli:
#   -model and --format herd on SB and MP given by an @index file, without
#   a variant (no check: every outcome) and with -variant strong
#   (sequential consistency: SB's and MP's weak outcomes forbidden), and
#   the same through -conf strong.cfg; herd's picture options are taken
#   with their value and ignored with a notice.  Whole outputs (Time lines
#   left out) against NAME.expected.
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
run conf -conf strong.cfg -show prop -through invalid --format herd @tests.index
finish herd-cli
