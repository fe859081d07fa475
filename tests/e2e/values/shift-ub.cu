// A shift of an int by its width (32) is undefined (C11 6.5.7p3): the
// amount comes from memory, so the check is at run time.
//
// @Launch: <<<1, 1>>>
// @Input: c = {32}; o = {0}

__global__ void shift_ub(int *c, int *o) {
  o[0] = 1 << c[0];
}
