#include "jsonobjectpieces.h"

#include "io/input/importerror.h"
#include "io/input/inputstream.h"
#include "io/input/memorybudget.h"
#include "jsontextscan.h"
#include "util/textutil.h"

#include <algorithm>

namespace lanescope {

namespace {

// "{" + text after the ']' with the ',' that continues the object made a space. Anything else is
// left for the piece's reader to name, as it names it in the whole text.
std::string continued(std::string_view rest)
{
    std::string out = "{" + std::string(rest);
    const size_t c = out.find_first_not_of(" \t\r\n", 1);
    if (c != std::string::npos && out[c] == ',')
        out[c] = ' ';
    return out;
}

} // namespace

InputBuffer JsonObjectPieces::before(std::string_view prefix)
{
    return InputBuffer::ofText({prefix, "]}"});
}

InputBuffer JsonObjectPieces::between(std::string_view lead)
{
    return InputBuffer::ofText({continued(lead.substr(1)), "]}"});
}

InputBuffer JsonObjectPieces::after(std::string_view suffix)
{
    return InputBuffer::ofText({continued(suffix)});
}

uint64_t JsonObjectPieces::firstByte(std::string_view prefix, uint64_t prefixOffset)
{
    size_t first = prefix.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (first < prefix.size() && text::isSpace(prefix[first]))
        ++first;
    return prefixOffset + first;
}

void JsonObjectPieces::truncated(const InputBuffer &lastWindow, uint64_t windowOffset, uint64_t fileEnd, const std::string &name,
                                 const char *unclosedString, const std::string &expected)
{
    bool inString = false;
    const std::string_view text = lastWindow.view();
    for (size_t i = 0; i < text.size(); ++i) {
        if (inString && text[i] == '\\')
            ++i;
        else if (text[i] == '"')
            inString = !inString;
    }
    if (const uint64_t at = JsonTextScan::unclosedString(text); inString && at)
        throw ImportError(name, windowOffset + at, std::string(unclosedString) + "; expected a JSON document");
    throw ImportError(name, fileEnd, "unexpected end of file (truncated file?); expected " + expected);
}

void JsonObjectPieces::requireModel(uint64_t modelBytes, uint64_t budget, const std::string &name, uint64_t offset, uint64_t records)
{
    if (modelBytes > budget)
        throw ImportError(name, offset,
                          "the profile grows past the memory budget of " + MemoryBudget::format(budget) + " (" +
                              MemoryBudget::format(modelBytes) + " after " + std::to_string(records) + " records; " +
                              MemoryBudget::hint() + ")");
}

size_t JsonObjectPieces::windowBytes(const InputStream &input, const LoadOptions &options)
{
    const uint64_t bySize = std::max<uint64_t>(input.compressedSize() / 32, uint64_t(1) << 20);
    return size_t(std::min<uint64_t>({options.jsonWindowBytes, bySize, std::max<uint64_t>(options.memoryBudget / 8, 1)}));
}

void JsonObjectPieces::progress(const InputStream &input, uint64_t mergedTo, const LoadOptions &options, int from, int span)
{
    if (options.cancelled())
        throw LoadCancelled();
    if (!options.progress || !input.compressedSize())
        return;
    const uint64_t done = input.compression() == Compression::None ? mergedTo : input.compressedPosition();
    options.report(from + int(uint64_t(span) * std::min(done, input.compressedSize()) / input.compressedSize()));
}

} // namespace lanescope
