// The lowest layer.
#include <vector>
