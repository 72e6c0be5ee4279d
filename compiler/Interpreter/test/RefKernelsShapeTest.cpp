//===- RefKernelsShapeTest.cpp - Reductions, data movement and cast -------===//
//
// Expected values are written out by hand or computed by naive formulas in
// this file; never by the kernel under test.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/RefKernels.h"
#include "TestUtil.h"

#include <cmath>
#include <limits>

using namespace dlc::ref;
using namespace dlc::ref::test;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor f32(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::fromValues(DType::F32, std::move(shape), std::move(v));
}
Tensor i32(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::fromValues(DType::I32, std::move(shape), std::move(v));
}
Tensor i64(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::fromValues(DType::I64, std::move(shape), std::move(v));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

enum class Kind { Sum, Mean, Max };

/// Naive reduction: for every output element scan all input elements and
/// keep those whose kept coordinates match.
Tensor naiveReduce(const Tensor &x, std::vector<int64_t> axes, bool keepdims,
                   Kind kind) {
  int64_t r = x.rank();
  std::vector<bool> red(r, axes.empty());
  for (int64_t a : axes)
    red[a < 0 ? a + r : a] = true;
  std::vector<int64_t> keptShape, outShape;
  for (int64_t d = 0; d < r; ++d) {
    keptShape.push_back(red[d] ? 1 : x.shape[d]);
    if (!red[d] || keepdims)
      outShape.push_back(keptShape.back());
  }
  Tensor out = Tensor::zeros(x.dtype, outShape);
  for (int64_t o = 0; o < out.numElements(); ++o) {
    auto oi = unflatten(o, keptShape);
    double acc = kind == Kind::Max ? -kInf : 0;
    int64_t count = 0;
    for (int64_t f = 0; f < x.numElements(); ++f) {
      auto xi = unflatten(f, x.shape);
      bool match = true;
      for (int64_t d = 0; d < r; ++d)
        match &= red[d] || xi[d] == oi[d];
      if (!match)
        continue;
      ++count;
      acc = kind == Kind::Max ? std::max(acc, x.data[f]) : acc + x.data[f];
    }
    if (kind == Kind::Mean)
      acc /= count;
    out.data[o] = roundTo(x.dtype, acc);
  }
  return out;
}

TEST(ReduceTest, AgainstNaive) {
  using Kernel = Expected<Tensor> (*)(const Tensor &,
                                      const std::vector<int64_t> &, bool);
  std::pair<Kernel, Kind> kernels[] = {{reduce_sum, Kind::Sum},
                                       {reduce_mean, Kind::Mean},
                                       {reduce_max, Kind::Max}};
  std::vector<std::vector<int64_t>> axesCases = {{1}, {0, 2}, {}, {-1},
                                                 {2, -3}};
  unsigned seed = 1;
  for (auto [kernel, kind] : kernels)
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{3, 5, 7}, {2, 1, 9}, {4, 6, 1}})
      for (const auto &axes : axesCases)
        for (bool keep : {false, true})
          for (DType dt : {DType::F32, DType::F16, DType::I32}) {
            Tensor x = gridTensor(dt, shape, seed++);
            DLC_ASSERT_OK_AND_GET(out, kernel(x, axes, keep));
            expectTensor(out, naiveReduce(x, axes, keep, kind));
          }
}

TEST(ReduceTest, HandWritten) {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  DLC_ASSERT_OK_AND_GET(s0, reduce_sum(x, {0}, false));
  expectTensor(s0, f32({3}, {5, 7, 9}));
  DLC_ASSERT_OK_AND_GET(s1, reduce_sum(x, {-1}, true));
  expectTensor(s1, f32({2, 1}, {6, 15}));
  DLC_ASSERT_OK_AND_GET(all, reduce_mean(x, {}, false));
  expectTensor(all, f32({}, {3.5}));
  DLC_ASSERT_OK_AND_GET(allk, reduce_max(x, {}, true));
  expectTensor(allk, f32({1, 1}, {6}));
  DLC_ASSERT_OK_AND_GET(nan, reduce_max(f32({3}, {1, kNaN, 2}), {0}, false));
  EXPECT_TRUE(std::isnan(nan.data[0]));
  DLC_ASSERT_OK_AND_GET(im, reduce_mean(i32({2, 2}, {7, 8, -7, -8}), {1},
                                        false));
  expectTensor(im, i32({2}, {7, -7})); // Truncates toward zero.
  DLC_ASSERT_OK_AND_GET(em, reduce_max(f32({0, 2}, {}), {0}, false));
  expectTensor(em, f32({2}, {-kInf, -kInf}));
  // f16: the sum is accumulated wide, rounded once.
  Tensor h = Tensor::fromValues(DType::F16, {3}, {2048, 1, 1});
  DLC_ASSERT_OK_AND_GET(hs, reduce_sum(h, {0}, false));
  EXPECT_EQ(hs.data[0], 2050);
  // Products: of nothing 1; integers wrap at their width exactly, where a
  // double would have lost the low bits (3^40 > 2^53).
  DLC_ASSERT_OK_AND_GET(p, reduce_prod(x, {1}, false));
  expectTensor(p, f32({2}, {6, 120}));
  DLC_ASSERT_OK_AND_GET(ep, reduce_prod(f32({0, 2}, {}), {0}, false));
  expectTensor(ep, f32({2}, {1, 1}));
  Tensor threes = Tensor::fromValues(DType::I32, {40}, std::vector<double>(40, 3));
  DLC_ASSERT_OK_AND_GET(wrapped, reduce_prod(threes, {0}, false));
  uint32_t expected = 1;
  for (int i = 0; i < 40; ++i)
    expected *= 3u;
  expectTensor(wrapped, Tensor::fromValues(DType::I32, {}, {double(int32_t(expected))}));
  DLC_ASSERT_OK_AND_GET(u8, reduce_prod(Tensor::fromValues(DType::U8, {2}, {16, 17}), {0}, false));
  expectTensor(u8, Tensor::fromValues(DType::U8, {}, {16 * 17 % 256}));
}

TEST(ReduceTest, Errors) {
  Tensor x = Tensor::zeros(DType::F32, {2, 3});
  auto d = reduce_sum(x, {1, -1}, false);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.message(), "reduce_sum: axis 1 appears more than once");
  auto o = reduce_max(x, {2}, false);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.message(), "reduce_max: axis 2 is out of range [-2, 2) for "
                         "rank 2");
  auto e = reduce_max(Tensor::zeros(DType::I32, {0, 2}), {0}, false);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.message(),
            "reduce_max: cannot reduce zero elements of an integer tensor");
}

//===----------------------------------------------------------------------===//
// transpose, reshape
//===----------------------------------------------------------------------===//

TEST(TransposeTest, AgainstNaive) {
  struct Case {
    std::vector<int64_t> shape, perm;
  } cases[] = {{{3, 5, 7}, {2, 0, 1}},
               {{3, 5, 7}, {1, 0, 2}},
               {{2, 3}, {1, 0}},
               {{2, 3, 1, 5}, {3, 1, 0, 2}},
               {{}, {}}};
  for (const Case &c : cases) {
    Tensor x = gridTensor(DType::BF16, c.shape, 3);
    DLC_ASSERT_OK_AND_GET(out, transpose(x, c.perm));
    std::vector<int64_t> outShape;
    for (int64_t p : c.perm)
      outShape.push_back(c.shape[p]);
    Tensor e = Tensor::zeros(DType::BF16, outShape);
    for (int64_t f = 0; f < x.numElements(); ++f) {
      auto xi = unflatten(f, c.shape);
      std::vector<int64_t> oi;
      for (int64_t p : c.perm)
        oi.push_back(xi[p]);
      e.data[flatten(oi, outShape)] = x.data[f];
    }
    expectTensor(out, e);
  }
  DLC_ASSERT_OK_AND_GET(h, transpose(f32({2, 3}, {1, 2, 3, 4, 5, 6}), {1, 0}));
  expectTensor(h, f32({3, 2}, {1, 4, 2, 5, 3, 6}));
  auto err = transpose(Tensor::zeros(DType::F32, {2, 3}), {0, 0});
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.message(),
            "transpose: perm [0,0] is not a permutation of [0, 2)");
}

TEST(ReshapeTest, Basics) {
  Tensor x = gridTensor(DType::I64, {3, 5, 7}, 4);
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{105}, {7, 15}, {1, 3, 35, 1}}) {
    DLC_ASSERT_OK_AND_GET(out, reshape(x, shape));
    EXPECT_EQ(out.shape, shape);
    EXPECT_EQ(out.data, x.data);
  }
  DLC_ASSERT_OK_AND_GET(s, reshape(f32({1, 1}, {4}), {}));
  expectTensor(s, f32({}, {4}));
  auto neg = reshape(x, {-1, 7});
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.message(), "reshape: new shape [-1,7] has a negative dim "
                           "(dynamic dims are not supported)");
  auto n = reshape(x, {10, 10});
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.message(), "reshape: cannot reshape [3,5,7] (105 elements) to "
                         "[10,10] (100 elements)");
}

//===----------------------------------------------------------------------===//
// concat, slice, split
//===----------------------------------------------------------------------===//

TEST(ConcatTest, AgainstNaive) {
  struct Case {
    std::vector<std::vector<int64_t>> shapes;
    int64_t axis;
  } cases[] = {{{{2, 3}, {2, 5}}, 1},
               {{{3, 5, 7}, {1, 5, 7}, {2, 5, 7}}, 0},
               {{{3, 5, 7}, {3, 5, 2}}, -1},
               {{{4, 0, 3}, {4, 2, 3}}, 1}};
  unsigned seed = 10;
  for (const Case &c : cases) {
    std::vector<Tensor> ins;
    for (const auto &s : c.shapes)
      ins.push_back(gridTensor(DType::F32, s, seed++));
    DLC_ASSERT_OK_AND_GET(out, concat(ins, c.axis));
    int64_t axis = c.axis < 0 ? c.axis + int64_t(c.shapes[0].size()) : c.axis;
    // Walk the output; find which input owns each coordinate along axis.
    for (int64_t f = 0; f < out.numElements(); ++f) {
      auto oi = unflatten(f, out.shape);
      int64_t pos = oi[axis];
      size_t k = 0;
      while (pos >= ins[k].shape[axis])
        pos -= ins[k++].shape[axis];
      oi[axis] = pos;
      EXPECT_EQ(out.data[f], ins[k].data[flatten(oi, ins[k].shape)]);
    }
  }
  DLC_ASSERT_OK_AND_GET(h, concat({f32({1, 2}, {1, 2}), f32({1, 1}, {3})}, 1));
  expectTensor(h, f32({1, 3}, {1, 2, 3}));
  auto shp = concat({f32({1, 2}, {1, 2}), f32({2, 1}, {3, 4})}, 1);
  ASSERT_FALSE(shp.ok());
  EXPECT_EQ(shp.message(), "concat: input 1 shape [2,1] does not match input "
                           "0 shape [1,2] outside axis 1");
  auto dt = concat({f32({1}, {1}), i32({1}, {1})}, 0);
  ASSERT_FALSE(dt.ok());
  EXPECT_EQ(dt.message(),
            "concat: input 1 dtype i32 does not match input 0 dtype f32");
}

TEST(SliceTest, AgainstNaive) {
  struct Case {
    std::vector<int64_t> shape, starts, ends, steps;
  } cases[] = {
      {{3, 5, 7}, {1, 0, 2}, {3, 5, 7}, {1, 2, 3}},
      {{3, 5, 7}, {0, 4, 0}, {3, 2, 7}, {2, 1, 4}}, // end < start: empty.
      {{13}, {3}, {13}, {4}},
      {{2, 9}, {1, 1}, {2, 8}, {5, 3}},
  };
  for (const Case &c : cases) {
    Tensor x = gridTensor(DType::I32, c.shape, 5);
    DLC_ASSERT_OK_AND_GET(out, slice(x, c.starts, c.ends, c.steps));
    std::vector<int64_t> outShape;
    for (size_t d = 0; d < c.shape.size(); ++d) {
      int64_t n = 0;
      for (int64_t i = c.starts[d]; i < c.ends[d]; i += c.steps[d])
        ++n;
      outShape.push_back(n);
    }
    Tensor e = Tensor::zeros(DType::I32, outShape);
    for (int64_t f = 0; f < e.numElements(); ++f) {
      auto oi = unflatten(f, outShape);
      for (size_t d = 0; d < oi.size(); ++d)
        oi[d] = c.starts[d] + oi[d] * c.steps[d];
      e.data[f] = x.data[flatten(oi, c.shape)];
    }
    expectTensor(out, e);
  }
  DLC_ASSERT_OK_AND_GET(h, slice(f32({5}, {0, 1, 2, 3, 4}), {1}, {5}, {2}));
  expectTensor(h, f32({2}, {1, 3}));
  auto step = slice(f32({5}, {0, 1, 2, 3, 4}), {0}, {5}, {0});
  ASSERT_FALSE(step.ok());
  EXPECT_EQ(step.message(), "slice: step 0 of dim 0 must be positive");
  auto range = slice(f32({5}, {0, 1, 2, 3, 4}), {0}, {6}, {1});
  ASSERT_FALSE(range.ok());
  EXPECT_EQ(range.message(),
            "slice: start 0 and end 6 of dim 0 must be in [0, 5]");
}

TEST(SplitTest, Shapes) {
  Tensor x = gridTensor(DType::F32, {3, 5, 7}, 6);
  struct Case {
    int64_t axis;
    std::vector<int64_t> sizes;
  } cases[] = {{1, {2, 3}}, {1, {1, 0, 4}}, {-1, {3, 4}}, {0, {3}}};
  for (const Case &c : cases) {
    DLC_ASSERT_OK_AND_GET(parts, split(x, c.axis, c.sizes));
    ASSERT_EQ(parts.size(), c.sizes.size());
    int64_t axis = c.axis < 0 ? c.axis + 3 : c.axis, offset = 0;
    for (size_t p = 0; p < parts.size(); ++p) {
      std::vector<int64_t> shape = x.shape;
      shape[axis] = c.sizes[p];
      ASSERT_EQ(parts[p].shape, shape);
      for (int64_t f = 0; f < parts[p].numElements(); ++f) {
        auto i = unflatten(f, shape);
        i[axis] += offset;
        EXPECT_EQ(parts[p].data[f], x.data[flatten(i, x.shape)]);
      }
      offset += c.sizes[p];
    }
  }
  auto err = split(x, 1, {2, 2});
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.message(),
            "split: sizes [2,2] sum to 4 but dim 1 of [3,5,7] is 5");
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

TEST(GatherTest, HandWritten) {
  Tensor data = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  DLC_ASSERT_OK_AND_GET(a0, gather(data, i64({2, 2}, {0, 1, 1, 2}), 0));
  expectTensor(a0, f32({2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6}));
  DLC_ASSERT_OK_AND_GET(a1, gather(data, i32({2}, {-1, 0}), 1));
  expectTensor(a1, f32({3, 2}, {2, 1, 4, 3, 6, 5}));
  DLC_ASSERT_OK_AND_GET(sc, gather(data, i64({}, {-3}), 0));
  expectTensor(sc, f32({2}, {1, 2}));
}

TEST(GatherTest, AgainstNaive) {
  struct Case {
    std::vector<int64_t> data, indices;
    int64_t axis;
  } cases[] = {{{3, 5, 7}, {2, 3}, 1},
               {{3, 5, 7}, {4}, -1},
               {{13, 3}, {2, 1, 2}, 0}};
  unsigned seed = 30;
  for (const Case &c : cases) {
    Tensor d = gridTensor(DType::F16, c.data, seed++);
    int64_t axis = c.axis < 0 ? c.axis + int64_t(c.data.size()) : c.axis;
    int64_t dim = c.data[axis];
    Tensor idx = Tensor::zeros(DType::I64, c.indices);
    for (size_t i = 0; i < idx.data.size(); ++i) // Mix of negative indices.
      idx.data[i] = double(int64_t(i * 7 % (2 * dim)) - dim);
    DLC_ASSERT_OK_AND_GET(out, gather(d, idx, c.axis));
    std::vector<int64_t> shape(c.data.begin(), c.data.begin() + axis);
    shape.insert(shape.end(), c.indices.begin(), c.indices.end());
    shape.insert(shape.end(), c.data.begin() + axis + 1, c.data.end());
    ASSERT_EQ(out.shape, shape);
    size_t ir = c.indices.size();
    for (int64_t f = 0; f < out.numElements(); ++f) {
      auto oi = unflatten(f, shape);
      std::vector<int64_t> ii(oi.begin() + axis, oi.begin() + axis + ir);
      int64_t k = int64_t(idx.data[flatten(ii, c.indices)]);
      std::vector<int64_t> di(oi.begin(), oi.begin() + axis);
      di.push_back(k < 0 ? k + dim : k);
      di.insert(di.end(), oi.begin() + axis + ir, oi.end());
      EXPECT_EQ(out.data[f], d.data[flatten(di, c.data)]);
    }
  }
}

TEST(GatherTest, Errors) {
  Tensor data = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  auto hi = gather(data, i64({2}, {0, 3}), 0);
  ASSERT_FALSE(hi.ok());
  EXPECT_EQ(hi.message(),
            "gather: index 3 is out of range [-3, 3) for axis 0 of size 3");
  auto lo = gather(data, i32({1}, {-3}), 1);
  ASSERT_FALSE(lo.ok());
  EXPECT_EQ(lo.message(),
            "gather: index -3 is out of range [-2, 2) for axis 1 of size 2");
  auto ft = gather(data, f32({1}, {0}), 0);
  ASSERT_FALSE(ft.ok());
  EXPECT_EQ(ft.message(), "gather: expected i32 or i64 indices, got f32");
}

//===----------------------------------------------------------------------===//
// cast
//===----------------------------------------------------------------------===//

TEST(CastTest, Conversions) {
  Tensor x = f32({5}, {2.75, -2.75, 3e9, 0.5, -0.0});
  DLC_ASSERT_OK_AND_GET(toI32, cast(x, DType::I32));
  expectTensor(toI32, i32({5}, {2, -2, 3e9 - 4294967296.0, 0, 0}));
  DLC_ASSERT_OK_AND_GET(toI64, cast(x, DType::I64));
  expectTensor(toI64, i64({5}, {2, -2, 3e9, 0, 0}));
  DLC_ASSERT_OK_AND_GET(toI1, cast(x, DType::I1));
  EXPECT_EQ(toI1.data, (std::vector<double>{1, 1, 1, 1, 0}));
  DLC_ASSERT_OK_AND_GET(toF16, cast(f32({3}, {65520, 0.1, 1e-8}), DType::F16));
  EXPECT_EQ(toF16.data[0], kInf);
  EXPECT_EQ(toF16Bits(toF16.data[1]), 0x2E66);
  EXPECT_EQ(toF16.data[2], std::ldexp(1.0, -24) * 0); // 1e-8 < 2^-25.
  DLC_ASSERT_OK_AND_GET(toBF16, cast(f32({1}, {1 + 3.0 / 256}), DType::BF16));
  EXPECT_EQ(toBF16Bits(toBF16.data[0]), 0x3F82);
  DLC_ASSERT_OK_AND_GET(fromI32, cast(i32({2}, {16777217, -3}), DType::F32));
  expectTensor(fromI32, f32({2}, {16777216, -3}));
  DLC_ASSERT_OK_AND_GET(narrow, cast(i64({2}, {4294967297.0, -1}), DType::I32));
  expectTensor(narrow, i32({2}, {1, -1}));
  // Shapes: ragged 3-D and scalar.
  Tensor r = randomTensor(DType::F32, {3, 5, 7}, 8, -100, 100);
  DLC_ASSERT_OK_AND_GET(ri, cast(r, DType::I32));
  for (size_t i = 0; i < r.data.size(); ++i)
    EXPECT_EQ(ri.data[i], double(int(r.data[i]))); // C++ truncation.
  DLC_ASSERT_OK_AND_GET(s, cast(f32({}, {-7.5}), DType::I64));
  expectTensor(s, i64({}, {-7}));
}

TEST(CastTest, Errors) {
  auto n = cast(f32({2}, {1, kNaN}), DType::I32);
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.message(), "cast: cannot cast nan at element 1 to i32");
  auto i = cast(f32({1}, {-kInf}), DType::I64);
  ASSERT_FALSE(i.ok());
  EXPECT_EQ(i.message(), "cast: cannot cast -inf at element 0 to i64");
  auto big = cast(f32({1}, {1e20}), DType::I32);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.message(),
            "cast: value 1e+20 at element 0 is out of range for i64");
}

//===----------------------------------------------------------------------===//
// Robustness: malformed tensors and absurd attributes give errors, not crashes
//===----------------------------------------------------------------------===//

TEST(RobustnessTest, MalformedTensorsAreErrors) {
  Tensor bad = Tensor::zeros(DType::F32, {2, 3});
  bad.data.resize(5);
  Tensor neg = Tensor::zeros(DType::F32, {2});
  neg.shape = {-2, -1};
  Tensor ok = Tensor::zeros(DType::F32, {2, 3});
  Tensor ok4 = Tensor::zeros(DType::F32, {1, 2, 3, 3});
  for (const Tensor *t : {&bad, &neg}) {
    std::vector<Expected<Tensor>> results;
    results.push_back(add(*t, ok));
    results.push_back(relu(*t));
    results.push_back(gelu(*t, true));
    results.push_back(matmul(*t, ok));
    results.push_back(linear(ok, *t));
    results.push_back(linear(ok, Tensor::zeros(DType::F32, {1, 3}), t));
    results.push_back(conv2d(*t, ok4, nullptr, {1, 1}, {0, 0, 0, 0}, {1, 1},
                             1));
    results.push_back(conv2d(ok4, *t, nullptr, {1, 1}, {0, 0, 0, 0}, {1, 1},
                             1));
    results.push_back(max_pool2d(*t, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}));
    results.push_back(avg_pool2d(*t, {1, 1}, {1, 1}, {0, 0, 0, 0}, false));
    results.push_back(global_avg_pool(*t));
    results.push_back(batch_norm(*t, ok, ok, ok, ok, 0));
    results.push_back(layer_norm(*t, ok, nullptr, 0, 0));
    results.push_back(softmax(*t, 0));
    results.push_back(reduce_sum(*t, {}, false));
    results.push_back(transpose(*t, {1, 0}));
    results.push_back(reshape(*t, {6}));
    results.push_back(concat({ok, *t}, 0));
    results.push_back(slice(*t, {0, 0}, {1, 1}, {1, 1}));
    results.push_back(gather(*t, i64({1}, {0}), 0));
    results.push_back(gather(ok, *t, 0));
    results.push_back(cast(*t, DType::I32));
    for (size_t i = 0; i < results.size(); ++i)
      EXPECT_FALSE(results[i].ok()) << "call " << i;
    EXPECT_FALSE(split(*t, 0, {1, 1}).ok());
  }
  EXPECT_FALSE(concat({}, 0).ok());
}

TEST(RobustnessTest, AbsurdAttributesAreErrors) {
  Tensor x = Tensor::zeros(DType::F32, {1, 1, 2, 2});
  Tensor w = Tensor::zeros(DType::F32, {1, 1, 1, 1});
  int64_t huge = int64_t(1) << 40;
  auto p = conv2d(x, w, nullptr, {1, 1}, {huge, 0, 0, 0}, {1, 1}, 1);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.message(), "conv2d: pads must be in [0, 2147483648], got "
                         "1099511627776 for the height");
  auto big = max_pool2d(x, {1, 1}, {1, 1},
                        {1 << 30, 1 << 30, 1 << 30, 1 << 30}, {1, 1});
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.message().rfind("max_pool2d: output shape [1,1,", 0), 0u);
  // Zero-sized inputs with huge other dims must not allocate or loop forever.
  Tensor empty = Tensor::zeros(DType::F32, {huge, 0});
  auto r = reduce_sum(empty, {1}, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "reduce_sum: output shape [1099511627776] is too "
                         "large");
  DLC_ASSERT_OK_AND_GET(r0, reduce_sum(empty, {0}, false));
  EXPECT_EQ(r0.shape, std::vector<int64_t>{0});
  auto mm = matmul(Tensor::zeros(DType::F32, {huge, 1, 0}),
                   Tensor::zeros(DType::F32, {0, huge}));
  ASSERT_FALSE(mm.ok());
  EXPECT_EQ(mm.message().rfind("matmul: output shape", 0), 0u);
  auto sl = slice(empty, {0, 0}, {huge, 0}, {0, 1});
  EXPECT_FALSE(sl.ok());
  auto t = transpose(empty, {1, 0});
  EXPECT_TRUE(t.ok());
}

} // namespace
