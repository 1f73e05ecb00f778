#!/usr/bin/env python3
"""Checks the #line directives of generated .kernels.cu files: every
directive that names the file itself must restore its true line number
(the line after the directive), so that nvcc errors in generated code point
at the generated file and errors in user code at the user's lines."""
import os
import re
import sys

DIRECTIVE = re.compile(r'^\s*#\s*line\s+(\d+)\s+"([^"]*)"')


def check(path):
    errors = []
    own = os.path.basename(path)
    with open(path) as f:
        for number, text in enumerate(f, start=1):
            m = DIRECTIVE.match(text)
            if not m:
                continue
            line, name = int(m.group(1)), m.group(2)
            if os.path.basename(name) == own and line != number + 1:
                errors.append(f"{path}:{number}: #line {line} should be "
                              f"#line {number + 1}")
    return errors


def main():
    errors = [e for p in sys.argv[1:] for e in check(p)]
    for e in errors:
        print(e)
    print(f"{len(sys.argv) - 1} files, {len(errors)} wrong #line directives")
    return 1 if errors or len(sys.argv) < 2 else 0


if __name__ == "__main__":
    sys.exit(main())
