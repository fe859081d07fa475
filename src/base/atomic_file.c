/* atomic_file.c - write a file so that readers see the old or the new one.
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L   /* mkstemp, fsync */
#include "atomic_file.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *data, size_t len) {
  while (len) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    data += n;
    len -= (size_t)n;
  }
  return 0;
}

/* The temporary file gets the permissions a plain fopen would give
 * (0666 less the umask), not mkstemp's 0600. */
static void default_mode(int fd) {
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
}

int lc_write_atomic(const char *path, const char *data, size_t len, lc_diag *d) {
  assert(path && (data || len == 0) && d);
  lc_buf tmp;
  lc_buf_init(&tmp);
  lc_buf_printf(&tmp, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp.s);
  if (fd < 0) {
    lc_error(d, (lc_loc){0}, "cannot create a temporary file beside '%s': %s", path, strerror(errno));
    lc_buf_fini(&tmp);
    return -1;
  }
  default_mode(fd);
  int rc = 0;
  if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
    lc_error(d, (lc_loc){0}, "cannot write '%s': %s", tmp.s, strerror(errno));
    rc = -1;
  }
  if (close(fd) < 0 && rc == 0) {
    lc_error(d, (lc_loc){0}, "cannot write '%s': %s", tmp.s, strerror(errno));
    rc = -1;
  }
  if (rc == 0 && rename(tmp.s, path) < 0) {
    lc_error(d, (lc_loc){0}, "cannot rename '%s' to '%s': %s", tmp.s, path, strerror(errno));
    rc = -1;
  }
  if (rc < 0) unlink(tmp.s);
  lc_buf_fini(&tmp);
  return rc;
}
