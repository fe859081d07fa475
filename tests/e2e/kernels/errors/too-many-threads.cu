// @Launch: <<<8, 16>>>
// @Input: x = {0}
__global__ void k(int *x) {
  *x = 1;
}
