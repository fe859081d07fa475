/* paths.c - the litmus files a command line names.
 * SPDX-License-Identifier: MIT
 */
#include "paths.h"

#include <assert.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void add_dir(lc_paths *out, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  lc_paths found = {0};
  struct dirent *ent;
  while ((ent = readdir(d))) {
    if (ent->d_name[0] == '.') continue;
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s/%s", dir, ent->d_name);
    lc_vec_push(&found, lc_buf_take(&b));
    lc_buf_fini(&b);
  }
  closedir(d);
  qsort(found.v, found.n, sizeof(char *), cmp_str);
  for (size_t i = 0; i < found.n; i++) {
    struct stat st;
    if (stat(found.v[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      add_dir(out, found.v[i]);
      free(found.v[i]);
    } else if (has_suffix(found.v[i], ".litmus")) {
      lc_vec_push(out, found.v[i]);
    } else {
      free(found.v[i]);
    }
  }
  lc_vec_free(&found);
}

void lc_paths_add(lc_paths *out, const char *path) {
  assert(out && path);
  struct stat st;
  if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) add_dir(out, path);
  else lc_vec_push(out, lc_xstrdup(path));
}

void lc_paths_free(lc_paths *p) {
  for (size_t i = 0; i < p->n; i++) free(p->v[i]);
  lc_vec_free(p);
}
