#pragma once
// Import problems are data, not crashes (Perfetto's stats table): counted warnings by message,
// each with the first place it was seen.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanescope {

struct Warning
{
    std::string message;  // e.g. "flow end without a start"
    uint64_t count = 0;
    std::string firstSeen; // e.g. "byte 12345" or "event #17"
};

class Diagnostics
{
public:
    void warn(std::string_view message, std::string_view where = {}, uint64_t count = 1);
    // Cheap on hot paths: the position text is built only the first time a message is seen.
    void warnAtByte(std::string_view message, uint64_t offset);
    const std::vector<Warning> &warnings() const { return m_warnings; }
    uint64_t count(std::string_view message) const;
    uint64_t total() const;
    bool empty() const { return m_warnings.empty(); }
    void merge(const Diagnostics &other);
    // "8,928 flow ends without a start" style line
    static std::string format(const Warning &w);

private:
    std::vector<Warning> m_warnings;
    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
    };
    std::unordered_map<std::string, size_t, Hash, std::equal_to<>> m_index;
};

std::string formatThousands(uint64_t v);

} // namespace lanescope
