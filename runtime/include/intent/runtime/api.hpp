//===- intent/runtime/api.hpp - Host API of the Intent runtime -----------===//
//
// The host-side entry points of libintent_runtime that user code and the
// rewritten translation unit (<tu>.intent.cpp) call: the execution mode,
// launch statistics, synchronization and the runtime's error type. Plain
// C++17: no CUDA header is needed to include it, so the user's TU can be
// compiled by any host compiler. See docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_API_HPP
#define INTENT_RUNTIME_API_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

/// The version of the interface between generated code (<tu>.kernels.cu,
/// <tu>.intent.cpp) and this runtime. Generated files check it at compile
/// time and ask to be regenerated when it differs; it changes whenever the
/// runtime's interface to generated code changes incompatibly.
#define INTENT_ABI_VERSION 3

/// cudaStream_t is `struct CUstream_st *`; declaring the struct keeps CUDA
/// headers out of this one.
struct CUstream_st;

namespace intent {
namespace rt {

/// Where kernels run. Chosen once per process from INTENT_DEVICE (see
/// mode()).
enum class device_mode {
  /// Generated kernels run on the CUDA device; arrays live in device memory.
  gpu,
  /// Generated kernels run on the host: the same generated source, compiled
  /// by nvcc for the host, executes every program id on host threads.
  cpu,
  /// The original serial bodies run (the header's reference semantics); no
  /// generated code runs.
  reference,
};

/// The process's execution mode, computed on first use and cached:
/// INTENT_DEVICE=gpu|cpu|reference forces one ("gpu" fails when no CUDA
/// device is usable); unset, empty or "auto" picks gpu when a CUDA device is
/// present and cpu otherwise. Throws rt::error for any other value.
device_mode mode();

/// "gpu", "cpu" or "reference".
const char *mode_name(device_mode Mode);

/// The number of kernel calls made so far in this process, in every mode:
/// each call of an [[intent::kernel]] function adds exactly one, whether it
/// ran on the GPU, on the host (cpu) or as the serial body (reference). A
/// call whose program space is empty (total 0) still counts once but issues
/// no hardware launch. Tests assert "one launch per call" with it.
std::uint64_t launch_count();

/// The number of program instances (program ids) launched so far by the
/// gpu and cpu modes: the sum of the launches' totals. Reference calls add
/// nothing. Tests use it to check that an empty launch runs nothing and that
/// a multi-group kernel runs exactly sum(L_g) programs.
std::uint64_t program_count();

/// Records one kernel call executed in reference mode (the serial body).
/// Called by the dispatch prologue of each kernel in the rewritten TU.
void note_reference_call();

/// Waits until every launch issued so far has finished, and reports an
/// asynchronous launch failure (as rt::error). A no-op in cpu and reference
/// modes, where launches are synchronous.
void synchronize();

/// The streaming multiprocessors of the device in gpu mode; 1 in cpu and
/// reference modes (cpu mode's cooperating CTAs run one at a time). Launch
/// wrappers read it to size mappings that spread few instances over many
/// CTAs (docs/passes.md §3, split rows).
int sm_count();

/// The runtime's CUDA stream (a cudaStream_t) in gpu mode, null otherwise.
/// Every launch and array copy is issued on it, in program order.
void *stream_handle();

/// Makes every later launch and array copy run on Stream (a cudaStream_t,
/// e.g. PyTorch's current stream) instead of the runtime's own; null goes
/// back to the runtime's own stream. Waits first for the work issued so far
/// on the previous stream, so program order holds across the switch. The
/// caller keeps Stream alive while it is set. Recorded, without effect, in
/// cpu and reference modes (the program runs unchanged in every mode).
void set_stream(CUstream_st *Stream);

/// The stream set by set_stream (null when none is set).
CUstream_st *get_stream();

/// The error every runtime failure throws. what() starts with "intent: ";
/// a failed launch reads
/// "intent: kernel 'saxpy' (app.cpp:12) failed: <CUDA error>".
class error : public std::runtime_error {
public:
  explicit error(const std::string &Message) : std::runtime_error(Message) {}
};

namespace detail {

/// Allocates Bytes of zero-filled memory usable in the current mode (device
/// memory in gpu mode, host memory otherwise), aligned to 256 bytes. Returns
/// null for 0 bytes. Throws rt::error when out of memory.
void *allocate(std::size_t Bytes);

/// Frees memory from allocate(); null is a no-op. Waits for launches that may
/// still use it.
void deallocate(void *Ptr) noexcept;

/// Copies Bytes from host memory Src into mode memory Dst, after every
/// earlier launch; Src may be reused when it returns.
void copy_to_mode(void *Dst, const void *Src, std::size_t Bytes);

/// Copies Bytes from mode memory Src into host memory Dst after waiting for
/// every earlier launch.
void copy_from_mode(void *Dst, const void *Src, std::size_t Bytes);

/// Throws rt::error(Message) prefixed with "intent: ". Keeps <stdexcept>
/// construction out of inline code paths.
[[noreturn]] void fail(const std::string &Message);

/// Records the user's call site of the kernel call this thread is about to
/// make: the rewritten TU (<tu>.intent.cpp) wraps each kernel call it sees
/// as `(set_call_site(__FILE__, __LINE__), k(...))`, and the checks before
/// the launch (alias.hpp) name it. The next launch consumes it; a call from
/// code the Intent compiler did not rewrite has none.
void set_call_site(const char *File, int Line) noexcept;

/// Whether INTENT_CHECK asks for bounds checks: launchers then pick the
/// variants whose accesses are all checked (no register rows).
bool bounds_checks();

} // namespace detail
} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_API_HPP
