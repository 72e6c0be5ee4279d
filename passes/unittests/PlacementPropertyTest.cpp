//===- PlacementPropertyTest.cpp - dlc-place + dlc-insert-copies on random DAGs
//
// Random dataflow graphs of 1,000 dlc ops (unary, binary, matmul, constants;
// names in layers so that pattern pins match groups), random attribute and
// pattern pins, random GPU memory capacities and op support, every policy.
// After placement and copy insertion:
//   - the IR verifies (SSA in one block: acyclic, defined before use);
//   - every op is on a device that supports it, with a reason;
//   - attribute pins are kept; pattern pins are honoured or fall back to the
//     CPU with reason `unsupported`;
//   - every device's peak memory is within its capacity, or placement failed
//     with an error about memory;
//   - every cross-device use reads through exactly one copy per (value,
//     device), results are on the CPU, and dlc.order is topological.
//
//===----------------------------------------------------------------------===//

#include "passes/CostModel.h"
#include "passes/Passes.h"
#include "passes/PlacementReport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <random>

using namespace mlir;
using namespace dlc;

namespace {

struct Scenario {
  std::string specJson;
  std::vector<std::string> pins;
  std::string policy;
  std::string devices = "cpu,cuda:0,cuda:1,cuda:2";
};

/// A spec with three GPUs of random memory; cuda:1 runs no exp or tanh.
std::string randomSpec(std::mt19937_64 &rng) {
  auto memory = [&] {
    // Some roomy, some tight (a 1,000-op graph of 16 KiB activations).
    static const int64_t sizes[] = {3'000'000, 8'000'000, 30'000'000, 100'000'000};
    return std::to_string(sizes[rng() % 4]);
  };
  std::string gpu = R"("flops": {"f32": 6e13, "f16": 9.89e14, "bf16": 9.89e14},
      "bandwidth_bytes_per_s": 4.8e12, "launch_overhead_us": 5)";
  std::string spec = R"({"devices": [
    {"kind": "cpu", "memory_bytes": 1e10, "flops": {"f32": 1.75e11, "f16": 1.2e11, "bf16": 1.2e11},
     "bandwidth_bytes_per_s": 3e10, "launch_overhead_us": 1},
    {"kind": "cuda", "index": 0, "memory_bytes": )" +
                     memory() + ", " + gpu + R"(},
    {"kind": "cuda", "index": 1, "memory_bytes": )" +
                     memory() + ", " + gpu +
                     R"(, "supported_ops": ["relu", "add", "mul", "matmul", "constant", "copy"]},
    {"kind": "cuda", "index": 2, "memory_bytes": )" +
                     memory() + ", " + gpu + R"(}],
  "links": {
    "bandwidth_bytes_per_s": [[0, 5.5e10, 5.5e10, 5.5e10], [5.5e10, 0, 4.5e11, 4.5e11],
                              [5.5e10, 4.5e11, 0, 4.5e11], [5.5e10, 4.5e11, 4.5e11, 0]],
    "latency_us": [[0, 10, 10, 10], [10, 0, 2, 2], [10, 2, 0, 2], [10, 2, 2, 0]]}})";
  return spec;
}

/// A random DAG of `count` ops over tensor<32x128xf32> (16 KiB) values.
OwningOpRef<ModuleOp> randomGraph(MLIRContext &ctx, std::mt19937_64 &rng, int count) {
  OpBuilder b(&ctx);
  Location unknown = b.getUnknownLoc();
  auto module = ModuleOp::create(unknown);
  auto type = RankedTensorType::get({32, 128}, b.getF32Type());
  auto square = RankedTensorType::get({128, 128}, b.getF32Type());
  auto func = b.create<func::FuncOp>(unknown, "main",
                                     b.getFunctionType({type, type}, {type, type}));
  module.push_back(func);
  Block *block = func.addEntryBlock();
  b.setInsertionPointToStart(block);
  std::vector<Value> values(block->args_begin(), block->args_end());
  auto pick = [&] { // mostly recent values: long chains with some fan-in
    size_t n = values.size();
    size_t back = std::min<size_t>(n, 1 + rng() % 24);
    return values[n - 1 - rng() % back];
  };
  DeviceAttr devices[] = {DeviceAttr::getCpu(&ctx),
                          DeviceAttr::get(&ctx, "cuda", 0),
                          DeviceAttr::get(&ctx, "cuda", 1),
                          DeviceAttr::get(&ctx, "cuda", 2)};
  for (int i = 0; i < count; ++i) {
    Location loc = NameLoc::get(b.getStringAttr("/layer" + std::to_string(i / 50) +
                                                "/op" + std::to_string(i)));
    Operation *op;
    switch (rng() % 8) {
    case 0: op = b.create<ReluOp>(loc, type, pick(), DeviceAttr()); break;
    case 1: op = b.create<ExpOp>(loc, type, pick(), DeviceAttr()); break;
    case 2: op = b.create<TanhOp>(loc, type, pick(), DeviceAttr()); break;
    case 3: op = b.create<AddOp>(loc, type, pick(), pick(), DeviceAttr()); break;
    case 4: op = b.create<MulOp>(loc, type, pick(), pick(), DeviceAttr()); break;
    case 5: {
      Value w = b.create<ConstantOp>(
          loc, square, DenseElementsAttr::get(square, b.getF32FloatAttr(0.5f)),
          DeviceAttr());
      op = b.create<MatmulOp>(loc, type, pick(), w, DeviceAttr());
      break;
    }
    default: op = b.create<AddOp>(loc, type, pick(), values.back(), DeviceAttr()); break;
    }
    // 3% attribute pins, to a device that runs the op.
    if (rng() % 100 < 3) {
      DeviceAttr device = devices[rng() % 4];
      bool exp = isa<ExpOp, TanhOp>(op);
      if (!(exp && device.isCuda() && device.getIndex() == 1))
        op->setAttr(::dlc::attrs::kDevice, device);
    }
    values.push_back(op->getResult(0));
  }
  b.create<func::ReturnOp>(unknown, ValueRange{values.back(), values[values.size() / 2]});
  return module;
}

struct Outcome {
  bool ok = false;
  std::string errors;
};

Outcome place(ModuleOp module, const Scenario &scenario, const std::string &specPath) {
  MLIRContext *ctx = module.getContext();
  Outcome outcome;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      outcome.errors += diag.str() + "\n";
    return success();
  });
  PlaceDevicesOptions options;
  std::vector<std::string> devices{scenario.devices};
  options.devices = devices;
  options.policy = scenario.policy;
  options.pins = scenario.pins;
  options.deviceSpec = specPath;
  PassManager pm(ctx);
  pm.addPass(createPlaceDevices(options));
  pm.addNestedPass<func::FuncOp>(createInsertCopies());
  outcome.ok = succeeded(pm.run(module));
  return outcome;
}

class PlacementProperties : public ::testing::TestWithParam<int> {};

TEST_P(PlacementProperties, RandomDag) {
  int seed = GetParam();
  std::mt19937_64 rng(seed);
  MLIRContext ctx;
  ctx.loadDialect<DlcDialect, func::FuncDialect>();
  ctx.printOpOnDiagnostic(false);

  Scenario scenario;
  scenario.specJson = randomSpec(rng);
  static const char *const policies[] = {"cost", "cost", "gpu", "cpu", "pipeline:3"};
  scenario.policy = policies[seed % 5];
  // Random pattern pins over layers; cuda:1 cannot run exp/tanh, so some fall back.
  for (int k = 0; k < 3; ++k)
    scenario.pins.push_back("layer" + std::to_string(rng() % 20) + "/=cuda:" +
                            std::to_string(rng() % 3));
  llvm::SmallString<128> specPath;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("dlc-spec", "json", specPath));
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(specPath, ec);
    os << scenario.specJson;
  }
  auto spec = DeviceSpec::loadJson(specPath);
  ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());

  OwningOpRef<ModuleOp> module = randomGraph(ctx, rng, 1000);
  auto func = *module->getOps<func::FuncOp>().begin();
  // Remember the pins before placement.
  std::map<Operation *, DeviceAttr> attributePins;
  func.walk([&](Operation *op) {
    if (auto pin = getDevicePin(op))
      attributePins[op] = pin;
  });

  Outcome outcome = place(*module, scenario, std::string(specPath));
  llvm::sys::fs::remove(specPath);
  if (!outcome.ok) {
    // The only acceptable failure: memory, named clearly.
    EXPECT_TRUE(StringRef(outcome.errors).contains("memory")) << outcome.errors;
    RecordProperty("outcome", "memory error");
    return;
  }
  ASSERT_TRUE(succeeded(verify(*module))) << "placed IR does not verify";

  std::vector<std::pair<std::unique_ptr<llvm::Regex>, DeviceId>> pins;
  for (const std::string &pin : scenario.pins) {
    size_t eq = pin.rfind('=');
    pins.push_back({std::make_unique<llvm::Regex>(pin.substr(0, eq)),
                    cantFail(parseDeviceId(pin.substr(eq + 1)))});
  }
  auto deviceIndex = [&](DeviceAttr attr) {
    return spec->find(DeviceId{attr.getKind().str(), attr.getIndex()});
  };
  std::set<std::pair<void *, void *>> copies;
  unsigned index = 0;
  Block &block = func.getBody().front();
  DeviceAttr cpu = DeviceAttr::getCpu(&ctx);
  for (Operation &op : block) {
    unsigned ordinal = index++;
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands()) {
        Operation *def = v.getDefiningOp();
        EXPECT_TRUE(!def || getDevicePin(def) == cpu) << "a result is not on the cpu";
      }
      continue;
    }
    DeviceAttr device = getDevicePin(&op);
    ASSERT_TRUE(device) << "op without a device";
    int d = deviceIndex(device);
    ASSERT_GE(d, 0);
    EXPECT_TRUE(spec->devices[d].supports(opKind(&op)))
        << opKind(&op).str() << " on " << device.str();
    if (auto copy = dyn_cast<CopyOp>(op)) {
      EXPECT_TRUE(copies.insert({const_cast<void *>(copy.getInput().getAsOpaquePointer()),
                                 const_cast<void *>(device.getAsOpaquePointer())})
                      .second)
          << "two copies of one value to " << device.str();
      Operation *def = copy.getInput().getDefiningOp();
      EXPECT_NE(def ? getDevicePin(def) : cpu, device) << "a copy to the same device";
      continue;
    }
    auto reason = op.getAttrOfType<StringAttr>(::dlc::attrs::kReason);
    ASSERT_TRUE(reason);
    for (Value operand : op.getOperands()) {
      Operation *def = operand.getDefiningOp();
      EXPECT_EQ(def ? getDevicePin(def) : cpu, device)
          << "a cross-device use without a copy";
    }
    if (isa<ConstantOp>(op))
      continue;
    auto order = op.getAttrOfType<IntegerAttr>(::dlc::attrs::kOrder);
    ASSERT_TRUE(order);
    for (Value operand : op.getOperands()) {
      while (auto copy = operand.getDefiningOp<CopyOp>())
        operand = copy.getInput();
      if (Operation *def = operand.getDefiningOp())
        if (auto before = def->getAttrOfType<IntegerAttr>(::dlc::attrs::kOrder))
          EXPECT_LT(before.getInt(), order.getInt()) << "dlc.order is not topological";
    }
    auto pinned = attributePins.find(&op);
    if (pinned != attributePins.end()) {
      EXPECT_EQ(device, pinned->second) << "attribute pin not kept";
      EXPECT_EQ(reason.getValue(), "pinned");
      continue;
    }
    std::string name = opName(&op, ordinal);
    for (auto &[regex, pin] : pins) {
      if (isa<ConstantOp>(op))
        break; // weights follow their consumers
      if (!regex->match(name))
        continue;
      int p = spec->find(pin);
      if (spec->devices[p].supports(opKind(&op))) {
        EXPECT_EQ(d, p) << name << " not on its pattern pin";
        EXPECT_EQ(reason.getValue(), "pinned");
      } else {
        EXPECT_EQ(d, 0) << name << " did not fall back to the cpu";
        EXPECT_EQ(reason.getValue(), "unsupported");
      }
      break;
    }
  }

  FailureOr<PlacementReport> report = buildPlacementReport(func, *spec);
  ASSERT_TRUE(succeeded(report));
  for (const PlacementReport::Device &device : report->devices)
    EXPECT_LE(device.peakMemoryBytes, device.capacityBytes) << device.name;
  EXPECT_GE(report->makespanUs, report->lowerBoundUs * (1 - 1e-9));
}

INSTANTIATE_TEST_SUITE_P(Seeds, PlacementProperties, ::testing::Range(0, 40));

} // namespace
