//===- HostPool.cpp - cpu mode: program ids on host worker threads -------===//
//
// The program instances of one launch are independent by construction
// (design.md §4.1), so cpu mode may run them in any order on any thread. A
// persistent pool of INTENT_CPU_THREADS - 1 workers plus the launching thread
// take chunks of at least INTENT_CPU_GRAIN consecutive ids from a shared
// counter; within a chunk, ids run in increasing order. Launches are
// serialized by the caller (launchMutex), so the pool runs one job at a time.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <thread>
#include <vector>

namespace intent {
namespace rt {
namespace detail {

namespace {

class HostPool {
public:
  explicit HostPool(int Workers) {
    for (int I = 0; I < Workers; ++I)
      Threads.emplace_back([this] { workerLoop(); });
  }

  ~HostPool() {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Stopping = true;
    }
    WorkReady.notify_all();
    for (std::thread &T : Threads)
      T.join();
  }

  /// Runs [0, Total) in chunks of Chunk ids on all workers and the caller.
  void run(HostRangeFn Entry, const void *Args, index Total, index Chunk) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      JobEntry = Entry;
      JobArgs = Args;
      JobTotal = Total;
      JobChunk = Chunk;
      Next.store(0);
      FirstError = nullptr;
      Pending = static_cast<int>(Threads.size());
      ++Generation;
    }
    WorkReady.notify_all();
    work();
    std::unique_lock<std::mutex> Lock(Mutex);
    AllDone.wait(Lock, [this] { return Pending == 0; });
    if (FirstError)
      std::rethrow_exception(FirstError);
  }

private:
  /// Takes chunks until the job's ids are exhausted.
  void work() {
    while (true) {
      index Begin = Next.fetch_add(JobChunk);
      if (Begin >= JobTotal)
        return;
      index End = std::min(JobTotal, Begin + JobChunk);
      try {
        JobEntry(JobArgs, Begin, End);
      } catch (...) {
        std::lock_guard<std::mutex> Lock(Mutex);
        if (!FirstError)
          FirstError = std::current_exception();
        // Let the other threads drain quickly: no further chunk starts.
        Next.store(JobTotal);
      }
    }
  }

  void workerLoop() {
    std::uint64_t Seen = 0;
    while (true) {
      {
        std::unique_lock<std::mutex> Lock(Mutex);
        WorkReady.wait(Lock, [&] { return Stopping || Generation != Seen; });
        if (Stopping)
          return;
        Seen = Generation;
      }
      work();
      std::lock_guard<std::mutex> Lock(Mutex);
      if (--Pending == 0)
        AllDone.notify_one();
    }
  }

  std::vector<std::thread> Threads;
  std::mutex Mutex;
  std::condition_variable WorkReady;
  std::condition_variable AllDone;
  bool Stopping = false;
  std::uint64_t Generation = 0;
  int Pending = 0;

  // The current job; written under Mutex before Generation changes.
  HostRangeFn JobEntry = nullptr;
  const void *JobArgs = nullptr;
  index JobTotal = 0;
  index JobChunk = 1;
  std::atomic<index> Next{0};
  std::exception_ptr FirstError;
};

} // namespace

void runOnHost(HostRangeFn Entry, const void *Args, index Total,
               index Grain) {
  int Threads = cpuThreads();
  if (Grain <= 0)
    Grain = cpuGrain();
  // Enough chunks to balance the load, none smaller than the grain.
  index Chunk = std::max(Grain, Total / (static_cast<index>(Threads) * 8) + 1);
  if (Threads == 1 || Total <= Chunk) {
    Entry(Args, 0, Total);
    return;
  }
  static HostPool Pool(Threads - 1);
  Pool.run(Entry, Args, Total, Chunk);
}

} // namespace detail
} // namespace rt
} // namespace intent
