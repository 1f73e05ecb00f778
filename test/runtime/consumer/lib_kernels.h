// The host interface of the consumer's kernel library.
#pragma once
#include <intent/view.hpp>

void scale_all(intent::view<float, 1> y, float a);
