//===- ConstantDataTest.cpp - compile-time permutation of constants -------===//

#include "passes/ConstantData.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

using namespace mlir;

namespace {

std::vector<float> valuesOf(ElementsAttr attr) {
  auto resource = cast<DenseResourceElementsAttr>(attr);
  ArrayRef<char> bytes = resource.getRawHandle().getBlob()->getData();
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

TEST(ConstantData, PermutesAConvWeightTapsOutermost) {
  MLIRContext ctx;
  // W[f, c, kh, kw] = 1000 f + 100 c + 10 kh + kw, shape [2, 3, 2, 2].
  auto type = RankedTensorType::get({2, 3, 2, 2}, Float32Type::get(&ctx));
  std::vector<float> w;
  for (int f = 0; f < 2; ++f)
    for (int c = 0; c < 3; ++c)
      for (int kh = 0; kh < 2; ++kh)
        for (int kw = 0; kw < 2; ++kw)
          w.push_back(1000 * f + 100 * c + 10 * kh + kw);
  auto dense = DenseElementsAttr::get(type, ArrayRef<float>(w));
  FailureOr<ElementsAttr> packed = dlc::permuteConstant(dense, {2, 3, 0, 1}, "w.hwfc");
  ASSERT_TRUE(succeeded(packed));
  EXPECT_EQ(cast<RankedTensorType>(packed->getType()).getShape(),
            ArrayRef<int64_t>({2, 2, 2, 3}));
  std::vector<float> got = valuesOf(*packed);
  ASSERT_EQ(got.size(), w.size());
  int i = 0;
  for (int kh = 0; kh < 2; ++kh)
    for (int kw = 0; kw < 2; ++kw)
      for (int f = 0; f < 2; ++f)
        for (int c = 0; c < 3; ++c)
          EXPECT_EQ(got[i++], 1000 * f + 100 * c + 10 * kh + kw);
}

TEST(ConstantData, TransposesAMatrixAndKeepsSplats) {
  MLIRContext ctx;
  auto type = RankedTensorType::get({2, 3}, Float32Type::get(&ctx));
  std::vector<float> m = {1, 2, 3, 4, 5, 6};
  FailureOr<ElementsAttr> t =
      dlc::permuteConstant(DenseElementsAttr::get(type, ArrayRef<float>(m)), {1, 0}, "m.T");
  ASSERT_TRUE(succeeded(t));
  EXPECT_EQ(valuesOf(*t), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  auto splat = DenseElementsAttr::get(type, 0.5f);
  FailureOr<ElementsAttr> s = dlc::permuteConstant(splat, {1, 0}, "s.T");
  ASSERT_TRUE(succeeded(s));
  EXPECT_TRUE(cast<DenseElementsAttr>(*s).isSplat());
  EXPECT_EQ(cast<RankedTensorType>(s->getType()).getShape(), ArrayRef<int64_t>({3, 2}));
  EXPECT_TRUE(failed(dlc::permuteConstant(splat, {0}, "bad")));
}

TEST(ConstantData, ReadsThroughAViewShapeFirst) {
  MLIRContext ctx;
  // W [4, 2] (a linear's [N, K]) read as [2 panels, 2 columns, K = 2] and
  // permuted {0, 2, 1}: panels [P, K, 2] with [p, k, j] = W[p*2 + j, k].
  auto type = RankedTensorType::get({4, 2}, Float32Type::get(&ctx));
  std::vector<float> w = {0, 1, 10, 11, 20, 21, 30, 31}; // W[n, k] = 10 n + k
  FailureOr<ElementsAttr> panels = dlc::permuteConstant(
      DenseElementsAttr::get(type, ArrayRef<float>(w)), {0, 2, 1}, "w.panels", {2, 2, 2});
  ASSERT_TRUE(succeeded(panels));
  EXPECT_EQ(cast<RankedTensorType>(panels->getType()).getShape(), ArrayRef<int64_t>({2, 2, 2}));
  EXPECT_EQ(valuesOf(*panels), (std::vector<float>{0, 10, 1, 11, 20, 30, 21, 31}));
  EXPECT_TRUE(failed(dlc::permuteConstant(DenseElementsAttr::get(type, ArrayRef<float>(w)),
                                          {0, 1}, "bad", {3, 3})));
}

} // namespace
