//===- ToyBackendTest.cpp - a backend passes/ and the driver never heard of -===//
//
// A test-only backend: device kind `toy`, code for three op kinds (matmul,
// add, relu), a fast built-in profile. Registered here, it is a device like
// any other to the driver's pipeline: `--devices=cpu,toy:0`, `--pin`,
// `#dlc.device<toy:0>` in the IR, the cost policy and the placement dump all
// take it, and an op it has no code for stays on the CPU as `unsupported`.
// The artifact has code for cpu and cuda only, and says so.
//
//===----------------------------------------------------------------------===//

#include "compiler/Driver/CompilePipeline.h"
#include "compiler/Registration.h"
#include "compiler/Target/Backends.h"
#include "passes/CostModel.h"
#include "passes/TargetBackend.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <map>

using namespace dlc;

namespace {

/// The toy backend's graph rewrite: marks its ops, and says for which CPU
/// the pipeline asked (the target it was handed).
struct MarkToyOps : mlir::PassWrapper<MarkToyOps, mlir::OperationPass<mlir::ModuleOp>> {
  explicit MarkToyOps(std::string cpu) : cpu(std::move(cpu)) {}
  void runOnOperation() override {
    getOperation()->walk([&](mlir::Operation *op) {
      DeviceAttr device = getDevicePin(op);
      if (device && device.getKind() == "toy")
        op->setAttr("toy.rewritten", mlir::StringAttr::get(op->getContext(), cpu));
    });
  }
  std::string cpu;
};

class ToyBackend : public TargetBackend {
public:
  llvm::StringRef kind() const override { return "toy"; }
  bool supports(mlir::Operation *op) const override {
    return llvm::is_contained({"matmul", "add", "relu"}, opKind(op));
  }
  DeviceProfile builtinProfile(int64_t, const BuiltinTarget &) const override {
    DeviceProfile p;
    p.memoryBytes = int64_t(8) << 30;
    p.flopsF32 = p.flopsF16 = p.flopsBF16 = 100e12; // ~570x the built-in CPU
    p.bandwidthBytesPerS = 2e12;
    p.launchOverheadUs = 2.0;
    return p;
  }
  LinkProfile hostLink() const override { return LinkProfile{50e9, 5.0}; }
  LinkProfile peerLink() const override { return LinkProfile{200e9, 1.0}; }
  bool computesInHalfByDefault() const override { return true; }
  void addGraphRewrites(mlir::OpPassManager &pm, const BuiltinTarget &target) const override {
    pm.addPass(std::make_unique<MarkToyOps>(target.cpu));
  }
};

// A 256x1024x1024 matmul (0.5 GFLOP: the cost policy moves it to the toy
// device), a relu after it, a softmax the toy backend has no code for
// (pinned there by --pin: it falls back to the CPU), a tiny add pinned by
// --pin and a relu pinned in the IR.
constexpr const char *kModel = R"mlir(
func.func @main(%x: tensor<256x1024xf32>, %w: tensor<1024x1024xf32>, %b: tensor<4xf32>)
    -> (tensor<256x1024xf32>, tensor<4xf32>) {
  %m = dlc.matmul %x, %w : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32> loc("big_matmul")
  %r = dlc.relu %m : tensor<256x1024xf32> loc("after_matmul")
  %s = dlc.softmax %r {axis = 1 : i64} : tensor<256x1024xf32> loc("softmax")
  %a = dlc.add %b, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> loc("small_add")
  %p = dlc.relu %a {device = #dlc.device<toy:0>} : tensor<4xf32> loc("ir_pinned")
  return %s, %p : tensor<256x1024xf32>, tensor<4xf32>
}
)mlir";

struct Placed {
  std::string device, reason;
};

class ToyBackendTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    registerBuiltinTargetBackends();
    registerTargetBackend(std::make_unique<ToyBackend>());
  }

  void SetUp() override {
    registerAllDlcDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    context->loadAllAvailableDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(kModel, context.get());
    ASSERT_TRUE(module) << "the model with #dlc.device<toy:0> did not parse";
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("toy-placement", "json", path));
    dumpPath = path.str().str();
  }
  void TearDown() override { llvm::sys::fs::remove(dumpPath); }

  CompileOptions options(CompileStage stopAfter) {
    CompileOptions o;
    o.devices = "cpu,toy:0";
    o.policy = "cost";
    o.pins = {"small_add=toy:0", "softmax=toy:0"};
    o.dumpPlacement = dumpPath;
    o.stopAfter = stopAfter;
    o.codegen.cuda = false;
    EXPECT_FALSE(bool(o.check()));
    return o;
  }

  /// The dump's ops by name, and its devices.
  std::map<std::string, Placed> readDump(std::vector<std::string> &devices) {
    auto buffer = llvm::MemoryBuffer::getFile(dumpPath);
    EXPECT_TRUE(bool(buffer));
    llvm::Expected<llvm::json::Value> json = llvm::json::parse((*buffer)->getBuffer());
    EXPECT_TRUE(bool(json)) << llvm::toString(json.takeError());
    std::map<std::string, Placed> placed;
    const llvm::json::Object *top = json->getAsObject();
    for (const llvm::json::Value &op : *top->getArray("ops")) {
      const llvm::json::Object *o = op.getAsObject();
      placed[o->getString("name")->str()] = {o->getString("device")->str(),
                                             o->getString("reason")->str()};
    }
    for (const llvm::json::Value &d : *top->getArray("devices"))
      devices.push_back(d.getAsObject()->getString("name")->str());
    return placed;
  }

  mlir::DialectRegistry registry;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string dumpPath;
};

TEST_F(ToyBackendTest, PlacedByPinsAndCostAndExplained) {
  ASSERT_TRUE(mlir::succeeded(compileModule(*module, options(CompileStage::Copies))));
  std::vector<std::string> devices;
  std::map<std::string, Placed> placed = readDump(devices);
  EXPECT_EQ(devices, (std::vector<std::string>{"cpu", "toy:0"}));
  auto expect = [&](const std::string &name, const std::string &device,
                    const std::string &reason) {
    ASSERT_TRUE(placed.count(name)) << name << " is missing from the dump";
    EXPECT_EQ(placed[name].device, device) << name;
    EXPECT_EQ(placed[name].reason, reason) << name;
  };
  expect("big_matmul", "toy:0", "cost");
  expect("softmax", "cpu", "unsupported");
  expect("small_add", "toy:0", "pinned");
  expect("ir_pinned", "toy:0", "pinned");
  // The relu after the matmul goes where its 1 MiB input already is.
  EXPECT_EQ(placed["after_matmul"].device, "toy:0");

  // The IR says the same, and the copies to the softmax and the results are
  // there for the next stages.
  std::map<std::string, int> copiesTo;
  module->walk([&](CopyOp copy) { ++copiesTo[copy.getDevice().str()]; });
  EXPECT_EQ(copiesTo["toy:0"], 3); // x, w and b
  EXPECT_EQ(copiesTo["cpu"], 2);   // the relu's result for the softmax, the pinned relu's
}

TEST_F(ToyBackendTest, KernelsFormWithTheDefaultRuleThenTheArtifactRefuses) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(context.get(), [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  EXPECT_TRUE(mlir::failed(compileModule(*module, options(CompileStage::Artifact))));
  EXPECT_NE(diagnostics.find("device toy:0: no code generator for device kind 'toy' (the "
                             "artifact has code for cpu and cuda devices)"),
            std::string::npos)
      << diagnostics;
  // The matmul and the relu after it formed one toy kernel.
  mlir::Operation *matmul = nullptr, *relu = nullptr;
  module->walk([&](mlir::Operation *op) {
    auto name = mlir::dyn_cast<mlir::NameLoc>(op->getLoc());
    if (mlir::isa<CopyOp, KernelOp>(op)) // a copy of a value is named after it
      return;
    if (name && name.getName() == "big_matmul")
      matmul = op;
    if (name && name.getName() == "after_matmul")
      relu = op;
  });
  ASSERT_TRUE(matmul && relu);
  auto kernel = mlir::dyn_cast<KernelOp>(matmul->getParentOp());
  ASSERT_TRUE(kernel) << "the matmul is in no dlc.kernel";
  EXPECT_EQ(relu->getParentOp(), kernel.getOperation());
  EXPECT_EQ(kernel.getDeviceAttr(), getDevicePin(matmul));
}

// The backend's own graph rewrites run in the pipeline's rewrite stage, and
// mixed precision paints its ops fp16 by default (computesInHalfByDefault),
// with no line of the driver or of passes/ naming it.
TEST_F(ToyBackendTest, ItsRewritesAndPrecisionApply) {
  CompileOptions o = options(CompileStage::Rewrite);
  o.codegen.cpu.cpu = "x86-64-v3";
  o.precision = "mixed";
  ASSERT_TRUE(mlir::succeeded(compileModule(*module, o)));
  std::map<std::string, std::string> rewritten, precision;
  module->walk([&](mlir::Operation *op) {
    auto name = mlir::dyn_cast<mlir::NameLoc>(op->getLoc());
    if (!name || mlir::isa<CopyOp, CastOp>(op))
      return;
    if (auto mark = op->getAttrOfType<mlir::StringAttr>("toy.rewritten"))
      rewritten[name.getName().str()] = mark.str();
    // A painted op computes in f16: its result is converted.
    if (op->getNumResults() == 1)
      if (auto type = mlir::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType()))
        precision[name.getName().str()] = type.getElementType().isF16() ? "fp16" : "fp32";
  });
  EXPECT_EQ(rewritten["big_matmul"], "x86-64-v3");
  EXPECT_EQ(rewritten["small_add"], "x86-64-v3");
  EXPECT_FALSE(rewritten.count("softmax")) << "a CPU op went through the toy rewrite";
  EXPECT_EQ(precision["big_matmul"], "fp16");
  EXPECT_NE(precision["softmax"], "fp16") << "the CPU computes in fp32 unless asked";
}

TEST_F(ToyBackendTest, UnknownKindsNameTheRegisteredOnes) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(context.get(), [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  CompileOptions o = options(CompileStage::Place);
  o.devices = "cpu,tpu:0";
  EXPECT_TRUE(mlir::failed(compileModule(*module, o)));
  EXPECT_NE(diagnostics.find("--devices: unknown device 'tpu:0' (expected cpu, cuda:N or toy:N, "
                             "N >= 0)"),
            std::string::npos)
      << diagnostics;
}

} // namespace
