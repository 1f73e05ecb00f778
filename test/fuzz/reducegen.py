"""Groups built on the structured reductions (feature set `all`).

Each function takes the KernelGen `kg` and returns the lines of one group:
  - reduce:  a parallel_for whose instance folds a row or a runtime range with
             intent::reduce (ops::plus/mul/max/min/bit_*, a user lambda, or a
             struct accumulator) and stores the result in its element;
  - scan:    a parallel_for over rows, each row an intent::scan (inclusive or
             exclusive, forward or reverse) whose emit writes element (i, k);
  - arg:     argmax/argmin per row with random tie / nan_policy constants over
             values with many ties (and quiet NaN for floating point);
  - region:  region_fold or region_scan at kernel level over a generated
             non-decreasing offsets input (empty regions included);
  - rowpipe: a parallel_for over the rows of o that reduces an expression
             V of its own input row x(i, k) and then writes W(V, acc) in a
             nested parallel_for: the same V in both lambdas (cta-rows with
             register rows, and the row-cache pass keeping V in the row).
Every value stays exact whatever the combine order: integer sums are bounded
(no overflow), unsigned products wrap, floating-point sums add multiples of
1/4 of magnitude at most 64, and max/min/bit ops are exact anyway.
"""

import re

from exprgen import CTYPE, Ex, FLOAT_TYPES, literal, wrap_mod

# kernelgen.decl_mark's parameter placeholder (kernelgen imports this module).
PARAM_MARK = "\x02"

# Accumulator types and the storage type of their outputs.
ACC_ST = {"i32": "i32", "i64": "i64", "u32": "u32", "f32": "f32", "f64": "f64"}
OPS = {"i32": ["plus", "max", "min", "bit_and", "bit_or", "bit_xor", "lambda"],
       "i64": ["plus", "max", "min", "bit_xor", "lambda", "struct"],
       "u32": ["plus", "mul", "max", "min", "bit_and", "bit_or", "bit_xor",
               "lambda"],
       "f32": ["plus", "max", "min", "lambda"],
       "f64": ["plus", "max", "min", "lambda"]}
STRUCT = ["struct Pair {", "  int64_t s;", "  int32_t m;", "};", ""]


def value_of(kg, ty, e):
    """e made a safe summary of type ty: integers wrapped to |v| < 10007,
    floating point clamped to multiples of 1/4 in [-64, 64]."""
    if ty == "u32":
        return e
    if ty in FLOAT_TYPES:
        if e.fb <= 2 and max(-e.lo, e.hi) <= 64:
            return e
        sfx = "f" if ty == "f32" else ""
        return Ex(f"std::fmin(std::fmax(std::floor({e.text}), -64.0{sfx}), "
                  f"64.0{sfx})", ty, -64, 64, 0)
    return wrap_mod(e, 10007)


# How often a value lambda is a statement body holding a loop (`for`, `while`
# or `do`, with break/continue and loop-carried values) instead of one
# expression: the shape of a k-means distance loop inside an argmin, whose
# body the cta-rows and grid-reduce emitters emit several times.
LOOP_BODY_P = 0.35


def loop_body(kg, ty, e_of, finish=None):
    """`{ return V; }`, or (LOOP_BODY_P) `{ <statements with a loop>; return
    V; }` where V reads the loop's carried values: e_of() makes the plain
    expression (in the lambda's scope, after the statements), ty its type;
    finish(safe V) -> the returned text (default: V itself). Returns (text,
    the safe V). The caller has entered the lambda's scope."""
    r = kg.r
    finish = finish or (lambda e: e.text)
    if r.random() >= LOOP_BODY_P:
        v = value_of(kg, ty, e_of())
        return f"{{ return {finish(v)}; }}", v
    before = {id(x) for x in kg.visible()}
    lines = kg.block(4, 1, 1)
    lines += kg.loop(r.choice(["for", "for", "while", "do"]), 4, 2)
    v = value_of(kg, ty, e_of())
    carries = [x for x in kg.visible() if x.carry and id(x) not in before]
    c = kg.eg.convert(r.choice(carries), ty) if carries else None
    if c is not None and ty != "u32":
        c = value_of(kg, ty, c)
        sum_ = Ex(f"{v.text} + {c.text}", ty, v.lo + c.lo, v.hi + c.hi,
                  max(v.fb, c.fb))
        v = value_of(kg, ty, sum_) if sum_.fits() else v
    elif c is not None:
        v = Ex(f"({v.text} ^ {c.text})", ty)
    text = "{\n" + "\n".join(lines) + f"\n        return {finish(v)};\n      }}"
    return text, v


def lam_k(kg, hi):
    """Declares the lambda index k in [0, hi] in a new lambda scope; returns
    (k, saved scope)."""
    saved = kg.enter_lambda()
    k = kg.fresh("k")
    kg.coords([hi + 1], [k])
    return k, saved


def summary(kg, ty, k_hi, direct=None):
    """`[&](index k) { return V; }` with a safe V of type ty."""
    k, saved = lam_k(kg, k_hi)
    use_direct = direct is not None and kg.r.random() < 0.6
    body, _ = loop_body(kg, ty,
                        lambda: direct(k) if use_direct else kg.eg.expr(ty, 2))
    text = f"[&]({decl_mark_k(k)}index {k}) {body}"
    kg.leave_lambda(saved)
    return text


def decl_mark_k(k):
    """A lambda parameter's placeholder: [[maybe_unused]] if never read."""
    return f"{PARAM_MARK}{k}{PARAM_MARK}"


def combine(kg, ty):
    """(init text, combine text) for a random op of accumulator type ty."""
    r = kg.r
    op = r.choice(OPS[ty])
    c = CTYPE[ty]
    if op == "struct":
        kg.needs_struct = True
        return op, ("Pair{int64_t(0), (-20000)}",
                    "[](Pair a, Pair b) { return Pair{a.s + b.s, "
                    "a.m < b.m ? b.m : a.m}; }")
    if op == "lambda":
        if ty in FLOAT_TYPES:
            body = r.choice(["a + b", "a < b ? b : a", "b < a ? b : a"])
        elif ty == "u32":
            body = r.choice(["a + b", "a * b", "a ^ b", "a < b ? a : b"])
        else:
            body = r.choice(["a + b", "a ^ b", "a < b ? b : a", "a | b"])
        return op, (literal(ty, 0) if "+" in body or "^" in body or "|" in body
                     else literal(ty, r.randint(-5, 5) if ty != "u32" else 1),
                     f"[]({c} a, {c} b) {{ return {body}; }}")
    if op in ("max", "min") and ty in FLOAT_TYPES and r.random() < 0.4:
        sign = "-" if op == "max" else ""
        init = f"static_cast<{c}>({sign}INFINITY)"
    elif op == "mul":
        init = literal(ty, r.choice([1, 3]))
    elif op == "bit_and":
        init = literal(ty, -1 if ty != "u32" else 2**32 - 1)
    elif ty in FLOAT_TYPES:
        init = literal(ty, r.randint(-16, 16) / 4)
    elif ty == "u32":
        init = literal(ty, r.choice([0, 1, 7]))
    else:
        init = literal(ty, r.randint(-20, 20))
    return op, (init, f"intent::ops::{op}{{}}")


def struct_summary(kg, k_hi):
    k, saved = lam_k(kg, k_hi)
    a = wrap_mod(kg.eg.expr("i64", 2), 10007)
    b = wrap_mod(kg.eg.expr("i32", 2), 10007)
    text = (f"[&]({decl_mark_k(k)}index {k}) {{ return Pair{{{a.text}, "
            f"{b.text}}}; }}")
    kg.leave_lambda(saved)
    return text


def extent_choice(kg):
    """(text, max value) of a reduction length: a view extent or a small
    bound."""
    r = kg.r
    opts = []
    for vv in kg.views:
        for d in range(len(vv.min_ext)):
            opts.append((f"{vv.text}.extent({d})", vv.max_ext[d]))
    if opts and r.random() < 0.6:
        return r.choice(opts)
    b = kg.bound_expr()
    return b.text, max(b.hi, 0)


def domain(kg, names):
    """(domain text, largest k) of a reduce/scan/arg: a length or a runtime
    range starting at a coordinate-dependent offset."""
    r = kg.r
    n, hi = extent_choice(kg)
    if r.random() < 0.35 and names:
        i = r.choice(names)
        b = r.randint(1, 4)
        start = f"{i} % {b}"
        return f"intent::range{{{start}, {start} + {n}}}", b - 1 + hi
    return n, hi


def toplevel_reduce(kg, o):
    """o(0) = reduce(...) at kernel level (a single-group kernel of it is a
    grid-reduce, whose emitter repeats the value region per vector step)."""
    ty = o.cty
    dom, hi = domain(kg, [])
    op, (init, comb) = combine(kg, ty)
    while op == "struct":
        op, (init, comb) = combine(kg, ty)
    val = summary(kg, ty, max(hi - 1, 0))
    acc = kg.fresh("acc")
    return [f"  {CTYPE[ty]} {acc} = intent::reduce({dom}, {init}, {comb},",
            f"                                 {val});",
            f"  {o.name}(0) = {acc};"]


def reduce_group(kg, o):
    """parallel_for over o; each instance stores one reduce (or, rarely, one
    kernel-level reduce into o(0))."""
    ty = o.cty
    if o.rank == 1 and o.extents[0] >= 1 and kg.r.random() < 0.15:
        return toplevel_reduce(kg, o)
    saved = kg.enter_lambda()
    ext = [f"{o.name}.extent({d})" for d in range(o.rank)]
    inner = None
    if o.rank == 2 and kg.r.random() < 0.3:
        # The reduce in a nested parallel_for, statements (loops) in both
        # bodies: (i0) { ...; (i1) { ...; reduce } }.
        names = kg.coords(o.extents[:1])
        lines = [kg.parallel("  ", ext[:1], names)] + kg.block(2, 2, 1)
        inner = kg.enter_lambda()
        names += kg.coords(o.extents[1:])
        lines += [kg.parallel("    ", ext[1:], names[1:])] + kg.block(3, 2, 2)
    else:
        names = kg.coords(o.extents)
        lines = [kg.parallel("  ", ext, names)] + kg.block(2, 3, 1)
    dom, hi = domain(kg, names)
    op, (init, comb) = combine(kg, ty)
    acc = kg.fresh("acc")
    at = f"{o.name}({', '.join(names)})"
    if op == "struct":
        val = struct_summary(kg, max(hi - 1, 0))
        lines += [f"    Pair {acc} = intent::reduce({dom}, {init}, {comb},",
                  f"                               {val});",
                  f"    {at} = {acc}.s * 3 + {acc}.m;"]
    else:
        val = summary(kg, ty, max(hi - 1, 0))
        lines += [f"    {CTYPE[ty]} {acc} = intent::reduce({dom}, {init}, {comb},",
                  f"                                   {val});",
                  f"    {at} = {acc};"]
    if inner is not None:
        kg.leave_lambda(inner)
        lines.append("    });")
    kg.leave_lambda(saved)
    return lines + ["  });"]


def toplevel_compact(kg, o):
    """Stream compaction at kernel level along row 0 of o: an exclusive
    int64 count of the members where C(k) holds, each such member writing
    V(k) at o(0, count) (scan + scatter: grid-scan's one pass). C(k) is
    V(k) > 0, written out in both lambdas as a user writes it."""
    r = kg.r
    ty = o.cty
    k, saved = lam_k(kg, max(o.extents[1] - 1, 0))
    v = value_of(kg, ty, kg.eg.expr(ty, 2))
    kg.leave_lambda(saved)
    zero = literal(ty, 0)
    p = kg.fresh("p")
    cond = f"{v.text} > {zero}"
    # The emit's member has a name of its own (mark_unused counts reads by
    # name), the same expressions over it.
    k2 = kg.fresh("k")
    cond2 = re.sub(rf"\b{k}\b", k2, cond)
    v2 = re.sub(rf"\b{k}\b", k2, v.text)
    n1 = f"{o.name}.extent(1)"
    dirn = "" if r.random() < 0.7 else ", intent::direction::reverse"
    return [f"  intent::scan({n1}, int64_t(0), intent::ops::plus{{}},",
            f"               [&]({decl_mark_k(k)}index {k}) {{ return ({cond}) ? int64_t(1) : int64_t(0); }},",
            f"               [&]({decl_mark_k(k2)}index {k2}, int64_t {p}) {{ if ({cond2}) {o.name}(0, {p}) = {v2}; }},",
            f"               intent::scan_kind::exclusive{dirn});"]


def toplevel_scan(kg, o):
    """One scan at kernel level along row 0 of o, its emit writing o(0, k)
    (a single-group kernel of it runs in one pass: grid-scan); sometimes a
    compaction (toplevel_compact)."""
    r = kg.r
    ty = o.cty
    if r.random() < 0.3:
        return toplevel_compact(kg, o)
    op, (init, comb) = combine(kg, ty)
    while op == "struct":
        op, (init, comb) = combine(kg, ty)
    n1 = f"{o.name}.extent(1)"
    dom = n1 if r.random() < 0.6 else f"intent::range{{0, {n1}}}"
    val = summary(kg, ty, max(o.extents[1] - 1, 0))
    k, p = kg.fresh("k"), kg.fresh("p")
    kind = r.choice(["inclusive", "exclusive"])
    dirn = "forward" if r.random() < 0.8 else "reverse"
    tail = ""
    if kind != "inclusive" or dirn != "forward" or r.random() < 0.5:
        tail = f", intent::scan_kind::{kind}"
        if dirn != "forward":
            tail += f", intent::direction::{dirn}"
    return [f"  intent::scan({dom}, {init}, {comb},",
            f"               {val},",
            f"               [&](index {k}, {CTYPE[ty]} {p}) {{ {o.name}(0, {k}) = {p}; }}"
            f"{tail});"]


def scan_group(kg, o):
    """parallel_for over the rows of o; each row is one scan whose emit writes
    element (i, k) (or, sometimes, one kernel-level scan along row 0)."""
    r = kg.r
    ty = o.cty
    if o.extents[0] >= 1 and r.random() < 0.25:
        return toplevel_scan(kg, o)
    saved = kg.enter_lambda()
    (i0,) = kg.coords(o.extents[:1])
    lines = [kg.parallel("  ", [f"{o.name}.extent(0)"], [i0])] + kg.block(2, 3, 1)
    op, (init, comb) = combine(kg, ty)
    while op == "struct":
        op, (init, comb) = combine(kg, ty)
    n1 = f"{o.name}.extent(1)"
    dom = n1 if r.random() < 0.6 else f"intent::range{{0, {n1}}}"
    val = summary(kg, ty, max(o.extents[1] - 1, 0))
    k, p = kg.fresh("k"), kg.fresh("p")
    kind = r.choice(["inclusive", "exclusive"])
    dirn = r.choice(["forward", "reverse"])
    tail = ""
    if kind != "inclusive" or dirn != "forward" or r.random() < 0.5:
        tail = f", intent::scan_kind::{kind}"
        if dirn != "forward" or r.random() < 0.5:
            tail += f", intent::direction::{dirn}"
    if r.random() < 0.5:
        rv = kg.fresh("orow")
        lines.append(f"    view<{o.ctype}, 1> {rv} = {o.name}.row({i0});")
        store = f"{rv}({k})"
    else:
        store = f"{o.name}({i0}, {k})"
    lines += [f"    intent::scan({dom}, {init}, {comb},",
              f"                 {val},",
              f"                 [&](index {k}, {CTYPE[ty]} {p}) {{ {store} = {p}; }}"
              f"{tail});"]
    kg.leave_lambda(saved)
    return lines + ["  });"]


def arg_group(kg, o, opos):
    """parallel_for over o; argmax/argmin of a row with ties (and NaN)."""
    r = kg.r
    ty = o.cty
    saved = kg.enter_lambda()
    (i0,) = kg.coords(o.extents[:1])
    lines = [kg.parallel("  ", [f"{o.name}.extent(0)"], [i0])] + kg.block(2, 3, 1)
    dom, hi = domain(kg, [i0])
    k, saved_k = lam_k(kg, max(hi - 1, 0))
    m = r.choice([3, 5, 17])
    nan = r.random() < 0.6

    def finish(v):
        if ty in FLOAT_TYPES:
            sfx = "f" if ty == "f32" else ""
            text = f"std::floor(({v.text}) * 0.125{sfx})"
            if nan:
                c = kg.eg.expr("bool", 2)
                text = f"{c.text} ? static_cast<{CTYPE[ty]}>(NAN) : {text}"
            return text
        if ty == "u32":
            return f"{v.text} % {m}u"
        return wrap_mod(v, m).text

    body, _ = loop_body(kg, ty, lambda: kg.eg.expr(ty, 2), finish)
    val = f"[&]({decl_mark_k(k)}index {k}) {body}"
    kg.leave_lambda(saved_k)
    fn = r.choice(["argmax", "argmin"])
    tie = r.choice(["first", "last"])
    nan = r.choice(["propagate", "ignore"])
    a = kg.fresh("best")
    lines += [f"    auto {a} = intent::{fn}({dom}, {val},",
              f"                            intent::tie::{tie}, "
              f"intent::nan_policy::{nan});",
              f"    {o.name}({i0}) = {a}.value;",
              f"    {opos.name}({i0}) = {a}.pos;"]
    kg.leave_lambda(saved)
    return lines + ["  });"]


def offsets(r):
    """A random non-decreasing offsets array (some regions empty)."""
    n = r.choice([0, 1, 2, 3, 5, 8, 13])
    cur = r.choice([0, 0, 1, 3])
    offs = [cur]
    for _ in range(n):
        cur += 0 if r.random() < 0.3 else r.randint(1, 9)
        offs.append(cur)
    return offs


def region_group(kg, o, off, data, scan):
    """region_fold (o has one element per region) or region_scan (o has one
    element per member) over off, reading data."""
    r = kg.r
    ty = o.cty
    total = off.values[-1]
    op, (init, comb) = combine(kg, ty)
    while op == "struct":
        op, (init, comb) = combine(kg, ty)

    def direct(k):
        lo, hi, fb = data.fill
        return Ex(f"{data.name}({k})", ty, lo, hi, fb)

    two = r.random() < 0.3
    if two:
        rr = kg.fresh("r")
        saved = kg.enter_lambda()
        kg.coords([len(off.values) - 1], [rr])
        k = kg.fresh("k")
        kg.coords([max(total, 1)], [k])
        v = value_of(kg, ty, direct(k) if r.random() < 0.6 else kg.eg.expr(ty, 2))
        val = (f"[&]({decl_mark_k(rr)}index {rr}, {decl_mark_k(k)}index {k}) "
               f"{{ return {v.text}; }}")
        kg.leave_lambda(saved)
    else:
        val = summary(kg, ty, max(total - 1, 0), direct)
    c = CTYPE[ty]
    if not scan:
        rr, s = kg.fresh("r"), kg.fresh("s")
        return [f"  intent::region_fold({off.name}, {init}, {comb},",
                f"                      {val},",
                f"                      [&](index {rr}, {c} {s}) {{ "
                f"{o.name}({rr}) = {s}; }});"]
    k, p, rr = kg.fresh("k"), kg.fresh("p"), kg.fresh("r")
    kind = r.choice(["inclusive", "exclusive"])
    dirn = r.choice(["forward", "reverse"])
    if r.random() < 0.4:
        adj = f"{p} ^ static_cast<{c}>({rr})" if ty == "u32" else \
            f"{p} + static_cast<{c}>({rr})"
        emit = f"[&](index {rr}, index {k}, {c} {p}) {{ {o.name}({k}) = {adj}; }}"
    else:
        emit = f"[&](index {k}, {c} {p}) {{ {o.name}({k}) = {p}; }}"
    return [f"  intent::region_scan({off.name}, {init}, {comb},",
            f"                      {val},",
            f"                      {emit},",
            f"                      intent::scan_kind::{kind}, "
            f"intent::direction::{dirn});"]


def row_value(kg, ty, load):
    """A safe expression V of the row element `load` (text) of type ty: the
    same random shape for every k, so both lambdas compute the same V."""
    r = kg.r
    c = CTYPE[ty]
    if ty in FLOAT_TYPES:
        sfx = "f" if ty == "f32" else ""
        mul = r.choice(["1.0", "2.0", "-1.0", "0.5"])
        add = r.randint(-16, 16) / 4
        shape = r.choice(["lin", "abs", "sq"])
        if shape == "lin":
            text = f"({load} * {mul}{sfx} + {add}{sfx})"
            bound = 64 * abs(float(mul)) + abs(add)
        elif shape == "abs":
            text = f"std::fabs({load} - {add}{sfx})"
            bound = 64 + abs(add)
        else:  # x * x / 64: multiples of 1/1024, clamped below
            text = f"({load} * {load} / 64.0{sfx})"
            bound = 64
        fb = 10 if shape == "sq" else 3 if mul == "0.5" else 2
        e = Ex(text, ty, -bound, bound, fb)
        return value_of(kg, ty, e)
    if ty == "u32":
        k = r.choice([3, 5, 1664525])
        return Ex(f"({load} * {k}u + {r.randint(0, 99)}u)", ty)
    k = r.randint(-7, 7)
    d = r.randint(-50, 50)
    lim = 10**6 if ty == "i64" else 1000
    e = Ex(f"({load} * {literal(ty, k)} + {literal(ty, d)})", ty,
           -lim * 7 - 50, lim * 7 + 50)
    return value_of(kg, ty, e)


def rowpipe_group(kg, o, x):
    """parallel_for over the rows of o (rank 2) reading x (its shape or
    larger): acc = reduce over the row of V(x(i, k)); then o(i, k) =
    W(V(x(i, k)), acc) for every k of the row."""
    ty = o.cty
    c = CTYPE[ty]
    saved = kg.enter_lambda()
    (i,) = kg.coords(o.extents[:1])
    lines = [kg.parallel("  ", [f"{o.name}.extent(0)"], [i])]
    op, (init, comb) = combine(kg, ty)
    if op == "struct":  # one component: keep the pattern on plain types
        op, (init, comb) = "plus", (literal(ty, 0), "intent::ops::plus{}")
    hi = max(o.extents[1] - 1, 0)
    acc = kg.fresh("acc")
    k, lam = lam_k(kg, hi)
    v = row_value(kg, ty, f"{x.name}({i}, {k})")
    lines += [f"    {c} {acc} = intent::reduce({o.name}.extent(1), {init}, {comb},",
              f"        [&]({decl_mark_k(k)}index {k}) {{ return {v.text}; }});"]
    kg.leave_lambda(lam)
    k2, lam = lam_k(kg, hi)
    v2 = v.text.replace(f"{x.name}({i}, {k})", f"{x.name}({i}, {k2})")
    if ty in FLOAT_TYPES:
        # acc: an exact sum / extremum of quarters; W stays exact.
        w = kg.r.choice([f"{v2} + {acc}", f"{v2} - {acc}", f"{acc} - {v2} * 2"])
        # max/min with an infinite init over an empty row never reach W.
    elif ty == "u32":
        w = kg.r.choice([f"{v2} + {acc}", f"{v2} ^ {acc}", f"{v2} * {acc}"])
    else:
        w = kg.r.choice([f"{v2} + {acc}", f"{v2} - {acc}", f"{v2} ^ {acc}"])
    lines.append(f"    parallel_for({o.name}.extent(1), [&]({decl_mark_k(k2)}index {k2}) {{")
    if kg.r.random() < 0.4:
        # Statements with a loop in the nested body; W also reads a value
        # they computed (|t| <= 64 or 10007: W stays exact).
        lines += kg.block(3, 1, 1) + kg.loop(kg.r.choice(["for", "while", "do"]), 3, 2)
        t = value_of(kg, ty, kg.eg.expr(ty, 2))
        w = f"({w}) {'^' if ty == 'u32' else '+'} {t.text}"
    lines += [f"      {o.name}({i}, {k2}) = static_cast<{o.ctype}>({w});",
              "    });"]
    kg.leave_lambda(lam)
    kg.leave_lambda(saved)
    return lines + ["  });"]
