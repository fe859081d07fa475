// An index read from memory: the element written depends on a loaded
// value, which this route does not follow.
// @Launch: <<<1, 1>>>
// @Input: index = {1}; x = {0, 0}
// @Output: forall (x[1] == 1)

__global__ void unresolvable(int *index, int *x) {
  x[*index] = 1;
}
