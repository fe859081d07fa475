/* kp_int.h - what the two halves of the compiled-kernel reader share: the
 * PTX module read into statements (kp_ptx.c) and the kernel's code made
 * one flat sequence, .func calls inlined (kp_gen.c evaluates it).
 * SPDX-License-Identifier: MIT
 */
#ifndef KP_INT_H
#define KP_INT_H

#include <setjmp.h>

#include "kptx/kptx.h"

#define KP_MAX_OPS 8

/* One statement of the kernel, after inlining: every register and label
 * name made unique (a copy of a .func body or an inline-asm block's own
 * names get a suffix). */
typedef struct kp_ins {
  const char *guard;     /* `@%p1` / `@!%p1`: the predicate register; NULL for none */
  bool neg;
  const char *op;        /* the whole opcode, "ld.global.u32"; a label: NULL */
  const char *label;     /* a label statement: its name */
  const char *ops[KP_MAX_OPS];
  int nops;
  int ptx_line;          /* line in the PTX text */
  int src_line;          /* the kernel file's line (.loc), 0 when none yet */
} kp_ins;

typedef LC_VEC(kp_ins) kp_code;

/* A variable of the module (.global or .shared), by its PTX name. */
typedef struct kp_sym {
  const char *name;      /* as in the PTX */
  const char *shown;     /* its source name (demangled: _ZZ4kernPiE3buf is buf) */
  bool shared;
  int elem;              /* element size in bytes; 0 for bytes (.b8), the accesses' size */
  long size;             /* bytes */
  LC_VEC(int64_t) init;  /* initial values of its elements (a .global's `= {...}`); of its
                            bytes while elem is 0 */
  int ptx_line;
  bool dynamic;          /* `.extern .shared` (extern __shared__ x[]): sized by the launch */
} kp_sym;

/* The kernel's entry, flattened. */
typedef struct kp_module {
  lc_arena *a;
  const char *entry;     /* the .entry's name */
  LC_VEC(const char *) params;   /* the entry's parameter names, in order */
  LC_VEC(kp_sym) syms;
  kp_code code;
  int reqcluster[3];     /* the entry's .reqnctapercluster (__cluster_dims__); 0 when none */
  int version_major, version_minor;   /* from the `Cuda compilation tools, release X.Y` comment; 0 if none */
  void *scratch;         /* the reader's own (kp_ptx.c) */
} kp_module;

typedef struct kp_err {
  jmp_buf fail;
  lc_diag *d;
  const char *file;      /* the kernel file, which positions name */
  const char *ptx_name;
} kp_err;

LC_NORETURN void kp_fail(kp_err *e, int src_line, const char *fmt, ...) LC_PRINTF(3, 4);

/* Reads ptx and flattens the entry whose name is want, or that mangles
 * `want` (_Z<len><want>...), or the only one when want is NULL. */
void kp_ptx_read(kp_err *e, const char *ptx, const char *want, const char *src_path, kp_module *m);
void kp_module_fini(kp_module *m);

/* Cooperative groups' grid barrier as nvcc emits it (kp_grid.c): the
 * indices of its parts in the code, the first barrier.sync 0 at b1. */
typedef struct kp_grid_seq {
  size_t skip;           /* @%p bra L_END: the threads but the CTA's master */
  size_t atom;           /* atom.add.release.gpu.u32 on the barrier word; the poll loop after it */
  size_t end;            /* L_END */
  size_t b2;             /* the second barrier.sync 0 */
} kp_grid_seq;

/* Whether the code at b1 is that sequence, exactly (kp_grid.c says which). */
bool kp_grid_barrier_at(const kp_code *c, size_t b1, kp_grid_seq *s);

/* Makes each of libcu++'s blocking waits in m's code (a poll, then more
 * polls of the same word and a back-off loop) one spin loop on its first
 * poll, where that is exact under a model closed under deleting reads
 * (kp_wait.c); the number of waits so folded.  note (may be NULL) gets the
 * first poll that looks like a wait and is left as written, and why. */
int kp_fold_waits(kp_module *m, kp_unfolded *note);

#endif
