// Compile-only: every device helper of intent/runtime/device.hpp, coop.hpp
// and atomics.hpp instantiated in device code for the target architecture, so a
// helper that only compiles for the host (cpu mode) cannot slip through.
#include <intent/runtime/kernel.hpp>

namespace {

namespace rt = intent::rt;
using intent::index;
using intent::memory_order;

template <rt::atomic_scope S, memory_order O, class T>
__device__ void allAtomics(T *P, T V) {
  T Old = rt::atomic_add<S, O>(P, V);
  Old = rt::atomic_min<S, O>(P, Old);
  Old = rt::atomic_max<S, O>(P, Old);
  Old = rt::atomic_exch<S, O>(P, Old);
  intent::cas_result<T> R = rt::atomic_cas<S, O>(P, Old, V);
  rt::atomic_store<S, O>(P, R.success ? R.old : V);
  *P = rt::atomic_load<S, O>(P);
}

template <rt::atomic_scope S, memory_order O> __device__ void allTypes(void *W) {
  allAtomics<S, O>(static_cast<int *>(W), 1);
  allAtomics<S, O>(static_cast<unsigned *>(W), 1u);
  allAtomics<S, O>(static_cast<long long *>(W), 1LL);
  allAtomics<S, O>(static_cast<long *>(W), 1L);
  allAtomics<S, O>(static_cast<unsigned long long *>(W), 1ULL);
  allAtomics<S, O>(static_cast<float *>(W), 1.0f);
  allAtomics<S, O>(static_cast<double *>(W), 1.0);
}

template <rt::atomic_scope S> __device__ void allOrders(void *W) {
  allTypes<S, memory_order::relaxed>(W);
  allTypes<S, memory_order::acquire>(W);
  allTypes<S, memory_order::release>(W);
  allTypes<S, memory_order::acq_rel>(W);
  allTypes<S, memory_order::seq_cst>(W);
}

__global__ void helpers(intent::view<float, 2> V, void *W, index Total) {
  for (index Id = rt::global_thread_id(); Id < Total;
       Id += rt::global_thread_count()) {
    rt::coords<2> C = rt::delinearize<2>(Id, {V.extent(0), V.extent(1)});
    *rt::element_ptr(V, C[0], C[1]) += 1.0f;
  }
  allOrders<rt::atomic_scope::cta>(W);
  allOrders<rt::atomic_scope::gpu>(W);
  allOrders<rt::atomic_scope::sys>(W);
  float *F = V.data();
  rt::store_vec<4>(F, rt::load_vec<4>(static_cast<const float *>(F + 4)));
  rt::store_vec<2>(reinterpret_cast<double *>(W),
                   rt::load_vec<2>(reinterpret_cast<const double *>(W) + 2));
  auto *B = static_cast<unsigned char *>(W);
  rt::store_vec<16>(B, rt::load_vec<16>(B + 16));
  rt::segments<3> S = rt::make_segments<3>({Total, 2, 3});
  F[0] = static_cast<float>(S.total() + S.begin(1) + S.length(2));
  intent::philox Rng(1, 2);
  F[1] = Rng.uniform(static_cast<std::uint64_t>(Total));
}

struct Pair {
  short A, B;
};

/// Every shuffle of coop.hpp for one type.
template <class T> __device__ T allShuffles(T V) {
  V = rt::warp_shfl_xor(V, 1);
  V = rt::warp_shfl(V, rt::lane() + 1);
  return rt::warp_shfl_down(V, 2);
}

/// The cooperative helpers, in the program-id loops of both scopes.
template <rt::exec_scope S> __global__ void coop(double *Out, index Total) {
  for (index Pid = rt::program_begin<S>(); Pid < Total;
       Pid += rt::program_stride<S>()) {
    double *Shared = rt::cta_shared<double>(16);
    Shared[rt::cta_thread()] = static_cast<double>(
        Pid + rt::cta_id() + rt::cta_count() + rt::cta_size() +
        rt::warp_in_cta());
    rt::cta_barrier();
    double D = allShuffles(Shared[(rt::cta_thread() + 1) % rt::cta_size()]);
    D += allShuffles(static_cast<float>(D));
    D += allShuffles(static_cast<int>(D)) + allShuffles(static_cast<unsigned>(D));
    D += allShuffles(static_cast<long long>(D)) +
         allShuffles(static_cast<unsigned long long>(D));
    D += allShuffles(D > 0.0) ? 1.0 : 0.0;
    D += allShuffles(Pair{static_cast<short>(D), 1}).A;
    rt::warp_barrier();
    Out[Pid * 32 + rt::lane()] = D;
  }
}

} // namespace

/// Keeps the kernels referenced.
void *device_helpers_entry() { return reinterpret_cast<void *>(&helpers); }
void *device_helpers_coop_entry(bool Warp) {
  return Warp ? reinterpret_cast<void *>(&coop<rt::exec_scope::warp>)
              : reinterpret_cast<void *>(&coop<rt::exec_scope::cta>);
}
