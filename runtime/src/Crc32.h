//===- Crc32.h - zlib's CRC-32 of a segment -------------------------------===//
//
// Artifact segments carry zlib's CRC-32. The runtime uses zlib's own (fast,
// carry-less multiply where the CPU has it) when it is built with zlib, and
// a portable slicing-by-8 one otherwise: a cross-built runtime (AArch64) has
// no zlib of its architecture to link. Both give the same values (tested).
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_CRC32_H
#define DLC_RUNTIME_CRC32_H

#include <cstddef>
#include <cstdint>

namespace dlc::rt {

/// zlib's crc32(0, data, size), by zlib where the runtime has it.
uint32_t crc32(const uint8_t *data, size_t size);
/// The same value without zlib (slicing-by-8).
uint32_t crc32Portable(const uint8_t *data, size_t size);

} // namespace dlc::rt

#endif // DLC_RUNTIME_CRC32_H
