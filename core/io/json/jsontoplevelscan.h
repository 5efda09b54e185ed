#pragma once
// The top-level keys of a JSON object, found without parsing its values: format recognition reads a
// file's structure (which keys the object has, wherever they sit) instead of looking for words in its
// first bytes. The scan looks only at '"' and '\\' inside strings and at brackets, ',' and ':' outside
// them, so a value of any size costs one pass over its bytes and no memory; text is fed in pieces of
// any size (a file read in chunks, a stream's first block).
//
// Only the structure of the top level is checked; a value's own syntax is the importer's business.
// A short string value of a top-level key is kept ("format": "lanescope-rank-summary").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

class JsonTopLevelScan
{
public:
    enum class Shape : uint8_t {
        Unknown, // no text but whitespace yet
        Object,
        Array,
        Other, // the text does not start with '{' or '['
    };
    struct Key
    {
        std::string name;   // as written between the quotes (escapes kept)
        uint64_t offset = 0; // of its opening quote in the text fed
        char value = 0;      // the first character of its value: '{', '[', '"', a digit, 't', ... (0: not reached)
        std::string text;    // a string value of at most kMaxText bytes (escapes kept), else empty
    };
    static constexpr size_t kMaxKeys = 4096;   // keys kept (a larger object is not a format's top level)
    static constexpr size_t kMaxKeyBytes = 256; // a key longer than this is kept cut
    static constexpr size_t kMaxText = 256;

    // Scans the next piece of text. Returns false once nothing more can be learnt (the object closed,
    // the text is not an object, or its top level is broken).
    bool feed(std::string_view text);
    Shape shape() const { return m_shape; }
    const std::vector<Key> &keys() const { return m_keys; }
    bool hasKey(std::string_view name) const;
    // The object's closing '}' was read: keys() holds every top-level key.
    bool complete() const { return m_state == State::Done; }
    // The top level is not well-formed JSON at `brokenAt()` (a key that is not a string, no ':' after a
    // key, no ',' or '}' after a value, more than kMaxKeys keys).
    bool broken() const { return m_state == State::Broken; }
    uint64_t brokenAt() const { return m_brokenAt; }
    uint64_t scanned() const { return m_offset; }

private:
    enum class State : uint8_t { Start, KeyOrEnd, Key, Colon, ValueStart, Nested, Scalar, StringValue, AfterValue, Done, Broken };
    void breakAt(uint64_t at);

    Shape m_shape = Shape::Unknown;
    State m_state = State::Start;
    std::vector<Key> m_keys;
    uint64_t m_offset = 0; // text fed so far
    uint64_t m_brokenAt = 0;
    int m_depth = 0;        // inside a value: brackets open
    bool m_inString = false; // inside a value: in a string
    bool m_escape = false;   // the previous byte of a string was an unescaped '\\'
    bool m_keepText = false; // a string value short enough so far to be kept
    bool m_afterComma = false;
};

} // namespace lanescope
