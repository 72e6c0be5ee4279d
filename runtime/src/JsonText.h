//===- JsonText.h - JSON string literals for the runtime's writers --------===//
//
// The trace writer (Profile.cpp) and dlc-run --dump-steps write JSON by hand
// (the runtime has no JSON library); both quote names with this.
//
//===----------------------------------------------------------------------===//

#ifndef DLC_RUNTIME_JSONTEXT_H
#define DLC_RUNTIME_JSONTEXT_H

#include <cstdio>
#include <string>
#include <string_view>

namespace dlc::rt {

/// `text` as a JSON string literal.
inline std::string jsonQuote(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

} // namespace dlc::rt

#endif // DLC_RUNTIME_JSONTEXT_H
