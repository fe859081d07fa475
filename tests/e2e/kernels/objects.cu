// Objects as the reader takes them, 1 block of 2 threads: a struct with a
// default member initialiser, aggregate initialisation ({x} and {x, 10}),
// member functions calling each other through this-> and (*this).,
// objects passed by reference and by pointer, a pointer to an object, and
// a class template with a non-type parameter's default, and an aggregate
// whose field is named as the kernel's parameter.  Each thread adds 1 four
// times through c, 10 once through d and 3 through pr: x = 2 * (4 + 10 +
// 3) = 34; and arr.size() (2) to a[threadIdx.x]: a = {2, 2}.
// @Launch: <<<1, 2>>>
// @Input: a = {0, 0}; x = {0}
// @Output: forall (x[0] == 34 && a[0] == 2 && a[1] == 2)
struct Counter {
  int *where;
  int step = 1;
  __device__ void add() { atomicAdd(where, step); }
  __device__ void add_twice() {
    this->add();
    (*this).add();
  }
};

template <typename T, int N = 2>
class Arr {
 public:
  T *base;
  __device__ Arr(T *b) : base{b} {}
  __device__ int size() const { return N; }
};

struct Pair {
  int *x;
  int n;
  __device__ void add() { atomicAdd(x, n); }
};

__device__ void bump(Counter &c) { c.add(); }
__device__ void bump_ptr(Counter *c) { c->add(); }

__global__ void objects(int *a, int *x) {
  Counter c{x};
  bump(c);
  bump_ptr(&c);
  c.add_twice();
  Counter d = {x, 10};
  Counter *pd = &d;
  pd->add();
  Arr<int> arr(a);
  atomicAdd(&arr.base[threadIdx.x], arr.size());
  Pair pr = {x, 3};
  pr.add();
}
