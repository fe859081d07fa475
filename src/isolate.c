/* isolate.c - tasks in child processes, with a deadline the parent enforces.
 * SPDX-License-Identifier: MIT
 *
 * A message on the pipe is its kind (one byte), its number of fields
 * (uint32), then each field as its length (uint32; UINT32_MAX for NULL)
 * and its bytes, in the machine's byte order: both ends are one program.
 * The parent waits in poll() on every child's pipe at once, with the
 * nearest deadline as its timeout.
 */
#define _GNU_SOURCE   /* pipe2 */
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lc.h"

#define NULL_FIELD UINT32_MAX

static int write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t k = write(fd, s, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -1;
    s += k, n -= (size_t)k;
  }
  return 0;
}

static void put_u32(lc_buf *b, uint32_t u) { lc_buf_putn(b, (const char *)&u, sizeof u); }

int lc_iso_send(int fd, lc_iso_kind kind, const char *const *fields, size_t n) {
  lc_buf b;
  lc_buf_init(&b);
  lc_buf_putc(&b, (char)kind);
  put_u32(&b, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    size_t len = fields[i] ? strlen(fields[i]) : 0;
    if (len >= NULL_FIELD) len = NULL_FIELD - 1;   /* 4 GiB of output: cut */
    put_u32(&b, fields[i] ? (uint32_t)len : NULL_FIELD);
    if (fields[i]) lc_buf_putn(&b, fields[i], len);
  }
  int rc = write_all(fd, b.s, b.n);
  lc_buf_fini(&b);
  return rc;
}

/* ---- the parent's side --------------------------------------------------------- */

typedef struct child {
  size_t task;
  pid_t pid;
  int fd;                   /* -1: the slot is free */
  double start, deadline;   /* deadline 0: none (any more) */
  lc_buf in;                /* bytes read and not yet parsed */
  char **fallback, **result;
  size_t nfallback, nresult;
  bool has_result;
} child;

static void free_fields(char **f, size_t n) {
  for (size_t i = 0; i < n; i++) free(f[i]);
  free(f);
}

static bool get_u32(const char *s, size_t n, size_t *at, uint32_t *u) {
  if (n - *at < sizeof *u) return false;
  memcpy(u, s + *at, sizeof *u);
  *at += sizeof *u;
  return true;
}

/* Parses one whole message at the start of s[0..n): returns the bytes it
 * takes, or 0 while it is incomplete. */
static size_t parse_message(const char *s, size_t n, char *kind, char ***fields, size_t *nfields) {
  size_t at = 1;
  uint32_t count, len;
  if (n < 1 || !get_u32(s, n, &at, &count)) return 0;
  for (uint32_t i = 0; i < count; i++) {   /* first see that it is all there */
    if (!get_u32(s, n, &at, &len)) return 0;
    if (len != NULL_FIELD && (at += len) > n) return 0;
  }
  *kind = s[0];
  *nfields = count;
  *fields = lc_xcalloc(count ? count : 1, sizeof(char *));
  at = 1 + sizeof count;
  for (uint32_t i = 0; i < count; i++) {
    get_u32(s, n, &at, &len);
    if (len == NULL_FIELD) continue;
    (*fields)[i] = lc_xmalloc((size_t)len + 1);
    memcpy((*fields)[i], s + at, len);
    (*fields)[i][len] = '\0';
    at += len;
  }
  return at;
}

static void take_messages(child *c) {
  char kind, **f;
  size_t nf, used, off = 0;
  while ((used = parse_message(c->in.s + off, c->in.n - off, &kind, &f, &nf)) > 0) {
    off += used;
    if (kind == LC_ISO_FALLBACK) {
      free_fields(c->fallback, c->nfallback);
      c->fallback = f, c->nfallback = nf;
      continue;
    }
    if (kind == LC_ISO_RESULT && !c->has_result) {
      c->result = f, c->nresult = nf, c->has_result = true;
    } else {
      free_fields(f, nf);
    }
    c->deadline = 0;   /* a result or LC_ISO_RELAX: no more killing */
  }
  if (off) {
    memmove(c->in.s, c->in.s + off, c->in.n - off);
    c->in.n -= off;
  }
}

/* Reads what the child wrote; false at the end of the pipe. */
static bool read_child(child *c) {
  char buf[65536];
  ssize_t k = read(c->fd, buf, sizeof buf);
  if (k < 0) return errno == EINTR || errno == EAGAIN;
  if (k == 0) return false;
  lc_buf_putn(&c->in, buf, (size_t)k);
  take_messages(c);
  return true;
}

static int start(child *slots, size_t nslots, child *c, size_t task, double limit, const lc_iso_ops *ops,
                 void *ctx) {
  int p[2];
  /* close-on-exec: a program the task runs (dot) must not hold the pipe open */
  if (pipe2(p, O_CLOEXEC) < 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(p[0]);
    close(p[1]);
    errno = e;
    return -1;
  }
  if (pid == 0) {
    close(p[0]);
    for (size_t k = 0; k < nslots; k++)
      if (slots[k].fd >= 0) close(slots[k].fd);
    ops->run(ctx, task, p[1]);
    _exit(0);
  }
  close(p[1]);
  memset(c, 0, sizeof *c);
  c->task = task, c->pid = pid, c->fd = p[0];
  c->start = lc_now();
  c->deadline = limit > 0 ? c->start + limit : 0;
  lc_buf_init(&c->in);
  return 0;
}

static void finish(child *c, bool kill_it, const lc_iso_ops *ops, void *ctx) {
  if (kill_it) kill(c->pid, SIGKILL);
  close(c->fd);
  int st = 0;
  while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR) {}
  lc_iso_outcome o = {LC_ISO_DONE, 0, 0, 0, c->result, c->nresult, lc_now() - c->start};
  if (!c->has_result) {
    o.end = kill_it ? LC_ISO_KILLED : LC_ISO_CRASHED;
    o.fields = c->fallback, o.nfields = c->nfallback;
    if (!kill_it && WIFSIGNALED(st)) o.signal = WTERMSIG(st);
    else if (!kill_it && WIFEXITED(st)) o.code = WEXITSTATUS(st);
  }
  ops->done(ctx, c->task, &o);
  free_fields(c->fallback, c->nfallback);
  free_fields(c->result, c->nresult);
  lc_buf_fini(&c->in);
  c->fd = -1;
}

/* Waits for the children to write or for the nearest deadline; returns
 * how many ended. */
static size_t wait_children(child *c, size_t nslots, struct pollfd *pf, const lc_iso_ops *ops, void *ctx) {
  size_t np = 0, ended = 0;
  double now = lc_now(), wait = -1;
  for (size_t k = 0; k < nslots; k++) {
    pf[k] = (struct pollfd){c[k].fd, POLLIN, 0};   /* a negative fd is skipped */
    if (c[k].fd >= 0) np++;
    if (c[k].fd >= 0 && c[k].deadline > 0 && (wait < 0 || c[k].deadline - now < wait))
      wait = c[k].deadline - now > 0 ? c[k].deadline - now : 0;
  }
  if (!np) return 0;
  int ms = wait < 0 ? -1 : (int)(wait * 1000) + 1;
  if (poll(pf, nslots, ms) < 0 && errno != EINTR) return 0;
  for (size_t k = 0; k < nslots; k++)
    if (c[k].fd >= 0 && pf[k].revents && !read_child(&c[k])) finish(&c[k], false, ops, ctx), ended++;
  now = lc_now();
  for (size_t k = 0; k < nslots; k++)
    if (c[k].fd >= 0 && c[k].deadline > 0 && now >= c[k].deadline) finish(&c[k], true, ops, ctx), ended++;
  return ended;
}

void lc_isolate_run(size_t n, unsigned max, double limit, const lc_iso_ops *ops, void *ctx) {
  size_t nslots = max < 1 ? 1 : max < n ? max : n, active = 0, next = 0;
  child *c = lc_xcalloc(nslots ? nslots : 1, sizeof *c);
  struct pollfd *pf = lc_xcalloc(nslots ? nslots : 1, sizeof *pf);
  for (size_t k = 0; k < nslots; k++) c[k].fd = -1;
  while (next < n || active) {
    for (size_t k = 0; k < nslots && next < n && active < nslots; k++) {
      if (c[k].fd >= 0) continue;
      if (start(c, nslots, &c[k], next, limit, ops, ctx) == 0) {
        next++, active++;
      } else if (!active) {   /* nothing to wait for: this task cannot run */
        lc_iso_outcome o = {LC_ISO_NOT_RUN, 0, 0, errno, NULL, 0, 0};
        ops->done(ctx, next++, &o);
      } else {
        break;                /* out of processes: try again when one ends */
      }
    }
    active -= wait_children(c, nslots, pf, ops, ctx);
  }
  free(pf);
  free(c);
}
