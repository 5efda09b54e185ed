#pragma once
// A stable colour per slice name: the same name gets the same colour in every trace and every run
// (a hash of the name's bytes, not of its StringId). Cached per StringId of the current trace.
#include <QColor>

#include "model/ids.h"

#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

class SliceColors
{
public:
    static QRgb colorForName(std::string_view name);
    // 32-bit FNV-1a of the bytes.
    static uint32_t hashName(std::string_view name);

    // Forget cached colours (call when the trace changes).
    void reset(const Trace *trace);
    QRgb color(StringId name);

private:
    const Trace *m_trace = nullptr;
    std::vector<QRgb> m_cache; // 0 = not computed yet (never a valid colour: alpha is 255)
};

} // namespace lanescope
