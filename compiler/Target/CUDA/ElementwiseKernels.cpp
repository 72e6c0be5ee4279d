//===- ElementwiseKernels.cpp - elementwise chains -------------------------===//
//
// Grid-stride loops over the largest output; float4 / __half2 vectors where
// every operand is full-size or a scalar.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/CUDA/KernelEmitter.h"

using namespace dlc::cuda::detail;
using namespace dlc;

LogicalResult KernelEmitter::emitElementwise() {
  ArrayRef<int64_t> space;
  for (Value out : outputs)
    if (countOf(shapeOf(out)) > countOf(space) || space.empty()) space = shapeOf(out);
  int64_t n = countOf(space);
  result.kind = "elementwise";
  result.block = {256, 1, 1};
  if (emitVectorised(space)) return success();
  result.grid = gridStrideBlocks(n);
  line("const long long n = " + num(n) + ";");
  open("for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; "
       "i += (long long)gridDim.x * blockDim.x)");
  Coords c = coordsOf("i", space, "c");
  storeOutputs(space, c);
  close();
  return success(!hadError);
}

/// float4 (f32) or two __half2 (f16) per thread when every input is the full
/// shape or a scalar and the element count divides: buffers are 64-byte
/// aligned, so the vectors are too. f16 chains of add/sub/mul/max/min/neg/
/// relu stay in __half2 arithmetic (each lane rounded once per op, as the
/// reference does); others widen each lane to f32.
bool KernelEmitter::emitVectorised(ArrayRef<int64_t> space) {
  int64_t n = countOf(space);
  Type t = elemOf(outputs.front());
  if (n % 4 != 0 || !(t.isF32() || t.isF16())) return false;
  bool half2 = t.isF16();
  SmallVector<Value> full;
  for (Value out : outputs)
    if (shapeOf(out) != space || elemOf(out) != t) return false;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands()) {
      if (elemOf(operand) != t) return false;
      Operation *def = operand.getDefiningOp();
      if (def && inGroup.contains(def)) continue;
      int64_t count = countOf(shapeOf(operand));
      if (count == 1) continue;
      if (shapeOf(operand) != space || !params.count(operand)) return false;
      if (!llvm::is_contained(full, operand)) full.push_back(operand);
    }
    if (!isa<AddOp, SubOp, MulOp, MaxOp, MinOp, NegOp, ReluOp>(op)) half2 = false;
  }
  int64_t vectors = n / 4;
  result.grid = gridStrideBlocks(vectors);
  line(std::string("// vectorised: ") + (t.isF32() ? "float4" : half2 ? "__half2 arithmetic" : "__half2 loads, f32 math") + ", 4 elements per thread");
  line("const long long n = " + num(vectors) + ";");
  open("for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; "
       "i += (long long)gridDim.x * blockDim.x)");
  Coords dummy(space.size(), "i"); // every full-shape operand is overridden
  if (t.isF32()) {
    std::vector<std::string> vecs;
    for (Value v : full) {
      std::string name = "x" + std::to_string(temp++);
      line("const float4 " + name + " = reinterpret_cast<const float4 *>(" + param(v) + ")[i];");
      vecs.push_back(name);
    }
    std::vector<std::string> outs;
    for (size_t k = 0; k < outputs.size(); ++k) {
      outs.push_back("y" + std::to_string(temp++));
      line("float4 " + outs.back() + ";");
    }
    const char *lanes[] = {"x", "y", "z", "w"};
    for (const char *lane : lanes) {
      scoped([&] {
        for (auto [v, name] : llvm::zip(full, vecs)) overrides[v] = name + "." + lane;
        for (auto [out, name] : llvm::zip(outputs, outs))
          line(name + "." + lane + " = " + valueAt(out, dummy) + ";");
      });
    }
    for (auto [out, name] : llvm::zip(outputs, outs))
      line("reinterpret_cast<float4 *>(" + param(out) + ")[i] = " + name + ";");
  } else {
    for (int pair = 0; pair < 2; ++pair) {
      std::string idx = "2 * i + " + std::to_string(pair);
      std::vector<std::string> vecs;
      for (Value v : full) {
        std::string name = "x" + std::to_string(temp++);
        line("const __half2 " + name + " = reinterpret_cast<const __half2 *>(" + param(v) + ")[" + idx + "];");
        vecs.push_back(name);
      }
      if (half2) {
        scoped([&] {
          std::vector<std::pair<Value, std::string>> saved;
          for (auto [v, name] : llvm::zip(full, vecs)) overrides[v] = name;
          // Every op of the chain on __half2 pairs.
          llvm::DenseMap<Value, std::string> h2;
          for (auto [v, name] : llvm::zip(full, vecs)) h2[v] = name;
          std::function<std::string(Value)> at = [&](Value v) -> std::string {
            auto it = h2.find(v);
            if (it != h2.end()) return it->second;
            Operation *op = v.getDefiningOp();
            if (!op || !inGroup.contains(op)) { // a scalar: broadcast it
              std::string s = "__float2half2_rn(" + leafAt(v, Coords(shapeOf(v).size(), "0")) + ")";
              return h2[v] = s;
            }
            SmallVector<std::string> a;
            for (Value o : op->getOperands()) a.push_back(at(o));
            std::string e = llvm::TypeSwitch<Operation *, std::string>(op)
                                .Case([&](AddOp) { return "__hadd2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](SubOp) { return "__hsub2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](MulOp) { return "__hmul2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](MaxOp) { return "__hmax2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](MinOp) { return "__hmin2(" + a[0] + ", " + a[1] + ")"; })
                                .Case([&](NegOp) { return "__hneg2(" + a[0] + ")"; })
                                .Default([&](Operation *) { return "__hmax2(" + a[0] + ", __float2half2_rn(0.0f))"; });
            std::string name = fresh(opNames.lookup(op));
            line("const __half2 " + name + " = " + e + ";  // " + op->getName().getStringRef().str());
            return h2[v] = name;
          };
          for (Value out : outputs)
            line("reinterpret_cast<__half2 *>(" + param(out) + ")[" + idx + "] = " + at(out) + ";");
        });
      } else {
        std::vector<std::string> lanesOut[2];
        for (int lane = 0; lane < 2; ++lane)
          scoped([&] {
            for (auto [v, name] : llvm::zip(full, vecs))
              overrides[v] = std::string(lane ? "__high2float(" : "__low2float(") + name + ")";
            for (Value out : outputs) lanesOut[lane].push_back(valueAt(out, dummy));
          });
        for (auto [k, out] : llvm::enumerate(outputs))
          line("reinterpret_cast<__half2 *>(" + param(out) + ")[" + idx + "] = __floats2half2_rn(" +
               lanesOut[0][k] + ", " + lanesOut[1][k] + ");");
      }
    }
  }
  close();
  overrides.clear();
  return true;
}

