#!/bin/sh
# house.sh - the layout of src/ drawn from the code (scripts/house): no
# circle between files or rooms, no arrow from a room to a floor beside or
# above its own, no file loose at src/, no two files with one name.  The
# arrows are the includes, and the calls between the built objects.  First
# the script itself on a small tree that has each fault.
set -u
. "$(dirname "$0")/e2e/lib.sh"
command -v python3 > /dev/null 2>&1 || skip "no python3"
make_tmp
house() { python3 "$top_srcdir/scripts/house" "$@"; }

# a tree with every fault: a loose file, a circle, a back arrow, one name twice
t=$tmp/tree/src
mkdir -p "$t/base" "$t/litmus" "$t/exec" || exit 99
printf '#include "litmus/b.h"\n' > "$t/base/a.h"
printf '#include "base/a.h"\n' > "$t/litmus/b.h"
printf '#include "exec/d.h"\n' > "$t/litmus/c.h"
printf '#include "litmus/c.h"\n' > "$t/exec/d.h"
printf 'int x;\n' > "$t/loose.c"
printf '\n' > "$t/exec/b.h"
house "$tmp/tree" > "$tmp/faults.out" 2>&1
rc=$?
for want in 'loose at src/: loose.c' 'circle between files: base/a.h litmus/b.h' \
            'circle between rooms: base exec litmus' 'back arrow: base/a.h -> litmus/b.h' \
            'back arrow: litmus/c.h -> exec/d.h' 'two files named b.h: exec/b.h litmus/b.h'; do
  if grep -qF "$want" "$tmp/faults.out"; then ok "finds: $want"; else bad "misses: $want"; fi
done
[ "$rc" -eq 1 ] && ok "exits 1 on faults" || bad "exits $rc on faults"

if house "$top_srcdir" "$top_builddir" > "$tmp/house.out" 2>&1; then
  ok "$(head -n 1 "$tmp/house.out")"
else
  cat "$tmp/house.out"
  bad "the house has circles, back arrows or loose files (scripts/house)"
fi
finish house
