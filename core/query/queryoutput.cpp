#include "queryoutput.h"

#include "util/tablerowwriter.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lanescope {

namespace {

std::string shortest(double d)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, r.ptr);
}

// Width on a terminal: UTF-8 code points.
size_t displayWidth(const std::string &s)
{
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

} // namespace

QueryResultWriter::~QueryResultWriter()
{
    if (m_open)
        end();
}

std::string QueryResultWriter::textOf(const QueryRow &row, int column)
{
    switch (row.type(column)) {
    case QueryRow::Type::Integer: return std::to_string(row.integer(column));
    case QueryRow::Type::Real: return shortest(row.real(column));
    case QueryRow::Type::Text:
    case QueryRow::Type::Blob: return std::string(row.text(column));
    case QueryRow::Type::Null: break;
    }
    return "NULL";
}

std::string QueryResultWriter::jsonString(std::string_view text)
{
    std::string out = "\"";
    for (char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char esc[8];
                std::snprintf(esc, sizeof esc, "\\u%04x", c);
                out += esc;
            } else {
                out += ch;
            }
        }
    }
    return out + "\"";
}

std::string QueryResultWriter::jsonOf(const QueryRow &row, int column)
{
    switch (row.type(column)) {
    case QueryRow::Type::Integer: return std::to_string(row.integer(column));
    case QueryRow::Type::Real: {
        const double d = row.real(column);
        return std::isfinite(d) ? shortest(d) : std::string("null");
    }
    case QueryRow::Type::Text:
    case QueryRow::Type::Blob: return jsonString(row.text(column));
    case QueryRow::Type::Null: break;
    }
    return "null";
}

bool QueryResultWriter::begin(const std::vector<std::string> &columns)
{
    if (m_open)
        end();
    m_columns = columns;
    m_rows = 0;
    m_open = !columns.empty();
    if (!m_open)
        return true; // a statement without a result (BEGIN, ...): nothing to write
    switch (m_format) {
    case Format::Text:
        m_measuring = true;
        m_widths.assign(columns.size(), 0);
        for (size_t i = 0; i < columns.size(); ++i)
            m_widths[i] = displayWidth(columns[i]);
        m_held.clear();
        m_heldNumeric.clear();
        break;
    case Format::Csv: {
        std::string line;
        for (size_t i = 0; i < columns.size(); ++i)
            line += (i ? "," : "") + TableRowWriter::csvQuote(columns[i]);
        write(line + "\r\n");
        break;
    }
    case Format::Json: write("["); break;
    }
    return true;
}

std::string QueryResultWriter::textLine(const std::vector<std::string> &cells, const std::vector<bool> &numeric) const
{
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        const size_t w = displayWidth(cells[i]);
        const size_t pad = i < m_widths.size() && m_widths[i] > w ? m_widths[i] - w : 0;
        if (i)
            line += "  ";
        if (numeric[i])
            line.append(pad, ' ') += cells[i];
        else if (i + 1 < cells.size())
            (line += cells[i]).append(pad, ' ');
        else
            line += cells[i];
    }
    return line + "\n";
}

void QueryResultWriter::flushMeasured()
{
    if (!m_measuring)
        return;
    m_measuring = false;
    // Headers of number columns (as the first row has them) right-aligned over their numbers.
    std::vector<bool> right(m_columns.size(), false);
    if (!m_heldNumeric.empty())
        right = m_heldNumeric.front();
    std::string out = textLine(m_columns, right);
    std::string rule;
    for (size_t i = 0; i < m_widths.size(); ++i)
        (rule += i ? "  " : "").append(m_widths[i], '-');
    out += rule + "\n";
    for (size_t r = 0; r < m_held.size(); ++r)
        out += textLine(m_held[r], m_heldNumeric[r]);
    write(out);
    m_held.clear();
    m_heldNumeric.clear();
}

bool QueryResultWriter::row(const QueryRow &row)
{
    const int n = int(m_columns.size());
    switch (m_format) {
    case Format::Text: {
        std::vector<std::string> cells(static_cast<size_t>(n));
        std::vector<bool> numeric(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            cells[size_t(i)] = textOf(row, i);
            const QueryRow::Type t = row.type(i);
            numeric[size_t(i)] = t == QueryRow::Type::Integer || t == QueryRow::Type::Real;
        }
        if (m_measuring) {
            for (int i = 0; i < n; ++i)
                m_widths[size_t(i)] = std::max(m_widths[size_t(i)], displayWidth(cells[size_t(i)]));
            m_held.push_back(std::move(cells));
            m_heldNumeric.push_back(std::move(numeric));
            if (m_held.size() >= kMeasuredRows)
                flushMeasured();
        } else {
            write(textLine(cells, numeric));
        }
        break;
    }
    case Format::Csv: {
        std::string line;
        for (int i = 0; i < n; ++i) {
            if (i)
                line += ',';
            const QueryRow::Type t = row.type(i);
            if (t == QueryRow::Type::Text || t == QueryRow::Type::Blob)
                line += TableRowWriter::csvQuote(std::string(row.text(i)));
            else if (t != QueryRow::Type::Null)
                line += textOf(row, i);
        }
        write(line + "\r\n");
        break;
    }
    case Format::Json: {
        std::string obj = m_rows ? ",\n{" : "\n{";
        for (int i = 0; i < n; ++i)
            obj += (i ? ", " : "") + jsonString(m_columns[size_t(i)]) + ": " + jsonOf(row, i);
        write(obj + "}");
        break;
    }
    }
    ++m_rows;
    return true;
}

void QueryResultWriter::end()
{
    if (!m_open)
        return;
    m_open = false;
    if (m_format == Format::Text)
        flushMeasured();
    else if (m_format == Format::Json)
        write(m_rows ? "\n]\n" : "]\n");
    std::fflush(m_out);
}

} // namespace lanescope
