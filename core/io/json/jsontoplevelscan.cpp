#include "jsontoplevelscan.h"

namespace lanescope {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Inside a nested value outside strings only these bytes matter.
bool structural(char c) { return c == '"' || c == '{' || c == '[' || c == '}' || c == ']'; }

} // namespace

bool JsonTopLevelScan::hasKey(std::string_view name) const
{
    for (const Key &k : m_keys)
        if (k.name == name)
            return true;
    return false;
}

void JsonTopLevelScan::breakAt(uint64_t at)
{
    m_state = State::Broken;
    m_brokenAt = at;
}

bool JsonTopLevelScan::feed(std::string_view text)
{
    const char *s = text.data();
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        if (m_shape == Shape::Array || m_shape == Shape::Other || m_state == State::Done || m_state == State::Broken)
            break;
        const char c = s[i];
        switch (m_state) {
        case State::Start:
            if (isSpace(c) || (m_offset + i < 3 && (uint8_t(c) == 0xEF || uint8_t(c) == 0xBB || uint8_t(c) == 0xBF))) {
                ++i;
                continue;
            }
            m_shape = c == '{' ? Shape::Object : c == '[' ? Shape::Array : Shape::Other;
            m_state = State::KeyOrEnd;
            ++i;
            continue;
        case State::KeyOrEnd:
            ++i;
            if (isSpace(c))
                continue;
            if (c == '"') {
                if (m_keys.size() >= kMaxKeys) {
                    breakAt(m_offset + i - 1);
                    continue;
                }
                m_keys.push_back(Key{{}, m_offset + i - 1, 0, {}});
                m_state = State::Key;
                m_escape = false;
            } else if (c == '}' && !m_afterComma) {
                m_state = State::Done;
            } else {
                breakAt(m_offset + i - 1);
            }
            continue;
        case State::Key: {
            // up to the closing quote, escapes skipped
            Key &k = m_keys.back();
            while (i < n) {
                const char d = s[i++];
                if (m_escape) {
                    m_escape = false;
                } else if (d == '\\') {
                    m_escape = true;
                } else if (d == '"') {
                    m_state = State::Colon;
                    break;
                }
                if (k.name.size() < kMaxKeyBytes)
                    k.name += d;
            }
            continue;
        }
        case State::Colon:
            ++i;
            if (isSpace(c))
                continue;
            if (c == ':')
                m_state = State::ValueStart;
            else
                breakAt(m_offset + i - 1);
            continue;
        case State::ValueStart:
            if (isSpace(c)) {
                ++i;
                continue;
            }
            m_keys.back().value = c;
            m_afterComma = false;
            if (c == '"') {
                ++i;
                m_state = State::StringValue;
                m_keepText = true;
                m_escape = false;
            } else if (c == '{' || c == '[') {
                ++i;
                m_state = State::Nested;
                m_depth = 1;
                m_inString = false;
                m_escape = false;
            } else if (c == ',' || c == '}' || c == ']' || c == ':') {
                breakAt(m_offset + i);
            } else {
                m_state = State::Scalar; // a number, true, false, null: up to the next separator
            }
            continue;
        case State::StringValue: {
            Key &k = m_keys.back();
            while (i < n) {
                const char d = s[i++];
                if (m_escape) {
                    m_escape = false;
                } else if (d == '\\') {
                    m_escape = true;
                } else if (d == '"') {
                    m_state = State::AfterValue;
                    break;
                }
                if (m_keepText) {
                    if (k.text.size() < kMaxText) {
                        k.text += d;
                    } else {
                        k.text.clear();
                        m_keepText = false;
                    }
                }
            }
            continue;
        }
        case State::Scalar:
            if (c == ',' || c == '}' || isSpace(c))
                m_state = State::AfterValue; // read again there
            else
                ++i;
            continue;
        case State::Nested:
            while (i < n) {
                if (m_inString) {
                    if (m_escape) {
                        m_escape = false;
                        ++i;
                        continue;
                    }
                    size_t j = i; // to the next '"' or '\\'
                    while (j < n && s[j] != '"' && s[j] != '\\')
                        ++j;
                    if (j == n) {
                        i = n;
                        break;
                    }
                    m_escape = s[j] == '\\';
                    m_inString = m_escape;
                    i = j + 1;
                    continue;
                }
                const char d = s[i++];
                if (!structural(d))
                    continue;
                if (d == '"') {
                    m_inString = true;
                } else if (d == '{' || d == '[') {
                    ++m_depth;
                } else if (--m_depth == 0) {
                    m_state = State::AfterValue;
                    break;
                }
            }
            continue;
        case State::AfterValue:
            ++i;
            if (isSpace(c))
                continue;
            if (c == ',') {
                m_state = State::KeyOrEnd;
                m_afterComma = true;
            } else if (c == '}') {
                m_state = State::Done;
            } else {
                breakAt(m_offset + i - 1);
            }
            continue;
        case State::Done:
        case State::Broken:
            break;
        }
    }
    m_offset += i; // stopped early (closed, broken): the rest was not scanned
    return m_shape != Shape::Array && m_shape != Shape::Other && m_state != State::Done && m_state != State::Broken;
}

} // namespace lanescope
