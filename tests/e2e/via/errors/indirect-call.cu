// A call through a function pointer chosen by a value read from memory:
// nvcc emits an indirect call (call through a register, with a
// prototype), whose target the PTX does not name.
// @Launch: <<<1, 1>>>
// @Input: which = {1}; x = {0}
// @Output: forall (x[0] == 1)

typedef void (*action)(int *);

__device__ __noinline__ void set_one(int *p) { *p = 1; }
__device__ __noinline__ void set_two(int *p) { *p = 2; }

__device__ action actions[2] = {set_one, set_two};

__global__ void indirect(int *which, int *x) {
  actions[*which & 1](x);
}
