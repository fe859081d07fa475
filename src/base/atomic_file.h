/* atomic_file.h - write a file so that readers see the old or the new one.
 * SPDX-License-Identifier: MIT
 */
#ifndef LC_ATOMIC_FILE_H
#define LC_ATOMIC_FILE_H

#include "lc.h"

/* Writes data to path through a temporary file in the same folder and a
 * rename, so that readers see the old file or the new one, never a part.
 * Returns 0, or -1 with a message in d (the temporary file is removed). */
int lc_write_atomic(const char *path, const char *data, size_t len, lc_diag *d);

#endif
