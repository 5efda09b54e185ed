#include "ntffsync.h"

#include "util/textutil.h"

namespace lanescope {

namespace {

// Reads a decimal number at `at`, advancing it; false when there is none or it exceeds `max`.
bool readNumber(std::string_view s, size_t &at, uint64_t max, uint64_t &out)
{
    if (at >= s.size() || !text::isDigit(s[at]))
        return false;
    out = 0;
    for (; at < s.size() && text::isDigit(s[at]); ++at) {
        out = out * 10 + uint64_t(s[at] - '0');
        if (out > max)
            return false;
    }
    return true;
}

} // namespace

NtffSync NtffSync::fromOperands(std::string_view s)
{
    NtffSync sync;
    for (size_t at = 0; (at = s.find("S[", at)) != std::string_view::npos;) {
        const bool plain = at == 0 || s[at - 1] != '$';
        size_t p = at + 2;
        at = p;
        uint64_t id = 0;
        if (!plain || !readNumber(s, p, 255, id) || p >= s.size() || s[p] != ']')
            continue;
        ++p;
        if (s.substr(p, 2) == " (") { // display name "S[8] (qSyncSpillReload0)"
            const size_t close = s.find(')', p);
            if (close == std::string_view::npos)
                continue;
            p = close + 1;
        }
        uint64_t value = 0;
        if (s.substr(p, 2) == ">=") {
            p += 2;
            if (readNumber(s, p, UINT32_MAX, value) && sync.waitOp == 0) {
                sync.waitOp = kWaitGreaterEqual;
                sync.waitSemaphore = uint8_t(id);
                sync.waitValue = uint32_t(value);
            }
        } else if (s.substr(p, 2) == "++" || s.substr(p, 2) == "+=" || s.substr(p, 1) == "=") {
            if (sync.updateOp == 0) {
                sync.updateOp = 0x13;
                sync.updateSemaphore = uint8_t(id);
            }
        }
        at = p;
    }
    constexpr std::string_view kDma = "semaphore=";
    for (size_t at = 0; (at = s.find(kDma, at)) != std::string_view::npos;) {
        const bool word = at == 0 || s[at - 1] == ' ';
        size_t p = at + kDma.size();
        at = p;
        uint64_t id = 0;
        if (word && readNumber(s, p, 255, id)) {
            sync.dmaSemaphore = int16_t(id);
            break;
        }
    }
    return sync;
}

} // namespace lanescope
