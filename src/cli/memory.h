/* memory.h - litmus-check's --max-memory: the size a user writes, the
 * default share of the machine's memory, and the limit a child process
 * checking a test puts on itself.
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_CLI_MEMORY_H
#define LC_CLI_MEMORY_H

#include <stddef.h>

/* "512M", "2G", "1.5G", "65536" (bytes; K, M, G, T are powers of 1024, an
 * optional trailing B or iB allowed): 0, or -1 when malformed or below
 * 16M (too little for a process with Z3 loaded to start a check). */
int mem_parse_size(const char *s, size_t *bytes);

/* The default: half the physical memory, shared among `jobs` processes
 * (0 when the machine does not say). */
size_t mem_default_limit(unsigned jobs);

/* "2G", "512M", "1536K" or bytes, as short as exact. */
void mem_format_size(char *buf, size_t len, size_t bytes);

/* Limits the calling process's address space to `bytes`, so that an
 * allocation past it fails (lc_out_of_memory) rather than waking the OOM
 * killer; and tells Z3 the same (memory_max_size), which then stops with
 * Z3_MEMOUT_FAIL.  0, or -1 with errno set.  Built with AddressSanitizer,
 * whose shadow memory takes terabytes of address space at start, the
 * limit counts the bytes allocated instead (its allocator's hooks), and a
 * process past it ends as one out of memory does (LC_EXIT_NO_MEMORY). */
int mem_limit_self(size_t bytes);

/* Runs fn(ctx, fd) in a child process under mem_limit_self(bytes) (0: no
 * limit), killed when it has not ended lc_iso_hard_limit(timeout) seconds
 * (timeout 0: never) after it started or after its last LC_ISO_DEADLINE
 * on fd; an LC_ISO_FALLBACK on fd with one field, "while ...", says what
 * it was doing, for the message.  fn prints as it goes (the child flushes
 * stdout and stderr before it ends) and returns an exit status, which
 * comes back.  A child out of time or memory, or that crashed, is said
 * on stderr as "PROGRAM: error: out of time (--timeout S s) while ..."
 * and gives LC_EXIT_INTERNAL.  For the modes that are no check of one test
 * apart (the model's load, --lower, --check-mapping). */
int mem_run_bounded(const char *program, double timeout, size_t bytes, int (*fn)(void *ctx, int fd),
                    void *ctx);

#endif
