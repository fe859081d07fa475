// The target chosen by --sm (default 70): NV_IF_TARGET, NV_IF_ELSE_TARGET
// and __CUDA_ARCH__ take the branch its device takes.  With --sm 70: x = 1,
// y = 1; with --sm 90: x = 90, y = 11.
// @Launch: <<<1, 1>>>
// @Input: x = {0}; y = {0}
#include <nv/target>
__global__ void nv_target(int *x, int *y) {
  NV_IF_TARGET(NV_PROVIDES_SM_90, (*x = 90;), (*x = 1;))
  NV_IF_ELSE_TARGET(NV_IS_DEVICE, (atomicAdd(y, 1);), (*y = 7;))
#if __CUDA_ARCH__ >= 800
  atomicAdd(y, 10);
#endif
}
