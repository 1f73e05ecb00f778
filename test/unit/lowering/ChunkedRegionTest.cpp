//===- ChunkedRegionTest.cpp - region ops: explicit chunk flow ------------===//
//
// The physical region_scan carries the design.md §4.7 chunk flow as regions
// (summarizer = value, transition = combine, apply, emit, final) and region
// ops may be split into chunks (`chunk`). Here:
//  - one broken invariant per new [structured] check (apply and final
//    region typing and effects, `chunk` positive, only on region ops, never
//    on a reassociate = false op);
//  - the physical interpreter runs chunked programs (chunk summaries ->
//    carried incoming state -> apply -> emit, final state) and must agree
//    bit for bit with the KIR interpreter and the unchunked program, on
//    integer folds whose combines are exactly associative (wrapping plus,
//    composition of affine maps modulo 2^32), for chunk lengths 1, 2, 3 and
//    larger than any region, forward/reverse and inclusive/exclusive.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"
#include "VerifierHarness.h"

#include "Physical/Structured.h"

using namespace intent;
using namespace intent::test;
using phys::Opcode;

namespace {

const phys::Type F32 = phys::Type::scalar(kir::ScalarKind::F32);
const phys::Type I32 = phys::Type::scalar(kir::ScalarKind::I32);

//===----------------------------------------------------------------------===//
// Verifier: one broken invariant per check
//===----------------------------------------------------------------------===//

TEST(ChunkedRegionVerifier, RegionScanHasApplyAndFinalRegions) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  ASSERT_EQ(scan->regions.size(), 5u);
  scan->regions.pop_back();
  expectError(b, "[structure]", "");
}

TEST(ChunkedRegionVerifier, ApplyRegionArgumentsAreTyped) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  phys::Builder builder(*b.program);
  builder.addBlockArg(&scan->region(phys::ApplyRegion)->block, F32);
  expectError(b, "[structured]", "apply region arguments (i64, i32, i32, f32) "
                                 "do not match (i64, i32, i32)");
}

TEST(ChunkedRegionVerifier, ApplyRegionYieldsTheState) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  scan->region(phys::ApplyRegion)->block.terminator()->operands.clear();
  expectError(b, "[structured]", "apply region yields () do not match (i32)");
}

TEST(ChunkedRegionVerifier, ApplyRegionDoesNotAccessMemory) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  phys::Block &apply = scan->region(phys::ApplyRegion)->block;
  phys::Op *xLoad = &*scan->region(phys::ValueRegion)->block.ops.front();
  ASSERT_EQ(xLoad->opcode, Opcode::Load);
  phys::Op *load = insertBefore(*b.program, apply.ops.front().get(),
                                Opcode::Load,
                                {xLoad->operands[0], apply.args[0]}, {I32});
  load->access = xLoad->access;
  expectError(b, "[structured]", "the apply region accesses memory");
}

TEST(ChunkedRegionVerifier, FinalRegionTakesRegionAndState) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  phys::Builder builder(*b.program);
  builder.addBlockArg(&scan->region(phys::FinalRegion)->block, I32);
  expectError(b, "[structured]", "final region arguments (i64, i32, i32) do "
                                 "not match (i64, i32)");
}

TEST(ChunkedRegionVerifier, FinalRegionYieldsNothing) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  phys::Block &final = scan->region(phys::FinalRegion)->block;
  final.terminator()->operands.push_back(final.args[1]);
  expectError(b, "[structured]", "final region yields (i32) do not match ()");
}

TEST(ChunkedRegionVerifier, FinalRegionHasNoStores) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  // Move the emit region's store into the final region: y(r) = state.
  phys::Block &emit = scan->region(phys::OutRegion)->block;
  phys::Block &final = scan->region(phys::FinalRegion)->block;
  std::unique_ptr<phys::Op> store = std::move(emit.ops.front());
  emit.ops.erase(emit.ops.begin());
  store->operands[1] = final.args[1];
  store->operands[2] = final.args[0];
  store->parent = &final;
  final.ops.insert(final.ops.begin(), std::move(store));
  expectError(b, "[structured]", "the final region stores");
}

TEST(ChunkedRegionVerifier, ChunkIsPositive) {
  // region-teams would fold the regions in a team loop of its own.
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  findOp(*b.program, Opcode::RegionFold)->setAttr("chunk", int64_t(0));
  expectError(b, "[structured]", "`chunk` must be a positive i64");
}

TEST(ChunkedRegionVerifier, ChunkOnlyOnRegionOps) {
  Built b = buildFile("softmax.kir");
  findOp(*b.program, Opcode::Reduce)->setAttr("chunk", int64_t(4));
  expectError(b, "[structured]",
              "`chunk` applies only to region_fold and region_scan");
}

TEST(ChunkedRegionVerifier, NonReassociableFoldIsNeverChunked) {
  Built b = buildFile("segmented_scan.kir", "segscan_rev");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  ASSERT_FALSE(std::get<bool>(*scan->attr("reassociate")));
  scan->setAttr("chunk", int64_t(4));
  expectError(b, "[structured]",
              "is `reassociate = false` but split into chunks: a "
              "non-reassociable fold must remain one ordered loop");
}

TEST(ChunkedRegionVerifier, ChunkedReassociableRegionOpsVerify) {
  for (const char *file : {"segmented_scan.kir", "csr_spmv.kir"}) {
    Built b = buildFile(file, "", true, {"region-teams"});
    phys::walkMutable(*b.program->body, [](phys::Op &op) {
      if (phys::isRegionOp(op.opcode))
        op.setAttr("chunk", int64_t(3));
    });
    std::vector<std::string> errs;
    EXPECT_TRUE(phys::verifyProgram(*b.program, &b.kernel(), errs))
        << file << ": " << (errs.empty() ? "" : errs[0]);
  }
}

//===----------------------------------------------------------------------===//
// Interpreter: chunked == unchunked == KIR, bit for bit
//===----------------------------------------------------------------------===//

/// Integer region ops whose combines are exactly associative: a wrapping
/// i32 sum (fold), the composition of affine maps h -> a*h + b modulo 2^32
/// as a pair state (inclusive forward and exclusive reverse scans, the
/// emit applying the per-region incoming value h0[r]), and a region_fold of
/// the same maps storing both components.
const char *const Kernels = R"(
kernel @chunks (%0 h: view<i32, 1> w, %1 h2: view<i32, 1> w, %2 fa: view<i32, 1> w, %3 fb: view<i32, 1> w, %4 tot: view<i32, 1> w, %5 a: view<const i32, 1> r, %6 b: view<const i32, 1> r, %7 h0: view<const i32, 1> r, %8 off: view<const i64, 1> r) loc(1:1) {
  %9 = constant {value = 1} : i32
  %10 = constant {value = 0} : i32
  region_scan %8, %9, %10 {combiner = "user", reassociate = true, kind = "inclusive", direction = "forward"} {
  ^(%11: i64, %12: i64):
    %13 = load %5, %12 : i32
    %14 = load %6, %12 : i32
    yield %13, %14
  } {
  ^(%15: i32, %16: i32, %17: i32, %18: i32):
    %19 = mul %15, %17 : i32
    %20 = mul %17, %16 : i32
    %21 = add %20, %18 : i32
    yield %19, %21
  } {
  ^(%22: i64, %23: i64, %24: i32, %25: i32):
    %26 = load %7, %22 : i32
    %27 = mul %24, %26 : i32
    %28 = add %27, %25 : i32
    store %0, %28, %23
    yield
  }
  region_scan %8, %9, %10 {combiner = "user", reassociate = true, kind = "exclusive", direction = "reverse"} {
  ^(%29: i64, %30: i64):
    %31 = load %5, %30 : i32
    %32 = load %6, %30 : i32
    yield %31, %32
  } {
  ^(%33: i32, %34: i32, %35: i32, %36: i32):
    %37 = mul %33, %35 : i32
    %38 = mul %35, %34 : i32
    %39 = add %38, %36 : i32
    yield %37, %39
  } {
  ^(%40: i64, %41: i64, %42: i32, %43: i32):
    %44 = load %7, %40 : i32
    %45 = mul %42, %44 : i32
    %46 = add %45, %43 : i32
    store %1, %46, %41
    yield
  }
  region_fold %8, %9, %10 {combiner = "user", reassociate = true} {
  ^(%47: i64, %48: i64):
    %49 = load %5, %48 : i32
    %50 = load %6, %48 : i32
    yield %49, %50
  } {
  ^(%51: i32, %52: i32, %53: i32, %54: i32):
    %55 = mul %51, %53 : i32
    %56 = mul %53, %52 : i32
    %57 = add %56, %54 : i32
    yield %55, %57
  } {
  ^(%58: i64, %59: i32, %60: i32):
    store %2, %59, %58
    store %3, %60, %58
    yield
  }
  region_fold %8, %10 {combiner = "plus", reassociate = true} {
  ^(%61: i64, %62: i64):
    %63 = load %6, %62 : i32
    yield %63
  } {
  ^(%64: i32, %65: i32):
    %66 = add %64, %65 : i32
    yield %66
  } {
  ^(%67: i64, %68: i32):
    store %4, %68, %67
    yield
  }
  return
}
)";

TEST(ChunkedRegionInterp, ChunkedFlowMatchesUnchunkedBitForBit) {
  Built b = build(Kernels);
  ASSERT_TRUE(b.program);
  for (int64_t rows : {0, 1, 6, 40}) {
    std::vector<int64_t> off{0};
    std::mt19937_64 rng(rows + 11);
    for (int64_t r = 0; r < rows; ++r)
      off.push_back(off.back() + (r % 5 == 2 ? 0 : int64_t(rng() % 9)));
    int64_t n = off.back();
    auto wide = [](std::mt19937_64 &g) {
      return interp::Scalar::ofInt(kir::ScalarKind::I32,
                                   static_cast<int32_t>(g()));
    };
    std::vector<ArgSpec> specs;
    for (int64_t e : {n, n, rows, rows, rows})
      specs.push_back(ArgSpec::view(kir::ScalarKind::I32, {e}));
    for (int64_t e : {n, n, rows}) {
      specs.push_back(ArgSpec::view(kir::ScalarKind::I32, {e}));
      specs.back().gen = wide;
    }
    ArgSpec offs = ArgSpec::view(kir::ScalarKind::I64, {rows + 1});
    auto shared = std::make_shared<std::vector<int64_t>>(off);
    auto next = std::make_shared<size_t>(0);
    offs.gen = [shared, next](std::mt19937_64 &) {
      return interp::Scalar::ofInt(kir::ScalarKind::I64,
                                   (*shared)[(*next)++ % shared->size()]);
    };
    specs.push_back(offs);
    Memory init = makeMemory(specs, rows + 5);
    Memory kirMem = init;
    interp::KIRRunResult kr = interp::runKernel(b.kernel(), intent::test::bind(specs, kirMem));
    ASSERT_TRUE(kr.ok) << kr.error;
    for (int64_t chunk : {0, 1, 2, 3, 1000}) {
      phys::walkMutable(*b.program->body, [&](phys::Op &op) {
        if (!phys::isRegionOp(op.opcode))
          return;
        op.attrs.erase(std::remove_if(op.attrs.begin(), op.attrs.end(),
                                      [](const phys::NamedAttr &a) {
                                        return a.name == "chunk";
                                      }),
                       op.attrs.end());
        if (chunk)
          op.setAttr("chunk", chunk);
      });
      std::vector<std::string> errs;
      EXPECT_TRUE(phys::verifyProgram(*b.program, &b.kernel(), errs))
          << (errs.empty() ? "" : errs[0]);
      for (auto order : {interp::PhysRunOptions::Order::Forward,
                         interp::PhysRunOptions::Order::Shuffled}) {
        Memory mem = init;
        interp::PhysRunOptions opts;
        opts.order = order;
        opts.blockSize = 5;
        interp::PhysRunResult pr =
            interp::runProgram(*b.program, intent::test::bind(specs, mem), opts);
        ASSERT_TRUE(pr.ok) << pr.error;
        for (unsigned i = 0; i < 5; ++i)
          EXPECT_TRUE(mem.views[i] == kirMem.views[i])
              << "rows " << rows << ", chunk " << chunk << ": output " << i
              << " differs from the KIR interpreter";
      }
    }
  }
}

/// The chunk flow really runs the apply region: a broken apply (yielding
/// the chunk-local prefix, ignoring the incoming state) is wrong exactly
/// when a region spans more than one chunk.
TEST(ChunkedRegionInterp, ApplyRegionIsExecuted) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  phys::Block &apply = scan->region(phys::ApplyRegion)->block;
  apply.terminator()->operands[0] = apply.args[2];
  scan->setAttr("chunk", int64_t(2));
  std::vector<int64_t> off{0, 1, 5};
  std::vector<ArgSpec> specs = {ArgSpec::view(kir::ScalarKind::I32, {5}),
                                ArgSpec::view(kir::ScalarKind::I32, {5}),
                                ArgSpec::view(kir::ScalarKind::I32, {3})};
  specs[1].gen = [](std::mt19937_64 &) {
    return interp::Scalar::ofInt(kir::ScalarKind::I32, 1);
  };
  auto next = std::make_shared<size_t>(0);
  specs[2].gen = [off, next](std::mt19937_64 &) {
    return interp::Scalar::ofInt(kir::ScalarKind::I32, off[(*next)++]);
  };
  Memory mem = makeMemory(specs, 1);
  interp::PhysRunResult pr = interp::runProgram(*b.program, intent::test::bind(specs, mem));
  ASSERT_TRUE(pr.ok) << pr.error;
  // Region 1 = members 1..4 in chunks {1,2}, {3,4}: the second chunk's
  // prefixes lose the incoming 2.
  EXPECT_EQ(std::vector<int32_t>(mem.as<int32_t>(0), mem.as<int32_t>(0) + 5),
            (std::vector<int32_t>{1, 1, 2, 1, 2}));
}

} // namespace
