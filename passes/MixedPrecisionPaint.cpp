//===- MixedPrecisionPaint.cpp - which ops compute in fp16 ------------------===//

#include "passes/MixedPrecisionPaint.h"

#include <algorithm>

using namespace dlc;

std::vector<bool> dlc::paintFp16(PaintMode mode, const std::vector<PaintNode> &nodes) {
  const int n = static_cast<int>(nodes.size());
  std::vector<std::vector<int>> consumers(n);
  for (int i = 0; i < n; ++i)
    for (int p : nodes[i].producers)
      consumers[p].push_back(i);
  // A free node: a candidate without a pin, the only kind that spreads.
  auto is = [&](int i, Fp16Policy policy) {
    return nodes[i].candidate && nodes[i].pin == PrecisionPin::None &&
           nodes[i].policy == policy;
  };
  auto flows = [&](int i) { return is(i, Fp16Policy::Clear) || is(i, Fp16Policy::Infer); };
  auto any = [](const std::vector<int> &list, auto pred) {
    return std::any_of(list.begin(), list.end(), pred);
  };

  std::vector<bool> painted(n), deny(n);
  for (int i = 0; i < n; ++i) {
    if (!nodes[i].candidate)
      continue;
    if (nodes[i].pin == PrecisionPin::Fp16 ||
        (mode == PaintMode::Fp16 && nodes[i].pin == PrecisionPin::None &&
         nodes[i].policy != Fp16Policy::Deny) ||
        (mode == PaintMode::Mixed && is(i, Fp16Policy::Allow)))
      painted[i] = true;
    else if (is(i, Fp16Policy::Deny))
      deny[i] = true;
  }
  if (mode != PaintMode::Mixed)
    return painted;

  // 2. reached: clear/infer nodes downstream of a deny node through
  // clear/infer nodes; its infer nodes are denied, and its clear nodes that
  // lead (through clear nodes of it) to one of those.
  std::vector<bool> reached(n), leads(n);
  for (int i = 0; i < n; ++i)
    reached[i] = flows(i) &&
                 any(nodes[i].producers, [&](int p) { return deny[p] || reached[p]; });
  for (int i = n - 1; i >= 0; --i)
    leads[i] = reached[i] && is(i, Fp16Policy::Clear) &&
               any(consumers[i], [&](int c) {
                 return (reached[c] && is(c, Fp16Policy::Infer)) || leads[c];
               });
  for (int i = 0; i < n; ++i)
    if (reached[i] && (is(i, Fp16Policy::Infer) || leads[i]))
      deny[i] = true;

  // 3. Between painted nodes, through clear/infer nodes not denied.
  auto open = [&](int i) { return flows(i) && !deny[i]; };
  std::vector<bool> after(n), before(n);
  for (int i = 0; i < n; ++i)
    after[i] = open(i) &&
               any(nodes[i].producers, [&](int p) { return painted[p] || after[p]; });
  for (int i = n - 1; i >= 0; --i)
    before[i] = open(i) && any(consumers[i], [&](int c) { return painted[c] || before[c]; });
  for (int i = 0; i < n; ++i)
    if (after[i] && before[i])
      painted[i] = true;

  // 4. Through clear nodes, either direction.
  std::vector<int> work;
  for (int i = 0; i < n; ++i)
    if (painted[i])
      work.push_back(i);
  while (!work.empty()) {
    int i = work.back();
    work.pop_back();
    std::vector<int> next = nodes[i].producers;
    next.insert(next.end(), consumers[i].begin(), consumers[i].end());
    for (int j : next)
      if (is(j, Fp16Policy::Clear) && !deny[j] && !painted[j]) {
        painted[j] = true;
        work.push_back(j);
      }
  }
  return painted;
}
