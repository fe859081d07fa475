/* cu_nvrtc.c - NVRTC, opened with dlopen so that nothing CUDA is needed to
 * build or start litmus-run.
 * SPDX-License-Identifier: MIT
 *
 * We declare the handful of entry points we call ourselves; their C ABI
 * has been stable since NVRTC 7.
 */
#define _GNU_SOURCE /* dladdr */
#include "config.h"

#include <assert.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cu_int.h"

typedef int nvrtc_result;                  /* nvrtcResult; 0 is NVRTC_SUCCESS */
typedef struct nvrtc_prog *nvrtc_program;  /* nvrtcProgram */

struct cu_nvrtc {
  void *lib;
  char version[32];
  nvrtc_result (*Version)(int *, int *);
  const char *(*GetErrorString)(nvrtc_result);
  nvrtc_result (*CreateProgram)(nvrtc_program *, const char *, const char *, int, const char *const *,
                                const char *const *);
  nvrtc_result (*DestroyProgram)(nvrtc_program *);
  nvrtc_result (*CompileProgram)(nvrtc_program, int, const char *const *);
  nvrtc_result (*GetPTXSize)(nvrtc_program, size_t *);
  nvrtc_result (*GetPTX)(nvrtc_program, char *);
  nvrtc_result (*GetCUBINSize)(nvrtc_program, size_t *);
  nvrtc_result (*GetCUBIN)(nvrtc_program, char *);
  nvrtc_result (*GetProgramLogSize)(nvrtc_program, size_t *);
  nvrtc_result (*GetProgramLog)(nvrtc_program, char *);
};

static const char *const sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                      "libnvrtc.so.11.1", "libnvrtc.so.11.0", "libnvrtc.so"};

/* The toolkit found at configure time first, then the loader's path. */
static void *open_lib(void) {
  const char *dir = LC_CUDA_DIR;
  for (size_t i = 0; *dir && i < LC_ARRAY_LEN(sonames); i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/lib64/%s", dir, sonames[i]);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  for (size_t i = 0; i < LC_ARRAY_LEN(sonames); i++) {
    void *h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
  }
  return NULL;
}

/* dlsym returns an object pointer; POSIX guarantees it converts to a
 * function pointer, which memcpy expresses without a cast warning. */
static bool sym(void *lib, const char *name, void *fn, size_t size) {
  void *p = dlsym(lib, name);
  if (!p) return false;
  memcpy(fn, &p, size);
  return true;
}
#define SYM(n, f, name) sym((n)->lib, name, &(n)->f, sizeof((n)->f))

cu_nvrtc *cu_nvrtc_open(lc_diag *d) {
  cu_nvrtc *n = lc_xcalloc(1, sizeof *n);
  n->lib = open_lib();
  if (!n->lib) {
    lc_error(d, (lc_loc){0}, "NVRTC (libnvrtc.so) not found: install the CUDA toolkit's runtime compiler "
                             "(searched %s/lib64 and the loader's path)", *LC_CUDA_DIR ? LC_CUDA_DIR : "no toolkit");
    free(n);
    return NULL;
  }
  bool ok = SYM(n, Version, "nvrtcVersion") && SYM(n, GetErrorString, "nvrtcGetErrorString") &&
            SYM(n, CreateProgram, "nvrtcCreateProgram") && SYM(n, DestroyProgram, "nvrtcDestroyProgram") &&
            SYM(n, CompileProgram, "nvrtcCompileProgram") && SYM(n, GetPTXSize, "nvrtcGetPTXSize") &&
            SYM(n, GetPTX, "nvrtcGetPTX") && SYM(n, GetProgramLogSize, "nvrtcGetProgramLogSize") &&
            SYM(n, GetProgramLog, "nvrtcGetProgramLog");
  /* nvrtcGetCUBIN arrived in CUDA 11.1; without it we load PTX. */
  SYM(n, GetCUBINSize, "nvrtcGetCUBINSize");
  SYM(n, GetCUBIN, "nvrtcGetCUBIN");
  int major = 0, minor = 0;
  if (!ok || n->Version(&major, &minor) != 0) {
    lc_error(d, (lc_loc){0}, "the NVRTC library found lacks the entry points litmus-run needs");
    cu_nvrtc_close(n);
    return NULL;
  }
  snprintf(n->version, sizeof n->version, "%d.%d", major, minor);
  return n;
}

void cu_nvrtc_close(cu_nvrtc *n) {
  if (!n) return;
  if (n->lib) dlclose(n->lib);
  free(n);
}

const char *cu_nvrtc_version(const cu_nvrtc *n) { return n->version; }

static void report_log(cu_nvrtc *n, nvrtc_program prog, const char *what, nvrtc_result r, lc_diag *d) {
  size_t size = 0;
  char *log = NULL;
  if (n->GetProgramLogSize(prog, &size) == 0 && size > 1) {
    log = lc_xmalloc(size);
    if (n->GetProgramLog(prog, log) != 0) log[0] = 0;
  }
  lc_error(d, (lc_loc){0}, "%s: %s%s%s", what, n->GetErrorString(r), log && *log ? "\n" : "", log ? log : "");
  free(log);
}

static int take_image(cu_nvrtc *n, nvrtc_program prog, bool ptx, char **image, size_t *size, lc_diag *d) {
  bool cubin = !ptx && n->GetCUBINSize && n->GetCUBIN;
  nvrtc_result r = cubin ? n->GetCUBINSize(prog, size) : n->GetPTXSize(prog, size);
  if (r != 0 || *size == 0) {
    lc_error(d, (lc_loc){0}, "nvrtcGet%sSize: %s", cubin ? "CUBIN" : "PTX", r ? n->GetErrorString(r) : "empty");
    return -1;
  }
  *image = lc_xmalloc(*size + 1);
  r = cubin ? n->GetCUBIN(prog, *image) : n->GetPTX(prog, *image);
  (*image)[*size] = 0;
  if (r != 0) {
    lc_error(d, (lc_loc){0}, "nvrtcGet%s: %s", cubin ? "CUBIN" : "PTX", n->GetErrorString(r));
    free(*image);
    *image = NULL;
    return -1;
  }
  return 0;
}

static int compile_headers(cu_nvrtc *n, const char *src, const char *name, int sm, bool ptx, const char *const *extra,
                           size_t nextra, int nh, const char *const *hsrc, const char *const *hname, char **image,
                           size_t *size, lc_diag *d);

int cu_nvrtc_compile_with(cu_nvrtc *n, const char *src, const char *name, int sm, bool ptx,
                          const char *const *extra, size_t nextra, char **image, size_t *size, lc_diag *d) {
  return compile_headers(n, src, name, sm, ptx, extra, nextra, 0, NULL, NULL, image, size, d);
}

/* ... with headers given by name and text (nvrtcCreateProgram's headers) */
static int compile_headers(cu_nvrtc *n, const char *src, const char *name, int sm, bool ptx, const char *const *extra,
                           size_t nextra, int nh, const char *const *hsrc, const char *const *hname, char **image,
                           size_t *size, lc_diag *d) {
  assert(n && src && name && (extra || nextra == 0) && image && size && d);
  char arch[64];
  bool cubin = !ptx && n->GetCUBIN;
  snprintf(arch, sizeof arch, "--gpu-architecture=%s_%d", cubin ? "sm" : "compute", sm);
  const char *opts[40] = {arch, "-std=c++17"};
  int nopts = 2;
  for (size_t i = 0; i < nextra && nopts < (int)LC_ARRAY_LEN(opts); i++) opts[nopts++] = extra[i];
  nvrtc_program prog = NULL;
  *image = NULL;
  *size = 0;
  nvrtc_result r = n->CreateProgram(&prog, src, name, nh, hsrc, hname);
  if (r != 0) {
    lc_error(d, (lc_loc){0}, "nvrtcCreateProgram: %s", n->GetErrorString(r));
    return -1;
  }
  r = n->CompileProgram(prog, nopts, opts);
  int rc = r != 0 ? (report_log(n, prog, "nvrtcCompileProgram", r, d), -1)
                  : take_image(n, prog, !cubin, image, size, d);
  n->DestroyProgram(&prog);
  return rc;
}

/* ---- libcu++ (<cuda/atomic>) for C++ tests ------------------------------------------ */

static bool has_atomic_header(const char *dir) {
  char path[4200];
  struct stat st;
  snprintf(path, sizeof path, "%s/cuda/atomic", dir);
  return stat(path, &st) == 0;
}

/* dir/include, or dir/include/cccl where the toolkit keeps libcu++ (CUDA
 * 13); sets both -I options in inc. */
static bool include_of(const char *dir, char inc[2][4200]) {
  char base[4100], cccl[4110];
  snprintf(base, sizeof base, "%s/include", dir);
  snprintf(cccl, sizeof cccl, "%s/cccl", base);
  if (!has_atomic_header(base) && !has_atomic_header(cccl)) return false;
  snprintf(inc[0], sizeof inc[0], "-I%s", base);
  snprintf(inc[1], sizeof inc[1], "-I%s", cccl);
  return true;
}

/* NVRTC has no default include path: the toolkit's headers are looked for
 * next to the NVRTC library opened (<toolkit>/lib64/..), then in
 * $CUDA_HOME and the toolkit found at configure time. */
static bool find_includes(const cu_nvrtc *n, char inc[2][4200], lc_buf *tried) {
  Dl_info info;
  void *fn;
  memcpy(&fn, &n->CompileProgram, sizeof fn);
  if (dladdr(fn, &info) && info.dli_fname) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    for (int up = 0; up < 2; up++) {
      char *slash = strrchr(dir, '/');
      if (!slash) break;
      *slash = 0;
    }
    if (*dir && include_of(dir, inc)) return true;
    lc_buf_printf(tried, "%s/include", *dir ? dir : ".");
  }
  const char *home = getenv("CUDA_HOME");
  const char *const dirs[] = {home && *home ? home : NULL, *LC_CUDA_DIR ? LC_CUDA_DIR : NULL};
  for (size_t i = 0; i < LC_ARRAY_LEN(dirs); i++) {
    if (!dirs[i]) continue;
    if (include_of(dirs[i], inc)) return true;
    lc_buf_printf(tried, "%s%s/include", tried->n ? ", " : "", dirs[i]);
  }
  return false;
}

/* Sources that include the toolkit's headers (a C++ test's kernels use
 * <cuda/atomic>) get its include folders; NVRTC knows none itself. */
int cu_nvrtc_compile(cu_nvrtc *n, const char *src, const char *name, int sm, bool ptx, char **image,
                     size_t *size, lc_diag *d) {
  assert(n && src && name && image && size && d);
  if (!strstr(src, "#include <cuda/")) return cu_nvrtc_compile_with(n, src, name, sm, ptx, NULL, 0, image, size, d);
  char inc[2][4200];
  lc_buf tried;
  lc_buf_init(&tried);
  int rc = -1;
  *image = NULL;
  *size = 0;
  if (!find_includes(n, inc, &tried)) {
    lc_error(d, (lc_loc){0}, "the CUDA headers for NVRTC (cuda/atomic, libcu++) were not found "
                             "(searched %s); set CUDA_HOME to the CUDA toolkit", tried.n ? tried.s : "nothing");
  } else {
    const char *extra[] = {inc[0], inc[1]};
    rc = cu_nvrtc_compile_with(n, src, name, sm, ptx, extra, LC_ARRAY_LEN(extra), image, size, d);
  }
  lc_buf_fini(&tried);
  return rc;
}

int cu_nvrtc_kernel_ptx(const char *src, const char *name, int sm, const char *const *extra, size_t nextra, char **ptx,
                        lc_diag *d) {
  assert(src && name && ptx && d && nextra <= 32);
  *ptx = NULL;
  cu_nvrtc *n = cu_nvrtc_open(d);
  if (!n) return -1;
  char inc[2][4200];
  lc_buf tried;
  lc_buf_init(&tried);
  const char *opts[36];
  size_t nopts = 0;
  if (find_includes(n, inc, &tried)) opts[nopts++] = inc[0], opts[nopts++] = inc[1];
  for (size_t i = 0; i < nextra; i++) opts[nopts++] = extra[i];
  size_t size = 0;
  /* NVRTC has no C library headers: the ones a kernel includes for assert(),
   * printf and the fixed-width integers, small, as the CUDA headers declare
   * what they use (__assertfail, crt/common_functions.h; printf, which NVRTC
   * declares itself) */
  static const char assert_h[] =
      "#pragma once\n"
      "extern \"C\" __device__ void __assertfail(const char *, const char *, unsigned int, const char *,"
      " decltype(sizeof(0)));\n"
      "#undef assert\n"
      "#ifdef NDEBUG\n#define assert(e) ((void)0)\n#else\n"
      "#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, sizeof(char)))\n"
      "#endif\n";
  static const char stdio_h[] = "#pragma once\nextern \"C\" __device__ int printf(const char *, ...);\n";
  static const char stdint_h[] =
      "#pragma once\n#include <cuda/std/cstdint>\n"
      "using cuda::std::int8_t; using cuda::std::int16_t; using cuda::std::int32_t; using cuda::std::int64_t;\n"
      "using cuda::std::uint8_t; using cuda::std::uint16_t; using cuda::std::uint32_t; using cuda::std::uint64_t;\n"
      "using cuda::std::intptr_t; using cuda::std::uintptr_t;\n"
      "namespace std { using cuda::std::int8_t; using cuda::std::int16_t; using cuda::std::int32_t;"
      " using cuda::std::int64_t; using cuda::std::uint8_t; using cuda::std::uint16_t; using cuda::std::uint32_t;"
      " using cuda::std::uint64_t; using cuda::std::intptr_t; using cuda::std::uintptr_t; }\n";
  const char *const hname[] = {"cassert", "assert.h", "cstdio", "stdio.h", "cstdint", "stdint.h"};
  const char *const hsrc[] = {assert_h, assert_h, stdio_h, stdio_h, stdint_h, stdint_h};
  int rc = compile_headers(n, src, name, sm, true, opts, nopts, (int)LC_ARRAY_LEN(hname), hsrc, hname, ptx, &size, d);
  lc_buf_fini(&tried);
  cu_nvrtc_close(n);
  return rc;
}

int cu_nvrtc_cpp_ptx(const char *src, const char *name, int sm, char **ptx, lc_diag *d) {
  assert(src && name && ptx && d);
  *ptx = NULL;
  cu_nvrtc *n = cu_nvrtc_open(d);
  if (!n) return -1;
  size_t size = 0;
  int rc = cu_nvrtc_compile(n, src, name, sm, true, ptx, &size, d);
  cu_nvrtc_close(n);
  return rc;
}
