// Included by deps_main.cpp: phase 1 reads it, so it is a dependency.
#define DEPS_SCALE 2.0f
