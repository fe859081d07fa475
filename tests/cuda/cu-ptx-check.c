/* cu-ptx-check.c - compiles the CUDA that litmus-run generates for many
 * tests with nvcc (then ptxas) and with NVRTC, and checks that the PTX
 * holds every thread's litmus instructions unchanged and in program order.
 * SPDX-License-Identifier: MIT
 *
 *   cu-ptx-check [--nvcc PATH] [--arch LIST] [--ptxas LIST] [--nvrtc LIST]
 *                [--nvrtc-cubin LIST] [--no-nvrtc] [--refused FILE] [--keep DIR] FILE|DIR...
 *
 * LIST is like 75,80,90 (the default for each) or "none": the
 * architectures for nvcc -ptx, for ptxas on nvcc's PTX, for NVRTC to PTX
 * and for NVRTC to a cubin (as litmus-run compiles).
 *
 * All tests go into one translation unit per architecture (the prelude
 * once, each test in a namespace with renamed kernels), so each compiler
 * runs once per architecture; the nvcc runs go in parallel.
 *
 * The expected PTX of an instruction is worked out here from the litmus
 * text, independently of src/cuda/cu_ptx.c: the qualifiers as written, the
 * state space and type filled in, the two documented rewrites (atom/red.sub
 * as add of the negated operand, red forms PTX lacks as atom).  Each PTX
 * instruction is attributed to a litmus instruction through the
 * "// P<n> line <l>:" comment the generator puts before it; a phase
 * boundary (barrier.cta.sync, the non-.aligned bar.cta.sync) must fall between the role's neighbours.
 *
 * Exit status: 0 all good, 1 a check failed, 2 usage, 77 no compiler.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include <dirent.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda/cu_int.h"
#include "lc.h"
#include "litmus/ast.h"

extern char **environ;

typedef LC_VEC(char *) strvec;

/* ---- expected instructions ------------------------------------------------------- */

typedef struct expect {
  int role;                 /* thread id N of PN */
  int line;                 /* litmus source line */
  char op[96];              /* PTX opcode with qualifiers */
  int imm_pos[3];           /* operand positions holding constants ... */
  int64_t imm[3];           /* ... and their values */
  int nimm;
  bool barrier;             /* a phase boundary, not attributed to a role */
} expect;

typedef struct tcase {
  char *path;
  lc_source src;
  lt_test *t;
  lx_program *p;
  cu_plan *pl;
  LC_VEC(expect) ex;
} tcase;

static void add_imm(expect *e, int pos, const lt_operand *o, bool negate) {
  if (o->kind != LT_OPND_IMM) return;
  e->imm_pos[e->nimm] = pos;
  e->imm[e->nimm++] = negate ? (int64_t)(0 - (uint64_t)o->imm) : o->imm;
}

static const char *type_of(const lt_instr *in, int width) {
  static const char *const names[] = {"", "b32", "u32", "s32", "b64", "u64", "s64"};
  bool w64 = width == 64;
  if (in->type != LT_TYPE_NONE) return names[in->type];
  if (in->kind == LT_I_LD || in->kind == LT_I_ST) return w64 ? "u64" : "u32";
  switch (in->rmw) {
  case LT_RMW_MIN: case LT_RMW_MAX: return w64 ? "s64" : "s32";
  case LT_RMW_AND: case LT_RMW_OR: case LT_RMW_XOR: case LT_RMW_EXCH: case LT_RMW_CAS: return w64 ? "b64" : "b32";
  default: return w64 ? "u64" : "u32";
  }
}

static void cat(char *dst, const char *s) {
  if (*s) {
    strcat(dst, ".");
    strcat(dst, s);
  }
}

static void expect_memory(const tcase *tc, int k, const lt_instr *in, expect *e) {
  bool rmw = in->kind == LT_I_ATOM || in->kind == LT_I_RED;
  bool as_atom = in->kind == LT_I_RED && (in->sem == LT_SEM_ACQUIRE || in->sem == LT_SEM_ACQ_REL ||
                                          in->rmw == LT_RMW_EXCH || in->rmw == LT_RMW_CAS);
  strcpy(e->op, in->kind == LT_I_LD ? "ld" : in->kind == LT_I_ST ? "st" : (in->kind == LT_I_ATOM || as_atom) ? "atom" : "red");
  cat(e->op, in->sem == LT_SEM_MMIO ? "mmio.relaxed" : lt_sem_name(in->sem));
  cat(e->op, lt_scope_name(in->scope));
  int v = in->addr.kind == LT_OPND_LOC ? cu_plan_vloc(tc->pl, k, &in->addr) : -1;
  lt_space space = in->space != LT_SPACE_NONE ? in->space : tc->p->locs[v].space;
  const char *shared = in->space != LT_SPACE_SHARED || in->shared == LT_SHARED_PLAIN ? "shared"
                       : in->shared == LT_SHARED_CTA ? "shared::cta" : "shared::cluster";
  cat(e->op, space == LT_SPACE_SHARED ? shared : "global");
  if (!rmw) cat(e->op, lt_cache_name(in->cache));
  if (rmw) cat(e->op, in->rmw == LT_RMW_SUB ? "add" : lt_rmw_name(in->rmw));
  cat(e->op, type_of(in, tc->pl->width));
  int first = in->kind == LT_I_ST || (in->kind == LT_I_RED && !as_atom) ? 1 : 2;
  add_imm(e, first, &in->a, rmw && in->rmw == LT_RMW_SUB);
  if (in->rmw == LT_RMW_CAS) add_imm(e, 3, &in->b, false);
}

static void expect_alu(const tcase *tc, const lt_instr *in, expect *e) {
  static const char *const ops[] = {"mov.b", "add.s", "sub.s", "mul.lo.s", "div.s", "rem.s", "and.b", "or.b", "xor.b"};
  bool zero_div = (in->alu == LT_ALU_DIV || in->alu == LT_ALU_REM) && in->b.kind == LT_OPND_IMM && in->b.imm == 0;
  snprintf(e->op, sizeof e->op, "%s%d", zero_div ? "mov.b" : ops[in->alu], tc->pl->width);
  if (zero_div) return;
  add_imm(e, 1, &in->a, false);
  if (in->alu != LT_ALU_MOV) add_imm(e, 2, &in->b, false);
}

static void expect_fence(const lt_instr *in, expect *e) {
  static const char *const levels[] = {"", "cta", "cluster", "gl", "sys"};
  if (in->kind == LT_I_FENCE_ALIAS) strcpy(e->op, "fence.proxy.alias");
  else if (in->membar) snprintf(e->op, sizeof e->op, "membar.%s", levels[in->scope]);
  else if (in->fence_no_sem) snprintf(e->op, sizeof e->op, "fence.%s", lt_scope_name(in->scope));
  else snprintf(e->op, sizeof e->op, "fence.%s.%s", lt_sem_name(in->sem), lt_scope_name(in->scope));
}

/* sm_90 instructions are written in their PTX spelling (the parser takes
 * no other for bulk copies and async proxy fences); an mbarrier operation
 * is checked when written with its state space and .b64, mapa with the
 * test's width. */
static bool expect_sm90(const tcase *tc, const lt_instr *in, expect *e) {
  const char *m = in->mnemonic ? in->mnemonic : "";
  switch (in->kind) {
  case LT_I_MBAR:
    if (!strstr(m, ".shared") || strcmp(m + (strlen(m) > 4 ? strlen(m) - 4 : 0), ".b64") != 0) return false;
    snprintf(e->op, sizeof e->op, "%s", m);
    return true;
  case LT_I_BULK: case LT_I_FENCE_PROXY:
    snprintf(e->op, sizeof e->op, "%s", m);
    return true;
  case LT_I_MAPA:
    snprintf(e->op, sizeof e->op, "mapa.shared::cluster.u%d", tc->pl->width);
    return true;
  default: return false;
  }
}

static void push(tcase *tc, expect e) { lc_vec_push(&tc->ex, e); }

static void expect_instr(tcase *tc, int k, const cu_item *it) {
  const lt_instr *in = it->in;
  expect e;
  memset(&e, 0, sizeof e);
  e.role = tc->p->threads[k].id;
  e.line = in->at.line;
  switch (in->kind) {
  case LT_I_LD: case LT_I_ST: case LT_I_ATOM: case LT_I_RED: expect_memory(tc, k, in, &e); break;
  case LT_I_FENCE: case LT_I_FENCE_ALIAS:
    if (in->mbar_init_fence) strcpy(e.op, "fence.mbarrier_init.release.cluster");
    else expect_fence(in, &e);
    break;
  case LT_I_BAR:
    if (it->dropped || it->joined) return;
    strcpy(e.op, in->bar_cluster ? "barrier.cluster.wait" : "barrier.cta.sync");
    e.barrier = true;
    break;
  case LT_I_ALU: expect_alu(tc, in, &e); break;
  case LT_I_BRANCH:
    snprintf(e.op, sizeof e.op, "setp.%s.s%d", (const char *[]){"eq", "ne", "lt", "le", "gt", "ge"}[in->cmp],
             tc->pl->width);
    add_imm(&e, 1, &in->a, false);
    add_imm(&e, 2, &in->b, false);
    push(tc, e);
    e.nimm = 0;
    strcpy(e.op, "bra");
    break;
  case LT_I_GOTO: strcpy(e.op, "bra"); break;
  default:
    if (!expect_sm90(tc, in, &e)) return;
    break;
  }
  push(tc, e);
}

/* ---- loading tests ------------------------------------------------------------------ */

static void tcase_free(tcase *tc) {
  cu_plan_free(tc->pl);
  lx_program_free(tc->p);
  lt_test_free(tc->t);
  lc_source_fini(&tc->src);
  lc_vec_free(&tc->ex);
  free(tc->path);
}

/* 1: planned; 0: refused (message in why); -1: does not load. */
static int load(tcase *tc, const char *path, char **why) {
  memset(tc, 0, sizeof *tc);
  tc->path = lc_xstrdup(path);
  if (lc_source_read(&tc->src, path) < 0) return -1;
  lc_diag d;
  lc_diag_init(&d, &tc->src, NULL);
  tc->t = lt_parse(&tc->src, &d);
  lx_options lo = {LX_DEFAULT_UNROLL, LX_DEFAULT_MAX_PATHS, 0, false, 0, 0};
  /* a C++ test's PTX is the compiler's, not in the test's order:
   * tests/cuda/cpp-compile.sh compiles those */
  if (tc->t && tc->t->cpp) {
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s: a C++ test (tests/cuda/cpp-compile.sh compiles its kernels)", path);
    *why = lc_buf_take(&b);
    lc_buf_fini(&b);
    lc_diag_fini(&d);
    return 0;
  }
  if (tc->t) tc->p = lx_lower(tc->t, &lo, &d);
  if (tc->p) tc->pl = cu_plan_new(tc->p, &d);
  int rc = tc->pl ? 1 : tc->p ? 0 : -1;
  if (rc <= 0 && lc_diag_first_error(&d)) *why = lc_xstrdup(lc_diag_first_error(&d));
  lc_diag_fini(&d);
  if (rc == 1)
    for (size_t k = 0; k < tc->pl->nroles; k++)
      for (size_t i = 0; i < tc->pl->roles[k].nitems; i++)
        if (tc->pl->roles[k].items[i].in) expect_instr(tc, (int)k, &tc->pl->roles[k].items[i]);
  return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void find_files(const char *path, strvec *out) {
  struct stat st;
  if (stat(path, &st) < 0) return;
  if (!S_ISDIR(st.st_mode)) {
    lc_vec_push(out, lc_xstrdup(path));
    return;
  }
  DIR *dir = opendir(path);
  if (!dir) return;
  struct dirent *de;
  while ((de = readdir(dir))) {
    if (de->d_name[0] == '.') continue;
    lc_buf b;
    lc_buf_init(&b);
    lc_buf_printf(&b, "%s/%s", path, de->d_name);
    size_t n = strlen(de->d_name);
    struct stat s2;
    if (stat(b.s, &s2) == 0 && (S_ISDIR(s2.st_mode) || (n > 7 && strcmp(de->d_name + n - 7, ".litmus") == 0)))
      find_files(b.s, out);
    lc_buf_fini(&b);
  }
  closedir(dir);
}

/* ---- PTX ------------------------------------------------------------------------------ */

typedef struct pins {
  char op[96];
  char args[4][64];
  int nargs;
  int role, line;           /* attribution, -1 when none */
} pins;

typedef struct pentry {
  char name[64];
  long param_size;          /* bytes of its one parameter, the cu_launch block */
  LC_VEC(pins) ins;
} pentry;

typedef LC_VEC(pentry) ptx_file;

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = 0;
  return s;
}

static void parse_instr(char *s, pins *in) {
  char *c = strstr(s, "//");
  if (c) *c = 0;
  s = trim(s);
  char *semi = strchr(s, ';');
  if (semi) *semi = 0;
  if (*s == '@') s = strpbrk(s, " \t") ? trim(strpbrk(s, " \t")) : s;
  size_t n = strcspn(s, " \t");
  snprintf(in->op, sizeof in->op, "%.*s", (int)n, s);
  char *rest = trim(s + n);
  in->nargs = 0;
  while (*rest && in->nargs < 4) {
    size_t m = strcspn(rest, ",");
    char arg[64];
    snprintf(arg, sizeof arg, "%.*s", (int)m, rest);
    snprintf(in->args[in->nargs++], sizeof in->args[0], "%s", trim(arg));
    rest += m;
    if (*rest == ',') rest++;
  }
}

static bool is_code(const char *s) {
  size_t n = strlen(s);
  return *s && *s != '.' && *s != '{' && *s != '}' && strncmp(s, "//", 2) != 0 && s[n - 1] != ':';
}

static void read_entry_line(pentry *e, char *s, int *role, int *line) {
  int r, l;
  if (sscanf(s, "// P%d line %d:", &r, &l) == 2) {
    *role = r;
    *line = l;
    return;
  }
  if (strncmp(s, "// end inline asm", 17) == 0) *role = *line = -1;
  if (!is_code(s)) return;
  pins in;
  memset(&in, 0, sizeof in);
  parse_instr(s, &in);
  in.role = *role;
  in.line = *line;
  lc_vec_push(&e->ins, in);
}

static int read_ptx(const char *path, ptx_file *f) {
  FILE *fp = fopen(path, "r");
  if (!fp) return -1;
  char buf[4096];
  pentry *cur = NULL;
  int depth = 0, role = -1, line = -1;
  while (fgets(buf, sizeof buf, fp)) {
    char *s = trim(buf);
    const char *ent = strstr(s, ".entry ");
    if (ent && !cur) {
      pentry e;
      memset(&e, 0, sizeof e);
      sscanf(ent + 7, "%63[A-Za-z0-9_]", e.name);
      lc_vec_push(f, e);
      cur = &f->v[f->n - 1];
      depth = 0;
      continue;
    }
    if (!cur) continue;
    const char *par = strstr(s, "_param_0[");
    if (depth == 0 && par) cur->param_size = strtol(par + 9, NULL, 10);
    if (strcmp(s, "{") == 0 && buf[0] == '{') depth++;
    else if (strcmp(s, "}") == 0 && buf[0] == '}' && --depth == 0) cur = NULL;
    else if (depth > 0) read_entry_line(cur, s, &role, &line);
  }
  fclose(fp);
  return 0;
}

static void ptx_free(ptx_file *f) {
  for (size_t i = 0; i < f->n; i++) lc_vec_free(&f->v[i].ins);
  lc_vec_free(f);
}

/* ---- the check ------------------------------------------------------------------------ */

static bool matches(const expect *e, const pins *in) {
  if (strcmp(e->op, in->op) != 0) return false;
  if (e->barrier) return in->role < 0;
  if (in->role != e->role || in->line != e->line) return false;
  for (int i = 0; i < e->nimm; i++) {
    char want[32];
    snprintf(want, sizeof want, "%" PRId64, e->imm[i]);
    if (e->imm_pos[i] >= in->nargs || strcmp(in->args[e->imm_pos[i]], want) != 0) return false;
  }
  return true;
}

/* Each role's expected instructions must be a subsequence of the kernel. */
static int check_test(const tcase *tc, const pentry *k, const char *what) {
  for (size_t r = 0; r < tc->pl->nroles; r++) {
    int id = tc->p->threads[r].id;
    size_t j = 0;
    for (size_t x = 0; x < tc->ex.n; x++) {
      const expect *e = &tc->ex.v[x];
      if (e->role != id) continue;
      while (j < k->ins.n && !matches(e, &k->ins.v[j])) j++;
      if (j == k->ins.n) {
        fprintf(stderr, "FAIL %s (%s): P%d line %d: '%s' not found in program order in the PTX\n", tc->path, what,
                id, e->line, e->op);
        return -1;
      }
      j++;
    }
  }
  return 0;
}

static int check_ptx(tcase *tcs, size_t n, const int *in_batch, const char *ptx, const char *what) {
  ptx_file f = {0};
  if (read_ptx(ptx, &f) < 0) {
    fprintf(stderr, "FAIL %s: cannot read %s\n", what, ptx);
    return -1;
  }
  int fails = 0;
  for (size_t i = 0; i < n; i++) {
    if (!in_batch[i]) continue;
    char want[64];
    snprintf(want, sizeof want, "cu_test_%zu", i);
    const pentry *k = NULL;
    for (size_t e = 0; e < f.n && !k; e++)
      if (strcmp(f.v[e].name, want) == 0) k = &f.v[e];
    if (!k) {
      fprintf(stderr, "FAIL %s (%s): kernel %s missing from the PTX\n", tcs[i].path, what, want);
      fails++;
    } else if (k->param_size != (long)sizeof(cu_launch)) {
      /* the host fills the parameter block the device reads: same layout */
      fprintf(stderr, "FAIL %s (%s): the kernel's parameter block is %ld bytes, the host's cu_launch %zu\n",
              tcs[i].path, what, k->param_size, sizeof(cu_launch));
      fails++;
    } else if (check_test(&tcs[i], k, what) < 0) {
      fails++;
    }
  }
  ptx_free(&f);
  return fails ? -1 : 0;
}

/* ---- compiling ------------------------------------------------------------------------ */

static void batch_source(lc_buf *b, tcase *tcs, size_t n, int sm, int *in_batch) {
  /* the other role orders hold the same instructions (litmus-run --check-sass checks them all) */
  lc_buf_puts(b, "#define CU_FIRST_ROTATION_ONLY\n");
  cu_gen_prelude(b);
  for (size_t i = 0; i < n; i++) {
    in_batch[i] = tcs[i].pl && tcs[i].pl->min_sm <= sm;
    if (!in_batch[i]) continue;
    lc_buf_printf(b, "// %s\nnamespace t%zu {\n#define CU_KNAME(name) name##_%zu\n", tcs[i].path, i, i);
    cu_gen_body(b, tcs[i].pl);
    lc_buf_printf(b, "#undef CU_KNAME\n}\n\n");
  }
}

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

static pid_t spawn(char *const argv[]) {
  pid_t pid;
  return posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) == 0 ? pid : -1;
}

static int wait_ok(pid_t pid) {
  int st = 0;
  return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

typedef struct job {
  int sm;
  char cu[512], ptx[512], ptxas[512];
  int *in_batch;
  pid_t nvcc;
  bool ptxas_too;
} job;

/* nvcc -ptx pastes inline asm unchecked; ptxas is what reads it. */
static pid_t start_ptxas(job *j) {
  if (wait_ok(j->nvcc) < 0) {
    fprintf(stderr, "FAIL nvcc -ptx sm_%d failed on %s\n", j->sm, j->cu);
    return -2;
  }
  if (!j->ptxas_too) return 0;
  char arch[32];
  snprintf(arch, sizeof arch, "-arch=sm_%d", j->sm);
  char *argv[] = {j->ptxas, arch, j->ptx, "-o", "/dev/null", NULL};
  return spawn(argv);
}

static int nvcc_finish(job *j, pid_t ptxas, tcase *tcs, size_t n) {
  char what[64];
  snprintf(what, sizeof what, "nvcc -ptx sm_%d", j->sm);
  if (ptxas == -2) return -1;
  if (ptxas != 0 && wait_ok(ptxas) < 0) {
    fprintf(stderr, "FAIL ptxas sm_%d: the generated PTX does not assemble (%s)\n", j->sm, j->ptx);
    return -1;
  }
  return check_ptx(tcs, n, j->in_batch, j->ptx, what);
}

/* NVRTC to PTX (checked like nvcc's), and with `cubin` also to a cubin,
 * the way litmus-run compiles. */
static int nvrtc_check(cu_nvrtc *rtc, const char *src, const char *dir, int sm, bool cubin, tcase *tcs, size_t n,
                       int *in_batch) {
  lc_diag d;
  lc_diag_init(&d, NULL, stderr);
  char *img = NULL, what[64], path[512];
  size_t size = 0;
  int rc = 0;
  if (cubin) rc = cu_nvrtc_compile(rtc, src, "litmus-batch.cu", sm, false, &img, &size, &d);
  free(img);
  img = NULL;
  if (rc == 0) rc = cu_nvrtc_compile(rtc, src, "litmus-batch.cu", sm, true, &img, &size, &d);
  snprintf(what, sizeof what, "NVRTC sm_%d", sm);
  snprintf(path, sizeof path, "%s/nvrtc-sm_%d.ptx", dir, sm);
  if (rc == 0 && write_file(path, img) == 0) rc = check_ptx(tcs, n, in_batch, path, what);
  else if (rc != 0) fprintf(stderr, "FAIL %s: compilation failed\n", what);
  free(img);
  lc_diag_fini(&d);
  return rc;
}

/* ---- main ------------------------------------------------------------------------------- */

typedef struct opts {
  const char *nvcc, *refused, *keep;
  int archs[8], ptxas[8], rtc[8], cubin[8];
  int narchs, nptxas, nrtc, ncubin;
  bool nvrtc;
  strvec files;
} opts;

/* "75,90" (or "none"); returns the count. */
static int arch_list(char *s, int *out) {
  int n = 0;
  while (*s && n < 8) {
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s) break;
    out[n++] = (int)v;
    s = end + strspn(end, ",");
  }
  return n;
}

static bool in_list(const int *v, int n, int x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

static int parse_args(int argc, char **argv, opts *o) {
  o->nvcc = getenv("NVCC");
  o->nvrtc = true;
  o->narchs = o->nptxas = o->nrtc = o->ncubin = 3;
  o->archs[0] = o->ptxas[0] = o->rtc[0] = o->cubin[0] = 75;
  o->archs[1] = o->ptxas[1] = o->rtc[1] = o->cubin[1] = 80;
  o->archs[2] = o->ptxas[2] = o->rtc[2] = o->cubin[2] = 90;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--nvcc") == 0 && i + 1 < argc) o->nvcc = argv[++i];
    else if (strcmp(argv[i], "--refused") == 0 && i + 1 < argc) o->refused = argv[++i];
    else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc) o->keep = argv[++i];
    else if (strcmp(argv[i], "--no-nvrtc") == 0) o->nvrtc = false;
    else if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc) o->narchs = arch_list(argv[++i], o->archs);
    else if (strcmp(argv[i], "--ptxas") == 0 && i + 1 < argc) o->nptxas = arch_list(argv[++i], o->ptxas);
    else if (strcmp(argv[i], "--nvrtc") == 0 && i + 1 < argc) o->nrtc = arch_list(argv[++i], o->rtc);
    else if (strcmp(argv[i], "--nvrtc-cubin") == 0 && i + 1 < argc) o->ncubin = arch_list(argv[++i], o->cubin);
    else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: cu-ptx-check [--nvcc PATH] [--arch 75,80,90] [--ptxas 75,80,90] [--no-nvrtc]\n"
                      "         [--nvrtc 75,80,90] [--nvrtc-cubin 75,80,90] [--refused FILE] [--keep DIR] FILE|DIR...\n");
      return -1;
    } else {
      find_files(argv[i], &o->files);
    }
  }
  if (o->nvcc && !*o->nvcc) o->nvcc = NULL;
  qsort(o->files.v, o->files.n, sizeof *o->files.v, cmp_str);
  return 0;
}

/* The refused tests must be exactly the ones listed (base names). */
static int check_refused(const char *list, char **refused, size_t n) {
  FILE *f = fopen(list, "r");
  if (!f) {
    fprintf(stderr, "FAIL cannot read %s\n", list);
    return -1;
  }
  char line[512];
  int fails = 0;
  strvec want = {0};
  while (fgets(line, sizeof line, f)) {
    char *s = trim(line);
    if (*s && *s != '#') lc_vec_push(&want, lc_xstrdup(s));
  }
  fclose(f);
  for (size_t i = 0; i < n; i++) {
    const char *base = strrchr(refused[i], '/') ? strrchr(refused[i], '/') + 1 : refused[i];
    bool listed = false;
    for (size_t j = 0; j < want.n; j++) listed |= strcmp(want.v[j], base) == 0;
    if (!listed) fprintf(stderr, "FAIL %s is refused but not listed in %s\n", refused[i], list), fails++;
  }
  for (size_t j = 0; j < want.n; j++) {
    bool seen = false;
    for (size_t i = 0; i < n; i++) {
      const char *base = strrchr(refused[i], '/') ? strrchr(refused[i], '/') + 1 : refused[i];
      seen |= strcmp(want.v[j], base) == 0;
    }
    if (!seen) fprintf(stderr, "FAIL %s is listed in %s but the generator now accepts it\n", want.v[j], list), fails++;
    free(want.v[j]);
  }
  lc_vec_free(&want);
  return fails ? -1 : 0;
}

static int load_all(opts *o, tcase *tcs, strvec *refused) {
  int fails = 0;
  for (size_t i = 0; i < o->files.n; i++) {
    char *why = NULL;
    int rc = load(&tcs[i], o->files.v[i], &why);
    if (rc < 0) {
      fprintf(stderr, "FAIL %s does not load: %s\n", o->files.v[i], why ? why : "?");
      fails++;
    } else if (rc == 0) {
      printf("refused %s\n", why ? why : o->files.v[i]);
      lc_vec_push(refused, lc_xstrdup(o->files.v[i]));
    }
    free(why);
  }
  return fails;
}

static int compile_all(opts *o, cu_nvrtc *rtc, tcase *tcs, size_t n, const char *dir) {
  job jobs[8];
  lc_buf src[8];
  int fails = 0;
  for (int a = 0; a < o->narchs; a++) {
    job *j = &jobs[a];
    memset(j, 0, sizeof *j);
    j->sm = o->archs[a];
    j->in_batch = lc_xcalloc(n ? n : 1, sizeof(int));
    lc_buf_init(&src[a]);
    batch_source(&src[a], tcs, n, j->sm, j->in_batch);
    snprintf(j->cu, sizeof j->cu, "%s/batch-sm_%d.cu", dir, j->sm);
    snprintf(j->ptx, sizeof j->ptx, "%s/nvcc-sm_%d.ptx", dir, j->sm);
    j->nvcc = -1;
    if (write_file(j->cu, src[a].s) < 0) fails++;
    else if (o->nvcc) {
      char arch[32];
      snprintf(arch, sizeof arch, "-arch=sm_%d", j->sm);
      char *argv[] = {(char *)o->nvcc, "-ptx", arch, "-o", j->ptx, j->cu, NULL};
      j->nvcc = spawn(argv);
      j->ptxas_too = in_list(o->ptxas, o->nptxas, j->sm);
      snprintf(j->ptxas, sizeof j->ptxas, "%.*sptxas", (int)(strrchr(o->nvcc, '/') ? strrchr(o->nvcc, '/') - o->nvcc + 1 : 0), o->nvcc);
    }
  }
  for (int a = 0; a < o->narchs; a++)
    if (rtc && in_list(o->rtc, o->nrtc, jobs[a].sm) && nvrtc_check(rtc, src[a].s, dir, jobs[a].sm, in_list(o->cubin, o->ncubin, jobs[a].sm), tcs, n,
                           jobs[a].in_batch) < 0)
      fails++;
  pid_t ptxas[8] = {0};
  for (int a = 0; a < o->narchs; a++)
    if (o->nvcc) ptxas[a] = start_ptxas(&jobs[a]);
  for (int a = 0; a < o->narchs; a++) {
    if (o->nvcc && nvcc_finish(&jobs[a], ptxas[a], tcs, n) < 0) fails++;
    lc_buf_fini(&src[a]);
    free(jobs[a].in_batch);
  }
  return fails;
}

static cu_nvrtc *open_nvrtc(const opts *o) {
  if (!o->nvrtc) return NULL;
  lc_diag d;
  lc_diag_init(&d, NULL, NULL);
  cu_nvrtc *rtc = cu_nvrtc_open(&d);
  if (!rtc) printf("NVRTC not found: %s\n", lc_diag_first_error(&d) ? lc_diag_first_error(&d) : "");
  lc_diag_fini(&d);
  return rtc;
}

static void remove_dir(const char *dir, const opts *o) {
  static const char *const names[] = {"batch-sm_%d.cu", "nvcc-sm_%d.ptx", "nvrtc-sm_%d.ptx"};
  for (int a = 0; a < o->narchs; a++)
    for (size_t i = 0; i < LC_ARRAY_LEN(names); i++) {
      char name[64], path[600];
      snprintf(name, sizeof name, names[i], o->archs[a]);
      snprintf(path, sizeof path, "%s/%s", dir, name);
      unlink(path);
    }
  rmdir(dir);
}

static void print_list(const char *what, const int *v, int n) {
  printf("%s", what);
  for (int i = 0; i < n; i++) printf("%ssm_%d", i ? "," : " ", v[i]);
  if (!n) printf(" none");
}

int main(int argc, char **argv) {
  opts o;
  memset(&o, 0, sizeof o);
  if (parse_args(argc, argv, &o) < 0) return 2;
  double t0 = lc_now();
  tcase *tcs = lc_xcalloc(o.files.n ? o.files.n : 1, sizeof *tcs);
  strvec refused = {0};
  int fails = load_all(&o, tcs, &refused);
  if (o.refused && check_refused(o.refused, refused.v, refused.n) < 0) fails++;
  char tmpl[] = "/tmp/cu-ptx-check.XXXXXX";
  const char *dir = o.keep ? o.keep : mkdtemp(tmpl);
  cu_nvrtc *rtc = open_nvrtc(&o);
  int rc;
  if (!o.nvcc && !rtc) {
    printf("SKIP: neither nvcc nor NVRTC to compile with\n");
    rc = 77;
  } else {
    fails += dir ? compile_all(&o, rtc, tcs, o.files.n, dir) : 1;
    printf("%zu tests, %zu refused, %zu checked:", o.files.n, refused.n, o.files.n - refused.n);
    if (o.nvcc) print_list(" nvcc -ptx", o.archs, o.narchs), print_list(", ptxas", o.ptxas, o.nptxas);
    if (rtc) print_list(", NVRTC ptx", o.rtc, o.nrtc), print_list(", NVRTC cubin", o.cubin, o.ncubin);
    printf("; %.1f s: %s\n", lc_now() - t0, fails ? "FAILED" : "ok");
    rc = fails ? 1 : 0;
  }
  cu_nvrtc_close(rtc);
  if (!o.keep && dir) remove_dir(dir, &o);
  for (size_t i = 0; i < o.files.n; i++) tcase_free(&tcs[i]);
  free(tcs);
  for (size_t i = 0; i < refused.n; i++) free(refused.v[i]);
  lc_vec_free(&refused);
  for (size_t i = 0; i < o.files.n; i++) free(o.files.v[i]);
  lc_vec_free(&o.files);
  return rc;
}
