/* lc.c - memory, arenas, string buffers, sources and diagnostics.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L
#include "lc.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- memory ---------------------------------------------------------- */

void lc_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("litmus-check: fatal: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

/* _exit: no atexit handlers (Z3's static destructors) run short of
 * memory, and a forked child flushes none of its parent's buffers. */
void lc_out_of_memory(const char *what) {
  fflush(stdout);
  fprintf(stderr, "litmus-check: fatal: out of memory (%s)\n", what);
  fflush(stderr);
  _exit(LC_EXIT_NO_MEMORY);
}

static LC_NORETURN void no_memory(size_t n, size_t size) {
  char what[64];
  if (size) snprintf(what, sizeof what, "%zu x %zu bytes", n, size);
  else snprintf(what, sizeof what, "%zu bytes", n);
  lc_out_of_memory(what);
}

void *lc_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) no_memory(n, 0);
  return p;
}

void *lc_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) no_memory(n, size);
  return p;
}

void *lc_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) no_memory(n, 0);
  return q;
}

char *lc_xstrndup(const char *s, size_t n) {
  char *p = lc_xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *lc_xstrdup(const char *s) { return lc_xstrndup(s, strlen(s)); }

/* ---- arena ----------------------------------------------------------- */

/* A list of chunks; big requests get a chunk of their own. */
typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  max_align_t data[];
} chunk;

struct lc_arena {
  chunk *head;
};

enum { CHUNK_SIZE = 16384 };

lc_arena *lc_arena_new(void) { return lc_xcalloc(1, sizeof(lc_arena)); }

void lc_arena_free(lc_arena *a) {
  if (!a) return;
  for (chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void *lc_arena_alloc(lc_arena *a, size_t n) {
  assert(a);
  size_t align = sizeof(max_align_t);
  n = (n + align - 1) / align * align;
  if (!a->head || a->head->size - a->head->used < n) {
    size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;
    chunk *c = lc_xmalloc(sizeof(chunk) + size);
    c->used = 0;
    c->size = size;
    c->next = a->head;
    a->head = c;
  }
  void *p = (char *)a->head->data + a->head->used;
  a->head->used += n;
  memset(p, 0, n);
  return p;
}

char *lc_arena_strndup(lc_arena *a, const char *s, size_t n) {
  assert(a && (s || n == 0));
  char *p = lc_arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *lc_arena_strdup(lc_arena *a, const char *s) {
  return lc_arena_strndup(a, s, strlen(s));
}

/* ---- string buffer ---------------------------------------------------- */

void lc_buf_init(lc_buf *b) {
  b->cap = 64;
  b->n = 0;
  b->s = lc_xmalloc(b->cap);
  b->s[0] = '\0';
}

void lc_buf_fini(lc_buf *b) {
  free(b->s);
  b->s = NULL;
  b->n = b->cap = 0;
}

static void buf_grow(lc_buf *b, size_t extra) {
  if (b->n + extra + 1 <= b->cap) return;
  while (b->n + extra + 1 > b->cap) b->cap *= 2;
  b->s = lc_xrealloc(b->s, b->cap);
}

void lc_buf_putn(lc_buf *b, const char *s, size_t n) {
  assert(b && b->s && (s || n == 0));
  buf_grow(b, n);
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

void lc_buf_putc(lc_buf *b, char c) { lc_buf_putn(b, &c, 1); }
void lc_buf_puts(lc_buf *b, const char *s) { lc_buf_putn(b, s, strlen(s)); }

void lc_buf_vprintf(lc_buf *b, const char *fmt, va_list ap) {
  assert(b && b->s && fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return;
  buf_grow(b, (size_t)n);
  vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
  b->n += (size_t)n;
}

void lc_buf_printf(lc_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lc_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void lc_buf_pad(lc_buf *b, size_t width) {
  assert(b && b->s);
  size_t start = b->n;
  while (start > 0 && b->s[start - 1] != '\n') start--;
  while (b->n - start < width) lc_buf_putc(b, ' ');
}

char *lc_buf_take(lc_buf *b) {
  assert(b && b->s);
  char *s = b->s;
  lc_buf_init(b);
  return s;
}

/* ---- sources ----------------------------------------------------------- */

int lc_source_read(lc_source *src, const char *path) {
  assert(src && path);
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) return -1;
  lc_buf b;
  lc_buf_init(&b);
  char block[8192];
  size_t n;
  while ((n = fread(block, 1, sizeof block, f)) > 0) lc_buf_putn(&b, block, n);
  int err = ferror(f) ? errno : 0;
  if (f != stdin) fclose(f);
  if (err) {
    lc_buf_fini(&b);
    errno = err;
    return -1;
  }
  src->name = lc_xstrdup(strcmp(path, "-") == 0 ? "<stdin>" : path);
  src->len = b.n;
  src->text = lc_buf_take(&b);
  src->line_of = NULL;
  src->nline_of = 0;
  lc_buf_fini(&b);
  return 0;
}

void lc_source_from_string(lc_source *src, const char *name, const char *text, size_t len) {
  assert(src && name && (text || len == 0));
  src->name = lc_xstrdup(name);
  src->text = lc_xstrndup(text, len);
  src->len = len;
  src->line_of = NULL;
  src->nline_of = 0;
}

void lc_source_fini(lc_source *src) {
  if (!src) return;
  free(src->name);
  free(src->text);
  src->name = src->text = NULL;
  src->len = 0;
}

/* ---- diagnostics ------------------------------------------------------- */

void lc_diag_init(lc_diag *d, const lc_source *src, FILE *out) {
  assert(d);
  memset(d, 0, sizeof *d);
  d->src = src;
  d->out = out;
}

void lc_diag_fini(lc_diag *d) {
  if (!d) return;
  for (size_t i = 0; i < d->msgs.n; i++) {
    free(d->msgs.v[i].text);
    free(d->msgs.v[i].msg);
  }
  lc_vec_free(&d->msgs);
}

static const char *severity_name(lc_severity s) {
  switch (s) {
  case LC_SEV_ERROR: return "error";
  case LC_SEV_WARNING: return "warning";
  default: return "note";
  }
}

/* The length of the printable UTF-8 character at p (1 for printable
 * ASCII, tab and newline), or 0 for a control character (C0, DEL, C1: a terminal
 * would act on them), a byte that starts no valid sequence, an overlong
 * or surrogate form, or one cut short by end. */
static size_t printable_len(const unsigned char *p, const unsigned char *end) {
  unsigned c = *p;
  if (c < 0x80) return c == '\t' || c == '\n' || (c >= 0x20 && c != 0x7f) ? 1 : 0;
  size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (!n || (size_t)(end - p) < n) return 0;
  for (size_t i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) return 0;
  if (c == 0xc2 && p[1] < 0xa0) return 0;                      /* C1 controls */
  if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f)) return 0;   /* overlong, surrogates */
  if ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f)) return 0;
  return n;
}

/* Writes s[0..n) with each byte printable_len refuses as \xNN (hex) or
 * '?', so that a terminal is never fed escape sequences or broken
 * characters from the input. */
static void put_printable(FILE *out, const char *s, size_t n, bool hex) {
  const unsigned char *p = (const unsigned char *)s, *end = p + n;
  while (p < end) {
    size_t k = printable_len(p, end);
    if (k) {
      fwrite(p, 1, k, out);
      p += k;
    } else {
      if (hex) fprintf(out, "\\x%02x", *p);
      else fputc('?', out);
      p++;
    }
  }
}

/* Prints the quoted source line and a caret under loc.col.  What is not
 * printable text (control bytes, bytes of a binary file) prints as '?',
 * one column a byte as the lexer counts them. */
static void quote_line(FILE *out, const lc_source *src, lc_loc at) {
  if (!src || !src->text || at.line < 1) return;
  const char *p = src->text, *end = src->text + src->len;
  for (int line = 1; line < at.line && p < end; p++)
    if (*p == '\n') line++;
  if (p >= end && at.line > 1) return;
  const char *eol = p;
  while (eol < end && *eol != '\n') eol++;
  fputs("  ", out);
  put_printable(out, p, (size_t)(eol - p < 240 ? eol - p : 240), false);
  fputs("\n  ", out);
  for (int i = 1; i < at.col && i < 240; i++) fputc(p + i - 1 < eol && p[i - 1] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

void lc_vreport(lc_diag *d, lc_severity sev, lc_loc at, const char *fmt, va_list ap) {
  assert(d && fmt && sev <= LC_SEV_NOTE);
  lc_buf msg, text;
  lc_buf_init(&msg);
  lc_buf_vprintf(&msg, fmt, ap);
  lc_buf_init(&text);
  if (at.file && at.line > 0)
    lc_buf_printf(&text, "%s:%d:%d: ", at.file, at.line, at.col);
  else if (at.file)
    lc_buf_printf(&text, "%s: ", at.file);
  lc_buf_printf(&text, "%s: %s", severity_name(sev), msg.s);
  lc_message m = {sev, at, lc_buf_take(&text), lc_buf_take(&msg)};
  lc_buf_fini(&text);
  lc_buf_fini(&msg);
  lc_vec_push(&d->msgs, m);
  if (sev == LC_SEV_ERROR) d->nerrors++;
  if (sev == LC_SEV_WARNING) d->nwarnings++;
  if (d->out && (sev == LC_SEV_ERROR || !d->errors_only)) {
    /* messages quote the input (a token, a name): no raw bytes either */
    put_printable(d->out, m.text, strlen(m.text), true);
    fputc('\n', d->out);
    if (at.file && at.line > 0 && d->src && d->src->name && at.file == d->src->name)
      quote_line(d->out, d->src, at);
    fflush(d->out);
  }
}

#define REPORT(sev)                       \
  va_list ap;                             \
  va_start(ap, fmt);                      \
  lc_vreport(d, sev, at, fmt, ap);        \
  va_end(ap)

void lc_error(lc_diag *d, lc_loc at, const char *fmt, ...) { REPORT(LC_SEV_ERROR); }
void lc_warning(lc_diag *d, lc_loc at, const char *fmt, ...) { REPORT(LC_SEV_WARNING); }
void lc_note(lc_diag *d, lc_loc at, const char *fmt, ...) { REPORT(LC_SEV_NOTE); }

const char *lc_diag_first_error(const lc_diag *d) {
  assert(d);
  for (size_t i = 0; i < d->msgs.n; i++)
    if (d->msgs.v[i].sev == LC_SEV_ERROR) return d->msgs.v[i].text;
  return NULL;
}

/* ---- helpers ----------------------------------------------------------- */

int lc_parse_int64(const char *s, size_t n, int64_t *out) {
  assert((s || n == 0) && out);
  size_t i = 0;
  bool neg = false;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  unsigned base = 10;
  if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i >= n) return -1;
  uint64_t v = 0;
  for (; i < n; i++) {
    unsigned dgt;
    char c = s[i];
    if (c >= '0' && c <= '9') dgt = (unsigned)(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') dgt = (unsigned)(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') dgt = (unsigned)(c - 'A' + 10);
    else return -1;
    if (v > (UINT64_MAX - dgt) / base) return -1;
    v = v * base + dgt;
  }
  if (neg) {
    if (v > (uint64_t)INT64_MAX + 1) return -1;
    *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
  } else {
    *out = (int64_t)v;
  }
  return 0;
}

bool lc_is_tty(FILE *f) { return isatty(fileno(f)); }

double lc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- name tables ------------------------------------------------------------- */

/* FNV-1a: names are short, and no input chooses them to collide on purpose
 * that a linear probe could not bear (a collision costs a comparison). */
static size_t name_hash(const char *s, size_t len) {
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
  return (size_t)(h ^ (h >> 32));
}

static lc_name_slot *name_slot(const lc_names *t, const char *s, size_t len) {
  size_t mask = t->cap - 1;
  for (size_t i = name_hash(s, len) & mask;; i = (i + 1) & mask) {
    lc_name_slot *x = &t->slots[i];
    if (!x->s || (x->len == len && memcmp(x->s, s, len) == 0)) return x;
  }
}

size_t lc_names_get(const lc_names *t, const char *s, size_t len) {
  assert(t && (s || !len));
  if (!t->cap) return LC_NAMES_NONE;
  const lc_name_slot *x = name_slot(t, s, len);
  return x->s ? x->val : LC_NAMES_NONE;
}

void lc_names_put(lc_names *t, const char *s, size_t len, size_t val) {
  assert(t && s);
  if (2 * (t->n + 1) > t->cap) {   /* at most half full */
    lc_names old = *t;
    t->cap = old.cap ? 2 * old.cap : 16;
    t->slots = t->arena ? lc_arena_alloc(t->arena, t->cap * sizeof *t->slots)
                        : lc_xcalloc(t->cap, sizeof *t->slots);
    for (size_t i = 0; i < old.cap; i++)
      if (old.slots[i].s) *name_slot(t, old.slots[i].s, old.slots[i].len) = old.slots[i];
    if (!t->arena) free(old.slots);
  }
  lc_name_slot *x = name_slot(t, s, len);
  if (!x->s) t->n++;
  *x = (lc_name_slot){s, len, val};
}

void lc_names_fini(lc_names *t) {
  if (!t) return;
  if (!t->arena) free(t->slots);
  *t = (lc_names){0};
}
