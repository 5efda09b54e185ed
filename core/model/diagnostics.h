#pragma once
// Import problems are data, not crashes (Perfetto's stats table): counted warnings by message,
// each with the first place it was seen. A record is a warning (data lost or malformed: a cut file,
// a bad value, an event skipped) or a note (a producer's habit that loses nothing, or expected
// filtering that the vendor's tools do as well, e.g. events before an NTFF's trace window): both are
// counted and shown, only warnings make a file look broken. docs/diagnostics.md lists the classes.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanescope {

enum class DiagnosticSeverity : uint8_t { Warning = 0, Note = 1 };

struct Warning
{
    std::string message;  // e.g. "flow end without a start"
    uint64_t count = 0;
    std::string firstSeen; // e.g. "byte 12345" or "event #17"
    DiagnosticSeverity severity = DiagnosticSeverity::Warning;

    bool isNote() const { return severity == DiagnosticSeverity::Note; }
};

class Diagnostics
{
public:
    void warn(std::string_view message, std::string_view where = {}, uint64_t count = 1);
    // Expected filtering: counted like a warning, shown as a note.
    void note(std::string_view message, std::string_view where = {}, uint64_t count = 1);
    void report(DiagnosticSeverity severity, std::string_view message, std::string_view where = {}, uint64_t count = 1);
    // Cheap on hot paths: the position text is built only the first time a message is seen.
    void warnAtByte(std::string_view message, uint64_t offset);
    void noteAtByte(std::string_view message, uint64_t offset);
    void reportAtByte(DiagnosticSeverity severity, std::string_view message, uint64_t offset);
    const std::vector<Warning> &warnings() const { return m_warnings; }
    uint64_t count(std::string_view message) const;
    uint64_t total() const; // warnings and notes
    uint64_t total(DiagnosticSeverity severity) const;
    bool empty() const { return m_warnings.empty(); }
    bool hasWarnings() const { return total(DiagnosticSeverity::Warning) != 0; }
    void merge(const Diagnostics &other);
    // "8,928 x flow ends without a start (first at byte 12)" style line
    static std::string format(const Warning &w);
    static const char *severityName(DiagnosticSeverity severity); // "warning" / "note"

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
