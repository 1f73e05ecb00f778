//===- Dispatch.h - Prioritized copy variants, selection -------*- C++ -*-===//
//
// The dispatch registry of the copy primitive (design.md §5):
// every variant has a name, a priority and a `when` predicate that returns
// "" to accept an op or the reason it rejects it. Selection tries variants
// by descending priority (registration order among equals); the first that
// accepts schedules the op. An explicit `CopyOp::dispatch` restricts the
// choice to that one variant, so a rejected request is an error with the
// variant's reason, never a silent fallback. Every decision is recorded in
// a printable Selection report.
//
// The CUDA registry (Registry::cuda()):
//   vec_16b .. vec_256b  20  exactly that access width, explicit dispatch only
//   vec_auto             10  gmem_smem path: global<->shared, widest vector
//   fallback              0  scalar element copy
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_COPY_DISPATCH_H
#define INTENT_COPY_DISPATCH_H

#include "Copy/Copy.h"
#include "Copy/Plan.h"

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace intent::copy {

/// One registered implementation of copy.
struct Variant {
  std::string name;
  int priority = 0;
  /// Only considered when CopyOp::dispatch names it (the fixed widths).
  bool explicitOnly = false;
  /// "" when the variant can implement the op on the target, else why not.
  std::function<std::string(const CopyOp &, const Target &)> when;
  /// Builds the plan of an accepted op.
  std::function<CopyPlan(const CopyOp &, const Target &)> schedule;
};

/// An ordered set of variants.
class Registry {
public:
  /// Adds a variant; names are unique.
  void add(Variant v);
  /// Variants by descending priority, registration order among equals.
  std::vector<const Variant *> ordered() const;
  const Variant *find(const std::string &name) const;

  /// The CUDA backend's variants (built once).
  static const Registry &cuda();

private:
  std::vector<Variant> variants;
};

/// What selection did with one variant.
struct Attempt {
  enum class Outcome : uint8_t { Chosen, Rejected, NotRequested, NotTried };
  std::string variant;
  int priority = 0;
  Outcome outcome = Outcome::NotTried;
  /// Rejected / NotRequested: why.
  std::string reason;
};

/// The result of selecting a variant for one op: the plan when a variant
/// accepted it, and the attempts in the order they were considered.
struct Selection {
  CopyOp op;
  Target target;
  std::vector<Attempt> attempts;
  std::optional<CopyPlan> plan;
  /// When no plan: "no copy variant applies: <variant>: <reason>; ...".
  std::string error;

  bool ok() const { return plan.has_value(); }
  /// The attempt of variant `name`, or null.
  const Attempt *attempt(const std::string &name) const;
  /// The debug dump: the op, every variant with its outcome and reason,
  /// and the chosen plan.
  void print(std::ostream &os) const;
  std::string str() const;
};

/// Selects and schedules a variant for `op` on `target`.
Selection selectCopy(const CopyOp &op, const Target &target,
                     const Registry &registry = Registry::cuda());

/// Registration of the CUDA variants (FixedWidth.cpp, VecAuto.cpp,
/// Fallback.cpp).
void registerFixedWidthVariants(Registry &r);
void registerVecAuto(Registry &r);
void registerFallback(Registry &r);

} // namespace intent::copy

#endif // INTENT_COPY_DISPATCH_H
