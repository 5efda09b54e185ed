#include "slicecolors.h"

#include "analysis/collectivetable.h"
#include "model/hierarchynames.h"
#include "model/trace.h"

namespace lanescope {

uint32_t SliceColors::hashName(std::string_view name)
{
    uint32_t h = 2166136261u;
    for (char c : name) {
        h ^= uint8_t(c);
        h *= 16777619u;
    }
    return h;
}

QRgb SliceColors::collectiveColor(std::string_view kind)
{
    struct KindHue
    {
        std::string_view kind;
        int hue;
    };
    // All inside the reserved band [kReservedFrom, 360) + [0, kReservedTo): red to crimson.
    static constexpr KindHue hues[] = {{"allreduce", 354}, {"reduce_scatter", 344}, {"reduce", 348}, {"allgather", 2},
                                       {"alltoall", 339},  {"broadcast", 7},        {"sendrecv", 350}, {"send", 350},
                                       {"recv", 350}};
    int hue = 357;
    for (const KindHue &h : hues)
        if (h.kind == kind)
            hue = h.hue;
    return QColor::fromHsl(hue, 240, 135).rgb();
}

QRgb SliceColors::colorForName(std::string_view name)
{
    std::string kind = CollectiveTable::kindOfKernel(name);
    if (kind.empty() && name.starts_with("nccl:"))
        kind = CollectiveTable::normalizeKind(name.substr(5));
    if (!kind.empty())
        return collectiveColor(kind);
    const uint32_t h = hashName(name);
    // Final avalanche so that names differing in the last character still land far apart.
    uint32_t x = h;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    // any hue but the band reserved for collectives, 3 degrees off its edges (8-bit RGB moves a hue
    // by a degree or two)
    const int hue = kReservedTo + 3 + int(x % uint32_t(kReservedFrom - kReservedTo - 6));
    const int saturation = 110 + int((x >> 9) % 80u); // 110..189 of 255
    const int lightness = 150 + int((x >> 17) % 40u); // 150..189 of 255: dark text stays readable
    return QColor::fromHsl(hue, saturation, lightness).rgb();
}

void SliceColors::reset(const Trace *trace)
{
    m_trace = trace;
    m_cache.assign(trace ? trace->strings().size() : 0, 0);
    m_operatorsBuilt = false;
    m_operatorOf.clear();
}

void SliceColors::buildOperators()
{
    m_operatorsBuilt = true;
    m_operatorOf.clear();
    if (!m_trace)
        return;
    const StringId key = m_trace->strings().find(HierarchyNames::kHlo.arg);
    const StringId instruction = m_trace->strings().find("instruction");
    if (!key.isValid() || !instruction.isValid())
        return; // no instruction carries an op: nothing changes
    const auto all = m_trace->allSlices();
    m_operatorOf.assign(all.size(), 0);
    for (size_t i = 0; i < all.size(); ++i) {
        const Slice &s = all[i];
        if (s.category != instruction)
            continue;
        m_operatorOf[i] = kNoOp;
        if (!s.args.isValid())
            continue;
        for (const Arg &a : m_trace->args().args(s.args))
            if (a.key == key && a.type == ArgType::String) {
                m_operatorOf[i] = a.stringValue().value + 1u;
                break;
            }
    }
}

QRgb SliceColors::colorOf(uint32_t slice, StringId name)
{
    if (m_byOperator) {
        if (!m_operatorsBuilt)
            buildOperators();
        if (slice < m_operatorOf.size() && m_operatorOf[slice] != 0)
            return m_operatorOf[slice] == kNoOp ? kNoOperator : color(StringId(m_operatorOf[slice] - 1u));
    }
    return color(name);
}

QRgb SliceColors::color(StringId name)
{
    if (!m_trace || !name.isValid() || name.value >= m_cache.size())
        return colorForName({});
    QRgb &c = m_cache[name.value];
    if (c == 0)
        c = colorForName(m_trace->str(name));
    return c;
}

} // namespace lanescope
