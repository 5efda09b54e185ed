#pragma once
// Printing a table the way the user asked: the JSON document, or CSV lines from a row description
// (core/analysis/tablerows.h), on stdout.
#include "util/tablerowwriter.h"

#include <QJsonObject>

#include <cstdio>
#include <string>

namespace lanescope::cli {

// The object as indented JSON.
void printJson(const QJsonObject &o);

// The header and the first `limit` rows as CSV.
template <typename Row, typename Rows>
void printCsv(const RowDescription<Row> &columns, const Rows &rows, size_t limit = size_t(-1))
{
    std::string out = TableRowWriter::csvHeader(columns);
    size_t n = 0;
    for (const Row &r : rows) {
        if (n++ >= limit)
            break;
        out += TableRowWriter::csvLine(columns, r);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
}

} // namespace lanescope::cli
