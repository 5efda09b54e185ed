// The export's tables that hang off events, read from the model in place: args (row = the arg's index
// in the ArgStore, set after set) and flows (row = flow id).
#include "exportrowsmakers.h"

#include "model/trace.h"

#include <algorithm>
#include <limits>
#include <string>

namespace lanescope::exportrows {

namespace {

constexpr CellType I = CellType::Integer;
constexpr CellType T = CellType::Text;

const char *argTypeName(ArgType t)
{
    switch (t) {
    case ArgType::Null: return "null";
    case ArgType::Bool: return "bool";
    case ArgType::Int: return "int";
    case ArgType::UInt: return "uint";
    case ArgType::Double: return "real";
    case ArgType::String: return "string";
    case ArgType::Json: return "json";
    }
    return "null";
}

class ArgRows : public ExportRows
{
public:
    explicit ArgRows(const Trace &t)
        : ExportRows({"args",
                      {column("arg_set_id", I, true), column("key", T, true), column("type", T, true),
                       ExportColumn{"value", T, false, true, {}}}}),
          m_t(t), m_all(t.args().all()), m_offsets(t.args().offsets())
    {
    }

    uint64_t size() const override { return m_all.size(); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        const Arg &a = m_all[row];
        switch (c) {
        case 0: s.i64(c, setOf(row)); break;
        case 1: s.text(c, m_t.str(a.key)); break;
        case 2: s.text(c, argTypeName(a.type)); break;
        case 3: value(a, s); break;
        default: s.null(c);
        }
    }

    RowKeys keys() const override { return {.argSet = 0}; }
    RowRun argSetRows(uint32_t set) const override
    {
        if (uint64_t(set) + 1 >= m_offsets.size())
            return {};
        return {m_offsets[set], m_offsets[set + 1]};
    }

private:
    // INTEGER for bool/int/uint, REAL, TEXT for string and json, NULL for null; a uint above 2^63-1 is
    // exact decimal text.
    void value(const Arg &a, CellSink &s)
    {
        switch (a.type) {
        case ArgType::Null: s.null(3); break;
        case ArgType::Bool:
        case ArgType::Int: s.i64(3, a.value.i); break;
        case ArgType::UInt:
            if (a.value.u <= uint64_t(std::numeric_limits<int64_t>::max())) {
                s.i64(3, int64_t(a.value.u));
            } else {
                m_big = std::to_string(a.value.u);
                s.scratchText(3, m_big);
            }
            break;
        case ArgType::Double: s.real(3, a.value.d); break;
        case ArgType::String:
        case ArgType::Json: s.text(3, m_t.str(a.stringValue())); break;
        }
    }

    // The set holding arg `row`: the last one found, its successor (reading in order), else a search.
    uint32_t setOf(uint64_t row)
    {
        const size_t sets = m_offsets.size() - 1;
        if (m_set < sets && m_offsets[m_set] <= row && row < m_offsets[m_set + 1])
            return m_set;
        while (m_set + 1 < sets && m_offsets[m_set + 1] <= row && row < m_offsets[m_set + 1] + 64) {
            ++m_set;
            if (m_offsets[m_set] <= row && row < m_offsets[m_set + 1])
                return m_set;
        }
        const auto it = std::upper_bound(m_offsets.begin(), m_offsets.end(), uint32_t(row));
        m_set = uint32_t(it - m_offsets.begin() - 1);
        return m_set;
    }

    const Trace &m_t;
    std::span<const Arg> m_all;
    std::span<const uint32_t> m_offsets;
    uint32_t m_set = 0;
    std::string m_big;
};

class FlowRows : public ExportRows
{
public:
    explicit FlowRows(const Trace &t)
        : ExportRows({"flows",
                      {column("id", I, false, "PRIMARY KEY"), column("from_slice_id", I, false, "REFERENCES slices(id)"),
                       column("to_slice_id", I, false, "REFERENCES slices(id)"), column("name", T, true),
                       column("category", T, true), column("external_id", I, true)}}),
          m_t(t)
    {
    }

    uint64_t size() const override { return m_t.flows().size(); }
    void cell(uint64_t row, int c, CellSink &s) override
    {
        const Flow &f = m_t.flows()[row];
        switch (c) {
        case 0: s.i64(c, int64_t(row)); break;
        case 1: optionalId(s, c, f.from.value); break;
        case 2: optionalId(s, c, f.to.value); break;
        case 3: s.text(c, m_t.str(f.name)); break;
        case 4: s.text(c, m_t.str(f.category)); break;
        case 5: s.i64(c, int64_t(f.externalId)); break;
        default: s.null(c);
        }
    }

    RowKeys keys() const override { return {.id = 0, .fromSlice = 1, .toSlice = 2}; }
    uint64_t rowOfId(int64_t id) const override { return rowNumber(id); }
    std::vector<uint64_t> flowRows(bool from, uint32_t slice) const override
    {
        std::vector<uint64_t> out;
        for (FlowId f : from ? m_t.flowsFrom(SliceId(slice)) : m_t.flowsTo(SliceId(slice)))
            out.push_back(f.value);
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    const Trace &m_t;
};

} // namespace

std::unique_ptr<ExportRows> args(const Trace &t) { return std::make_unique<ArgRows>(t); }
std::unique_ptr<ExportRows> flows(const Trace &t) { return std::make_unique<FlowRows>(t); }

} // namespace lanescope::exportrows
