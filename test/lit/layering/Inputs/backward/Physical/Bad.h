// Backward: Physical includes Construction.
#include "Construction/State.h"
