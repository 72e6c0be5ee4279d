//===- ToolSupport.h - helpers shared by the runtime's tools --------------===//

#ifndef DLC_RUNTIME_TOOLS_TOOLSUPPORT_H
#define DLC_RUNTIME_TOOLS_TOOLSUPPORT_H

#include "dlc/runtime.h"

#include <cstdint>
#include <string>

namespace dlc::tools {

/// The .npy descr the tools write each dtype as (bf16: raw bits as <u2).
const char *npyDescr(dlc_dtype_t dtype);
/// "f32 [2,3]".
std::string typeString(const dlc_tensor_info_t &info);
/// Element `i` of `data` (of `dtype`) as text: floats with %g, ints exact.
std::string formatElement(dlc_dtype_t dtype, const void *data, size_t i);
/// Parses a whole decimal number; false on garbage or overflow.
bool parseInt(const std::string &text, int64_t &out);
/// "a/b:c" -> "a_b_c": an output name as a file name.
std::string fileNameFor(const std::string &name, size_t index);

} // namespace dlc::tools

#endif // DLC_RUNTIME_TOOLS_TOOLSUPPORT_H
