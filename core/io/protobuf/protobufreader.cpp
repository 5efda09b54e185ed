#include "protobufreader.h"

#include <cstring>

namespace lanescope {

ProtobufReader::ProtobufReader(std::string_view data, std::string_view file, uint64_t baseOffset)
    : m_data(data), m_file(file), m_base(baseOffset)
{
}

void ProtobufReader::fail(uint64_t offset, const std::string &problem) const
{
    throw ImportError(std::string(m_file), offset, problem);
}

const char *ProtobufReader::wireTypeName(WireType type)
{
    switch (type) {
    case WireType::Varint: return "varint";
    case WireType::Fixed64: return "fixed64";
    case WireType::LengthDelimited: return "length-delimited bytes";
    case WireType::StartGroup: return "start-group";
    case WireType::EndGroup: return "end-group";
    case WireType::Fixed32: return "fixed32";
    }
    return "unknown";
}

uint64_t ProtobufReader::readVarint(const char *what)
{
    const uint64_t start = offset();
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (m_pos >= m_data.size())
            fail(start, std::string("protobuf ") + what + " runs past the end of its message (" + std::to_string(m_data.size())
                            + " bytes from byte " + std::to_string(m_base) + "); expected a complete varint");
        const uint8_t c = static_cast<uint8_t>(m_data[m_pos++]);
        const uint64_t bits = c & 0x7f;
        // The 10th byte may only contribute the top bit of a 64-bit value.
        if (shift == 63 && bits > 1)
            fail(start, std::string("protobuf ") + what + " overflows 64 bits; expected a varint of at most 10 bytes");
        result |= bits << shift;
        if (!(c & 0x80))
            return result;
    }
    fail(start, std::string("protobuf ") + what + " is longer than 10 bytes; expected a varint of at most 10 bytes");
}

bool ProtobufReader::next(Field &field)
{
    if (m_pos >= m_data.size())
        return false;
    field = Field{};
    field.offset = offset();
    const uint64_t key = readVarint("field key");
    const uint64_t number = key >> 3;
    const uint8_t type = static_cast<uint8_t>(key & 7);
    if (number == 0 || number > 0x1fffffff)
        fail(field.offset, "protobuf field number " + std::to_string(number)
                               + " is invalid; expected a field number between 1 and 536870911");
    field.number = static_cast<uint32_t>(number);
    field.valueOffset = offset();
    switch (type) {
    case 0:
        field.type = WireType::Varint;
        field.value = readVarint("varint value");
        break;
    case 1:
    case 5: {
        const size_t n = type == 1 ? 8 : 4;
        field.type = type == 1 ? WireType::Fixed64 : WireType::Fixed32;
        if (m_data.size() - m_pos < n)
            fail(field.valueOffset, "protobuf " + std::string(wireTypeName(field.type)) + " field "
                                        + std::to_string(number) + " runs past the end of its message; expected "
                                        + std::to_string(n) + " bytes");
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i)
            v |= uint64_t(static_cast<uint8_t>(m_data[m_pos + i])) << (8 * i);
        field.value = v;
        m_pos += n;
        break;
    }
    case 2: {
        field.type = WireType::LengthDelimited;
        const uint64_t len = readVarint("length");
        field.valueOffset = offset();
        if (len > m_data.size() - m_pos)
            fail(field.offset, "protobuf field " + std::to_string(number) + " declares " + std::to_string(len)
                                   + " bytes but only " + std::to_string(m_data.size() - m_pos)
                                   + " remain in its message; expected a length within the message");
        field.bytes = m_data.substr(m_pos, static_cast<size_t>(len));
        m_pos += static_cast<size_t>(len);
        break;
    }
    default:
        fail(field.offset, "protobuf field " + std::to_string(number) + " has wire type " + std::to_string(type)
                               + (type == 3 || type == 4 ? " (groups are not supported)" : " (invalid)")
                               + "; expected varint (0), fixed64 (1), bytes (2) or fixed32 (5)");
    }
    return true;
}

void ProtobufReader::expectType(const Field &field, WireType type) const
{
    if (field.type != type)
        fail(field.offset, "protobuf field " + std::to_string(field.number) + " is " + wireTypeName(field.type)
                               + "; expected " + wireTypeName(type));
}

ProtobufReader ProtobufReader::nested(const Field &field) const
{
    expectType(field, WireType::LengthDelimited);
    return ProtobufReader(field.bytes, m_file, field.valueOffset);
}

std::optional<ProtobufReader::Field> ProtobufReader::find(uint32_t number) const
{
    ProtobufReader r(m_data, m_file, m_base);
    Field f;
    while (r.next(f))
        if (f.number == number)
            return f;
    return std::nullopt;
}

uint64_t ProtobufReader::integer(uint32_t number, uint64_t fallback) const
{
    const auto f = find(number);
    if (!f)
        return fallback;
    if (f->type == WireType::LengthDelimited)
        fail(f->offset, "protobuf field " + std::to_string(number) + " is length-delimited bytes; expected an integer");
    return f->value;
}

std::string_view ProtobufReader::bytes(uint32_t number) const
{
    const auto f = find(number);
    if (!f)
        return {};
    expectType(*f, WireType::LengthDelimited);
    return f->bytes;
}

std::optional<ProtobufReader> ProtobufReader::message(uint32_t number) const
{
    const auto f = find(number);
    if (!f)
        return std::nullopt;
    return nested(*f);
}

} // namespace lanescope
