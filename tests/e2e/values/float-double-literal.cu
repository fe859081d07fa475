// A double literal no float holds exactly: 0.1 would be rounded twice.
// @Launch: <<<1, 1>>>
// @Input: x = {0}
__global__ void k(float *x) {
  *x = *x + 0.1;
}
