# hunt.awk - the held-out shapes of scripts/bench-herd --hunt, as PTX
# tests in litmus-gen's layout: awk -v fam=FAMILY -v n=N -f hunt.awk.
# Every operation is at gpu scope (bench-herd moves them to FAMILY-N@SCOPE
# whole) but in mpscm, whose fences go round cta, gpu and sys; each
# thread is in a CTA of its own.  The condition names every register
# (and the locations of co-heavy shapes), so that every state is listed.
#   ww     N threads each writing x then y: N! coherence orders of each
#   ww-sc  the same with fence.sc between the two writes
#   coww   N threads each writing x twice
#   rmw    N exchanges on x, and a thread reading x twice
#   mpsc   message passing through N threads, fence.sc in each
#   mpscm  the same, the fences' scopes going round cta, gpu, sys
#   lb     load buffering around N threads
#   long   N threads of four accesses: two chains around the ring
#   sr     S and R shapes alternating around N threads (W;W and W;R)
function loc(i) { return "x" i }
function add(t, s) { ins[t, cnt[t]++] = s }
BEGIN {
  nt = n
  if (fam == "ww") {          # N threads each writing x then y: co on both
    for (t = 0; t < n; t++) { add(t, "st.relaxed.gpu x, " t + 1); add(t, "st.relaxed.gpu y, " t + 1) }
    locs = "x y"; cond = "exists (x == 1 /\\ y == 1)"
  } else if (fam == "ww-sc") { # the same, fence.sc between the writes
    for (t = 0; t < n; t++) { add(t, "st.relaxed.gpu x, " t + 1); add(t, "fence.sc.gpu"); add(t, "st.relaxed.gpu y, " t + 1) }
    locs = "x y"; cond = "exists (x == 1 /\\ y == 1)"
  } else if (fam == "coww") {  # N threads each writing x twice
    for (t = 0; t < n; t++) { add(t, "st.relaxed.gpu x, " 2 * t + 1); add(t, "st.relaxed.gpu x, " 2 * t + 2) }
    locs = "x"; cond = "exists (x == 1)"
  } else if (fam == "rmw") {   # N exchanges on x and a reader
    for (t = 0; t < n; t++) add(t, "atom.relaxed.gpu.exch r0, x, " t + 1)
    add(n, "ld.relaxed.gpu r0, x"); add(n, "ld.relaxed.gpu r1, x"); nt = n + 1
    locs = "x"; cond = "exists ("; for (t = 0; t < n; t++) cond = cond "P" t ":r0 == " t " /\\ "; cond = cond "P" n ":r0 == 2 /\\ P" n ":r1 == 1)"
  } else if (fam == "mpsc") {  # message passing through N threads, fence.sc in each
    add(0, "st.relaxed.gpu x0, 1"); add(0, "fence.sc.gpu"); add(0, "st.relaxed.gpu x1, 1")
    for (t = 1; t < n - 1; t++) { add(t, "ld.relaxed.gpu r0, x" t); add(t, "fence.sc.gpu"); add(t, "st.relaxed.gpu x" t + 1 ", 1") }
    add(n - 1, "ld.relaxed.gpu r0, x" n - 1); add(n - 1, "fence.sc.gpu"); add(n - 1, "ld.relaxed.gpu r1, x0")
    for (t = 0; t < n; t++) locs = locs " x" t
    cond = "exists ("; for (t = 1; t < n; t++) cond = cond "P" t ":r0 == 1 /\\ "; cond = cond "P" n - 1 ":r1 == 0)"
  } else if (fam == "mpscm") {
    split("cta gpu sys", S, " ")
    add(0, "st.relaxed.gpu x0, 1"); add(0, "fence.sc." S[1]); add(0, "st.relaxed.gpu x1, 1")
    for (t = 1; t < n - 1; t++) { add(t, "ld.relaxed.gpu r0, x" t); add(t, "fence.sc." S[t % 3 + 1]); add(t, "st.relaxed.gpu x" t + 1 ", 1") }
    add(n - 1, "ld.relaxed.gpu r0, x" n - 1); add(n - 1, "fence.sc." S[(n - 1) % 3 + 1]); add(n - 1, "ld.relaxed.gpu r1, x0")
    for (t = 0; t < n; t++) locs = locs " x" t
    cond = "exists ("; for (t = 1; t < n; t++) cond = cond "P" t ":r0 == 1 /\\ "; cond = cond "P" n - 1 ":r1 == 0)"
  } else if (fam == "lb") {    # load buffering ring
    for (t = 0; t < n; t++) { add(t, "ld.relaxed.gpu r0, x" t); add(t, "st.relaxed.gpu x" (t + 1) % n ", 1"); locs = locs " x" t }
    cond = "exists ("; for (t = 0; t < n; t++) cond = cond (t ? " /\\ " : "") "P" t ":r0 == 1"; cond = cond ")"
  } else if (fam == "long") {  # chains of threads with four accesses each
    for (t = 0; t < n; t++) {
      add(t, "ld.relaxed.gpu r0, x" t); add(t, "st.relaxed.gpu y" t ", 1")
      add(t, "ld.relaxed.gpu r1, y" (t + n - 1) % n); add(t, "st.relaxed.gpu x" (t + 1) % n ", 1")
      locs = locs " x" t " y" t
    }
    cond = "exists ("; for (t = 0; t < n; t++) cond = cond (t ? " /\\ " : "") "P" t ":r0 == 1 /\\ P" t ":r1 == 0"; cond = cond ")"
  } else if (fam == "sr") {    # S and R shapes around a ring: W;W then W;R
    for (t = 0; t < n; t++) {
      add(t, "st.relaxed.gpu x" t ", 2")
      if (t % 2) add(t, "ld.relaxed.gpu r0, x" (t + 1) % n); else add(t, "st.relaxed.gpu x" (t + 1) % n ", 1")
      locs = locs " x" t
    }
    cond = "exists ("; for (t = 0; t < n; t++) cond = cond (t ? " /\\ " : "") (t % 2 ? "P" t ":r0 == 0" : "x" t " == 2"); cond = cond ")"
  } else { print "hunt.awk: no family " fam > "/dev/stderr"; exit 1 }
  printf "PTX %s-%d\n\"%s\"\n{\n", fam, n, "A held-out shape of bench-herd."
  m = split(locs, L, " "); for (i = 1; i <= m; i++) print L[i] "=0;"
  print "}"
  w = 0
  for (t = 0; t < nt; t++) { hd[t] = sprintf(" P%d@cta %d,gpu 0", t, t); if (cnt[t] > rows) rows = cnt[t] }
  line = ""; for (t = 0; t < nt; t++) line = line (t ? " |" : "") hd[t]; print line " ;"
  for (r = 0; r < rows; r++) {
    line = ""; for (t = 0; t < nt; t++) line = line (t ? " | " : " ") (r < cnt[t] ? ins[t, r] : ""); print line " ;"
  }
  print cond
}
