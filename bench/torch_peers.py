#!/usr/bin/env python3
"""The torch and Triton peers of the Intent benchmarks.

    torch_peers.py --csv FILE [--seed N] [--quick] [--only NAME,...]
                   [--budget-ms MS] [--min-reps N] [--max-reps N] [--slow-ms MS]

Times, with the method of the CUDA driver (bench/bench.cu):
  softmax  32768x1024, 8192x8192, 4096x32768: a Triton fused softmax (one
           program per row, the row held in registers) -- the target -- and
           torch.softmax; 8x1000000 (few long rows): torch.softmax only;
  softmax_fast, the same shapes: the Triton fused softmax (the target of
           our kernel built with --fast-math);
  layernorm, the same shapes: a Triton fused layer norm (one program per
           row; a row of up to 16384 floats in registers, longer ones read
           three times in chunks) -- the target -- and
           torch.nn.functional.layer_norm;
  argmax   2^28 f32: torch.argmax (the target);
  softmax3 64x512x1024, 12x1000x3000: torch.softmax(dim=-1) (the target);
  mv2      8192x8192, 3000x20000: torch.mv twice (the target);
  colsum   8192x8192, 65536x1000: torch.sum(dim=0) (the target);
  rmsnorm  32768x1024, 6000x3000 bf16: torch.nn.functional.rms_norm (the
           target; bf16 in and out, weight bf16);
  softmax_bf16 32768x1024, 6000x3000 bf16: torch.softmax(dim=-1) (the
           target; bf16 in and out);
  rowsum   16777216x16, 8192x8192, 2097152x100, 65536x3000, 8x4000000,
           32x1000003: torch.sum(dim=1) (the target);
  rowcumsum 2097152x32, 16384x4096, 65536x1000, 16x4194304:
           torch.cumsum(dim=-1) (the target);
  norms3   2^26x3, 30000001x3: torch.linalg.vector_norm(dim=1) (the
           target);
  transpose 8192x8192, 6000x3000: out.copy_(a.t()) into a preallocated out
           (the target);
  permute3 64x512x1024, 12x1000x3000: out.copy_(x.permute(0, 2, 1)) into a
           preallocated out (the target);
  histogram 2^28 f32 in [0, 1), 2048 bins: torch.histc (the target; the
           256 and 65536 bin rows are set against CUB in bench.cu);
  stencil  8192x8192, 6000x3000: the 5-point stencil as one
           torch.nn.functional.conv2d (3x3 cross kernel, padding=1, TF32
           off), copied into a preallocated out (the target).
Inputs are drawn fresh on the GPU from the seed, far larger than the L2.
Before every run (untimed) 256 MiB are written to evict the L2; CUDA events
bracket the one call; warm-up runs first (Triton is compiled before, on one
row); then repetitions until --budget-ms is spent (at least --min-reps, at
most --max-reps; a first run slower than --slow-ms is the one sample).
Every run's output is compared with a float64 reference (softmax within
5e-5 relative, layer_norm within 1e-4 of the terms' scale, argmax, transpose
and permute3 exactly, stencil within 1e-5 of the terms' scale);
outputs are poisoned (NaN / -1) after each check, so a stale buffer cannot
pass the next one. Appends one CSV row per variant to FILE (the columns of
bench.cu); report.py makes the table.
"""

import argparse
import csv
import math
import os
import sys

COLUMNS = ["workload", "shape", "impl", "role", "median_ms", "min_ms", "reps",
           "bytes", "check"]
SHAPES = [(32768, 1024), (8192, 8192), (4096, 32768)]


def append_row(path, row):
    fresh = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        if fresh:
            w.writerow(COLUMNS)
        w.writerow([row.get(c, "") for c in COLUMNS])


def fmt(v):
    return f"{v:.6g}"


def size_name(n):
    if n > 0 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)


class Ctx:
    def __init__(self, args, torch):
        self.args = args
        self.torch = torch
        self.dev = torch.device("cuda")
        self.scrub = torch.empty(256 << 20, dtype=torch.uint8, device=self.dev)
        self.scrub_value = 0
        self.start = torch.cuda.Event(enable_timing=True)
        self.stop = torch.cuda.Event(enable_timing=True)
        self.draws = 0
        self.ok = True

    def generator(self):
        self.draws += 1
        g = self.torch.Generator(device=self.dev)
        g.manual_seed((self.args.seed * 1000003 + self.draws) % (1 << 63))
        return g

    def uniform(self, shape, lo, hi):
        x = self.torch.rand(shape, device=self.dev, generator=self.generator())
        return x.mul_(hi - lo).add_(lo)

    def scrub_l2(self):
        self.scrub_value = (self.scrub_value + 1) & 0xFF
        self.scrub.fill_(self.scrub_value)

    def measure(self, workload, shape, impl, role, nbytes, prepare, run, verify,
                skip=None):
        """Times run() as bench.cu times a variant; appends the CSV row."""
        a = self.args
        row = {"workload": workload, "shape": shape, "impl": impl, "role": role,
               "bytes": f"{nbytes:.0f}"}
        if skip:
            row.update(reps="0", check="skipped: " + skip)
            print(f"{workload:<10} {shape:<12} {impl:<34} skipped: {skip}", flush=True)
            append_row(a.csv, row)
            return
        times, state = [], {"runs": 0, "bad": 0, "first": ""}

        def once(timed):
            prepare()
            self.scrub_l2()
            self.start.record()
            out = run()
            self.stop.record()
            self.stop.synchronize()
            ms = self.start.elapsed_time(self.stop)
            bad = verify(out)
            del out
            state["runs"] += 1
            if bad:
                state["bad"] += 1
                state["first"] = state["first"] or bad
            if timed:
                times.append(ms)
            return ms

        try:
            # As bench.cu: a first run slower than --slow-ms is the sample.
            first = once(False)
            reps = 0
            if first > a.slow_ms:
                times.append(first)
            else:
                warm = once(False)
                reps = 1
                if warm <= a.slow_ms:
                    reps = int(min(a.max_reps, a.budget_ms / max(warm, 1e-3)))
                    reps = max(reps, a.min_reps)
            for _ in range(reps):
                once(True)
            check = ("ok" if not state["bad"] else
                     f"FAIL ({state['bad']} of {state['runs']} runs): {state['first']}")
        except Exception as e:  # a failing peer is reported, not fatal
            check = f"FAIL: {type(e).__name__}: {e}".replace("\n", " ")[:300]
        if check != "ok":
            self.ok = False
        if times:
            t = sorted(times)
            k = len(t)
            med = t[k // 2] if k % 2 else 0.5 * (t[k // 2 - 1] + t[k // 2])
            row.update(median_ms=fmt(med), min_ms=fmt(t[0]), reps=str(k))
            print(f"{workload:<10} {shape:<12} {impl:<34} {med:10.4f} ms "
                  f"(min {t[0]:.4f}, n={k}) {nbytes / (med * 1e6):8.1f} GB/s  {check}",
                  flush=True)
        else:
            row.update(reps="0")
            print(f"{workload:<10} {shape:<12} {impl:<34} {check}", flush=True)
        row["check"] = check
        append_row(a.csv, row)


def describe_bad(torch, bad, got, want):
    """'' when no element of the bool mask bad is set, else a description."""
    n = int(bad.sum().item())
    if n == 0:
        return ""
    i = int(bad.flatten().nonzero()[0].item())
    g = float(got.flatten()[i].item())
    w = float(want.flatten()[i].item())
    return f"{n} of {bad.numel()} elements off; first at {i}: got {g:.9g}, want {w:.9g}"


# Triton kernels must be module-level functions whose names (tl) resolve in
# the module's globals.
try:
    import triton
    import triton.language as tl
    TRITON_ERROR = None
except Exception as e:  # no Triton: its rows say why
    triton = None
    TRITON_ERROR = f"triton not importable: {type(e).__name__}: {e}"

if triton is not None:
    # The usual fused softmax: one program per row, the row in registers.
    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                       BLOCK_SIZE: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        offs = tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(in_ptr + row * in_row_stride + offs, mask=mask,
                    other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_row_stride + offs, num / den, mask=mask)


if triton is not None:
    # A fused layer norm: one program per row; a row of at most BLOCK
    # elements is loaded once and kept in registers (mean, then the centred
    # sum of squares, then the output), a longer one is read three times in
    # BLOCK chunks (from L2).
    @triton.jit
    def layernorm_kernel(out_ptr, x_ptr, w_ptr, b_ptr, stride, n_cols, eps,
                         BLOCK: tl.constexpr, ONE_BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        x_row = x_ptr + row * stride
        o_row = out_ptr + row * stride
        if ONE_BLOCK:
            offs = tl.arange(0, BLOCK)
            mask = offs < n_cols
            x = tl.load(x_row + offs, mask=mask, other=0.0)
            mean = tl.sum(x, axis=0) / n_cols
            d = tl.where(mask, x - mean, 0.0)
            rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
            w = tl.load(w_ptr + offs, mask=mask)
            b = tl.load(b_ptr + offs, mask=mask)
            tl.store(o_row + offs, d * rstd * w + b, mask=mask)
        else:
            acc = tl.zeros([BLOCK], dtype=tl.float32)
            for off in range(0, n_cols, BLOCK):
                offs = off + tl.arange(0, BLOCK)
                acc += tl.load(x_row + offs, mask=offs < n_cols, other=0.0)
            mean = tl.sum(acc, axis=0) / n_cols
            acc = tl.zeros([BLOCK], dtype=tl.float32)
            for off in range(0, n_cols, BLOCK):
                offs = off + tl.arange(0, BLOCK)
                mask = offs < n_cols
                x = tl.load(x_row + offs, mask=mask, other=0.0)
                d = tl.where(mask, x - mean, 0.0)
                acc += d * d
            rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
            for off in range(0, n_cols, BLOCK):
                offs = off + tl.arange(0, BLOCK)
                mask = offs < n_cols
                x = tl.load(x_row + offs, mask=mask, other=0.0)
                w = tl.load(w_ptr + offs, mask=mask)
                b = tl.load(b_ptr + offs, mask=mask)
                tl.store(o_row + offs, (x - mean) * rstd * w + b, mask=mask)


def triton_layernorm(x, gamma, beta, eps, out):
    rows, cols = x.shape
    # At most 16384 f32 per program (64 KiB), the warps of Triton's layer
    # norm tutorial.
    block = min(16384, triton.next_power_of_2(cols))
    warps = min(max(block // 256, 1), 8)
    layernorm_kernel[(rows,)](out, x, gamma, beta, x.stride(0), cols, eps,
                              BLOCK=block, ONE_BLOCK=cols <= block,
                              num_warps=warps)
    return out


def triton_softmax(x, out):
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    # The warps of the Triton tutorial's fused softmax.
    warps = 4 if block < 2048 else 8 if block < 4096 else 16
    softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), cols,
                            BLOCK_SIZE=block, num_warps=warps)
    return out


def bench_softmax(ctx, rows, cols, workload="softmax"):
    """workload softmax_fast: the Triton target only, for our kernel built
    with --fast-math (Triton's own math mode)."""
    torch = ctx.torch
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    x = ctx.uniform((rows, cols), -8.0, 8.0)
    ref = torch.softmax(x.double(), dim=1)
    nbytes = 2.0 * rows * cols * 4

    def verify(out):
        bad = ~((out.double() - ref).abs() <= 5e-5 * ref.abs())
        msg = describe_bad(torch, bad, out, ref)
        out.fill_(math.nan)
        return msg

    buf = torch.empty_like(x)
    skip = TRITON_ERROR
    if not skip and cols > 65536:
        skip = "a row of more than 65536 columns is not one Triton block"
    if not skip:
        try:
            triton_softmax(x[:1], buf[:1])  # compile outside the timing
        except Exception as e:
            skip = (f"triton kernel did not compile: {type(e).__name__}: {e}"
                    .replace("\n", " ")[:300])
    ctx.measure(workload, shape, "triton fused softmax", "target", nbytes,
                lambda: buf.fill_(math.nan),
                lambda: triton_softmax(x, buf), verify, skip)
    if workload != "softmax":
        return
    ctx.measure("softmax", shape, "torch.softmax", "peer", nbytes,
                lambda: None, lambda: torch.softmax(x, dim=1), verify)


def bench_layernorm(ctx, rows, cols):
    torch = ctx.torch
    import torch.nn.functional as F
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    eps = 1e-5
    x = ctx.uniform((rows, cols), -4.0, 6.0)
    gamma = ctx.uniform((cols,), 0.5, 1.5)
    beta = ctx.uniform((cols,), -1.0, 1.0)
    xd = x.double()
    mean = xd.mean(dim=1, keepdim=True)
    rstd = 1.0 / torch.sqrt(xd.var(dim=1, correction=0, keepdim=True) + eps)
    ref = (xd - mean) * rstd * gamma.double() + beta.double()
    scale = ((xd - mean).abs() + mean.abs()) * rstd * gamma.double() + beta.double().abs()
    del xd
    nbytes = (2.0 * rows * cols + 2.0 * cols) * 4

    def verify(out):
        bad = ~((out.double() - ref).abs() <= 1e-4 * scale)
        msg = describe_bad(torch, bad, out, ref)
        out.fill_(math.nan)
        return msg

    buf = torch.empty_like(x)
    skip = TRITON_ERROR
    if not skip:
        try:
            triton_layernorm(x[:1], gamma, beta, eps, buf[:1])  # compile first
        except Exception as e:
            skip = (f"triton kernel did not compile: {type(e).__name__}: {e}"
                    .replace("\n", " ")[:300])
    ctx.measure("layernorm", shape, "triton fused layernorm", "target", nbytes,
                lambda: buf.fill_(math.nan),
                lambda: triton_layernorm(x, gamma, beta, eps, buf), verify, skip)
    ctx.measure("layernorm", shape, "torch layer_norm", "peer", nbytes,
                lambda: None, lambda: F.layer_norm(x, (cols,), gamma, beta, eps),
                verify)


def bench_argmax(ctx):
    torch = ctx.torch
    n = (1 << 22) if ctx.args.quick else (1 << 28)
    # 24-bit values: the maximum occurs several times, so "first" matters.
    x = ctx.uniform((n,), -1.0, 1.0)
    best = x.max()
    want_pos = int((x == best).nonzero()[0].item())
    want_val = float(best.item())
    pos = torch.empty((), dtype=torch.int64, device=ctx.dev)

    def verify(out):
        got = int(out.item())
        out.fill_(-1)
        if got == want_pos:
            return ""
        return f"got {got}, want {want_pos} (value {want_val:.9g})"

    ctx.measure("argmax", size_name(n), "torch.argmax", "target", n * 4.0 + 12,
                lambda: pos.fill_(-1), lambda: torch.argmax(x, out=pos), verify)


def bench_softmax3(ctx, b, r, cols):
    torch = ctx.torch
    if ctx.args.quick:
        b = max(1, b // 64)
    shape = f"{b}x{r}x{cols}"
    x = ctx.uniform((b, r, cols), -8.0, 8.0)
    ref = torch.softmax(x.double(), dim=-1)
    nbytes = 2.0 * b * r * cols * 4

    def verify(out):
        bad = ~((out.double() - ref).abs() <= 5e-5 * ref.abs())
        msg = describe_bad(torch, bad, out, ref)
        out.fill_(math.nan)
        return msg

    ctx.measure("softmax3", shape, "torch.softmax(dim=-1)", "target", nbytes,
                lambda: None, lambda: torch.softmax(x, dim=-1), verify)


def int_valued(ctx, shape, lo, hi):
    return ctx.uniform(shape, lo, hi + 1).floor_().clamp_(lo, hi)


def bench_mv2(ctx, rows, cols):
    torch = ctx.torch
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    a = int_valued(ctx, (rows, cols), -4, 4)
    b = int_valued(ctx, (rows, cols), -4, 4)
    u = int_valued(ctx, (cols,), -4, 4)
    v = int_valued(ctx, (cols,), -4, 4)
    want_p = (a.double() @ u.double())
    want_q = (b.double() @ v.double())
    nbytes = (2.0 * rows * cols + 2.0 * cols + 2.0 * rows) * 4

    def run():
        return (torch.mv(a, u), torch.mv(b, v))

    def verify(out):
        p, q = out
        bad = torch.cat([p.double() != want_p, q.double() != want_q])
        return describe_bad(torch, bad, torch.cat([p, q]),
                            torch.cat([want_p, want_q]))

    ctx.measure("mv2", shape, "torch.mv x2", "target", nbytes,
                lambda: None, run, verify)


def bench_histogram(ctx, bins):
    torch = ctx.torch
    n = (1 << 22) if ctx.args.quick else (1 << 28)
    x = ctx.uniform((n,), 0.0, 1.0)
    # Power-of-two bins: x * bins is exact, as in our kernel and CUB's.
    want = torch.bincount((x * bins).long().clamp_(0, bins - 1),
                          minlength=bins).double()
    nbytes = n * 4.0 + bins * 4.0

    def verify(out):
        return describe_bad(torch, out.double() != want, out, want)

    ctx.measure("histogram", f"2^{n.bit_length() - 1}/{bins}bins",
                "torch.histc", "target", nbytes, lambda: None,
                lambda: torch.histc(x, bins=bins, min=0.0, max=1.0), verify)


def bench_colsum(ctx, rows, cols):
    torch = ctx.torch
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    a = int_valued(ctx, (rows, cols), -8, 8)
    want = a.double().sum(dim=0)
    nbytes = (1.0 * rows * cols + cols) * 4

    def verify(out):
        return describe_bad(torch, out.double() != want, out, want)

    ctx.measure("colsum", shape, "torch.sum(dim=0)", "target", nbytes,
                lambda: None, lambda: torch.sum(a, dim=0), verify)


def bench_rmsnorm(ctx, rows, cols):
    torch = ctx.torch
    import torch.nn.functional as F
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    eps = 1e-6
    x = ctx.uniform((rows, cols), -4.0, 4.0).to(torch.bfloat16)
    w = ctx.uniform((cols,), 0.5, 1.5).to(torch.bfloat16)
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(dim=1, keepdim=True) + eps) * w.double()
    del xd
    nbytes = (2.0 * rows * cols + cols) * 2

    def verify(out):
        bad = ~((out.double() - ref).abs() <= ref.abs() / 128 + 1e-6)
        msg = describe_bad(torch, bad, out, ref)
        out.fill_(math.nan)
        return msg

    if hasattr(F, "rms_norm"):
        impl, fn = "torch rms_norm", lambda: F.rms_norm(x, (cols,), w, eps)
    else:  # torch < 2.4: the composition users wrote before
        impl = "torch rsqrt(mean(x^2)) x w"
        fn = lambda: (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)
                      * w.float()).to(torch.bfloat16)
    ctx.measure("rmsnorm", shape, impl, "target", nbytes, lambda: None, fn, verify)


def bench_softmax_bf16(ctx, rows, cols):
    torch = ctx.torch
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    x = ctx.uniform((rows, cols), -4.0, 4.0).to(torch.bfloat16)
    ref = torch.softmax(x.double(), dim=-1)
    nbytes = 2.0 * rows * cols * 2

    def verify(out):
        bad = ~((out.double() - ref).abs() <= ref.abs() / 128 + 1e-7)
        msg = describe_bad(torch, bad, out, ref)
        out.fill_(math.nan)
        return msg

    ctx.measure("softmax_bf16", shape, "torch.softmax(dim=-1)", "target", nbytes,
                lambda: None, lambda: torch.softmax(x, dim=-1), verify)


def bench_transpose(ctx, rows, cols):
    torch = ctx.torch
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    a = ctx.uniform((rows, cols), -1.0, 1.0)
    want = a.t()
    out = torch.empty((cols, rows), device=ctx.dev)
    nbytes = 2.0 * rows * cols * 4

    def verify(got):
        return describe_bad(torch, got != want, got, want)

    ctx.measure("transpose", shape, "out.copy_(a.t())", "target", nbytes,
                lambda: out.fill_(math.nan), lambda: out.copy_(a.t()), verify)


def bench_rowsum(ctx, rows, cols):
    torch = ctx.torch
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    a = int_valued(ctx, (rows, cols), -8, 8)
    want = a.double().sum(dim=1)
    nbytes = (1.0 * rows * cols + rows) * 4

    def verify(out):
        return describe_bad(torch, out.double() != want, out, want)

    ctx.measure("rowsum", shape, "torch.sum(dim=1)", "target", nbytes,
                lambda: None, lambda: torch.sum(a, dim=1), verify)


def bench_rowcumsum(ctx, rows, cols):
    torch = ctx.torch
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    a = int_valued(ctx, (rows, cols), -8, 8)
    want = a.double().cumsum(dim=-1)
    nbytes = 2.0 * rows * cols * 4

    def verify(out):
        return describe_bad(torch, out.double() != want, out, want)

    ctx.measure("rowcumsum", shape, "torch.cumsum(dim=-1)", "target", nbytes,
                lambda: None, lambda: torch.cumsum(a, dim=-1), verify)


def bench_norms3(ctx, n):
    torch = ctx.torch
    if ctx.args.quick:
        n = max(1, n // 64)
    shape = f"{n}x3"
    p = ctx.uniform((n, 3), -1.0, 1.0)
    want = p.double().square().sum(dim=1).sqrt()
    nbytes = 16.0 * n

    def verify(got):
        bad = (got.double() - want).abs() > 1e-5 * want + 1e-6
        return describe_bad(torch, bad, got, want)

    ctx.measure("norms3", shape, "torch.linalg.vector_norm(dim=1)", "target",
                nbytes, lambda: None,
                lambda: torch.linalg.vector_norm(p, dim=1), verify)


def bench_permute3(ctx, b, n, m):
    torch = ctx.torch
    if ctx.args.quick:
        b = max(1, b // 64)
    shape = f"{b}x{n}x{m}"
    x = ctx.uniform((b, n, m), -1.0, 1.0)
    want = x.permute(0, 2, 1)
    out = torch.empty((b, m, n), device=ctx.dev)
    nbytes = 2.0 * b * n * m * 4

    def verify(got):
        return describe_bad(torch, got != want, got, want)

    ctx.measure("permute3", shape, "out.copy_(x.permute(0, 2, 1))", "target",
                nbytes, lambda: out.fill_(math.nan),
                lambda: out.copy_(x.permute(0, 2, 1)), verify)


def bench_stencil(ctx, rows, cols):
    torch = ctx.torch
    import torch.nn.functional as F
    if ctx.args.quick:
        rows = max(1, rows // 64)
    shape = f"{rows}x{cols}"
    a = ctx.uniform((rows, cols), -1.0, 1.0)
    k = 0.2 * torch.tensor([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]],
                           device=ctx.dev).reshape(1, 1, 3, 3)
    # The float64 reference and the terms' scale (0.2 times the sum of their
    # magnitudes), from shifted slices of the zero-padded input.
    w = float(k[0, 0, 1, 1].item())

    def five_point(t):
        p = F.pad(t, (1, 1, 1, 1))
        return w * (p[1:-1, 1:-1] + p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2]
                    + p[1:-1, 2:])

    ref = five_point(a.double())
    scale = five_point(a.double().abs())
    nbytes = 2.0 * rows * cols * 4

    def verify(got):
        bad = ~((got.double() - ref).abs() <= 1e-5 * scale)
        return describe_bad(torch, bad, got, ref)

    def run():
        # One convolution; its output is a new tensor (conv2d has no out=;
        # the caching allocator hands back the same block every run).
        return F.conv2d(a[None, None], k, padding=1)[0, 0]

    # TF32 would round the inputs to 10 mantissa bits: the peer computes in
    # full f32, as the Intent kernel does.
    tf32 = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        ctx.measure("stencil", shape, "conv2d 3x3 cross", "target",
                    nbytes, lambda: None, run, verify)
    finally:
        torch.backends.cudnn.allow_tf32 = tf32


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--csv", required=True)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--budget-ms", type=float, default=1500)
    p.add_argument("--min-reps", type=int, default=5)
    p.add_argument("--max-reps", type=int, default=50)
    p.add_argument("--slow-ms", type=float, default=1000)
    args = p.parse_args(argv)
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")
    import torch
    if not torch.cuda.is_available():
        print("torch_peers.py: torch sees no CUDA device", file=sys.stderr)
        return 3
    ctx = Ctx(args, torch)
    print(f"# torch {torch.__version__}, {torch.cuda.get_device_name()}, seed {args.seed}"
          + ("; QUICK sizes" if args.quick else ""), flush=True)
    names = []
    for rows, cols in SHAPES:
        names.append((f"softmax-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_softmax(ctx, r, c)))
    # Few long rows (Triton's one-block-per-row kernel does not take them).
    names.append(("softmax-8x1000000", lambda: bench_softmax(ctx, 8, 1000000)))
    for rows, cols in SHAPES:
        names.append((f"softmax_fast-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_softmax(ctx, r, c,
                                                           "softmax_fast")))
    for rows, cols in SHAPES:
        names.append((f"layernorm-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_layernorm(ctx, r, c)))
    names.append(("argmax", lambda: bench_argmax(ctx)))
    for b, r, c in [(64, 512, 1024), (12, 1000, 3000)]:
        names.append((f"softmax3-{b}x{r}x{c}",
                      lambda b=b, r=r, c=c: bench_softmax3(ctx, b, r, c)))
    for rows, cols in [(8192, 8192), (3000, 20000)]:
        names.append((f"mv2-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_mv2(ctx, r, c)))
    for rows, cols in [(8192, 8192), (65536, 1000)]:
        names.append((f"colsum-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_colsum(ctx, r, c)))
    for rows, cols in [(32768, 1024), (6000, 3000)]:
        names.append((f"rmsnorm-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_rmsnorm(ctx, r, c)))
    for rows, cols in [(32768, 1024), (6000, 3000)]:
        names.append((f"softmax_bf16-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_softmax_bf16(ctx, r, c)))
    for rows, cols in [(16777216, 16), (8192, 8192), (2097152, 100),
                       (65536, 3000), (8, 4000000), (32, 1000003)]:
        names.append((f"rowsum-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_rowsum(ctx, r, c)))
    for rows, cols in [(2097152, 32), (16384, 4096), (65536, 1000),
                       (16, 4194304)]:
        names.append((f"rowcumsum-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_rowcumsum(ctx, r, c)))
    for n in [1 << 26, 30000001]:
        names.append((f"norms3-{'2^26' if n == 1 << 26 else n}",
                      lambda n=n: bench_norms3(ctx, n)))
    for rows, cols in [(8192, 8192), (6000, 3000)]:
        names.append((f"transpose-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_transpose(ctx, r, c)))
    for b, n, m in [(64, 512, 1024), (12, 1000, 3000)]:
        names.append((f"permute3-{b}x{n}x{m}",
                      lambda b=b, n=n, m=m: bench_permute3(ctx, b, n, m)))
    names.append(("histogram-2048", lambda: bench_histogram(ctx, 2048)))
    for rows, cols in [(8192, 8192), (6000, 3000)]:
        names.append((f"stencil-{rows}x{cols}",
                      lambda r=rows, c=cols: bench_stencil(ctx, r, c)))
    only = [n for n in args.only.split(",") if n]
    for name, fn in names:
        if only and name not in only:
            continue
        fn()
        torch.cuda.empty_cache()
    return 0 if ctx.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
