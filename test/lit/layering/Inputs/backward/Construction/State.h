// Clang-free: no Clang header.
#include "clang/AST/Decl.h"
#include "Physical/IR.h"
