//===- PrintTest.cpp - The `print` op in the interpreters -----------------===//
//
// print's format checks (KIR/Print.h) and the text the KIR and physical
// interpreters print for test/lit/construction/print.kir: the same lines,
// one per instance (in any order for the parallel kernel), also when the
// physical program runs its instances shuffled.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Interpreter/Values.h"
#include "KIR/Print.h"

using namespace intent;

namespace {

std::vector<std::string> sortedLines(const std::string &text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);)
    lines.push_back(l);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(Print, SplitFormat) {
  std::vector<kir::FormatPiece> pieces;
  std::string err;
  ASSERT_TRUE(kir::splitFormat("a%%b %5.2f|%-3lld|%#hhx\n", pieces, err)) << err;
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0].text, "a%%b %5.2f");
  EXPECT_EQ(pieces[0].conv, 'f');
  EXPECT_EQ(pieces[1].length, "ll");
  EXPECT_EQ(pieces[2].length, "hh");
  EXPECT_EQ(pieces[3].conv, 0);
  EXPECT_TRUE(kir::formatArgFits(pieces[1], kir::Type::scalar(kir::ScalarKind::U64)));
  EXPECT_FALSE(kir::formatArgFits(pieces[1], kir::Type::scalar(kir::ScalarKind::I32)));
  EXPECT_TRUE(kir::formatArgFits(pieces[2], kir::Type::scalar(kir::ScalarKind::I32)));
  EXPECT_FALSE(kir::formatArgFits(pieces[0], kir::Type::scalar(kir::ScalarKind::F32)));
  EXPECT_FALSE(kir::splitFormat("%s", pieces, err));
  EXPECT_TRUE(kir::splitFormat("%-4s", pieces, err, /*allowStrings=*/true));
  EXPECT_FALSE(kir::splitFormat("%p", pieces, err));
  EXPECT_FALSE(kir::splitFormat("%.*f", pieces, err));
  EXPECT_FALSE(kir::splitFormat("%", pieces, err));
  EXPECT_FALSE(kir::splitFormat("%Lf", pieces, err));
  EXPECT_EQ(interp::formatPrint("%d|%lu|%.1f|%c%%\n",
                                {interp::Scalar::ofInt(kir::ScalarKind::I32, -3),
                                 interp::Scalar::ofInt(kir::ScalarKind::U64, 7),
                                 interp::Scalar::ofFloat(kir::ScalarKind::F64, 2.25),
                                 interp::Scalar::ofInt(kir::ScalarKind::I32, 'z')}),
            "-3|7|2.2|z%\n");
}

TEST(Print, InterpretersPrintOncePerInstance) {
  auto m = test::loadKernel("print.kir");
  ASSERT_TRUE(m);
  const kir::Kernel &k = *m->kernels[0];
  std::vector<float> x = {0.5f, -1.0f, 3.25f, 8.0f, 0.0f};
  auto args = [&] {
    return std::vector<interp::Arg>{interp::Arg::ofView(interp::View::contiguous(
        x.data(), kir::ScalarKind::F32, {static_cast<int64_t>(x.size())}))};
  };
  std::vector<std::string> want;
  for (size_t i = 0; i < x.size(); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "i=%zu x=%f \"q\"", i, x[i]);
    want.push_back(buf);
  }
  std::sort(want.begin(), want.end());

  testing::internal::CaptureStdout();
  interp::KIRRunResult kr = interp::runKernel(k, args());
  std::fflush(stdout);
  std::string kirOut = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(kr.ok) << kr.error;
  EXPECT_EQ(sortedLines(kirOut), want);

  PipelineResult r = runPipeline(k);
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  interp::PhysRunOptions opts;
  opts.order = interp::PhysRunOptions::Order::Shuffled;
  opts.seed = 7;
  testing::internal::CaptureStdout();
  interp::PhysRunResult pr = interp::runProgram(*r.program, args(), opts);
  std::fflush(stdout);
  std::string physOut = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(pr.ok) << pr.error;
  EXPECT_EQ(sortedLines(physOut), want);
}

TEST(Print, ReductionResultPrintedOnce) {
  auto m = test::loadKernel("print.kir");
  ASSERT_TRUE(m);
  ASSERT_GE(m->kernels.size(), 2u);
  const kir::Kernel &k = *m->kernels[1];
  std::vector<float> x(1000, 0.5f);
  std::vector<interp::Arg> args = {interp::Arg::ofView(interp::View::contiguous(
      x.data(), kir::ScalarKind::F32, {static_cast<int64_t>(x.size())}))};
  PipelineResult r = runPipeline(k);
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  testing::internal::CaptureStdout();
  interp::PhysRunResult pr = interp::runProgram(*r.program, args);
  std::fflush(stdout);
  std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(pr.ok) << pr.error;
  EXPECT_EQ(out, "total 500.00\n");
}

} // namespace
