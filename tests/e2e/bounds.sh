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
#  - another: a 20-line test of 29,000 events, lowering deaf to --timeout.
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
says big "big.litmus: error: out of memory (--max-memory 256M); no verdict" "2 MB test"
grep -q '^Observation MP' "$tmp/big.out" && ok "2 MB test: the batch went on (MP)" || bad "2 MB test: MP not checked"
timed bigjson "$lc" --json --max-memory 256M "$tmp/big.litmus"
exit_was 3 "2 MB test, --json"
grep -q '"status":"unknown","message":"out of memory (--max-memory 256M); no verdict"' "$tmp/bigjson.out" &&
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
timed paths "$lc" --timeout 1 tests/fuzz/seeds/loop-paths.litmus
exit_was 3 "--timeout 1 on 29,000 events"
says paths "out of time (--timeout 1 s) while lowering loop-paths to events" "--timeout 1 on 29,000 events"
within 4 "--timeout 1 on 29,000 events"

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
