//===- ViewRelations.h - Sub-views composed onto root views -----*- C++ -*-===//
//
// Construction's names for KIR's view relations (KIR/ViewRelations.h): the
// composition lives in the KIR layer so that the physical verifier composes
// KIR coordinates through a view chain the same way construction did.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_VIEWRELATIONS_H
#define INTENT_CONSTRUCTION_VIEWRELATIONS_H

#include "KIR/ViewRelations.h"

namespace intent::construct {
using kir::CExpr;
using kir::CExprRef;
using kir::resolveView;
using kir::rootCoords;
using kir::ViewChain;
using kir::viewExtent;
using kir::viewStride;
} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_VIEWRELATIONS_H
