#pragma once
// Rows of a RowDescription (core/util/tablecolumn.h) as JSON objects and CSV lines: the CLI's
// --json and --format csv output of every table.
#include "tablecolumn.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <string>

namespace lanescope {

class TableRowWriter
{
public:
    // Integer -> JSON integer, Real -> JSON number, Text -> string; no value -> Undefined (key left out).
    static QJsonValue json(const Cell &cell);
    // RFC 4180 field: integers in decimal, reals in the shortest form that reads back exactly, text
    // quoted when it holds a comma, quote or line break; no value -> empty.
    static std::string csv(const Cell &cell);
    static std::string csvQuote(const std::string &text);

    template <typename Row> static QJsonObject jsonObject(const RowDescription<Row> &columns, const Row &row)
    {
        QJsonObject o;
        for (const TableColumn<Row> &c : columns)
            if (c.in(OutJson)) {
                const QJsonValue v = json(c.get(row));
                if (!v.isUndefined())
                    o[QString::fromLatin1(c.key)] = v;
            }
        return o;
    }

    template <typename Row, typename Rows>
    static QJsonArray jsonArray(const RowDescription<Row> &columns, const Rows &rows, size_t limit = size_t(-1))
    {
        QJsonArray a;
        for (const Row &row : rows) {
            if (size_t(a.size()) >= limit)
                break;
            a.append(jsonObject(columns, row));
        }
        return a;
    }

    // The header line (JSON keys) and one line per row, each ending in "\n".
    template <typename Row> static std::string csvHeader(const RowDescription<Row> &columns)
    {
        std::string line;
        for (const TableColumn<Row> &c : columns)
            if (c.in(OutCsv))
                line += (line.empty() ? "" : ",") + csvQuote(c.key);
        return line + "\n";
    }
    template <typename Row> static std::string csvLine(const RowDescription<Row> &columns, const Row &row)
    {
        std::string line;
        bool first = true;
        for (const TableColumn<Row> &c : columns)
            if (c.in(OutCsv)) {
                if (!first)
                    line += ',';
                first = false;
                line += csv(c.get(row));
            }
        return line + "\n";
    }
};

} // namespace lanescope
