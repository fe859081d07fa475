/* gpu_ptx.c - herd's legacy GPU_PTX dialect (herdtools7's catalogue/ptx
 * tests until 2021, Alglave et al., ASPLOS 2015), read as PTX.
 * SPDX-License-Identifier: MIT
 *
 * A GPU_PTX test differs from the PTX dialect in three places only:
 *   - its header word, GPU_PTX;
 *   - its registers are declared in the init block, `0:.reg .s32 r0;`,
 *     those holding an address with its location, `0:.reg .b64 r1 = x;`;
 *   - threads are placed by a scope tree after the code,
 *     `scopeTree (device (kernel (cta (warp P0)) (cta (warp P1))))`,
 *     instead of on the thread row.
 * The code (`mov.s32 r0,1`, `st.cg.s32 [r1],r0`, `ld.cg.s32 r0,[r1]`,
 * `membar.gl`), the memory map (`x: global`) and the condition are the
 * PTX dialect's already.  So the test is rewritten into the PTX dialect,
 * line for line (a position in the rewritten text is on the line of the
 * original), and parsed as any PTX test: the header becomes PTX, a
 * declaration `N:rK=V` or nothing, the thread row `P0@cta C,gpu G`, the
 * scope tree blank lines.  In the tree, each `device` is a GPU and each
 * `cta` a CTA of it (numbered per GPU, as the PTX dialect numbers them);
 * `kernel` and `warp` group threads within those and have no scope of
 * their own in the PTX model; a thread outside any cta gets one of its own
 * (on GPU 0 when the tree leaves it out); several trees side by side are
 * several devices.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litmus/parse_int.h"

enum { GP_MAX_THREADS = 256 };

typedef struct gp_place {
  int cta[GP_MAX_THREADS], gpu[GP_MAX_THREADS];
  bool seen[GP_MAX_THREADS];
} gp_place;

static bool starts_word(const char *p, const char *w) {
  size_t n = strlen(w);
  return strncmp(p, w, n) == 0 && !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

bool lt_gpu_ptx_is(const lc_source *src) {
  const char *p = src->text;
  while (p < src->text + src->len && isspace((unsigned char)*p)) p++;
  return (size_t)(p - src->text) + 7 <= src->len && starts_word(p, "GPU_PTX");
}

/* The scope tree from p (just after `scopeTree`) to its last ')': the
 * placement of each thread; *end after it.  -1 with *err on a malformed
 * tree. */
static int scope_tree(const char *p, const char *lim, gp_place *pl, const char **end, const char **err) {
  int depth = 0, gpu = -1, cta_next = 0, cta = -1;
  int cta_depth = -1, gpu_depth = -1;
  while (p < lim && isspace((unsigned char)*p)) p++;
  if (p >= lim || *p != '(') {
    *err = "expected '(' after scopeTree";
    return -1;
  }
  do {
    if (*p == '(') {
      depth++;
      p++;
      while (p < lim && isspace((unsigned char)*p)) p++;
      const char *w = p;
      while (p < lim && (isalnum((unsigned char)*p) || *p == '_')) p++;
      size_t n = (size_t)(p - w);
      if (n == 6 && !strncmp(w, "device", 6)) {
        gpu++;
        gpu_depth = depth;
        cta_next = 0;
      } else if (n == 3 && !strncmp(w, "cta", 3)) {
        if (gpu < 0) gpu = 0, gpu_depth = 0;
        cta = cta_next++;
        cta_depth = depth;
      } else if (!(n == 6 && !strncmp(w, "kernel", 6)) && !(n == 4 && !strncmp(w, "warp", 4))) {
        *err = "expected device, kernel, cta or warp after '(' in the scope tree";
        return -1;
      }
    } else if (*p == ')') {
      if (depth == cta_depth) cta_depth = -1, cta = -1;
      if (depth == gpu_depth) gpu_depth = -1;
      depth--;
      p++;
    } else if (*p == 'P' && isdigit((unsigned char)p[1])) {
      long t = strtol(p + 1, (char **)&p, 10);
      if (t < 0 || t >= GP_MAX_THREADS) {
        *err = "a thread number out of range in the scope tree";
        return -1;
      }
      if (pl->seen[t]) {
        *err = "a thread placed twice in the scope tree";
        return -1;
      }
      pl->seen[t] = true;
      pl->gpu[t] = gpu < 0 ? 0 : gpu;
      pl->cta[t] = cta < 0 ? -1 : cta;   /* none: one of its own, below */
    } else if (isspace((unsigned char)*p)) {
      p++;
    } else {
      *err = "unexpected character in the scope tree";
      return -1;
    }
    if (depth == 0) {   /* another tree beside it: (device ...) (device ...) */
      const char *q = p;
      while (q < lim && (*q == ' ' || *q == '\t')) q++;
      if (q < lim && *q == '(') p = q;
    }
  } while (p < lim && (depth > 0 || *p == '('));
  if (depth) {
    *err = "the scope tree's parentheses do not close";
    return -1;
  }
  /* a thread in no cta: a CTA of its own on its GPU */
  int most[GP_MAX_THREADS] = {0};
  for (int t = 0; t < GP_MAX_THREADS; t++)
    if (pl->seen[t] && pl->cta[t] >= most[pl->gpu[t]]) most[pl->gpu[t]] = pl->cta[t] + 1;
  for (int t = 0; t < GP_MAX_THREADS; t++)
    if (pl->seen[t] && pl->cta[t] < 0) pl->cta[t] = most[pl->gpu[t]]++;
  *end = p;
  return 0;
}

/* One init entry (text without its ';'): `N:.reg .T rK [= V]` becomes
 * `N:rK=V` or nothing; anything else stays.  Newlines are kept. */
static void init_entry(lc_buf *b, const char *e, size_t n) {
  const char *p = e, *lim = e + n;
  while (p < lim && isspace((unsigned char)*p)) p++;
  const char *tid = p;
  while (p < lim && isdigit((unsigned char)*p)) p++;
  const char *tend = p;
  bool reg = tend > tid && p < lim && *p == ':';
  if (reg) {
    p++;
    while (p < lim && isspace((unsigned char)*p)) p++;
    reg = lim - p > 4 && !strncmp(p, ".reg", 4) && isspace((unsigned char)p[4]);
  }
  if (!reg) {
    lc_buf_putn(b, e, n);
    return;
  }
  p += 4;
  while (p < lim && isspace((unsigned char)*p)) p++;
  if (p < lim && *p == '.')   /* the type */
    while (p < lim && !isspace((unsigned char)*p)) p++;
  while (p < lim && isspace((unsigned char)*p)) p++;
  const char *r = p;
  while (p < lim && (isalnum((unsigned char)*p) || *p == '_')) p++;
  const char *rend = p;
  while (p < lim && isspace((unsigned char)*p)) p++;
  const char *v = NULL, *vend = NULL;
  if (p < lim && *p == '=') {
    p++;
    while (p < lim && isspace((unsigned char)*p)) p++;
    v = p;
    while (p < lim && !isspace((unsigned char)*p)) p++;
    vend = p;
  }
  if (v) lc_buf_printf(b, "%.*s:%.*s=%.*s", (int)(tend - tid), tid, (int)(rend - r), r, (int)(vend - v), v);
  for (const char *q = e; q < lim; q++)
    if (*q == '\n') lc_buf_putc(b, '\n');
}

/* The thread row `P0 | P1 ;` with each thread placed; a thread the tree
 * leaves out in a CTA of its own on GPU 0. */
static void thread_row(lc_buf *b, const char *s, size_t n, gp_place *pl) {
  int free_cta = 0;
  for (int t = 0; t < GP_MAX_THREADS; t++)
    if (pl->seen[t] && pl->gpu[t] == 0 && pl->cta[t] >= free_cta) free_cta = pl->cta[t] + 1;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == 'P' && i + 1 < n && isdigit((unsigned char)s[i + 1]) && (i == 0 || !isalnum((unsigned char)s[i - 1]))) {
      char *end;
      long t = strtol(s + i + 1, &end, 10);
      size_t len = (size_t)(end - (s + i));
      lc_buf_putn(b, s + i, len);
      if (t >= 0 && t < GP_MAX_THREADS && !pl->seen[t]) {
        pl->seen[t] = true;
        pl->gpu[t] = 0;
        pl->cta[t] = free_cta++;
      }
      if (t >= 0 && t < GP_MAX_THREADS) lc_buf_printf(b, "@cta %d,gpu %d", pl->cta[t], pl->gpu[t]);
      i += len - 1;
    } else {
      lc_buf_putc(b, s[i]);
    }
  }
}

char *lt_gpu_ptx_rewrite(const lc_source *src, lc_loc *at, const char **err) {
  const char *text = src->text, *lim = text + src->len;
  gp_place pl;
  memset(&pl, 0, sizeof pl);
  /* the scope tree first: the thread row needs it */
  const char *tree = NULL, *tree_end = NULL;
  for (const char *p = text; p < lim; p++) {
    if ((p == text || p[-1] == '\n') && starts_word(p, "scopeTree")) {
      tree = p;
      if (scope_tree(p + 9, lim, &pl, &tree_end, err) < 0) {
        int line = 1;
        for (const char *q = text; q < p; q++) line += *q == '\n';
        *at = (lc_loc){src->name, line, 1};
        return NULL;
      }
      break;
    }
  }
  lc_buf b;
  lc_buf_init(&b);
  const char *p = text;
  while (p < lim && isspace((unsigned char)*p)) lc_buf_putc(&b, *p++);
  lc_buf_puts(&b, "PTX    ");   /* GPU_PTX, columns kept */
  p += 7;
  /* the init block: the first '{' after the header line's doc */
  const char *open = memchr(p, '{', (size_t)(lim - p));
  const char *close = open ? memchr(open, '}', (size_t)(lim - open)) : NULL;
  if (!open || !close) {
    lc_buf_putn(&b, p, (size_t)(lim - p));
    return lc_buf_take(&b);   /* the PTX parser says what is missing */
  }
  lc_buf_putn(&b, p, (size_t)(open + 1 - p));
  for (const char *e = open + 1; e < close;) {
    const char *semi = memchr(e, ';', (size_t)(close - e));
    const char *eend = semi ? semi : close;
    init_entry(&b, e, (size_t)(eend - e));
    if (semi) lc_buf_putc(&b, ';');
    e = semi ? semi + 1 : close;
  }
  p = close;
  /* the thread row: the first line after the block that starts with P0 */
  bool row_done = false;
  while (p < lim) {
    const char *nl = memchr(p, '\n', (size_t)(lim - p));
    const char *eol = nl ? nl + 1 : lim;
    const char *q = p;
    while (q < eol && (*q == ' ' || *q == '\t')) q++;
    if (tree && p >= tree && p < tree_end) {
      /* the scope tree: its lines blank, what follows it on its last line kept */
      const char *stop = eol < tree_end ? eol : tree_end;
      for (const char *c = p; c < stop; c++)
        if (*c == '\n') lc_buf_putc(&b, '\n');
      if (eol > tree_end) lc_buf_putn(&b, tree_end, (size_t)(eol - tree_end));
    } else if (!row_done && q + 1 < eol && q[0] == 'P' && isdigit((unsigned char)q[1])) {
      thread_row(&b, p, (size_t)(eol - p), &pl);
      row_done = true;
    } else {
      lc_buf_putn(&b, p, (size_t)(eol - p));
    }
    p = eol;
  }
  return lc_buf_take(&b);
}
