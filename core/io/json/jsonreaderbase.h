#pragma once
// What every simdjson On-Demand reader of a whole file needs and wrote for itself before: starting
// the document (memory budget, padding), the byte offset of where the parse stands, progress on the
// 0-1000 scale with cancel checks, and failure messages "file: at byte N: expected ...", including
// the positions simdjson's stage 1 cannot report (jsontext, jsontextscan.h). Chrome/Kineto JSON,
// neuron-profile's JSON export and system_profile.json derive from it.
//
// Every offset given out is a file offset: the text being parsed starts at byte textOffset() of the
// file (0 when the text is the whole file; a window of the event array, JsonWindowSplitter, or the
// part of a top-level object after that array starts further on), so errors keep naming file bytes.
//
// This header holds simdjson types: whatever includes it must be compiled with simdjson::simdjson's
// definitions (SIMDJSON_THREADS_ENABLED changes the parser's layout), as lanescope_core is.
#include "io/input/loadoptions.h"

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

class InputBuffer;

class JsonReaderBase
{
public:
    // The parts of the messages and the progress scale that differ between readers.
    struct Style
    {
        int progressFrom = 200; // progress reported from progressFrom to progressFrom + progressSpan
        int progressSpan = 700; //   in proportion to the parse position in the text
        const char *unclosedString = "a string is never closed (truncated file?)";
        const char *unescapedControl = "a control character inside a string is not escaped (or a quote is missing)";
    };

    JsonReaderBase(const JsonReaderBase &) = delete;
    JsonReaderBase &operator=(const JsonReaderBase &) = delete;

protected:
    // `parser`: one to reuse (a window reader's thread parses many windows: its index is allocated and
    // its pages touched once); nullptr: the reader's own.
    JsonReaderBase(InputBuffer &input, const std::string &name, const LoadOptions &options, const Style &style,
                   simdjson::ondemand::parser *parser = nullptr);
    ~JsonReaderBase() = default;

    // First byte of the document: after a UTF-8 byte order mark and JSON whitespace (text size when none).
    size_t firstByte() const;
    // Checks the memory budget and starts On-Demand parsing of the whole input (failJson on error).
    void startDocument();

    // File offset of the parse position; `otherwise` when the document cannot say (not started yet).
    uint64_t position(uint64_t otherwise);
    // The same, the end of the file when the document cannot say.
    uint64_t location() { return position(fileSize()); }
    uint64_t textOffset() const { return m_textOffset; }
    // The text stands for file bytes from `offset` on; `fileEnd` is the file offset of the end of the
    // file when the text reaches it (0: the end of the text, offset + size).
    void setTextOffset(uint64_t offset, uint64_t fileEnd = 0)
    {
        m_textOffset = offset;
        m_fileEnd = fileEnd;
    }
    uint64_t fileSize() const;

    // Checks cancel (throws LoadCancelled) and reports progress from the parse position.
    void progress();

    [[noreturn]] void fail(uint64_t offset, const std::string &problem) const;
    // A simdjson error as a message naming the byte and `expected` (where simdjson cannot say, the
    // text is scanned for the unclosed string, invalid UTF-8 or control character).
    [[noreturn]] void failJson(simdjson::error_code err, const std::string &expected);

    // The document's top-level object (failJson "expected a JSON object" when it is not one).
    simdjson::ondemand::object topObject();
    // A field met iterating an object (failJson with `expected` when it cannot be read).
    simdjson::ondemand::field fieldOf(simdjson::simdjson_result<simdjson::ondemand::field> field, const std::string &expected);
    // The key of a field as written (no copy); `escaped` and empty when it holds a backslash.
    static std::string_view rawKey(simdjson::ondemand::field &f, bool &escaped);
    // The key of a field, unescaped when it has to be (failJson with `expected` when invalid).
    std::string_view keyOf(simdjson::ondemand::field &f, const char *expected = "expected a valid key");
    // The text of a number token as written (with any whitespace after it) or of a string's
    // contents; false for other types.
    static bool numberOrStringText(simdjson::ondemand::value &v, std::string_view &text);

    InputBuffer &m_input;
    const std::string &m_name;
    const LoadOptions &m_options;
private:
    simdjson::ondemand::parser m_ownParser;

protected:
    simdjson::ondemand::parser &m_parser;
    simdjson::ondemand::document m_doc;
    bool m_haveDoc = false; // iterate() succeeded: m_doc may be asked where it is

private:
    Style m_style;
    uint64_t m_textOffset = 0;
    uint64_t m_fileEnd = 0;
};

} // namespace lanescope
