//===- Crc32.cpp - zlib's CRC-32 of a segment -----------------------------===//

#include "Crc32.h"

#include <array>
#include <cstring>

#ifdef DLC_RUNTIME_HAVE_ZLIB
#include <zlib.h>
#endif

namespace dlc::rt {

namespace {
// Tables of the reflected polynomial 0xEDB88320: table[0] is the classic
// byte-at-a-time one, table[k][b] the CRC of byte b followed by k zeros.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

Tables makeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t c = b;
    for (int i = 0; i < 8; ++i)
      c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    t[0][b] = c;
  }
  for (uint32_t b = 0; b < 256; ++b)
    for (int k = 1; k < 8; ++k)
      t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
  return t;
}
} // namespace

uint32_t crc32Portable(const uint8_t *data, size_t size) {
  static const Tables t = makeTables();
  uint32_t c = 0xffffffffu;
  for (; size >= 8; data += 8, size -= 8) {
    uint32_t lo, hi;
    std::memcpy(&lo, data, 4);
    std::memcpy(&hi, data + 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    lo = __builtin_bswap32(lo);
    hi = __builtin_bswap32(hi);
#endif
    lo ^= c;
    c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
        t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
  }
  for (; size; ++data, --size)
    c = (c >> 8) ^ t[0][(c ^ *data) & 0xff];
  return c ^ 0xffffffffu;
}

uint32_t crc32(const uint8_t *data, size_t size) {
#ifdef DLC_RUNTIME_HAVE_ZLIB
  return uint32_t(crc32_z(0L, data, size));
#else
  return crc32Portable(data, size);
#endif
}

} // namespace dlc::rt
