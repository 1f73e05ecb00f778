// Transitive use of KIR through Physical is allowed.
#include "KIR/KIR.h"
#include "Passes/Pass.h"
#include "Physical/IR.h"
