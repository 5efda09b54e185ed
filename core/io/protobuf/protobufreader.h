#pragma once
// A small schema-less protobuf reader over a byte span: varints, fixed32/64 and length-delimited
// fields, nested messages by re-reading a field's bytes. Every read is bounds-checked; malformed
// input throws ImportError naming the file, the absolute byte offset and what was expected.
// Used for the NTFF metadata message, the NEFF debug members and the folder scan (no public schema:
// callers know the field numbers). Shared by the readers, so it has a folder of its own.
#include "io/input/loadoptions.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lanescope {

class ProtobufReader
{
public:
    enum class WireType : uint8_t {
        Varint = 0,
        Fixed64 = 1,
        LengthDelimited = 2,
        StartGroup = 3, // deprecated groups: rejected
        EndGroup = 4,
        Fixed32 = 5,
    };

    struct Field
    {
        uint32_t number = 0;
        WireType type = WireType::Varint;
        uint64_t value = 0;     // Varint, Fixed32, Fixed64
        std::string_view bytes; // LengthDelimited payload
        uint64_t offset = 0;      // absolute file offset of the field key
        uint64_t valueOffset = 0; // absolute file offset of the value (first payload byte for bytes)
    };

    // `data` is the message; `baseOffset` its absolute position in the file (for error messages).
    // `file` must outlive the reader.
    ProtobufReader(std::string_view data, std::string_view file, uint64_t baseOffset = 0);

    // Reads the next field; false at the end of the message. Throws ImportError when malformed.
    bool next(Field &field);
    bool atEnd() const { return m_pos >= m_data.size(); }
    // Absolute offset of the next byte to read.
    uint64_t offset() const { return m_base + m_pos; }
    uint64_t baseOffset() const { return m_base; }
    std::string_view data() const { return m_data; }
    std::string_view file() const { return m_file; }

    // A reader over a length-delimited field (a nested message). Throws when the field is not bytes.
    ProtobufReader nested(const Field &field) const;

    // Lookups by field number, scanning the whole message from the start (messages are small).
    // The first occurrence, if any.
    std::optional<Field> find(uint32_t number) const;
    // The varint / fixed value of the first occurrence, or `fallback`. Throws on a wire-type mismatch.
    uint64_t integer(uint32_t number, uint64_t fallback = 0) const;
    // The bytes of the first occurrence, or empty. Throws on a wire-type mismatch.
    std::string_view bytes(uint32_t number) const;
    // A reader over the first occurrence of a nested message, if present.
    std::optional<ProtobufReader> message(uint32_t number) const;

    // Throws ImportError at `field` saying what was expected.
    [[noreturn]] void fail(uint64_t offset, const std::string &problem) const;
    void expectType(const Field &field, WireType type) const;
    static const char *wireTypeName(WireType type);

private:
    uint64_t readVarint(const char *what);

    std::string_view m_data;
    std::string_view m_file;
    uint64_t m_base = 0;
    size_t m_pos = 0;
};

} // namespace lanescope
