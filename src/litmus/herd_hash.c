/* herd_hash.c - herd7's test hash for C tests (herd_hash.h).
 * SPDX-License-Identifier: MIT
 *
 * MD5 is written out here (RFC 1321) rather than taken from a crypto
 * library: it is the only digest the project needs, for one line of
 * output, and no library the project already links has it.
 *
 * The reading follows herdtools7's shallow C parser, which is what herd
 * hashes: the text before the first `{` is the header and information
 * lines, then the initial state in braces, then each thread as
 * `[void] Pn(params) { body }` (a bare `{ ... }` between threads is a
 * global block, hashed too), then `locations [...]`, a filter and the
 * condition.  Only the forms herd's C tests use are followed; another
 * form gives -1 rather than a hash herd would not print.
 */
#include "litmus/herd_hash.h"

#include "base/lc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- MD5 (RFC 1321) ---------------------------------------------------------- */

static uint32_t rotl(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }

static void md5_block(uint32_t h[4], const uint8_t *p) {
  static const uint32_t k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
  static const int r[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                            5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                            4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                            6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
  uint32_t w[16];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
           (uint32_t)p[4 * i + 3] << 24;
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
  for (int i = 0; i < 64; i++) {
    uint32_t f;
    int g;
    if (i < 16) f = (b & c) | (~b & d), g = i;
    else if (i < 32) f = (d & b) | (~d & c), g = (5 * i + 1) % 16;
    else if (i < 48) f = b ^ c ^ d, g = (3 * i + 5) % 16;
    else f = c ^ (b | ~d), g = (7 * i) % 16;
    uint32_t t = d;
    d = c;
    c = b;
    b = b + rotl(a + f + k[i] + w[g], r[i]);
    a = t;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d;
}

void lt_md5(const void *data, size_t len, uint8_t out[16]) {
  uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  const uint8_t *p = data;
  size_t n = len;
  for (; n >= 64; n -= 64, p += 64) md5_block(h, p);
  uint8_t last[128] = {0};
  memcpy(last, p, n);
  last[n] = 0x80;
  size_t tail = n < 56 ? 64 : 128;
  uint64_t bits = (uint64_t)len * 8;
  for (int i = 0; i < 8; i++) last[tail - 8 + i] = (uint8_t)(bits >> (8 * i));
  md5_block(h, last);
  if (tail == 128) md5_block(h, last + 64);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) out[4 * i + j] = (uint8_t)(h[i] >> (8 * j));
}

/* ---- herd's reading of a C test ------------------------------------------------ */

typedef struct rd {
  const char *p, *end;
} rd;

static bool is_id0(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_id(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Skips blanks and comments, `(* *)` and `//` (herd's C lexer skips both). */
static void blanks(rd *r) {
  for (;;) {
    while (r->p < r->end && isspace((unsigned char)*r->p)) r->p++;
    if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '/') {
      while (r->p < r->end && *r->p != '\n') r->p++;
      continue;
    }
    if (r->end - r->p >= 2 && r->p[0] == '(' && r->p[1] == '*') {
      int depth = 0;
      while (r->p < r->end) {
        if (r->end - r->p >= 2 && r->p[0] == '(' && r->p[1] == '*') depth++, r->p += 2;
        else if (r->end - r->p >= 2 && r->p[0] == '*' && r->p[1] == ')') {
          r->p += 2;
          if (--depth == 0) break;
        } else r->p++;
      }
      continue;
    }
    return;
  }
}

/* r->p on `{`: the text up to the matching `}` (herd's get_body), r->p
 * after it; false at the end of the text. */
static bool braced(rd *r, const char **s, size_t *n) {
  int depth = 0;
  const char *start = ++r->p;
  for (; r->p < r->end; r->p++) {
    if (*r->p == '{') depth++;
    else if (*r->p == '}' && depth-- == 0) {
      *s = start;
      *n = (size_t)(r->p - start);
      r->p++;
      return true;
    }
  }
  return false;
}

static void md5_buf(const lc_buf *b, lc_buf *into) {
  uint8_t d[16];
  lt_md5(b->s ? b->s : "", b->n, d);
  lc_buf_putn(into, (const char *)d, 16);
}

/* A location of herd's: a register (thread, name) or a global (name). */
typedef struct hloc {
  int thread;        /* -1: a global */
  char *name;
  char *text;        /* an initial state's item as herd prints it */
} hloc;

static int hloc_cmp(const void *a, const void *b) {
  const hloc *x = a, *y = b;
  if ((x->thread < 0) != (y->thread < 0)) return x->thread < 0 ? 1 : -1;
  if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
  return strcmp(x->name, y->name);
}

typedef LC_VEC(hloc) hloc_vec;

static void hlocs_free(hloc_vec *v) {
  for (size_t i = 0; i < v->n; i++) {
    free(v->v[i].name);
    free(v->v[i].text);
  }
  lc_vec_free(v);
}

/* Sorted, each location once (herd's rem_dups after its sort), joined by "; ". */
static void hlocs_print(hloc_vec *v, bool texts, lc_buf *out) {
  if (v->n) qsort(v->v, v->n, sizeof *v->v, hloc_cmp);
  for (size_t i = 0; i < v->n; i++) {
    if (i && hloc_cmp(&v->v[i - 1], &v->v[i]) == 0) continue;
    if (out->n) lc_buf_puts(out, "; ");
    if (texts) lc_buf_puts(out, v->v[i].text);
    else if (v->v[i].thread >= 0) lc_buf_printf(out, "%d:%s", v->v[i].thread, v->v[i].name);
    else lc_buf_puts(out, v->v[i].name);
  }
}

/* Words of s[0..n) split at blanks, with `*` a word of its own. */
typedef LC_VEC(char *) word_vec;

static void split_words(const char *s, size_t n, word_vec *w) {
  for (size_t i = 0; i < n;) {
    if (isspace((unsigned char)s[i])) {
      i++;
      continue;
    }
    size_t j = i + 1;
    if (s[i] != '*')
      while (j < n && !isspace((unsigned char)s[j]) && s[j] != '*') j++;
    lc_vec_push(w, lc_xstrndup(s + i, j - i));
    i = j;
  }
}

static void words_free(word_vec *w) {
  for (size_t i = 0; i < w->n; i++) free(w->v[i]);
  lc_vec_free(w);
}

/* herd's CType.dump of a base type written as words w[0..n) (no `*`):
 * atomic_int and `_Atomic T` are "_Atomic T", `volatile T` "volatile T",
 * `const T` and `T const` "T const", `T volatile` "T volatile". */
static int base_type(char *const *w, size_t n, lc_buf *out) {
  if (n == 1 && strcmp(w[0], "atomic_int") == 0) return lc_buf_puts(out, "_Atomic int"), 0;
  if (n == 1 && is_id0(w[0][0])) return lc_buf_puts(out, w[0]), 0;
  if (n == 2 && (strcmp(w[0], "_Atomic") == 0 || strcmp(w[0], "volatile") == 0) && strcmp(w[1], "atomic_int") != 0)
    return lc_buf_printf(out, "%s %s", w[0], w[1]), 0;
  if (n == 2 && strcmp(w[0], "const") == 0) return lc_buf_printf(out, "%s const", w[1]), 0;
  if (n == 2 && (strcmp(w[1], "const") == 0 || strcmp(w[1], "volatile") == 0))
    return lc_buf_printf(out, "%s %s", w[0], w[1]), 0;
  return -1;
}

/* One parameter `T* name` as herd's dump after strip_pointers prints it:
 * the type less one `*`, then "*", a blank and the name. */
static int param(const char *s, size_t n, lc_buf *out) {
  word_vec w = {0};
  split_words(s, n, &w);
  int rc = -1;
  size_t stars = 0, k = 0;
  char *base[4];
  for (size_t i = 0; i + 1 < w.n; i++) {
    if (strcmp(w.v[i], "*") == 0) stars++;
    else if (stars == 0 && k < LC_ARRAY_LEN(base)) base[k++] = w.v[i];
    else k = LC_ARRAY_LEN(base) + 1;
  }
  if (w.n >= 2 && stars >= 1 && k >= 1 && k <= LC_ARRAY_LEN(base) && is_id0(w.v[w.n - 1][0]) &&
      base_type(base, k, out) == 0) {
    for (size_t i = 0; i < stars; i++) lc_buf_putc(out, '*');
    lc_buf_printf(out, " %s", w.v[w.n - 1]);
    rc = 0;
  }
  words_free(&w);
  return rc;
}

/* `N:name` or `PN:name` at s: the thread, with *len the characters read. */
static int reg_at(const char *s, const char *end, int *thread, size_t *len) {
  const char *p = s;
  if (p < end && *p == 'P') p++;
  if (p >= end || !isdigit((unsigned char)*p)) return -1;
  long t = 0;
  while (p < end && isdigit((unsigned char)*p) && t < 100000) t = t * 10 + (*p++ - '0');
  if (p >= end || *p != ':' || p + 1 >= end || !is_id0(p[1])) return -1;
  *thread = (int)t;
  *len = (size_t)(p + 1 - s);
  return 0;
}

/* One item of the initial state: [type] loc = value. */
static int init_item(const char *s, size_t n, hloc_vec *out) {
  const char *eq = memchr(s, '=', n);
  if (!eq) return -1;
  word_vec lhs = {0};
  split_words(s, (size_t)(eq - s), &lhs);
  const char *v = eq + 1, *vend = s + n;
  while (v < vend && isspace((unsigned char)*v)) v++;
  while (vend > v && isspace((unsigned char)vend[-1])) vend--;
  int rc = -1;
  lc_buf ty;
  lc_buf_init(&ty);
  bool ok_value = vend > v;
  for (const char *q = v; q < vend; q++)
    if (!is_id(*q) && !(q == v && *q == '-')) ok_value = false;
  if (lhs.n >= 1 && ok_value) {
    char *loc = lhs.v[lhs.n - 1];
    size_t ll = strlen(loc);
    size_t nty = lhs.n - 1;
    bool ptr = nty >= 1 && strcmp(lhs.v[nty - 1], "*") == 0;
    if (ptr) nty--;
    if (ll >= 3 && loc[0] == '[' && loc[ll - 1] == ']') loc[ll - 1] = '\0', loc++;
    hloc h = {-1, NULL, NULL};
    int th;
    size_t rl;
    const char *name = NULL;
    if (reg_at(loc, loc + strlen(loc), &th, &rl) == 0) h.thread = th, name = loc + rl;
    else if (is_id0(loc[0])) name = loc;
    bool ok_type = true;
    if (nty == 1 && strcmp(lhs.v[0], "atomic_int") != 0) lc_buf_printf(&ty, "%s ", lhs.v[0]);
    else if (nty == 2 && strcmp(lhs.v[0], "_Atomic") == 0) lc_buf_printf(&ty, "_Atomic %s ", lhs.v[1]);
    else if (nty != 0) ok_type = false;
    if (ptr && nty == 1) {
      ty.n = 0;
      lc_buf_printf(&ty, "%s *", lhs.v[0]);
    } else if (ptr) ok_type = false;
    if (name && ok_type) {
      for (const char *q = name; *q; q++)
        if (!is_id(*q)) ok_type = false;
    }
    if (name && ok_type) {
      h.name = lc_xstrdup(name);
      lc_buf t;
      lc_buf_init(&t);
      if (h.thread >= 0) lc_buf_printf(&t, "%s%d:%s=%.*s", ty.s ? ty.s : "", h.thread, name, (int)(vend - v), v);
      else lc_buf_printf(&t, "%s%s=%.*s", ty.s ? ty.s : "", name, (int)(vend - v), v);
      h.text = lc_buf_take(&t);
      lc_buf_fini(&t);
      lc_vec_push(out, h);
      rc = 0;
    }
  }
  lc_buf_fini(&ty);
  words_free(&lhs);
  return rc;
}

/* The locations of `locations [...]` and of the condition: registers
 * (N:r) and globals (x, [x]) on the left of `=`. */
static int observed(const char *s, const char *end, hloc_vec *out) {
  const char *cond = NULL;
  for (const char *p = s; p < end; p++) {
    if (p > s && is_id(p[-1])) continue;
    if ((end - p >= 6 && strncmp(p, "exists", 6) == 0) || (end - p >= 6 && strncmp(p, "forall", 6) == 0)) cond = p;
  }
  const char *locs = NULL;
  for (const char *p = s; p + 9 <= end; p++)
    if (strncmp(p, "locations", 9) == 0 && (p == s || !is_id(p[-1]))) locs = p + 9;
  if (locs) {
    const char *p = locs;
    while (p < end && isspace((unsigned char)*p)) p++;
    if (p >= end || *p != '[') return -1;
    const char *q = memchr(p, ']', (size_t)(end - p));
    for (p++; q && p < q;) {
      const char *e = memchr(p, ';', (size_t)(q - p));
      if (!e) e = q;
      while (p < e && isspace((unsigned char)*p)) p++;
      const char *z = e;
      while (z > p && isspace((unsigned char)z[-1])) z--;
      if (z > p) {
        hloc h = {-1, NULL, NULL};
        int th;
        size_t rl;
        if (reg_at(p, z, &th, &rl) == 0) h.thread = th, p += rl;
        if (*p == '[' && z[-1] == ']') p++, z--;
        for (const char *c = p; c < z; c++)
          if (!is_id(*c)) return -1;
        h.name = lc_xstrndup(p, (size_t)(z - p));
        lc_vec_push(out, h);
      }
      p = e + 1;
    }
  }
  for (const char *p = cond; p && p < end; p++) {
    /* an atom's operator: =, ==, !=, <=, >= (its last `=`) */
    if (*p != '=' || (p + 1 < end && p[1] == '=')) continue;
    const char *z = p;
    if (z > cond && (z[-1] == '=' || z[-1] == '!' || z[-1] == '<' || z[-1] == '>')) z--;
    while (z > cond && isspace((unsigned char)z[-1])) z--;
    bool bracket = z > cond && z[-1] == ']';
    if (bracket) z--;
    const char *a = z;
    while (a > cond && is_id(a[-1])) a--;
    if (a == z) continue;
    if (bracket && (a == cond || a[-1] != '[')) return -1;   /* x[1]: an array cell */
    hloc h = {-1, NULL, NULL};
    int th;
    size_t rl;
    const char *b = a;
    while (b > cond && (isdigit((unsigned char)b[-1]) || b[-1] == ':' || b[-1] == 'P')) b--;
    if (b < a && reg_at(b, z, &th, &rl) == 0 && b + rl == a) h.thread = th;
    else if (isdigit((unsigned char)*a)) continue;
    h.name = lc_xstrndup(a, (size_t)(z - a));
    lc_vec_push(out, h);
  }
  return 0;
}

int lt_herd_hash(const char *text, size_t len, char out[33]) {
  rd r = {text, text + len};
  blanks(&r);
  if (r.end - r.p < 2 || r.p[0] != 'C' || !isspace((unsigned char)r.p[1])) return -1;
  /* the header line, then the information up to the initial state */
  const char *info = memchr(r.p, '\n', (size_t)(r.end - r.p));
  if (!info) return -1;
  const char *open = NULL;
  bool quoted = false;
  for (const char *p = info; p < r.end && !open; p++) {
    if (*p == '"') quoted = !quoted;
    else if (*p == '{' && !quoted) open = p;
  }
  if (!open) return -1;
  /* Hash= among the information lines wins; the digested keys (memory and
   * cache types) are not followed */
  for (const char *p = info; p < open;) {
    const char *e = memchr(p, '\n', (size_t)(open - p));
    if (!e) e = open;
    while (p < e && isspace((unsigned char)*p)) p++;
    if (e - p > 5 && strncasecmp(p, "hash", 4) == 0) {
      const char *v = p + 4;
      while (v < e && isspace((unsigned char)*v)) v++;
      if (v < e && *v == '=') {
        v++;
        while (v < e && isspace((unsigned char)*v)) v++;
        const char *z = e;
        while (z > v && isspace((unsigned char)z[-1])) z--;
        if (z - v != 32) return -1;
        memcpy(out, v, 32);
        out[32] = '\0';
        return 0;
      }
    }
    if (strncasecmp(p, "memorytype", 10) == 0 || strncasecmp(p, "cachetype", 9) == 0 ||
        (strncasecmp(p, "mt", 2) == 0 && (p[2] == '=' || isspace((unsigned char)p[2]))))
      return -1;
    p = e + 1;
  }
  r.p = open;
  const char *s;
  size_t n;
  if (!braced(&r, &s, &n)) return -1;
  int rc = 0;
  hloc_vec init = {0}, obs = {0};
  for (size_t i = 0; i < n && rc == 0;) {
    const char *e = memchr(s + i, ';', n - i);
    size_t k = e ? (size_t)(e - (s + i)) : n - i;
    bool blank = true;
    for (size_t j = 0; j < k; j++)
      if (!isspace((unsigned char)s[i + j])) blank = false;
    if (!blank) rc = init_item(s + i, k, &init);
    i += k + 1;
  }
  /* the threads: one column each, herd's matrix of one row */
  lc_buf code, cell, pre;
  lc_buf_init(&code);
  lc_buf_init(&cell);
  lc_buf_init(&pre);
  while (rc == 0) {
    blanks(&r);
    const char *save = r.p;
    if (r.end - r.p >= 4 && strncmp(r.p, "void", 4) == 0 && !is_id(r.p[4])) {
      r.p += 4;
      blanks(&r);
    }
    cell.n = 0;
    if (r.p < r.end && *r.p == '{' && r.p == save) {
      if (!braced(&r, &s, &n)) rc = -1;
      else lc_buf_printf(&cell, "{%.*s}\n\n", (int)n, s);
    } else if (r.p < r.end && *r.p == 'P' && r.p + 1 < r.end && isdigit((unsigned char)r.p[1])) {
      long t = 0;
      for (r.p++; r.p < r.end && isdigit((unsigned char)*r.p) && t < 100000; r.p++) t = t * 10 + (*r.p - '0');
      blanks(&r);
      const char *ps = r.p + 1, *pe = r.p < r.end && *r.p == '(' ? memchr(r.p, ')', (size_t)(r.end - r.p)) : NULL;
      if (!pe) {
        rc = -1;
        break;
      }
      pre.n = 0;
      for (const char *p = ps; p <= pe && rc == 0;) {
        const char *c = memchr(p, ',', (size_t)(pe - p));
        if (!c) c = pe;
        if (pre.n) lc_buf_puts(&pre, ", ");
        rc = param(p, (size_t)(c - p), &pre);
        p = c + 1;
      }
      r.p = pe + 1;
      blanks(&r);
      if (rc == 0 && (r.p >= r.end || *r.p != '{' || !braced(&r, &s, &n))) rc = -1;
      if (rc == 0) lc_buf_printf(&cell, "P%ld(%s) {\n%.*s\n}\n", t, pre.s ? pre.s : "", (int)n, s);
    } else {
      r.p = save;
      break;
    }
    if (rc == 0) lc_buf_printf(&code, "|%s%s ", " ", cell.s);
  }
  if (rc == 0 && code.n == 0) rc = -1;
  if (rc == 0) rc = observed(r.p, r.end, &obs);
  if (rc == 0) {
    /* herd's fmt_line: cells " c " joined by "|", then ";\n" */
    lc_buf line, all, part;
    lc_buf_init(&line);
    lc_buf_init(&all);
    lc_buf_init(&part);
    lc_buf_putn(&line, code.s + 1, code.n - 1);
    lc_buf_puts(&line, ";\n");
    hlocs_print(&init, true, &part);
    md5_buf(&part, &all);
    md5_buf(&line, &all);
    part.n = 0;
    hlocs_print(&obs, false, &part);
    md5_buf(&part, &all);
    uint8_t d[16];
    lt_md5(all.s, all.n, d);
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
    lc_buf_fini(&line);
    lc_buf_fini(&all);
    lc_buf_fini(&part);
  }
  lc_buf_fini(&code);
  lc_buf_fini(&cell);
  lc_buf_fini(&pre);
  hlocs_free(&init);
  hlocs_free(&obs);
  return rc;
}
