#include "parquettablereader.h"

namespace lanescope::parquet {

const ColumnData *Table::column(std::string_view name) const
{
    for (const ColumnData &c : columns)
        if (c.name == name)
            return &c;
    return nullptr;
}

bool TableReader::read(const std::string &path, Table *out, std::string *error, uint64_t maxRows)
{
    FileReader r;
    r.setMaxRows(maxRows);
    if (!r.open(path, error))
        return false;
    return readAll(r, out);
}

bool TableReader::readBytes(const std::string &name, std::string bytes, Table *out, std::string *error,
                            uint64_t maxRows)
{
    FileReader r;
    r.setMaxRows(maxRows);
    if (!r.openBytes(name, std::move(bytes), error))
        return false;
    return readAll(r, out);
}

bool TableReader::readAll(FileReader &r, Table *out)
{
    *out = Table();
    out->path = r.path();
    out->rows = r.rows();
    for (size_t i = 0; i < r.columns().size(); ++i) {
        ColumnData c;
        std::string why;
        if (r.readColumn(i, &c, &why))
            out->columns.push_back(std::move(c));
        else
            out->columnErrors.push_back(std::move(why));
    }
    return true;
}

} // namespace lanescope::parquet
