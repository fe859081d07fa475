#!/bin/sh
# ptx-corpus.sh - the same check over the public Dat3M PTX corpus: every
# test the generator supports must compile and keep its instructions; the
# ones it refuses must be exactly those in refused-corpus.txt.
. "$(dirname "$0")/../e2e/lib.sh"
require_corpus litmus/PTX
corpus=$CORPUS_DIR/litmus/PTX
[ -n "${NVCC:-}" ] || echo "nvcc was not found at configure time (--with-cuda=DIR): NVRTC only"
exec "$top_builddir/tests/cuda/cu-ptx-check" --arch 75,80,90 --ptxas 75 --nvrtc 90 --nvrtc-cubin none --refused "$top_srcdir/tests/cuda/refused-corpus.txt" "$corpus"
