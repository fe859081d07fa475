/* gen_cpp_shapes.h - C++ litmus tests for checking mapping tables: the classic
 * shapes x every memory order per access x scopes (docs/mappings.md,
 * "Generated tests").
 * SPDX-License-Identifier: MIT
 */
#ifndef GEN_CPP_SHAPES_H
#define GEN_CPP_SHAPES_H

#include <stddef.h>
#include <stdint.h>

/* Called for each test with its file name stem and text; a nonzero return
 * stops the enumeration and is returned. */
typedef int (*gen_cpp_emit)(const char *name, const char *text, void *arg);

typedef struct gen_cpp_options {
  const char *shapes;     /* comma-separated shape names, or NULL for all */
  uint64_t count;         /* 0: every test; else this many, sampled with `seed` */
  uint64_t seed;
} gen_cpp_options;

/* Enumerates (or samples) the tests.  Returns 0, the emitter's nonzero
 * value, or -1 when `shapes` names an unknown shape (*bad is set to it). */
int gen_cpp_shapes(const gen_cpp_options *o, gen_cpp_emit emit, void *arg, const char **bad);

/* The number of tests of the full enumeration of `shapes` (NULL: all). */
uint64_t gen_cpp_shape_count(const char *shapes);

/* "MP,SB,..." : the shape names, borrowed. */
const char *gen_cpp_shape_names(void);

#endif
