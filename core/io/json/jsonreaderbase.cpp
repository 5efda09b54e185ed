#include "jsonreaderbase.h"

#include "jsonquotescan.h"

#include "io/input/inputbuffer.h"
#include "jsontextscan.h"
#include "util/textutil.h"

#include <algorithm>

namespace lanescope {

namespace sj = simdjson::ondemand;

JsonReaderBase::JsonReaderBase(InputBuffer &input, const std::string &name, const LoadOptions &options, const Style &style,
                               simdjson::ondemand::parser *parser)
    : m_input(input), m_name(name), m_options(options), m_parser(parser ? *parser : m_ownParser), m_style(style)
{
}

uint64_t JsonReaderBase::fileSize() const
{
    return m_fileEnd ? m_fileEnd : m_textOffset + m_input.size();
}

size_t JsonReaderBase::firstByte() const
{
    const std::string_view text = m_input.view();
    size_t first = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (first < text.size() && text::isSpace(text[first]))
        ++first;
    return first;
}

void JsonReaderBase::startDocument()
{
    MemoryBudget::requireForParsing(m_input.size(), m_name, m_options.memoryBudget);
    // A UTF-8 byte order mark (written by some Windows editors and tools) is not JSON: the document
    // starts after it. Offsets stay those of the file, since position() counts from m_input.data().
    const size_t bom = m_input.view().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    simdjson::padded_string_view json(m_input.data() + bom, m_input.size() - bom, m_input.capacity() - bom);
    if (auto err = m_parser.iterate(json).get(m_doc))
        failJson(err, "expected a JSON document");
    m_haveDoc = true;
}

simdjson::ondemand::object JsonReaderBase::topObject()
{
    simdjson::ondemand::object top;
    if (auto err = m_doc.get_object().get(top))
        failJson(err, "expected a JSON object");
    return top;
}

simdjson::ondemand::field JsonReaderBase::fieldOf(simdjson::simdjson_result<simdjson::ondemand::field> field, const std::string &expected)
{
    simdjson::ondemand::field f;
    if (auto err = std::move(field).get(f))
        failJson(err, expected);
    return f;
}

uint64_t JsonReaderBase::position(uint64_t otherwise)
{
    const char *p = nullptr;
    if (!m_haveDoc || m_doc.current_location().get(p) != simdjson::SUCCESS || !p)
        return otherwise;
    return m_textOffset + uint64_t(p - m_input.data());
}

void JsonReaderBase::progress()
{
    if (m_options.cancelled())
        throw LoadCancelled();
    if (m_options.progress && m_input.size()) {
        const uint64_t done = std::min<uint64_t>(location() - m_textOffset, m_input.size());
        m_options.report(m_style.progressFrom + int(uint64_t(m_style.progressSpan) * done / m_input.size()));
    }
}

void JsonReaderBase::fail(uint64_t offset, const std::string &problem) const
{
    throw ImportError(m_name, offset, problem);
}

void JsonReaderBase::failJson(simdjson::error_code err, const std::string &expected)
{
    using simdjson::error_code;
    const std::string what = simdjson::error_message(err);
    const std::string_view text = m_input.view();
    switch (err) {
    case error_code::UNCLOSED_STRING:
        fail(m_textOffset + jsontext::unclosedString(text), std::string(m_style.unclosedString) + "; " + expected);
    case error_code::UTF8_ERROR:
        fail(m_textOffset + jsontext::invalidUtf8(text), "invalid UTF-8 in the JSON text; " + expected);
    case error_code::UNESCAPED_CHARS:
        fail(m_textOffset + jsontext::unescapedControl(text), std::string(m_style.unescapedControl) + "; " + expected);
    case error_code::DEPTH_ERROR:
        fail(location(), "JSON nested deeper than 1024 levels; " + expected);
    case error_code::CAPACITY:
        fail(0, "decompressed JSON larger than 4 GiB is not supported yet");
    case error_code::INCOMPLETE_ARRAY_OR_OBJECT:
    case error_code::EMPTY:
        fail(fileSize(), "unexpected end of file (truncated file?); " + expected);
    default:
        break;
    }
    if (!m_haveDoc) // stage 1 failed: simdjson cannot say where, and m_doc must not be asked
        throw ImportError(m_name, "invalid JSON (" + what + "); " + expected);
    const uint64_t at = location();
    // simdjson places an improper structure where its iteration stopped, often the end of the text; a
    // stray ',' before that is the byte to name.
    if (err == error_code::TAPE_ERROR)
        if (const uint64_t comma = jsontext::strayComma(text); comma && m_textOffset + comma < at)
            fail(m_textOffset + comma, "invalid JSON: a ',' with no value before or after it; " + expected);
    if (at >= fileSize())
        fail(fileSize(), "unexpected end of file (truncated file?); " + expected + " (" + what + ")");
    fail(at, "invalid JSON (" + what + "); " + expected);
}

std::string_view JsonReaderBase::rawKey(sj::field &f, bool &escaped)
{
    const char *p = f.key().raw();
    const char *q = jsonquote::nextQuoteOrBackslash(p);
    if (*q == '\\') {
        escaped = true;
        return {};
    }
    escaped = false;
    return {p, size_t(q - p)};
}

std::string_view JsonReaderBase::keyOf(sj::field &f, const char *expected)
{
    bool escaped = false;
    std::string_view key = rawKey(f, escaped);
    if (escaped && f.unescaped_key().get(key))
        failJson(simdjson::STRING_ERROR, expected);
    return key;
}

bool JsonReaderBase::numberOrStringText(sj::value &v, std::string_view &text)
{
    sj::json_type t;
    if (v.type().get(t))
        return false;
    if (t == sj::json_type::number) {
        text = v.raw_json_token();
        return true;
    }
    return t == sj::json_type::string && v.get_string().get(text) == simdjson::SUCCESS;
}

} // namespace lanescope
