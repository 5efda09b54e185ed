#pragma once
// The framing of ntrace.pb, cpu_util.pb and host_mem.pb (docs/ntrace.md): a sequence of records, each a
// 4-byte little-endian length and that many bytes of one protobuf message, to the end of the file
// (no header, no trailer). A length that runs past the end of the file, or 1-3 bytes left after the
// last record, ends the reading with a counted warning naming the file, the byte offset and what was
// expected; the records before it are kept.
#include "model/diagnostics.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

struct NtraceFrame
{
    uint64_t offset = 0; // of the length prefix
    std::string_view message;
    uint64_t messageOffset = 0; // offset + 4
};

class NtraceFrames
{
public:
    static constexpr size_t kPrefixBytes = 4;

    // `file` names the file in warnings; `bytes` must outlive the frames.
    NtraceFrames(std::string_view bytes, std::string file, Diagnostics &diagnostics)
        : m_bytes(bytes), m_file(std::move(file)), m_diagnostics(diagnostics)
    {
    }

    // The next record; false at the end of the file or of its readable part.
    bool next(NtraceFrame &frame);
    uint64_t position() const { return m_pos; }
    bool cut() const { return m_cut; }
    const std::string &file() const { return m_file; }

private:
    std::string_view m_bytes;
    std::string m_file;
    Diagnostics &m_diagnostics;
    uint64_t m_pos = 0;
    bool m_cut = false;
};

} // namespace lanescope
