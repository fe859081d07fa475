#!/bin/sh
# sass-corpus.sh - the SASS check (see sass-classic.sh) over every test of
# the public Dat3M PTX corpus that the generator supports, for sm_75, sm_80
# and sm_90.
. "$(dirname "$0")/../e2e/lib.sh"
require_corpus litmus/PTX
corpus=$CORPUS_DIR/litmus/PTX
# the first role order of each kernel (sass-classic.sh checks every order
# of the classic tests; all orders of the corpus pass too, in 3x the time)
out=$("$lr" --check-sass --first-rotation --sm 75,80,90 "$corpus" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^refused '
if [ $rc -eq 77 ]; then
  echo "SKIP: the SASS check needs NVRTC and cuobjdump"
fi
exit $rc
