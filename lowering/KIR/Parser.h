//===- Parser.h - Reads KIR's textual form back into a kir::Module -*- C++ -*-===//
//
// The parser accepts exactly the format that Printer.cpp produces (see the
// comment at the top of Printer.cpp), so that `parse(print(m))` rebuilds `m`
// and `print(parse(text)) == text` for printed text. It lets intent-opt and
// the lit/unit tests feed KIR without the Clang front end.
//
// Ids: value ids are taken from the text (`%7` is ValueID 7); op and region
// ids are not printed and are assigned in pre-order (the order in which the
// front end's Builder creates them). `//` comments are ignored, except that a
// leading `// KIR for FILE` line sets Module::sourceFile.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_PARSER_H
#define INTENT_KIR_PARSER_H

#include "KIR/KIR.h"

#include <memory>
#include <string>

namespace intent::kir {

/// Parses a module (zero or more kernels). On error returns null and sets
/// `error` to `BUFFER:LINE:COL: error: MESSAGE`. The result is not verified;
/// call verifyKernel on each kernel.
std::unique_ptr<Module> parseModule(llvm::StringRef text,
                                    llvm::StringRef bufferName,
                                    std::string &error);

} // namespace intent::kir

#endif // INTENT_KIR_PARSER_H
