#!/usr/bin/env python3
"""The chart of the benchmark table: one bar per (workload, peer) pair.

    plot.py LATEST.csv OUT.png

Reads latest.csv (written by report.py) and draws ratio = peer time / Intent
time on a logarithmic axis (today's ratios span several decades), a line at
1 (parity), the target comparisons in a darker colour. Pairs without a ratio
(a skipped or timed-out side) are listed with "n/a". Needs matplotlib; runs
wherever it is installed, e.g. here on the CSV the GPU run brought back.
"""

import csv
import math
import sys


def plot(latest_csv, out_png):
    """Writes out_png; returns None, or why no chart was made."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # reported by the caller
        return f"matplotlib not importable ({type(e).__name__})"
    with open(latest_csv, newline="") as f:
        pairs = [r for r in csv.DictReader(f) if r.get("peer")]
    if not pairs:
        return "no (Intent, peer) pairs in " + latest_csv
    labels, values, colors, notes = [], [], [], []
    for p in pairs:
        labels.append(f"{p['workload']} {p['shape']}\nvs {p['peer']}")
        try:
            r = float(p["ratio"])
            ok = math.isfinite(r) and r > 0
        except ValueError:
            ok = False
        values.append(r if ok else None)
        target = p.get("target") == "1"
        colors.append("#1f4e9c" if target else "#8fb3e8")
        bad = p.get("ours_check", "") != "ok" or p.get("peer_check", "") != "ok"
        notes.append("n/a" if not ok else (f"{r:.3g}" + (" (check!)" if bad else "")))
    present = [v for v in values if v is not None]
    lo = min(present + [1.0]) / 3
    hi = max(present + [1.0]) * 3
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(pairs) + 1.6))
    ys = list(range(len(pairs)))[::-1]
    for y, v, c in zip(ys, values, colors):
        if v is not None:  # from parity to the ratio: right faster, left slower
            ax.barh(y, v - 1.0, left=1.0, color=c)
    for y, v, n in zip(ys, values, notes):
        ax.text((v if v is not None else lo) * 1.08, y, n, va="center", fontsize=8)
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlim(lo, hi * 4)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_xlabel("peer time / Intent time  (> 1: Intent faster; log scale)")
    ax.set_title("Intent vs peers (dark: the target comparison)")
    fig.tight_layout()
    fig.savefig(out_png, dpi=120)
    plt.close(fig)
    return None


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    why = plot(argv[0], argv[1])
    if why:
        print("plot.py: " + why, file=sys.stderr)
        return 1
    print("wrote " + argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
