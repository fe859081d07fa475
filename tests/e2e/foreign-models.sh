#!/bin/sh
# foreign-models.sh - herd's and Dartagnan's own cat files, read unchanged,
# where they are at hand (skipped otherwise):
#   herd's libdir (HERD_LIBDIR, else herdtools7's installed one under
#   HERDTOOLS7, default /work/tools/herdtools7), and herdtools7's newest
#   (its HEAD, from the git directory HERD_GIT, default
#   /work/.mirror/herd+herdtools7/repo): at least 62 of the first's cat
#   files load (scripts/load-foreign-models; 62 of 96 at herdtools7
#   61e77ef) and 94 of the second's (of 156), and every other one gets
#   one error that names an architecture's events, but the five herd7
#   rejects too, each with the reason (LL.cat: WW, which filters.cat
#   defines, not included; ppo.cat: a fragment reading ci0, which the
#   models including it define first; uniproc-normw-cat.cat: `rf -1`;
#   herd.cat, pretty.cat: WW of dmb.st, which aarch64fences.cat
#   redefines as a set); rc11.cat, c11_partialSC.cat and
#   c11_simp.cat give on SB, MP-na, FAA2 (tests/e2e/herd-lang) and
#   MP+volatile, MP+unseq, CAS+unseq-na (tests/e2e/herd-c11: unsequenced
#   operands) the states herd7 61e77ef gives
#   (foreign-models/herd-c11.expected, recorded from herd7); c11_orig.cat
#   and simple-c11.cat (`with S from linearisations(SC, ...)`) give under
#   both engines herd7's states on SB, MP-na, MP+volatile and the
#   seq_cst tests SB+sc, IRIW+sc, MP+sc-rlx of foreign-models/
#   (foreign-models/herd-lin.expected, recorded from herd7);
#   a model in a subfolder of a libdir (foreign-models/libdir/sub/)
#   finds the libdir's files it includes;
#   Dat3M's cat/ (DAT3M_CAT, else extracted from the git directory
#   DAT3M_GIT, default /work/.mirror/hernanponcedeleon+Dat3M/repo): at
#   least 12 of its files load (imm.cat among them), every other one with
#   one error naming an architecture's events, and rc11.cat, c11.cat,
#   ptx-v7.5.cat and ptx-v6.0.cat, read unchanged, give Dartagnan's
#   verdicts on every test of Dat3M's own corpora (its git directory's
#   C11 and PTX tests and dartagnan/src/test/resources/*-expected.csv:
#   136, 136, 264, 135 tests), else of ../shared/dat3m-c11 and
#   ../shared/dat3m-ptx, but the differences foreign-models/dat3m.known
#   explains (none today).
set -u
. "$(dirname "$0")/lib.sh"
dir="$top_srcdir/tests/e2e/foreign-models"
make_tmp
ran=0

ht=${HERDTOOLS7:-/work/tools/herdtools7}
lib=${HERD_LIBDIR:-$ht/share/herdtools7/herd}
[ -f "$lib/rc11.cat" ] || lib=$ht/herd/libdir
# The load of every cat file of a herd libdir: at least $2 load, every
# other one gets one error, naming an architecture's events, or (the
# five herd7 rejects too) the precise reason herd7 rejects it.
herd_libdir_loads() {   # DIR MIN WHAT
  "$top_srcdir/scripts/load-foreign-models" "$1" >"$tmp/herd-load"
  n=$(sed -n 's/.*: \([0-9]*\) of [0-9]* loaded$/\1/p' "$tmp/herd-load")
  if [ "${n:-0}" -ge "$2" ]; then ok "$3: $n cat files load"; else bad "$3: ${n:-no} cat files load (want $2 or more)"; fi
  others=$(grep '^error' "$tmp/herd-load" | grep -v -E '^error   [^ ]*: [^ ]*: error: unknown (name|function) [^ ]*: the model is for [^,]*, whose events \(and the sets and relations naming them\) litmus-check does not have; it checks PTX and C/C\+\+ tests$' |
    grep -v -E "^error   LL\.cat: LL\.cat:3:11: error: unknown function 'WW': filters\.cat defines it, and this model does not include it \(herd7 rejects the model too\)\$" |
    grep -v -E "^error   ppo\.cat: ppo\.cat:5:14: error: unknown name 'ci0': ppo\.cat is a fragment that [^(]* include after defining 'ci0' \(herd7 rejects this file alone too\)\$" |
    grep -v -E "^error   uniproc-normw-cat\.cat: uniproc-normw-cat\.cat:7:14: error: unexpected '-1': an inverse is written r\^-1 \(herd7 rejects this '-1' too\)\$" |
    grep -v -E "^error   (herd|pretty)\.cat: pretty\.cat:55:19: error: type error: argument 1 of 'WW' must be a relation, but 'dmb\.st' is a set: the one defined at aarch64fences\.cat:[0-9]*(, which replaced a relation defined at aarch64fences\.cat:[0-9]*)?\$" |
    tr '\n' ' ')
  if [ -z "$others" ]; then ok "$3: every other file gets one error naming an architecture's events, or the reason herd7 rejects it too"
  else bad "$3: errors naming no architecture: $others"; fi
  rejected=$(grep -c -E '^error   (LL|ppo|uniproc-normw-cat|herd|pretty)\.cat: ' "$tmp/herd-load")
  if [ "$rejected" -eq 5 ]; then ok "$3: herd7's five rejected files rejected"; else bad "$3: $rejected of herd7's five rejected files rejected"; fi
}

if [ -f "$lib/rc11.cat" ]; then
  ran=1
  herd_libdir_loads "$lib" 62 "herd's libdir"
  # herdtools7's newest libdir too, from its git directory where at hand
  herd_git=${HERD_GIT:-/work/.mirror/herd+herdtools7/repo}
  if [ -d "$herd_git" ] && command -v git >/dev/null 2>&1 && mkdir -p "$tmp/herd-head" &&
     git --git-dir="$herd_git" archive HEAD herd/libdir 2>/dev/null | tar -x -C "$tmp/herd-head" 2>/dev/null &&
     [ -f "$tmp/herd-head/herd/libdir/rc11.cat" ]; then
    herd_libdir_loads "$tmp/herd-head/herd/libdir" 94 "herdtools7 HEAD's libdir"
  else
    echo "SKIP: no herdtools7 git directory (HERD_GIT) for its newest libdir"
  fi
  : >"$tmp/herd"
  for m in rc11 c11_partialSC c11_simp; do
    for t in herd-lang/SB.litmus herd-lang/MP-na.litmus herd-c11/MP+volatile.litmus herd-lang/FAA2.litmus \
             herd-c11/MP+unseq.litmus herd-c11/CAS+unseq-na.litmus; do
      printf '%s %s: ' "$m" "${t#*/}" >>"$tmp/herd"
      LITMUS_MODELS=$lib "$lc" --format herd --model "$lib/$m.cat" "$top_srcdir/tests/e2e/$t" 2>&1 |
        awk '/^States/ { n = $2; next } n > 0 { n--; gsub(/\[|\]/, ""); printf "%s ", $0 } END { print "" }' >>"$tmp/herd"
    done
  done
  check_whole "$dir/herd-c11.expected" "$tmp/herd" "herd's C11 models give herd7's states"
  : >"$tmp/lin"
  for m in c11_orig simple-c11; do
    for t in herd-lang/SB.litmus herd-lang/MP-na.litmus herd-c11/MP+volatile.litmus foreign-models/SB+sc.litmus \
             foreign-models/IRIW+sc.litmus foreign-models/MP+sc-rlx.litmus; do
      for e in enum smt; do
        printf '%s %s %s: ' "$m" "$e" "${t#*/}" >>"$tmp/lin"
        LITMUS_MODELS=$lib "$lc" -e "$e" --format herd --model "$lib/$m.cat" "$top_srcdir/tests/e2e/$t" 2>&1 |
          awk '/^States/ { n = $2; next } n > 0 { n--; gsub(/\[|\]/, ""); printf "%s ", $0 } END { print "" }' >>"$tmp/lin"
      done
    done
  done
  check_whole "$dir/herd-lin.expected" "$tmp/lin" "herd's linearisations (c11_orig, simple-c11) give herd7's states"
else
  echo "SKIP: no herd libdir (set HERD_LIBDIR)"
fi

# A model in a subfolder of a libdir includes the libdir's files by name
# (herd's arm-models/mixed/ec.cat includes aarch64hwreqs.cat), found with
# no search path: the nearest folder above holding a stdlib.cat.
ran=1
if LITMUS_MODELS=/nonexistent "$lc" -q --model "$dir/libdir/sub/model.cat" "$dir/SB+sc.litmus" >"$tmp/out" 2>&1 ||
   [ $? -eq 1 ]; then ok "an include from a libdir's subfolder is found in the libdir"
else bad "an include from a libdir's subfolder: $(head -1 "$tmp/out")"; fi

# Dat3M: its cat/ and, from its git directory, its C11 and PTX tests with
# Dartagnan's verdicts (dartagnan/src/test/resources/*-expected.csv:
# 136 RC11, 136 C11, 264 PTX v7.5, 135 PTX v6.0); without the git
# directory, the corpora of ../shared (a subset: 136, 136, 137, 130).
cat_dir=${DAT3M_CAT:-}
git_dir=${DAT3M_GIT:-/work/.mirror/hernanponcedeleon+Dat3M/repo}
tests_dir= res_dir=
if [ -d "$git_dir" ] && command -v git >/dev/null 2>&1; then
  mkdir -p "$tmp/dat3m"
  if git --git-dir="$git_dir" archive HEAD cat litmus/C11 litmus/PTX dartagnan/src/test/resources/RC11-expected.csv \
       dartagnan/src/test/resources/C11-expected.csv dartagnan/src/test/resources/PTXv7_5-expected.csv \
       dartagnan/src/test/resources/PTXv6_0-expected.csv 2>/dev/null | tar -x -C "$tmp/dat3m" 2>/dev/null; then
    [ -n "$cat_dir" ] || cat_dir=$tmp/dat3m/cat
    tests_dir=$tmp/dat3m res_dir=$tmp/dat3m/dartagnan/src/test/resources
  fi
fi
shared="$top_srcdir/../shared"
if [ -n "$cat_dir" ] && [ -f "$cat_dir/rc11.cat" ] && { [ -n "$tests_dir" ] || [ -f "$shared/dat3m-c11/expected-C11.csv" ]; }; then
  "$top_srcdir/scripts/load-foreign-models" "$cat_dir" >"$tmp/dat3m-load"
  n=$(sed -n 's/.*: \([0-9]*\) of [0-9]* loaded$/\1/p' "$tmp/dat3m-load")
  if [ "${n:-0}" -ge 12 ]; then ok "Dat3M's cat/: $n files load"; else bad "Dat3M's cat/: ${n:-no} files load (want 12 or more)"; fi
  others=$(grep '^error' "$tmp/dat3m-load" | grep -v -E '^error   [^ ]*: [^ ]*: error: unknown (name|function) [^ ]*: the model is for [^,]*, whose events \(and the sets and relations naming them\) litmus-check does not have; it checks PTX and C/C\+\+ tests$' | tr '\n' ' ')
  if [ -z "$others" ]; then ok "Dat3M's cat/: every other file gets one error naming an architecture's events"
  else bad "Dat3M's cat/: errors naming no architecture: $others"; fi
  # Every test of each corpus, each model read unchanged; the differences
  # foreign-models/dat3m.known explains are reported, any other fails.
  while read -r model dat3m_csv shared_csv; do
    if [ -n "$tests_dir" ]; then base=$tests_dir csv=$res_dir/$dat3m_csv
    else base=$shared/${shared_csv%/*} csv=$shared/$shared_csv; fi
    want=$(grep -c . "$csv")
    # shellcheck disable=SC2046
    (cd "$base" && LITMUS_MODELS=$cat_dir "$lc" -q --model "$cat_dir/$model" --expect "$csv" \
      $(sed 's/,.*//' "$csv")) >"$tmp/out" 2>&1
    compared=$(sed -n 's/^expect: \([0-9]*\) tests compared.*/\1/p' "$tmp/out")
    grep '^mismatch: ' "$tmp/out" | sed 's/^mismatch: \([^:]*\):.*/\1/' | sort >"$tmp/mism"
    grep "^$model " "$dir/dat3m.known" | cut -d' ' -f2 | sort >"$tmp/known"
    unknown=$(comm -23 "$tmp/mism" "$tmp/known" | tr '\n' ' ')
    known=$(comm -12 "$tmp/mism" "$tmp/known" | tr '\n' ' ' | sed 's/ $//')
    if [ "${compared:-0}" -ne "$want" ]; then bad "Dat3M's $model: ${compared:-no} of $want tests compared: $(grep -v '^mismatch' "$tmp/out" | head -3 | tr '\n' ' ')"
    elif [ -n "$unknown" ]; then bad "Dat3M's $model: verdicts other than Dartagnan's on $unknown"
    else ok "Dat3M's $model: Dartagnan's verdicts on $((want - $(grep -c . "$tmp/mism"))) of $want tests${known:+ (known difference: $known)}"; fi
  done <<'MODELS'
rc11.cat RC11-expected.csv dat3m-c11/expected-RC11.csv
c11.cat C11-expected.csv dat3m-c11/expected-C11.csv
ptx-v7.5.cat PTXv7_5-expected.csv dat3m-ptx/expected-v7.5.csv
ptx-v6.0.cat PTXv6_0-expected.csv dat3m-ptx/expected-v6.0.csv
MODELS
else
  echo "SKIP: no Dat3M cat/ (set DAT3M_CAT or DAT3M_GIT) or no ../shared corpora"
fi
[ $ran = 1 ] || skip "neither herd's libdir nor Dat3M's cat/ at hand"
finish foreign-models
