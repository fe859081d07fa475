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

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
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
  assert(fd >= 0 && (fields || n == 0));
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

/* A child runs tasks one after another, each given by its index on the
 * child's input pipe, until the pipe closes or the child is killed: a
 * fresh process per task would set up Z3's tables again each time (some
 * 10 ms of page faults per test on a 2-core VM). */
typedef struct child {
  pid_t pid;
  int from, to;             /* pipes from and to the child; from -1: the slot is free */
  bool busy;
  size_t task;
  double start, deadline;   /* of the task; deadline 0: none (any more) */
  lc_buf in;                /* bytes read and not yet parsed */
  char **fallback;
  size_t nfallback;
} child;

typedef struct pool {
  child *c;
  size_t nslots;
  double limit;
  const lc_iso_ops *ops;
  void *ctx;
  struct sigaction sigpipe;   /* the parent's own, which the children get back */
} pool;

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
  *fields = lc_xcalloc(count, sizeof(char *));
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

/* The task ends: tells ops->done, with the result's fields or the last
 * fallback's. */
static void end_task(pool *p, child *c, lc_iso_outcome o, char **result, size_t nresult) {
  if (o.end == LC_ISO_DONE) o.fields = result, o.nfields = nresult;
  else o.fields = c->fallback, o.nfields = c->nfallback;
  o.seconds = lc_now() - c->start;
  p->ops->done(p->ctx, c->task, &o);
  free_fields(c->fallback, c->nfallback);
  c->fallback = NULL, c->nfallback = 0;
  c->busy = false, c->deadline = 0;
}

static void take_messages(pool *p, child *c) {
  char kind, **f;
  size_t nf, used, off = 0;
  while ((used = parse_message(c->in.s + off, c->in.n - off, &kind, &f, &nf)) > 0) {
    off += used;
    if (!c->busy) {                     /* nothing asked: ignored */
      free_fields(f, nf);
    } else if (kind == LC_ISO_FALLBACK) {
      free_fields(c->fallback, c->nfallback);
      c->fallback = f, c->nfallback = nf;
    } else if (kind == LC_ISO_RESULT) {
      end_task(p, c, (lc_iso_outcome){.end = LC_ISO_DONE}, f, nf);
      free_fields(f, nf);
    } else if (kind == LC_ISO_DEADLINE) {
      double s = nf && f[0] ? strtod(f[0], NULL) : 0;
      c->deadline = s > 0 ? lc_now() + s : c->deadline;
      free_fields(f, nf);
    } else {                            /* LC_ISO_RELAX */
      c->deadline = 0;
      free_fields(f, nf);
    }
  }
  if (off) {
    memmove(c->in.s, c->in.s + off, c->in.n - off);
    c->in.n -= off;
  }
}

static int read_all(int fd, void *p, size_t n) {
  char *s = p;
  while (n) {
    ssize_t k = read(fd, s, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    s += k, n -= (size_t)k;
  }
  return 0;
}

/* The child's loop: a task index at a time, until the pipe closes. */
static void serve(int in, int out, const lc_iso_ops *ops, void *ctx) {
  uint64_t task;
  while (read_all(in, &task, sizeof task) == 0) ops->run(ctx, (size_t)task, out);
  _exit(0);
}

/* In a child: SIGKILL when the parent's thread ends, should it end first
 * (litmus-run's interrupt thread ends the program with _exit during a
 * check); a parent already gone before the request: now. */
static void die_with_parent(pid_t parent) {
#ifdef __linux__
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent) _exit(1);
#else
  (void)parent;
#endif
}

static int spawn(pool *p, child *c) {
  int up[2], down[2];
  /* close-on-exec: a program a task runs (dot) must not hold the pipes open */
  if (pipe2(up, O_CLOEXEC) < 0) return -1;
  if (pipe2(down, O_CLOEXEC) < 0) {
    int e = errno;
    close(up[0]);
    close(up[1]);
    errno = e;
    return -1;
  }
  fflush(NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    int e = errno;
    close(up[0]), close(up[1]), close(down[0]), close(down[1]);
    errno = e;
    return -1;
  }
  if (pid == 0) {
    die_with_parent(parent);
    close(up[0]);
    close(down[1]);
    for (size_t k = 0; k < p->nslots; k++) {
      if (p->c[k].from >= 0) close(p->c[k].from);
      if (p->c[k].to >= 0) close(p->c[k].to);
    }
    sigaction(SIGPIPE, &p->sigpipe, NULL);
    serve(down[0], up[1], p->ops, p->ctx);
  }
  close(up[1]);
  close(down[0]);
  memset(c, 0, sizeof *c);
  c->pid = pid, c->from = up[0], c->to = down[1];
  lc_buf_init(&c->in);
  return 0;
}

/* Gives the child a task. */
static void assign(pool *p, child *c, size_t task) {
  uint64_t t = task;
  c->busy = true, c->task = task;
  c->start = lc_now();
  c->deadline = p->limit > 0 ? c->start + p->limit : 0;
  if (write_all(c->to, (const char *)&t, sizeof t) < 0) {   /* it died: its pipe's end says how */
    close(c->to);
    c->to = -1;
  }
}

/* The child is gone (its pipe ended) or is killed: reaps it, and ends its
 * task if it had one. */
static void reap(pool *p, child *c, bool kill_it) {
  if (kill_it) kill(c->pid, SIGKILL);
  close(c->from);
  if (c->to >= 0) close(c->to);
  int st = 0;
  while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR) {}
  if (c->busy) {
    lc_iso_outcome o = {.end = kill_it ? LC_ISO_KILLED : LC_ISO_CRASHED};
    if (!kill_it && WIFSIGNALED(st)) o.signal = WTERMSIG(st);
    else if (!kill_it && WIFEXITED(st)) o.code = WEXITSTATUS(st);
    end_task(p, c, o, NULL, 0);
  }
  free_fields(c->fallback, c->nfallback);
  lc_buf_fini(&c->in);
  c->from = c->to = -1;
}

/* Reads what the child wrote; false at the end of its pipe. */
static bool read_child(pool *p, child *c) {
  char buf[65536];
  ssize_t k = read(c->from, buf, sizeof buf);
  if (k < 0) return errno == EINTR || errno == EAGAIN;
  if (k == 0) return false;
  lc_buf_putn(&c->in, buf, (size_t)k);
  take_messages(p, c);
  return true;
}

/* Waits for the children to write or for the nearest deadline. */
static void wait_children(pool *p, struct pollfd *pf) {
  child *c = p->c;
  double now = lc_now(), wait = -1;
  for (size_t k = 0; k < p->nslots; k++) {
    pf[k] = (struct pollfd){c[k].from, POLLIN, 0};   /* a negative fd is skipped */
    if (c[k].from >= 0 && c[k].busy && c[k].deadline > 0 && (wait < 0 || c[k].deadline - now < wait))
      wait = c[k].deadline - now > 0 ? c[k].deadline - now : 0;
  }
  int ms = wait < 0 ? -1 : (int)(wait * 1000) + 1;
  if (poll(pf, p->nslots, ms) < 0 && errno != EINTR) return;
  for (size_t k = 0; k < p->nslots; k++)
    if (c[k].from >= 0 && pf[k].revents && !read_child(p, &c[k])) reap(p, &c[k], false);
  now = lc_now();
  for (size_t k = 0; k < p->nslots; k++)
    if (c[k].from >= 0 && c[k].busy && c[k].deadline > 0 && now >= c[k].deadline) reap(p, &c[k], true);
}

/* Starts children and gives out tasks; false when none is alive. */
static bool feed(pool *p, size_t n, size_t *next) {
  bool alive = false;
  for (size_t k = 0; k < p->nslots; k++) alive |= p->c[k].from >= 0;
  for (size_t k = 0; k < p->nslots; k++) {
    child *c = &p->c[k];
    if (c->from < 0 && *next < n) {
      if (spawn(p, c) == 0) {
        alive = true;
      } else if (!alive) {   /* nothing to wait for: this task cannot run */
        lc_iso_outcome o = {.end = LC_ISO_NOT_RUN, .error = errno};
        p->ops->done(p->ctx, (*next)++, &o);
        continue;
      } else {
        continue;            /* out of processes: again when one ends */
      }
    }
    if (c->from < 0 || c->busy || c->to < 0) continue;
    if (*next < n) {
      assign(p, c, (*next)++);
    } else {                 /* no more work: the child ends at the end of its pipe */
      close(c->to);
      c->to = -1;
    }
  }
  return alive;
}

double lc_iso_hard_limit(double timeout) { return timeout * 1.05 + 0.1; }

void lc_isolate_run(size_t n, unsigned max, double limit, const lc_iso_ops *ops, void *ctx) {
  assert(ops && ops->run && ops->done);
  size_t nslots = max < 1 ? 1 : max < n ? max : n, next = 0;
  if (!nslots) return;
  pool p = {.c = lc_xcalloc(nslots, sizeof(child)), .nslots = nslots, .limit = limit, .ops = ops, .ctx = ctx};
  struct pollfd *pf = lc_xcalloc(nslots, sizeof *pf);
  for (size_t k = 0; k < nslots; k++) p.c[k].from = p.c[k].to = -1;
  /* a child that dies as it is given a task must not end the parent */
  struct sigaction ign = {.sa_handler = SIG_IGN};
  sigaction(SIGPIPE, &ign, &p.sigpipe);
  for (;;) {
    if (feed(&p, n, &next)) wait_children(&p, pf);
    else if (next >= n) break;
  }
  sigaction(SIGPIPE, &p.sigpipe, NULL);
  free(pf);
  free(p.c);
}
