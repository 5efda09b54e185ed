#pragma once
// Cuts the event array of a JSON trace into windows of whole elements, read from an InputStream, so
// a file of any size is parsed a window at a time (and windows in parallel). The event array is the
// value of `arrayKey` in a top-level object ("traceEvents" of Chrome/Kineto, whose metadata keys come
// before and after it) or a bare top-level array. The scan looks only at '"' and '\\' inside strings
// and at brackets and ',' outside them, so escaped quotes and multi-byte UTF-8 never end a window
// early; elements are never split.
//
// A window is handed out as padded text "[" + elements + "]" with the file offset of its first byte
// (the '[' stands for the byte before the first element: the array's '[' or the ',' before it), so
// a parser's offsets plus that base are file offsets. Offsets are 64-bit throughout: files past
// 4 GiB are fine.
//
// With several keys (the second constructor: neuron-profile's "instruction", "dma", ... or
// system_profile.json's "trace_events", "mem_usage", "cpu_util"), every array value of one of them at
// the top level is cut into windows, in file order, keys in any order and repeated; a window's `key`
// says whose array it belongs to, and the first window of every array after the first carries `lead`:
// the top-level text from the previous array's ']' through this array's '[' (prefix() is the text
// before the first array, suffix() the text after the last). A reader parses those pieces with a "[]"
// in place of each windowed array.
#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanescope {

struct JsonWindow
{
    InputBuffer text;      // "[" elements "]" with padding
    uint64_t offset = 0;   // file offset of text[0]
    uint64_t index = 0;    // 0, 1, 2, ... in file order
    uint64_t end = 0;      // the end of the file when the window reaches it (an unterminated array), else 0
    uint32_t key = 0;      // several keys: index of the key whose array holds the window
    std::string lead;      // several keys, first window of a later array: "]" ... "[" before it, else empty
    uint64_t leadOffset = 0; // file offset of lead[0] (the previous array's ']')
};

class JsonWindowSplitter
{
public:
    enum class Shape { Object, Array, Other };

    // `windowBytes`: a window ends at the first element boundary past this many bytes.
    // `maxElementBytes`: one element (or the text before the array) larger than this is a clear
    // error naming the memory budget, not an unbounded buffer (a whitespace bomb inside the array).
    JsonWindowSplitter(InputStream &input, std::string_view arrayKey, size_t windowBytes, uint64_t maxElementBytes);
    // Several keys: the arrays of all of them at the top level of an object (a bare top-level array
    // is read as the array of keys[0]). terminated(), arrayEnd() and suffix() then describe the last
    // array; Other when none of the keys holds an array.
    JsonWindowSplitter(InputStream &input, std::vector<std::string> arrayKeys, size_t windowBytes, uint64_t maxElementBytes);

    // Reads up to the first element of the event array. Other: no such array; prefix() is then the
    // whole input.
    Shape start();
    // The bytes before the first element (through the array's '['), or the whole input for Other.
    const std::string &prefix() const { return m_prefix; }
    uint64_t prefixOffset() const { return m_start; } // file offset of prefix()[0]
    // The next window of whole elements; false once the array is done.
    bool next(JsonWindow &window);
    // After next() returned false: whether the array was closed by ']' (else the input ended inside
    // it), the offset of that ']' (or of the end of the trimmed text when unterminated), and every
    // byte after it (the rest of the top-level object).
    bool terminated() const { return m_terminated; }
    uint64_t arrayEnd() const { return m_arrayEnd; }
    // Bytes of text the array form stands for: the input, or for an unterminated array the text up to
    // its last element closed by the ']' the reader adds (what a whole-file reader would have parsed).
    uint64_t textSize() const { return m_textSize; }
    const std::string &suffix() const { return m_suffix; }
    // Unterminated: the file offset where the input ends, and where the element it cuts off starts
    // (0 when the input ends between elements). The windows hold every element before it. Text that
    // cannot be the start of one element (an unescaped quote earlier, whose string runs to the end of
    // the file with line breaks in it; more than 1 MiB) is not taken for a cut: the last window then
    // holds it and its parser names the byte.
    uint64_t inputEnd() const { return m_inputEnd; }
    uint64_t cutElementAt() const { return m_cutElement; }
    // The compressed stream ended early (a cut .gz / .zst): the decoder's words, else empty.
    const std::string &endsEarly() const { return m_input.endsEarly(); }
    // The key of the open (or last) array.
    std::string_view arrayKey() const { return m_keys.empty() ? std::string_view(m_key) : std::string_view(m_keys[m_keyIndex]); }
    Shape shape() const { return m_shape; }
    // Gives a window's text back once it is parsed: the next window is written into its memory.
    void recycle(InputBuffer &&text) { m_spare = std::move(text); }

private:
    enum class Stop { NeedMore, Comma, Close };
    bool pull();
    Stop scan();
    // What the scan tracks, copied into a local for the length of one scan() so it stays in registers
    // (the text is chars, which may alias any member).
    struct Level
    {
        int depth;
        int eventDepth;
        size_t windowStart;
        size_t windowBytes;
        uint64_t base;
        uint64_t elementOffset;
        bool elementStale; // blocks were counted, not read: elementOffset may be an earlier element's
    };
    // An opening or closing bracket or a comma at `at`, outside strings, in both scan paths: a Stop
    // when the window ends there, else NeedMore.
    static Stop atStructural(char c, size_t at, Level &level);
    // Byte by byte from `i` (which ends where it stopped): the tail of a scan, and findElementStart().
    static Stop scanBytes(std::string_view b, size_t &i, bool &inString, Level &level);
    void findArray();
    // Several keys: after an array's ']', the top-level text up to the next array (its first window
    // gets it as `lead`); false at the end of the input (the text is then the suffix).
    bool nextArray();
    void closeArray();
    // Inside an event array the open window always starts at m_buf[1] (start(), nextArray() and every
    // cut leave it there), so no bytes of earlier windows are ever kept.
    // Hands out m_buf[1, to) as a window (m_buf[0] is the byte before it) in m_buf's own memory; the
    // bytes from `to` on move to a fresh buffer, which becomes m_buf with `to` as its index 0.
    JsonWindow cut(size_t to);
    // Drops the first n bytes of m_buf (positions shift down, m_base up).
    void dropFront(size_t n);
    // How many bytes the next pull() takes from the stream.
    size_t pullBytes() const;
    // The step once a window has its size: a 16th of it, between 64 bytes and kStepBytes.
    size_t stepBytes() const;
    // Reads the open window once more byte by byte for the start of its last element (after blocks
    // were counted by popcount, m_elementOffset can be an earlier element's).
    void findElementStart();
    static bool plausibleCut(std::string_view element);
    // No element between the ',' at `comma` (outside strings) and the separator before it ("[ ," or
    // ", ,"): a stray ',', which must stay in a window for its parser to name, never end one or be
    // dropped as the trailing comma of an unterminated array.
    bool strayCommaAt(size_t comma) const;
    static constexpr size_t kMaxCutElement = size_t(1) << 20;
    std::string_view buf() const { return m_buf.view(); }
    [[noreturn]] void tooLarge(const char *what) const;

    // Before the event array the stream is taken this much at a time. Inside it, up to the window's size
    // at once, then in steps of kStepBytes (at most) until the element boundary that ends the window: the
    // bytes after that boundary are copied once more, into the next window.
    static constexpr size_t kPullBytes = size_t(256) << 10;
    static constexpr size_t kStepBytes = size_t(16) << 10;

    InputStream &m_input;
    std::string_view m_pending; // the rest of the stream's current block (valid until its next())
    std::string m_key;
    std::vector<std::string> m_keys; // several keys (empty: m_key alone)
    uint32_t m_keyIndex = 0;         // the key of the open array
    bool m_between = false;          // several keys: an array closed, the next not yet found
    std::string m_lead;              // for the next window handed out
    uint64_t m_leadOffset = 0;
    size_t m_windowBytes;
    uint64_t m_maxElement;
    Shape m_shape = Shape::Other;

    uint64_t m_start = 0; // file offset where the input starts
    uint64_t m_base = 0;  // file offset of m_buf[0]
    InputBuffer m_buf;   // bytes from the byte before the open window (or from the start, before the array)
    size_t m_scan = 0;   // scan position in m_buf
    size_t m_windowStart = 0;
    uint64_t m_elementOffset = 0; // file offset where the open element starts (after the last ',')
    bool m_elementStale = false;  // see Level::elementStale
    bool m_inString = false;
    int m_depth = 0;
    int m_eventDepth = 0;
    bool m_afterComma = false; // the open window starts after a ','
    bool m_done = false;
    bool m_eof = false;
    uint64_t m_windows = 0;

    InputBuffer m_spare;
    std::string m_prefix;
    std::string m_suffix;
    bool m_terminated = false;
    uint64_t m_arrayEnd = 0;
    uint64_t m_textSize = 0;
    uint64_t m_inputEnd = 0;
    uint64_t m_cutElement = 0;
};

} // namespace lanescope
