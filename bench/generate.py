#!/usr/bin/env python3
"""Phase 1 of the Intent compiler for the benchmark kernels, nothing else.

    generate.py INTENTC OUT_DIR KERNEL.cpp...

For each kernel source, runs the plugin exactly as the driver INTENTC
(<build>/tools/intentc) runs it -- the same code: its phase1() -- writing
OUT_DIR/<name>.intent.cpp and OUT_DIR/<name>.kernels.cu. The compiler's
messages go to OUT_DIR/<name>.log. A source that fails (an unsupported
construct, say) gets OUT_DIR/<name>.failed holding the first error line,
and its partial outputs are removed, so that the GPU side skips it.
Prints one line per kernel and exits 0 even when some failed; 2 on misuse.
"""

import importlib.machinery
import importlib.util
import os
import sys


def load_intentc(path):
    """tools/intentc as a module; find_config() looks next to PATH."""
    loader = importlib.machinery.SourceFileLoader("intentc_driver", path)
    spec = importlib.util.spec_from_loader("intentc_driver", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else "phase 1 failed without a message"


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    intentc_path, out_dir, sources = argv[0], os.path.abspath(argv[1]), argv[2:]
    intentc = load_intentc(intentc_path)
    config_path, config = intentc.find_config()
    os.makedirs(out_dir, exist_ok=True)
    failed = 0
    for number, source in enumerate(sources, 1):
        name = intentc.tu_name(source)
        # Progress: phase 1 of a kernel takes seconds.
        print(f"[{number}/{len(sources)}] {name} ...", flush=True)
        log_path = os.path.join(out_dir, name + ".log")
        outputs = [os.path.join(out_dir, name + ext)
                   for ext in (".intent.cpp", ".kernels.cu", ".failed")]
        for path in outputs:
            if os.path.exists(path):
                os.remove(path)
        # A "// INTENTC-FLAGS: <flags>" line in the kernel source adds driver
        # flags (e.g. --fast-math), as for test/exec programs.
        flags = []
        with open(source) as f:
            for line in f:
                if line.startswith("// INTENTC-FLAGS:"):
                    flags = line[len("// INTENTC-FLAGS:"):].split()
                    break
        # BENCH_INTENTC_FLAGS: driver flags for every kernel (an A/B build,
        # e.g. "-Xplugin disable-pass=aggregate-atomics").
        flags += os.environ.get("BENCH_INTENTC_FLAGS", "").split()
        opts = intentc.parse(["-O3", "-v"] + flags + [source])
        driver = intentc.Driver(opts, config_path, config)
        # phase1() runs the plugin through subprocess.run; send its output
        # (and the -v command line) to the log.
        with open(log_path, "w") as log:
            saved_out, saved_err = os.dup(1), os.dup(2)
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            error = None
            try:
                driver.phase1(os.path.abspath(source), out_dir)
                for path in outputs[:2]:
                    if not os.path.isfile(path):
                        error = "phase 1 did not write " + os.path.basename(path)
            except intentc.DriverError as e:
                error = str(e)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved_out, 1)
                os.dup2(saved_err, 2)
                os.close(saved_out)
                os.close(saved_err)
        if error is None:
            print(f"generated {name}")
            continue
        failed += 1
        with open(log_path) as log:
            reason = first_error(log.read())
        # Name the source relative to its folder: the reason travels.
        reason = reason.replace(os.path.dirname(os.path.abspath(source)) + "/", "")
        for path in outputs[:2]:
            if os.path.exists(path):
                os.remove(path)
        with open(outputs[2], "w") as f:
            f.write("phase 1 (plugin) failed: " + reason + "\n")
        print(f"NOT generated {name}: {reason}")
    print(f"{len(sources) - failed} of {len(sources)} kernels generated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
