"""Random expressions over Intent kernel values, free of undefined behaviour.

Every generated expression carries a conservative value range (an interval)
computed from the ranges of its operands, and the generator only emits an
operation whose result provably stays in range:
  - signed integers never overflow (|v| <= 2^30 for int32_t, 2^40 for 64-bit);
  - a divisor is never 0 (`a / (b == 0 ? 1 : b)`), shifts only act on
    unsigned values with a masked amount (`u << (s & 31u)`);
  - floating-point values are multiples of 2^-fb with |v| * 2^fb small enough
    (2^22 for float, 2^40 for double) that +, -, * and any fusion of them are
    exact, so a serial run and a generated kernel must agree bit for bit;
  - unsigned arithmetic wraps (defined), and its range is not tracked.
Used by kernelgen.py; all randomness comes from the caller's random.Random.
"""

import re

# Compute types: C++ spelling.
CTYPE = {"i32": "int32_t", "i64": "int64_t", "idx": "index", "u32": "uint32_t",
         "f32": "float", "f64": "double", "bool": "bool"}
INT_TYPES = ("i32", "i64", "idx")
FLOAT_TYPES = ("f32", "f64")
# Largest magnitude a signed value may reach; for floats |v| * 2^fb.
LIMIT = {"i32": 2**30, "i64": 2**40, "idx": 2**40, "f32": 2**22, "f64": 2**40}
MAX_FBITS = 6
U32_MAX = 2**32 - 1


class Ex:
    """An expression: C++ text, compute type, value range [lo, hi] and, for
    floating point, the number of fractional bits fb (values are multiples of
    2^-fb)."""

    __slots__ = ("text", "ty", "lo", "hi", "fb")

    def __init__(self, text, ty, lo=0, hi=0, fb=0):
        self.text, self.ty, self.lo, self.hi, self.fb = text, ty, lo, hi, fb
        if ty == "u32":
            self.lo, self.hi = 0, U32_MAX
        elif ty == "bool":
            self.lo, self.hi = 0, 1

    def fits(self):
        if self.ty in INT_TYPES:
            return max(-self.lo, self.hi) <= LIMIT[self.ty]
        if self.ty in FLOAT_TYPES:
            return (self.fb <= MAX_FBITS and
                    max(-self.lo, self.hi) * 2**self.fb <= LIMIT[self.ty])
        return True


def literal(ty, v):
    """The C++ literal of value v (a Python int or a dyadic float) in ty."""
    if ty == "u32":
        return f"{v}u"
    if ty == "bool":
        return "true" if v else "false"
    if ty in FLOAT_TYPES:
        s = repr(float(v)) + ("f" if ty == "f32" else "")
        return f"({s})" if v < 0 else s
    if ty == "i32":
        return str(v) if v >= 0 else f"({v})"
    if ty == "idx":  # qualified: POSIX has a function ::index
        return f"intent::index({v})"
    return f"{CTYPE[ty]}({v})"


def const(ty, v, fb=0):
    return Ex(literal(ty, v), ty, v, v, fb)


def wrap_mod(e, m):
    """e % m for a signed integer e: |result| < m, same sign as e."""
    lo = 0 if e.lo >= 0 else max(e.lo, -(m - 1))
    hi = 0 if e.hi <= 0 else min(e.hi, m - 1)
    return Ex(f"({e.text} % {literal(e.ty, m)})", e.ty, lo, hi)


def same_tokens(a, b):
    """True when a and b consist of the same tokens (e.g. `(x ^ y)` and
    `(y ^ x)`), which GCC may prove equal."""
    def tokens(e):
        return sorted(re.findall(r"\w+|\S", e.text))
    return tokens(a) == tokens(b)


def is_literal(e):
    """A constant the C++ compiler folds: digits, casts of literals
    (`static_cast<int64_t>((-2.75f))` too: GCC folds it and then warns about
    a bitwise comparison that is always false)."""
    t = re.sub(r"static_cast<[\w:]+>|intent::index|u?int(8|16|32|64)_t", "",
               e.text)
    return re.fullmatch(r"[\s()+\-0-9.fu]*[0-9][\s()+\-0-9.fu]*", t) is not None


def maxabs(e):
    return max(-e.lo, e.hi)


def bits_for(n):
    """The k with 2^k > n >= 0."""
    k = 0
    while (1 << k) <= n:
        k += 1
    return k


class ExprGen:
    """Generates expressions of a requested type from the values in scope.

    `scope` is a callable returning the variables visible now, as Ex objects
    whose text is the variable name; `leaf_sources` returns extra leaves (input
    reads) for a type, as Ex objects.
    """

    def __init__(self, rng, scope, leaf_sources):
        self.r = rng
        self.scope = scope
        self.leaf_sources = leaf_sources

    # --- leaves ---------------------------------------------------------

    def constant(self, ty):
        r = self.r
        if ty == "u32":
            return const(ty, r.choice([0, 1, 3, 7, 255, 65535, r.randrange(2**32)]))
        if ty == "bool":
            return const(ty, r.random() < 0.5)
        if ty in FLOAT_TYPES:
            q = r.randint(-32, 32)
            return const(ty, q / 4, 2 if q % 4 else 0)
        return const(ty, r.randint(-20, 20))

    def leaf(self, ty):
        r = self.r
        options = [v for v in self.scope() if v.ty == ty]
        options += self.leaf_sources(ty)
        if options and r.random() < 0.85:
            return r.choice(options)
        if ty in ("i32", "i64", "idx", "f32", "f64") and r.random() < 0.3:
            # A converted value of another type.
            src = [v for v in self.scope() if v.ty != ty and v.ty != "bool"]
            if src:
                e = self.convert(r.choice(src), ty)
                if e is not None:
                    return e
        return self.constant(ty)

    # --- conversions ----------------------------------------------------

    def convert(self, e, ty):
        """e converted to ty without losing definedness or exactness, or None."""
        if e.ty == ty:
            return e
        c = CTYPE[ty]
        if e.ty == "bool":
            return Ex(f"static_cast<{c}>({e.text})", ty, 0, 1)
        if ty == "u32":
            if e.ty in FLOAT_TYPES:
                e = self.convert(e, "i32")
                if e is None:
                    return None
            return Ex(f"static_cast<uint32_t>({e.text})", ty)
        if e.ty == "u32":
            m = self.r.choice([256, 1024, 2003, 65536])
            return Ex(f"static_cast<{c}>({e.text} % {m}u)", ty, 0, m - 1)
        if ty in INT_TYPES:
            if e.ty in FLOAT_TYPES:
                # Truncation toward zero of an exact, small value.
                lo, hi = int(e.lo), int(e.hi)
            else:
                lo, hi = e.lo, e.hi
            out = Ex(f"static_cast<{c}>({e.text})", ty, lo, hi)
            return out if out.fits() else None
        # To floating point.
        out = Ex(f"static_cast<{c}>({e.text})", ty, e.lo, e.hi,
                 e.fb if e.ty in FLOAT_TYPES else 0)
        return out if out.fits() else None

    # --- expressions ----------------------------------------------------

    def expr(self, ty, depth):
        """A random expression of type ty with at most `depth` levels of
        operators."""
        for _ in range(8):
            if depth <= 0 or self.r.random() < 0.25:
                e = self.leaf(ty)
            elif ty == "bool":
                e = self.boolean(depth)
            elif ty == "u32":
                e = self.unsigned(depth)
            elif ty in FLOAT_TYPES:
                e = self.floating(ty, depth)
            else:
                e = self.signed(ty, depth)
            if e is not None and e.fits():
                return e
        return self.constant(ty)

    def inside(self, e):
        """A constant in e's range."""
        if e.ty in FLOAT_TYPES:
            v = float(int(self.r.uniform(e.lo, e.hi)))
            v = v if e.lo <= v <= e.hi else e.lo
            return const(e.ty, v, 0 if v == int(v) else e.fb)
        return const(e.ty, self.r.randint(e.lo, min(e.hi, e.lo + 64)))

    def boolean(self, depth):
        r = self.r
        k = r.random()
        if k < 0.6 or depth < 2:
            ty = r.choice(["i32", "i32", "idx", "u32", "f32", "f64"])
            a, b = self.expr(ty, depth - 1), self.expr(ty, depth - 1)
            if same_tokens(a, b):  # -Wtautological-compare, even for a^b, b^a
                b = self.constant(ty)
            if b.lo == b.hi and ty != "u32" and not a.lo <= b.lo <= a.hi:
                # A constant outside a's range decides the comparison (and
                # makes GCC warn -Wtype-limits): pick one inside.
                b = self.inside(a)
            elif a.lo == a.hi and ty != "u32" and not b.lo <= a.lo <= b.hi:
                a = self.inside(b)
            op = r.choice(["<", "<=", ">", ">=", "==", "!="])
            if ty == "u32" and "0u" in (a.text, b.text):
                op = r.choice(["==", "!="])  # -Wtype-limits: u < 0u
            return Ex(f"({a.text} {op} {b.text})", "bool")
        if k < 0.9:
            a, b = self.expr("bool", depth - 1), self.expr("bool", depth - 1)
            return Ex(f"({a.text} {r.choice(['&&', '||'])} {b.text})", "bool")
        return Ex(f"(!{self.expr('bool', depth - 1).text})", "bool")

    def select(self, ty, depth):
        c = self.expr("bool", depth - 1)
        a, b = self.expr(ty, depth - 1), self.expr(ty, depth - 1)
        return Ex(f"({c.text} ? {a.text} : {b.text})", ty, min(a.lo, b.lo),
                  max(a.hi, b.hi), max(a.fb, b.fb))

    def unsigned(self, depth):
        r = self.r
        a, b = self.expr("u32", depth - 1), self.expr("u32", depth - 1)
        op = r.choice(["+", "-", "*", "^", "&", "|", "<<", ">>", "/", "%",
                       "sel", "min", "conv"])
        if op in ("&", "|", "^") and (is_literal(a) or is_literal(b)):
            # GCC: "bitwise comparison always evaluates to ..."; Clang:
            # "result of '10 ^ 12' is 6; did you mean '1e12'?"
            op = "+" if is_literal(a) and is_literal(b) else "^"
        if op in ("<<", ">>"):
            return Ex(f"({a.text} {op} ({b.text} & 31u))", "u32")
        if op in ("/", "%"):
            return Ex(f"({a.text} {op} ({b.text} == 0u ? 1u : {b.text}))", "u32")
        if op == "sel":
            return self.select("u32", depth)
        if op == "min":
            return Ex(f"std::{r.choice(['min', 'max'])}({a.text}, {b.text})", "u32")
        if op == "conv":
            src = self.expr(r.choice(["i32", "idx"]), depth - 1)
            return self.convert(src, "u32")
        return Ex(f"({a.text} {op} {b.text})", "u32")

    def signed(self, ty, depth):
        r = self.r
        op = r.choice(["+", "-", "*", "*", "/", "%", "&", "|", "^", ">>", "neg",
                       "abs", "sel", "min", "max", "conv"])
        if op == "sel":
            return self.select(ty, depth)
        if op == "conv":
            src = self.expr(r.choice(["u32", "f32", "f64", "i32", "idx"]),
                            depth - 1)
            return self.convert(src, ty)
        a = self.expr(ty, depth - 1)
        if op == "neg":
            return Ex(f"(-{a.text})", ty, -a.hi, -a.lo)
        if op == "abs":
            if a.lo >= 0:
                return a
            if a.hi <= 0:
                return Ex(f"(-{a.text})", ty, -a.hi, -a.lo)
            return Ex(f"({a.text} < 0 ? -{a.text} : {a.text})", ty,
                      0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi)),
                      maxabs(a))
        if op == ">>":
            s = r.randint(0, 5)
            return Ex(f"({a.text} >> {s})", ty, a.lo >> s, a.hi >> s)
        b = self.expr(ty, depth - 1)
        if op in ("+", "-", "*") and not self._fits_arith(op, a, b):
            a, b = wrap_mod(a, 1000), wrap_mod(b, 1000)
        if op == "+":
            return Ex(f"({a.text} + {b.text})", ty, a.lo + b.lo, a.hi + b.hi)
        if op == "-":
            return Ex(f"({a.text} - {b.text})", ty, a.lo - b.hi, a.hi - b.lo)
        if op == "*":
            p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
            return Ex(f"({a.text} * {b.text})", ty, min(p), max(p))
        if op in ("/", "%"):
            zero = literal(ty, 0)
            one = literal(ty, 1)
            d = b.text if b.lo > 0 or b.hi < 0 else \
                f"({b.text} == {zero} ? {one} : {b.text})"
            bmax = max(1, maxabs(b))
            if op == "/":
                m = maxabs(a)
                lo = 0 if a.lo >= 0 and b.lo >= 0 else -m
                return Ex(f"({a.text} / {d})", ty, lo, m)
            m = min(maxabs(a), bmax - 1)
            return Ex(f"({a.text} % {d})", ty, 0 if a.lo >= 0 else -m,
                      0 if a.hi <= 0 else m)
        if op in ("min", "max"):
            f = min if op == "min" else max
            return Ex(f"std::{op}({a.text}, {b.text})", ty, f(a.lo, b.lo),
                      f(a.hi, b.hi))
        if op in ("&", "|", "^") and (is_literal(a) or is_literal(b)):
            # As in unsigned().
            if is_literal(a) and is_literal(b):
                return Ex(f"({a.text} - {b.text})", ty, a.lo - b.hi, a.hi - b.lo)
            op = "^"
        # Bitwise: two's complement results within the operands' bit width.
        if op == "&" and (a.lo >= 0 or b.lo >= 0):
            # Masking with a non-negative value gives a value in [0, it].
            hi = min(x.hi for x in (a, b) if x.lo >= 0)
            return Ex(f"({a.text} & {b.text})", ty, 0, hi)
        if a.lo >= 0 and b.lo >= 0:
            k = bits_for(max(a.hi, b.hi))
            lo, hi = 0, (1 << k) - 1
            if op == "&":
                hi = min(a.hi, b.hi)
        else:
            k = bits_for(max(maxabs(a), maxabs(b)))
            lo, hi = -(1 << k), (1 << k) - 1
        return Ex(f"({a.text} {op} {b.text})", ty, lo, hi)

    @staticmethod
    def _fits_arith(op, a, b):
        if op == "*":
            m = maxabs(a) * maxabs(b)
        else:
            m = maxabs(a) + maxabs(b)
        return m <= LIMIT[a.ty]

    def floating(self, ty, depth):
        r = self.r
        op = r.choice(["+", "-", "*", "half", "floor", "ceil", "fabs", "neg",
                       "fmin", "fmax", "sel", "conv"])
        sfx = "f" if ty == "f32" else ""
        if op == "sel":
            return self.select(ty, depth)
        if op == "conv":
            src = self.expr(r.choice(["i32", "idx", "f32", "f64"]), depth - 1)
            return self.convert(src, ty)
        a = self.expr(ty, depth - 1)
        if op == "half":
            return Ex(f"({a.text} * 0.5{sfx})", ty, a.lo / 2, a.hi / 2, a.fb + 1)
        if op in ("floor", "ceil"):
            f = (lambda v: float(int(v // 1))) if op == "floor" else \
                (lambda v: float(-int(-v // 1)))
            return Ex(f"std::{op}({a.text})", ty, f(a.lo), f(a.hi), 0)
        if op == "fabs":
            lo = 0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
            return Ex(f"std::fabs({a.text})", ty, lo, maxabs(a), a.fb)
        if op == "neg":
            return Ex(f"(-{a.text})", ty, -a.hi, -a.lo, a.fb)
        b = self.expr(ty, depth - 1)
        fb = max(a.fb, b.fb)
        if op in ("fmin", "fmax"):
            f = min if op == "fmin" else max
            return Ex(f"std::{op}({a.text}, {b.text})", ty, f(a.lo, b.lo),
                      f(a.hi, b.hi), fb)
        if op == "+":
            return Ex(f"({a.text} + {b.text})", ty, a.lo + b.lo, a.hi + b.hi, fb)
        if op == "-":
            return Ex(f"({a.text} - {b.text})", ty, a.lo - b.hi, a.hi - b.lo, fb)
        p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        return Ex(f"({a.text} * {b.text})", ty, min(p), max(p), a.fb + b.fb)

    def index_expr(self, depth):
        """A non-negative index-typed expression (for wrapped reads)."""
        e = self.expr("idx", depth)
        if e.hi <= 0:
            e = Ex(f"(-{e.text})", "idx", -e.hi, -e.lo)
        elif e.lo < 0:
            e = Ex(f"({e.text} < 0 ? -{e.text} : {e.text})", "idx", 0, maxabs(e))
        return e
