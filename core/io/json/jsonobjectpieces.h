#pragma once
// The top-level text of a JSON object around its windowed arrays (JsonWindowSplitter with several
// keys), made into small JSON objects of their own so a reader parses them with the rules it has for
// the whole file: the text before the first array with "]}" after its '[', the text between two
// arrays with "{" in place of the ']' (its ',' made a space) and "]}" after the '[', the text after
// the last array with "{" in place of the ']'. Every byte keeps its file offset (the '{' stands at the
// ']''s offset), so a reader given the piece's offset names file bytes. Also the load's progress
// between windows.
#include "io/input/inputbuffer.h"
#include "io/input/loadoptions.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lanescope {

class Diagnostics;
class InputStream;
class JsonWindowSplitter;

class JsonObjectPieces
{
public:
    static InputBuffer before(std::string_view prefix);
    static InputBuffer between(std::string_view lead);
    static InputBuffer after(std::string_view suffix);
    // The file offset of the first byte of `prefix` (after a UTF-8 byte order mark and whitespace).
    static uint64_t firstByte(std::string_view prefix, uint64_t prefixOffset);
    // The input ended inside a windowed array (the splitter is not terminated() after its last window):
    // a cut file (a crashed export, a partial copy). The windows held every element before the cut;
    // one warning says so, at the byte where the text ends (and where the element it cuts off starts).
    // `array`: what the array is called (empty: 'the "<key>" array'), `rows`: its elements ("event").
    static void reportCut(const JsonWindowSplitter &splitter, Diagnostics &diagnostics, std::string_view array, const char *rows);
    // The text is read a window at a time, so the budget bounds the model: throws ImportError (at
    // `offset`, naming the budget and `records` read so far) when `modelBytes` is past it.
    static void requireModel(uint64_t modelBytes, uint64_t budget, const std::string &name, uint64_t offset, uint64_t records);
    // Window size for `input`: LoadOptions::jsonWindowBytes, but at most a 32nd of the input (and at
    // least 1 MiB) so progress and cancel checks come often and both cores have windows to parse, and
    // at most an eighth of the memory budget (a window and its parse index stay well inside it).
    static size_t windowBytes(const InputStream &input, const LoadOptions &options);
    // Checks cancel (throws LoadCancelled) and reports from + span * the part of the input merged:
    // plain text (and text in memory) by `mergedTo`, the file offset reached, compressed input by the
    // bytes decoded.
    static void progress(const InputStream &input, uint64_t mergedTo, const LoadOptions &options, int from, int span);
};

} // namespace lanescope
