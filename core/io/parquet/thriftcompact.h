#pragma once
// Apache Thrift's compact protocol, the encoding of Parquet's footer (FileMetaData) and page headers:
// a writer for the structs Lanescope writes and a strict, bounds-checked reader that skips fields it
// does not know (nested at most kMaxDepth deep). Only what Parquet uses: bool, i8/i16/i32/i64 (zigzag
// varints), double, binary, list/set, map and struct.
// Reference: thrift/doc/specs/thrift-compact-protocol.md.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope::parquet {

enum class ThriftType : uint8_t {
    Stop = 0, True = 1, False = 2, Byte = 3, I16 = 4, I32 = 5, I64 = 6, Double = 7, Binary = 8,
    List = 9, Set = 10, Map = 11, Struct = 12,
};

class ThriftWriter
{
public:
    void beginStruct() { m_lastField.push_back(0); }
    void endStruct(); // writes the stop byte
    void fieldI32(int16_t id, int32_t v);
    void fieldI64(int16_t id, int64_t v);
    void fieldBool(int16_t id, bool v);
    void fieldBinary(int16_t id, std::string_view v);
    void fieldStruct(int16_t id) { fieldHeader(id, ThriftType::Struct); beginStruct(); }
    void fieldList(int16_t id, ThriftType element, uint32_t size);
    // List elements
    void i32(int32_t v) { varint(zigzag(v)); }
    void binary(std::string_view v);

    const std::string &bytes() const { return m_out; }
    std::string take() { return std::move(m_out); }

private:
    static uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
    void varint(uint64_t v);
    void fieldHeader(int16_t id, ThriftType t);

    std::string m_out;
    std::vector<int16_t> m_lastField;
};

// Reads from a byte range; every read is checked. After the first error, reads return zeros and
// ok() is false; error() says what was expected at which offset (relative to the range's `base`).
class ThriftReader
{
public:
    static constexpr int kMaxDepth = 32;

    ThriftReader(std::string_view bytes, uint64_t base) : m_data(bytes), m_base(base) {}

    // Struct fields: next field's id and type, Stop at the end of the struct.
    struct Field { int16_t id = 0; ThriftType type = ThriftType::Stop; bool boolValue = false; };
    void beginStruct();
    Field nextField();
    void endStruct();

    int64_t readInt(ThriftType t); // Byte, I16, I32, I64
    double readDouble();
    std::string_view readBinary();
    bool readBool(const Field &f) { return f.boolValue; }
    // List/Set header: element type and count (count checked against the bytes left).
    uint32_t readListHeader(ThriftType *element);
    void skip(ThriftType t);

    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    void fail(const std::string &what);
    size_t position() const { return m_pos; }
    uint64_t offset() const { return m_base + m_pos; }

private:
    uint64_t varint();
    uint8_t byte();

    std::string_view m_data;
    uint64_t m_base;
    size_t m_pos = 0;
    std::vector<int16_t> m_lastField;
    int m_depth = 0;
    std::string m_error;
};

} // namespace lanescope::parquet
