//===- Lexer.h - The token stream of Intent's textual IRs -------*- C++ -*-===//
//
// KIR (KIR/Parser.h) and the physical IR (Physical/Parser.h) print in one
// MLIR-like syntax: `%N` values, `@name` symbols, identifiers (op names,
// keywords, dotted names), numbers (`-inf`, `1.5e-3`, `0x...` spelled as
// the printers spell them), strings with the printers' escapes (\\, \", \n,
// \t, \XX), punctuation and `//` comments. This lexer is the one both
// parsers read; each says which punctuation and identifier extensions its IR
// uses.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_LEXER_H
#define INTENT_KIR_LEXER_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace intent::text {

enum class Tok {
  Eof,
  Ident,   ///< names, keywords, op names
  ValueId, ///< %N (text: the digits)
  AtName,  ///< @name (text: the name)
  String,  ///< "..." (text: unescaped)
  Int,
  Float,
  Punct, ///< one character of LexOptions::punct
};

struct Token {
  Tok kind = Tok::Eof;
  std::string text;
  unsigned line = 0, col = 0;
};

/// A `//` comment: its line and its text after the slashes, trimmed.
struct Comment {
  unsigned line = 0;
  std::string text;
};

struct LexOptions {
  /// The punctuation characters, each its own token.
  llvm::StringRef punct = "(){}<>,:=^";
  /// Identifiers may contain `%` after their first character (physical IR:
  /// construction names unnamed local buffers `buffer%ID`).
  bool percentInNames = false;
  /// A `-` between letters joins an identifier (physical IR: pass names in
  /// `origin(synth grid-reduce)`; expressions print ` - ` with spaces).
  bool dashJoinsNames = false;
};

/// Lexes `text` into `out` (ending with one Eof token) and `comments`.
/// Returns false at a character no token starts with (or a `%`/`@` without
/// its digits/name, an unterminated string); `bad` then has its position
/// and, as text, what was found.
bool lex(llvm::StringRef text, const LexOptions &opts, std::vector<Token> &out,
         std::vector<Comment> &comments, Token &bad);

} // namespace intent::text

#endif // INTENT_KIR_LEXER_H
