#pragma once
// A query's result written as it arrives, in the CLI's formats (the Query dock's "copy as CSV" writes
// the same CSV): text (aligned columns: the widths of the first 1,000 rows, numbers right-aligned, NULL
// as NULL), CSV (RFC 4180: header line, CRLF line ends, fields quoted when they hold a comma, quote or
// line break, NULL as an empty field) or JSON (an array of objects per statement that returns columns;
// integers and reals stay JSON numbers, NULL is null, a non-finite real is null). Only the text
// format's first 1,000 rows are held, to measure them.
#include "queryengine.h"

#include <cstdio>
#include <string>
#include <vector>

namespace lanescope {

class QueryResultWriter : public QueryResultSink
{
public:
    enum class Format { Text, Csv, Json };

    QueryResultWriter(Format format, std::FILE *out) : m_format(format), m_out(out) {}
    ~QueryResultWriter() override;

    bool begin(const std::vector<std::string> &columns) override;
    bool row(const QueryRow &row) override;
    void end() override;

    // A cell as the text format shows it (shortest round-trip reals, NULL), and as a JSON value.
    static std::string textOf(const QueryRow &row, int column);
    static std::string jsonOf(const QueryRow &row, int column);
    static std::string jsonString(std::string_view text);

    static constexpr size_t kMeasuredRows = 1000;

private:
    void write(const std::string &s) { std::fwrite(s.data(), 1, s.size(), m_out); }
    void flushMeasured();
    std::string textLine(const std::vector<std::string> &cells, const std::vector<bool> &numeric) const;

    Format m_format;
    std::FILE *m_out;
    std::vector<std::string> m_columns;
    size_t m_rows = 0;
    bool m_open = false;
    bool m_measuring = false;
    std::vector<size_t> m_widths;
    std::vector<std::vector<std::string>> m_held;
    std::vector<std::vector<bool>> m_heldNumeric;
};

} // namespace lanescope
