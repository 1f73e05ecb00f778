//===- PhysParserTest.cpp - Physical IR parser: round trips and errors ----===//
//
// Every program the pipeline builds from the KIR files of test/lit
// (construction, passes, emit), with and without the physical passes,
// prints, parses back and prints identically; the parsed program verifies
// on its own and emits the same CUDA. Running the default passes on a parsed
// constructed program gives what the pipeline gives. Bad input is an error
// at a line and column, never a crash.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Emit/CudaEmitter.h"
#include "Physical/Parser.h"
#include "Physical/Verifier.h"

#include <filesystem>

using namespace intent;
using namespace intent::test;

namespace {

/// The .kir files of the lit directories the pipeline tests use.
std::vector<std::string> kirFiles() {
  std::vector<std::string> out;
  for (const char *dir : {"construction", "passes", "emit"}) {
    std::filesystem::path d = litFile(dir, "");
    for (const auto &e : std::filesystem::directory_iterator(d))
      if (e.path().extension() == ".kir")
        out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// Op ids are not printed: the parser numbers ops in pre-order. The
/// emitter names some locals by op id, so the original is renumbered the
/// same way before the two are compared.
void renumberOps(phys::Program &p) {
  p.nextOpId = 0;
  phys::walkMutable(*p.body, [&](phys::Op &op) { op.id = p.nextOpId++; });
}

std::string cuda(const phys::Program &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  emit::EmitOptions eo;
  eo.sourceFile = "test.cpp";
  eo.outputFile = "kernels.cu";
  emit::emitKernelsFile(os, {&p}, eo);
  return s;
}

std::unique_ptr<phys::Program> parseOne(const std::string &text,
                                        const std::string &what) {
  std::vector<std::unique_ptr<phys::Program>> ps;
  std::string err;
  EXPECT_TRUE(phys::parsePrograms(text, what, ps, err)) << err;
  EXPECT_EQ(ps.size(), 1u) << what;
  return ps.size() == 1 ? std::move(ps[0]) : nullptr;
}

TEST(PhysParser, RoundTripsEveryPipelineProgram) {
  unsigned programs = 0;
  for (const std::string &file : kirFiles()) {
    std::string err;
    auto m = kir::parseModule(readFile(file), file, err);
    ASSERT_TRUE(m) << err;
    for (const auto &k : m->kernels)
      for (bool physical : {true, false}) {
        PipelineOptions opts;
        opts.physicalPasses = physical;
        PipelineResult r = runPipeline(*k, opts);
        if (!r.ok())
          continue; // a kernel the tests expect to be rejected
        std::string what = file + " @" + k->name +
                           (physical ? "" : " (no physical passes)");
        std::string text = phys::programToString(*r.program);
        std::unique_ptr<phys::Program> p = parseOne(text, what);
        if (!p)
          continue;
        EXPECT_EQ(phys::programToString(*p), text) << what;
        std::vector<std::string> errs;
        EXPECT_TRUE(phys::verifyProgram(*p, nullptr, errs))
            << what << ": " << (errs.empty() ? "" : errs[0]);
        renumberOps(*r.program);
        // The serial twin and the launch-time alternative are not part of
        // the text (Program::serialTwin, Program::alternative).
        p->serialTwin = r.program->serialTwin;
        p->alternative = r.program->alternative;
        p->alternativeWhen = r.program->alternativeWhen;
        p->alternativeKind = r.program->alternativeKind;
        EXPECT_EQ(cuda(*p), cuda(*r.program)) << what;
        ++programs;
      }
  }
  EXPECT_GT(programs, 60u);
}

TEST(PhysParser, DefaultPassesOnParsedProgramsMatchThePipeline) {
  for (const std::string &file : kirFiles()) {
    std::string err;
    auto m = kir::parseModule(readFile(file), file, err);
    ASSERT_TRUE(m) << err;
    for (const auto &k : m->kernels) {
      PipelineResult full = runPipeline(*k);
      PipelineOptions constructed;
      constructed.physicalPasses = false;
      constructed.passes = std::vector<std::string>();
      PipelineResult r = runPipeline(*k, constructed);
      if (!full.ok() || !r.ok())
        continue;
      std::string what = file + " @" + k->name;
      std::unique_ptr<phys::Program> p =
          parseOne(phys::programToString(*r.program), what);
      if (!p)
        continue;
      PipelineResult again = runPasses(std::move(p));
      ASSERT_TRUE(again.ok())
          << what << ": "
          << (again.internalErrors.empty() ? "" : again.internalErrors[0]);
      EXPECT_EQ(phys::programToString(*again.program),
                phys::programToString(*full.program))
          << what;
    }
  }
}

/// Parses `text` and expects an error `test.phys:LINE:COL: error: MSG...`.
void expectParseError(const std::string &text, const std::string &where,
                      const std::string &msg) {
  std::vector<std::unique_ptr<phys::Program>> ps;
  std::string err;
  EXPECT_FALSE(phys::parsePrograms(text, "test.phys", ps, err));
  EXPECT_EQ(err.rfind("test.phys:" + where + ": error: ", 0), 0u) << err;
  EXPECT_NE(err.find(msg), std::string::npos) << err;
}

/// A small valid program; the tests below break one line of it.
std::string program(const std::string &bodyLine = "") {
  return "program @p scope(thread) (%0 y: view<f32, 1> w) {\n"
         "  launch {\n"
         "    e0 = extent(y, 0) : i64\n"
         "    e1 = const 0 : i64\n"
         "    e2 = max e0, e1 : i64\n"
         "  }\n"
         "  segment 0 (group 0, parallel) extents [e2] length e2 offset e1\n"
         "  total e2\n"
         "  buffer 0 y: external_view param 0 f32 rank 1 init host ownership "
         "instance_unique writers [0] readers []\n"
         "  body {\n"
         "    %1 = program_id : i64\n" +
         bodyLine +
         "    return\n"
         "  }\n"
         "}\n";
}

TEST(PhysParser, ParsesTheSmallProgram) {
  std::unique_ptr<phys::Program> p = parseOne(program(), "small");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->exprs.size(), 3u);
  EXPECT_EQ(p->segments.size(), 1u);
  EXPECT_EQ(p->body->block.ops.size(), 2u);
  EXPECT_EQ(p->nextValueId, 2u);
}

/// h-checks' access relation and origins read back: every bounds kind and
/// active set, and `origin(synth STAGE)` with a pass name's '-'.
TEST(PhysParser, ReadsAccessKindsAndSynthesizedOrigins) {
  std::unique_ptr<phys::Program> p = parseOne(
      program("    %2 = load %0[%1] : f32 access(proven, leader) prov(op 3; "
              "coords %4) loc(2:5) origin(synth grid-reduce)\n"
              "    %3 = load %0[%1] : f32 access(guarded, thread) loc(2:6) "
              "origin(op 7, arg 1)\n"
              "    %4 = load %0[%1] : f32 access(assumed, all) loc(2:7) "
              "origin(synth construction)\n"),
      "access kinds");
  ASSERT_TRUE(p);
  const auto &ops = p->body->block.ops;
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[1]->access.bounds, phys::Bounds::Proven);
  EXPECT_EQ(ops[1]->access.active, phys::ActiveSet::Leader);
  EXPECT_EQ(ops[1]->access.kirOp, 3);
  EXPECT_EQ(ops[1]->origin.op, -1);
  EXPECT_EQ(ops[1]->origin.synth, "grid-reduce");
  EXPECT_EQ(ops[2]->access.bounds, phys::Bounds::Guarded);
  EXPECT_EQ(ops[2]->access.active, phys::ActiveSet::Thread);
  EXPECT_EQ(ops[2]->origin.op, 7);
  EXPECT_EQ(ops[2]->origin.arg, 1);
  EXPECT_TRUE(ops[2]->origin.synth.empty());
  EXPECT_EQ(ops[3]->access.bounds, phys::Bounds::Assumed);
  EXPECT_EQ(ops[3]->access.active, phys::ActiveSet::All);
  EXPECT_EQ(ops[3]->origin.synth, "construction");
  std::string text = phys::programToString(*p);
  EXPECT_NE(text.find("access(proven, leader) prov(op 3; coords %4) loc(2:5) "
                      "origin(synth grid-reduce)"),
            std::string::npos)
      << text;
}

TEST(PhysParser, Errors) {
  expectParseError(program("    %2 = frobnicate %1 : i64\n"), "12:10",
                   "unknown op 'frobnicate'");
  expectParseError(program("    %2 = add %1 : i64\n"), "12:10",
                   "op 'add' takes 2 operands, has 1");
  expectParseError(program("    %2 = add %1, %9 : i64\n"), "12:18",
                   "use of undefined value %9");
  expectParseError(program("    %2 = cmp %1, %1 {pred = \"lt\", x = 1} : bool\n"),
                   "12:35", "unknown attribute 'x' for op 'cmp'");
  expectParseError(program("    %2 = cmp %1, %1 {pred = \"less\"} : bool\n"),
                   "12:29", "attribute 'pred' of op 'cmp' must be one of");
  expectParseError(program("    %2 = cmp %1, %1 : bool\n"), "12:10",
                   "op 'cmp' needs attribute 'pred'");
  expectParseError(program("    %2 = launch_value {expr = 1.5} : i64\n"),
                   "12:31", "attribute 'expr' of op 'launch_value' must be int");
  expectParseError(program("    %1 = program_id : i64\n"), "12:5",
                   "value %1 is defined twice");
  expectParseError(program("    %2, %3 = program_id : i64, i64\n"), "12:5",
                   "op 'program_id' has 1 results, not 2");
  expectParseError(program("    if %1 {\n      yield\n    }\n"), "12:5",
                   "op 'if' needs 2 regions, has 1");
  expectParseError(program("    %2 = add %1, %1 : q32\n"), "12:23",
                   "unknown type 'q32'");
  expectParseError(program("    $\n"), "12:5", "unexpected character '$'");
  expectParseError("program @p scope(thread) (%0 y: view<f32, 1> w) {\n"
                   "  launch {\n    e0 = extent(z, 0) : i64\n",
                   "3:17", "unknown parameter 'z'");
  expectParseError("program @p scope(thread) () {\n  launch {\n"
                   "    e0 = add e0, e0 : i64\n",
                   "3:14", "launch expression e0 is not an earlier one");
  expectParseError("program @p scope(warp9) () {\n", "1:18",
                   "expected an exec scope");
  expectParseError(program("    %2 = load %0[%1] : f32 access(proven, some)\n"),
                   "12:43", "expected an active member set");
  expectParseError(
      program("    %2 = load %0[%1] : f32 access(unknown2, self)\n"), "12:35",
      "expected a bounds kind");
  expectParseError(program("    return origin(synth)\n"), "12:24",
                   "expected the synthesizing stage");
  std::string cut = program();
  cut = cut.substr(0, cut.find("    return"));
  expectParseError(cut, "12:1", "expected '}', found end of input");
  expectParseError(program("    %2 = cmp %1, %1 {pred = \"lt\"} : bool\n"
                           "    if %2 {\n      yield\n    } {\n      yield\n"
                           "    }\n"),
                   "15:7", "expected 'else' before the else region");
}

} // namespace
