// Uses the kernel library (lib_kernels.cpp) from plain C++: no kernel here.
#include <intent/runtime.hpp>

#include "lib_kernels.h"

#include <cstdio>
#include <vector>

int main() {
  const intent::index N = 1000;
  std::vector<float> Host(N);
  for (intent::index I = 0; I < N; ++I)
    Host[I] = static_cast<float>(I);
  intent::array<float> Y(Host);
  scale_all(Y.view(), 3.0f);
  std::vector<float> Got = Y.to_vector();
  int Bad = 0;
  for (intent::index I = 0; I < N; ++I)
    Bad += Got[I] != 3.0f * static_cast<float>(I);
  std::printf("consumer_lib [%s]: %d failed\n",
              intent::rt::mode_name(intent::rt::mode()), Bad);
  return Bad == 0 ? 0 : 1;
}
