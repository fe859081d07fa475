/* isolate.h - tasks in child processes, with a deadline the parent enforces.
 * SPDX-License-Identifier: MIT
 *
 * A deadline the work polls cannot bound a step that does not poll it: Z3
 * does not interrupt its intake of a large encoding, neither on
 * Z3_interrupt nor under assumptions.  So tasks run in forked children,
 * one task at a time each, that send messages back over a pipe, and the
 * parent kills a child still busy with a task past its deadline (and
 * starts another for the tasks left).  The parent must be single-threaded
 * when it calls lc_isolate_run: a fork copies the locks other threads hold
 * (Z3's, stdio's) and the child could wait on them for ever.  (A thread
 * that only waits in sigwait holds none.)  A child dies with the thread
 * that started it (Linux), so that a parent ended by a signal leaves no
 * engine running.
 */
#ifndef LC_ISOLATE_H
#define LC_ISOLATE_H

#include <stddef.h>

typedef enum {
  LC_ISO_FALLBACK = 'F',  /* what to report should the task be killed (the last one counts) */
  LC_ISO_RELAX = 'R',     /* the part under the deadline is over: the parent no longer kills */
  LC_ISO_DEADLINE = 'T',  /* a part with a deadline of its own begins: fields[0] says in how
                             many seconds from now (decimal) the parent kills */
  LC_ISO_RESULT = 'D'     /* the task's answer */
} lc_iso_kind;

typedef enum {
  LC_ISO_DONE,            /* the child sent its result and exited */
  LC_ISO_KILLED,          /* still busy at its deadline: killed */
  LC_ISO_CRASHED,         /* died of a signal, or exited without a result */
  LC_ISO_NOT_RUN          /* no child could be started (pipe, fork: `error`) */
} lc_iso_end;

typedef struct lc_iso_outcome {
  lc_iso_end end;
  int signal;             /* LC_ISO_CRASHED: the signal that ended it, or 0 */
  int code;               /* LC_ISO_CRASHED without a signal: its exit status */
  int error;              /* LC_ISO_NOT_RUN: the errno */
  /* LC_ISO_DONE: the result's fields; otherwise the last fallback's, if
   * any (nfields 0: none came).  A field sent as NULL is NULL. */
  char **fields;
  size_t nfields;
  double seconds;         /* from the task's start to its end */
} lc_iso_outcome;

typedef struct lc_iso_ops {
  /* In a child: task i.  Send messages on fd with lc_iso_send, the last
   * one LC_ISO_RESULT.  The child then takes the next task, or _exits (no
   * atexit handlers, no stdio flush). */
  void (*run)(void *ctx, size_t i, int fd);
  /* In the parent, as each task ends, in the order they end.  The
   * outcome's fields are freed when it returns. */
  void (*done)(void *ctx, size_t i, const lc_iso_outcome *o);
} lc_iso_ops;

/* Sends a message of n fields (strings, NULL allowed).  Returns 0, or -1
 * with errno set. */
int lc_iso_send(int fd, lc_iso_kind kind, const char *const *fields, size_t n);

/* Runs tasks 0..n-1 in at most `max` children, which take them in turn;
 * a child that has not sent LC_ISO_RESULT or LC_ISO_RELAX `limit` seconds
 * after it was given a task (0: never) is killed (SIGKILL).  Passes each
 * task to ops->done.  Flushes stdio before each fork, so that a child
 * cannot repeat the parent's buffered output. */
void lc_isolate_run(size_t n, unsigned max, double limit, const lc_iso_ops *ops, void *ctx);

/* The hard bound on a task under a --timeout of `timeout` seconds: the
 * work's own deadline polls at some granularity and a child needs a moment
 * to start, so the cooperative timeout (which says which phase ran out)
 * gets 5% and 0.1 s more before the kill; the bound stays within 10% of
 * the timeout from 2 s on. */
double lc_iso_hard_limit(double timeout);

#endif
