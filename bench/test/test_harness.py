#!/usr/bin/env python3
"""Host-side tests of the benchmark harness, with fake benchmark rows: the
merge into (Intent, peer) pairs, ratios, GB/s and % of copy bandwidth, the
table, latest.csv, the chart (when matplotlib is importable), and the rows
run-bench.sh writes for a timeout or a crash (its --skip-build mode with a
fake bench program). Run: python3 bench/test/test_harness.py
"""

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)

import plot  # noqa: E402
import report  # noqa: E402

FAKE_RAW = textwrap.dedent("""\
    workload,shape,impl,role,median_ms,min_ms,reps,bytes,check
    copy,2^28,cudaMemcpy D2D,copy,0.5,0.49,50,2147483648,ok
    copy,2^28,float4 copy kernel,info,0.55,0.54,50,2147483648,ok
    saxpy,2^28,float4 grid-stride kernel,target,0.8,0.79,50,3221225472,ok
    saxpy,2^28,intent,ours,1.6,1.5,50,3221225472,ok
    softmax,32768x1024,intent,ours,2,1.9,50,268435456,ok
    sum,2^28,cub::DeviceReduce::Sum,target,0.25,0.24,50,1073741828,ok
    sum,2^28,intent,ours,,,,1073741828,"timeout: still running after 150 s (process killed)"
    argmax,2^28,cub::DeviceReduce::ArgMax,peer,0.3,0.3,50,1073741836,ok
    argmax,2^28,intent,ours,4000,4000,1,1073741836,"FAIL (1 of 2 runs): got (0.99, 5), want (1, 7)"
    histogram,2^28/256bins,cub::DeviceHistogram::HistogramEven,peer,0.4,0.39,50,1073742848,ok
    histogram,2^28/256bins,intent,ours,,,0,1073742848,"skipped: the Intent kernel 'histogram256' was not generated or did not build: phase 1 (plugin) failed: histogram256.cpp:13:3: error: 'intent::histogram' is not supported, yet"
    """)
FAKE_TORCH = textwrap.dedent("""\
    workload,shape,impl,role,median_ms,min_ms,reps,bytes,check
    softmax,32768x1024,triton fused softmax,target,1,0.98,50,268435456,ok
    softmax,32768x1024,torch.softmax,peer,1.5,1.4,50,268435456,ok
    argmax,2^28,torch.argmax,target,0.5,0.5,50,1073741836,ok
    """)


class MergeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="bench-report-")
        self.raw = os.path.join(self.dir, "raw.csv")
        self.torch = os.path.join(self.dir, "torch.csv")
        with open(self.raw, "w") as f:
            f.write(FAKE_RAW)
        with open(self.torch, "w") as f:
            f.write(FAKE_TORCH)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def pairs(self):
        pairs, copy = report.merge(report.read_rows([self.raw, self.torch]))
        return {(p["workload"], p["shape"], p["peer"]): p for p in pairs}, pairs, copy

    def test_copy_bandwidth_is_the_memcpy_row(self):
        _, _, copy = self.pairs()
        self.assertAlmostEqual(copy, 2147483648 / 0.5e6)  # 4294.97 GB/s

    def test_ratio_gbps_and_percent_of_copy(self):
        by, _, copy = self.pairs()
        p = by[("saxpy", "2^28", "float4 grid-stride kernel")]
        self.assertAlmostEqual(p["ratio"], 0.5)
        self.assertAlmostEqual(p["ours_gbps"], 3221225472 / 1.6e6)
        self.assertAlmostEqual(p["ours_pct_copy"], 100 * (3221225472 / 1.6e6) / copy)
        self.assertAlmostEqual(p["ours_pct_copy"], 46.875)
        self.assertEqual(p["target"], "1")

    def test_peers_of_both_files_pair_with_ours_target_first(self):
        _, pairs, _ = self.pairs()
        soft = [p for p in pairs if p["workload"] == "softmax"]
        self.assertEqual([p["peer"] for p in soft], ["triton fused softmax", "torch.softmax"])
        self.assertAlmostEqual(soft[0]["ratio"], 0.5)
        self.assertAlmostEqual(soft[1]["ratio"], 0.75)
        arg = [p for p in pairs if p["workload"] == "argmax"]
        self.assertEqual([p["peer"] for p in arg], ["torch.argmax", "cub::DeviceReduce::ArgMax"])

    def test_timeout_skip_and_fail_have_no_ratio(self):
        by, _, _ = self.pairs()
        t = by[("sum", "2^28", "cub::DeviceReduce::Sum")]
        self.assertIsNone(t["ratio"])
        self.assertTrue(t["ours_check"].startswith("timeout"))
        s = by[("histogram", "2^28/256bins", "cub::DeviceHistogram::HistogramEven")]
        self.assertIsNone(s["ratio"])
        self.assertIn("not supported, yet", s["ours_check"])  # quoted comma survives
        f = by[("argmax", "2^28", "torch.argmax")]
        self.assertIsNone(f["ratio"])  # measured, but the output was wrong
        self.assertTrue(f["ours_check"].startswith("FAIL"))
        self.assertAlmostEqual(f["ours_ms"], 4000)

    def test_table_and_latest_csv(self):
        _, pairs, copy = self.pairs()
        text = report.table(pairs, copy)
        self.assertIn("Measured copy bandwidth (cudaMemcpy D2D, read + write): 4295 GB/s", text)
        self.assertIn("| saxpy | 2^28 | 1.600 | float4 grid-stride kernel * | 0.8000 | 0.500 |", text)
        self.assertIn("| sum | 2^28 | timeout | cub::DeviceReduce::Sum * | 0.2500 | - |", text)
        self.assertIn("| histogram | 2^28/256bins | skipped |", text)
        self.assertIn("timeout/ok", text)
        self.assertIn("- argmax 2^28 ours: FAIL (1 of 2 runs)", text)
        self.assertIn("| argmax | 2^28 | 4000 | torch.argmax * | 0.5000 | n/a (check failed) |",
                      text)
        text = report.table(pairs, copy, report.read_rows([self.raw]))
        self.assertIn("  copy 2^28 float4 copy kernel: 3905 GB/s (0.5500 ms, ok)", text)
        out = os.path.join(self.dir, "latest.csv")
        report.write_latest(pairs, out)
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(pairs))
        self.assertEqual(list(rows[0].keys()), report.LATEST_COLUMNS)
        saxpy = [r for r in rows if r["workload"] == "saxpy"][0]
        self.assertEqual(saxpy["ratio"], "0.5")
        self.assertEqual(saxpy["ours_pct_copy"], "46.875")

    def test_failed_peer_check_has_no_ratio(self):
        with open(self.torch, "a") as f:
            f.write('saxpy,2^28,torch saxpy,peer,0.9,0.9,50,3221225472,"FAIL (2 of 2 runs): y[3]"\n')
        by, pairs, copy = self.pairs()
        p = by[("saxpy", "2^28", "torch saxpy")]
        self.assertIsNone(p["ratio"])
        self.assertIn("| saxpy | 2^28 | 1.600 | torch saxpy | 0.9000 | n/a (check failed) |",
                      report.table(pairs, copy))
        out = os.path.join(self.dir, "latest.csv")
        report.write_latest(pairs, out)
        with open(out, newline="") as f:
            row = [r for r in csv.DictReader(f) if r["peer"] == "torch saxpy"][0]
        self.assertEqual(row["ratio"], "")
        self.assertAlmostEqual(by[("saxpy", "2^28", "float4 grid-stride kernel")]["ratio"], 0.5)

    def test_no_copy_row_leaves_percent_empty(self):
        with open(self.raw, "w") as f:
            f.write("\n".join(l for l in FAKE_RAW.splitlines() if not l.startswith("copy")))
        by, _, copy = self.pairs()
        self.assertIsNone(copy)
        self.assertIsNone(by[("saxpy", "2^28", "float4 grid-stride kernel")]["ours_pct_copy"])

    def test_main_writes_latest_and_chart(self):
        out = os.path.join(self.dir, "out")
        rc = report.main([self.raw, self.torch, "--out-dir", out])
        self.assertEqual(rc, 0)
        self.assertTrue(os.path.isfile(os.path.join(out, "latest.csv")))
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("matplotlib not installed here")
        png = os.path.join(out, "ratios.png")
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertIsNone(plot.plot(os.path.join(out, "latest.csv"), png))


FAKE_BENCH = r"""#!/usr/bin/env bash
# A stand-in for build/bench: ok, slow (killed by the timeout), crash.
if [ "$1" = --list ]; then printf 'fine\nslow\ncrash\n'; exit 0; fi
name="$2"; csv="$4"
[ -s "$csv" ] || { echo "bench (fake): run-bench.sh did not write the header" >&2; exit 9; }
echo "@@running $name,2^4,peer-impl,peer,,,,64"
echo "$name,2^4,peer-impl,peer,1,1,5,64,ok" >>"$csv"
echo "@@done"
echo "@@running $name,2^4,intent,ours,,,,64"
case "$name" in
  fine) echo "$name,2^4,intent,ours,2,2,5,64,ok" >>"$csv"; echo "@@done" ;;
  slow) sleep 30 ;;
  crash) echo "bench: an illegal memory access" >&2; exit 3 ;;
esac
"""


class RunScriptTest(unittest.TestCase):
    """run-bench.sh's own logic: one process per benchmark, the rows it adds
    for a benchmark killed by the timeout or exiting early, the report."""

    def test_timeout_and_crash_rows(self):
        d = tempfile.mkdtemp(prefix="bench-run-")
        try:
            shutil.copy(os.path.join(BENCH, "run-bench.sh"), d)
            os.makedirs(os.path.join(d, "py"))
            for f in ("report.py", "plot.py"):
                shutil.copy(os.path.join(BENCH, f), os.path.join(d, "py"))
            os.makedirs(os.path.join(d, "build"))
            fake = os.path.join(d, "build", "bench")
            with open(fake, "w") as f:
                f.write(FAKE_BENCH)
            os.chmod(fake, 0o755)
            env = dict(os.environ, PATH="/usr/local/cuda/bin:" + os.environ["PATH"])
            env.pop("OUT", None)
            r = subprocess.run(["bash", os.path.join(d, "run-bench.sh"), "--skip-build",
                                "--no-torch", "--timeout", "2", "--seed", "7"],
                               capture_output=True, text=True, env=env, timeout=120)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)  # slow and crash
            with open(os.path.join(d, "results", "raw.csv"), newline="") as f:
                rows = list(csv.DictReader(f))
            got = {(x["workload"], x["impl"]): x["check"] for x in rows}
            self.assertEqual(got[("fine", "intent")], "ok")
            self.assertTrue(got[("slow", "intent")].startswith("timeout: still running after 2 s"))
            self.assertTrue(got[("crash", "intent")].startswith("FAIL: the benchmark process exited with status 3"))
            self.assertEqual(got[("crash", "peer-impl")], "ok")
            self.assertEqual(len(rows), 6)
            self.assertNotIn("@@", r.stdout)
            self.assertIn("| fine | 2^4 | 2.000 | peer-impl | 1.000 | 0.500 |", r.stdout)
            self.assertTrue(os.path.isfile(os.path.join(d, "results", "latest.csv")))
        finally:
            shutil.rmtree(d)


if __name__ == "__main__":
    unittest.main(verbosity=2)
