"""Groups built on the compiler's effects: atomics, histogram, Philox RNG,
local buffers and matmul (features `atomics`, `histogram`, `rng`, `buffers`,
`matmul`; `effects` names all five).

Every observation is independent of the order in which instances run:
  - atomics:   atomic_add of exact values (integers wrapped to |v| < 10007 or
               unsigned wrapping; floating point multiples of 1/4 of
               magnitude <= 64, so every partial sum is exact), atomic_min /
               atomic_max, atomic_exch of one constant (the final value is that
               constant on every touched cell), CAS loops that implement a
               commutative update (max, add), all with random memory orders;
  - cas:       one atomic_cas per instance on its own cell (success flag and
               new value do not depend on other instances);
  - histogram: intent::histogram over a length or a runtime range, with bin
               indices that fall below 0 and past the last bin, the bin_of a
               lambda or a local holding one;
  - rng:       intent::philox at kernel level or per instance; g.u32(c),
               g.uniform(c) and g.normal(c) are bit-exact functions of
               (seed, stream, c), on the GPU too;
  - buffers:   intent::buffer<T, N> private to an instance or to a loop
               iteration (with or without a constant fill value), and
               kernel-level buffers written at instance-unique slots by one
               parallel_for and read (any slot) by a later one;
  - matmul:    small f32/f64 shapes (0 included), integer-valued inputs in
               [-8, 8] so every sum is exact, transposed operands, batched
               (rank 3) and per-batch calls inside a parallel_for.
The old value returned by atomic_add/exch/cas on a shared cell is never
observed: it depends on the order.
"""

import reducegen
from exprgen import CTYPE, Ex, FLOAT_TYPES, literal, wrap_mod

MARK = "\x01"
PARAM_MARK = "\x02"
ORDERS = ["relaxed", "acquire", "release", "acq_rel", "seq_cst"]
ATOMIC_ST = ["i32", "i64", "u32", "f32", "f64"]
SMALL = [0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 17]
LOWEST = {"i32": "INT32_MIN", "i64": "INT64_MIN", "u32": "0u",
          "f32": "-INFINITY", "f64": "-INFINITY"}


def _m(name, param=False):
    m = PARAM_MARK if param else MARK
    return f"{m}{name}{m}"


def _order(r):
    """`, intent::memory_order::X` or nothing (the default, relaxed)."""
    if r.random() < 0.2:
        return ""
    return f", intent::memory_order::{r.choice(ORDERS)}"


def _pfor(kg, sp, exts, names):
    params = ", ".join(f"{_m(n, True)}index {n}" for n in names)
    return f"{sp}parallel_for({', '.join(exts)}, [&]({params}) {{"


def _value(kg, ty, depth=2):
    """An exact value of type ty for an update: integers |v| < 10007,
    floating point multiples of 1/4 in [-64, 64], u32 anything."""
    return reducegen.value_of(kg, ty, kg.eg.expr(ty, depth))


def _cell(kg, o):
    """An in-bounds index into rank-1 output o (extent >= 1)."""
    from kernelgen import ViewVal
    return kg.index_for(ViewVal(o.name, o, o.extents, o.extents), 0)


def _out(kg, st, ext):
    from kernelgen import ViewParam
    o = ViewParam(f"out{len(kg.outputs)}", st, ext, True)
    kg.outputs.append(o)
    return o


def _input(kg, extra, st, ext, int_fill=None):
    from kernelgen import ViewParam
    p = ViewParam(f"ex{len(extra)}", st, ext, False)
    if int_fill is not None:
        p.int_fill = int_fill
        p.fill = (float(int_fill[0]), float(int_fill[1]), 0)
    extra.append(p)
    return p


def _cast(o, e):
    """e (of o's compute type) stored into o."""
    if o.ctype == CTYPE[o.cty]:
        return e.text
    return f"static_cast<{o.ctype}>({e.text})"


# --- outputs -------------------------------------------------------------


def outputs(kg, pat, extra):  # GroupFeature.outputs for every pattern here
    r = kg.r
    if pat == "atomics":
        dom = _input(kg, extra, r.choice(["i32", "i64", "u32", "f32", "f64"]),
                     kg.shape(r.randint(1, 2)))
        outs = [dom]
        for _ in range(r.randint(1, 3)):
            outs.append(_out(kg, r.choice(ATOMIC_ST), [r.choice(SMALL[1:])]))
        return outs
    if pat == "cas":
        o = _out(kg, r.choice(["i32", "i64", "u32"]), kg.shape(1))
        return [o, _out(kg, "i32", list(o.extents))]
    if pat == "histogram":
        dom = _input(kg, extra, r.choice(["i32", "i32", "i64", "f32"]),
                     kg.shape(1))
        return [dom, _out(kg, r.choice(ATOMIC_ST), [r.choice(SMALL)])]
    if pat == "rng":
        ext = kg.shape(r.randint(1, 2))
        return [_out(kg, "u32", ext), _out(kg, "f32", list(ext)),
                _out(kg, "u8", list(ext))]
    if pat in ("buffer_private", "buffer_kernel"):
        rank = 1 if pat == "buffer_private" else r.randint(1, 2)
        return [_out(kg, r.choice(ATOMIC_ST), kg.shape(rank, 1024))]
    assert pat == "matmul"
    st = r.choice(["f32", "f32", "f64"])
    m, n, k = (r.choice(SMALL) for _ in range(3))
    batch = [r.choice([0, 1, 2, 3])] if r.random() < 0.3 else []
    ta, tb = r.random() < 0.4, r.random() < 0.4
    c = _out(kg, st, batch + [m, n])
    a = _input(kg, extra, st, batch + ([k, m] if ta else [m, k]), (-8, 8))
    b = _input(kg, extra, st, batch + ([n, k] if tb else [k, n]), (-8, 8))
    a.transposed, b.transposed = ta, tb
    return [c, a, b]


# --- groups --------------------------------------------------------------


def emit(kg, pat, outs):  # GroupFeature.emit
    return {"atomics": atomic_group, "cas": cas_group,
            "histogram": histogram_group, "rng": rng_group,
            "buffer_private": private_buffer_group,
            "buffer_kernel": kernel_buffer_group,
            "matmul": matmul_group}[pat](kg, outs)


def atomic_group(kg, outs):
    """Instances over an input's extents update a few shared cells."""
    r = kg.r
    dom, targets = outs[0], outs[1:]
    saved = kg.enter_lambda()
    names = kg.coords(dom.extents)
    lines = [_pfor(kg, "  ", [f"{dom.name}.extent({d})"
                              for d in range(dom.rank)], names)]
    if r.random() < 0.4:
        lines += kg.block(2, 2, 1)
    for o in targets:
        ty = o.cty
        c = kg.fresh("c")
        lines.append(f"    {_m(c)}index {c} = {_cell(kg, o)};")
        kinds = ["add", "minmax", "exch", "cas_max", "cas_add"]
        kind = r.choice(kinds)
        v = kg.fresh("v")
        val = _value(kg, ty)
        lines.append(f"    {_m(v)}{CTYPE[ty]} {v} = {val.text};")
        at = f"{o.name}({c})"
        if kind == "add":
            lines.append(f"    intent::atomic_add({at}, {v}{_order(r)});")
        elif kind == "minmax":
            fn = r.choice(["atomic_min", "atomic_max"])
            lines.append(f"    intent::{fn}({at}, {v}{_order(r)});")
            if r.random() < 0.5:
                # The same op again (idempotent). Not the other one: max then
                # min of v leaves v, so the last instance would win (order-
                # dependent; found on the GPU, seed 1 program 0).
                lines.append(f"    intent::{fn}({at}, {v}{_order(r)});")
        elif kind == "exch":
            k = literal(ty, r.randint(-5, 5) if ty != "u32" else r.randint(0, 9))
            test = kg.eg.expr("bool", 2)
            from kernelgen import cond
            lines += [f"    if {cond(test)}",
                      f"      intent::atomic_exch({at}, {k}{_order(r)});"]
        elif kind == "cas_max":
            e, g = kg.fresh("e"), kg.fresh("g")
            lines += [f"    {CTYPE[ty]} {e} = {LOWEST[ty]};",
                      f"    while ({v} > {e}) {{",
                      f"      intent::cas_result<{CTYPE[ty]}> {g} = "
                      f"intent::atomic_cas({at}, {e}, {v}{_order(r)});",
                      f"      if ({g}.success)",
                      "        break;",
                      f"      {e} = {g}.old;",
                      "    }"]
        else:
            e, g = kg.fresh("e"), kg.fresh("g")
            lines += [f"    {CTYPE[ty]} {e} = {literal(ty, 0)};",
                      "    while (true) {",
                      f"      intent::cas_result<{CTYPE[ty]}> {g} = "
                      f"intent::atomic_cas({at}, {e}, static_cast<{CTYPE[ty]}>"
                      f"({e} + {v}){_order(r)});",
                      f"      if ({g}.success)",
                      "        break;",
                      f"      {e} = {g}.old;",
                      "    }"]
    kg.leave_lambda(saved)
    return lines + ["  });"]


def cas_group(kg, outs):
    """One atomic_cas per instance on its own cell; ok(i) = success."""
    r = kg.r
    o, ok = outs
    ty = o.cty
    saved = kg.enter_lambda()
    (i,) = kg.coords(o.extents)
    lines = [_pfor(kg, "  ", [f"{o.name}.extent(0)"], [i])]
    e, g = kg.fresh("e"), kg.fresh("g")
    test = kg.eg.expr("bool", 2)
    bump = literal(ty, 1)
    lines.append(f"    {CTYPE[ty]} {e} = ({test.text}) ? {o.name}({i}) : "
                 f"static_cast<{CTYPE[ty]}>({o.name}({i}) + {bump});")
    val = _value(kg, ty)
    lines.append(f"    intent::cas_result<{CTYPE[ty]}> {g} = intent::atomic_cas("
                 f"{o.name}({i}), {e}, {val.text}{_order(r)});")
    if r.random() < 0.5:
        lines.append(f"    {ok.name}({i}) = {g}.success ? 1 : 0;")
    else:
        lines.append(f"    {ok.name}({i}) = {g}.success ? 1 : "
                     f"static_cast<int32_t>({g}.old == {e});")
    kg.leave_lambda(saved)
    return lines + ["  });"]


def histogram_group(kg, outs):
    """intent::histogram at kernel level; some bins out of range."""
    r = kg.r
    dom, bins = outs
    n = dom.extents[0]
    nb = bins.extents[0]
    k, saved = reducegen.lam_k(kg, max(n - 1, 0))
    m = nb + r.randint(1, 4)
    if dom.st in ("i32", "i64") and n >= 1 and r.random() < 0.6:
        body = f"static_cast<index>({dom.name}({k})) % {m}"
        if r.random() < 0.5:
            body = f"{body} - 1"
    else:
        e = kg.eg.expr("i32", 2)
        body = f"static_cast<index>({wrap_mod(e, m).text})"
    lam = f"[&]({reducegen.decl_mark_k(k)}index {k}) {{ return {body}; }}"
    kg.leave_lambda(saved)
    if r.random() < 0.5:
        dom_text = f"{dom.name}.extent(0)"
    else:
        dom_text = (f"intent::range{{{dom.name}.extent(0) / 3, "
                    f"{dom.name}.extent(0) - {dom.name}.extent(0) / 4}}")
    if r.random() < 0.3:
        f = kg.fresh("bin_of")
        return [f"  auto {f} = {lam};",
                f"  intent::histogram({bins.name}, {dom_text}, {f});"]
    return [f"  intent::histogram({bins.name}, {dom_text}, {lam});"]


def rng_group(kg, outs):
    """Philox streams: bits, uniforms or normals and a dropout-like mask."""
    r = kg.r
    ou, of, om = outs
    seed = f"{r.randrange(2**64)}ull"
    lines = []
    g = kg.fresh("g")
    if r.random() < 0.6:
        lines.append(f"  intent::philox {g}({seed}, {r.randint(0, 5)});")
        shared = True
    else:
        shared = False
    saved = kg.enter_lambda()
    names = kg.coords(ou.extents)
    lines.append(_pfor(kg, "  ", [f"{ou.name}.extent({d})"
                                  for d in range(ou.rank)], names))
    if not shared:
        lines.append(f"    intent::philox {g}({seed}, static_cast<std::uint64_t>"
                     f"({names[0]}));")
    h = kg.fresh("h")
    lines.append(f"    intent::philox {h}({r.randrange(2**64)}ull, "
                 f"{r.randint(0, 3)});")

    def counter():
        if len(names) == 2 and r.random() < 0.6:
            return (f"static_cast<std::uint64_t>({names[0]} * "
                    f"{ou.name}.extent(1) + {names[1]})")
        if r.random() < 0.7:
            return f"static_cast<std::uint64_t>({names[-1]}) * {r.randint(1, 5)}u"
        return f"static_cast<std::uint64_t>({kg.eg.index_expr(1).text})"

    at = ", ".join(names)
    bits = f"{g}.u32({counter()})"
    if r.random() < 0.4:
        bits = f"{bits} ^ {h}.u32({counter()})"
    lines.append(f"    {ou.name}({at}) = {bits};")
    uni = f"{g}.uniform({counter()})"
    pick = r.random()
    if pick < 0.3:
        uni = f"{uni} * 0.5f + {h}.uniform({counter()}) * 0.25f"
    elif pick < 0.6:
        uni = f"{g}.normal({counter()})"
    lines.append(f"    {of.name}({at}) = {uni};")
    p = r.choice(["0.1f", "0.3f", "0.5f", "0.9f"])
    lines.append(f"    {om.name}({at}) = {h}.uniform({counter()}) >= {p};")
    kg.leave_lambda(saved)
    return lines + ["  });"]


def _acc_update(ty, acc, x):
    """acc combined with x exactly (ty's values are bounded): a sum for
    wrapping u32 and for floats of small magnitude, else bit_xor / max."""
    if ty == "u32":
        return f"{acc} = {acc} + {x};"
    if ty in FLOAT_TYPES:
        return f"{acc} = std::fmax({acc}, {x});"
    return f"{acc} = {acc} ^ {x};"


def private_buffer_group(kg, outs):
    """Each instance fills a private buffer and folds it; an optional
    iteration-private buffer (constant fill) is refilled every iteration."""
    r = kg.r
    (o,) = outs
    ty = o.cty
    c = CTYPE[ty]
    nbuf = r.choice([1, 2, 3, 4, 8, 16])
    fill = r.random() < 0.5
    saved = kg.enter_lambda()
    (i,) = kg.coords(o.extents)
    lines = [_pfor(kg, "  ", [f"{o.name}.extent(0)"], [i])]
    b, k, acc = kg.fresh("b"), kg.fresh("k"), kg.fresh("acc")
    fv = literal(ty, r.randint(0, 9))
    lines.append(f"    intent::buffer<{c}, {nbuf}> {b}{'(' + fv + ')' if fill else ''};")
    kg.frames.append([])
    kg.loop_depth += 1
    kg.coords([nbuf], [k])
    kg.frames[-1][-1].loop_depth = kg.loop_depth
    val = _value(kg, ty)
    if fill and r.random() < 0.5:
        lines += [f"    for (index {k} = 0; {k} < {b}.size(); {k} += 2)",
                  f"      {b}[{k}] = {val.text};"]
    else:
        lines += [f"    for (index {k} = 0; {k} < {b}.size(); ++{k})",
                  f"      {b}[{k}] = {val.text};"]
    kg.frames.pop()
    kg.loop_depth -= 1
    lines.append(f"    {c} {acc} = {b}[{kg.eg.index_expr(1).text} % {nbuf}];")
    k2 = kg.fresh("k")
    lines.append(f"    for (index {k2} = 0; {k2} < {nbuf}; ++{k2}) {{")
    x = f"{b}[{k2}]"
    if r.random() < 0.5:
        s = kg.fresh("s")
        lines += [f"      intent::buffer<{c}, 2> {s}({literal(ty, r.randint(0, 3))});",
                  f"      {s}[1] = {b}[{k2}];",
                  f"      {s}[0] = {s}[{k2} % 2];"]
        x = f"{s}[0]"
    lines.append(f"      {_acc_update(ty, acc, x)}")
    lines.append("    }")
    lines.append(f"    {o.name}({i}) = {acc};")
    kg.leave_lambda(saved)
    return lines + ["  });"]


def kernel_buffer_group(kg, outs):
    """A kernel-level buffer written at instance-unique slots by one
    parallel_for and read at any written slot by a later one (plus, maybe, a
    filled buffer updated per slot)."""
    r = kg.r
    (o,) = outs
    ty = o.cty
    c = CTYPE[ty]
    total = 1
    for e in o.extents:
        total *= e
    nbuf = max(total, 1) + r.choice([0, 0, 1, 7])
    st, hits = kg.fresh("stage"), kg.fresh("hits")
    fill = r.random() < 0.5
    ext = [f"{o.name}.extent({d})" for d in range(o.rank)]
    lines = [f"  intent::buffer<{c}, {nbuf}> {st};"]
    if fill:
        lines.append(f"  intent::buffer<{c}, {nbuf}> {hits}({literal(ty, r.randint(0, 5))});")

    def slot(names):
        if o.rank == 1:
            return names[0]
        return f"{names[0]} * {ext[1]} + {names[1]}"

    saved = kg.enter_lambda()
    names = kg.coords(o.extents)
    lines.append(_pfor(kg, "  ", ext, names))
    lines.append(f"    {st}[{slot(names)}] = {_value(kg, ty).text};")
    if fill:
        lines.append(f"    {hits}[{slot(names)}] += {literal(ty, r.randint(1, 3))};")
    kg.leave_lambda(saved)
    lines.append("  });")
    saved = kg.enter_lambda()
    names = kg.coords(o.extents)
    lines.append(_pfor(kg, "  ", ext, names))
    if r.random() < 0.5 and total > 0:
        prod = " * ".join(ext)
        src = f"({kg.eg.index_expr(1).text}) % ({prod})"
    else:
        src = slot(names)
    val = f"{st}[{src}]"
    if fill:
        val = f"{val} + {hits}[{slot(names)}]"
        if ty not in ("u32",) + FLOAT_TYPES:
            val = f"static_cast<{c}>({val})"
    lines.append(f"    {o.name}({', '.join(names)}) = {val};")
    kg.leave_lambda(saved)
    return lines + ["  });"]


def matmul_group(kg, outs):
    """matmul(c, a, b) with transposed operands, batched or per batch."""
    r = kg.r
    c, a, b = outs
    at = f"{a.name}.transpose()" if a.transposed else a.name
    bt = f"{b.name}.transpose()" if b.transposed else b.name
    if c.rank == 2:
        return [f"  intent::matmul({c.name}, {at}, {bt});"]
    # Rank 3: transposing a rank-3 view is not a view op; per batch instead.
    saved = kg.enter_lambda()
    (n,) = kg.coords(c.extents[:1])
    ar = f"{a.name}.row({n})" + (".transpose()" if a.transposed else "")
    br = f"{b.name}.row({n})" + (".transpose()" if b.transposed else "")
    if not a.transposed and not b.transposed and r.random() < 0.5:
        kg.leave_lambda(saved)
        return [f"  intent::matmul({c.name}, {a.name}, {b.name});"]
    lines = [_pfor(kg, "  ", [f"{c.name}.extent(0)"], [n]),
             f"    intent::matmul({c.name}.row({n}), {ar}, {br});"]
    kg.leave_lambda(saved)
    return lines + ["  });"]
