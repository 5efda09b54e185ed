#pragma once
// A stable colour per slice name: the same name gets the same colour in every trace and every run
// (a hash of the name's bytes, not of its StringId). Cached per StringId of the current trace.
// Colour by operator (View menu): a NeuronCore instruction takes the colour of its HLO op (its
// "hlo_op" arg, model/hierarchynames.h), the same colour as the op's slice on the "HLO ops" lane; an
// instruction of no op is grey; every other slice keeps its own colour.
// Collectives are a class of their own: NCCL / RCCL kernels (CollectiveTable::kindOfKernel) and the
// host's "nccl:*" ops take a vivid red per collective kind from a hue band no other name gets
// ([kReservedFrom, 360) and [0, kReservedTo)), so communication stands out on every lane.
#include <QColor>

#include "model/ids.h"

#include <string_view>
#include <vector>

namespace lanescope {

class Trace;

class SliceColors
{
public:
    // The colour of a name: its collective kind's, else the stable per-name colour.
    static QRgb colorForName(std::string_view name);
    // A collective kind's colour ("allreduce", "allgather", ...; any other kind gets the default one).
    static QRgb collectiveColor(std::string_view kind);
    static constexpr int kReservedFrom = 335, kReservedTo = 12; // hues (degrees) only collectives get
    // 32-bit FNV-1a of the bytes.
    static uint32_t hashName(std::string_view name);

    // Forget cached colours (call when the trace changes).
    void reset(const Trace *trace);
    QRgb color(StringId name);

    void setByOperator(bool on) { m_byOperator = on; }
    bool byOperator() const { return m_byOperator; }
    // The colour of slice `slice` whose own colour key is `name`: by operator when that is on.
    QRgb colorOf(uint32_t slice, StringId name);
    static constexpr QRgb kNoOperator = 0xff9a9a9au;

private:
    void buildOperators();

    const Trace *m_trace = nullptr;
    std::vector<QRgb> m_cache; // 0 = not computed yet (never a valid colour: alpha is 255)
    bool m_byOperator = false;
    bool m_operatorsBuilt = false;
    std::vector<uint32_t> m_operatorOf; // per slice: 0 none, kNoOp an instruction of no op, else op StringId + 1
    static constexpr uint32_t kNoOp = 0xffffffffu;
};

} // namespace lanescope
