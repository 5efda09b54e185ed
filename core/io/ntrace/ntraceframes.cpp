#include "ntraceframes.h"

namespace lanescope {

bool NtraceFrames::next(NtraceFrame &frame)
{
    if (m_cut || m_pos >= m_bytes.size())
        return false;
    const uint64_t left = m_bytes.size() - m_pos;
    if (left < kPrefixBytes) {
        m_cut = true;
        m_diagnostics.warn(m_file + ": bytes after the last record that are no whole length prefix (ignored)",
                           "byte " + std::to_string(m_pos) + ": " + std::to_string(left) +
                               " bytes left; expected a 4-byte little-endian record length");
        return false;
    }
    const auto *p = reinterpret_cast<const uint8_t *>(m_bytes.data() + m_pos);
    const uint64_t length = uint64_t(p[0]) | uint64_t(p[1]) << 8 | uint64_t(p[2]) << 16 | uint64_t(p[3]) << 24;
    if (length > left - kPrefixBytes) {
        m_cut = true;
        m_diagnostics.warn(m_file + ": a record length runs past the end of the file (the rest of the file is skipped)",
                           "byte " + std::to_string(m_pos) + ": length " + std::to_string(length) + " but " +
                               std::to_string(left - kPrefixBytes) +
                               " bytes follow; expected a 4-byte length and that many bytes of one record");
        return false;
    }
    frame.offset = m_pos;
    frame.messageOffset = m_pos + kPrefixBytes;
    frame.message = m_bytes.substr(size_t(frame.messageOffset), size_t(length));
    m_pos = frame.messageOffset + length;
    return true;
}

} // namespace lanescope
