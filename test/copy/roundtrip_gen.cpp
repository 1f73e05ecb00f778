//===- test/copy/roundtrip_gen.cpp - Generates copy round-trip kernels ----===//
//
// Builds the copy ops of every round-trip case (global->shared and back,
// f32/f16/bf16/u8/i8/fp8 and more, warp/warpgroup/CTA scopes, aligned,
// unaligned, swizzled, non-factorable and fallback layouts), selects their
// variants with the copy library, and writes one .cu file whose case structs
// hold the emitted blocks; test/copy/harness.hpp runs and checks them.
//
// usage:
//   roundtrip_gen OUT.cu          all round-trip cases (sm_90a)
//   roundtrip_gen --sm100 OUT.cu  256-bit (vec_256b) cases, compile-only
//   roundtrip_gen --list          case names
//   roundtrip_gen --dump NAME     selection reports and emitted blocks of
//                                 one case (for FileCheck)
// Exits non-zero when a case's selection differs from its expectation.
//
//===----------------------------------------------------------------------===//

#include "Copy/Dispatch.h"
#include "Copy/Emit.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace intent::copy;

namespace {

struct Case {
  std::string name;
  ElemType elem;
  ExecScope scope;
  unsigned active; ///< threads [0, active) run the copy
  std::vector<int64_t> shape;
  std::vector<int64_t> gStrides;
  int64_t gBase;
  std::vector<int64_t> sStrides;
  int64_t sBase;
  std::optional<Swizzle> swizzle;
  std::string dispatch;
  /// The variant both copies must select and the vector bits (0: scalar).
  std::string expectVariant;
  unsigned expectBits;
  unsigned sm = 90;
};

const char *cppType(ElemType t) {
  switch (t) {
  case ElemType::F32: return "float";
  case ElemType::F16: return "__half";
  case ElemType::BF16: return "__nv_bfloat16";
  case ElemType::U8: return "uint8_t";
  case ElemType::I8: return "int8_t";
  case ElemType::FP8E4M3: return "__nv_fp8_e4m3";
  case ElemType::FP8E5M2: return "__nv_fp8_e5m2";
  case ElemType::F64: return "double";
  case ElemType::I16: return "int16_t";
  case ElemType::U16: return "uint16_t";
  case ElemType::I32: return "int32_t";
  case ElemType::U32: return "uint32_t";
  case ElemType::I64: return "int64_t";
  case ElemType::U64: return "uint64_t";
  }
  return "?";
}

std::vector<int64_t> rowMajor(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

/// Elements per 16 bytes: the swizzle chunk of a 16-byte-chunk swizzle.
int log2ChunkOf16B(ElemType t) {
  switch (elemBits(t)) {
  case 8: return 4;
  case 16: return 3;
  case 32: return 2;
  default: return 1;
  }
}

std::vector<Case> roundTripCases() {
  std::vector<Case> cs;
  const ElemType types[] = {ElemType::F32, ElemType::F16, ElemType::BF16,
                            ElemType::U8, ElemType::I8, ElemType::FP8E4M3};
  for (ElemType t : types) {
    std::string n = elemTypeName(t);
    // Seed 003's warp tile: 32x32, 32 threads, one 128-bit vector per access.
    cs.push_back({n + "_warp_32x32", t, ExecScope::warp(), 32, {32, 32},
                  rowMajor({32, 32}), 0, rowMajor({32, 32}), 0, std::nullopt,
                  "", "vec_auto", 128});
    // Warpgroup: a 64x64 region of a 64x80 global matrix.
    cs.push_back({n + "_warpgroup_64x64_ld80", t, ExecScope::warpgroup(), 128,
                  {64, 64}, {80, 1}, 0, rowMajor({64, 64}), 0,
                  std::nullopt, "", "vec_auto", 128});
    // CTA of 256 threads into a 16-byte-chunk swizzled tile.
    cs.push_back({n + "_cta256_swizzled", t, ExecScope::cta(256), 256,
                  {64, 64}, rowMajor({64, 64}), 0, rowMajor({64, 64}), 0,
                  Swizzle{3, log2ChunkOf16B(t), 3}, "", "vec_auto", 128});
    // Unaligned row stride (20 elements) clamps the vector.
    unsigned strideBits = elemBits(t) * 4; // 20 = 4 * 5
    if (strideBits > 128)
      strideBits = 128;
    cs.push_back({n + "_rowstride20", t, ExecScope::warp(), 32, {16, 16},
                  {20, 1}, 0, rowMajor({16, 16}), 0, std::nullopt, "",
                  "vec_auto", strideBits});
    // A region starting at column 3 clamps to scalar accesses.
    cs.push_back({n + "_col3", t, ExecScope::warp(), 32, {16, 16}, {24, 1}, 3,
                  rowMajor({16, 16}), 0, std::nullopt, "", "vec_auto",
                  elemBits(t)});
    // 48 threads over 12x20 (row stride 24): the threads axis does not
    // factor over the extents; offsets are decomposed per iteration.
    cs.push_back({n + "_cta48_decomposed", t, ExecScope::cta(48), 48, {12, 20},
                  {24, 1}, 0, rowMajor({12, 20}), 0, std::nullopt, "",
                  "vec_auto", elemBits(t)});
    // 10x10 with 32 threads does not divide: the scalar fallback.
    cs.push_back({n + "_fallback_10x10", t, ExecScope::cta(32), 32, {10, 10},
                  {16, 1}, 2, rowMajor({10, 10}), 0, std::nullopt, "",
                  "fallback", 0});
  }
  // Three dimensions that do not coalesce: nested outer loops.
  cs.push_back({"f32_3d_nested", ElemType::F32, ExecScope::warp(), 32,
                {4, 8, 32}, {400, 40, 1}, 0, rowMajor({4, 8, 32}), 0,
                std::nullopt, "", "vec_auto", 128});
  // Padded shared rows with a shared base offset.
  cs.push_back({"f16_smem_padded", ElemType::F16, ExecScope::cta(64), 64,
                {32, 32}, rowMajor({32, 32}), 0, {40, 1}, 8, std::nullopt, "",
                "vec_auto", 128});
  // A swizzle whose outer strides are not atom multiples (per-iteration XOR),
  // with a 64-bit chunk clamping f16 to 4 elements.
  cs.push_back({"f16_swizzle_chunk4_periter", ElemType::F16, ExecScope::warp(),
                32, {16, 32}, rowMajor({16, 32}), 0, rowMajor({16, 32}), 0,
                Swizzle{3, 2, 5}, "", "vec_auto", 64});
  // Doubles, and the second fp8 encoding.
  cs.push_back({"f64_warp_32x32", ElemType::F64, ExecScope::warp(), 32,
                {32, 32}, rowMajor({32, 32}), 0, rowMajor({32, 32}), 0,
                std::nullopt, "", "vec_auto", 128});
  cs.push_back({"fp8e5m2_cta128", ElemType::FP8E5M2, ExecScope::cta(128), 128,
                {32, 64}, rowMajor({32, 64}), 0, rowMajor({32, 64}), 0,
                std::nullopt, "", "vec_auto", 128});
  // Explicit fixed widths.
  cs.push_back({"f32_vec_64b", ElemType::F32, ExecScope::warp(), 32, {32, 32},
                rowMajor({32, 32}), 0, rowMajor({32, 32}), 0, std::nullopt,
                "vec_64b", "vec_64b", 64});
  cs.push_back({"u8_vec_32b_cg", ElemType::U8, ExecScope::cta(64), 64,
                {32, 32}, rowMajor({32, 32}), 0, rowMajor({32, 32}), 0,
                std::nullopt, "vec_32b", "vec_32b", 32});
  // A narrowed active set: vec_auto refuses, one thread copies.
  cs.push_back({"f32_partial_mask", ElemType::F32, ExecScope::cta(64), 40,
                {16, 16}, rowMajor({16, 16}), 0, rowMajor({16, 16}), 0,
                std::nullopt, "", "fallback", 0});
  return cs;
}

std::vector<Case> sm100Cases() {
  std::vector<Case> cs;
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::U8}) {
    Case c{std::string(elemTypeName(t)) + "_vec_256b", t, ExecScope::warp(),
           32, {32, 64}, rowMajor({32, 64}), 0, rowMajor({32, 64}), 0,
           std::nullopt, "vec_256b", "vec_256b", 256};
    c.sm = 100;
    cs.push_back(c);
  }
  return cs;
}

/// Per-block element span of the global buffer (a multiple of 64).
int64_t blockStride(const Case &c) {
  int64_t hi = c.gBase;
  for (size_t d = 0; d < c.shape.size(); ++d)
    hi += (c.shape[d] - 1) * c.gStrides[d];
  return (hi + 1 + 63) / 64 * 64;
}

/// Shared bytes: one past the largest physical element offset, rounded up.
int64_t sharedBytes(const Case &c) {
  int64_t hi = c.sBase;
  for (size_t d = 0; d < c.shape.size(); ++d)
    hi += (c.shape[d] - 1) * c.sStrides[d];
  if (c.swizzle) // a swizzle permutes within its atom
    hi = (hi / c.swizzle->atomElems() + 1) * c.swizzle->atomElems() - 1;
  return ((hi + 1) * (elemBits(c.elem) / 8) + 31) / 32 * 32;
}

/// The two copies of a case: global->shared, then shared->global.
std::pair<CopyOp, CopyOp> copiesOf(const Case &c) {
  Tile g = Tile::strided("in", MemSpace::Global, c.elem, c.shape, c.gStrides);
  g.base.constant = c.gBase;
  g.base.expr = "blk * " + std::to_string(blockStride(c));
  g.base.exprAlign = 64;
  Tile s = Tile::strided("smem", MemSpace::Shared, c.elem, c.shape,
                         c.sStrides);
  s.base.constant = c.sBase;
  s.swizzle = c.swizzle;
  CopyOp load, store;
  load.dst = s;
  load.src = g;
  load.scope = c.scope;
  load.scope.activateFirst(c.active);
  load.dispatch = c.dispatch;
  if (c.name == "u8_vec_32b_cg")
    load.cache = CacheHint::CG;
  store = load;
  store.cache = CacheHint::None;
  store.dst = g;
  store.dst.name = "out";
  store.src = s;
  return {load, store};
}

/// Selects both copies; reports and returns false on a wrong expectation.
bool select(const Case &c, Selection &load, Selection &store) {
  auto [l, s] = copiesOf(c);
  Target target = Target::cuda(c.sm);
  load = selectCopy(l, target);
  store = selectCopy(s, target);
  for (const Selection *sel : {&load, &store}) {
    bool ok = sel->ok() && sel->plan->variant == c.expectVariant &&
              (c.expectBits == 0 ? !sel->plan->isVector()
                                 : sel->plan->vecBits == c.expectBits);
    if (!ok) {
      std::cerr << "case " << c.name << ": unexpected selection (want "
                << c.expectVariant << " " << c.expectBits << "-bit)\n"
                << sel->str();
      return false;
    }
  }
  return true;
}

std::string comment(const std::string &text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    out += "// " + line + "\n";
  return out;
}

bool writeCase(std::ostream &os, const Case &c, int index) {
  Selection load, store;
  if (!select(c, load, store))
    return false;
  auto list = [](const std::vector<int64_t> &v) {
    std::string s;
    for (int64_t x : v)
      s += (s.empty() ? "" : ", ") + std::to_string(x);
    return s;
  };
  int64_t stride = blockStride(c);
  os << "\n" << comment(load.str()) << comment(store.str());
  os << "struct case_" << c.name << " {\n"
     << "  using T = " << cppType(c.elem) << ";\n"
     << "  static constexpr const char *kName = \"" << c.name << "\";\n"
     << "  static constexpr int kRank = " << c.shape.size() << ";\n"
     << "  static constexpr long long kShape[] = {" << list(c.shape) << "};\n"
     << "  static constexpr long long kGStrides[] = {" << list(c.gStrides)
     << "};\n"
     << "  static constexpr long long kSStrides[] = {" << list(c.sStrides)
     << "};\n"
     << "  static constexpr long long kGBase = " << c.gBase << ";\n"
     << "  static constexpr long long kSBase = " << c.sBase << ";\n"
     << "  static constexpr long long kGBlockStride = " << stride << ";\n"
     << "  static constexpr int kSwzBits = "
     << (c.swizzle ? c.swizzle->bits : 0)
     << ", kSwzBase = " << (c.swizzle ? c.swizzle->base : 0)
     << ", kSwzShift = " << (c.swizzle ? c.swizzle->shift : 0) << ";\n"
     << "  static constexpr int kThreads = " << c.scope.threads
     << ", kActive = " << c.active << ", kBlocks = 2;\n"
     << "  static constexpr int kSmemBytes = " << sharedBytes(c) << ";\n"
     << "  static constexpr long long kGElems = " << 2 * stride << ";\n"
     << "  static constexpr unsigned long long kSeed = " << index + 1
     << ";\n\n"
     << "  __host__ __device__ static void load(const T *in, T *smem, long "
        "long blk, long long tid) {\n"
     << "    (void)blk;\n"
     << emitCopy(*load.plan, {"smem", "in", "tid", "    "}) << "  }\n\n"
     << "  __host__ __device__ static void store(const T *smem, T *out, long "
        "long blk, long long tid) {\n"
     << "    (void)blk;\n"
     << emitCopy(*store.plan, {"out", "smem", "tid", "    "}) << "  }\n"
     << "};\n";
  return true;
}

int writeFile(const std::string &path, const std::vector<Case> &cases) {
  std::ostringstream os;
  os << "// Generated by test/copy/roundtrip_gen.cpp; do not edit.\n"
     << "#include \"harness.hpp\"\n";
  int index = 0;
  for (const Case &c : cases)
    if (!writeCase(os, c, index++))
      return 1;
  os << "\nstatic const copytest::CaseEntry kCases[] = {\n";
  for (const Case &c : cases)
    os << "    {\"" << c.name << "\", &copytest::runCase<case_" << c.name
       << ">},\n";
  os << "};\n\nint main(int argc, char **argv) {\n"
     << "  return copytest::main(argc, argv, kCases, "
     << "sizeof(kCases) / sizeof(kCases[0]));\n}\n";
  std::ofstream f(path);
  f << os.str();
  return f ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<Case> all = roundTripCases(), wide = sm100Cases();
  if (args.size() == 1 && args[0] == "--list") {
    for (const Case &c : all)
      std::cout << c.name << "\n";
    return 0;
  }
  if (args.size() == 2 && args[0] == "--dump") {
    for (const std::vector<Case> *set : {&all, &wide})
      for (const Case &c : *set) {
        if (c.name != args[1])
          continue;
        Selection load, store;
        bool ok = select(c, load, store);
        std::cout << load.str() << store.str();
        if (load.plan)
          std::cout << emitCopy(*load.plan, {"smem", "in", "tid", ""});
        if (store.plan)
          std::cout << emitCopy(*store.plan, {"out", "smem", "tid", ""});
        return ok ? 0 : 1;
      }
    std::cerr << "no case '" << args[1] << "'\n";
    return 2;
  }
  if (args.size() == 2 && args[0] == "--sm100")
    return writeFile(args[1], wide);
  if (args.size() == 1)
    return writeFile(args[0], all);
  std::cerr << "usage: roundtrip_gen [--sm100] OUT.cu | --list | --dump NAME\n";
  return 2;
}
