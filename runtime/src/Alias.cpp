//===- Alias.cpp - The alias check before a launch, the call site --------===//
//
// check_aliasing's library half (alias.hpp): a pairwise range test over the
// view parameters of one launch, O(views^2) pointer comparisons, and the
// thread's recorded call site that names the user's line in the message.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "intent/runtime/alias.hpp"

#include <cstring>

namespace intent {
namespace rt {
namespace detail {

namespace {

struct call_site {
  const char *File = nullptr;
  int Line = 0;
};
thread_local call_site CallSite;

} // namespace

void set_call_site(const char *File, int Line) noexcept {
  CallSite = {File, Line};
}

alias_pair find_alias(const view_range *Views, int Count) {
  for (int I = 0; I < Count; ++I)
    for (int J = I + 1; J < Count; ++J)
      if ((Views[I].Written || Views[J].Written) &&
          ranges_overlap(Views[I], Views[J]))
        return {I, J};
  return {};
}

void check_aliasing(const kernel_info &Info, const view_range *Views,
                    int Count) {
  call_site Site = CallSite;
  CallSite = {};
  if (!checkAliasing())
    return;
  alias_pair Pair = find_alias(Views, Count);
  if (Pair.First < 0)
    return;
  const view_range &W = Views[Pair.First].Written ? Views[Pair.First]
                                                  : Views[Pair.Second];
  const view_range &O = &W == &Views[Pair.First] ? Views[Pair.Second]
                                                 : Views[Pair.First];
  std::string Where =
      Site.File ? " called at " + std::string(Site.File) + ":" +
                      std::to_string(Site.Line)
                : std::string(" (call site unknown: the call was not compiled "
                              "by the Intent compiler)");
  fail(describe(Info) + Where + ": view parameter '" + W.Name +
       "' is written by the kernel and overlaps view parameter '" + O.Name +
       "'" + (O.Written ? ", which it also writes" : "") +
       "; program instances run in no particular order, so the result "
       "would depend on the schedule: pass views into disjoint memory (copy "
       "the input first), or run with INTENT_CHECK=none to skip this check");
}

} // namespace detail
} // namespace rt
} // namespace intent
