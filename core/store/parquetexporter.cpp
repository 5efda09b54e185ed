#include "parquetexporter.h"

#include "exporttables.h"
#include "io/parquet/parquetfilewriter.h"

#include <charconv>
#include <filesystem>

namespace lanescope {

namespace {

// Each table of the export as `<dir>/<table>.parquet`: INTEGER columns INT64, REAL DOUBLE, TEXT and
// the columns of any type (meta.value, args.value) UTF-8 strings; NOT NULL columns required, the
// others optional.
class ParquetSink : public ExportSink
{
public:
    ParquetSink(std::string dir, const parquet::WriteOptions &o, ParquetExporter::Result *result)
        : m_dir(std::move(dir)), m_options(o), m_result(result)
    {
    }

    bool beginTable(const ExportTable &t) override
    {
        std::vector<parquet::ColumnSpec> specs;
        m_textColumn.clear();
        for (const ExportColumn &c : t.columns) {
            parquet::ColumnType type = parquet::ColumnType::Int64;
            if (c.anyType || c.type == CellType::Text)
                type = parquet::ColumnType::String;
            else if (c.type == CellType::Real)
                type = parquet::ColumnType::Double;
            specs.push_back(parquet::ColumnSpec{c.name, type, !c.notNull});
            m_textColumn.push_back(type == parquet::ColumnType::String);
        }
        const std::string path = (std::filesystem::path(m_dir) / (t.name + ".parquet")).string();
        std::vector<parquet::KeyValue> kv{{"lanescope.table", t.name},
                                          {"lanescope.schema_version", std::to_string(ExportTables::kSchemaVersion)}};
        if (!m_writer.open(path, std::move(specs), m_options, std::move(kv), &m_error))
            return false;
        m_path = path;
        return true;
    }
    void null(int c) override { m_writer.column(size_t(c)).addNull(); }
    void i64(int c, int64_t v) override
    {
        if (m_textColumn[size_t(c)]) { // meta.value, args.value (or a number for a text column)
            char buf[24];
            const auto r = std::to_chars(buf, buf + sizeof buf, v);
            m_writer.column(size_t(c)).addText(std::string_view(buf, size_t(r.ptr - buf)));
        } else {
            m_writer.column(size_t(c)).addInt(v);
        }
    }
    void real(int c, double v) override
    {
        if (m_textColumn[size_t(c)]) { // meta.value, args.value (or a number for a text column)
            char buf[32];
            const auto r = std::to_chars(buf, buf + sizeof buf, v); // shortest text that reads back exactly
            m_writer.column(size_t(c)).addText(std::string_view(buf, size_t(r.ptr - buf)));
        } else {
            m_writer.column(size_t(c)).addReal(v);
        }
    }
    void text(int c, std::string_view v) override { m_writer.column(size_t(c)).addText(v); }
    bool row() override
    {
        if (m_writer.endRow())
            return true;
        m_error = m_writer.error();
        return false;
    }
    bool endTable() override
    {
        const uint64_t rows = m_writer.rows();
        if (!m_writer.close()) {
            m_error = m_writer.error();
            return false;
        }
        if (m_result) {
            m_result->files.push_back(m_path);
            m_result->rows += rows;
            m_result->bytes += m_writer.bytesWritten();
        }
        return true;
    }
    std::string error() const override { return m_error; }

private:
    std::string m_dir, m_path;
    parquet::WriteOptions m_options;
    ParquetExporter::Result *m_result;
    parquet::FileWriter m_writer;
    std::vector<bool> m_textColumn;
    std::string m_error;
};

} // namespace

bool ParquetExporter::exportTo(const Trace &trace, const std::string &dir, const LoadOptions &options,
                               std::string *error, const std::vector<Annotation> &notes,
                               const parquet::WriteOptions &write, Result *result)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        if (error)
            *error = dir + ": cannot create the folder: " + (ec ? ec.message() : "not a folder");
        return false;
    }
    Result local;
    ParquetSink sink(dir, write, result ? result : &local);
    std::string why;
    if (!ExportTables::write(trace, notes, sink, options, &why)) {
        if (error)
            *error = why.empty() ? dir + ": export failed" : why;
        return false;
    }
    options.report(1000);
    return true;
}

} // namespace lanescope
