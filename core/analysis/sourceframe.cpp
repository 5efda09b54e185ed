#include "sourceframe.h"

#include "util/textutil.h"

namespace lanescope {

namespace {

constexpr size_t kMaxLineDigits = 9; // fits uint32_t

bool hasLineBreak(std::string_view s)
{
    return s.find_first_of("\r\n") != std::string_view::npos;
}

} // namespace

std::optional<SourceFrame> SourceFrame::parse(std::string_view name)
{
    for (size_t open = name.find('('); open != std::string_view::npos; open = name.find('(', open + 1)) {
        size_t end = open + 1;
        while (end < name.size() && text::isDigit(name[end]))
            ++end;
        const size_t digits = end - open - 1;
        if (digits == 0 || digits > kMaxLineDigits || name.substr(end, 3) != "): ")
            continue;
        const std::string_view path = name.substr(0, open);
        const std::string_view function = name.substr(end + 3);
        if (path.empty() || function.empty() || hasLineBreak(path) || hasLineBreak(function))
            return std::nullopt; // the first `(digits): ` decides: a later one would make the path contain it
        uint32_t line = 0;
        for (size_t i = open + 1; i < end; ++i)
            line = line * 10 + uint32_t(name[i] - '0');
        return SourceFrame{path, line, function};
    }
    return std::nullopt;
}

bool SourceFrame::isFilePath(std::string_view path)
{
    return !(path.size() >= 2 && path.front() == '<' && path.back() == '>');
}

bool SourceFrame::isUserPath(std::string_view path)
{
    if (!path.empty() && path.find('/') == std::string_view::npos)
        return !isFrameworkPath(path); // a script run from its folder (train.py), unless Python's own
    if (path.empty() || path.front() != '/')
        return false;
    for (std::string_view lib : {"/site-packages/", "/dist-packages/", "/lib/python"})
        if (path.find(lib) != std::string_view::npos)
            return false;
    return true;
}

bool SourceFrame::isFrameworkPath(std::string_view path)
{
    // PyTorch's own Python (torch/, relative to site-packages) and Python's pseudo-files.
    if (path.starts_with("torch/") || path.starts_with("<"))
        return true;
    // The standard library, relative to its sys.path entry. (A bare name may also be the user's
    // script, run from its folder: train.py stays a candidate.)
    static constexpr std::string_view kStdlib[] = {
        "threading.py", "contextlib.py", "functools.py", "runpy.py", "selectors.py", "queue.py", "socket.py", "subprocess.py",
        "abc.py", "typing.py", "copy.py", "enum.py", "inspect.py", "weakref.py", "dataclasses.py", "pickle.py", "traceback.py",
        "linecache.py", "tokenize.py", "warnings.py", "os.py", "posixpath.py", "genericpath.py", "shutil.py", "tempfile.py",
        "logging/", "multiprocessing/", "concurrent/", "asyncio/", "collections/", "importlib/", "json/", "email/", "http/",
        "unittest/", "ctypes/", "encodings/", "re/", "sre_compile.py", "sre_parse.py"};
    for (std::string_view lib : kStdlib)
        if (lib.back() == '/' ? path.starts_with(lib) : path == lib)
            return true;
    return false;
}

} // namespace lanescope
