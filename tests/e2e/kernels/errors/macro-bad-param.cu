// @Launch: <<<2, 1>>>
// @Input: x = {0}
#define F(a, 1) a
__global__ void k(int *x) {
  *x = 1;
}
