#include "jsonwindowsplitter.h"

#include "io/input/importerror.h"
#include "io/input/memorybudget.h"
#include "jsonblockscan.h"
#include "jsontextscan.h"
#include "util/textutil.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lanescope {

namespace {

enum : uint8_t { kPlain = 0, kQuote, kOpen, kClose, kComma, kColon };

struct ByteClasses
{
    uint8_t c[256] = {};
    constexpr ByteClasses()
    {
        c[uint8_t('"')] = kQuote;
        c[uint8_t('[')] = kOpen;
        c[uint8_t('{')] = kOpen;
        c[uint8_t(']')] = kClose;
        c[uint8_t('}')] = kClose;
        c[uint8_t(',')] = kComma;
        c[uint8_t(':')] = kColon;
    }
};
constexpr ByteClasses kClasses;

// First byte at or after `i` that is a quote, a bracket or a ',' (the scan outside strings), or `n`.
// Sixteen bytes at a time where SSE2 is there (every x86-64): '[' / '{' and ']' / '}' differ only in
// bit 0x20, so two compares of (byte | 0x20) find all four.
size_t nextStructural(const char *p, size_t i, size_t n)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), comma = _mm_set1_epi8(','), open = _mm_set1_epi8('{'),
                  close = _mm_set1_epi8('}'), bit = _mm_set1_epi8(0x20);
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + i));
        const __m128i folded = _mm_or_si128(v, bit);
        const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, comma)),
                                         _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)));
        if (const int mask = _mm_movemask_epi8(hit))
            return i + size_t(__builtin_ctz(unsigned(mask)));
    }
#endif
    for (; i < n; ++i) {
        const uint8_t c = kClasses.c[uint8_t(p[i])];
        if (c != kPlain && c != kColon)
            return i;
    }
    return n;
}

// Whether the byte at `i` follows an odd run of backslashes (is escaped), inside a string or not.
bool escapedAt(std::string_view s, size_t i)
{
    size_t k = i;
    while (k > 0 && s[k - 1] == '\\')
        --k;
    return ((i - k) & 1) != 0;
}

// Position after the string whose opening quote was already passed, or npos when `s` ends inside it.
// A quote ends the string when an even number of backslashes precede it.
size_t stringEnd(std::string_view s, size_t from)
{
    for (;;) {
        const void *q = from < s.size() ? std::memchr(s.data() + from, '"', s.size() - from) : nullptr;
        if (!q)
            return std::string_view::npos;
        const size_t j = size_t(static_cast<const char *>(q) - s.data());
        if (!escapedAt(s, j))
            return j + 1;
        from = j + 1;
    }
}

} // namespace

JsonWindowSplitter::JsonWindowSplitter(InputStream &input, std::string_view arrayKey, size_t windowBytes, uint64_t maxElementBytes)
    : m_input(input), m_key(arrayKey), m_windowBytes(std::max<size_t>(windowBytes, 1)), m_maxElement(maxElementBytes),
      m_start(input.position()), m_base(m_start)
{
    m_input.acceptEndsEarly(); // a cut gzip / zstd file ends the text: what is complete loads
}

JsonWindowSplitter::JsonWindowSplitter(InputStream &input, std::vector<std::string> arrayKeys, size_t windowBytes,
                                       uint64_t maxElementBytes)
    : JsonWindowSplitter(input, std::string_view(), windowBytes, maxElementBytes)
{
    m_keys = std::move(arrayKeys);
}

size_t JsonWindowSplitter::pullBytes() const
{
    if (m_windowStart == 0 || m_shape == Shape::Other)
        return kPullBytes; // before or between event arrays
    const size_t filled = m_buf.size() - m_windowStart;
    if (filled < m_windowBytes)
        return std::min(m_windowBytes - filled, kPullBytes) + 64;
    return stepBytes();
}

size_t JsonWindowSplitter::stepBytes() const
{
    return std::clamp<size_t>(m_windowBytes / 16, 64, kStepBytes);
}

bool JsonWindowSplitter::pull()
{
    // The stream's block is taken a slice at a time, each scanned while it is still in the cache.
    if (m_pending.empty() && (m_eof || !m_input.next(m_pending))) {
        m_eof = true;
        return false;
    }
    const std::string_view bytes = m_pending.substr(0, pullBytes());
    m_pending.remove_prefix(bytes.size());
    m_buf.append(bytes);
    return true;
}

void JsonWindowSplitter::dropFront(size_t n)
{
    m_buf.eraseFront(n);
    m_base += n;
    m_scan = m_scan > n ? m_scan - n : 0;
    m_windowStart = m_windowStart > n ? m_windowStart - n : 0;
}

void JsonWindowSplitter::tooLarge(const char *what) const
{
    throw ImportError(m_input.name(), std::max(m_elementOffset, m_base + m_windowStart),
                      std::string(what) + " is larger than " + MemoryBudget::format(m_maxElement)
                          + ", a quarter of the memory budget (a compression bomb or a damaged file; " + MemoryBudget::hint() + ")");
}

JsonWindowSplitter::Shape JsonWindowSplitter::start()
{
    while (m_buf.size() < 3 && pull()) {
    }
    size_t i = buf().substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    for (;;) {
        while (i < m_buf.size() && text::isSpace(buf()[i]))
            ++i;
        if (i < m_buf.size() || !pull())
            break;
    }
    if (i < m_buf.size() && buf()[i] == '[') {
        m_shape = Shape::Array;
        m_eventDepth = m_depth = 1;
        m_scan = m_windowStart = i + 1;
    } else if (i < m_buf.size() && buf()[i] == '{') {
        m_depth = 1;
        m_scan = i + 1;
        findArray();
    }
    if (m_shape == Shape::Other) {
        while (pull()) {
            if (m_buf.size() > m_maxElement)
                tooLarge("the JSON text before a \"traceEvents\" array");
        }
        m_prefix = std::string(buf());
        m_buf = InputBuffer();
        m_textSize = m_start + m_prefix.size();
        m_done = true;
        return m_shape;
    }
    m_prefix = std::string(buf().substr(0, m_windowStart));
    dropFront(m_windowStart - 1); // the array's '[' stays, as the byte before the window
    return m_shape;
}

// Top-level object: looks for `"key": [` at depth 1.
void JsonWindowSplitter::findArray()
{
    size_t keyFrom = 0, keyTo = 0; // last string closed at depth 1
    const auto isKey = [this](std::string_view key) {
        if (m_keys.empty())
            return key == m_key;
        for (size_t k = 0; k < m_keys.size(); ++k)
            if (key == m_keys[k]) {
                m_keyIndex = uint32_t(k);
                return true;
            }
        return false;
    };
    bool valueOfKey = false;      // after "key": at depth 1
    for (;;) {
        while (m_scan < m_buf.size()) {
            if (m_inString) {
                const size_t e = stringEnd(buf(), m_scan);
                if (e == std::string_view::npos) {
                    m_scan = m_buf.size();
                    break;
                }
                m_inString = false;
                keyTo = e - 1;
                m_scan = e;
                continue;
            }
            const char c = buf()[m_scan];
            switch (kClasses.c[uint8_t(c)]) {
            case kQuote:
                m_inString = true;
                keyFrom = m_scan + 1;
                keyTo = 0;
                valueOfKey = false;
                break;
            case kOpen:
                if (m_depth == 1 && c == '[' && valueOfKey) {
                    m_shape = Shape::Object;
                    m_eventDepth = m_depth = 2;
                    m_scan = m_windowStart = m_scan + 1;
                    return;
                }
                ++m_depth;
                valueOfKey = false;
                break;
            case kClose:
                --m_depth;
                valueOfKey = false;
                break;
            case kColon:
                valueOfKey = m_depth == 1 && keyTo >= keyFrom && isKey(buf().substr(keyFrom, keyTo - keyFrom));
                break;
            case kComma:
                valueOfKey = false;
                break;
            default:
                if (!text::isSpace(c))
                    valueOfKey = false;
                break;
            }
            ++m_scan;
        }
        if (m_buf.size() > m_maxElement)
            tooLarge("the JSON text before a \"traceEvents\" array");
        if (!pull())
            return;
    }
}

inline JsonWindowSplitter::Stop JsonWindowSplitter::atStructural(char c, size_t at, Level &l)
{
    if (c == ',') {
        if (l.depth == l.eventDepth) {
            if (at - l.windowStart >= l.windowBytes)
                return Stop::Comma;
            l.elementOffset = l.base + at + 1;
            l.elementStale = false;
        }
    } else if ((c | 0x20) == '{') { // '[' or '{'
        ++l.depth;
    } else { // ']' or '}'
        if (l.depth == l.eventDepth)
            return Stop::Close;
        --l.depth;
    }
    return Stop::NeedMore;
}

JsonWindowSplitter::Stop JsonWindowSplitter::scan()
{
    const std::string_view b = buf();
    size_t i = m_scan;
    Level level{m_depth, m_eventDepth, m_windowStart, m_windowBytes, m_base, m_elementOffset, m_elementStale};
    // Ends the scan at `at` (a stop) or with the rest waiting for more bytes.
    const auto done = [&](Stop stop, size_t at) {
        m_depth = level.depth;
        m_elementOffset = level.elementOffset;
        m_elementStale = level.elementStale;
        m_scan = at;
        return stop;
    };
#if defined(LANESCOPE_JSON_BLOCK_SCAN)
    // 64 bytes at a time: the quotes that are not escaped give the bytes inside strings (prefix xor).
    if (i + 64 <= b.size()) {
        jsonscan::State state;
        state.prevEscaped = escapedAt(b, i); // outside a string too, as scanBytes reads it
        if (m_inString)
            state.prevInString = ~uint64_t(0);
        // The scan's state as values (copied in and out by scanBlocks, kept in registers meanwhile).
        struct BlockReader
        {
            const char *text;
            Level level;
            Stop stop;
            size_t operator()(size_t base, const jsonscan::Masks &m)
            {
                // A block wholly inside the window's first windowBytes cannot end the window at a ',':
                // its brackets are counted, not read one by one. Only a closing bracket can stop the scan
                // there (the event array's ']'), and only when fewer levels are open above the array than
                // the block closes; then the depth before each closing bracket is counted from the bits
                // before it.
                if (base + 64 - level.windowStart <= level.windowBytes) {
                    const int closes = __builtin_popcountll(m.close);
                    if (level.depth - closes < level.eventDepth)
                        for (uint64_t bits = m.close; bits; bits &= bits - 1) {
                            const uint64_t before = (bits & -bits) - 1;
                            if (level.depth + __builtin_popcountll(m.open & before) - __builtin_popcountll(m.close & before) == level.eventDepth) {
                                const size_t at = base + size_t(__builtin_ctzll(bits));
                                level.depth = level.eventDepth;
                                stop = Stop::Close;
                                return at;
                            }
                        }
                    level.depth += __builtin_popcountll(m.open) - closes;
                    level.elementStale |= m.comma != 0;
                    return jsonscan::kNoStop;
                }
                return jsonscan::eachStructural(base, m, [this](size_t at) {
                    stop = atStructural(text[at], at, level);
                    return stop != Stop::NeedMore;
                });
            }
        };
        BlockReader reader{b.data(), level, Stop::NeedMore};
        bool stopped = false;
        i = jsonscan::scanBlocks(b.data(), i, b.size(), state, stopped, reader);
        level = reader.level;
        if (stopped) {
            m_inString = false;
            return done(reader.stop, i);
        }
        m_inString = state.prevInString != 0;
        if (!m_eof)
            return done(Stop::NeedMore, i); // the rest waits for more bytes (or the end of the input)
    }
#endif
    const Stop stop = scanBytes(b, i, m_inString, level);
    return done(stop, i);
}

JsonWindowSplitter::Stop JsonWindowSplitter::scanBytes(std::string_view b, size_t &i, bool &inString, Level &level)
{
    while (i < b.size()) {
        if (inString) {
            const size_t e = stringEnd(b, i);
            if (e == std::string_view::npos) {
                i = b.size();
                break;
            }
            inString = false;
            i = e;
            continue;
        }
        i = nextStructural(b.data(), i, b.size());
        if (i >= b.size())
            break;
        if (kClasses.c[uint8_t(b[i])] == kQuote) {
            // A quote after an odd run of backslashes opens no string, outside a string too: the block
            // scan (like simdjson's stage 1) finds escapes before it knows where strings are, and both
            // scans must split a text the same way (invalid JSON either way: the parser names it).
            inString = !escapedAt(b, i);
        } else if (const Stop stop = atStructural(b[i], i, level); stop != Stop::NeedMore)
            return stop;
        ++i;
    }
    return Stop::NeedMore;
}

// The start of one element, cut off: not the rest of a file whose string state an unescaped quote
// inverted (its line breaks then sit "inside" a string, and a JSON string holds no raw control
// character; on one line, the boundaries of the elements after it do: "}, {\""), and not longer than
// an element can plausibly be.
bool JsonWindowSplitter::plausibleCut(std::string_view element)
{
    if (element.size() > kMaxCutElement)
        return false;
    for (std::string_view boundary : {"}, {\"", "},{\""})
        if (element.find(boundary) != std::string_view::npos)
            return false;
    return jsontext::unescapedControl(element) == 0; // an element starts outside a string: 0 is "none"
}

void JsonWindowSplitter::findElementStart()
{
    // The window's bytes scanned so far, read again one by one from its start (outside a string, at
    // the event array's depth), with no window size: every ',' at that depth moves the element start.
    Level level{m_eventDepth, m_eventDepth, m_windowStart, SIZE_MAX, m_base, m_elementOffset, false};
    size_t i = m_windowStart;
    bool inString = false;
    scanBytes(buf().substr(0, m_scan), i, inString, level);
    m_elementOffset = level.elementOffset;
    m_elementStale = false;
}

JsonWindow JsonWindowSplitter::cut(size_t to)
{
    // The bytes after the window go to the next buffer (a recycled window's memory when there is one).
    InputBuffer rest = std::move(m_spare);
    m_spare = InputBuffer();
    size_t room = std::min(m_windowBytes, kPullBytes * 16) + stepBytes() + 128;
    // Text of a known size (in memory, a plain file) needs no more room than it has bytes (append()
    // grows the buffer should a file have grown): a small text does not get a 1 MiB buffer per window
    // (under ASan an mmap each, a quarter of fuzz_chromejson's time).
    if (m_input.compression() == Compression::None && m_input.compressedSize())
        room = size_t(std::min<uint64_t>(room, m_input.compressedSize() + 128));
    rest.clearFor(room);
    rest.append(buf().substr(to));
    JsonWindow w;
    w.offset = m_base;
    w.index = m_windows++;
    w.text = std::move(m_buf);
    w.text.truncate(to);
    w.text.mutableData()[0] = '[';
    w.text.append("]");
    w.text.pad();
    m_buf = std::move(rest);
    m_base += to;
    m_scan = m_scan > to ? m_scan - to : 0;
    m_windowStart = 0;
    m_elementStale = false;
    return w;
}

void JsonWindowSplitter::closeArray()
{
    m_terminated = true;
    m_arrayEnd = m_base; // m_buf starts at the ']'
    m_scan = 1;
    m_windowStart = 0; // nothing is dropped while the next array is looked for
    m_depth = 1;
    m_inString = false;
    m_between = true;
}

bool JsonWindowSplitter::nextArray()
{
    m_between = false;
    findArray();
    if (m_windowStart == 0) { // the end of the input: the rest of the object is the suffix
        m_suffix = std::string(buf().substr(1));
        m_buf.truncate(0);
        m_textSize = m_arrayEnd + 1 + m_suffix.size();
        m_done = true;
        return false;
    }
    m_lead = std::string(buf().substr(0, m_windowStart));
    m_leadOffset = m_base;
    dropFront(m_windowStart - 1); // the array's '[' stays, as the byte before the window
    m_afterComma = false;
    return true;
}

bool JsonWindowSplitter::strayCommaAt(size_t comma) const
{
    // Outside strings, so a ',' before the white space is the previous separator; m_windowStart is just
    // past the array's '[' or the ',' that ended the window before.
    size_t k = comma;
    while (k > m_windowStart && text::isSpace(buf()[k - 1]))
        --k;
    return k == m_windowStart || buf()[k - 1] == ',';
}

bool JsonWindowSplitter::next(JsonWindow &window)
{
    if (m_done)
        return false;
    if (m_between && !nextArray())
        return false;
    const auto handOut = [this, &window] {
        window.key = m_keyIndex;
        if (!m_lead.empty()) {
            window.lead = std::move(m_lead);
            window.leadOffset = m_leadOffset;
            m_lead.clear();
        }
        return true;
    };
    for (;;) {
        const Stop stop = scan();
        if (stop == Stop::Comma) {
            // A window ending at a stray ',' would hide it (alone it parses as "[]", after an element as
            // a trailing comma one byte early). It stays in the window with what follows, whose parser
            // names it as the whole text's would.
            if (strayCommaAt(m_scan)) {
                m_elementOffset = m_base + m_scan + 1;
                m_elementStale = false;
                ++m_scan;
                continue;
            }
            window = cut(m_scan); // the next window's buffer starts with this ','
            m_scan = m_windowStart = 1;
            m_afterComma = true;
            return handOut();
        }
        if (stop == Stop::Close) {
            if (buf()[m_scan] != ']')
                throw ImportError(m_input.name(), m_base + m_scan, "expected ',' or ']' after an element of the event array");
            const bool empty = text::trim(buf().substr(m_windowStart, m_scan - m_windowStart)).empty();
            // "[ ..., ]": the ',' before the window goes back into it, so the parser names it as it
            // would in one piece.
            if (empty && m_afterComma) {
                window = JsonWindow{InputBuffer::ofText({"[", buf().substr(m_windowStart - 1, m_scan - m_windowStart + 1), "]"}),
                                    m_base + m_windowStart - 2, m_windows++};
                dropFront(m_scan);
            } else {
                window = cut(m_scan);
            }
            // m_buf now starts at the ']'.
            if (!m_keys.empty() && m_shape == Shape::Object) {
                handOut();
                closeArray();
                return true;
            }
            m_terminated = true;
            m_arrayEnd = m_base;
            m_suffix = std::string(buf().substr(1));
            m_buf.truncate(0);
            m_scan = m_windowStart = 0;
            while (pull()) {
                m_suffix.append(buf());
                m_buf.truncate(0);
                if (m_suffix.size() > m_maxElement)
                    tooLarge("the JSON text after the \"traceEvents\" array");
            }
            m_textSize = m_arrayEnd + 1 + m_suffix.size();
            m_done = true;
            return true;
        }
        uint64_t element = std::max(m_elementOffset, m_base + m_windowStart);
        if (m_base + m_buf.size() - element > m_maxElement && m_elementStale) {
            findElementStart();
            element = std::max(m_elementOffset, m_base + m_windowStart);
        }
        if (m_base + m_buf.size() - element > m_maxElement)
            tooLarge("one element of the event array");
        if (pull())
            continue;
        if (m_scan < m_buf.size())
            continue; // the end of the input: the last bytes are scanned one by one
        // The input ends inside the array: older exporters stop without the closing ']' (and with a
        // trailing comma), a crashed export or a partial copy stops anywhere, also inside an element.
        // The last window holds every element that is complete; an element the input cuts off is left
        // out (cutElementAt() says where it starts).
        m_inputEnd = m_base + m_buf.size();
        size_t end = m_buf.size();
        if (m_inString || m_depth > m_eventDepth) {
            if (m_elementStale)
                findElementStart();
            const uint64_t element = std::max(m_elementOffset, m_base + m_windowStart);
            if (plausibleCut(buf().substr(size_t(element - m_base)))) {
                m_cutElement = element;
                end = size_t(m_cutElement - m_base);
            } // else malformed: the parser names the byte, as for any bad element
        }
        while (end > m_windowStart && text::isSpace(buf()[end - 1]))
            --end;
        m_arrayEnd = m_base + end;
        // A trailing ',' is dropped (the reader's ']' follows the last element); a stray one stays for
        // the parser to name, as in the middle of the array.
        size_t to = end;
        if (to > m_windowStart && buf()[to - 1] == ',' && !strayCommaAt(to - 1))
            --to;
        m_terminated = false;
        m_done = true;
        // Nothing after the last ',' (the byte before the window, where an earlier window ended): the
        // ']' the reader adds stands in for that ',', as it does when the whole text is one window.
        const bool nothingAfter = to == m_windowStart && m_windows > 0;
        m_textSize = m_base + (nothingAfter ? to - 1 : to) + 1;
        if (nothingAfter)
            return false;
        window = cut(to);
        window.end = m_inputEnd;
        return handOut();
    }
}

} // namespace lanescope
