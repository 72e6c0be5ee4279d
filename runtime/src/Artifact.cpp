//===- Artifact.cpp - loading and verifying .dlcm artifacts ---------------===//
//
// Verification order: size prefix and identifier, the FlatBuffers verifier,
// the version, then the model's own invariants (indices, sizes, segments and
// their CRCs). Every check names the artifact and the thing at fault.
//
//===----------------------------------------------------------------------===//

#include "Artifact.h"
#include "Crc32.h"
#include "Error.h"
#include "FlatUtil.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace dlc::rt {

size_t dtypeSize(fb::DType dtype) {
  switch (dtype) {
  case fb::DType::F32: case fb::DType::I32: case fb::DType::U32: return 4;
  case fb::DType::F16: case fb::DType::BF16: case fb::DType::I16: case fb::DType::U16: return 2;
  case fb::DType::I64: case fb::DType::U64: case fb::DType::F64: return 8;
  case fb::DType::I1: case fb::DType::I8: case fb::DType::U8: return 1;
  }
  return 0;
}

std::string deviceName(const fb::Device &device) {
  if (device.kind() == fb::DeviceKind::Cpu)
    return "cpu";
  return "cuda:" + std::to_string(device.index());
}

namespace {
constexpr size_t kAlign = 64;
// FlatBuffers' own limit on one buffer (FLATBUFFERS_MAX_BUFFER_SIZE).
constexpr uint64_t kMaxFlatBuffer = (uint64_t(1) << 31) - 1;

/// The 4 identifier bytes, printable.
std::string printable(const uint8_t *p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (p[i] >= 0x20 && p[i] < 0x7f) {
      s += char(p[i]);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", p[i]);
      s += hex;
    }
  }
  return s;
}

/// product(shape) * elementSize, false on a negative dim or overflow.
bool byteSize(const flatbuffers::Vector<int64_t> *shape, size_t elementSize,
              uint64_t &out) {
  uint64_t n = elementSize;
  for (uint32_t i = 0; i < count(shape); ++i) {
    int64_t d = shape->Get(i);
    if (d < 0)
      return false;
    if (d != 0 && n > std::numeric_limits<uint64_t>::max() / uint64_t(d))
      return false;
    n *= uint64_t(d);
  }
  out = n;
  return true;
}

std::string shapeString(const flatbuffers::Vector<int64_t> *shape) {
  std::string s = "[";
  for (uint32_t i = 0; i < count(shape); ++i)
    s += (i ? "," : "") + std::to_string(shape->Get(i));
  return s + "]";
}

bool sameShape(const flatbuffers::Vector<int64_t> *a,
               const flatbuffers::Vector<int64_t> *b) {
  if (count(a) != count(b))
    return false;
  for (uint32_t i = 0; i < count(a); ++i)
    if (a->Get(i) != b->Get(i))
      return false;
  return true;
}
} // namespace

dlc_status_t Artifact::allocate(size_t n) {
  // At least one byte: aligned_alloc(64, 0) may return null.
  size_t rounded = (std::max<size_t>(n, 1) + kAlign - 1) / kAlign * kAlign;
  if (rounded < n)
    return Error(DLC_STATUS_OUT_OF_MEMORY)
           << "artifact '" << label << "': " << n << " bytes is too large";
  bytes.reset(static_cast<uint8_t *>(std::aligned_alloc(kAlign, rounded)));
  if (!bytes)
    return Error(DLC_STATUS_OUT_OF_MEMORY)
           << "artifact '" << label << "': cannot allocate " << n << " bytes";
  base = bytes.get();
  size = n;
  return nullptr;
}

dlc_status_t Artifact::loadFile(const std::string &path,
                                std::unique_ptr<Artifact> &out) {
  std::unique_ptr<Artifact> a(new Artifact(path));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Error(errno == ENOENT ? DLC_STATUS_NOT_FOUND
                                 : DLC_STATUS_INVALID_ARGUMENT)
           << "artifact '" << path << "': cannot open: " << std::strerror(errno);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "artifact '" << path << "': not a regular file";
  DLC_RETURN_IF_ERROR(a->allocate(static_cast<size_t>(st.st_size)));
  size_t done = 0;
  while (done < a->size) {
    ssize_t n = ::read(fd, a->bytes.get() + done, a->size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << path << "': read failed after " << done
             << " of " << a->size << " bytes";
    done += static_cast<size_t>(n);
  }
  DLC_RETURN_IF_ERROR(a->verify());
  out = std::move(a);
  return nullptr;
}

dlc_status_t Artifact::loadMemory(const void *data, size_t n,
                                  const std::string &name, bool borrow,
                                  std::unique_ptr<Artifact> &out) {
  std::unique_ptr<Artifact> a(new Artifact(name));
  if (!data && n)
    return Error(DLC_STATUS_INVALID_ARGUMENT)
           << "artifact '" << name << "': null data";
  if (borrow && n) {
    a->base = static_cast<const uint8_t *>(data);
    a->size = n;
  } else {
    DLC_RETURN_IF_ERROR(a->allocate(n));
    if (n)
      std::memcpy(a->bytes.get(), data, n);
  }
  DLC_RETURN_IF_ERROR(a->verify());
  out = std::move(a);
  return nullptr;
}

dlc_status_t Artifact::verify() {
  DLC_RETURN_IF_ERROR(verifyHeader());
  DLC_RETURN_IF_ERROR(verifySegments());
  if (isContainer())
    return verifyVariants();
  DLC_RETURN_IF_ERROR(verifyBuffers());
  DLC_RETURN_IF_ERROR(verifyCode());
  DLC_RETURN_IF_ERROR(verifySchedules());
  DLC_RETURN_IF_ERROR(verifySignature());
  DLC_RETURN_IF_ERROR(verifyState());
  return verifySymbolicBatch();
}

bool Artifact::isContainer() const { return count(root->variants()) > 0; }

// 0.7: a container holds variants and nothing a model has; each variant is a
// whole artifact in a segment of its own (verified when it is loaded).
dlc_status_t Artifact::verifyVariants() {
  const fb::Model &m = *root;
  const char *field = count(m.devices())        ? "devices"
                      : count(m.buffers())      ? "buffers"
                      : count(m.libraries())    ? "libraries"
                      : count(m.kernels())      ? "kernels"
                      : count(m.schedules())    ? "schedules"
                      : count(m.inputs())       ? "inputs"
                      : count(m.outputs())      ? "outputs"
                      : count(m.state())        ? "state"
                      : count(m.cuda_modules()) ? "cuda_modules"
                      : count(m.placement())    ? "placement"
                      : count(m.links())        ? "links"
                      : count(m.symbols())      ? "symbols"
                                                : nullptr;
  if (field || m.event_count())
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "': a multi-target artifact (with variants) has "
           << (field ? field : "events") << " of its own";
  if (m.version_minor() < 7)
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "' has variants but format version 0."
           << m.version_minor() << " (variants are 0.7)";
  for (uint32_t i = 0; i < count(m.variants()); ++i) {
    const fb::Variant &v = *m.variants()->Get(i);
    if (v.segment() >= count(m.segments()))
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': variant " << i << " names segment "
             << v.segment() << " of " << count(m.segments());
    if (str(v.target_cpu()).empty())
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': variant " << i << " has no target_cpu";
    for (uint32_t j = 0; j < i; ++j)
      if (m.variants()->Get(j)->segment() == v.segment())
        return Error(DLC_STATUS_DATA_LOSS)
               << "artifact '" << label << "': variants " << j << " and " << i
               << " share segment " << v.segment();
  }
  return nullptr;
}

dlc_status_t Artifact::verifyHeader() {
  const uint8_t *p = base;
  if (size < 12)
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "': file too small (" << size
           << " bytes) to hold a size-prefixed FlatBuffer with an identifier";
  uint32_t prefix = flatbuffers::ReadScalar<uint32_t>(p);
  if (prefix > size - 4)
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "': FlatBuffer size prefix (" << prefix
           << " bytes) extends past the end of the file (" << size
           << " bytes); the file is truncated";
  if (prefix < 8 || prefix >= kMaxFlatBuffer)
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "': bad FlatBuffer size prefix ("
           << prefix << " bytes)";
  if (!flatbuffers::BufferHasIdentifier(p, fb::ModelIdentifier(), true))
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "': not a dlc artifact: identifier '"
           << printable(p + 8, 4) << "' (expected '" << fb::ModelIdentifier()
           << "')";
  fbEnd = size_t(prefix) + 4;
  flatbuffers::Verifier::Options opts;
  opts.max_depth = 16;         // The schema nests 5 deep.
  opts.max_tables = 1u << 22;  // Millions of steps or buffers is not a model.
  flatbuffers::Verifier verifier(p, fbEnd, opts);
  if (!fb::VerifySizePrefixedModelBuffer(verifier))
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label
           << "': the FlatBuffer failed verification (corrupt or truncated)";
  root = fb::GetSizePrefixedModel(p);
  unsigned major = root->version_major(), minor = root->version_minor();
  if (major != DLC_RUNTIME_VERSION_MAJOR || minor > DLC_RUNTIME_VERSION_MINOR)
    return Error(DLC_STATUS_UNIMPLEMENTED)
           << "artifact '" << label << "' has format version " << major << "."
           << minor << "; this runtime (version " << DLC_RUNTIME_VERSION_MAJOR
           << "." << DLC_RUNTIME_VERSION_MINOR << ") reads versions "
           << DLC_RUNTIME_VERSION_MAJOR << ".0 to " << DLC_RUNTIME_VERSION_MAJOR
           << "." << DLC_RUNTIME_VERSION_MINOR;
  const auto *devices = root->devices();
  for (uint32_t i = 0; i < count(devices); ++i) {
    const fb::Device &d = *devices->Get(i);
    if (d.kind() != fb::DeviceKind::Cpu && d.kind() != fb::DeviceKind::Cuda)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': device " << i
             << " has an unknown kind " << int(d.kind());
    if (d.index() < 0 || (d.kind() == fb::DeviceKind::Cpu && d.index() != 0))
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': device " << i << " has index "
             << d.index() << " (cpu takes 0, cuda:N takes N >= 0)";
    if (d.arena_size() > std::numeric_limits<size_t>::max() / 2)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': device " << i << " ("
             << deviceName(d) << ") has an arena of " << d.arena_size()
             << " bytes";
    for (uint32_t j = 0; j < i; ++j)
      if (devices->Get(j)->kind() == d.kind() &&
          devices->Get(j)->index() == d.index())
        return Error(DLC_STATUS_DATA_LOSS)
               << "artifact '" << label << "': devices " << j << " and " << i
               << " are both " << deviceName(d);
  }
  for (uint32_t i = 0; i < count(root->placement()); ++i)
    if (root->placement()->Get(i)->device() >= count(devices))
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': placement entry " << i
             << " names device " << root->placement()->Get(i)->device()
             << " of " << count(devices);
  const auto *links = root->links();
  for (uint32_t i = 0; i < count(links); ++i) {
    const fb::Link &l = *links->Get(i);
    auto at = [&] {
      std::ostringstream os;
      os << "artifact '" << label << "': link " << i << " (device " << l.from()
         << " to device " << l.to() << ") ";
      return os.str();
    };
    if (l.from() >= count(devices) || l.to() >= count(devices) ||
        l.from() == l.to())
      return Error(DLC_STATUS_DATA_LOSS)
             << at() << "does not join two different devices of "
             << count(devices);
    if (!(l.bandwidth() > 0) || !std::isfinite(l.bandwidth()) ||
        !(l.latency_us() >= 0) || !std::isfinite(l.latency_us()))
      return Error(DLC_STATUS_DATA_LOSS)
             << at() << "has bandwidth " << l.bandwidth() << " B/s and latency "
             << l.latency_us() << " us (expected > 0 and >= 0, finite)";
    for (uint32_t j = 0; j < i; ++j)
      if (links->Get(j)->from() == l.from() && links->Get(j)->to() == l.to())
        return Error(DLC_STATUS_DATA_LOSS) << at() << "repeats link " << j;
  }
  return nullptr;
}

dlc_status_t Artifact::verifySegments() {
  const auto *segments = root->segments();
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < count(segments); ++i) {
    const fb::Segment &s = *segments->Get(i);
    auto at = [&] {
      std::ostringstream os;
      os << "artifact '" << label << "': segment " << i << " (offset "
             << s.offset() << ", " << s.size() << " bytes) ";
      return os.str();
    };
    if (s.offset() % kAlign)
      return Error(DLC_STATUS_DATA_LOSS) << at() << "is not " << kAlign << "-byte aligned";
    if (s.offset() < fbEnd)
      return Error(DLC_STATUS_DATA_LOSS) << at() << "overlaps the FlatBuffer (" << fbEnd << " bytes)";
    if (s.offset() > size || s.size() > size - s.offset())
      return Error(DLC_STATUS_DATA_LOSS) << at() << "extends past the end of the file (" << size
                  << " bytes)";
    order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return segments->Get(a)->offset() < segments->Get(b)->offset();
  });
  for (size_t k = 1; k < order.size(); ++k) {
    const fb::Segment &prev = *segments->Get(order[k - 1]);
    const fb::Segment &next = *segments->Get(order[k]);
    if (prev.offset() + prev.size() > next.offset())
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': segments " << order[k - 1]
             << " and " << order[k] << " overlap";
  }
  for (uint32_t i = 0; i < count(segments); ++i) {
    const fb::Segment &s = *segments->Get(i);
    uint32_t crc = crc32(base + s.offset(), s.size());
    if (crc != s.crc32())
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': segment " << i << " (offset "
             << s.offset() << ", " << s.size() << " bytes) is corrupt: CRC-32 "
             << crc << ", expected " << s.crc32();
  }
  return nullptr;
}

dlc_status_t Artifact::verifyBuffers() {
  const auto *buffers = root->buffers();
  for (uint32_t i = 0; i < count(buffers); ++i) {
    const fb::Buffer &b = *buffers->Get(i);
    auto at = [&] {
      std::ostringstream os;
      os << "artifact '" << label
                                         << "': buffer " << i << " ('"
                                         << str(b.name()) << "') ";
      return os.str();
    };
    DLC_RETURN_IF_ERROR(verifyBufferSize(b, at()));
    if (b.device() >= count(root->devices()))
      return Error(DLC_STATUS_DATA_LOSS) << at() << "is on device " << b.device() << " of "
                  << count(root->devices());
    int32_t seg = b.constant_segment();
    if (seg >= 0) {
      if (uint32_t(seg) >= count(root->segments()))
        return Error(DLC_STATUS_DATA_LOSS) << at() << "names segment " << seg << " of "
                    << count(root->segments());
      if (segmentSize(seg) != b.size())
        return Error(DLC_STATUS_DATA_LOSS) << at() << "is a constant of " << b.size()
                    << " bytes but segment " << seg << " holds "
                    << segmentSize(seg);
    } else if (seg != -1) {
      return Error(DLC_STATUS_DATA_LOSS) << at() << "has constant_segment " << seg << " (expected -1 or a "
                  << "segment index)";
    } else {
      uint64_t arena = root->devices()->Get(b.device())->arena_size();
      if (b.offset() > arena || b.size() > arena - b.offset())
        return Error(DLC_STATUS_DATA_LOSS) << at() << "at [" << b.offset() << ", " << b.offset() + b.size()
                    << ") lies outside the arena of device " << b.device()
                    << " (" << arena << " bytes)";
    }
    // 0.5: a view has exactly the bytes of an earlier buffer that owns them.
    int32_t view = b.view_of();
    if (view != -1) {
      if (view < 0 || uint32_t(view) >= i)
        return Error(DLC_STATUS_DATA_LOSS) << at() << "is a view of buffer " << view
                    << " (expected -1 or an earlier buffer)";
      const fb::Buffer &owner = *buffers->Get(view);
      if (owner.view_of() != -1)
        return Error(DLC_STATUS_DATA_LOSS) << at() << "is a view of buffer " << view
                    << ", which is a view itself (name the buffer owning the bytes)";
      if (owner.device() != b.device() || owner.size() != b.size() ||
          owner.constant_segment() != seg || (seg < 0 && owner.offset() != b.offset()))
        return Error(DLC_STATUS_DATA_LOSS) << at() << "is a view of buffer " << view
                    << " but does not have its bytes (device, offset, size or constant differ)";
    }
    DLC_RETURN_IF_ERROR(verifyPersistent(i, at()));
  }
  return nullptr;
}

// Its element type, and a size that is its shape's (0.6: its max_shape's,
// where a dimension of -1 is known only at run time).
dlc_status_t Artifact::verifyBufferSize(const fb::Buffer &b, const std::string &at) {
  size_t elem = dtypeSize(b.dtype());
  if (!elem)
    return Error(DLC_STATUS_DATA_LOSS) << at << "has an unknown dtype " << int(b.dtype());
  const auto *sized = b.max_shape() ? b.max_shape() : b.shape();
  if (b.max_shape()) {
    bool fits = count(b.max_shape()) == count(b.shape());
    for (uint32_t d = 0; fits && d < count(b.shape()); ++d)
      fits = b.shape()->Get(d) == -1 || b.shape()->Get(d) == b.max_shape()->Get(d);
    if (!fits)
      return Error(DLC_STATUS_DATA_LOSS)
             << at << "has max_shape " << shapeString(b.max_shape()) << " for shape "
             << shapeString(b.shape()) << " (expected the same rank, each dim -1 or equal)";
  }
  uint64_t bytesNeeded;
  if (!byteSize(sized, elem, bytesNeeded))
    return Error(DLC_STATUS_DATA_LOSS) << at << "has an invalid shape " << shapeString(sized)
                                       << " (a negative dim, or too many bytes)";
  if (b.size() != bytesNeeded)
    return Error(DLC_STATUS_DATA_LOSS) << at << "has size " << b.size() << " but its shape "
                                       << shapeString(sized) << " of "
                                       << fb::EnumNameDType(b.dtype()) << " needs " << bytesNeeded;
  return nullptr;
}

// 0.6: a persistent buffer owns arena bytes no other buffer of its device
// shares (its views aside), and its initial value has its size.
dlc_status_t Artifact::verifyPersistent(uint32_t i, const std::string &at) {
  const auto *buffers = root->buffers();
  const fb::Buffer &b = *buffers->Get(i);
  if (!b.persistent() && b.initial_segment() != -1)
    return Error(DLC_STATUS_DATA_LOSS) << at << "has an initial value but is not persistent";
  if (!b.persistent())
    return nullptr;
  if (b.constant_segment() >= 0 || b.view_of() != -1)
    return Error(DLC_STATUS_DATA_LOSS) << at << "is persistent but a constant or a view";
  int32_t seg = b.initial_segment();
  if (seg != -1 && (seg < 0 || uint32_t(seg) >= count(root->segments()) ||
                    segmentSize(seg) != b.size()))
    return Error(DLC_STATUS_DATA_LOSS) << at << "has initial_segment " << seg << " (expected -1 or "
                                       << "a segment of its " << b.size() << " bytes)";
  for (uint32_t j = 0; j < count(buffers); ++j) {
    const fb::Buffer &o = *buffers->Get(j);
    if (j == i || o.device() != b.device() || o.constant_segment() >= 0 ||
        o.view_of() == int32_t(i) || !o.size() || !b.size())
      continue;
    if (o.offset() < b.offset() + b.size() && b.offset() < o.offset() + o.size())
      return Error(DLC_STATUS_DATA_LOSS) << at << "is persistent but buffer " << j << " ('"
                                         << str(o.name()) << "') shares its bytes";
  }
  return nullptr;
}

dlc_status_t Artifact::verifyCode() {
  const auto *libraries = root->libraries();
  for (uint32_t i = 0; i < count(libraries); ++i) {
    const fb::Library &l = *libraries->Get(i);
    if (l.kind() != fb::LibraryKind::CpuSharedObject)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': library " << i
             << " has an unknown kind " << int(l.kind());
    if (l.segment() >= count(root->segments()))
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': library " << i << " names segment "
             << l.segment() << " of " << count(root->segments());
  }
  DLC_RETURN_IF_ERROR(verifyCudaModules());
  const auto *kernels = root->kernels();
  for (uint32_t i = 0; i < count(kernels); ++i) {
    const fb::Kernel &k = *kernels->Get(i);
    auto at = [&] {
      std::ostringstream os;
      os << "artifact '" << label << "': kernel " << i << " ('"
         << str(k.name()) << "') ";
      return os.str();
    };
    // 0.4: GPU-only kernels (cuda, no host code) name no library.
    bool hostCode = !str(k.symbol()).empty();
    if (!hostCode && !k.cuda())
      return Error(DLC_STATUS_DATA_LOSS) << at() << "has no symbol";
    if (hostCode && k.library() >= count(libraries))
      return Error(DLC_STATUS_DATA_LOSS)
             << at() << "names library " << k.library() << " of "
             << count(libraries);
    if (k.cuda())
      DLC_RETURN_IF_ERROR(verifyCudaLaunch(*k.cuda(), at()));
  }
  return nullptr;
}

namespace {
/// "sm_90", "sm_90a", "sm_100f" (prefix "sm_"), "compute_80" ("compute_"):
/// two or three digits, then at most one of the suffixes 'a' and 'f'.
bool wellFormedArch(const std::string &arch, const std::string &prefix) {
  if (arch.compare(0, prefix.size(), prefix) != 0)
    return false;
  size_t i = prefix.size(), digits = 0;
  while (i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])))
    ++i, ++digits;
  if (digits < 2 || digits > 3 || arch[prefix.size()] == '0')
    return false;
  if (i < arch.size() && (arch[i] == 'a' || arch[i] == 'f'))
    ++i;
  return i == arch.size();
}

bool identifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

std::string dims(const flatbuffers::Vector<uint32_t> *v) {
  std::string s = "[";
  for (uint32_t i = 0; i < count(v); ++i)
    s += (i ? "," : "") + std::to_string(v->Get(i));
  return s + "]";
}
} // namespace

dlc_status_t Artifact::verifyCudaModules() {
  const auto *modules = root->cuda_modules();
  uint32_t nseg = count(root->segments());
  for (uint32_t i = 0; i < count(modules); ++i) {
    const fb::CudaModule &m = *modules->Get(i);
    auto at = [&] {
      std::ostringstream os;
      os << "artifact '" << label << "': CUDA module " << i << " ";
      return os.str();
    };
    if (m.source_segment() < -1 || m.source_segment() >= int64_t(nseg))
      return Error(DLC_STATUS_DATA_LOSS)
             << at() << "has source_segment " << m.source_segment()
             << " (expected -1 or a segment index below " << nseg << ")";
    if (m.ptx_segment() >= nseg)
      return Error(DLC_STATUS_DATA_LOSS)
             << at() << "names PTX segment " << m.ptx_segment() << " of " << nseg;
    if (segmentSize(m.ptx_segment()) == 0)
      return Error(DLC_STATUS_DATA_LOSS) << at() << "has an empty PTX segment";
    if (!wellFormedArch(str(m.ptx_arch()), "compute_"))
      return Error(DLC_STATUS_DATA_LOSS)
             << at() << "has ptx_arch '" << str(m.ptx_arch())
             << "' (expected compute_NN, e.g. compute_80)";
    for (uint32_t c = 0; c < count(m.cubins()); ++c) {
      const fb::CudaImage &img = *m.cubins()->Get(c);
      std::string arch = str(img.arch());
      if (!wellFormedArch(arch, "sm_"))
        return Error(DLC_STATUS_DATA_LOSS)
               << at() << "CUBIN " << c << " has arch '" << arch
               << "' (expected sm_NN, e.g. sm_90)";
      if (img.segment() >= nseg || segmentSize(img.segment()) == 0)
        return Error(DLC_STATUS_DATA_LOSS)
               << at() << "CUBIN " << c << " (" << arch << ") names segment "
               << img.segment() << " of " << nseg << ", or an empty one";
      for (uint32_t d = 0; d < c; ++d)
        if (str(m.cubins()->Get(d)->arch()) == arch)
          return Error(DLC_STATUS_DATA_LOSS)
                 << at() << "has two CUBINs for " << arch << " (" << d
                 << " and " << c << ")";
    }
  }
  return nullptr;
}

dlc_status_t Artifact::verifyCudaLaunch(const fb::CudaLaunch &l,
                                        const std::string &at) {
  if (l.module_() >= count(root->cuda_modules()))
    return Error(DLC_STATUS_DATA_LOSS)
           << at << "launches from CUDA module " << l.module_() << " of "
           << count(root->cuda_modules());
  if (!identifier(str(l.entry())))
    return Error(DLC_STATUS_DATA_LOSS)
           << at << "has CUDA entry '" << str(l.entry())
           << "' (expected a C identifier)";
  // The hardware limits of every GPU since compute capability 3.0.
  const auto *g = l.grid(), *b = l.block();
  auto dim = [](const flatbuffers::Vector<uint32_t> *v, uint32_t i) {
    return i < count(v) ? uint64_t(v->Get(i)) : 1;
  };
  bool gridOk = count(g) >= 1 && count(g) <= 3 && dim(g, 0) >= 1 &&
                dim(g, 0) < (uint64_t(1) << 31) && dim(g, 1) >= 1 &&
                dim(g, 1) <= 65535 && dim(g, 2) >= 1 && dim(g, 2) <= 65535;
  if (!gridOk)
    return Error(DLC_STATUS_DATA_LOSS)
           << at << "has CUDA grid " << dims(g)
           << " (expected 1-3 dims, x in [1, 2^31), y and z in [1, 65535])";
  bool blockOk = count(b) >= 1 && count(b) <= 3 && dim(b, 0) >= 1 &&
                 dim(b, 0) <= 1024 && dim(b, 1) >= 1 && dim(b, 1) <= 1024 &&
                 dim(b, 2) >= 1 && dim(b, 2) <= 64 &&
                 dim(b, 0) * dim(b, 1) * dim(b, 2) <= 1024;
  if (!blockOk)
    return Error(DLC_STATUS_DATA_LOSS)
           << at << "has CUDA block " << dims(b)
           << " (expected 1-3 dims, x and y in [1, 1024], z in [1, 64], at "
              "most 1024 threads)";
  if (l.shared_bytes() > kMaxCudaSharedBytes)
    return Error(DLC_STATUS_DATA_LOSS)
           << at << "asks for " << l.shared_bytes()
           << " bytes of shared memory (at most " << kMaxCudaSharedBytes
           << " on any GPU)";
  return nullptr;
}

dlc_status_t Artifact::verifySchedules() {
  std::map<uint32_t, StepRef> recorders; // By event.
  const auto *schedules = root->schedules();
  // Sessions allocate per event: bound the count by what could record them.
  uint64_t steps = 0;
  for (uint32_t s = 0; s < count(schedules); ++s)
    steps += count(schedules->Get(s)->steps());
  if (root->event_count() > steps)
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "': event_count " << root->event_count()
           << " exceeds the number of steps (" << steps
           << "): each event needs a step that records it";
  const auto *buffers = root->buffers();
  std::vector<bool> seen(count(root->devices()));
  for (uint32_t s = 0; s < count(schedules); ++s) {
    const fb::DeviceSchedule &sched = *schedules->Get(s);
    if (sched.device() >= seen.size())
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': schedule " << s << " is for device "
             << sched.device() << " of " << seen.size();
    if (seen[sched.device()])
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': device " << sched.device()
             << " has two schedules";
    seen[sched.device()] = true;
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      auto at = [&] {
        std::ostringstream os;
        os << "artifact '" << label << "': step " << i << " of device "
               << sched.device() << " ";
        return os.str();
      };
      uint32_t nbuf = count(step.buffers());
      for (uint32_t j = 0; j < nbuf; ++j)
        if (step.buffers()->Get(j) >= count(buffers))
          return Error(DLC_STATUS_DATA_LOSS) << at() << "names buffer " << step.buffers()->Get(j) << " of "
                      << count(buffers);
      switch (step.kind()) {
      case fb::StepKind::Call:
        if (step.kernel() >= count(root->kernels()))
          return Error(DLC_STATUS_DATA_LOSS) << at() << "calls kernel " << step.kernel() << " of "
                      << count(root->kernels());
        if (str(root->kernels()->Get(step.kernel())->symbol()).empty() &&
            root->devices()->Get(sched.device())->kind() == fb::DeviceKind::Cpu)
          return Error(DLC_STATUS_DATA_LOSS)
                 << at() << "calls kernel " << step.kernel() << " ('"
                 << str(root->kernels()->Get(step.kernel())->name())
                 << "'), which has only GPU code, on the CPU";
        for (uint32_t j = 0; j < nbuf; ++j) {
          const fb::Buffer &b = *buffers->Get(step.buffers()->Get(j));
          if (b.constant_segment() < 0 && b.device() != sched.device())
            return Error(DLC_STATUS_DATA_LOSS) << at() << "passes buffer " << step.buffers()->Get(j)
                        << " of device " << b.device()
                        << " to a kernel: a kernel sees only its own device";
        }
        if (step.output_count() > nbuf)
          return Error(DLC_STATUS_DATA_LOSS) << at() << "has output_count " << step.output_count()
                      << " but " << nbuf << " buffers";
        for (uint32_t j = nbuf - step.output_count(); j < nbuf; ++j)
          if (buffers->Get(step.buffers()->Get(j))->constant_segment() >= 0)
            return Error(DLC_STATUS_DATA_LOSS) << at() << "writes constant buffer "
                        << step.buffers()->Get(j);
        break;
      case fb::StepKind::Copy: {
        if (nbuf != 2)
          return Error(DLC_STATUS_DATA_LOSS) << at() << "is a copy with " << nbuf
                      << " buffers (expected source and destination)";
        const fb::Buffer &src = *buffers->Get(step.buffers()->Get(0));
        const fb::Buffer &dst = *buffers->Get(step.buffers()->Get(1));
        if (src.size() != dst.size())
          return Error(DLC_STATUS_DATA_LOSS) << at() << "copies " << src.size() << " bytes into a buffer of "
                      << dst.size();
        if (dst.constant_segment() >= 0)
          return Error(DLC_STATUS_DATA_LOSS) << at() << "copies into constant buffer "
                      << step.buffers()->Get(1);
        if (src.device() != sched.device() && dst.device() != sched.device())
          return Error(DLC_STATUS_DATA_LOSS) << at() << "copies from device " << src.device()
                      << " to device " << dst.device()
                      << ": a copy runs on the stream of its source or its destination";
        break;
      }
      case fb::StepKind::RecordEvent:
      case fb::StepKind::WaitEvent:
        if (step.event() >= root->event_count())
          return Error(DLC_STATUS_DATA_LOSS) << at() << "names event " << step.event() << " of "
                      << root->event_count();
        if (step.kind() == fb::StepKind::RecordEvent) {
          auto [it, fresh] = recorders.emplace(step.event(), StepRef{sched.device(), i});
          if (!fresh)
            return Error(DLC_STATUS_DATA_LOSS) << at() << "records event " << step.event()
                        << ", which step " << it->second.step << " of device "
                        << it->second.device << " records too (an event is recorded once per run)";
        }
        break;
      default:
        return Error(DLC_STATUS_DATA_LOSS) << at() << "has an unknown kind " << int(step.kind());
      }
    }
  }
  return verifyEvents(recorders);
}

/// Every waited event is recorded, and the step lists can all finish: runs
/// the lists symbolically, each until it waits for an event not recorded yet,
/// waking the waiters of each event as it is recorded. A list left blocked is
/// a wait nothing satisfies (a cycle of waits, or a record after its own
/// wait on one stream): the run would hang, so the artifact is refused.
dlc_status_t Artifact::verifyEvents(const std::map<uint32_t, StepRef> &recorders) {
  const auto *schedules = root->schedules();
  for (uint32_t s = 0; s < count(schedules); ++s) {
    const fb::DeviceSchedule &sched = *schedules->Get(s);
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      if (step.kind() == fb::StepKind::WaitEvent && !recorders.count(step.event()))
        return Error(DLC_STATUS_DATA_LOSS)
               << "artifact '" << label << "': step " << i << " of device " << sched.device()
               << " waits for event " << step.event() << ", which no step records";
    }
  }
  std::vector<uint32_t> position(count(schedules), 0);
  std::vector<bool> recorded(root->event_count(), false);
  std::vector<std::vector<uint32_t>> waiters(root->event_count());
  std::vector<uint32_t> ready;
  for (uint32_t s = 0; s < count(schedules); ++s)
    ready.push_back(s);
  while (!ready.empty()) {
    uint32_t s = ready.back();
    ready.pop_back();
    const auto *steps = schedules->Get(s)->steps();
    for (uint32_t &i = position[s]; i < count(steps); ++i) {
      const fb::Step &step = *steps->Get(i);
      if (step.kind() == fb::StepKind::WaitEvent && !recorded[step.event()]) {
        waiters[step.event()].push_back(s);
        break;
      }
      if (step.kind() == fb::StepKind::RecordEvent) {
        recorded[step.event()] = true;
        for (uint32_t w : waiters[step.event()])
          ready.push_back(w);
        waiters[step.event()].clear();
      }
    }
  }
  // Some list is blocked. A blocked wait's recorder is never reached, so its
  // list is blocked too: following recorders from any blocked list must
  // come back to a list already seen, which lies on the cycle; report it.
  std::vector<uint32_t> scheduleOf(count(root->devices()), 0);
  for (uint32_t s = 0; s < count(schedules); ++s)
    scheduleOf[schedules->Get(s)->device()] = s;
  auto blockingEvent = [&](uint32_t s) {
    return schedules->Get(s)->steps()->Get(position[s])->event();
  };
  for (uint32_t first = 0; first < count(schedules); ++first) {
    if (position[first] == count(schedules->Get(first)->steps()))
      continue;
    std::vector<bool> seen(count(schedules), false);
    uint32_t s = first;
    while (!seen[s]) {
      seen[s] = true;
      s = scheduleOf[recorders.at(blockingEvent(s)).device];
    }
    uint32_t event = blockingEvent(s);
    const StepRef &r = recorders.at(event);
    return Error(DLC_STATUS_DATA_LOSS)
           << "artifact '" << label << "': the schedule cannot finish: step " << position[s]
           << " of device " << schedules->Get(s)->device() << " waits for event " << event
           << ", recorded by step " << r.step << " of device " << r.device
           << ", which never runs (a cycle of waits, or a record after its wait)";
  }
  return nullptr;
}

dlc_status_t Artifact::verifySignature() {
  for (int pass = 0; pass < 2; ++pass) {
    const char *what = pass ? "output" : "input";
    const auto *specs = pass ? root->outputs() : root->inputs();
    for (uint32_t i = 0; i < count(specs); ++i) {
      const fb::TensorSpec &t = *specs->Get(i);
      auto at = [&] {
        std::ostringstream os;
        os << "artifact '" << label << "': "
                                           << what << " " << i << " ('"
                                           << str(t.name()) << "') ";
        return os.str();
      };
      if (t.buffer() >= count(root->buffers()))
        return Error(DLC_STATUS_DATA_LOSS) << at() << "names buffer " << t.buffer() << " of "
                    << count(root->buffers());
      const fb::Buffer &b = *root->buffers()->Get(t.buffer());
      if (t.dtype() != b.dtype() || !sameShape(t.shape(), b.shape()))
        return Error(DLC_STATUS_DATA_LOSS) << at() << "is declared " << shapeString(t.shape()) << " of dtype "
                    << int(t.dtype()) << " but its buffer is "
                    << shapeString(b.shape()) << " "
                    << fb::EnumNameDType(b.dtype());
      if (!sameShape(t.max_shape(), b.max_shape()))
        return Error(DLC_STATUS_DATA_LOSS) << at() << "has max_shape " << shapeString(t.max_shape())
                                           << " but its buffer " << shapeString(b.max_shape());
      if (t.index_bound() < 0)
        return Error(DLC_STATUS_DATA_LOSS) << at() << "has a negative index_bound " << t.index_bound();
      if (!pass && b.constant_segment() >= 0)
        return Error(DLC_STATUS_DATA_LOSS) << at() << "is a constant buffer";
      if (!pass && b.persistent())
        return Error(DLC_STATUS_DATA_LOSS) << at() << "is a persistent buffer (state is no input)";
      if (b.unit_stride() != 0)
        return Error(DLC_STATUS_DATA_LOSS) << at() << "carries the batch off dim 0 (unit_stride "
                                           << b.unit_stride() << "); inputs and outputs take it on dim 0";
      if (count(b.symbol_dims()))
        return Error(DLC_STATUS_DATA_LOSS) << at() << "has the symbol on several dims "
                                           << "(symbol_dims), which only sized kernels touch";
      for (uint32_t j = 0; j < i; ++j)
        if (str(specs->Get(j)->name()) == str(t.name()))
          return Error(DLC_STATUS_DATA_LOSS) << at() << "has the same name as " << what << " " << j;
    }
  }
  return nullptr;
}

// 0.6: Model.state names every persistent buffer once, as it is.
dlc_status_t Artifact::verifyState() {
  const auto *specs = root->state();
  std::vector<int> namedBy(count(root->buffers()), -1);
  for (uint32_t i = 0; i < count(specs); ++i) {
    const fb::TensorSpec &t = *specs->Get(i);
    std::string at = "artifact '" + label + "': state " + std::to_string(i) + " ('" +
                     str(t.name()) + "') ";
    if (t.buffer() >= count(root->buffers()) || !root->buffers()->Get(t.buffer())->persistent())
      return Error(DLC_STATUS_DATA_LOSS) << at << "names buffer " << t.buffer()
                                         << ", which is no persistent buffer";
    const fb::Buffer &b = *root->buffers()->Get(t.buffer());
    if (t.dtype() != b.dtype() || !sameShape(t.shape(), b.shape()) ||
        !sameShape(t.max_shape(), b.max_shape()))
      return Error(DLC_STATUS_DATA_LOSS) << at << "is declared " << shapeString(t.shape()) << " "
                                         << fb::EnumNameDType(t.dtype()) << " but its buffer is "
                                         << shapeString(b.shape()) << " "
                                         << fb::EnumNameDType(b.dtype());
    if (namedBy[t.buffer()] >= 0)
      return Error(DLC_STATUS_DATA_LOSS) << at << "names the buffer of state " << namedBy[t.buffer()];
    namedBy[t.buffer()] = int(i);
    for (uint32_t j = 0; j < i; ++j)
      if (str(specs->Get(j)->name()) == str(t.name()))
        return Error(DLC_STATUS_DATA_LOSS) << at << "has the same name as state " << j;
  }
  for (uint32_t b = 0; b < count(root->buffers()); ++b)
    if (root->buffers()->Get(b)->persistent() && namedBy[b] < 0)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': buffer " << b << " ('"
             << str(root->buffers()->Get(b)->name()) << "') is persistent but no state names it";
  return nullptr;
}

// 0.8: the symbolic batch (Model.symbols) and the buffers that carry it.
dlc_status_t Artifact::verifySymbolicBatch() {
  const auto *symbols = root->symbols();
  if (count(symbols) > 1)
    return Error(DLC_STATUS_DATA_LOSS) << "artifact '" << label << "' has " << count(symbols)
                                       << " symbols; one (the batch) is all format 0.8 has";
  if (count(symbols)) {
    const fb::Symbol &sym = *symbols->Get(0);
    if (str(sym.name()).empty() || sym.bound() < 1)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': symbol 0 ('" << str(sym.name())
             << "') has bound " << sym.bound() << " (expected a name and a bound >= 1)";
  }
  const auto *buffers = root->buffers();
  for (uint32_t i = 0; i < count(buffers); ++i) {
    const fb::Buffer &b = *buffers->Get(i);
    std::string at = "artifact '" + label + "': buffer " + std::to_string(i) + " ('" +
                     str(b.name()) + "') ";
    if (b.rows_per_unit() != 0)
      DLC_RETURN_IF_ERROR(verifyBatchedBuffer(b, at));
    if (b.view_of() >= 0 &&
        (b.rows_per_unit() != 0) != (buffers->Get(b.view_of())->rows_per_unit() != 0))
      return Error(DLC_STATUS_DATA_LOSS) << at << "is a view of buffer " << b.view_of()
                                         << " but only one of them carries the batch";
  }
  const auto *kernels = root->kernels();
  for (uint32_t k = 0; k < count(kernels); ++k) {
    const fb::Kernel &kernel = *kernels->Get(k);
    if (!kernel.chunk_units() && str(kernel.chunk_symbol()).empty())
      continue;
    int64_t bound = count(symbols) ? symbols->Get(0)->bound() : 0;
    if (kernel.chunk_units() < 2 || int64_t(kernel.chunk_units()) > bound ||
        kernel.chunk_min_units() >= kernel.chunk_units() ||
        str(kernel.chunk_symbol()).empty() || str(kernel.symbol()).empty())
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': kernel " << k << " ('" << str(kernel.name())
             << "') has a chunk body '" << str(kernel.chunk_symbol()) << "' of "
             << kernel.chunk_units() << " units, for tails from " << kernel.chunk_min_units()
             << " (expected a symbol, host code, 2 to the symbolic batch's bound " << bound
             << " units, tails from fewer)";
  }
  DLC_RETURN_IF_ERROR(verifySized());
  return verifyPerUnitSteps();
}

// 0.9: kernels sized at run time, and the buffers only they touch.
dlc_status_t Artifact::verifySized() {
  const auto *buffers = root->buffers();
  int64_t bound = count(root->symbols()) ? root->symbols()->Get(0)->bound() : 0;
  for (uint32_t i = 0; i < count(buffers); ++i) {
    const fb::Buffer &b = *buffers->Get(i);
    if (!count(b.symbol_dims()))
      continue;
    bool ok = bound > 0 && !b.rows_per_unit() && !b.max_shape() && b.constant_segment() < 0 &&
              !b.persistent();
    for (uint32_t j = 0; ok && j < count(b.symbol_dims()); ++j) {
      int32_t d = b.symbol_dims()->Get(j);
      ok = d >= 0 && uint32_t(d) < count(b.shape()) && b.shape()->Get(d) == bound &&
           (j == 0 || d > b.symbol_dims()->Get(j - 1));
    }
    if (!ok)
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': buffer " << i << " ('" << str(b.name())
             << "') has symbol_dims that are not increasing dims of the symbol's bound " << bound
             << " in its static shape " << shapeString(b.shape())
             << ", or is batched, constant or persistent";
  }
  const auto *kernels = root->kernels();
  for (uint32_t k = 0; k < count(kernels); ++k) {
    const fb::Kernel &kernel = *kernels->Get(k);
    if (kernel.sized() && (!bound || str(kernel.symbol()).empty() || kernel.cuda() ||
                           kernel.chunk_units() || !str(kernel.chunk_symbol()).empty()))
      return Error(DLC_STATUS_DATA_LOSS)
             << "artifact '" << label << "': kernel " << k << " ('" << str(kernel.name())
             << "') is sized at run time, which needs a symbol, host code, no GPU launch and "
                "no chunk body";
  }
  for (uint32_t k = 0; k < count(root->schedules()); ++k) {
    const fb::DeviceSchedule &sched = *root->schedules()->Get(k);
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      bool sizedCall = step.kind() == fb::StepKind::Call && step.kernel() < count(kernels) &&
                       kernels->Get(step.kernel())->sized();
      // A copy moves such a buffer whole, into one alike.
      auto dimsOf = [&](uint32_t j) {
        std::vector<int32_t> dims;
        if (const auto *d = buffers->Get(step.buffers()->Get(j))->symbol_dims())
          dims.assign(d->begin(), d->end());
        return dims;
      };
      bool alikeCopy = step.kind() == fb::StepKind::Copy && count(step.buffers()) == 2 &&
                       dimsOf(0) == dimsOf(1);
      for (uint32_t j = 0; !sizedCall && !alikeCopy && j < count(step.buffers()); ++j)
        if (step.buffers()->Get(j) < count(buffers) &&
            count(buffers->Get(step.buffers()->Get(j))->symbol_dims()))
          return Error(DLC_STATUS_DATA_LOSS)
                 << "artifact '" << label << "': step " << i << " of device " << sched.device()
                 << " touches buffer " << step.buffers()->Get(j) << " ('"
                 << str(buffers->Get(step.buffers()->Get(j))->name())
                 << "'), which has the symbol on several dims, but is no sized kernel's Call nor a "
                    "copy into a buffer alike";
    }
  }
  return nullptr;
}

// A batched buffer: dim 0 alone is known at run time, rows_per_unit x the
// bound at most, and the bound divides its bytes into units.
dlc_status_t Artifact::verifyBatchedBuffer(const fb::Buffer &b, const std::string &at) {
  if (!count(root->symbols()))
    return Error(DLC_STATUS_DATA_LOSS) << at << "has rows_per_unit " << b.rows_per_unit()
                                       << " but the artifact has no symbolic batch";
  int64_t bound = root->symbols()->Get(0)->bound();
  const auto *shape = b.shape(), *maxShape = b.max_shape();
  if (b.unit_stride() != 0) {
    // The batch off dim 0: the bound's static shape, units strided within.
    bool fits = b.rows_per_unit() > 0 && !maxShape &&
                b.unit_stride() <= b.size() / uint64_t(bound);
    for (uint32_t d = 0; fits && d < count(shape); ++d)
      fits = shape->Get(d) >= 0;
    if (!fits)
      return Error(DLC_STATUS_DATA_LOSS)
             << at << "has rows_per_unit " << b.rows_per_unit() << " and unit_stride "
             << b.unit_stride() << " with shape " << shapeString(shape) << ", max_shape "
             << shapeString(maxShape) << " and " << b.size()
             << " bytes (expected a static shape and bound x unit_stride bytes at most; the "
                "bound is " << bound << ")";
  } else {
  // The symbol's dim: the first -1 (0.9: after dims of 1 only).
  uint32_t at0 = shape ? uint32_t(symbolDimOf(*shape, count(shape))) : 0;
  bool dims = count(shape) >= 1 && maxShape && count(maxShape) == count(shape) &&
              shape->Get(at0) == -1 && b.rows_per_unit() > 0 &&
              maxShape->Get(at0) / bound == b.rows_per_unit() && maxShape->Get(at0) % bound == 0;
  for (uint32_t d = 0; dims && d < count(shape); ++d)
    dims = d < at0 ? shape->Get(d) == 1 : d == at0 || shape->Get(d) != -1;
  if (!dims)
    return Error(DLC_STATUS_DATA_LOSS)
           << at << "has rows_per_unit " << b.rows_per_unit() << " with shape "
           << shapeString(shape) << " and max_shape " << shapeString(maxShape)
           << " (expected one dim -1, every dim before it 1, at most rows_per_unit x the bound "
           << bound << ")";
  }
  if (b.size() % uint64_t(bound))
    return Error(DLC_STATUS_DATA_LOSS) << at << "has " << b.size()
                                       << " bytes, which the batch's bound " << bound
                                       << " does not divide into units";
  if (b.constant_segment() >= 0 || b.persistent())
    return Error(DLC_STATUS_DATA_LOSS) << at << "carries the batch but is a constant or persistent";
  return nullptr;
}

// A Call with a batched buffer runs once per unit: everything it writes must
// be batched too (else each unit's call would write the same bytes). A Copy
// moves n units: both of its ends carry the batch, or neither.
dlc_status_t Artifact::verifyPerUnitSteps() {
  const auto *buffers = root->buffers();
  auto batched = [&](uint32_t b) { return buffers->Get(b)->rows_per_unit() != 0; };
  for (uint32_t k = 0; k < count(root->schedules()); ++k) {
    const fb::DeviceSchedule &sched = *root->schedules()->Get(k);
    for (uint32_t i = 0; i < count(sched.steps()); ++i) {
      const fb::Step &step = *sched.steps()->Get(i);
      uint32_t n = count(step.buffers());
      std::string at = "artifact '" + label + "': step " + std::to_string(i) + " of device " +
                       std::to_string(sched.device()) + " ";
      if (step.kind() == fb::StepKind::Copy && n == 2 &&
          (batched(step.buffers()->Get(0)) != batched(step.buffers()->Get(1)) ||
           buffers->Get(step.buffers()->Get(0))->unit_stride() !=
               buffers->Get(step.buffers()->Get(1))->unit_stride()))
        return Error(DLC_STATUS_DATA_LOSS) << at << "copies between a batched and an unbatched "
                                                    "buffer, or two batched unlike";
      if (step.kind() != fb::StepKind::Call)
        continue;
      if (step.kernel() < count(root->kernels()) && root->kernels()->Get(step.kernel())->sized())
        continue; // Called once per run.
      bool perUnit = false;
      for (uint32_t j = 0; j < n; ++j)
        perUnit |= batched(step.buffers()->Get(j));
      bool strided = false;
      for (uint32_t j = 0; j < n; ++j)
        strided |= buffers->Get(step.buffers()->Get(j))->unit_stride() != 0;
      if (strided && step.kernel() < count(root->kernels()) &&
          root->kernels()->Get(step.kernel())->cuda())
        return Error(DLC_STATUS_DATA_LOSS)
               << at << "launches GPU code on a buffer whose batch is off dim 0 (unit_stride): "
                  "GPU kernels take contiguous units";
      uint32_t outputs = step.output_count() ? step.output_count() : 1;
      for (uint32_t j = n >= outputs ? n - outputs : 0; perUnit && j < n; ++j)
        if (!batched(step.buffers()->Get(j)))
          return Error(DLC_STATUS_DATA_LOSS)
                 << at << "runs once per unit of the batch but writes buffer "
                 << step.buffers()->Get(j) << " ('" << str(buffers->Get(step.buffers()->Get(j))->name())
                 << "'), which does not carry the batch";
    }
  }
  return nullptr;
}

} // namespace dlc::rt
