/* cu_int.h - the pieces of the CUDA backend and what they share.
 * SPDX-License-Identifier: MIT
 *
 * cu_plan.c   decides whether and how a lowered test runs on a GPU: roles
 *             and their placement, phases between barriers, loops, where
 *             each location lives, the register width; refuses the rest.
 * cu_ptx.c    spells one litmus instruction as PTX.
 * cu_gen.c    writes the kernel source (cu_emit).
 * cu_launch.c draws the per-launch permutations from the seed.
 * cu_outcome.c value domains, dense bins, the allowed-outcome bitmap.
 * cu_nvrtc.c, cu_driver.c  NVRTC and the driver API through dlopen.
 * cu_run.c    compiles, launches, collects (cu_run).
 */
#ifndef CU_INT_H
#define CU_INT_H

#include "cuda/cuda.h"
#include "cuda/cu_map.h"

/* ---- the plan: a test as the GPU runs it ------------------------------------ */

/* One cell of a role's code, in program order. */
typedef struct cu_item {
  const char *label;        /* the cell's label, or NULL */
  const lt_instr *in;       /* NULL for an empty cell or a label alone */
  int phase;                /* the phase it runs in (0 .. nphases-1) */
  bool boundary;            /* a barrier that ends its phase (kept as bar.cta.sync) */
  bool dropped;             /* a barrier instance nobody waits on: no synchronisation */
  bool joined;              /* a barrier.cluster.arrive: runs as part of the boundary its wait ends */
  int loop;                 /* a backward jump: its counter, else -1 */
  int target;               /* a jump: the item its label starts */
} cu_item;

typedef struct cu_role {
  int thread;               /* index in prog->threads (role k is thread k) */
  int lcta, lcl;            /* litmus CTA and litmus cluster, numbered from 0 */
  cu_item *items;
  size_t nitems;
  int nloops;               /* backward jumps (each with its own counter) */
  int cut;                  /* index of its cut flags when it loops, else -1 */
} cu_role;

typedef struct cu_plan {
  const lx_program *p;      /* borrowed */
  lc_arena *arena;          /* a C++ test's instruction cells (map_cpp_cells), or NULL */
  int width;                /* bits per location and register: 32 or 64 */
  int min_sm;               /* 75; 90 when an instruction has .cluster scope or is sm_90's */
  bool cluster_scope;
  const lt_instr *sm90_at;  /* the first instruction that needs sm_90 (docs/hopper.md), or NULL */
  int sm90_thread;          /* its thread id */
  bool dsmem;               /* a CTA touches another's shared memory: cluster barriers around the test */
  bool cluster_bars;        /* barrier.cluster, or dsmem: the CTAs of a litmus cluster must share a hardware one */
  int slot_bytes;           /* 16 when mbarriers or bulk copies need aligned slots of 16 bytes, else 0 */
  cu_role *roles;
  size_t nroles;
  int nlcta, nlcl;          /* litmus CTAs and clusters */
  int cta_cl[CU_MAX_ROLES]; /* the litmus cluster of each litmus CTA */
  int ctas_per_cl;          /* most litmus CTAs in one litmus cluster */
  int roles_per_cta;        /* most roles in one litmus CTA */
  bool multi_gpu;           /* written on several GPUs: runs as clusters of one */
  int nphases;
  int *bar_number;          /* per phase boundary (1..nphases-1): the n it prints */
  unsigned char *bar_kind;  /* per phase boundary: CU_BOUNDARY_* bits */
  int *gidx;                /* per ploc: index among global locations, or -1 */
  int *sidx;                /* per ploc: index among shared locations, or -1 */
  int *owner;               /* per ploc: litmus CTA of a shared location, or -1 */
  bool *mbar;               /* per ploc: an mbarrier (opaque: neither initialised nor compared) */
  int nglobal, nshared;
  int *obs_reg;             /* per observable: its slot in the register outputs, or -1 */
  int *obs_fin;             /* per observable: its slot in the shared finals, or -1 */
  int nregout, nfin;
  int ncut;                 /* roles that loop */
  bool alias;               /* some location is a generic alias (needs the VMM API) */
} cu_plan;

/* What a phase boundary runs: a CTA barrier, a cluster barrier, whose
 * arrive is .relaxed when every arrive it stands for is. */
enum { CU_BOUNDARY_CTA = 1, CU_BOUNDARY_CLUSTER = 2, CU_BOUNDARY_RELAXED = 4 };

/* Plans p, or reports why it cannot run (position of the instruction) to
 * d and returns NULL. */
cu_plan *cu_plan_new(const lx_program *p, lc_diag *d);
void cu_plan_free(cu_plan *pl);

/* The lx_loc an operand names as seen by role k, or -1. */
int cu_plan_vloc(const cu_plan *pl, int k, const lt_operand *o);
/* mapa's location: the copy of the CTA of rank in->a of role k's cluster,
 * or -1; *role a role of that CTA. */
int cu_plan_mapa_vloc(const cu_plan *pl, int k, const lt_instr *in, int *role);
/* The location operands of an instruction ([0] addr, [1] b, [2] c; NULL
 * where none); returns how many are locations. */
int cu_plan_loc_operands(const lt_instr *in, const lt_operand *ops[3]);

/* ---- PTX spelling -------------------------------------------------------------- */

/* The PTX opcode with every qualifier for a memory instruction, fence or
 * barrier as the kernel runs it, e.g. "ld.acquire.gpu.global.u32":
 * qualifiers as written, the state space of the location when not
 * written, a type of the plan's width when not written.  Returns false
 * for instructions that are not spelled this way (ALU, branches). */
bool cu_ptx_opcode(lc_buf *b, const cu_plan *pl, int k, const lt_instr *in);
/* The PTX opcode of register arithmetic at the plan's width ("add.s32",
 * "mul.lo.s64", "mov.b32", ...). */
const char *cu_ptx_alu(const cu_plan *pl, lt_alu_op op);
/* A red that PTX has no form for (.acquire/.acq_rel, .exch, .cas) runs as
 * the atom with its result discarded. */
bool cu_ptx_red_as_atom(const lt_instr *in);

/* ---- source generation ------------------------------------------------------------ */

/* The whole source: a comment, the prelude, the kernels. */
int cu_gen(lc_buf *out, const cu_plan *pl);
/* The parts, so that a file can hold several tests (tests/cuda): the
 * prelude once, then each body with CU_KNAME defined to rename its
 * kernels, inside a namespace of its own. */
void cu_gen_prelude(lc_buf *out);
void cu_gen_body(lc_buf *out, const cu_plan *pl);
/* Copies of the test kernel (cu_test, cu_test_r1, ...), each running the
 * roles of a phase in another rotated order; launch t uses copy t % n. */
enum { CU_MAX_ROTATIONS = 4 };
int cu_gen_rotations(const cu_plan *pl);
/* The classify kernel's helpers alone (part of the prelude), for the host test. */
void cu_gen_classify_prelude(lc_buf *out);
extern const char cu_map_text[];   /* cu_map.h as text (generated) */

/* ---- per-launch parameters ------------------------------------------------------- */

/* The fixed shape of a run's launches; cu_launch_draw fills in the rest. */
typedef struct cu_shape {
  cu_u32 nctas, cs, ntest_clusters, T;
  bool shuffle;
} cu_shape;

/* Sets the random fields of P (shuffle, placement offsets and multipliers,
 * location permutation, stress seed) for launch `iteration` from `seed`,
 * and the size fields from s.  The role fields (nroles, role_cl,
 * role_cta) and nglobal must be set.  Returns -1 when the shape cannot
 * hold the test's placement (too few clusters, ranks or lanes). */
int cu_launch_draw(cu_launch *P, const cu_shape *s, uint64_t seed, uint64_t iteration);
/* Sets P's role fields from the plan. */
void cu_launch_roles(cu_launch *P, const cu_plan *pl);
/* Inverse of a mod n (gcd(a, n) == 1). */
cu_u32 cu_inverse_mod(cu_u32 a, cu_u32 n);

/* ---- outcomes ---------------------------------------------------------------------- */

/* The value domain of every shown observable: what the program can produce
 * (when the lowering knows it) and every value of an allowed state, sorted. */
typedef struct cu_domains {
  cu_i64 *values;           /* concatenated */
  size_t nvalues;
  cu_u32 off[CU_MAX_SHOWN], len[CU_MAX_SHOWN];
  size_t nshown;
  uint64_t ndense;          /* product of the lengths (may exceed the dense limit) */
} cu_domains;

enum { CU_MAX_DENSE = 1u << 22 };

void cu_domains_build(cu_domains *dm, const lx_program *p, const lc_result *allowed);
void cu_domains_fini(cu_domains *dm);
/* The allowed-outcome bitmap over the dense bins ((ndense + 31) / 32 words).
 * With no usable model result every bin is allowed. */
uint32_t *cu_allowed_bitmap(const cu_domains *dm, const cu_launch *P, const lc_result *allowed);

/* ---- NVRTC and the driver, opened at run time ---------------------------------------- */

typedef struct cu_nvrtc cu_nvrtc;
/* Opens libnvrtc ($LC_CUDA_DIR/lib64 first, then the loader's path).
 * Returns NULL with a message in d. */
cu_nvrtc *cu_nvrtc_open(lc_diag *d);
void cu_nvrtc_close(cu_nvrtc *n);
/* "13.0" */
const char *cu_nvrtc_version(const cu_nvrtc *n);
/* Compiles src for sm_<sm> (cubin) or, with ptx set, for compute_<sm>
 * (PTX text, NUL-terminated).  Returns 0 and a malloc'ed image; -1 with
 * the compiler log in d. */
int cu_nvrtc_compile(cu_nvrtc *n, const char *src, const char *name, int sm, bool ptx, char **image,
                     size_t *size, lc_diag *d);
/* The same with extra options (-I...) after the architecture's. */
int cu_nvrtc_compile_with(cu_nvrtc *n, const char *src, const char *name, int sm, bool ptx,
                          const char *const *extra, size_t nextra, char **image, size_t *size, lc_diag *d);

#define CU_NO_DRIVER_MSG \
  "no CUDA driver (libcuda.so.1) found: litmus-run needs an NVIDIA GPU; --backend host runs the test on CPU threads"

#endif
