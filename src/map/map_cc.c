/* map_cc.c - run the CUDA compiler installed here on emitted CUDA C++
 * (docs/mappings.md, "The real compiler").
 * SPDX-License-Identifier: MIT
 *
 * nvcc runs as a child process in a fresh temporary directory (its own
 * input and output files, removed afterwards); its diagnostics are kept
 * and quoted when it fails.
 */
#define _POSIX_C_SOURCE 200809L
#include "map/map_cc.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *map_nvcc_path(char *buf, size_t n) {
  const char *env = getenv("NVCC");
  if (env && *env) return env;
  const char *cuda = getenv("LC_CUDA_DIR");
  if (cuda && *cuda) {
    snprintf(buf, n, "%s/bin/nvcc", cuda);
    if (access(buf, X_OK) == 0) return buf;
  }
  snprintf(buf, n, "/usr/local/cuda/bin/nvcc");
  return access(buf, X_OK) == 0 ? buf : NULL;
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int rc = fputs(text, f) < 0 ? -1 : 0;
  return fclose(f) ? -1 : rc;
}

static char *read_file(const char *path) {
  lc_source s;
  if (lc_source_read(&s, path)) return NULL;
  char *text = lc_xstrndup(s.text, s.len);
  lc_source_fini(&s);
  return text;
}

static int run(const char *nvcc, char *const argv[], const char *log, lc_diag *d) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int rc = posix_spawn(&pid, nvcc, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) {
    lc_error(d, (lc_loc){0}, "cannot run %s: %s", nvcc, strerror(rc));
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  char *text = read_file(log);
  lc_error(d, (lc_loc){0}, "%s failed:\n%s", nvcc, text ? text : "");
  free(text);
  return -1;
}

int map_nvcc_ptx_file(const char *nvcc, const char *path, int sm, const char *const *extra, size_t nextra, char **ptx,
                      lc_diag *d) {
  char dir[] = "/tmp/litmus-nvcc-XXXXXX";
  *ptx = NULL;
  if (!mkdtemp(dir)) {
    lc_error(d, (lc_loc){0}, "cannot make a temporary directory: %s", strerror(errno));
    return -1;
  }
  char out[64], log[64], arch[32];
  snprintf(out, sizeof out, "%s/t.ptx", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
  const char **argv = lc_xcalloc(nextra + 8, sizeof *argv);
  size_t n = 0;
  argv[n++] = nvcc, argv[n++] = "-ptx", argv[n++] = arch, argv[n++] = "-std=c++17";
  for (size_t i = 0; i < nextra; i++) argv[n++] = extra[i];
  argv[n++] = "-o", argv[n++] = out, argv[n++] = path;
  int rc = run(nvcc, (char *const *)argv, log, d);
  if (rc == 0 && !(*ptx = read_file(out))) {
    lc_error(d, (lc_loc){0}, "nvcc wrote no PTX");
    rc = -1;
  }
  free(argv);
  unlink(out);
  unlink(log);
  rmdir(dir);
  return rc;
}

int map_nvcc_ptx(const char *nvcc, const char *src, int sm, char **ptx, lc_diag *d) {
  char dir[] = "/tmp/litmus-nvcc-XXXXXX";
  *ptx = NULL;
  if (!mkdtemp(dir)) {
    lc_error(d, (lc_loc){0}, "cannot make a temporary directory: %s", strerror(errno));
    return -1;
  }
  char cu[64], out[64], log[64], arch[32];
  snprintf(cu, sizeof cu, "%s/t.cu", dir);
  snprintf(out, sizeof out, "%s/t.ptx", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
  int rc = -1;
  if (write_file(cu, src)) {
    lc_error(d, (lc_loc){0}, "cannot write %s: %s", cu, strerror(errno));
  } else {
    char *argv[] = {(char *)nvcc, "-ptx", arch, "-std=c++17", "-o", out, cu, NULL};
    rc = run(nvcc, argv, log, d);
    if (rc == 0 && !(*ptx = read_file(out))) {
      lc_error(d, (lc_loc){0}, "nvcc wrote no PTX");
      rc = -1;
    }
  }
  unlink(cu);
  unlink(out);
  unlink(log);
  rmdir(dir);
  return rc;
}
