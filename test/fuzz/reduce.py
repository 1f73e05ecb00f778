#!/usr/bin/env python3
"""Shrinks a failing generated program by delta debugging over statements.

    reduce.py --test CMD PROGRAM.cpp [-o OUT.cpp] [--max-tests N]

CMD is run as `CMD CANDIDATE.cpp` and must exit 0 while the candidate still
fails the same way (and should bound the candidate's run time: a reduction
can still produce a program that runs longer); run_fuzz.sh writes one per
failure
(BUILD/fuzz/failures/<name>/interesting.sh). The reducer works on the code
between `namespace fuzz {` and its end (helpers and the kernel; main() is
left alone). Statements are found from the generator's layout: two spaces
of indentation per level, `}`/`} else {`/`} while (...);`/`else` lines
continuing the statement that opened them. Phase 1 removes statements
(whole groups and loops first, then smaller ones, repeating until nothing
more can go); phase 2 replaces initializers and assigned values by 0. A
candidate that no longer compiles is simply not interesting.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def indent(line):
    return len(line) - len(line.lstrip(" "))


def is_continuation(line):
    s = line.strip()
    return s.startswith("}") or s == "else" or s.startswith("else ")


def region(lines):
    """[begin, end) of the lines the reducer may touch."""
    begin = lines.index("namespace fuzz {") + 1
    end = lines.index("} // namespace fuzz")
    return begin, end


def units(lines):
    """Removable statements as (first, last) line ranges, largest first."""
    begin, end = region(lines)
    out = []
    for i in range(begin, end):
        line = lines[i]
        s = line.strip()
        if (not s or is_continuation(line) or s.startswith(("//", "using ",
                                                               "[[intent::kernel]]"))
                or re.fullmatch(r"\+\+t\d+;", s) or s.startswith("return ")):
            # `++tN;` bounds a while/do loop: without it the loop may not end;
            # a helper without its last return would be undefined behaviour.
            continue
        d = indent(line)
        j = i
        while j + 1 < end:
            nxt = lines[j + 1]
            if nxt.strip() and (indent(nxt) > d or
                                (indent(nxt) == d and is_continuation(nxt))):
                j += 1
            else:
                break
        if d == 0 and not s.endswith("{"):
            continue
        out.append((i, j))
    out.sort(key=lambda u: (u[0] - u[1], u[0]))
    return out


def zero_candidates(lines):
    """Lines `... = value;` whose value could become 0."""
    begin, end = region(lines)
    out = []
    for i in range(begin, end):
        s = lines[i].rstrip()
        if not s.endswith(";") or " = " not in s or s.strip().startswith(
                ("for ", "view<", "[[maybe_unused]] view<")):
            continue
        head, value = s.split(" = ", 1)
        if value.strip() != "0;":
            out.append((i, head + " = 0;"))
    return out


class Reducer:
    def __init__(self, test, name, max_tests):
        self.test = test
        self.name = name
        self.max_tests = max_tests
        self.tests = 0
        self.tmp = tempfile.mkdtemp(prefix="intent-reduce-")

    def interesting(self, lines):
        if self.tests >= self.max_tests:
            return False
        self.tests += 1
        path = os.path.join(self.tmp, self.name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([self.test, path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        return r.returncode == 0

    def remove_statements(self, lines):
        """Passes over all statements, largest first, until a pass removes
        nothing; within a pass each statement (by its text) is tried once."""
        changed = True
        while changed and self.tests < self.max_tests:
            changed = False
            tried = set()
            while self.tests < self.max_tests:
                todo = [(f, l) for f, l in units(lines)
                        if tuple(lines[f:l + 1]) not in tried]
                if not todo:
                    break
                first, last = todo[0]
                tried.add(tuple(lines[first:last + 1]))
                cand = lines[:first] + lines[last + 1:]
                if self.interesting(cand):
                    print(f"  removed {last - first + 1} line(s): "
                          f"{lines[first].strip()[:60]}", flush=True)
                    lines = cand
                    changed = True
        return lines

    def zero_values(self, lines):
        for i, repl in zero_candidates(lines):
            if i >= len(lines):
                continue
            cand = list(lines)
            cand[i] = repl
            if cand[i] != lines[i] and self.interesting(cand):
                print(f"  zeroed: {repl.strip()[:60]}", flush=True)
                lines = cand
        return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--test", required=True,
                    help="command; exit 0 while the candidate still fails")
    ap.add_argument("program")
    ap.add_argument("-o", "--output")
    ap.add_argument("--max-tests", type=int, default=400)
    a = ap.parse_args(argv)
    with open(a.program) as f:
        lines = f.read().split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    test = os.path.abspath(a.test)
    r = Reducer(test, os.path.basename(a.program), a.max_tests)
    try:
        if not r.interesting(lines):
            print("reduce.py: the original program is not interesting "
                  "(the test does not exit 0 on it)", file=sys.stderr)
            return 1
        before = len(lines)
        lines = r.remove_statements(lines)
        lines = r.zero_values(lines)
        lines = r.remove_statements(lines)
    finally:
        shutil.rmtree(r.tmp, ignore_errors=True)
    out = a.output or os.path.splitext(a.program)[0] + ".reduced.cpp"
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{out}: {before} -> {len(lines)} lines after {r.tests} tests")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
