#!/bin/sh
# bounds.sh - big and deep input ends in a clear error or a bounded unknown
# (exit 3), never a signal, an abort or unbounded growth (issue 22).  The
# inputs are written here, at test time (awk), not stored:
#  - C++: `int r0 = 1 + 1 + ... ;` of 20,000 terms (overflowed the stack in
#    lowering): an error at file:line:col, exit 2;
#  - cat: 30,000 nested parentheses (overflowed the parser's stack): an
#    error, exit 2; 100,000-term `|` and `;` chains: loaded, the test checked;
#  - PTX: one thread of 200 `st.weak x, i`, default options: the explicit
#    engine, within seconds (auto sent such chains to Z3: 100 stores took
#    it 90 s and 1.35 GB, 200 ran it out of memory; the explicit engine
#    took 17.5 s until it decided neighbouring co pairs first, 0.3 s since);
#  - PTX: 100,000 stores (2 MB) under --max-memory 256M, in a batch with
#    MP: "out of memory (--max-memory 256M)", exit 3, MP still checked,
#    text and JSON ("unknown");
#  - a folder with symbolic link loops: each folder searched once, with a
#    warning;
#  - a fuzzer's timeout: lowering a 40-line test took 14 s;
#  - another: a 20-line test of 29,000 events, lowering deaf to --timeout;
#  - every mode under --timeout and --max-memory, on hostile inputs:
#    --events and --lint on those 29,000 events (13 s and 10 s past
#    --timeout 1), --check-mapping on 2^41 combinations, a mapping row of
#    20,000 alternatives under --max-memory 128M (a copy of the list per
#    '|': 8,000 took 1.5 GB), a NUL in a table, a cat model whose 40
#    levels each call the one below twice (never ended), 20,000 unnamed
#    checks (4,000 took 49 s), 30,000 lets (20,000 took 10 s), 30,000
#    aliases in a chain (quadratic under --print, 10 s, and in lowering,
#    past 10 s), 60,000 C++ locals and
#    20,000 parameters under --print (6 s, 7.6 s);
#  - exit status 4 is in --help.
set -u
. "$(dirname "$0")/lib.sh"
source_models
make_tmp
cd "$abs_top_srcdir" || exit 99

# no_signal WHAT: the last command (timed) ended by itself
no_signal() {
  if [ "$rc" -lt 128 ]; then ok "$1: no signal"; else bad "$1: exit status $rc (a signal)"; cat "$tmp/$_name.err"; fi
}
# says NAME TEXT WHAT: NAME's stderr holds TEXT
says() {
  if grep -qF -- "$2" "$tmp/$1.err"; then ok "$3: says '$2'"; else bad "$3: does not say '$2'"; head -c 600 "$tmp/$1.err"; fi
}

# ---- C++: a 20,000-term sum
awk 'BEGIN { printf "C deep\n{ [x] = 0; }\nP0@cta 0,gpu 0 (atomic_int* x) {\n  int r0 = 1";
             for (i = 1; i < 20000; i++) printf " + 1";
             printf ";\n  atomic_store_explicit(x, r0, memory_order_relaxed);\n}\nexists (x == 1)\n" }' >"$tmp/deep.litmus"
timed cpp "$lc" "$tmp/deep.litmus"
no_signal "20,000-term C++ sum"
exit_was 2 "20,000-term C++ sum"
says cpp "deep.litmus:4:4010: error: expression too deep (more than 1000 operators on one path)" "20,000-term C++ sum"

# ---- cat: deep parentheses, long chains
awk 'BEGIN { printf "\"parens\"\nlet r = "; for (i = 0; i < 30000; i++) printf "(";
             printf "po"; for (i = 0; i < 30000; i++) printf ")"; printf "\nacyclic r as a\n" }' >"$tmp/parens.cat"
timed parens "$lc" -m "$tmp/parens.cat" litmus/MP.litmus
no_signal "30,000 nested parentheses in a cat file"
exit_was 2 "30,000 nested parentheses in a cat file"
says parens "parens.cat:2:265: error: expression too deep (more than 256 nested parentheses" "30,000 nested parentheses"
for op in '|' ';'; do
  awk -v op="$op" 'BEGIN { printf "\"chain\"\nlet r = po"; for (i = 1; i < 100000; i++) printf " %s po", op;
                           printf "\nacyclic r as a\n" }' >"$tmp/chain.cat"
  timed chain "$lc" -m "$tmp/chain.cat" litmus/MP.litmus
  exit_was 0 "a 100,000-term '$op' chain in a cat file"
  grep -q '^Observation MP' "$tmp/chain.out" && ok "'$op' chain: MP checked" || bad "'$op' chain: MP not checked"
done

# ---- one thread of 200 stores, default options
awk 'BEGIN { printf "PTX W200\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n";
             for (i = 1; i <= 200; i++) printf " st.weak x, %d ;\n", i; printf "exists (x == 200)\n" }' >"$tmp/W200.litmus"
timed w200 "$lc" --json "$tmp/W200.litmus"
exit_was 0 "200 stores of one thread"
grep -q '"engine":"enum".*"verdict":"Ok"' "$tmp/w200.out" && ok "200 stores: the explicit engine, Ok" ||
  bad "200 stores: $(head -c 300 "$tmp/w200.out")"
within 10 "200 stores of one thread"

# ---- 2 MB of PTX under --max-memory 256M, in a batch
awk 'BEGIN { printf "PTX big\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n";
             for (i = 0; i < 100000; i++) printf " st.weak x, %d ;\n", i; printf "exists (x == 1)\n" }' >"$tmp/big.litmus"
timed big "$lc" --max-memory 256M "$tmp/big.litmus" litmus/MP.litmus
no_signal "2 MB test under --max-memory 256M"
exit_was 3 "2 MB test under --max-memory 256M"
# refused as it is lowered: its 100,001 events' static relations alone
# would take 21 GB
says big "big.litmus:1:5: error: out of memory (--max-memory 256M): big has 100001 events" "2 MB test"
grep -q '^Observation MP' "$tmp/big.out" && ok "2 MB test: the batch went on (MP)" || bad "2 MB test: MP not checked"
timed bigjson "$lc" --json --max-memory 256M "$tmp/big.litmus"
exit_was 3 "2 MB test, --json"
grep -q '"status":"unknown","message":"out of memory (--max-memory 256M): big has 100001 events.*; no verdict"' "$tmp/bigjson.out" &&
  ok "2 MB test, --json: unknown" || bad "2 MB test, --json: $(head -c 300 "$tmp/bigjson.out")"
timed badsize "$lc" --max-memory 12Q litmus/MP.litmus
exit_was 2 "--max-memory 12Q"

# ---- lowering's values: a fixed point over 4096 values per location, a
# linear search per value, took 14 s on this 40-line test (found by
# scripts/fuzz-parse lower as a timeout)
timed allins "$lc" --events tests/fuzz/seeds/all-instructions.litmus
exit_was 0 "--events all-instructions.litmus"
within 5 "--events all-instructions.litmus"

# ---- two back edges to one label: 29,000 events, whose static relations
# (quadratic) lowering built past --timeout, in the check's own process
# (found by scripts/fuzz-parse lower as a timeout)
# every spin retry unrolled: kept once, its paths lower in time
timed paths "$lc" --timeout 1 --all-retries tests/fuzz/seeds/loop-paths.litmus
exit_was 3 "--timeout 1 on 29,000 events"
says paths "out of time (--timeout 1 s) while lowering loop-paths to events" "--timeout 1 on 29,000 events"
within 4 "--timeout 1 on 29,000 events"

# ---- every mode under --timeout: --events and --lint lower in the test's
# process apart, to the deadline (they ran in one process, deaf to it)
for mode in --events --lint; do
  timed "mode$mode" "$lc" --timeout 1 "$mode" tests/fuzz/seeds/loop-paths.litmus
  exit_was 3 "$mode --timeout 1 on 29,000 events"
  # lowering's own message, or the parent's kill (on a loaded machine)
  says "mode$mode" "loop-paths.litmus" "$mode --timeout 1"
  says "mode$mode" ": error: out of time (--timeout 1 s)" "$mode --timeout 1"
  within 2.05 "$mode --timeout 1 on 29,000 events"
done
# --check-mapping: 41 seq_cst accesses, two alternatives each
awk 'BEGIN { printf "C manysc\n{ [x] = 0; }\nP0 (atomic_int* x) {\n";
             for (i = 0; i < 40; i++) printf "  int r%d = atomic_load_explicit(x, memory_order_seq_cst);\n", i;
             printf "}\nP1 (atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_seq_cst);\n}\nexists (x == 1)\n" }' >"$tmp/manysc.litmus"
timed cmtime "$lc" --check-mapping ptx-abi --timeout 1 "$tmp/manysc.litmus"
exit_was 3 "--check-mapping --timeout 1 on 2^41 combinations"
says cmtime "litmus-check: error: out of time (--timeout 1 s) while checking $tmp/manysc.litmus" "--check-mapping --timeout 1"
within 2.05 "--check-mapping --timeout 1 on 2^41 combinations"

# ---- mapping tables: 20,000 alternatives in linear memory; a NUL named
{ grep -v '^load  na' mappings/ptx-abi.map; echo 'load  na      -> ld.weak'
  awk 'BEGIN { for (i = 0; i < 20000; i++) print "              | fence.sc.gpu; ld.weak" }'; } >"$tmp/alts.map"
timed alts "$lc" --lower "$tmp/alts.map" --max-memory 128M litmus/cuda-cpp/MP+rlx.litmus
exit_was 0 "--lower through 20,000 alternatives under --max-memory 128M"
within 5 "--lower through 20,000 alternatives"
timed altsc "$lc" --check-mapping "$tmp/alts.map" --max-memory 128M --timeout 5 litmus/cuda-cpp/MP+rlx.litmus
exit_was 0 "--check-mapping through 20,000 alternatives under --max-memory 128M"
printf 'name nul\nload  na -> ld.weak\000\n' >"$tmp/nul.map"
timed nulmap "$lc" --lower "$tmp/nul.map" litmus/cuda-cpp/MP+rlx.litmus
exit_was 2 "a NUL in a mapping table"
says nulmap "nul.map:2:20: error: unexpected byte 0x00" "a NUL in a mapping table"

# ---- cat: expansions capped, unnamed checks named in linear time
awk 'BEGIN { print "\"exp\""; print "let f0(r) = r";
             for (i = 1; i <= 40; i++) printf "let f%d(r) = f%d(r) | f%d(r ; r)\n", i, i - 1, i - 1;
             print "acyclic f40(po) as a" }' >"$tmp/exp.cat"
timed exp "$lc" --timeout 2 -m "$tmp/exp.cat" litmus/MP.litmus
exit_was 2 "a cat model of 40 levels of double calls"
says exp "error: expanding 'f" "40 levels of double calls"
says exp "makes the model too large (more than 200000 nodes made by expanding functions and procedures" "40 levels of double calls"
within 3.1 "a cat model of 40 levels of double calls"
awk 'BEGIN { print "\"unnamed\""; for (i = 0; i < 20000; i++) print "acyclic po" }' >"$tmp/unnamed.cat"
timed unnamed "$lc" --timeout 5 -m "$tmp/unnamed.cat" litmus/MP.litmus
exit_was 0 "20,000 unnamed checks"
within 6.25 "20,000 unnamed checks"
# each name looked up down the list of every definition before it: 20,000
# lets took 10 s
awk 'BEGIN { print "\"lets\""; for (i = 0; i < 30000; i++) printf "let a%d = po | rf\n", i; print "acyclic a29999 | a0 as a" }' >"$tmp/lets.cat"
timed lets "$lc" --timeout 5 -m "$tmp/lets.cat" litmus/MP.litmus
exit_was 0 "30,000 lets"
within 6.25 "30,000 lets"

# ---- the front end in linear time: an alias chain, C++ locals
awk 'BEGIN { printf "PTX aliases\n{\nx0=0;\n"; for (i = 1; i < 30000; i++) printf "x%d @ generic aliases x%d;\n", i, i - 1;
             printf "}\n P0@cta 0,gpu 0 ;\n st.weak x29999, 1 ;\nexists (x0 == 1)\n" }' >"$tmp/aliases.litmus"
timed aliases "$lc" --timeout 3 --print "$tmp/aliases.litmus"
exit_was 0 "--print, 30,000 aliases in a chain"
within 4.15 "--print, 30,000 aliases in a chain"
timed aliasck "$lc" --timeout 3 "$tmp/aliases.litmus"   # lowering: each link searched the init block, recursively
exit_was 0 "checking 30,000 aliases in a chain"
within 4.15 "checking 30,000 aliases in a chain"
awk 'BEGIN { printf "C locals\n{ [x] = 0; }\nP0 (atomic_int* x) {\n"; for (i = 0; i < 60000; i++) printf "  int r%d = %d;\n", i, i;
             printf "  atomic_store_explicit(x, r59999, memory_order_relaxed);\n}\nexists (0:r59999 == 1)\n" }' >"$tmp/locals.litmus"
timed locals "$lc" --timeout 3 --print "$tmp/locals.litmus"
exit_was 0 "--print, 60,000 C++ locals"
within 4.15 "--print, 60,000 C++ locals"
awk 'BEGIN { printf "C params\n{ [x] = 0; }\nP0 (atomic_int* x"; for (i = 0; i < 20000; i++) printf ", int* p%d", i;
             printf ") {\n"; for (i = 0; i < 20000; i++) printf "  *p%d = 1;\n", i; printf "}\nexists (x == 1)\n" }' >"$tmp/params.litmus"
timed params "$lc" --timeout 3 --print "$tmp/params.litmus"   # a search per use: 7.6 s
exit_was 0 "--print, 20,000 C++ parameters"
within 4.15 "--print, 20,000 C++ parameters"

# ---- the exit statuses, 4 included, are in --help
"$lc" --help >"$tmp/help.out" 2>&1
grep -q "4 litmus-check itself out of memory" "$tmp/help.out" && ok "--help: exit status 4" || bad "--help does not document exit status 4"

# ---- symbolic link loops
mkdir -p "$tmp/loop/a"
cp litmus/MP.litmus "$tmp/loop/a/"
ln -s .. "$tmp/loop/a/up"
ln -s ../loop "$tmp/loop/self"
timed loop timeout 20 "$lc" -q "$tmp/loop"
exit_was 0 "a folder with symbolic link loops"
says loop "loop/a/up: skipped: a folder already searched" "symbolic link loop"
says loop "loop/self: skipped: a folder already searched" "symbolic link loop"

finish bounds
