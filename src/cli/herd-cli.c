/* herd-cli.c - herd7's command line rewritten to litmus-check's.
 *
 * herd7's options are single-dash words (`-model x.cat`), which getopt
 * would read as clusters of letters (`-m odel`, `-h exa` asking for the
 * help).  Before getopt each word is looked up in herd7's own option
 * table (herdtools7 61e77ef, `herd7 -help`), so every herd option takes
 * the value herd gives it and gets one of four treatments:
 *   - ours: rewritten to the option of ours that means the same
 *     (-model, -cat, -timeout, -unroll, -variant, -nshow, -archcheck);
 *   - herd's files: -conf FILE (herd's configuration files, `OPTION
 *     VALUE` a line, `#` comments, nested `conf` lines), index files
 *     (a file named @NAME, as herd names them, or @FILE for FILE: a test
 *     path a line, relative to the index's folder, or another index), -set-libdir
 *     DIR and -I DIR (where models, configurations and includes are
 *     looked up: the current folder, then -I's, then the libdir, then
 *     LITMUS_MODELS and ours), -show and -o DIR (a .dot file per test of
 *     the executions -show selects, -suffix added to its name);
 *   - no effect on what is printed: taken and ignored (the picture
 *     options without -o, diagnostics, optimisations), with one notice
 *     for those that would change what herd7 writes;
 *   - -skipcheck(s) and -through invalid: the model without those checks
 *     (herd_skip_checks; litmus-check.c writes the copy);
 *   - refused, with the reason: options that change the states (-bell,
 *     -restrict, ...) and that we cannot honour.
 * `-q` is herd's (quiet diagnostics, herd's default: no effect) when the
 * output is herd's (--format herd), else ours (--quiet).
 * SPDX-License-Identifier: MIT
 */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "config.h"

#include "cli/herd-cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef enum {
  H_RENAME,     /* to the --form in `what` (or `what` itself when it starts with -) */
  H_VARIANT,    /* -variant a,b: --variant a --variant b */
  H_TIMEOUT,    /* -timeout S|none */
  H_MODEL,      /* -model/-cat X: X looked up as herd looks models up */
  H_CONF,       /* -conf FILE */
  H_LIBDIR,     /* -set-libdir DIR */
  H_INCLUDE,    /* -I DIR */
  H_SHOW,       /* -show prop|all|neg|cond|wit|none */
  H_OUTDIR,     /* -o DIR */
  H_SUFFIX,     /* -suffix S */
  H_SHOWONE,    /* -showone true: --show-limit 1 */
  H_ARCHCHECK,  /* -archcheck false: --any-dialect */
  H_QUIET,      /* -q */
  H_VERSION,    /* -version */
  H_SHOWLIBDIR, /* -libdir */
  H_HELP,       /* -help */
  H_CONFALIAS,  /* -web, -c11: -conf `what` */
  H_BOOL_OK,    /* a boolean whose value `what` (true/false) is ours; the other refused */
  H_VALUE_OK,   /* a value `what` is ours (herd's default); another refused */
  H_QUIET_IGNORE,  /* no effect on states or output: ignored silently (pictures, ...) */
  H_NOTE,       /* no effect on states; ignored with a notice (`what`: why) */
  H_REFUSE,     /* refused (`what`: why) */
  H_SKIP,       /* -skipcheck(s) NAME,...: the model without those checks */
  H_THROUGH,    /* -through none|invalid|all: invalid, all: without any check */
} herd_kind;

typedef struct herd_opt {
  const char *name;
  int nargs;
  herd_kind kind;
  const char *what;
} herd_opt;

/* herd's viewer options: the pictures are -o's .dot files */
#define NO_VIEWER "no viewer is started; -o DIR writes the .dot files (or --graph FILE.svg)"

/* herd7's options (61e77ef), in `herd7 -help`'s order. */
static const herd_opt herd_opts[] = {
  {"-version", 0, H_VERSION, NULL},
  {"-libdir", 0, H_SHOWLIBDIR, NULL},
  {"-set-libdir", 1, H_LIBDIR, NULL},
  {"-v", 0, H_QUIET_IGNORE, NULL},
  {"-q", 0, H_QUIET, NULL},
  {"-I", 1, H_INCLUDE, NULL},
  {"-exit", 1, H_QUIET_IGNORE, NULL},
  {"-timeout", 1, H_TIMEOUT, NULL},
  {"-conf", 1, H_CONF, NULL},
  {"-bell", 1, H_REFUSE, "bell files (herd's Linux-kernel model) are not read; a model that needs one would "
                         "answer wrongly without it"},
  /* c11.def (-c11's cpp11.cfg) spells C11's own names, which are read as
   * C11 defines them; a test using any other macro (linux-kernel.def's
   * READ_ONCE) is refused where it uses it, never misread */
  {"-macros", 1, H_NOTE, "macro files are not read: C11's atomic_load, atomic_store, ... are read as C11 "
                         "defines them (as herd's c11.def does), and a test using another macro is refused"},
  {"-o", 1, H_OUTDIR, NULL},
  {"-suffix", 1, H_SUFFIX, NULL},
  {"-dumpes", 1, H_BOOL_OK, "false"},
  {"-view", 1, H_NOTE, NO_VIEWER},
  {"-gv", 0, H_NOTE, NO_VIEWER},
  {"-evince", 0, H_NOTE, NO_VIEWER},
  {"-preview", 0, H_NOTE, NO_VIEWER},
  {"-unroll", 1, H_RENAME, "--unroll"},
  {"-hexa", 1, H_NOTE, "values are printed in decimal (mcompare7 and msum7 read both)"},
  {"-switch", 0, H_REFUSE, "it has no meaning here"},
  {"-web", 0, H_CONFALIAS, "web.cfg"},
  {"-c11", 0, H_CONFALIAS, "cpp11.cfg"},
  {"-debug", 1, H_QUIET_IGNORE, NULL},
  {"-morefences", 1, H_QUIET_IGNORE, NULL},
  {"-model", 1, H_MODEL, NULL},
  {"-cat", 1, H_MODEL, NULL},
  {"-through", 1, H_THROUGH, NULL},
  {"-throughflag", 1, H_VALUE_OK, "none"},
  {"-skipcheck", 1, H_SKIP, NULL},
  {"-skipchecks", 1, H_SKIP, NULL},
  {"-strictskip", 1, H_BOOL_OK, "false"},
  {"-cycles", 1, H_REFUSE, "failing checks are not shown as cycles; --explain names the checks that forbid a state"},
  {"-variant", 1, H_VARIANT, NULL},
  {"-machsize", 1, H_VALUE_OK, "auto"},
  {"-endian", 1, H_VALUE_OK, "little"},
  {"-archcheck", 1, H_ARCHCHECK, NULL},
  {"-optace", 1, H_QUIET_IGNORE, NULL},
  {"-initwrites", 1, H_NOTE, "initial writes are always events of the execution here; the states do not "
                             "depend on it"},
  {"-show", 1, H_SHOW, NULL},
  {"-showflag", 1, H_REFUSE, "executions are not selected by flag; -show and --show select them by state"},
  {"-speedcheck", 1, H_NOTE, "every state is listed; the verdict is the same"},
  {"-nshow", 1, H_RENAME, "--show-limit"},
  {"-badexecs", 1, H_BOOL_OK, "true"},
  {"-badflag", 1, H_VALUE_OK, "none"},
  {"-checkfilter", 1, H_BOOL_OK, "true"},
  {"-showone", 1, H_SHOWONE, NULL},
  {"-maxphantom", 1, H_VALUE_OK, "none"},
  {"-statelessrc11", 1, H_BOOL_OK, "false"},
  {"-dumpallfaults", 0, H_REFUSE, "faults are not modelled"},
  /* pictures: no effect on the states; -o's .dot files are drawn our way */
  {"-graph", 1, H_QUIET_IGNORE, NULL},
  {"-dotmode", 1, H_QUIET_IGNORE, NULL},
  {"-dotcom", 1, H_QUIET_IGNORE, NULL},
  {"-showevents", 1, H_QUIET_IGNORE, NULL},
  {"-mono", 1, H_QUIET_IGNORE, NULL},
  {"-scale", 1, H_QUIET_IGNORE, NULL},
  {"-xscale", 1, H_QUIET_IGNORE, NULL},
  {"-yscale", 1, H_QUIET_IGNORE, NULL},
  {"-dsiy", 1, H_QUIET_IGNORE, NULL},
  {"-siwidth", 1, H_QUIET_IGNORE, NULL},
  {"-ptscale", 1, H_QUIET_IGNORE, NULL},
  {"-boxscale", 1, H_QUIET_IGNORE, NULL},
  {"-showthread", 1, H_QUIET_IGNORE, NULL},
  {"-shift", 1, H_QUIET_IGNORE, NULL},
  {"-edgemerge", 1, H_QUIET_IGNORE, NULL},
  {"-labelinit", 1, H_QUIET_IGNORE, NULL},
  {"-showlegend", 1, H_QUIET_IGNORE, NULL},
  {"-showkind", 1, H_QUIET_IGNORE, NULL},
  {"-shortlegend", 1, H_QUIET_IGNORE, NULL},
  {"-squished", 1, H_QUIET_IGNORE, NULL},
  {"-fixedsize", 1, H_QUIET_IGNORE, NULL},
  {"-extrachars", 1, H_QUIET_IGNORE, NULL},
  {"-showobserved", 1, H_QUIET_IGNORE, NULL},
  {"-brackets", 1, H_QUIET_IGNORE, NULL},
  {"-texmacros", 1, H_QUIET_IGNORE, NULL},
  {"-tikz", 1, H_QUIET_IGNORE, NULL},
  {"-showpo", 1, H_QUIET_IGNORE, NULL},
  {"-showinitrf", 1, H_QUIET_IGNORE, NULL},
  {"-showfinalrf", 1, H_QUIET_IGNORE, NULL},
  {"-initrfpos", 1, H_QUIET_IGNORE, NULL},
  {"-finalrfpos", 1, H_QUIET_IGNORE, NULL},
  {"-oneinit", 1, H_QUIET_IGNORE, NULL},
  {"-initpos", 1, H_QUIET_IGNORE, NULL},
  {"-showinitwrites", 1, H_QUIET_IGNORE, NULL},
  {"-threadposy", 1, H_QUIET_IGNORE, NULL},
  {"-doshow", 1, H_QUIET_IGNORE, NULL},
  {"-unshow", 1, H_QUIET_IGNORE, NULL},
  {"-symetric", 1, H_QUIET_IGNORE, NULL},
  {"-noid", 1, H_QUIET_IGNORE, NULL},
  {"-classes", 1, H_QUIET_IGNORE, NULL},
  {"-showraw", 1, H_QUIET_IGNORE, NULL},
  {"-splines", 1, H_QUIET_IGNORE, NULL},
  {"-margin", 1, H_QUIET_IGNORE, NULL},
  {"-pad", 1, H_QUIET_IGNORE, NULL},
  {"-sep", 1, H_QUIET_IGNORE, NULL},
  {"-fontname", 1, H_QUIET_IGNORE, NULL},
  {"-fontsize", 1, H_QUIET_IGNORE, NULL},
  {"-edgefontsizedelta", 1, H_QUIET_IGNORE, NULL},
  {"-penwidth", 1, H_QUIET_IGNORE, NULL},
  {"-arrowsize", 1, H_QUIET_IGNORE, NULL},
  {"-edgeattr", 1, H_QUIET_IGNORE, NULL},
  {"-overlap", 1, H_QUIET_IGNORE, NULL},
  {"-relabel", 1, H_QUIET_IGNORE, NULL},
  {"-withbox", 1, H_QUIET_IGNORE, NULL},
  {"-labelbox", 1, H_QUIET_IGNORE, NULL},
  {"-movelabel", 1, H_QUIET_IGNORE, NULL},
  {"-dotheader", 1, H_QUIET_IGNORE, NULL},
  /* old configuration-file keys herd still reads */
  {"-showfr", 1, H_QUIET_IGNORE, NULL},
  {"-showpoloc", 1, H_QUIET_IGNORE, NULL},
  /* test selection and renaming */
  {"-names", 1, H_REFUSE, "tests are not selected by name; give the files"},
  {"-oknames", 1, H_REFUSE, "tests are not selected by name; give the files"},
  {"-excl", 1, H_REFUSE, "tests are not selected by name; give the files"},
  {"-nonames", 1, H_REFUSE, "tests are not selected by name; give the files"},
  {"-rename", 1, H_REFUSE, "tests are not renamed"},
  {"-kinds", 1, H_REFUSE, "tests' kinds are not rewritten"},
  {"-conds", 1, H_REFUSE, "tests' conditions are not rewritten"},
  {"-candidates", 1, H_BOOL_OK, "false"},
  {"-restrict", 1, H_VALUE_OK, "none"},
  {"-outcomereads", 1, H_BOOL_OK, "false"},
  {"-help", 0, H_HELP, NULL},
  /* ours that herd's single dash would otherwise split into letters */
  {"-jobs", 1, H_RENAME, "--jobs"},
};

static const herd_opt *herd_find(const char *w) {
  if (w[0] != '-' || w[1] == '-' || !w[1]) return NULL;
  for (size_t i = 0; i < LC_ARRAY_LEN(herd_opts); i++)
    if (strcmp(w, herd_opts[i].name) == 0) return &herd_opts[i];
  return NULL;
}

/* What the rewriting gathers: the words for getopt, the folders where
 * herd looks files up, and what -o, -show and -suffix said. */
typedef struct herd_state {
  herd_strs out;
  herd_strs *owned;
  herd_strs dirs;           /* -I's, then the libdirs (borrowed or owned) */
  bool herd_format;         /* --format herd on the command line */
  bool herd_libdir_asked;
  const char *herd_libdir;  /* `herd7 -libdir`, or NULL */
  const char *show, *outdir, *suffix;
  lc_buf skip;              /* -skipcheck names, comma-separated; "*" for -through invalid */
  size_t model_at;          /* where in out the model's name is (after --model), or 0 */
} herd_state;

static char *own(herd_state *s, char *str) {
  lc_vec_push(s->owned, str);
  return str;
}

static char *own_join(herd_state *s, const char *dir, const char *file) {
  size_t n = strlen(dir) + strlen(file) + 2;
  char *p = lc_xmalloc(n);
  snprintf(p, n, "%s/%s", dir, file);
  return own(s, p);
}

static bool is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* herd's lookup of a model or configuration file: as given, then in each
 * -I folder and libdir, then LITMUS_MODELS's folders; the name as given
 * when none has it (the error then names it). */
static const char *herd_lookup(herd_state *s, const char *name) {
  if (is_file(name) || name[0] == '/') return name;
  for (size_t i = 0; i < s->dirs.n; i++) {
    char *p = own_join(s, s->dirs.v[i], name);
    if (is_file(p)) return p;
  }
  const char *env = getenv("LITMUS_MODELS");
  for (const char *p = env; p && *p;) {
    size_t len = strcspn(p, ":");
    if (len) {
      char *dir = lc_xstrndup(p, len);
      char *f = own_join(s, dir, name);
      free(dir);
      if (is_file(f)) return f;
    }
    p += len + (p[len] == ':');
  }
  /* herd7's own libdir, where herd7 finds rc11.cat: HERDLIB, else what
   * `herd7 -libdir` says when a herd7 is on PATH */
  const char *hl = getenv("HERDLIB");
  if (hl && *hl) {
    char *f = own_join(s, hl, name);
    if (is_file(f)) return f;
  }
  if (!s->herd_libdir_asked) {
    s->herd_libdir_asked = true;
    FILE *pf = popen("herd7 -libdir 2>/dev/null", "r");
    if (pf) {
      char line[4096];
      if (fgets(line, sizeof line, pf)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (*line) s->herd_libdir = own(s, lc_xstrdup(line));
      }
      pclose(pf);
    }
  }
  if (s->herd_libdir) {
    char *f = own_join(s, s->herd_libdir, name);
    if (is_file(f)) return f;
  }
  fprintf(stderr, "litmus-check: herd7's '%s' is not here, in -I or -set-libdir's folders, LITMUS_MODELS, HERDLIB "
                  "or `herd7 -libdir`%s: -set-libdir DIR says where herd's models are\n", name,
          s->herd_libdir ? "" : " (no herd7 on PATH)");
  return name;
}

static int herd_word(herd_state *s, char **words, size_t n, size_t *i, bool from_file, int depth);

static void set_libdir_env(const char *dir) {
  const char *old = getenv("LITMUS_MODELS");
  size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
  char *v = lc_xmalloc(n);
  snprintf(v, n, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
  setenv("LITMUS_MODELS", v, 1);
  free(v);
}

/* A configuration (index false) or index file's lines into words, each
 * handled as it comes (a `conf` line reads its file there and then). */
static int herd_file(herd_state *s, const char *path, bool index, int depth) {
  if (depth > 8) {
    fprintf(stderr, "litmus-check: %s: configuration or index files nested too deeply\n", path);
    return -1;
  }
  if (!index) path = herd_lookup(s, path);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "litmus-check: cannot read '%s': %s\n", path, strerror(errno));
    return -1;
  }
  const char *slash = strrchr(path, '/');
  int dirlen = slash ? (int)(slash - path) : 0;
  char line[4096];
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    size_t n = strcspn(p, "\r\n");
    p[n] = '\0';
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) p[--n] = '\0';
    if (!*p || *p == '#') continue;
    if (index) {
      /* a line whose file name starts with @ is an index itself
       * (catalogue/@all lists aarch64/tests/@all) */
      const char *b = strrchr(p, '/');
      if ((b ? b[1] : p[0]) == '@') {
        char *sub = lc_xmalloc((size_t)dirlen + n + 2);
        if (*p != '/' && dirlen) snprintf(sub, (size_t)dirlen + n + 2, "%.*s/%s", dirlen, path, p);
        else memcpy(sub, p, n + 1);
        rc = herd_file(s, own(s, sub), true, depth + 1);
        continue;
      }
      char *path_of = lc_xmalloc((size_t)dirlen + n + 2);
      if (*p != '/' && dirlen) snprintf(path_of, (size_t)dirlen + n + 2, "%.*s/%s", dirlen, path, p);
      else memcpy(path_of, p, n + 1);
      lc_vec_push(&s->out, own(s, path_of));
      continue;
    }
    /* OPTION [VALUE]: herd writes the option without its dash */
    char *val = p + strcspn(p, " \t");
    if (*val) {
      *val++ = '\0';
      while (*val == ' ' || *val == '\t') val++;
    }
    size_t klen = strlen(p);
    char *key = lc_xmalloc(klen + 2);
    snprintf(key, klen + 2, "%s%s", p[0] == '-' ? "" : "-", p);
    char *words[2] = {own(s, key), *val ? own(s, lc_xstrdup(val)) : NULL};
    size_t k = 0;
    /* herd's `include DIR` line is -I DIR */
    if (strcmp(key, "-include") == 0) words[0] = "-I";
    if (strcmp(key, "-local-conf") == 0) words[0] = "-conf";
    const herd_opt *o = herd_find(words[0]);
    if (!o) {
      fprintf(stderr, "litmus-check: %s: '%s' is not an option of herd7's\n", path, p);
      rc = -1;
      break;
    }
    if (o->nargs > 0 && !words[1]) {
      fprintf(stderr, "litmus-check: %s: '%s' needs a value\n", path, p);
      rc = -1;
      break;
    }
    rc = herd_word(s, words, words[1] ? 2 : 1, &k, true, depth + 1);
  }
  fclose(f);
  return rc;
}

static void push(herd_state *s, const char *w) { lc_vec_push(&s->out, (char *)w); }

/* words[*i] (and its value), advancing *i past what it used. */
static int herd_word(herd_state *s, char **words, size_t n, size_t *i, bool from_file, int depth) {
  const char *w = words[*i];
  /* herd's index files: a file whose name starts with @ (@all,
   * tests/@all) lists tests, a line each; @FILE also reads FILE when no
   * file is named @FILE */
  const char *b = strrchr(w, '/');
  if ((b ? b[1] : w[0]) == '@' && (b ? b[2] : w[1])) {
    (*i)++;
    return herd_file(s, is_file(w) || w[0] != '@' ? w : w + 1, true, depth);
  }
  const herd_opt *o = herd_find(w);
  if (!o) {
    push(s, w);
    (*i)++;
    return 0;
  }
  const char *v = NULL;
  if (o->nargs > 0) {
    if (*i + 1 >= n) {
      fprintf(stderr, "litmus-check: herd7's %s needs a value\n", w);
      return -1;
    }
    v = words[*i + 1];
  }
  *i += 1 + (size_t)o->nargs;
  switch (o->kind) {
  case H_RENAME:
    push(s, o->what);
    push(s, v);
    return 0;
  case H_VARIANT:
    for (const char *p = v; *p;) {
      size_t len = strcspn(p, ",");
      if (len) {
        push(s, "--variant");
        push(s, own(s, lc_xstrndup(p, len)));
      }
      p += len + (p[len] == ',');
    }
    return 0;
  case H_TIMEOUT:
    if (strcmp(v, "none") != 0) {
      push(s, "--timeout");
      push(s, v);
    }
    return 0;
  case H_MODEL:
    /* the last one given wins (a configuration file's `model gen.cat`,
     * then -model on the command line): looked up at the end, once */
    if (s->model_at) {
      s->out.v[s->model_at] = (char *)v;
      return 0;
    }
    push(s, "--model");
    s->model_at = s->out.n;
    push(s, v);
    return 0;
  case H_CONF:
    return herd_file(s, v, false, depth + 1);
  case H_CONFALIAS:
    return herd_file(s, o->what, false, depth + 1);
  case H_LIBDIR:
    lc_vec_push(&s->dirs, (char *)v);
    set_libdir_env(v);
    return 0;
  case H_INCLUDE:
    lc_vec_push(&s->dirs, (char *)v);
    set_libdir_env(v);
    return 0;
  case H_SHOW:
    if (strcmp(v, "prop") && strcmp(v, "all") && strcmp(v, "neg") && strcmp(v, "cond") && strcmp(v, "wit") &&
        strcmp(v, "none")) {
      fprintf(stderr, "litmus-check: herd7's -show: '%s' is not prop, all, neg, cond, wit or none\n", v);
      return -1;
    }
    s->show = v;
    return 0;
  case H_OUTDIR:
    s->outdir = v;
    return 0;
  case H_SUFFIX:
    s->suffix = v;
    return 0;
  case H_SHOWONE:
    if (strcmp(v, "true") == 0) {
      push(s, "--show-limit");
      push(s, "1");
    }
    return 0;
  case H_ARCHCHECK:
    if (strcmp(v, "false") == 0) push(s, "--any-dialect");
    return 0;
  case H_QUIET:
    if (!s->herd_format && !from_file) push(s, "--quiet");
    return 0;
  case H_VERSION:
    push(s, "--version");
    return 0;
  case H_HELP:
    push(s, "--help");
    return 0;
  case H_SHOWLIBDIR:
    push(s, "--herd-libdir");
    return 0;
  case H_BOOL_OK:
  case H_VALUE_OK:
    if (strcmp(v, o->what) == 0) return 0;
    if (o->kind == H_BOOL_OK && strcmp(v, "true") && strcmp(v, "false")) {
      fprintf(stderr, "litmus-check: herd7's %s: '%s' is not true or false\n", w, v);
      return -1;
    }
    fprintf(stderr, "litmus-check: herd7's %s %s is not supported (only %s %s, herd's default): it changes "
                    "which executions or states count\n", w, v, w, o->what);
    return -1;
  case H_QUIET_IGNORE:
    return 0;
  case H_NOTE:
    fprintf(stderr, "litmus-check: herd7's %s%s%s is ignored: %s\n", w, v ? " " : "", v ? v : "", o->what);
    return 0;
  case H_REFUSE:
    fprintf(stderr, "litmus-check: herd7's %s is not supported: %s\n", w, o->what);
    return -1;
  case H_SKIP:
    lc_buf_printf(&s->skip, "%s%s", s->skip.n ? "," : "", v);
    return 0;
  case H_THROUGH:
    if (strcmp(v, "invalid") == 0 || strcmp(v, "all") == 0) {
      lc_buf_printf(&s->skip, "%s*", s->skip.n ? "," : "");
    } else if (strcmp(v, "none") != 0) {
      fprintf(stderr, "litmus-check: herd7's -through: '%s' is not all, invalid or none\n", v);
      return -1;
    }
    return 0;
  }
  return 0;
}

char **herd_argv(int argc, char **argv, int *nargc, herd_strs *owned) {
  herd_state s = {.owned = owned};
  lc_buf_init(&s.skip);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) break;
    if (strcmp(argv[i], "--format=herd") == 0 || (strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
                                                    strcmp(argv[i + 1], "herd") == 0))
      s.herd_format = true;
  }
  push(&s, argv[0]);
  int rc = 0;
  size_t i = 1, n = (size_t)argc;
  while (i < n && rc == 0) {
    if (strcmp(argv[i], "--") == 0) {   /* files only from here */
      for (; i < n; i++) push(&s, argv[i]);
      break;
    }
    rc = herd_word(&s, argv, n, &i, false, 0);
  }
  if (rc == 0 && s.model_at) {
    /* a name herd reads as a file (x.cat): looked up as herd does; other
     * names are ours (ptx-v7.5) */
    const char *v = s.out.v[s.model_at];
    if (strlen(v) > 4 && !strcmp(v + strlen(v) - 4, ".cat")) s.out.v[s.model_at] = (char *)herd_lookup(&s, v);
  }
  if (rc == 0 && s.outdir) {
    push(&s, "--herd-o");
    push(&s, s.outdir);
    push(&s, "--herd-show");
    push(&s, s.show ? s.show : "none");
    if (s.suffix) {
      push(&s, "--herd-suffix");
      push(&s, s.suffix);
    }
    if (!s.show || strcmp(s.show, "none") == 0)
      fprintf(stderr, "litmus-check: herd7's -o %s with -show none (herd's default) draws no execution; "
                      "-show prop (or all, neg) selects them\n", s.outdir);
  }
  if (rc == 0 && s.skip.n) {
    push(&s, "--herd-skip");
    push(&s, own(&s, lc_xstrdup(s.skip.s)));
  }
  lc_buf_fini(&s.skip);
  lc_vec_free(&s.dirs);
  if (rc != 0) {
    lc_vec_free(&s.out);
    return NULL;
  }
  push(&s, NULL);
  *nargc = (int)s.out.n - 1;
  lc_vec_push(owned, (char *)s.out.v);   /* the array itself */
  return s.out.v;
}

/* ---- -skipcheck and -through invalid ----------------------------------------------- */

/* The model's text with the checks named in `skip` (comma-separated; "*":
 * every check, herd's -through invalid) blanked out, so that they do not
 * apply, as herd7 leaves them out.  The statements are found as herd's
 * models write them: a line starting with acyclic, irreflexive or empty
 * (not a flag), up to its `as NAME`, or for an unnamed one up to the next
 * line that starts a statement.  Blanks keep every line and column.  The
 * checks of included files are not touched: *missing names those asked
 * for that the file itself does not hold. */
static bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.';
}

static bool word_at(const char *t, size_t i, size_t n, const char *w) {
  size_t k = strlen(w);
  return i + k <= n && !memcmp(t + i, w, k) && (i + k == n || !is_ident(t[i + k])) && (i == 0 || !is_ident(t[i - 1]));
}

static bool starts_statement(const char *t, size_t i, size_t n) {
  static const char *const kw[] = {"let", "acyclic", "irreflexive", "empty", "flag", "include", "show", "unshow",
                                   "procedure", "call", "with", "undefined_unless", "enum", "instructions", "(*"};
  for (size_t k = 0; k < LC_ARRAY_LEN(kw); k++)
    if (kw[k][0] == '(' ? (i + 1 < n && t[i] == '(' && t[i + 1] == '*') : word_at(t, i, n, kw[k])) return true;
  return false;
}

static bool name_listed(const char *skip, const char *name, size_t len) {
  for (const char *p = skip; *p;) {
    size_t l = strcspn(p, ",");
    if ((l == 1 && *p == '*') || (l == len && !memcmp(p, name, len))) return true;
    p += l + (p[l] == ',');
  }
  return false;
}

char *herd_skip_checks(const char *text, size_t n, const char *skip, lc_buf *missing) {
  char *out = lc_xmalloc(n + 1);
  memcpy(out, text, n);
  out[n] = '\0';
  bool all = false;
  for (const char *p = skip; *p;) {
    size_t l = strcspn(p, ",");
    if (l == 1 && *p == '*') all = true;
    p += l + (p[l] == ',');
  }
  lc_buf found;
  lc_buf_init(&found);
  int depth = 0;            /* of (* comments *) */
  bool in_string = false, line_start = true;
  for (size_t i = 0; i < n; i++) {
    char c = text[i];
    if (in_string) {
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '(' && i + 1 < n && text[i + 1] == '*') {
      depth++, i++;
      continue;
    }
    if (depth) {
      if (c == '*' && i + 1 < n && text[i + 1] == ')') depth--, i++;
      if (c == '\n') line_start = true;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c == '\n') {
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') continue;
    bool at_start = line_start;
    line_start = false;
    if (!at_start || !(word_at(text, i, n, "acyclic") || word_at(text, i, n, "irreflexive") ||
                       word_at(text, i, n, "empty")))
      continue;
    /* its extent: to `as NAME`, or to the next statement's line */
    size_t end = n, name = 0, nlen = 0;
    bool nl = false, by_line = false;
    for (size_t k = i; k < n; k++) {
      if (text[k] == '\n') {
        nl = true;
        continue;
      }
      if (nl && text[k] != ' ' && text[k] != '\t' && text[k] != '\r') {
        if (starts_statement(text, k, n)) {
          end = k;
          by_line = true;
          break;
        }
        nl = false;
      }
      if (word_at(text, k, n, "as")) {
        size_t q = k + 2;
        while (q < n && (text[q] == ' ' || text[q] == '\t')) q++;
        name = q;
        while (q < n && is_ident(text[q])) q++;
        nlen = q - name;
        end = q;
        break;
      }
    }
    bool drop = nlen ? name_listed(skip, text + name, nlen) : all;
    if (drop) {
      for (size_t k = i; k < end; k++)
        if (out[k] != '\n') out[k] = ' ';
      if (nlen) lc_buf_printf(&found, ",%.*s,", (int)nlen, text + name);
    }
    i = end - 1;
    line_start = by_line;
  }
  for (const char *p = skip; *p;) {
    size_t l = strcspn(p, ",");
    if (!(l == 1 && *p == '*')) {
      char *want = lc_xmalloc(l + 3);
      snprintf(want, l + 3, ",%.*s,", (int)l, p);
      if (!found.s || !strstr(found.s, want)) lc_buf_printf(missing, "%s%.*s", missing->n ? ", " : "", (int)l, p);
      free(want);
    }
    p += l + (p[l] == ',');
  }
  lc_buf_fini(&found);
  return out;
}
