#include "Construction/State.h" // sideways: Passes sits beside Construction
