//===- DeviceSpec.cpp - built-in profiles and the JSON device spec --------===//

#include "passes/DeviceSpec.h"
#include "passes/TargetBackend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace dlc;
using llvm::Expected;
using llvm::StringRef;

namespace {
llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace

std::string DeviceId::str() const {
  return isCpu() ? "cpu" : kind + ":" + std::to_string(index);
}

Expected<DeviceId> dlc::parseDeviceId(StringRef text) {
  text = text.trim();
  if (text == "cpu")
    return DeviceId{"cpu", 0};
  auto [kind, number] = text.split(':');
  int64_t index;
  if (kind != "cpu" && lookupTargetBackend(kind) && !number.empty() &&
      !number.getAsInteger(10, index) && index >= 0)
    return DeviceId{kind.str(), index};
  return fail("unknown device '" + text + "' (expected " + expectedDeviceSpellings("") + ", N >= 0)");
}

Expected<std::vector<DeviceId>> dlc::parseDeviceList(StringRef text) {
  llvm::SmallVector<StringRef> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  std::vector<DeviceId> ids;
  for (StringRef part : parts) {
    Expected<DeviceId> id = parseDeviceId(part);
    if (!id)
      return id.takeError();
    if (llvm::is_contained(ids, *id))
      return fail("device '" + id->str() + "' is listed twice");
    ids.push_back(*id);
  }
  if (ids.empty())
    return fail("no devices given (expected e.g. cpu,cuda:0)");
  return ids;
}

int DeviceSpec::find(const DeviceId &id) const {
  for (auto [i, device] : llvm::enumerate(devices))
    if (device.id == id)
      return i;
  return -1;
}

std::string DeviceSpec::names() const {
  std::string out;
  for (const DeviceProfile &device : devices)
    out += (out.empty() ? "" : ", ") + device.id.str();
  return out;
}

namespace {
/// The backend of `kind`. parseDeviceId only accepts registered kinds, so a
/// miss is a tool that never registered the built-in backends (the cpu's).
const TargetBackend &backendOf(const std::string &kind) {
  if (const TargetBackend *backend = lookupTargetBackend(kind))
    return *backend;
  llvm::report_fatal_error(llvm::Twine("no target backend registered for device kind '") +
                           kind + "' (call dlc::registerBuiltinTargetBackends)");
}

DeviceProfile builtinProfile(const DeviceId &id, const BuiltinTarget &target) {
  const TargetBackend &backend = backendOf(id.kind);
  DeviceProfile profile = backend.builtinProfile(id.index, target);
  profile.id = id;
  profile.backend = &backend;
  return profile;
}

/// The host's link for a host pair, the kind's peer link for two devices of
/// one kind, and the slower host link between two kinds (through the host).
LinkProfile builtinLink(const DeviceProfile &from, const DeviceProfile &to) {
  if (from.id.isCpu())
    return to.backend->hostLink();
  if (to.id.isCpu())
    return from.backend->hostLink();
  if (from.id.kind == to.id.kind)
    return from.backend->peerLink();
  LinkProfile a = from.backend->hostLink(), b = to.backend->hostLink();
  return a.bandwidthBytesPerS < b.bandwidthBytesPerS ? a : b;
}
} // namespace

DeviceSpec DeviceSpec::builtin(const std::vector<DeviceId> &ids, const BuiltinTarget &target) {
  DeviceSpec spec;
  spec.devices.push_back(builtinProfile(DeviceId{}, target));
  for (const DeviceId &id : ids)
    if (!id.isCpu())
      spec.devices.push_back(builtinProfile(id, target));
  size_t n = spec.devices.size();
  spec.links.assign(n, std::vector<LinkProfile>(n));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      if (i != j)
        spec.links[i][j] = builtinLink(spec.devices[i], spec.devices[j]);
  return spec;
}

Expected<DeviceSpec> DeviceSpec::select(const std::vector<DeviceId> &ids,
                                        StringRef source) const {
  std::vector<int> order;
  int cpu = find(DeviceId{});
  if (cpu < 0)
    return fail(source + ": no cpu device (the function's arguments and results live on it)");
  order.push_back(cpu);
  for (const DeviceId &id : ids) {
    int at = find(id);
    if (at < 0)
      return fail("unknown device '" + id.str() + "': " + source + " has " + names());
    if (at != cpu)
      order.push_back(at);
  }
  DeviceSpec out;
  for (int i : order)
    out.devices.push_back(devices[i]);
  out.links.assign(order.size(), std::vector<LinkProfile>(order.size()));
  for (size_t i = 0; i < order.size(); ++i)
    for (size_t j = 0; j < order.size(); ++j)
      out.links[i][j] = links[order[i]][order[j]];
  return out;
}

//===----------------------------------------------------------------------===//
// JSON (schema in passes/README.md)
//===----------------------------------------------------------------------===//

namespace {

struct JsonReader {
  StringRef source;

  llvm::Error error(const std::string &field, const llvm::Twine &message) {
    return fail(source + ": " + field + ": " + message);
  }

  /// A required non-negative number.
  Expected<double> number(const llvm::json::Object &object, StringRef key,
                          const std::string &where, bool positive) {
    const llvm::json::Value *value = object.get(key);
    std::string field = where + "." + key.str();
    if (!value)
      return error(field, "missing field");
    std::optional<double> number = value->getAsNumber();
    if (!number)
      return error(field, "expected a number");
    if (*number < 0 || (positive && *number == 0) || !std::isfinite(*number))
      return error(field, llvm::Twine("must be ") +
                              (positive ? "positive" : "non-negative") +
                              ", got " + std::to_string(*number));
    return *number;
  }
};

/// A device's optional `kernel_flops` ({kind: FLOP/s > 0}) and `source`
/// (what measured it), and the file it came from.
llvm::Error readProfileExtras(JsonReader &reader, const llvm::json::Object &object,
                              const std::string &where, StringRef file,
                              DeviceProfile &device) {
  if (const llvm::json::Value *value = object.get("kernel_flops")) {
    const llvm::json::Object *rates = value->getAsObject();
    if (!rates)
      return reader.error(where + ".kernel_flops",
                          "expected an object {op kind: f32 FLOP/s}");
    for (const auto &entry : *rates) {
      Expected<double> rate = reader.number(*rates, entry.first, where + ".kernel_flops", true);
      if (!rate)
        return rate.takeError();
      StringRef kind = entry.first;
      kind.consume_front("dlc.");
      device.kernelFlops[kind] = *rate;
    }
  }
  device.specFile = file.str();
  if (const llvm::json::Value *value = object.get("source")) {
    std::optional<StringRef> text = value->getAsString();
    if (!text)
      return reader.error(where + ".source", "expected a string");
    device.source = text->str();
  }
  return llvm::Error::success();
}

} // namespace

Expected<DeviceSpec> DeviceSpec::parseJson(StringRef json, StringRef source) {
  JsonReader reader{source};
  Expected<llvm::json::Value> root = llvm::json::parse(json);
  if (!root)
    return fail(source + ": invalid JSON: " + llvm::toString(root.takeError()));
  const llvm::json::Object *top = root->getAsObject();
  if (!top)
    return fail(source + ": expected a JSON object with 'devices' and 'links'");
  for (const auto &entry : *top)
    if (entry.first != "devices" && entry.first != "links")
      return reader.error(entry.first.str(), "unknown field (expected devices, links)");
  const llvm::json::Array *devices = top->getArray("devices");
  if (!devices)
    return reader.error("devices", top->get("devices") ? "expected an array"
                                                        : "missing field");
  if (devices->empty())
    return reader.error("devices", "no devices");

  DeviceSpec spec;
  static const char *const known[] = {"kind",  "index", "memory_bytes",
                                      "flops", "bandwidth_bytes_per_s",
                                      "launch_overhead_us", "supported_ops",
                                      "kernel_flops", "source"};
  for (auto [i, value] : llvm::enumerate(*devices)) {
    std::string where = "devices[" + std::to_string(i) + "]";
    const llvm::json::Object *object = value.getAsObject();
    if (!object)
      return reader.error(where, "expected an object");
    for (const auto &entry : *object)
      if (!llvm::is_contained(known, entry.first.str()))
        return reader.error(where + "." + entry.first.str(), "unknown field");
    DeviceProfile device;
    std::optional<StringRef> kind = object->getString("kind");
    std::string kinds = llvm::join(registeredTargetKinds(), " or ");
    if (!kind)
      return reader.error(where + ".kind", object->get("kind")
                                               ? "expected a device kind (" + kinds + ")"
                                               : std::string("missing field"));
    device.backend = lookupTargetBackend(*kind);
    if (!device.backend)
      return reader.error(where + ".kind",
                          "unknown device kind '" + *kind + "' (expected " + kinds + ")");
    device.id.kind = kind->str();
    if (const llvm::json::Value *index = object->get("index")) {
      std::optional<int64_t> n = index->getAsInteger();
      if (!n || *n < 0)
        return reader.error(where + ".index", "expected an integer >= 0");
      if (device.id.isCpu() && *n != 0)
        return reader.error(where + ".index", "the cpu takes no index");
      device.id.index = *n;
    } else if (!device.id.isCpu()) {
      return reader.error(where + ".index", "missing field");
    }
    if (spec.find(device.id) >= 0)
      return reader.error(where, "device '" + device.id.str() + "' is listed twice");
    where += " (" + device.id.str() + ")";

    Expected<double> memory = reader.number(*object, "memory_bytes", where, false);
    if (!memory)
      return memory.takeError();
    device.memoryBytes = static_cast<int64_t>(*memory);
    const llvm::json::Object *flops = object->getObject("flops");
    if (!flops)
      return reader.error(where + ".flops", object->get("flops")
                                                ? "expected an object {f32, f16, bf16}"
                                                : "missing field");
    for (const auto &entry : *flops)
      if (entry.first != "f32" && entry.first != "f16" && entry.first != "bf16")
        return reader.error(where + ".flops." + entry.first.str(),
                            "unknown dtype (expected f32, f16, bf16)");
    double *slots[] = {&device.flopsF32, &device.flopsF16, &device.flopsBF16};
    const char *names[] = {"f32", "f16", "bf16"};
    for (int k = 0; k < 3; ++k) {
      Expected<double> rate = reader.number(*flops, names[k], where + ".flops", true);
      if (!rate)
        return rate.takeError();
      *slots[k] = *rate;
    }
    Expected<double> bandwidth =
        reader.number(*object, "bandwidth_bytes_per_s", where, true);
    if (!bandwidth)
      return bandwidth.takeError();
    device.bandwidthBytesPerS = *bandwidth;
    if (object->get("launch_overhead_us")) {
      Expected<double> launch =
          reader.number(*object, "launch_overhead_us", where, false);
      if (!launch)
        return launch.takeError();
      device.launchOverheadUs = *launch;
    }
    if (const llvm::json::Value *ops = object->get("supported_ops")) {
      const llvm::json::Array *list = ops->getAsArray();
      if (!list)
        return reader.error(where + ".supported_ops", "expected an array of op names");
      device.supportedOps.emplace();
      for (const llvm::json::Value &op : *list) {
        std::optional<StringRef> name = op.getAsString();
        if (!name)
          return reader.error(where + ".supported_ops", "expected op names as strings");
        StringRef kind = *name;
        kind.consume_front("dlc.");
        device.supportedOps->insert(kind);
      }
    }
    if (llvm::Error error = readProfileExtras(reader, *object, where, source, device))
      return std::move(error);
    spec.devices.push_back(std::move(device));
  }

  // links: {"bandwidth_bytes_per_s": N x N, "latency_us": N x N}, rows and
  // columns in the order of `devices`; the diagonal is ignored.
  size_t n = spec.devices.size();
  spec.links.assign(n, std::vector<LinkProfile>(n));
  const llvm::json::Object *links = top->getObject("links");
  if (!links) {
    if (n == 1)
      return spec;
    return reader.error("links", top->get("links") ? "expected an object" : "missing field");
  }
  for (const auto &entry : *links)
    if (entry.first != "bandwidth_bytes_per_s" && entry.first != "latency_us")
      return reader.error("links." + entry.first.str(),
                          "unknown field (expected bandwidth_bytes_per_s, latency_us)");
  for (StringRef key : {StringRef("bandwidth_bytes_per_s"), StringRef("latency_us")}) {
    std::string field = "links." + key.str();
    const llvm::json::Array *rows = links->getArray(key);
    if (!rows)
      return reader.error(field, links->get(key) ? "expected an array of rows"
                                                 : "missing field");
    if (rows->size() != n)
      return reader.error(field, "expected " + std::to_string(n) +
                                     " rows (one per device), got " +
                                     std::to_string(rows->size()));
    for (size_t i = 0; i < n; ++i) {
      std::string rowField = field + "[" + std::to_string(i) + "]";
      const llvm::json::Array *row = (*rows)[i].getAsArray();
      if (!row || row->size() != n)
        return reader.error(rowField, "expected " + std::to_string(n) + " numbers");
      for (size_t j = 0; j < n; ++j) {
        std::optional<double> v = (*row)[j].getAsNumber();
        std::string cell = rowField + "[" + std::to_string(j) + "] (" +
                           spec.devices[i].id.str() + " -> " +
                           spec.devices[j].id.str() + ")";
        if (!v || *v < 0 || !std::isfinite(*v))
          return reader.error(cell, "expected a non-negative number");
        if (i == j)
          continue;
        if (key == "bandwidth_bytes_per_s") {
          if (*v == 0)
            return reader.error(cell, "bandwidth must be positive");
          spec.links[i][j].bandwidthBytesPerS = *v;
        } else {
          spec.links[i][j].latencyUs = *v;
        }
      }
    }
  }
  return spec;
}

Expected<DeviceSpec> DeviceSpec::loadJson(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return fail("cannot read device spec '" + path + "': " + buffer.getError().message());
  return parseJson((*buffer)->getBuffer(), path);
}

std::string DeviceSpec::toJson() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, 2);
  auto matrix = [&](llvm::StringRef key, double LinkProfile::*field) {
    json.attributeArray(key, [&] {
      for (size_t i = 0; i < devices.size(); ++i)
        json.array([&] {
          for (size_t j = 0; j < devices.size(); ++j)
            json.value(i == j ? 0.0 : links[i][j].*field);
        });
    });
  };
  json.object([&] {
    json.attributeArray("devices", [&] {
      for (const DeviceProfile &device : devices)
        json.object([&] {
          json.attribute("kind", device.id.kind);
          if (!device.id.isCpu())
            json.attribute("index", device.id.index);
          json.attribute("memory_bytes", device.memoryBytes);
          json.attributeObject("flops", [&] {
            json.attribute("f32", device.flopsF32);
            json.attribute("f16", device.flopsF16);
            json.attribute("bf16", device.flopsBF16);
          });
          json.attribute("bandwidth_bytes_per_s", device.bandwidthBytesPerS);
          json.attribute("launch_overhead_us", device.launchOverheadUs);
          if (!device.kernelFlops.empty())
            json.attributeObject("kernel_flops", [&] {
              std::vector<std::string> kinds;
              for (const auto &entry : device.kernelFlops)
                kinds.push_back(entry.getKey().str());
              llvm::sort(kinds);
              for (const std::string &kind : kinds)
                json.attribute(kind, device.kernelFlops.lookup(kind));
            });
          if (device.supportedOps)
            json.attributeArray("supported_ops", [&] {
              std::vector<std::string> kinds;
              for (const auto &entry : *device.supportedOps)
                kinds.push_back(entry.getKey().str());
              llvm::sort(kinds);
              for (const std::string &kind : kinds)
                json.value(kind);
            });
          if (!device.source.empty())
            json.attribute("source", device.source);
        });
    });
    if (devices.size() > 1)
      json.attributeObject("links", [&] {
        matrix("bandwidth_bytes_per_s", &LinkProfile::bandwidthBytesPerS);
        matrix("latency_us", &LinkProfile::latencyUs);
      });
  });
  os << "\n";
  return text;
}
