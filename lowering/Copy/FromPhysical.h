//===- FromPhysical.h - Copy element types from phys kinds -----*- C++ -*-===//
//
// The bridge for physical passes: the copy library itself is LLVM-free (see
// Copy.h), so the mapping from phys::ScalarKind lives in this header only.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_COPY_FROMPHYSICAL_H
#define INTENT_COPY_FROMPHYSICAL_H

#include "Copy/Copy.h"
#include "Physical/IR.h"

namespace intent::copy {

/// The copy element type of a physical scalar kind. A copy moves bits, so
/// bool (one byte) travels as u8.
inline ElemType elemTypeOf(phys::ScalarKind k) {
  switch (k) {
  case phys::ScalarKind::Bool: return ElemType::U8;
  case phys::ScalarKind::I8: return ElemType::I8;
  case phys::ScalarKind::I16: return ElemType::I16;
  case phys::ScalarKind::I32: return ElemType::I32;
  case phys::ScalarKind::I64: return ElemType::I64;
  case phys::ScalarKind::U8: return ElemType::U8;
  case phys::ScalarKind::U16: return ElemType::U16;
  case phys::ScalarKind::U32: return ElemType::U32;
  case phys::ScalarKind::U64: return ElemType::U64;
  case phys::ScalarKind::F16: return ElemType::F16;
  case phys::ScalarKind::BF16: return ElemType::BF16;
  case phys::ScalarKind::F32: return ElemType::F32;
  case phys::ScalarKind::F64: return ElemType::F64;
  }
  return ElemType::U8;
}

} // namespace intent::copy

#endif // INTENT_COPY_FROMPHYSICAL_H
