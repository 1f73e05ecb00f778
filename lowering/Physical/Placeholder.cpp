//===- Placeholder.cpp - removed once the physical IR lands ---------------===//
