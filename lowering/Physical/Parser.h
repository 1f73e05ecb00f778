//===- Parser.h - Reads the physical IR's textual form back -----*- C++ -*-===//
//
// The parser accepts exactly what printProgram (Printer.cpp) produces, so
// that print(parse(text)) == text for printed text: the header (name,
// mangled name, exec scope with threads/shared/stage/regs), parameters,
// launch expressions, segments with the facts printed as comments under
// them (`// ordered: WHY`, `// split over eN = ...`), `total`, launch checks, buffer records and the body. Ops are
// read through the op table (Physical/OpTable.h): names, operand layout,
// result and region counts and attribute schemas are checked as they are
// read, each violation reported at its line and column.
//
// What the printer does not print is not recovered: op ids are assigned in
// pre-order, value ids are the printed `%N`, origins other than an op's
// `origin(op N, arg A)` are empty (the program, parameters, values, buffers),
// and value names are the parameter names only. A program printed with
// --no-locs has no origins, and cta-rows treats a `for` without an origin as
// one it made itself, so keep locs in pass test inputs.
//
// `//` comments are ignored except those under a segment line, so a .phys
// file may carry RUN and CHECK lines.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_PARSER_H
#define INTENT_PHYSICAL_PARSER_H

#include "Physical/IR.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace intent::phys {

/// Parses zero or more programs (printProgram's output, concatenated) and
/// appends them to `out`. On error returns false and sets `error` to
/// `BUFFER:LINE:COL: error: MESSAGE`. The programs are not verified; call
/// verifyProgram (without a kernel) on each.
bool parsePrograms(llvm::StringRef text, llvm::StringRef bufferName,
                   std::vector<std::unique_ptr<Program>> &out,
                   std::string &error);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_PARSER_H
