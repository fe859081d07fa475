// % is defined on integers only (nvcc refuses it on a float too).
// @Launch: <<<1, 1>>>
// @Input: x = {0}
__global__ void k(float *x) {
  *x = *x % 2;
}
