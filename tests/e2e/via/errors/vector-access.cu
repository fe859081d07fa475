// An int4 load: ld.global.v4.u32, a vector access, not modelled.
// @Launch: <<<1, 1>>>
// @Input: x = {0, 0, 0, 0}
// @Output: forall (x[0] == 1)

__global__ void vector_access(int4 *x) {
  int4 v = x[0];
  v.x += 1;
  x[0] = v;
}
