#!/usr/bin/env python3
"""Checks that the lowering layers only use the layers below them.

usage: check-layers.py LOWERING_DIR [--libs BUILD_LOWERING_DIR] [--nm NM]
                       [--quiet]

The layers and the layers each may use are the intent_lowering_library()
calls of LOWERING_DIR/CMakeLists.txt (NAME DIRS <folders> DEPS <layers>); a
layer may use its DEPS and, transitively, theirs. Checked:

  * every folder of LOWERING_DIR holding sources belongs to one layer, and
    the DEPS form no cycle;
  * every #include of a lowering folder names the file's own layer or one it
    may use, and none names a Clang or plugin header (lowering/ is
    Clang-free);
  * with --libs, every symbol a layer's archive (lib<NAME>.a) leaves
    undefined that some layer's archive defines is defined by the layer
    itself or by one it may use: a declaration written out by hand to get
    around the include rule fails here.

Static libraries with PUBLIC dependencies do not make a backward dependency
fail to link when the final binary links every layer; this script is what
enforces the order (docs/architecture.md, "Layers"). It prints one line per
violation and exits 1, or prints a summary (nothing with --quiet, as in the
build) and exits 0.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

# Headers lowering/ must never include, whatever the layer.
FORBIDDEN_TOPS = {"clang": "a Clang header", "clang-c": "a Clang header",
                  "plugin": "a plugin header", "tools": "a tool's header"}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
LIBRARY_RE = re.compile(r"intent_lowering_library\s*\(([^)]*)\)", re.S)


def parse_layers(cmake_path):
    """{layer: (dirs, deps)} in declaration order."""
    with open(cmake_path) as f:
        text = "\n".join(line.split("#", 1)[0] for line in f)
    layers = {}
    for call in LIBRARY_RE.finditer(text):
        words = call.group(1).split()
        if not words or words[0] == "name":  # the function's definition
            continue
        name, dirs, deps, into = words[0], [], [], None
        for w in words[1:]:
            if w in ("DIRS", "DEPS"):
                into = dirs if w == "DIRS" else deps
            elif into is not None:
                into.append(w)
        layers[name] = (dirs, deps)
    return layers


def closure(layers, errors):
    """{layer: set of layers it may use}; reports unknown deps and cycles."""
    reach = {}

    def visit(name, path):
        if name in reach:
            return reach[name]
        if name in path:
            cycle = path[path.index(name):] + [name]
            errors.append("layer cycle: " + " -> ".join(cycle))
            return set()
        out = set()
        for dep in layers[name][1]:
            if dep not in layers:
                errors.append(f"{name}: DEPS names {dep}, which is no layer")
                continue
            out |= {dep} | visit(dep, path + [name])
        reach[name] = out
        return out

    for name in layers:
        visit(name, [])
    return reach


def check_includes(root, layers, reach, errors):
    """Returns (files, includes) checked."""
    owner = {}
    for name, (dirs, _) in layers.items():
        for d in dirs:
            if d in owner:
                errors.append(f"folder {d} is in two layers: {owner[d]} and {name}")
            owner[d] = name
    files = includes = 0
    for d in sorted(os.listdir(root)):
        path = os.path.join(root, d)
        if not os.path.isdir(path):
            continue
        sources = sorted(f for f in os.listdir(path)
                         if f.endswith((".h", ".cpp")))
        if not sources:
            continue
        if d not in owner:
            errors.append(f"folder {d} holds sources but is in no layer "
                          f"(add it to an intent_lowering_library call)")
            continue
        layer = owner[d]
        for src in sources:
            files += 1
            rel = os.path.join(os.path.basename(root), d, src)
            with open(os.path.join(path, src)) as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE_RE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    top = target.split("/", 1)[0]
                    if "/" in target and top in FORBIDDEN_TOPS:
                        errors.append(f'{rel}:{lineno}: includes "{target}", '
                                      f"{FORBIDDEN_TOPS[top]}: lowering/ is "
                                      f"Clang-free")
                        continue
                    if "/" not in target or top not in owner:
                        continue  # LLVM, the standard library, include/
                    includes += 1
                    used = owner[top]
                    if used != layer and used not in reach[layer]:
                        may = ", ".join(sorted(reach[layer])) or "none"
                        errors.append(f'{rel}:{lineno}: {layer} may not include '
                                      f'"{target}" ({used}); it may use: {may}')
    return files, includes


def archive_symbols(nm, archive):
    """(strongly defined, undefined) external symbols of an archive."""
    out = subprocess.run([nm, "-g", "-P", archive], check=True,
                         capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2 or len(fields[1]) != 1:
            continue  # an archive member's header
        sym, kind = fields[0], fields[1]
        if kind == "U":
            undefined.add(sym)
        elif kind in "TDBRGS":  # weak (W, V) and common copies prove nothing
            defined.add(sym)
    return defined, undefined - defined


def demangle(sym):
    tool = shutil.which("c++filt") or shutil.which("llvm-cxxfilt")
    if not tool:
        return sym
    return subprocess.run([tool, sym], capture_output=True,
                          text=True).stdout.strip() or sym


def check_symbols(libdir, nm, layers, reach, errors):
    """Returns the number of archives checked."""
    symbols = {}
    for name in layers:
        archive = os.path.join(libdir, f"lib{name}.a")
        if not os.path.exists(archive):
            errors.append(f"{archive}: missing (build the lowering libraries)")
            continue
        symbols[name] = archive_symbols(nm, archive)
    definer = {}
    for name, (defined, _) in symbols.items():
        for sym in defined:
            definer.setdefault(sym, set()).add(name)
    for name, (_, undefined) in symbols.items():
        for sym in sorted(undefined):
            owners = definer.get(sym)
            if not owners or owners & reach[name]:
                continue
            errors.append(f"lib{name}.a uses {demangle(sym)}, defined in "
                          f"{', '.join(sorted(owners))}, a layer {name} may "
                          f"not use")
    return len(symbols)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", help="the lowering/ folder of the sources")
    ap.add_argument("--libs", help="the build's lowering/ folder (archives)")
    ap.add_argument("--nm", default=shutil.which("llvm-nm") or "nm")
    ap.add_argument("--quiet", action="store_true",
                    help="print nothing when the layers are respected")
    args = ap.parse_args()

    errors = []
    layers = parse_layers(os.path.join(args.root, "CMakeLists.txt"))
    if not layers:
        print(f"check-layers: no intent_lowering_library call in {args.root}")
        return 1
    reach = closure(layers, errors)
    files, includes = check_includes(args.root, layers, reach, errors)
    archives = check_symbols(args.libs, args.nm, layers, reach,
                             errors) if args.libs else 0
    errors = list(dict.fromkeys(errors))  # a cycle is found from each member
    for e in errors:
        print("check-layers: " + e)
    if errors:
        print(f"check-layers: {len(errors)} violation(s); the layers and "
              f"their order are in {os.path.join(args.root, 'CMakeLists.txt')}")
        return 1
    if args.quiet:
        return 0
    summary = f"{len(layers)} layers, {files} files, {includes} includes"
    if args.libs:
        summary += f", {archives} archives"
    print(f"check-layers: ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
