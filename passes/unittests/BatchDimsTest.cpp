//===- BatchDimsTest.cpp - the reshape rule of a symbolic batch off dim 0 -===//
//
// reshapeBatchLayout against the elements themselves: on random shapes, a
// random batch layout of the input and random reshapes of it (dims split
// and merged), the layout it gives the result must hold exactly each
// unit's elements (by flat index, which a reshape keeps), and when it
// gives none, no layout of the result may.
//
//===----------------------------------------------------------------------===//

#include "passes/BatchRows.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace dlc;

namespace {

using Shape = std::vector<int64_t>;

/// The unit that owns coordinate c of the batch's dim under `l`.
int64_t unitAt(int64_t c, const BatchLayout &l, int64_t bound) {
  return (c / l.rows) % bound;
}

/// Flat indices of every element of `shape`, grouped by unit under `l`.
std::vector<std::set<int64_t>> unitsOf(const Shape &shape, const BatchLayout &l, int64_t bound) {
  std::vector<std::set<int64_t>> units(bound);
  int64_t inner = 1;
  for (size_t d = l.dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  for (int64_t flat = 0; flat < total; ++flat)
    units[unitAt((flat / inner) % shape[l.dim], l, bound)].insert(flat);
  return units;
}

/// Every layout a dim of `shape` can have for `bound` units.
std::vector<BatchLayout> layoutsOf(const Shape &shape, int64_t bound) {
  std::vector<BatchLayout> all;
  for (int64_t d = 0; d < int64_t(shape.size()); ++d)
    for (int64_t rows = 1; rows <= shape[d]; ++rows)
      if (shape[d] % (rows * bound) == 0)
        all.push_back({d, rows, shape[d] / (rows * bound)});
  return all;
}

/// `shape` with random neighbours merged and random dims split in two.
Shape reshaped(const Shape &shape, std::mt19937 &rng) {
  Shape out = shape;
  for (int step = 0; step < 3; ++step) {
    size_t i = rng() % out.size();
    if (rng() % 2 && i + 1 < out.size()) {
      out[i] *= out[i + 1];
      out.erase(out.begin() + i + 1);
    } else {
      for (int64_t f = 2; f < out[i]; ++f)
        if (out[i] % f == 0 && rng() % 2) {
          out.insert(out.begin() + i + 1, out[i] / f);
          out[i] = f;
          break;
        }
    }
  }
  return out;
}

TEST(BatchDims, ReshapeLayoutHoldsExactlyEachUnit) {
  std::mt19937 rng(23);
  int checked = 0, found = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    int64_t bound = 2 + rng() % 3; // (with one unit every layout holds it)
    Shape from;
    for (int64_t r = 1 + rng() % 3; r > 0; --r)
      from.push_back(1 + rng() % 4);
    size_t d = rng() % from.size();
    int64_t rows = 1 + rng() % 2, outer = 1 + rng() % 2;
    from[d] = outer * bound * rows;
    BatchLayout in{int64_t(d), rows, outer};
    Shape to = reshaped(from, rng);
    std::vector<std::set<int64_t>> expected = unitsOf(from, in, bound);
    std::optional<BatchLayout> got = reshapeBatchLayout(from, to, in, bound);
    ++checked;
    if (got) {
      ++found;
      ASSERT_EQ(to[got->dim], got->outer * bound * got->rows);
      EXPECT_EQ(unitsOf(to, *got, bound), expected)
          << "trial " << trial << ": dim " << got->dim << " rows " << got->rows << " outer "
          << got->outer;
      continue;
    }
    for (const BatchLayout &l : layoutsOf(to, bound))
      EXPECT_NE(unitsOf(to, l, bound), expected)
          << "trial " << trial << ": no layout found, but dim " << l.dim << " rows " << l.rows
          << " outer " << l.outer << " holds each unit";
  }
  EXPECT_EQ(checked, 3000);
  EXPECT_GT(found, 1000); // Most reshapes keep the batch on one dim.
}

} // namespace
