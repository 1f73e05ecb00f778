#!/usr/bin/env python3
"""Merges the benchmark rows into the comparison table.

    report.py RAW.csv [RAW2.csv ...] [--out-dir DIR] [--no-plot]

RAW files hold one row per timed variant (bench.cu and torch_peers.py write
them: workload, shape, impl, role, median_ms, min_ms, reps, bytes, check).
For every workload and shape with an Intent row (role "ours") and every
peer of it (role "target": the peer the issue sets a target against, marked
*; "peer": reported too), prints one Markdown table line:

  workload | shape | ours (ms) | peer | peer (ms) | ratio | ours GB/s |
  % of copy | check

ratio = peer time / our time (medians; > 1 means Intent is faster), only
when both checks are ok: a row whose check failed has no ratio (the table
says "n/a (check failed)"; a wrong result's time compares nothing); GB/s =
the fewest bytes the workload must move (each input read once, each output
written once) over our median; % of copy = that over the bandwidth of the
measured device-to-device cudaMemcpy (role "copy", bytes read + written).
Writes DIR/latest.csv (one line per pair, full numbers) and, when matplotlib
is importable, DIR/ratios.png (plot.py). Exit status 0 even when checks
failed: the table says so.
"""

import argparse
import csv
import math
import os
import sys

LATEST_COLUMNS = ["workload", "shape", "peer", "target", "ours_ms", "ours_min_ms",
                  "ours_reps", "peer_ms", "peer_min_ms", "peer_reps", "ratio",
                  "ours_gbps", "peer_gbps", "ours_pct_copy", "peer_pct_copy",
                  "copy_gbps", "ours_check", "peer_check"]


def number(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if not r.get("workload"):
                    continue
                r["median"] = number(r.get("median_ms"))
                r["min"] = number(r.get("min_ms"))
                r["nbytes"] = number(r.get("bytes"))
                r["check"] = (r.get("check") or "").strip()
                rows.append(r)
    return rows


def gbps(nbytes, ms):
    if nbytes is None or ms is None or ms <= 0:
        return None
    return nbytes / (ms * 1e6)


def copy_bandwidth(rows):
    """GB/s of the measured cudaMemcpy (role copy) whose check passed."""
    best = None
    for r in rows:
        if r.get("role") == "copy" and r["check"] == "ok":
            g = gbps(r["nbytes"], r["median"])
            if g is not None and (best is None or g > best):
                best = g
    return best


def checks_ok(ours, peer):
    """True when both rows' checks passed: only then is a ratio computed."""
    return ours["check"] == "ok" and peer["check"] == "ok"


def check_failed(check):
    return check.startswith("FAIL")


def ratio_cell(p):
    """The table's ratio: the number, or why there is none."""
    if p["ratio"] is None and (check_failed(p["ours_check"]) or
                               check_failed(p["peer_check"])):
        return "n/a (check failed)"
    return cell(p["ratio"], 3)


def merge(rows):
    """The (ours, peer) pairs in the order the workloads first appear."""
    copy_gbps = copy_bandwidth(rows)
    groups = {}
    for r in rows:
        groups.setdefault((r["workload"], r["shape"]), []).append(r)
    pairs = []
    for (workload, shape), members in groups.items():
        ours = [r for r in members if r.get("role") == "ours"]
        peers = [r for r in members if r.get("role") in ("target", "peer")]
        if not ours and not peers:
            continue
        o = ours[0] if ours else None
        for p in sorted(peers, key=lambda r: r.get("role") != "target") or [None]:
            om = o["median"] if o else None
            pm = p["median"] if p else None
            og = gbps(o["nbytes"], om) if o else None
            pg = gbps(p["nbytes"], pm) if p else None
            pairs.append({
                "workload": workload, "shape": shape,
                "peer": p["impl"] if p else "",
                "target": "1" if p and p.get("role") == "target" else "0",
                "ours_ms": om, "ours_min_ms": o["min"] if o else None,
                "ours_reps": o.get("reps", "") if o else "",
                "peer_ms": pm, "peer_min_ms": p["min"] if p else None,
                "peer_reps": p.get("reps", "") if p else "",
                "ratio": pm / om if om and pm and checks_ok(o, p) else None,
                "ours_gbps": og, "peer_gbps": pg,
                "ours_pct_copy": 100 * og / copy_gbps if og and copy_gbps else None,
                "peer_pct_copy": 100 * pg / copy_gbps if pg and copy_gbps else None,
                "copy_gbps": copy_gbps,
                "ours_check": o["check"] if o else "no Intent row",
                "peer_check": p["check"] if p else "no peer row",
            })
    return pairs, copy_gbps


def cell(v, digits=4):
    """v with `digits` significant digits (trailing zeros kept), '-' if None."""
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if abs(v) >= 10 ** digits:
        return f"{v:.0f}"
    text = f"{v:#.{digits}g}"
    return text[:-1] if text.endswith(".") else text


def short_check(check):
    """ok / FAIL / skipped / timeout: the first word, for the table."""
    if not check:
        return "?"
    for word in ("ok", "FAIL", "skipped", "timeout"):
        if check.startswith(word):
            return word
    return check.split(":")[0][:20]


def table(pairs, copy_gbps, rows=()):
    lines = []
    if copy_gbps:
        lines.append(f"Measured copy bandwidth (cudaMemcpy D2D, read + write): "
                     f"{copy_gbps:.0f} GB/s")
    else:
        lines.append("Measured copy bandwidth: not available (no passing copy row)")
    for r in rows:  # the reference rows: copy kernels
        if r.get("role") == "info":
            g = gbps(r["nbytes"], r["median"])
            lines.append(f"  {r['workload']} {r['shape']} {r['impl']}: "
                         f"{cell(g)} GB/s ({cell(r['median'])} ms, {r['check']})")
    lines.append("")
    lines.append("| workload | shape | ours (ms) | peer | peer (ms) | ratio | ours GB/s "
                 "| % of copy | check (ours/peer) |")
    lines.append("|---|---|---:|---|---:|---:|---:|---:|---|")
    for p in pairs:
        oc, pc = short_check(p["ours_check"]), short_check(p["peer_check"])
        ours = cell(p["ours_ms"]) if p["ours_ms"] is not None else oc
        peer = cell(p["peer_ms"]) if p["peer_ms"] is not None else pc
        name = (p["peer"] + (" *" if p["target"] == "1" else "")) if p["peer"] else "-"
        lines.append(f"| {p['workload']} | {p['shape']} | {ours} | {name} | {peer} | "
                     f"{ratio_cell(p)} | {cell(p['ours_gbps'])} | "
                     f"{cell(p['ours_pct_copy'], 3)} | {oc}/{pc} |")
    lines.append("")
    lines.append("ratio = peer time / Intent time (medians; > 1: Intent is faster). "
                 "* = the peer the target is set against.")
    notes = []
    seen = set()
    for p in pairs:
        for who, check in (("ours", p["ours_check"]), (p["peer"], p["peer_check"])):
            if check and check != "ok" and (p["workload"], p["shape"], who) not in seen:
                seen.add((p["workload"], p["shape"], who))
                notes.append(f"- {p['workload']} {p['shape']} {who or 'peer'}: {check}")
    if notes:
        lines.append("")
        lines.append("Not ok:")
        lines.extend(notes)
    return "\n".join(lines)


def write_latest(pairs, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(LATEST_COLUMNS)
        for p in pairs:
            w.writerow(["" if p[c] is None else (f"{p[c]:.6g}" if isinstance(p[c], float)
                                                 else p[c]) for c in LATEST_COLUMNS])


def main(argv):
    ap = argparse.ArgumentParser(description="Merge benchmark rows into the table.")
    ap.add_argument("raw", nargs="+")
    ap.add_argument("--out-dir", default=None)
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args(argv)
    rows = read_rows(args.raw)
    if not rows:
        print("report.py: no rows", file=sys.stderr)
        return 1
    pairs, copy_gbps = merge(rows)
    print(table(pairs, copy_gbps, rows))
    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
        latest = os.path.join(args.out_dir, "latest.csv")
        write_latest(pairs, latest)
        print(f"\nwrote {latest}")
        if not args.no_plot:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import plot
            png = os.path.join(args.out_dir, "ratios.png")
            why = plot.plot(latest, png)
            print(f"wrote {png}" if why is None else f"no chart: {why} "
                  f"(make it elsewhere: python3 plot.py {latest} ratios.png)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
