#pragma once
// Patching real NTFF files in tests: the payload-section table is protobuf inside the metadata message,
// so a test that wants a hostile or edited section finds the varint of a section field and rewrites it
// in place (tst_ntffreader, tst_hostilebinaries).
#include "io/ntff/ntffprofile.h"
#include "io/ntff/ntffreader.h"
#include "io/protobuf/protobufreader.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lanescope::test {

struct NtffLayout
{
    uint64_t payloadOffset = 0;
    std::vector<NtffSection> sections;
};

inline NtffLayout ntffLayout(const std::string &file)
{
    const NtffProfile p = NtffReader::read(file, "layout.ntff");
    NtffLayout l;
    l.payloadOffset = kNtffMetadataOffset + (uint32_t(uint8_t(file[1])) | uint32_t(uint8_t(file[2])) << 8 |
                                             uint32_t(uint8_t(file[3])) << 16 | uint32_t(uint8_t(file[4])) << 24);
    l.sections = p.sections;
    return l;
}

// File offset and byte length of varint `field` of payload-section descriptor `section`.
inline std::pair<uint64_t, size_t> sectionField(const std::string &file, size_t section, uint32_t field)
{
    const uint32_t n = uint32_t(uint8_t(file[1])) | uint32_t(uint8_t(file[2])) << 8 |
                       uint32_t(uint8_t(file[3])) << 16 | uint32_t(uint8_t(file[4])) << 24;
    const ProtobufReader top(std::string_view(file).substr(kNtffMetadataOffset, n), "patch", kNtffMetadataOffset);
    ProtobufReader r = *top.message(4)->message(4)->message(1);
    ProtobufReader::Field f;
    size_t index = 0;
    while (r.next(f)) {
        if (f.number != 6 || index++ != section)
            continue;
        const auto g = r.nested(f).find(field);
        if (!g)
            return {0, 0};
        size_t len = 1;
        while (uint8_t(file[g->valueOffset + len - 1]) & 0x80)
            ++len;
        return {g->valueOffset, len};
    }
    return {0, 0};
}

// Rewrites a varint in place, keeping its length (non-minimal encodings are valid protobuf).
inline bool patchVarint(std::string &file, std::pair<uint64_t, size_t> at, uint64_t value)
{
    if (at.second == 0 || (at.second < 10 && value >> (7 * at.second)))
        return false;
    for (size_t i = 0; i < at.second; ++i, value >>= 7)
        file[at.first + i] = char((value & 0x7f) | (i + 1 < at.second ? 0x80 : 0));
    return true;
}

} // namespace lanescope::test
