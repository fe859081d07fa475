/* herd_hash.h - the test hash herd7 prints (`Hash=...`), for C tests.
 * SPDX-License-Identifier: MIT
 *
 * herd7, litmus7, mcompare7 and msum7 identify a test by its name and a
 * hash of its text; msum7 refuses a log without one, and both refuse two
 * logs whose hashes for one test differ.  So that `--format herd` output
 * can be read beside herd7's, the hash is computed here as herdtools7
 * computes it for C tests (lib/CTestHash.ml, lib/CGenParser_lib.ml): the
 * MD5 of the MD5s of the initial state, the code and the observed
 * locations, each printed as herd prints them, the code being the text of
 * each thread's body as written.  A test whose information lines carry a
 * `Hash=` keeps that hash (herd does the same).
 */
#ifndef LITMUS_HERD_HASH_H
#define LITMUS_HERD_HASH_H

#include <stddef.h>
#include <stdint.h>

/* RFC 1321 MD5 of data into out (16 bytes). */
void lt_md5(const void *data, size_t len, uint8_t out[16]);

/* The hash herd7 gives the C test whose text is text[0..len), as 32
 * lower-case hexadecimal digits and a NUL in out; 0 on success, -1 when
 * the text uses a form this reading does not follow (then out is
 * untouched): a parameter type or an initial value herd prints in a way
 * not reproduced here, or a test that is not C. */
int lt_herd_hash(const char *text, size_t len, char out[33]);

#endif
