//===- Lexer.cpp - The token stream of Intent's textual IRs ---------------===//

#include "KIR/Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace intent;
using namespace intent::text;

namespace {

class Lexer {
public:
  Lexer(llvm::StringRef text, const LexOptions &opts)
      : text(text), opts(opts) {}

  bool run(std::vector<Token> &out, std::vector<Comment> &comments,
           Token &bad) {
    while (true) {
      skipSpace(comments);
      Token t;
      t.line = line;
      t.col = col;
      if (pos >= text.size()) {
        out.push_back(t);
        return true;
      }
      char c = text[pos];
      if (c == '%') {
        advance();
        t.kind = Tok::ValueId;
        t.text = takeWhile([](char ch) { return llvm::isDigit(ch); });
        if (t.text.empty())
          return fail(t, bad, "%");
      } else if (c == '@') {
        advance();
        t.kind = Tok::AtName;
        t.text = takeWhile([](char ch) { return isIdentStart(ch); });
        if (t.text.empty())
          return fail(t, bad, "@");
      } else if (c == '"') {
        advance();
        t.kind = Tok::String;
        if (!lexString(t.text))
          return fail(t, bad, "\"");
      } else if (llvm::isDigit(c) ||
                 (c == '-' && pos + 1 < text.size() &&
                  (llvm::isDigit(text[pos + 1]) ||
                   text.substr(pos + 1).starts_with("inf")))) {
        t.text = advance();
        t.text += takeWhile([](char ch) {
          return llvm::isAlnum(ch) || ch == '.' || ch == '+' || ch == '-';
        });
        t.kind = t.text.find_first_of(".en") == std::string::npos ? Tok::Int
                                                                   : Tok::Float;
      } else if (isIdentStart(c)) {
        t.kind = Tok::Ident;
        t.text = takeWhile([this](char ch) { return isIdentChar(ch); });
        while (opts.dashJoinsNames && pos + 1 < text.size() &&
               text[pos] == '-' && llvm::isAlpha(text[pos + 1])) {
          t.text += advance();
          t.text += takeWhile([this](char ch) { return isIdentChar(ch); });
        }
      } else if (opts.punct.contains(c)) {
        t.kind = Tok::Punct;
        t.text = advance();
      } else {
        return fail(t, bad, std::string(1, c));
      }
      out.push_back(t);
    }
  }

private:
  llvm::StringRef text;
  const LexOptions &opts;
  size_t pos = 0;
  unsigned line = 1, col = 1;

  static bool isIdentStart(char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.';
  }
  bool isIdentChar(char c) const {
    return isIdentStart(c) || (opts.percentInNames && c == '%');
  }

  static bool fail(Token t, Token &bad, std::string what) {
    t.text = std::move(what);
    bad = t;
    return false;
  }

  char advance() {
    char c = text[pos++];
    if (c == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
    return c;
  }

  template <class F> std::string takeWhile(F pred) {
    std::string s;
    while (pos < text.size() && pred(text[pos]))
      s += advance();
    return s;
  }

  /// The body of a string after its opening quote; false when it is not
  /// closed on its line.
  bool lexString(std::string &out) {
    while (pos < text.size() && text[pos] != '"' && text[pos] != '\n') {
      char ch = advance();
      if (ch != '\\' || pos >= text.size()) {
        out += ch;
        continue;
      }
      char e = advance();
      if (e == 'n')
        out += '\n';
      else if (e == 't')
        out += '\t';
      else if (llvm::isHexDigit(e) && pos < text.size() &&
               llvm::isHexDigit(text[pos]))
        out += static_cast<char>(llvm::hexDigitValue(e) * 16 +
                                 llvm::hexDigitValue(advance()));
      else
        out += e;
    }
    if (pos >= text.size() || text[pos] != '"')
      return false;
    advance();
    return true;
  }

  void skipSpace(std::vector<Comment> &comments) {
    while (pos < text.size()) {
      char c = text[pos];
      if (llvm::isSpace(c)) {
        advance();
        continue;
      }
      if (text.substr(pos).starts_with("//")) {
        Comment cm;
        cm.line = line;
        advance();
        advance();
        cm.text = llvm::StringRef(takeWhile([](char ch) { return ch != '\n'; }))
                      .trim()
                      .str();
        comments.push_back(std::move(cm));
        continue;
      }
      return;
    }
  }
};

} // namespace

bool intent::text::lex(llvm::StringRef text, const LexOptions &opts,
                       std::vector<Token> &out, std::vector<Comment> &comments,
                       Token &bad) {
  return Lexer(text, opts).run(out, comments, bad);
}
