// Below construction: may use KIR only.
#include "KIR/KIR.h"
#include "llvm/ADT/StringRef.h"
