#include "thriftcompact.h"

#include <cstring>

namespace lanescope::parquet {

void ThriftWriter::endStruct()
{
    m_out.push_back(char(0));
    m_lastField.pop_back();
}

void ThriftWriter::varint(uint64_t v)
{
    while (v >= 0x80) {
        m_out.push_back(char(uint8_t(v) | 0x80));
        v >>= 7;
    }
    m_out.push_back(char(uint8_t(v)));
}

void ThriftWriter::fieldHeader(int16_t id, ThriftType t)
{
    int16_t &last = m_lastField.back();
    const int delta = id - last;
    if (delta > 0 && delta <= 15) {
        m_out.push_back(char(uint8_t(delta << 4) | uint8_t(t)));
    } else {
        m_out.push_back(char(uint8_t(t)));
        varint(zigzag(id));
    }
    last = id;
}

void ThriftWriter::fieldI32(int16_t id, int32_t v)
{
    fieldHeader(id, ThriftType::I32);
    varint(zigzag(v));
}

void ThriftWriter::fieldI64(int16_t id, int64_t v)
{
    fieldHeader(id, ThriftType::I64);
    varint(zigzag(v));
}

void ThriftWriter::fieldBool(int16_t id, bool v) { fieldHeader(id, v ? ThriftType::True : ThriftType::False); }

void ThriftWriter::fieldBinary(int16_t id, std::string_view v)
{
    fieldHeader(id, ThriftType::Binary);
    binary(v);
}

void ThriftWriter::binary(std::string_view v)
{
    varint(v.size());
    m_out.append(v);
}

void ThriftWriter::fieldList(int16_t id, ThriftType element, uint32_t size)
{
    fieldHeader(id, ThriftType::List);
    if (size < 15) {
        m_out.push_back(char(uint8_t(size << 4) | uint8_t(element)));
    } else {
        m_out.push_back(char(0xf0 | uint8_t(element)));
        varint(size);
    }
}

// ---- reader

void ThriftReader::fail(const std::string &what)
{
    if (m_error.empty())
        m_error = what + " at offset " + std::to_string(offset());
    m_pos = m_data.size();
}

uint8_t ThriftReader::byte()
{
    if (m_pos >= m_data.size()) {
        fail("thrift data ends early");
        return 0;
    }
    return uint8_t(m_data[m_pos++]);
}

uint64_t ThriftReader::varint()
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        const uint8_t b = byte();
        if (!ok())
            return 0;
        v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    fail("thrift varint longer than 10 bytes");
    return 0;
}

void ThriftReader::beginStruct()
{
    if (++m_depth > kMaxDepth)
        fail("thrift structs nested deeper than " + std::to_string(kMaxDepth));
    m_lastField.push_back(0);
}

void ThriftReader::endStruct()
{
    --m_depth;
    if (!m_lastField.empty())
        m_lastField.pop_back();
}

ThriftReader::Field ThriftReader::nextField()
{
    Field f;
    const uint8_t b = byte();
    if (!ok() || b == 0)
        return f;
    const uint8_t type = b & 0x0f;
    if (type > uint8_t(ThriftType::Struct)) {
        fail("thrift field of unknown type " + std::to_string(type));
        return f;
    }
    f.type = ThriftType(type);
    const int delta = b >> 4;
    int16_t &last = m_lastField.back();
    if (delta)
        f.id = int16_t(last + delta);
    else {
        const uint64_t z = varint();
        f.id = int16_t(int64_t(z >> 1) ^ -int64_t(z & 1));
    }
    last = f.id;
    if (f.type == ThriftType::True || f.type == ThriftType::False)
        f.boolValue = f.type == ThriftType::True;
    return f;
}

int64_t ThriftReader::readInt(ThriftType t)
{
    if (t == ThriftType::Byte)
        return int8_t(byte());
    if (t != ThriftType::I16 && t != ThriftType::I32 && t != ThriftType::I64) {
        fail("thrift integer expected, found type " + std::to_string(int(t)));
        return 0;
    }
    const uint64_t z = varint();
    return int64_t(z >> 1) ^ -int64_t(z & 1);
}

double ThriftReader::readDouble()
{
    if (m_data.size() - m_pos < 8) {
        fail("thrift double ends early");
        return 0;
    }
    double d;
    std::memcpy(&d, m_data.data() + m_pos, 8);
    m_pos += 8;
    return d;
}

std::string_view ThriftReader::readBinary()
{
    const uint64_t n = varint();
    if (!ok())
        return {};
    if (n > m_data.size() - m_pos) {
        fail("thrift binary of " + std::to_string(n) + " bytes runs past the end");
        return {};
    }
    const std::string_view v = m_data.substr(m_pos, n);
    m_pos += n;
    return v;
}

uint32_t ThriftReader::readListHeader(ThriftType *element)
{
    const uint8_t b = byte();
    uint64_t n = b >> 4;
    if (n == 15)
        n = varint();
    *element = ThriftType(b & 0x0f);
    // Every element takes at least one byte, except booleans in some writers: still one byte each.
    if (ok() && n > m_data.size() - m_pos) {
        fail("thrift list of " + std::to_string(n) + " elements runs past the end");
        return 0;
    }
    return ok() ? uint32_t(n) : 0;
}

void ThriftReader::skip(ThriftType t)
{
    if (!ok())
        return;
    switch (t) {
    case ThriftType::True:
    case ThriftType::False: return; // the value is in the field header
    case ThriftType::Byte: byte(); return;
    case ThriftType::I16:
    case ThriftType::I32:
    case ThriftType::I64: varint(); return;
    case ThriftType::Double: readDouble(); return;
    case ThriftType::Binary: readBinary(); return;
    case ThriftType::List:
    case ThriftType::Set: {
        ThriftType e;
        const uint32_t n = readListHeader(&e);
        if (++m_depth > kMaxDepth) {
            fail("thrift lists nested deeper than " + std::to_string(kMaxDepth));
            return;
        }
        for (uint32_t i = 0; i < n && ok(); ++i) {
            if (e == ThriftType::True || e == ThriftType::False)
                byte(); // a boolean element is a byte
            else
                skip(e);
        }
        --m_depth;
        return;
    }
    case ThriftType::Map: {
        const uint64_t n = varint();
        if (n == 0 || !ok())
            return;
        if (n > m_data.size() - m_pos) {
            fail("thrift map of " + std::to_string(n) + " entries runs past the end");
            return;
        }
        const uint8_t kv = byte();
        if (++m_depth > kMaxDepth) {
            fail("thrift maps nested deeper than " + std::to_string(kMaxDepth));
            return;
        }
        for (uint64_t i = 0; i < n && ok(); ++i) {
            skip(ThriftType(kv >> 4));
            skip(ThriftType(kv & 0x0f));
        }
        --m_depth;
        return;
    }
    case ThriftType::Struct: {
        beginStruct();
        for (Field f = nextField(); ok() && f.type != ThriftType::Stop; f = nextField())
            skip(f.type);
        endStruct();
        return;
    }
    case ThriftType::Stop: break;
    }
    fail("thrift value of unknown type " + std::to_string(int(t)));
}

} // namespace lanescope::parquet
