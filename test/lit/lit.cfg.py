# lit configuration for Intent's FileCheck and -verify tests.
import os
import lit.formats

config.name = "Intent"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".cpp", ".kir", ".test", ".phys"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.intent_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.intent_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])

clangxx = (getattr(config, "intent_clangxx", "")
           or os.path.join(config.llvm_tools_dir, "clang++"))
include = os.path.join(config.intent_src_root, "include")
config.substitutions.append(("%clangxx", clangxx))
config.substitutions.append(("%plugin", config.intent_plugin))
runtime_include = os.path.join(config.intent_src_root, "runtime", "include")
config.substitutions.append(("%intent_runtime_include", runtime_include))
config.substitutions.append(
    ("%intent_runtime_lib",
     os.path.join(config.intent_obj_root, "runtime", "libintent_runtime.a")))
config.substitutions.append(("%intent_include", include))
config.substitutions.append(("%intent_src_root", config.intent_src_root))
config.substitutions.append(("%intent_obj_root", config.intent_obj_root))
# Phase 1 of the compiler on one file: parse, run the plugin, produce nothing else.
config.substitutions.append(
    ("%intent_syntax",
     f"{clangxx} -std=c++17 -fsyntax-only -fplugin={config.intent_plugin} -I{include}"))
config.substitutions.append(("%intent-opt", os.path.join(config.intent_tools_dir, "intent-opt")))
# Compiles a generated .kernels.cu for Hopper (device and host code).
config.substitutions.append(
    ("%nvcc_kernels",
     f"{config.nvcc} -std=c++17 -arch=sm_90a -c -I{include} -I{runtime_include}"))
config.substitutions.append(("%nvcc", config.nvcc))
# A reduced fuzz failure (test/lit/fuzz): serial build vs Intent build, cpu mode.
config.substitutions.append(
    ("%fuzz_check",
     "bash " + os.path.join(config.intent_src_root, "test", "fuzz", "run_fuzz.sh")
     + " " + config.intent_obj_root + " --check"))
# Tests that need nvcc say `REQUIRES: nvcc`. Without nvcc they are
# Unsupported, except in CI (CI=true, as GitHub Actions and most CI systems
# set it, or INTENT_REQUIRE_NVCC=1): there a missing nvcc must not hide them,
# so they run and fail, each saying why.
def _truthy(name):
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
elif _truthy("CI") or _truthy("INTENT_REQUIRE_NVCC"):
    import shlex
    import sys
    why = (f"nvcc is required here (CI=true or INTENT_REQUIRE_NVCC=1) but "
           f"'{config.nvcc if config.nvcc and not config.nvcc.endswith('NOTFOUND') else 'nvcc'}' does not exist: install the CUDA toolkit "
           f"or configure with -DINTENT_NVCC=/path/to/nvcc")
    lit_config.warning(why)
    config.available_features.add("nvcc")
    missing = (f"{shlex.quote(sys.executable)} -c "
               f"{shlex.quote('import sys; sys.exit(' + repr('error: ' + why) + ')')}")
    config.substitutions = [(k, missing) if k in ("%nvcc_kernels", "%nvcc") else (k, v)
                            for k, v in config.substitutions]
