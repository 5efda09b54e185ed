#include "opcodenametable.h"

#include <algorithm>

namespace lanescope {

namespace {

std::string fileNameOf(std::string_view path)
{
    const size_t slash = path.find_last_of("/\\");
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

const std::string *reported(const NtffProfile &p, std::string_view key)
{
    for (const auto &[k, v] : p.reportedMetadata)
        if (k == key)
            return &v;
    return nullptr;
}

bool uuidKnown(const std::string &uuid)
{
    return uuid.size() == 32 && uuid.find_first_not_of('0') != std::string::npos;
}

} // namespace

OpcodeNameTable OpcodeNameTable::learn(const NtffProfile &ntff, const NtffProfile &json, const std::string &ntffFileName,
                                       std::string *whyNot)
{
    OpcodeNameTable t;
    const auto fail = [&](std::string why) {
        if (whyNot)
            *whyNot = std::move(why);
        return OpcodeNameTable{};
    };
    if (uuidKnown(ntff.uuid) && uuidKnown(json.uuid)) {
        if (ntff.uuid != json.uuid)
            return fail("another program: NEFF uuid " + json.uuid + ", the NTFF's is " + ntff.uuid);
    } else {
        const std::string *recorded = reported(json, "neuron_profile.profile_info.ntff_filename");
        if (!recorded || ntffFileName.empty() || fileNameOf(*recorded) != fileNameOf(ntffFileName))
            return fail("no NEFF uuid on both sides and profile_info.ntff_filename does not name " +
                        (ntffFileName.empty() ? std::string("the NTFF") : fileNameOf(ntffFileName)));
    }
    size_t outside = 0;
    for (const NtffInstructionRow &r : json.instructions) {
        const NtffProgram *program = ntff.program(r.engine, r.core); // each physical core runs its own program
        if (!program || r.pc >= program->opcodes.size()) {
            ++outside;
            continue;
        }
        const uint8_t byte = program->opcodes[r.pc];
        const std::string_view name = json.opcodeName(r);
        ++t.m_compared;
        if (ntffOpcodeKnown(byte))
            ++(ntffOpcodeName(byte) == name ? t.m_agreeing : t.m_disagreeing);
        if (t.m_conflict[byte] || name.empty())
            continue;
        if (t.m_names[byte].empty()) {
            t.m_names[byte] = std::string(name);
        } else if (t.m_names[byte] != name) {
            t.m_conflict[byte] = true;
            t.m_names[byte].clear();
        }
    }
    if (outside)
        return fail("not the same instruction stream: " + std::to_string(outside) + " of " +
                    std::to_string(json.instructions.size()) + " rows have a pc outside the NTFF's programs");
    if (t.m_compared == 0)
        return fail("no instruction rows to compare");
    const size_t both = t.m_agreeing + t.m_disagreeing;
    if (both && double(t.m_disagreeing) > kMaxDisagreement * double(both))
        return fail("not the same instruction stream: " + std::to_string(t.m_disagreeing) + " of " +
                    std::to_string(both) + " rows name their opcode differently");
    for (size_t b = 0; b < 256; ++b) {
        t.m_named += !t.m_names[b].empty();
        t.m_conflicts += t.m_conflict[b];
    }
    return t;
}

std::vector<uint8_t> OpcodeNameTable::newNames() const
{
    std::vector<uint8_t> out;
    for (size_t b = 0; b < 256; ++b)
        if (!m_names[b].empty() && !ntffOpcodeKnown(uint8_t(b)))
            out.push_back(uint8_t(b));
    return out;
}

size_t OpcodeNameTable::apply(NtffProfile &ntff) const
{
    std::array<uint16_t, 256> extra{}; // byte -> extraOpcode value (index + 1), 0 = none yet
    size_t renamed = 0;
    for (NtffInstructionRow &r : ntff.instructions) {
        if (r.extraOpcode || ntffOpcodeKnown(r.opcode) || m_names[r.opcode].empty())
            continue;
        uint16_t &code = extra[r.opcode];
        if (!code) {
            const auto &names = ntff.extraOpcodeNames;
            const auto it = std::find(names.begin(), names.end(), m_names[r.opcode]);
            if (it == names.end()) {
                if (names.size() >= 0xffff)
                    continue;
                ntff.extraOpcodeNames.push_back(m_names[r.opcode]);
                code = uint16_t(ntff.extraOpcodeNames.size());
            } else {
                code = uint16_t(it - names.begin() + 1);
            }
        }
        r.extraOpcode = code;
        ++renamed;
    }
    return renamed;
}

} // namespace lanescope
