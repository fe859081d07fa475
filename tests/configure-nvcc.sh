#!/bin/sh
# configure-nvcc.sh - configure finds nvcc on PATH when the toolkit is not
# where it looks first (Debian's packaged toolkit puts nvcc in /usr/bin):
# configure runs in a copy of what it needs, with CUDA_DEFAULT_DIR naming a
# folder that does not exist, (1) with a stand-in nvcc first on PATH: it
# reports that nvcc and takes its parent folder as the toolkit; (2) with no
# nvcc on PATH at all: it reports none.  About 3 s of CPU; 77 without a
# generated configure script.
set -u
. "$(dirname "$0")/e2e/lib.sh"
srcdir=$top_srcdir
unset NVCC ac_cv_path_NVCC   # make check passes the NVCC it found, which configure would take
for f in configure Makefile.in config.h.in build-aux/install-sh src/base/lc.h; do
  [ -f "$srcdir/$f" ] || skip "no $srcdir/$f (run autoreconf first)"
done
make_tmp
mkdir -p "$tmp/tree/src/base" "$tmp/fake/bin" "$tmp/nonvcc" || exit 99
cp "$srcdir/configure" "$srcdir/Makefile.in" "$srcdir/config.h.in" "$tmp/tree/" &&
  cp -R "$srcdir/build-aux" "$tmp/tree/" && cp "$srcdir/src/base/lc.h" "$tmp/tree/src/base/" || exit 99
printf '#!/bin/sh\necho "nvcc: a stand-in"\n' > "$tmp/fake/bin/nvcc" && chmod +x "$tmp/fake/bin/nvcc" || exit 99

# PATH without any nvcc: every folder of PATH that has none
nonvcc_path=
old_ifs=$IFS
IFS=:
for d in $PATH; do
  [ -n "$d" ] && [ ! -e "$d/nvcc" ] && nonvcc_path=${nonvcc_path:+$nonvcc_path:}$d
done
IFS=$old_ifs

conf() {   # name PATH
  (cd "$tmp/tree" && rm -f config.cache config.status &&
   CUDA_DEFAULT_DIR="$tmp/none" PATH=$2 ./configure > "$tmp/$1.log" 2>&1)
}

if conf fallback "$tmp/fake/bin:$PATH" &&
   grep -q "^  CUDA nvcc: *yes ($tmp/fake/bin/nvcc)\$" "$tmp/fallback.log" &&
   grep -q "^#define LC_CUDA_DIR \"$tmp/fake\"\$" "$tmp/tree/config.h"; then
  ok "nvcc found on PATH, its toolkit $tmp/fake"
else
  tail -20 "$tmp/fallback.log"; bad "nvcc on PATH"
fi
if conf none "$nonvcc_path" && grep -q '^  CUDA nvcc: *no ' "$tmp/none.log"; then
  ok "no nvcc anywhere: none reported"
else
  tail -20 "$tmp/none.log"; bad "no nvcc"
fi
finish configure-nvcc
