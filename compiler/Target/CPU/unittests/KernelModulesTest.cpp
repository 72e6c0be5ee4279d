//===- KernelModulesTest.cpp - kernels into modules of their own and back -===//

#include "compiler/Target/CPU/CpuPipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

// Two kernels reading one global, each calling its own outlined body; a
// global no kernel reads.
constexpr const char *kTwoKernels = R"mlir(
  memref.global "private" constant @w : memref<4xf32> = dense<1.0>
  memref.global "private" constant @unused : memref<4xf32> = dense<2.0>
  func.func private @k0_par0(%m: memref<4xf32>) { return }
  func.func @k0(%out: memref<4xf32>) {
    %w = memref.get_global @w : memref<4xf32>
    func.call @k0_par0(%w) : (memref<4xf32>) -> ()
    return
  }
  func.func @k1(%out: memref<4xf32>) {
    %w = memref.get_global @w : memref<4xf32>
    memref.copy %w, %out : memref<4xf32> to memref<4xf32>
    return
  }
)mlir";

struct KernelModules : ::testing::Test {
  KernelModules() {
    context.loadDialect<func::FuncDialect, memref::MemRefDialect, arith::ArithDialect>();
  }
  OwningOpRef<ModuleOp> parse(const char *text) {
    return parseSourceString<ModuleOp>(text, &context);
  }
  static SmallVector<std::string> topSymbols(ModuleOp module) {
    SmallVector<std::string> names;
    for (Operation &op : *module.getBody())
      if (auto name = op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
        names.push_back(name.str());
      else
        names.push_back(op.getName().getStringRef().str());
    return names;
  }
  MLIRContext context;
};

TEST_F(KernelModules, EachKernelGetsItsBodiesAndACopyOfItsGlobals) {
  OwningOpRef<ModuleOp> module = parse(kTwoKernels);
  ASSERT_TRUE(module);
  ASSERT_TRUE(dlc::nestKernelModules(*module));
  ASSERT_TRUE(succeeded(verify(*module)));
  SmallVector<ModuleOp> nested = llvm::to_vector(module->getOps<ModuleOp>());
  ASSERT_EQ(nested.size(), 3u); // k0, k1, and what no kernel uses
  EXPECT_EQ(topSymbols(nested[0]), (SmallVector<std::string>{"k0", "w", "k0_par0"}));
  EXPECT_EQ(topSymbols(nested[1]), (SmallVector<std::string>{"k1", "w"}));
  EXPECT_EQ(topSymbols(nested[2]), (SmallVector<std::string>{"unused"}));
  EXPECT_EQ(std::distance(module->getBody()->begin(), module->getBody()->end()), 3);
}

TEST_F(KernelModules, FlatteningKeepsOneCopyOfEachSymbolInKernelOrder) {
  OwningOpRef<ModuleOp> module = parse(kTwoKernels);
  ASSERT_TRUE(module);
  ASSERT_TRUE(dlc::nestKernelModules(*module));
  ASSERT_TRUE(succeeded(dlc::flattenKernelModules(*module)));
  ASSERT_TRUE(succeeded(verify(*module)));
  EXPECT_EQ(topSymbols(*module), (SmallVector<std::string>{"k0", "w", "k0_par0", "k1", "unused"}));
}

TEST_F(KernelModules, ABodyTwoKernelsCallLeavesTheModuleWhole) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func private @helper(%m: memref<4xf32>) { return }
    func.func @k0(%m: memref<4xf32>) { func.call @helper(%m) : (memref<4xf32>) -> () return }
    func.func @k1(%m: memref<4xf32>) { func.call @helper(%m) : (memref<4xf32>) -> () return }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_FALSE(dlc::nestKernelModules(*module));
  EXPECT_EQ(topSymbols(*module), (SmallVector<std::string>{"helper", "k0", "k1"}));
}

TEST_F(KernelModules, TwoModulesDefiningOneFunctionIsAnError) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    module { func.func @k0() { return } }
    module { func.func @k0() { return } }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(dlc::flattenKernelModules(*module)));
}

} // namespace
