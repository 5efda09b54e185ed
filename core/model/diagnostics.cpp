#include "diagnostics.h"

namespace lanescope {

void Diagnostics::reportAtByte(DiagnosticSeverity severity, std::string_view message, uint64_t offset)
{
    auto it = m_index.find(message);
    if (it != m_index.end()) {
        ++m_warnings[it->second].count;
        return;
    }
    report(severity, message, "byte " + std::to_string(offset), 1);
}

void Diagnostics::warnAtByte(std::string_view message, uint64_t offset)
{
    reportAtByte(DiagnosticSeverity::Warning, message, offset);
}

void Diagnostics::noteAtByte(std::string_view message, uint64_t offset)
{
    reportAtByte(DiagnosticSeverity::Note, message, offset);
}

void Diagnostics::warn(std::string_view message, std::string_view where, uint64_t count)
{
    report(DiagnosticSeverity::Warning, message, where, count);
}

void Diagnostics::note(std::string_view message, std::string_view where, uint64_t count)
{
    report(DiagnosticSeverity::Note, message, where, count);
}

// A message keeps the severity it was first reported with.
void Diagnostics::report(DiagnosticSeverity severity, std::string_view message, std::string_view where, uint64_t count)
{
    auto it = m_index.find(message);
    if (it == m_index.end()) {
        m_index.emplace(std::string(message), m_warnings.size());
        m_warnings.push_back(Warning{std::string(message), count, std::string(where), severity});
        return;
    }
    m_warnings[it->second].count += count;
}

uint64_t Diagnostics::count(std::string_view message) const
{
    auto it = m_index.find(message);
    return it == m_index.end() ? 0 : m_warnings[it->second].count;
}

uint64_t Diagnostics::total() const
{
    uint64_t t = 0;
    for (const auto &w : m_warnings)
        t += w.count;
    return t;
}

uint64_t Diagnostics::total(DiagnosticSeverity severity) const
{
    uint64_t t = 0;
    for (const auto &w : m_warnings)
        if (w.severity == severity)
            t += w.count;
    return t;
}

const char *Diagnostics::severityName(DiagnosticSeverity severity)
{
    return severity == DiagnosticSeverity::Note ? "note" : "warning";
}

void Diagnostics::merge(const Diagnostics &other)
{
    for (const auto &w : other.m_warnings)
        report(w.severity, w.message, w.firstSeen, w.count);
}

std::string formatThousands(uint64_t v)
{
    std::string digits = std::to_string(v);
    std::string out;
    const size_t n = digits.size();
    for (size_t i = 0; i < n; ++i) {
        out.push_back(digits[i]);
        if ((n - i - 1) % 3 == 0 && i + 1 < n)
            out.push_back(',');
    }
    return out;
}

std::string Diagnostics::format(const Warning &w)
{
    std::string s = formatThousands(w.count) + " x " + w.message;
    if (!w.firstSeen.empty())
        s += " (first at " + w.firstSeen + ")";
    return s;
}

} // namespace lanescope
