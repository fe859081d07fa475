// @Launch: <<<2, 1>>>
// @Input: x = {0}
/* unterminated
__global__ void k(int *x) {
}
