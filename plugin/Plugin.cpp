//===- Plugin.cpp - [[intent::kernel]] Clang plugin entry point ------------===//
// Placeholder: the front end is being written.
