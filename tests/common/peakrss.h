#pragma once
// Peak resident memory of this process since the last reset (Linux: VmHWM in /proc/self/status, reset
// by writing "5" to /proc/self/clear_refs), so a benchmark can report the peak of one phase (an
// import) apart from the set-up before it (generating the input). 0 where not available.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace lanescope::test {

inline void resetPeakRss()
{
    if (std::FILE *f = std::fopen("/proc/self/clear_refs", "w")) {
        std::fputs("5", f);
        std::fclose(f);
    }
}

// A /proc/self/status memory line ("VmHWM:", "VmRSS:") in bytes; 0 when there is none.
inline uint64_t statusBytes(const char *field)
{
    const size_t n = std::strlen(field);
    uint64_t kb = 0;
    if (std::FILE *f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, f))
            if (!std::strncmp(line, field, n)) {
                kb = std::strtoull(line + n, nullptr, 10);
                break;
            }
        std::fclose(f);
    }
    return kb * 1024;
}

// Peak resident bytes of the process.
inline uint64_t peakRss() { return statusBytes("VmHWM:"); }
// Resident bytes now.
inline uint64_t currentRss() { return statusBytes("VmRSS:"); }

} // namespace lanescope::test
