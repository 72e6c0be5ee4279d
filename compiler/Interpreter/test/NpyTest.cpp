//===- NpyTest.cpp - .npy round trips, hand-made files and bad files ------===//

#include "Interpreter/Npy.h"
#include "TestUtil.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <unistd.h>

using namespace dlc::ref;
using namespace dlc::ref::test;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A unique temp file removed at scope exit.
class TempFile {
public:
  explicit TempFile(const std::string &tag) {
    static int counter = 0;
    path = testing::TempDir() + "dlc_npy_" + std::to_string(getpid()) + "_" +
           std::to_string(counter++) + "_" + tag + ".npy";
  }
  ~TempFile() { std::remove(path.c_str()); }
  void write(const std::string &bytes) const {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  std::string read() const {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)),
                       std::istreambuf_iterator<char>());
  }
  std::string path;
};

/// Builds a .npy file by hand: magic, version, header, raw data.
std::string makeNpy(const std::string &dict, const std::string &data,
                    int major = 1) {
  std::string header = dict;
  size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(major);
  out += char(0);
  size_t len = header.size();
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i)
    out += char((len >> (8 * i)) & 0xff);
  return out + header + data;
}

std::string le(uint64_t v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += char((v >> (8 * i)) & 0xff);
  return s;
}

TEST(NpyTest, RoundTripEveryDType) {
  struct Case {
    DType dtype;
    std::vector<int64_t> shape;
    std::vector<double> values; // Empty: random grid values.
  } cases[] = {
      {DType::F32, {3, 5, 7}, {}},
      {DType::F32, {5}, {0.1, -kInf, kInf, 1e-45, -0.0}},
      {DType::F16,
       {2, 3},
       {65504, -kInf, std::ldexp(1.0, -24), 0.1, -2.5, 1023 * std::ldexp(1.0, -24)}},
      {DType::I32, {4}, {2147483647, -2147483648.0, 0, -1}},
      {DType::I64, {2, 2}, {9007199254740992.0, -9007199254740992.0, 5, -6}},
      {DType::I1, {3, 1}, {1, 0, 1}},
      {DType::F16, {}, {3.5}}, // 0-d
      {DType::I32, {0, 4}, {}},
      {DType::I64, {13, 3}, {}},
      {DType::F64, {3}, {0.1, -kInf, 1e-300}},
      {DType::I8, {3}, {-128, 127, -1}},
      {DType::U8, {3}, {0, 255, 7}},
      {DType::I16, {2}, {-32768, 32767}},
      {DType::U16, {2}, {65535, 1}},
      {DType::U32, {2}, {4294967295.0, 0}},
      {DType::U64, {2}, {18446744073709549568.0, 3}}, // 2^64 - 2^11
  };
  for (const Case &c : cases) {
    Tensor t = c.values.empty() && shapeNumElements(c.shape) > 0
                   ? gridTensor(c.dtype, c.shape, 3)
                   : Tensor::fromValues(c.dtype, c.shape, c.values);
    TempFile f(dtypeName(c.dtype));
    ASSERT_TRUE(writeNpy(f.path, t).ok());
    EXPECT_EQ(f.read().size() % 64, (t.data.size() * storageBytes(c.dtype)) %
                                        64); // Header is 64-byte aligned.
    DLC_ASSERT_OK_AND_GET(back, readNpy(f.path));
    expectTensor(back, t);
  }
}

TEST(NpyTest, NaNRoundTrips) {
  Tensor t = Tensor::fromValues(DType::F16, {2}, {kNaN, 1});
  TempFile f("nan");
  ASSERT_TRUE(writeNpy(f.path, t).ok());
  DLC_ASSERT_OK_AND_GET(back, readNpy(f.path));
  EXPECT_TRUE(std::isnan(back.data[0]));
  EXPECT_EQ(back.data[1], 1);
}

TEST(NpyTest, BF16IsWrittenAsF32) {
  Tensor t = Tensor::fromValues(DType::BF16, {3}, {1 + 3.0 / 256, 0.1, -kInf});
  TempFile f("bf16");
  ASSERT_TRUE(writeNpy(f.path, t).ok());
  EXPECT_NE(f.read().find("'descr': '<f4'"), std::string::npos);
  DLC_ASSERT_OK_AND_GET(back, readNpy(f.path));
  EXPECT_EQ(back.dtype, DType::F32);
  EXPECT_EQ(back.data, t.data); // bf16 values are exact in f32.
}

TEST(NpyTest, HeaderText) {
  auto bytes = encodeNpy(Tensor::zeros(DType::F32, {5}));
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_NE(bytes->find("{'descr': '<f4', 'fortran_order': False, 'shape': "
                        "(5,), }"),
            std::string::npos);
  auto scalar = encodeNpy(Tensor::zeros(DType::I1, {}));
  ASSERT_TRUE(scalar.ok());
  EXPECT_NE(scalar->find("'descr': '|b1'"), std::string::npos);
  EXPECT_NE(scalar->find("'shape': ()"), std::string::npos);
  auto mat = encodeNpy(Tensor::zeros(DType::I64, {2, 3}));
  EXPECT_NE(mat->find("'shape': (2, 3)"), std::string::npos);
}

TEST(NpyTest, ReadsHandMadeFiles) {
  // <f8 is f64; as an f32 input it rounds.
  auto f8 = parseNpy(makeNpy("{'descr': '<f8', 'fortran_order': False, "
                             "'shape': (2,), }",
                             le(0x3FB999999999999AULL, 8) +    // 0.1
                                 le(0x4000000000000000ULL, 8)), // 2.0
                     "f8");
  ASSERT_TRUE(f8.ok()) << f8.message();
  expectTensor(*f8, Tensor::fromValues(DType::F64, {2}, {0.1, 2}));
  expectTensor(convertForInput(*f8, DType::F32),
               Tensor::fromValues(DType::F32, {2}, {double(0.1f), 2}));
  // |u1 is u8; as an i1 input nonzero is 1.
  auto u1 = parseNpy(makeNpy("{'descr': '|u1', 'fortran_order': False, "
                             "'shape': (3,), }",
                             std::string("\x00\x02\x01", 3)),
                     "u1");
  ASSERT_TRUE(u1.ok()) << u1.message();
  expectTensor(*u1, Tensor::fromValues(DType::U8, {3}, {0, 2, 1}));
  expectTensor(convertForInput(*u1, DType::I1), Tensor::fromValues(DType::I1, {3}, {0, 1, 1}));
  // Any other pair is left for the caller to report.
  EXPECT_EQ(convertForInput(*u1, DType::I32).dtype, DType::U8);
  // Version 2.0 and 3.0 headers, double quotes, odd spacing, key order.
  for (int major : {2, 3}) {
    auto v = parseNpy(makeNpy("{\"shape\":(1,2),\"fortran_order\":False,"
                              "\"descr\":\"<i4\"}",
                              le(7, 4) + le(0xFFFFFFFF, 4), major),
                      "v");
    ASSERT_TRUE(v.ok()) << v.message();
    expectTensor(*v, Tensor::fromValues(DType::I32, {1, 2}, {7, -1}));
  }
  // <f2 known bits.
  auto f2 = parseNpy(makeNpy("{'descr': '<f2', 'fortran_order': False, "
                             "'shape': (2, 1), }",
                             le(0x2E66, 2) + le(0x7C00, 2)),
                     "f2");
  ASSERT_TRUE(f2.ok());
  EXPECT_EQ(f2->data[0], fromF16Bits(0x2E66));
  EXPECT_EQ(f2->data[1], kInf);
}

TEST(NpyTest, Errors) {
  auto expectError = [](const std::string &bytes, const std::string &msg) {
    auto r = parseNpy(bytes, "x.npy");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message(), "npy file 'x.npy': " + msg);
  };
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, "
                     "3), }";
  std::string data(24, '\0');
  expectError("hello world", "bad magic (not a .npy file)");
  expectError("", "bad magic (not a .npy file)");
  expectError(makeNpy("{'descr': '>f4', 'fortran_order': False, 'shape': "
                      "(2, 3), }",
                      data),
              "unsupported dtype '>f4' (expected <f4, <f2, <f8, <i4, <i8, "
              "|b1, |i1, |u1, <i2, <u2, <u4 or <u8)");
  expectError(makeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': "
                      "(2, 3), }",
                      data),
              "fortran_order arrays are not supported (C order only)");
  expectError(makeNpy(dict, data.substr(0, 20)),
              "truncated data: shape [2,3] needs 6 elements of 4 bytes, got "
              "20 data bytes");
  expectError(makeNpy(dict, data + "abcd"),
              "element count mismatch: shape [2,3] has 6 elements (24 bytes) "
              "but the file holds 28 data bytes");
  expectError(makeNpy(dict, data, 4), "unsupported format version 4.0");
  expectError(makeNpy(dict, data).substr(0, 40),
              "truncated header: header length 118 exceeds the file");
  expectError(makeNpy("{'descr': '<f4', 'shape': (2, 3), }", data),
              "header lacks one of 'descr', 'fortran_order', 'shape'");
  expectError(makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(2, -3), }",
                      data),
              "malformed header: expected a non-negative integer dim at "
              "offset 54");
  expectError(makeNpy("{'descr': [('a', '<f4')], 'fortran_order': False, "
                      "'shape': (2,), }",
                      data),
              "unsupported dtype descr (only simple little-endian types are "
              "supported)");
  expectError(makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(3000000000, 3000000000), }",
                      data),
              "truncated data: shape [3000000000,3000000000] needs "
              "9000000000000000000 elements of 4 bytes, got 24 data bytes");
  expectError(makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': "
                      "(9999999999, 9999999999, 9999999999), }",
                      data),
              "shape [9999999999,9999999999,9999999999] has too many "
              "elements");
}

TEST(NpyTest, FileErrors) {
  auto missing = readNpy("/nonexistent/dir/a.npy");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(),
            "npy file '/nonexistent/dir/a.npy': cannot open file");
  TempFile f("garbage");
  f.write("\x93NUMPY\x01");
  auto shortFile = readNpy(f.path);
  ASSERT_FALSE(shortFile.ok());
  EXPECT_EQ(shortFile.message(),
            "npy file '" + f.path + "': bad magic (not a .npy file)");
  Status w = writeNpy("/nonexistent/dir/b.npy", Tensor::zeros(DType::F32, {1}));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.message(),
            "npy file '/nonexistent/dir/b.npy': cannot open for writing");
  Tensor bad = Tensor::zeros(DType::F32, {2});
  bad.data.push_back(1);
  Status b = writeNpy(f.path, bad);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.message(), "npy file '" + f.path +
                             "': npy: cannot encode: tensor of shape [2] "
                             "expects 2 elements but holds 3");
}

TEST(NpyTest, GarbageNeverCrashes) {
  auto good = encodeNpy(gridTensor(DType::F32, {3, 5, 7}, 1));
  ASSERT_TRUE(good.ok());
  std::mt19937 rng(5);
  int okCount = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string bytes = *good;
    switch (iter % 3) {
    case 0: // Flip a few bytes, mostly in the header.
      for (int k = 0; k < 3; ++k)
        bytes[rng() % (iter % 2 ? 128 : bytes.size())] = char(rng());
      break;
    case 1: // Truncate anywhere.
      bytes.resize(rng() % bytes.size());
      break;
    default: // Pure noise, sometimes with a valid magic.
      bytes.assign(rng() % 300, '\0');
      for (char &c : bytes)
        c = char(rng());
      if (iter % 2 && bytes.size() > 10)
        bytes.replace(0, 8, std::string("\x93NUMPY\x01\x00", 8));
    }
    auto r = parseNpy(bytes, "fuzz");
    if (r.ok()) {
      ++okCount;
      EXPECT_TRUE(r->validate().ok());
    } else {
      EXPECT_EQ(r.message().rfind("npy file 'fuzz': ", 0), 0u);
    }
  }
  EXPECT_LT(okCount, 3000);
}

} // namespace
