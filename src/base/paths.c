/* paths.c - the litmus files a command line names.
 * SPDX-License-Identifier: MIT
 */
#define _DEFAULT_SOURCE
#include "paths.h"

#include <assert.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool has_suffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

typedef struct dir_id {
  dev_t dev;
  ino_t ino;
} dir_id;

typedef LC_VEC(dir_id) dir_ids;

/* Has the folder been walked already (a symbolic link back up the tree,
 * or two links to one folder)?  Notes it when not. */
static bool seen_before(dir_ids *seen, const struct stat *st) {
  for (size_t i = 0; i < seen->n; i++)
    if (seen->v[i].dev == st->st_dev && seen->v[i].ino == st->st_ino) return true;
  lc_vec_push(seen, ((dir_id){st->st_dev, st->st_ino}));
  return false;
}

/* The entries of dir but . and .., as "dir/name", sorted; none when it
 * cannot be read. */
static void read_dir(const char *dir, lc_paths *found) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *ent;
  while ((ent = readdir(d))) {
    if (ent->d_name[0] == '.') continue;
    lc_buf b;
    lc_buf_init(&b);
    /* "litmus/" given: litmus/MP.litmus, not litmus//MP.litmus */
    size_t n = strlen(dir);
    lc_buf_printf(&b, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", ent->d_name);
    lc_vec_push(found, lc_buf_take(&b));
    lc_buf_fini(&b);
  }
  closedir(d);
  qsort(found->v, found->n, sizeof(char *), cmp_str);
}

/* Depth first in sorted order, with a stack of its own rather than
 * recursion (folders nest as deep as paths allow), each folder once. */
static void add_dir(lc_paths *out, const char *top, lc_diag *d, bool kernels) {
  lc_paths stack = {0};
  dir_ids seen = {0};
  lc_vec_push(&stack, lc_xstrdup(top));
  while (stack.n) {
    char *path = stack.v[--stack.n];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      if (seen_before(&seen, &st)) {
        if (d) lc_warning(d, (lc_loc){0}, "%s: skipped: a folder already searched (a symbolic link loop?)", path);
      } else {
        lc_paths found = {0};
        read_dir(path, &found);
        for (size_t i = found.n; i-- > 0;) lc_vec_push(&stack, found.v[i]);
        lc_vec_free(&found);
      }
      free(path);
    } else if (has_suffix(path, ".litmus") || (kernels && has_suffix(path, ".cu"))) {
      lc_vec_push(out, path);
    } else {
      free(path);
    }
  }
  lc_vec_free(&stack);
  lc_vec_free(&seen);
}

void lc_paths_walk(lc_paths *out, const char *path, lc_diag *d) { lc_paths_walk_kernels(out, path, d, false); }

void lc_paths_walk_kernels(lc_paths *out, const char *path, lc_diag *d, bool kernels) {
  assert(out && path);
  struct stat st;
  if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) add_dir(out, path, d, kernels);
  else lc_vec_push(out, lc_xstrdup(path));
}

void lc_paths_add(lc_paths *out, const char *path) { lc_paths_walk(out, path, NULL); }

void lc_paths_free(lc_paths *p) {
  for (size_t i = 0; i < p->n; i++) free(p->v[i]);
  lc_vec_free(p);
}
