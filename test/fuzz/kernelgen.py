"""Random Intent kernels: groups of parallel_for writing distinct outputs.

A kernel has output views (each element written by at most one instance of
one group), read-only input views, scalar parameters and 1..4 groups. Each
group is a parallel_for pattern over an output's extents: flat (rank 1-3),
nested parallel_for, an ordered loop over the last dimension inside each
instance, a transposed sub-view, a row sub-view, a conditional write, or two
groups over disjoint slices of one output. Instance bodies hold locals,
if/else, for loops (forward, reversed, strided), while and do-while loops
with carried values, break and continue, sub-views of the inputs (row,
transpose, slice) and calls of generated helper functions. Every value stays
in a range where the operations are defined and exact (see exprgen.py).
Besides these, a group may come from an optional *group feature* (see
GROUP_FEATURES at the end of this file): "reductions" (reducegen.py: reduce,
scan, argmax/argmin, region_fold, region_scan). Features "all" enables every
group feature, "basic" none.

Adding a feature: write its group generator in a new module (as
reducegen.py does), add one GroupFeature entry to GROUP_FEATURES, and
`--features basic,<name>` (or `all`) generates it; run_fuzz.sh
--serial-only checks the new programs are valid C++ before any Intent run.
"""

import re

import effectsgen
import reducegen

from exprgen import CTYPE, Ex, ExprGen, INT_TYPES, FLOAT_TYPES, const, \
    literal, wrap_mod

# Storage type -> (C++ type, compute type).
STORAGE = {"i8": ("int8_t", "i32"), "u8": ("uint8_t", "i32"),
           "i16": ("int16_t", "i32"), "i32": ("int32_t", "i32"),
           "i64": ("int64_t", "i64"), "u32": ("uint32_t", "u32"),
           "f32": ("float", "f32"), "f64": ("double", "f64")}
# Value range (lo, hi, fb) of the data main() fills a view of each type with.
FILL = {"i8": (-100, 100, 0), "u8": (0, 255, 0), "i16": (-1000, 1000, 0),
        "i32": (-1000, 1000, 0), "i64": (-10**6, 10**6, 0), "u32": (0, 2**32 - 1, 0),
        "f32": (-64.0, 64.0, 2), "f64": (-64.0, 64.0, 2)}
EXTENTS = [0, 1, 1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 32, 33, 64]
REDUCTION_PATTERNS = ["reduce", "reduce", "scan", "arg", "region_fold",
                      "region_scan", "rowpipe"]
MARK = "\x01"
PARAM_MARK = "\x02"


def cond(e):
    """`(e)` for an if/while condition, without doubled parentheses (Clang
    warns -Wparentheses-equality on `if ((a == b))`)."""
    t = e.text
    if t.startswith("(") and t.endswith(")"):
        depth = 0
        for i, ch in enumerate(t):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i < len(t) - 1:
                return f"({t})"
        return t
    return f"({t})"


def decl_mark(name, param=False):
    """Placeholder before a declaration; see mark_unused()."""
    m = PARAM_MARK if param else MARK
    return f"{m}{name}{m}"


def mark_unused(lines):
    """Replaces each declaration placeholder by [[maybe_unused]] when the
    local is never read (only declared or assigned), else by nothing, so the
    programs compile without warnings however much dead code they hold."""
    text = "\n".join(lines)
    marks = re.findall("([%s%s])(\\w+)\\1" % (MARK, PARAM_MARK), text)
    bare = re.sub("([%s%s])\\w+\\1" % (MARK, PARAM_MARK), "", text)
    for m, name in marks:
        reads = len(re.findall(r"\b%s\b(?!\s*=[^=])" % name, bare))
        if m == PARAM_MARK:
            reads -= 1  # the parameter's declaration
        attr = "" if reads else "[[maybe_unused]] "
        text = text.replace(f"{m}{name}{m}", attr)
    return text.split("\n")


class ViewParam:
    """A kernel view parameter with the concrete extents main() gives it."""

    def __init__(self, name, st, extents, output):
        self.name, self.st, self.extents, self.output = name, st, extents, output
        self.rank = len(extents)
        self.ctype, self.cty = STORAGE[st]
        self.fill = FILL[st]
        self.values = None  # fixed contents (region offsets), else random

    def decl(self):
        const_ = "" if self.output else "const "
        return (f"{decl_mark(self.name, True)}view<{const_}{self.ctype}, {self.rank}> "
                f"{self.name}")


class ViewVal:
    """A view value usable for reads in the kernel: its text and, per
    dimension, the least and greatest extent it can have at run time."""

    def __init__(self, text, param, min_ext, max_ext):
        self.text, self.param = text, param
        self.min_ext, self.max_ext = min_ext, max_ext


class Var(Ex):
    """A named local: carry vars keep a fixed range across loop iterations;
    plain mutable locals may be reassigned at their own loop depth."""

    __slots__ = ("mutable", "loop_depth", "carry", "mod", "bound", "level")

    def __init__(self, name, e, mutable, loop_depth, carry=False):
        super().__init__(name, e.ty, e.lo, e.hi, e.fb)
        self.mutable, self.loop_depth, self.carry = mutable, loop_depth, carry
        self.mod = self.bound = None
        self.level = 0  # the parallel_for nesting level that declared it


class KernelGen:
    """Generates one kernel; see generate()."""

    def __init__(self, rng, name, helpers, features="all"):
        self.r = rng
        # The enabled GroupFeature entries, in GROUP_FEATURES order.
        self.features = [GROUP_FEATURES[f] for f in parse_features(features)]
        self.needs_struct = False     # a reduce uses the Pair accumulator
        self.name = name
        self.helpers = helpers        # [(name, ret_ty, arg_ty, lo, hi, fb)]
        self.frames = [[]]            # variables in scope, innermost last
        self.views = []               # ViewVal readable now
        self.loop_depth = 0
        self.level = 0                # parallel_for lambdas entered
        self.in_helper = False
        self.counter = 0
        self.outputs, self.inputs, self.scalars = [], [], []
        self.self_read = None         # leaf for the element being written
        self.eg = ExprGen(rng, self.visible, self.reads)

    # --- scope ----------------------------------------------------------

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def visible(self):
        return [v for f in self.frames for v in f]

    def declare(self, var):
        var.level = self.level
        self.frames[-1].append(var)
        return var

    def assignable(self, v):
        """Variables of an enclosing parallel_for instance are shared by the
        nested instances: read-only there."""
        return v.mutable and v.level == self.level

    def snapshot(self):
        return {id(v): (v.lo, v.hi, v.fb) for v in self.visible()}

    def restore(self, snap):
        for v in self.visible():
            v.lo, v.hi, v.fb = snap[id(v)]

    def merge(self, a, b):
        for v in self.visible():
            (l1, h1, f1), (l2, h2, f2) = a[id(v)], b[id(v)]
            v.lo, v.hi, v.fb = min(l1, l2), max(h1, h2), max(f1, f2)

    # --- leaves: input reads and helper calls ----------------------------

    def index_for(self, vv, d):
        """An in-bounds coordinate for dimension d of view value vv."""
        r = self.r
        direct = [v for v in self.visible() if v.ty == "idx" and v.lo >= 0
                  and v.hi <= vv.min_ext[d] - 1]
        if direct and r.random() < 0.7:
            v = r.choice(direct)
            room = vv.min_ext[d] - 1 - v.hi
            if room > 0 and r.random() < 0.3:
                return f"{v.text} + {r.randint(1, min(room, 3))}"
            return v.text
        e = self.eg.index_expr(1)
        return f"({e.text}) % {vv.text}.extent({d})"

    def reads(self, ty):
        out = []
        if self.self_read is not None and self.self_read.ty == ty:
            out.append(self.self_read)
        for vv in self.views:
            p = vv.param
            if p.cty != ty or min(vv.min_ext) < 1:
                continue
            coords = ", ".join(self.index_for(vv, d) for d in range(len(vv.min_ext)))
            text = f"{vv.text}({coords})"
            if p.ctype != CTYPE[ty]:
                text = f"static_cast<{CTYPE[ty]}>({text})"
            lo, hi, fb = p.fill
            out.append(Ex(text, ty, lo, hi, fb))
        for hname, ret, arg, lo, hi, fb in self.helpers:
            if ret == ty and not self.in_helper and self.r.random() < 0.5:
                self.in_helper = True
                a, b = self.eg.expr(arg, 1), self.eg.expr(arg, 1)
                self.in_helper = False
                out.append(Ex(f"{hname}({a.text}, {b.text})", ty, lo, hi, fb))
        return out

    # --- statements -----------------------------------------------------

    def block(self, ind, budget, depth):
        """Up to `budget` random statements at indentation ind."""
        lines = []
        for _ in range(self.r.randint(0, budget)):
            lines += self.statement(ind, depth)
        return lines

    def statement(self, ind, depth):
        r = self.r
        sp = "  " * ind
        kinds = ["decl"] * 5 + ["assign"] * 2 + ["subview"]
        if depth > 0:
            kinds += ["if"] * 2 + ["for"] * 2 + ["while", "do"]
        if self.loop_depth > 0:
            kinds += ["carry"] * 3 + ["break", "continue"]
        k = r.choice(kinds)
        if k == "decl":
            ty = r.choice(["i32", "i32", "i64", "idx", "u32", "f32", "f64", "bool"])
            e = self.eg.expr(ty, r.randint(1, 3))
            v = self.declare(Var(self.fresh("v"), e, True, self.loop_depth))
            return [f"{sp}{decl_mark(v.text)}{CTYPE[ty]} {v.text} = {e.text};"]
        if k == "assign":
            cands = [v for v in self.visible() if self.assignable(v)
                     and not v.carry and v.loop_depth == self.loop_depth]
            if not cands:
                return []
            v = r.choice(cands)
            e = self.eg.expr(v.ty, r.randint(1, 3))
            if e.text == v.text:  # -Wself-assign
                return []
            v.lo, v.hi, v.fb = e.lo, e.hi, e.fb
            return [f"{sp}{v.text} = {e.text};"]
        if k == "subview":
            return self.subview(sp)
        if k == "if":
            return self.if_stmt(ind, depth)
        if k in ("for", "while", "do"):
            return self.loop(k, ind, depth)
        if k == "carry":
            return self.carry_update(sp)
        c = self.eg.expr("bool", 2)
        return [f"{sp}if {cond(c)}", f"{sp}  {k};"]

    def subview(self, sp):
        r = self.r
        cands = [vv for vv in self.views if min(vv.min_ext) >= 1]
        if not cands:
            return []
        vv = r.choice(cands)
        p, rank = vv.param, len(vv.min_ext)
        kind = r.choice(["row", "transpose", "slice"])
        name = self.fresh("sv")
        if kind == "row" and rank >= 2:
            i = self.index_for(vv, 0)
            nv = ViewVal(name, p, vv.min_ext[1:], vv.max_ext[1:])
            text, nrank = f"{vv.text}.row({i})", rank - 1
        elif kind == "transpose" and rank == 2:
            nv = ViewVal(name, p, vv.min_ext[::-1], vv.max_ext[::-1])
            text, nrank = f"{vv.text}.transpose()", rank
        else:
            d = r.randrange(rank)
            lo = self.eg.index_expr(1)
            begin = f"({lo.text}) % {vv.text}.extent({d})"
            mn, mx = list(vv.min_ext), list(vv.max_ext)
            mn[d] = max(1, mn[d] - min(lo.hi, mx[d] - 1))
            nv = ViewVal(name, p, mn, mx)
            text = f"{vv.text}.slice({d}, range{{{begin}, {vv.text}.extent({d})}})"
            nrank = rank
        self.views.append(nv)
        return [f"{sp}{decl_mark(name)}view<const {p.ctype}, {nrank}> {name} = "
                f"{text};"]

    def if_stmt(self, ind, depth):
        sp = "  " * ind
        c = self.eg.expr("bool", 2)
        snap = self.snapshot()
        lines = [f"{sp}if {cond(c)} {{"] + self.nested(ind + 1, 3, depth - 1)
        if self.r.random() < 0.5:
            after_then = self.snapshot()
            self.restore(snap)
            lines += [f"{sp}}} else {{"] + self.nested(ind + 1, 3, depth - 1)
            self.merge(after_then, self.snapshot())
        else:
            self.merge(snap, self.snapshot())
        return lines + [f"{sp}}}"]

    def nested(self, ind, budget, depth):
        """A block with its own scope (locals and sub-views end with it)."""
        self.frames.append([])
        nviews = len(self.views)
        lines = self.block(ind, budget, depth)
        self.frames.pop()
        del self.views[nviews:]
        return lines

    def declare_carry(self, sp):
        """Declares a loop-carried variable with a range every update keeps."""
        r = self.r
        ty = r.choice(["i32", "i32", "i64", "u32", "f32", "f64"])
        name = self.fresh("c")
        if ty == "u32":
            e = self.eg.expr(ty, 2)
            v = Var(name, e, True, self.loop_depth, carry=True)
        elif ty in FLOAT_TYPES:
            b = 4096.0
            e = self.eg.expr(ty, 2)
            init = e.text if e.fb <= 2 else f"std::floor({e.text})"
            sfx = "f" if ty == "f32" else ""
            e = Ex(f"std::fmin(std::fmax({init}, -{b}{sfx}), {b}{sfx})", ty)
            v = Var(name, Ex(name, ty, -b, b, 2), True, self.loop_depth, True)
            v.bound = b
        else:
            m = r.choice([7, 101, 1009, 10007])
            e = wrap_mod(self.eg.expr(ty, 2), m)
            v = Var(name, Ex(name, ty, -(m - 1), m - 1), True, self.loop_depth, True)
            v.mod = m
        self.declare(v)
        return [f"{sp}{decl_mark(name)}{CTYPE[ty]} {name} = {e.text};"]

    def carry_update(self, sp):
        r = self.r
        cands = [v for v in self.visible() if v.carry and self.assignable(v)
                 and v.loop_depth < self.loop_depth]
        if not cands:
            return []
        v = r.choice(cands)
        if v.ty == "u32":
            e = self.eg.expr("u32", 2)
            form = r.choice([f"{v.text} * 1664525u + {e.text}",
                             f"({v.text} >> 1) ^ {e.text}", f"{v.text} + {e.text}",
                             f"{v.text} ^ ({e.text} << 3u)"])
            return [f"{sp}{v.text} = {form};"]
        if v.ty in FLOAT_TYPES:
            sfx = "f" if v.ty == "f32" else ""
            b = f"{v.bound}{sfx}"
            for _ in range(6):
                e = self.eg.expr(v.ty, 2)
                op = r.choice(["+", "-", "*"])
                if op == "*":
                    m = v.bound * max(-e.lo, e.hi)
                    if m * 2 ** (2 + e.fb) <= 2**22:
                        inner = f"std::floor({v.text} * {e.text})"
                        break
                elif e.fb <= 2 and (v.bound + max(-e.lo, e.hi)) * 4 <= 2**22:
                    inner = f"{v.text} {op} {e.text}"
                    break
            else:
                inner = f"{v.text} + {literal(v.ty, 0.25)}"
            return [f"{sp}{v.text} = std::fmin(std::fmax({inner}, -{b}), {b});"]
        e = wrap_mod(self.eg.expr(v.ty, 2), 1000)
        op = r.choice(["+", "-", "*", "^"])
        return [f"{sp}{v.text} = ({v.text} {op} {e.text}) % {literal(v.ty, v.mod)};"]

    def bound_expr(self):
        """A non-negative loop bound of type index, at most 33."""
        r = self.r
        opts = [const("idx", r.randint(0, 9))]
        for vv in self.views:
            for d in range(len(vv.min_ext)):
                if vv.max_ext[d] <= 33:
                    opts.append(Ex(f"{vv.text}.extent({d})", "idx", vv.min_ext[d],
                                   vv.max_ext[d]))
        for v in self.visible():
            if v.ty == "idx" and 0 <= v.lo and v.hi <= 33:
                opts.append(v)
        return r.choice(opts)

    def loop(self, kind, ind, depth):
        r = self.r
        sp = "  " * ind
        lines = []
        for _ in range(r.randint(1, 2)):
            lines += self.declare_carry(sp)
        self.frames.append([])
        nviews = len(self.views)
        self.loop_depth += 1
        if kind == "for":
            b = self.bound_expr()
            k = self.fresh("k")
            form = r.choice(["up", "up", "down", "step"])
            hi = max(b.hi - 1, 0)
            if form == "up":
                head = f"for (index {k} = 0; {k} < {b.text}; ++{k})"
            elif form == "down":
                head = f"for (index {k} = {b.text} - 1; {k} >= 0; --{k})"
            else:
                start = r.randint(0, 1)
                head = f"for (index {k} = {start}; {k} < {b.text}; {k} += 2)"
            self.declare(Var(k, Ex(k, "idx", 0, hi), False, self.loop_depth))
            body = self.block(ind + 1, 4, depth - 1)
            lines += [f"{sp}{head} {{"] + body + [f"{sp}}}"]
        else:
            t = self.fresh("t")
            cap = r.randint(1, 12)
            keep = self.eg.expr("bool", 2)
            lines.insert(0, f"{sp}int32_t {t} = 0;")
            self.declare(Var(t, Ex(t, "i32", 0, cap), False, self.loop_depth))
            body = [f"{sp}  ++{t};"] + self.block(ind + 1, 4, depth - 1)
            test = f"{t} < {cap} && {keep.text}"
            if kind == "while":
                lines += [f"{sp}while ({test}) {{"] + body + [f"{sp}}}"]
            else:
                lines += [f"{sp}do {{"] + body + [f"{sp}}} while ({test});"]
        self.loop_depth -= 1
        self.frames.pop()
        del self.views[nviews:]
        return lines

    # --- groups ---------------------------------------------------------

    def coords(self, extents, names=None):
        """Declares index coordinates ranging over extents."""
        names = names or [self.fresh("i") for _ in extents]
        for n, e in zip(names, extents):
            self.declare(Var(n, Ex(n, "idx", 0, max(e - 1, 0)), False, 0))
        return names

    def enter_lambda(self):
        self.frames.append([])
        self.level += 1
        saved = self.loop_depth, len(self.views)
        self.loop_depth = 0
        return saved

    def leave_lambda(self, saved):
        self.frames.pop()
        self.level -= 1
        self.loop_depth = saved[0]
        del self.views[saved[1]:]

    def write(self, sp, out, target, coords, value_depth=3):
        """`target(coords) = value;` for output `out`, allowing the value to
        read the element's old contents."""
        at = f"{target}({', '.join(coords)})"
        old = at if out.ctype == CTYPE[out.cty] else \
            f"static_cast<{CTYPE[out.cty]}>({at})"
        lo, hi, fb = out.fill
        self.self_read = Ex(old, out.cty, lo, hi, fb)
        e = self.eg.expr(out.cty, value_depth)
        self.self_read = None
        if out.st == "i8":
            e = Ex(f"static_cast<int8_t>({wrap_mod(e, 128).text})", "i32")
        elif out.st == "i16":
            e = Ex(f"static_cast<int16_t>({wrap_mod(e, 32768).text})", "i32")
        elif out.st == "u8":
            e = Ex(f"static_cast<uint8_t>({e.text} & 255)", "i32")
        return f"{sp}{at} = {e.text};"

    def parallel(self, sp, extents_text, names):
        params = ", ".join(f"index {n}" for n in names)
        return f"{sp}parallel_for({', '.join(extents_text)}, [&]({params}) {{"

    def group(self, pattern, outs):
        """The lines of one group (or two, for "slices") writing outs."""
        r = self.r
        o = outs[0]
        ext_text = [f"{o.name}.extent({d})" for d in range(o.rank)]
        lines = []
        if pattern in ("flat", "cond"):
            saved = self.enter_lambda()
            names = self.coords(o.extents)
            lines.append(self.parallel("  ", ext_text, names))
            lines += self.block(2, 4, 2)
            if pattern == "flat":
                lines.append(self.write("    ", o, o.name, names))
            else:
                c = self.eg.expr("bool", 2)
                lines += [f"    if {cond(c)}", self.write("      ", o, o.name, names)]
                if r.random() < 0.5:
                    lines += ["    else", self.write("      ", o, o.name, names)]
            self.leave_lambda(saved)
            return lines + ["  });"]
        if pattern == "nested":
            saved = self.enter_lambda()
            (i0,) = self.coords(o.extents[:1])
            lines.append(self.parallel("  ", ext_text[:1], [i0]))
            lines += self.block(2, 3, 2)
            for o2 in outs[1:]:
                lines.append(self.write("    ", o2, o2.name, [i0]))
            inner = self.enter_lambda()
            names = self.coords(o.extents[1:])
            lines.append(self.parallel("    ", ext_text[1:], names))
            lines += self.block(3, 3, 1)
            lines.append(self.write("      ", o, o.name, [i0] + names))
            self.leave_lambda(inner)
            lines.append("    });")
            self.leave_lambda(saved)
            return lines + ["  });"]
        if pattern == "ordered":
            saved = self.enter_lambda()
            (i0,) = self.coords(o.extents[:1])
            lines.append(self.parallel("  ", ext_text[:1], [i0]))
            lines += self.block(2, 3, 1)
            for _ in range(r.randint(1, 2)):
                lines += self.declare_carry("    ")
            self.frames.append([])
            self.loop_depth += 1
            (i1,) = self.coords(o.extents[1:2])
            self.frames[-1][-1].loop_depth = self.loop_depth
            if r.random() < 0.7:
                lines.append(f"    for (index {i1} = 0; {i1} < {ext_text[1]}; ++{i1}) {{")
            else:
                lines.append(f"    for (index {i1} = {ext_text[1]} - 1; {i1} >= 0; --{i1}) {{")
            lines += self.block(3, 4, 1)
            lines.append(self.write("      ", o, o.name, [i0, i1]))
            lines += self.block(3, 2, 0)
            lines.append("    }")
            self.frames.pop()
            self.loop_depth -= 1
            self.leave_lambda(saved)
            return lines + ["  });"]
        if pattern == "transpose":
            t = self.fresh("ot")
            lines.append(f"  view<{o.ctype}, 2> {t} = {o.name}.transpose();")
            saved = self.enter_lambda()
            names = self.coords(o.extents[::-1])
            lines.append(self.parallel("  ", [f"{t}.extent(0)", f"{t}.extent(1)"], names))
            lines += self.block(2, 4, 2)
            lines.append(self.write("    ", o, t, names))
            self.leave_lambda(saved)
            return lines + ["  });"]
        if pattern == "row":
            saved = self.enter_lambda()
            (i0,) = self.coords(o.extents[:1])
            lines.append(self.parallel("  ", ext_text[:1], [i0]))
            rv = self.fresh("orow")
            lines.append(f"    view<{o.ctype}, {o.rank - 1}> {rv} = {o.name}.row({i0});")
            lines += self.block(2, 2, 1)
            inner = self.enter_lambda()
            names = self.coords(o.extents[1:])
            lines.append(self.parallel("    ", [f"{rv}.extent({d})" for d in
                                              range(o.rank - 1)], names))
            lines += self.block(3, 3, 1)
            lines.append(self.write("      ", o, rv, names))
            self.leave_lambda(inner)
            lines.append("    });")
            self.leave_lambda(saved)
            return lines + ["  });"]
        for f in self.features:
            if pattern in f.patterns:
                return f.emit(self, pattern, outs)
        assert pattern == "slices"
        half = o.extents[0] // 2
        for part, (b, e, n0) in enumerate([("0", f"{o.name}.extent(0) / 2", half),
                                           (f"{o.name}.extent(0) / 2",
                                            f"{o.name}.extent(0)",
                                            o.extents[0] - half)]):
            sv = self.fresh("part")
            lines.append(f"  view<{o.ctype}, {o.rank}> {sv} = "
                         f"{o.name}.slice(0, range{{{b}, {e}}});")
            saved = self.enter_lambda()
            names = self.coords([n0] + o.extents[1:])
            lines.append(self.parallel("  ", [f"{sv}.extent({d})" for d in
                                              range(o.rank)], names))
            lines += self.block(2, 3, 1)
            lines.append(self.write("    ", o, sv, names))
            self.leave_lambda(saved)
            lines.append("  });")
        return lines

    # --- the kernel -----------------------------------------------------

    def shape(self, rank, limit=4096):
        while True:
            ext = [self.r.choice(EXTENTS if rank < 3 else EXTENTS[:10])
                   for _ in range(rank)]
            n = 1
            for e in ext:
                n *= e
            if n <= limit:
                return ext

    def reduction_outputs(self, pat, region_inputs):  # GroupFeature.outputs
        """The outputs of a reduction group (and, for a region group, its
        offsets and data inputs, appended to region_inputs)."""
        r = self.r

        def out(st, ext):
            o = ViewParam(f"out{len(self.outputs)}", st, ext, True)
            self.outputs.append(o)
            return o

        st = r.choice(sorted(reducegen.ACC_ST))
        if pat == "reduce":
            if r.random() < 0.2:
                st = "i64"
            return [out(st, self.shape(r.randint(1, 2)))]
        if pat == "scan":
            return [out(st, self.shape(2))]
        if pat == "arg":
            o = out(st, self.shape(1))
            return [o, out("i64", list(o.extents))]
        if pat == "rowpipe":
            o = out(st, self.shape(2))
            x = ViewParam(f"rw{len(region_inputs)}", st,
                          [max(e, 1) for e in o.extents], False)
            region_inputs.append(x)
            return [o, x]
        offs = reducegen.offsets(r)
        n = len(region_inputs) // 2
        off = ViewParam(f"off{n}", "i32", [len(offs)], False)
        off.values = offs
        data = ViewParam(f"rx{n}", st, [max(offs[-1], 1)], False)
        region_inputs += [off, data]
        ext = [len(offs) - 1] if pat == "region_fold" else [offs[-1]]
        return [out(st, ext), off, data]

    def generate(self):
        """Returns the kernel's definition as a list of lines."""
        r = self.r
        patterns = {"flat": (1, 3), "cond": (1, 3), "nested": (2, 3),
                    "ordered": (2, 2), "transpose": (2, 2), "row": (2, 3),
                    "slices": (1, 2)}
        plan, region_inputs = [], []
        for _ in range(r.randint(1, 4)):
            if self.features and r.random() < 0.45:
                pat = r.choice([p for f in self.features for p in f.patterns])
                f = next(f for f in self.features if pat in f.patterns)
                plan.append((pat, f.outputs(self, pat, region_inputs)))
                continue
            pat = r.choice(sorted(patterns))
            lo, hi = patterns[pat]
            outs = [ViewParam(f"out{len(self.outputs)}", r.choice(sorted(STORAGE)),
                              self.shape(r.randint(lo, hi)), True)]
            self.outputs.append(outs[0])
            if pat == "nested" and r.random() < 0.5:
                o2 = ViewParam(f"out{len(self.outputs)}", r.choice(sorted(STORAGE)),
                               outs[0].extents[:1], True)
                self.outputs.append(o2)
                outs.append(o2)
            plan.append((pat, outs))
        for i in range(r.randint(1, 3)):
            if r.random() < 0.4:
                ext = list(r.choice(self.outputs).extents)
                ext = [max(e, 1) for e in ext]
            else:
                ext = [max(e, 1) for e in self.shape(r.randint(1, 3))]
            p = ViewParam(f"in{i}", r.choice(sorted(STORAGE)), ext, False)
            self.inputs.append(p)
            self.views.append(ViewVal(p.name, p, ext, ext))
        for p in region_inputs:
            self.inputs.append(p)
            self.views.append(ViewVal(p.name, p, p.extents, p.extents))
        for i in range(r.randint(0, 3)):
            ty = r.choice(["i32", "idx", "u32", "f32", "f64"])
            if ty == "i32":
                e = const(ty, r.randint(-50, 50))
            elif ty == "idx":
                e = const(ty, r.randint(0, 20))
            elif ty == "u32":
                e = const(ty, r.randrange(2**32))
            else:
                q = r.randint(-40, 40)
                e = const(ty, q / 4, 2)
            name = f"s{i}"
            self.scalars.append((ty, name, e.text))
            self.declare(Var(name, Ex(name, ty, e.lo, e.hi, e.fb), False, 0))
        body = []
        for pat, outs in plan:
            body += [f"  // group: {pat}"] + self.group(pat, outs)
        params = [p.decl() for p in self.outputs + self.inputs]
        params += [f"{decl_mark(name, True)}{CTYPE[ty]} {name}"
                   for ty, name, _ in self.scalars]
        head = [f"[[intent::kernel]] void {self.name}({', '.join(params)}) {{"]
        if self.needs_struct:
            head = reducegen.STRUCT + head
        return mark_unused(head + body + ["}"])


def helper(rng, name):
    """A helper function of two arguments with an if and two returns.
    Returns (lines, (name, result type, argument type, lo, hi, fb))."""
    ty = rng.choice(["i32", "i32", "i64", "f32", "f64"])
    c = CTYPE[ty]
    if ty in FLOAT_TYPES:
        sfx = "f" if ty == "f32" else ""
        clamp = f"std::fmin(std::fmax(std::floor({{}}), -64.0{sfx}), 64.0{sfx})"
        xs = [Ex(n, ty, -64.0, 64.0, 0) for n in ("x", "y")]
    else:
        clamp = "{} % " + literal(ty, 1009)
        xs = [Ex(n, ty, -1008, 1008) for n in ("x", "y")]
    eg = ExprGen(rng, lambda: xs, lambda ty_: [])
    test = eg.expr("bool", 2)
    e1, e2 = eg.expr(ty, 3), eg.expr(ty, 3)
    lines = [f"inline {c} {name}({c} a, {c} b) {{",
             f"  {decl_mark('x')}{c} x = {clamp.format('a')};",
             f"  {decl_mark('y')}{c} y = {clamp.format('b')};",
             f"  if {cond(test)}",
             f"    return {e1.text};",
             f"  return {e2.text};",
             "}"]
    return mark_unused(lines), (name, ty, ty, min(e1.lo, e2.lo), max(e1.hi, e2.hi),
                   max(e1.fb, e2.fb))


#--- group features ------------------------------------------------------


class GroupFeature:
    """An optional kind of group, enabled by name with --features.

    patterns  the pattern names it adds (repeat one to weigh it); with
              features enabled, 45% of a kernel's groups draw one uniformly
              from the patterns of all enabled features
    outputs   outputs(kg, pattern, extra_inputs) -> outs: creates the
              group's output ViewParams (appended to kg.outputs) and any
              input ViewParams it needs (appended to extra_inputs, which
              become kernel inputs); `outs` is passed to emit
    emit      emit(kg, pattern, outs) -> the group's lines (two-space
              indented statements of the kernel body); kg's scope, ExprGen
              (kg.eg) and helpers (enter_lambda, parallel, write, block) are
              there to use. Every value must stay exact (see exprgen.py).
    """

    def __init__(self, patterns, outputs, emit):
        self.patterns = patterns
        self.outputs = outputs
        self.emit = emit


def _reduction_group(kg, pattern, outs):
    o = outs[0]
    if pattern == "reduce":
        return reducegen.reduce_group(kg, o)
    if pattern == "scan":
        return reducegen.scan_group(kg, o)
    if pattern == "arg":
        return reducegen.arg_group(kg, o, outs[1])
    if pattern == "rowpipe":
        return reducegen.rowpipe_group(kg, o, outs[1])
    return reducegen.region_group(kg, o, outs[1], outs[2],
                                  pattern == "region_scan")


# Name -> feature; "all" enables them in this order. Append new ones.
GROUP_FEATURES = {
    "reductions": GroupFeature(REDUCTION_PATTERNS, KernelGen.reduction_outputs,
                               _reduction_group),
    "atomics": GroupFeature(["atomics", "atomics", "cas"], effectsgen.outputs,
                            effectsgen.emit),
    "histogram": GroupFeature(["histogram"], effectsgen.outputs, effectsgen.emit),
    "rng": GroupFeature(["rng"], effectsgen.outputs, effectsgen.emit),
    "buffers": GroupFeature(["buffer_private", "buffer_kernel"],
                            effectsgen.outputs, effectsgen.emit),
    "matmul": GroupFeature(["matmul"], effectsgen.outputs, effectsgen.emit),
}
# Names that stand for several features in --features.
FEATURE_ALIASES = {"effects": ["atomics", "histogram", "rng", "buffers", "matmul"]}


def parse_features(text):
    """The feature names of a --features value: "all" (every group feature),
    "basic" (none) or a comma-separated list of GROUP_FEATURES names, which
    may include "basic" (e.g. "basic,reductions")."""
    if text == "all":
        return list(GROUP_FEATURES)
    names = [n for n in text.split(",") if n and n != "basic"]
    names = [m for n in names for m in FEATURE_ALIASES.get(n, [n])]
    if "all" in names:
        return list(GROUP_FEATURES)
    for n in names:
        if n not in GROUP_FEATURES:
            raise ValueError(f"unknown feature '{n}' (known: all, basic, "
                             f"{', '.join(list(GROUP_FEATURES) + list(FEATURE_ALIASES))})")
    return [n for n in GROUP_FEATURES if n in names]
