/* lc.h - shared pieces of litmus-check: source positions, diagnostics,
 * arenas, growable arrays and string buffers.
 * SPDX-License-Identifier: MIT
 *
 * Ownership, stated once for the whole library: arguments are borrowed;
 * a result belongs to the caller unless its comment says "borrowed".
 * Every X_new has an X_free, every X_init an X_fini, and X_free(NULL) is
 * a no-op.  Library code never exits: it returns 0/-1 or NULL and leaves
 * its message in an lc_diag.  Only the programs in src/cli/ exit.
 * Public functions state their preconditions with assert on entry
 * (non-NULL arguments, indices in range, sizes that agree): a failed one
 * is a bug in the caller, never bad input, which is an error value.
 */
#ifndef LC_H
#define LC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define LC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define LC_NORETURN __attribute__((noreturn))
#else
#define LC_PRINTF(f, a)
#define LC_NORETURN
#endif

#define LC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the programs' exit codes (man/litmus-check.1, EXIT STATUS); only src/cli/ returns them ---- */
enum {
  LC_EXIT_OK = 0,        /* the tool ran; verdicts are in the output */
  LC_EXIT_MISMATCH = 1,  /* forbidden outcome observed, or --expect mismatch */
  LC_EXIT_INPUT = 2,     /* bad input or usage */
  LC_EXIT_INTERNAL = 3,  /* internal error, solver unknown or timeout */
  /* A process out of memory (lc_out_of_memory) exits with this; litmus-check
   * checks each test in a child process and reports it as exit 3, "out of
   * memory (--max-memory ...)". */
  LC_EXIT_NO_MEMORY = 4
};

/* ---- memory ---------------------------------------------------------- */
/* Out of memory is not an input error we can report usefully; like jq and
 * Lua's default allocator we stop the process with a message, and status
 * LC_EXIT_NO_MEMORY (an address-space limit, --max-memory, makes it a
 * bounded answer, not the OOM killer's). */
LC_NORETURN void lc_out_of_memory(const char *what);
void *lc_xmalloc(size_t n);
void *lc_xcalloc(size_t n, size_t size);
void *lc_xrealloc(void *p, size_t n);
char *lc_xstrdup(const char *s);
char *lc_xstrndup(const char *s, size_t n);
LC_NORETURN void lc_die(const char *fmt, ...) LC_PRINTF(1, 2);

/* An arena owns every node of one AST (or one model); freed all at once. */
typedef struct lc_arena lc_arena;
lc_arena *lc_arena_new(void);
void lc_arena_free(lc_arena *a);
void *lc_arena_alloc(lc_arena *a, size_t n);          /* zeroed */
char *lc_arena_strndup(lc_arena *a, const char *s, size_t n);
char *lc_arena_strdup(lc_arena *a, const char *s);

/* Growable array of T: LC_VEC(T) v = {0}; lc_vec_push(&v, x); free(v.v). */
#define LC_VEC(T) struct { T *v; size_t n, cap; }
#define lc_vec_reserve(vec, want)                                         \
  do {                                                                    \
    if ((want) > (vec)->cap) {                                            \
      size_t lc_nc_ = (vec)->cap ? (vec)->cap * 2 : 8;                    \
      while (lc_nc_ < (want)) lc_nc_ *= 2;                                \
      (vec)->v = lc_xrealloc((vec)->v, lc_nc_ * sizeof(*(vec)->v));       \
      (vec)->cap = lc_nc_;                                                \
    }                                                                     \
  } while (0)
#define lc_vec_push(vec, x)                                               \
  do {                                                                    \
    lc_vec_reserve((vec), (vec)->n + 1);                                  \
    (vec)->v[(vec)->n++] = (x);                                           \
  } while (0)
#define lc_vec_free(vec) do { free((vec)->v); (vec)->v = NULL; (vec)->n = (vec)->cap = 0; } while (0)

/* ---- string buffer ---------------------------------------------------- */
typedef struct lc_buf { char *s; size_t n, cap; } lc_buf;   /* s is NUL-terminated */
void lc_buf_init(lc_buf *b);
void lc_buf_fini(lc_buf *b);
void lc_buf_putc(lc_buf *b, char c);
void lc_buf_puts(lc_buf *b, const char *s);
void lc_buf_putn(lc_buf *b, const char *s, size_t n);
void lc_buf_printf(lc_buf *b, const char *fmt, ...) LC_PRINTF(2, 3);
void lc_buf_vprintf(lc_buf *b, const char *fmt, va_list ap);
void lc_buf_pad(lc_buf *b, size_t width);   /* spaces up to column width of the current line */
char *lc_buf_take(lc_buf *b);               /* caller frees; b is reset */

/* ---- source positions and diagnostics --------------------------------- */
typedef struct lc_loc {
  const char *file;   /* borrowed from the lc_source */
  int line, col;      /* 1-based; col counts bytes */
} lc_loc;

/* A source text with its name, kept so diagnostics can quote the line. */
typedef struct lc_source {
  char *name;
  char *text;
  size_t len;
  /* A text made from another file (a CUDA kernel's threads, src/kernel/):
   * line k of `text` stands for line line_of[k - 1] of the file `name`, so
   * positions name the file the user wrote.  NULL for a file as read. */
  const int *line_of;
  size_t nline_of;
} lc_source;

/* Reads a whole file (or stdin for "-").  0 on success; -1 with errno set. */
int lc_source_read(lc_source *src, const char *path);
void lc_source_from_string(lc_source *src, const char *name, const char *text, size_t len);
void lc_source_fini(lc_source *src);

typedef enum { LC_SEV_ERROR, LC_SEV_WARNING, LC_SEV_NOTE } lc_severity;

typedef struct lc_message {
  lc_severity sev;
  lc_loc loc;          /* loc.file == NULL for messages without a position */
  char *text;          /* "file:line:col: error: msg" (no newline) */
  char *msg;           /* just "msg" */
} lc_message;

/* Collects messages.  Printing goes to `out` as they arrive when out != NULL,
 * followed by the source line and a caret; tests leave out NULL and look at
 * the stored messages. */
typedef struct lc_diag {
  LC_VEC(lc_message) msgs;
  const lc_source *src;  /* for quoting lines; may be NULL */
  FILE *out;
  int nerrors, nwarnings;
  bool errors_only;      /* print errors only (a program's --quiet); all are collected */
} lc_diag;

void lc_diag_init(lc_diag *d, const lc_source *src, FILE *out);
void lc_diag_fini(lc_diag *d);
void lc_error(lc_diag *d, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);
void lc_warning(lc_diag *d, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);
void lc_note(lc_diag *d, lc_loc at, const char *fmt, ...) LC_PRINTF(3, 4);
void lc_vreport(lc_diag *d, lc_severity sev, lc_loc at, const char *fmt, va_list ap);
/* The first error's full text, or NULL; borrowed. */
const char *lc_diag_first_error(const lc_diag *d);

/* ---- name tables --------------------------------------------------------- */
/* A hash table from names to numbers, where a linear search per name made
 * reading an input quadratic in its size (locals, aliases, check names).
 * The names are borrowed: they must outlive the table.  Zero-initialised
 * is empty: lc_names t = {0}; ... lc_names_fini(&t). */
typedef struct lc_name_slot {
  const char *s;         /* NULL: free */
  size_t len;
  size_t val;
} lc_name_slot;

typedef struct lc_names {
  lc_name_slot *slots;
  size_t n, cap;         /* cap: 0 or a power of two */
  lc_arena *arena;       /* set: the slots come from it and go with it (a parser that
                            longjmps out of an error frees nothing on the way) */
} lc_names;

#define LC_NAMES_NONE ((size_t)-1)
/* The number stored for s[0..len), or LC_NAMES_NONE. */
size_t lc_names_get(const lc_names *t, const char *s, size_t len);
/* Stores val for s[0..len) (replacing what was there). */
void lc_names_put(lc_names *t, const char *s, size_t len, size_t val);
void lc_names_fini(lc_names *t);

/* ---- small helpers ---------------------------------------------------- */
/* Parses a decimal or 0x-hex integer with optional sign, in full (no
 * trailing characters).  Values above INT64_MAX up to UINT64_MAX wrap to
 * their two's-complement int64 value.  Returns 0, or -1 when malformed or
 * out of the 64-bit range. */
int lc_parse_int64(const char *s, size_t n, int64_t *out);
bool lc_is_tty(FILE *f);
double lc_now(void);   /* monotonic seconds */

#endif
