//===- ArtifactWriter.cpp - writes .dlcm artifacts ------------------------===//

#include "ArtifactWriter.h"

#include <zlib.h>

#include <algorithm>

namespace fb = dlc::artifact;
using namespace dlc::artifact_writer;

int64_t dlc::artifact_writer::dtypeSize(DType dtype) {
  // The runtime's own table: the writer and the reader cannot disagree.
  return static_cast<int64_t>(dlc_dtype_size(static_cast<dlc_dtype_t>(dtype)));
}

const char *dlc::artifact_writer::dtypeName(DType dtype) {
  return dlc_dtype_name(static_cast<dlc_dtype_t>(dtype));
}

static constexpr uint64_t kSegmentAlignment = 64;

static uint64_t alignUp(uint64_t value) {
  return (value + kSegmentAlignment - 1) / kSegmentAlignment * kSegmentAlignment;
}

static std::vector<uint64_t> segmentOffsets(const Contents &contents,
                                            uint64_t flatBufferEnd) {
  std::vector<uint64_t> offsets;
  uint64_t offset = alignUp(flatBufferEnd);
  for (const Segment &segment : contents.segments) {
    offsets.push_back(offset);
    offset = alignUp(offset + segment.contents().size());
  }
  return offsets;
}

// 0.6's vectors, absent (a null offset) when empty.
static flatbuffers::Offset<flatbuffers::Vector<int64_t>>
optionalVector(flatbuffers::FlatBufferBuilder &fbb, const std::vector<int64_t> &v) {
  return v.empty() ? 0 : fbb.CreateVector(v);
}

// A Buffer: the fields of 0.5 in CreateBuffer's order, then those of 0.6
// only when set (an artifact without them keeps 0.5's bytes).
static flatbuffers::Offset<fb::Buffer> buildBuffer(flatbuffers::FlatBufferBuilder &fbb,
                                                   const Buffer &b) {
  uint64_t size = dtypeSize(b.dtype);
  for (int64_t d : b.maxShape.empty() ? b.shape : b.maxShape)
    size *= uint64_t(d);
  // In the order GCC evaluated CreateBuffer's arguments (the last first),
  // which 0.5's bytes have.
  auto maxShape = optionalVector(fbb, b.maxShape);
  flatbuffers::Offset<flatbuffers::Vector<int32_t>> symbolDims;
  if (!b.symbolDims.empty())
    symbolDims = fbb.CreateVector(b.symbolDims);
  auto shape = fbb.CreateVector(b.shape);
  auto name = fbb.CreateString(b.name);
  fb::BufferBuilder builder(fbb);
  builder.add_size(b.size.value_or(size));
  builder.add_offset(b.offset);
  builder.add_view_of(b.viewOf);
  builder.add_constant_segment(b.constantSegment);
  builder.add_device(b.device);
  builder.add_shape(shape);
  builder.add_name(name);
  builder.add_dtype(b.dtype);
  if (b.persistent)
    builder.add_persistent(true);
  if (b.initialSegment >= 0)
    builder.add_initial_segment(b.initialSegment);
  builder.add_max_shape(maxShape);
  if (b.rowsPerUnit)
    builder.add_rows_per_unit(b.rowsPerUnit);
  if (b.unitStride)
    builder.add_unit_stride(b.unitStride);
  if (!b.symbolDims.empty())
    builder.add_symbol_dims(symbolDims);
  return builder.Finish();
}

uint16_t dlc::artifact_writer::lowestMinorVersion(const Contents &contents) {
  bool uses09 = false;
  for (const Buffer &b : contents.buffers)
    uses09 |= !b.symbolDims.empty();
  for (const Kernel &k : contents.kernels)
    uses09 |= k.sized;
  if (uses09)
    return 9;
  bool uses08 = !contents.symbols.empty();
  for (const Buffer &b : contents.buffers)
    uses08 |= b.rowsPerUnit != 0;
  for (const Kernel &k : contents.kernels)
    uses08 |= k.chunkUnits != 0;
  if (uses08)
    return 8;
  bool uses06 = !contents.state.empty();
  for (const Buffer &b : contents.buffers)
    uses06 |= b.persistent || !b.maxShape.empty();
  for (const auto *specs : {&contents.inputs, &contents.outputs})
    for (const TensorSpec &t : *specs)
      uses06 |= !t.maxShape.empty();
  return uses06 ? 6 : 5;
}

// Builds the FlatBuffer given where the segments will be.
static void buildModel(flatbuffers::FlatBufferBuilder &fbb,
                       const Contents &contents,
                       const std::vector<uint64_t> &offsets) {
  auto strings = [&](const std::vector<std::string> &values) {
    std::vector<flatbuffers::Offset<flatbuffers::String>> out;
    for (const std::string &v : values)
      out.push_back(fbb.CreateString(v));
    return fbb.CreateVector(out);
  };

  std::vector<flatbuffers::Offset<fb::Device>> devices;
  for (const Device &d : contents.devices)
    devices.push_back(fb::CreateDevice(fbb, d.kind, d.index, d.arenaSize, d.peakLiveBytes));

  std::vector<flatbuffers::Offset<fb::Segment>> segments;
  for (size_t i = 0; i < contents.segments.size(); ++i) {
    const Segment &segment = contents.segments[i];
    uint32_t crc = segment.crc ? *segment.crc
                               : uint32_t(crc32_z(0L, reinterpret_cast<const Bytef *>(
                                                          segment.contents().data()),
                                                  segment.contents().size()));
    segments.push_back(fb::CreateSegment(fbb, segment.offset.value_or(offsets[i]),
                                         segment.size.value_or(segment.contents().size()), crc));
  }

  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  for (const Buffer &b : contents.buffers)
    buffers.push_back(buildBuffer(fbb, b));

  std::vector<flatbuffers::Offset<fb::Library>> libraries;
  for (const Library &l : contents.libraries)
    libraries.push_back(fb::CreateLibrary(
        fbb, fb::LibraryKind::CpuSharedObject, l.segment,
        fbb.CreateString(l.triple), fbb.CreateString(l.cpu), strings(l.features)));

  std::vector<flatbuffers::Offset<fb::Kernel>> kernels;
  for (const Kernel &k : contents.kernels) {
    flatbuffers::Offset<fb::CudaLaunch> cuda = 0;
    if (k.cuda)
      cuda = fb::CreateCudaLaunch(fbb, k.cuda->module, fbb.CreateString(k.cuda->entry),
                                  fbb.CreateVector(k.cuda->grid),
                                  fbb.CreateVector(k.cuda->block), k.cuda->sharedBytes);
    if (k.chunkSymbol.empty() && !k.chunkUnits && !k.sized) {
      kernels.push_back(fb::CreateKernel(fbb, fbb.CreateString(k.name), k.library,
                                         fbb.CreateString(k.symbol), strings(k.ops), cuda));
      continue;
    }
    // 0.8's chunk body or 0.9's sizing, only when used (older artifacts keep their bytes).
    auto chunk = fbb.CreateString(k.chunkSymbol);
    auto ops = strings(k.ops);
    auto symbol = fbb.CreateString(k.symbol);
    auto name = fbb.CreateString(k.name);
    fb::KernelBuilder builder(fbb);
    if (k.sized)
      builder.add_sized(true);
    builder.add_chunk_min_units(k.chunkMinUnits);
    builder.add_chunk_units(k.chunkUnits);
    builder.add_chunk_symbol(chunk);
    builder.add_cuda(cuda);
    builder.add_ops(ops);
    builder.add_symbol(symbol);
    builder.add_library(k.library);
    builder.add_name(name);
    kernels.push_back(builder.Finish());
  }

  std::vector<flatbuffers::Offset<fb::CudaModule>> cudaModules;
  for (const CudaModule &m : contents.cudaModules) {
    std::vector<flatbuffers::Offset<fb::CudaImage>> images;
    for (const CudaImage &image : m.cubins)
      images.push_back(fb::CreateCudaImage(fbb, fbb.CreateString(image.arch), image.segment));
    cudaModules.push_back(fb::CreateCudaModule(fbb, m.sourceSegment, m.ptxSegment,
                                               fbb.CreateString(m.ptxArch),
                                               fbb.CreateVector(images)));
  }

  std::vector<flatbuffers::Offset<fb::DeviceSchedule>> schedules;
  for (const Schedule &schedule : contents.schedules) {
    std::vector<flatbuffers::Offset<fb::Step>> steps;
    for (const Step &s : schedule.steps)
      steps.push_back(fb::CreateStep(fbb, s.kind,
                                     s.kernel, fbb.CreateVector(s.buffers),
                                     s.event, s.outputCount));
    schedules.push_back(fb::CreateDeviceSchedule(fbb, schedule.device, fbb.CreateVector(steps)));
  }

  auto specs = [&](const std::vector<TensorSpec> &values) {
    std::vector<flatbuffers::Offset<fb::TensorSpec>> out;
    for (const TensorSpec &t : values)
      out.push_back(fb::CreateTensorSpec(
          fbb, fbb.CreateString(t.name), t.dtype,
          fbb.CreateVector(t.shape), t.buffer, t.indexBound, optionalVector(fbb, t.maxShape)));
    return fbb.CreateVector(out);
  };
  auto inputs = specs(contents.inputs);
  auto outputs = specs(contents.outputs);
  auto state = contents.state.empty() ? 0 : specs(contents.state);

  std::vector<flatbuffers::Offset<fb::PlacementEntry>> placement;
  for (const PlacementEntry &p : contents.placement)
    placement.push_back(fb::CreatePlacementEntry(
        fbb, fbb.CreateString(p.op), fbb.CreateString(p.kind), p.device,
        fbb.CreateString(p.reason), p.estimatedUs));

  std::vector<flatbuffers::Offset<fb::Link>> links;
  for (const Link &l : contents.links)
    links.push_back(fb::CreateLink(fbb, l.from, l.to, l.bandwidth, l.latencyUs));

  std::vector<flatbuffers::Offset<fb::Variant>> variants;
  for (const Variant &v : contents.variants)
    variants.push_back(fb::CreateVariant(fbb, v.segment, fbb.CreateString(v.triple),
                                         fbb.CreateString(v.cpu), strings(v.features)));

  std::vector<flatbuffers::Offset<fb::Symbol>> symbols;
  for (const Symbol &sym : contents.symbols)
    symbols.push_back(fb::CreateSymbol(fbb, fbb.CreateString(sym.name), sym.bound));

  auto model = fb::CreateModel(
      fbb, contents.versionMajor, contents.versionMinor,
      fbb.CreateString(contents.producer), fbb.CreateVector(devices),
      fbb.CreateVector(segments), fbb.CreateVector(buffers),
      fbb.CreateVector(libraries), fbb.CreateVector(kernels),
      fbb.CreateVector(schedules), inputs, outputs,
      fbb.CreateVector(placement), contents.eventCount,
      fbb.CreateVector(links),
      contents.cudaModules.empty() ? 0 : fbb.CreateVector(cudaModules), state,
      variants.empty() ? 0 : fbb.CreateVector(variants),
      symbols.empty() ? 0 : fbb.CreateVector(symbols));
  fb::FinishSizePrefixedModelBuffer(fbb, model);
}

std::string dlc::artifact_writer::serialize(const Contents &contents) {
  // The FlatBuffer records the segments' offsets, which depend on its own
  // size: build, place the segments after it, and rebuild until the offsets
  // no longer change (with every field written, the second build is final).
  std::vector<uint64_t> offsets(contents.segments.size(), 0);
  for (;;) {
    flatbuffers::FlatBufferBuilder fbb;
    fbb.ForceDefaults(true);
    buildModel(fbb, contents, offsets);
    std::vector<uint64_t> placed = segmentOffsets(contents, fbb.GetSize());
    if (placed != offsets) {
      offsets = std::move(placed);
      continue;
    }
    std::string bytes;
    bytes.reserve(offsets.empty() ? fbb.GetSize()
                                  : offsets.back() + contents.segments.back().contents().size());
    bytes.assign(reinterpret_cast<const char *>(fbb.GetBufferPointer()), fbb.GetSize());
    for (size_t i = 0; i < contents.segments.size(); ++i) {
      bytes.resize(offsets[i], '\0');
      bytes += contents.segments[i].contents();
    }
    return bytes;
  }
}

// Reads what a variant needs from the artifact's own libraries.
static bool describeTarget(const TargetArtifact &target, Variant &variant, std::string &error) {
  const auto *data = reinterpret_cast<const uint8_t *>(target.bytes.data());
  // The FlatBuffer is the size-prefixed head of the file; segments follow.
  uint64_t flatBufferEnd =
      target.bytes.size() < 12 ? 0 : uint64_t(flatbuffers::ReadScalar<uint32_t>(data)) + 4;
  flatbuffers::Verifier verifier(data, flatBufferEnd);
  if (flatBufferEnd < 12 || flatBufferEnd > target.bytes.size() ||
      !fb::VerifySizePrefixedModelBuffer(verifier)) {
    error = "the artifact for '" + target.cpu + "' is not a dlc artifact";
    return false;
  }
  const fb::Model *model = fb::GetSizePrefixedModel(data);
  if (model->variants() && model->variants()->size()) {
    error = "the artifact for '" + target.cpu + "' is itself a multi-target artifact";
    return false;
  }
  variant.cpu = target.cpu;
  for (const fb::Library *library : *model->libraries()) {
    std::string triple = library->target_triple() ? library->target_triple()->str() : "";
    if (!variant.triple.empty() && triple != variant.triple) {
      error = "the artifact for '" + target.cpu + "' has code for both '" + variant.triple +
              "' and '" + triple + "'";
      return false;
    }
    variant.triple = triple;
    if (library->cpu_features())
      for (const flatbuffers::String *feature : *library->cpu_features())
        if (std::find(variant.features.begin(), variant.features.end(), feature->str()) ==
            variant.features.end())
          variant.features.push_back(feature->str());
  }
  std::sort(variant.features.begin(), variant.features.end());
  return true;
}

std::string dlc::artifact_writer::serializeMultiTarget(const std::vector<TargetArtifact> &targets,
                                                       const std::string &producer,
                                                       std::string &error) {
  Contents contents;
  contents.versionMinor = 7;
  contents.producer = producer;
  for (const TargetArtifact &target : targets) {
    Variant variant;
    if (!describeTarget(target, variant, error))
      return "";
    variant.segment = uint32_t(contents.segments.size());
    contents.variants.push_back(std::move(variant));
    Segment segment;
    segment.borrowed = target.bytes;
    contents.segments.push_back(std::move(segment));
  }
  return serialize(contents);
}
