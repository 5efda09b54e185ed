#include "sourceresolver.h"

#include "sourceframe.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace lanescope {

namespace fs = std::filesystem;

namespace {

bool isRegularFile(const std::string &path)
{
    std::error_code ec;
    return fs::is_regular_file(fs::path(path), ec) && !ec;
}

std::string joined(const std::string &root, std::string_view rest)
{
    return (fs::path(root) / fs::path(std::string(rest))).lexically_normal().string();
}

} // namespace

SourceResolver::SourceResolver(std::vector<std::string> roots) : m_roots(std::move(roots)) {}

void SourceResolver::setRoots(std::vector<std::string> roots)
{
    m_roots = std::move(roots);
    m_memo.clear();
}

std::vector<std::string> SourceResolver::withTraceFolder(std::vector<std::string> roots, const std::string &tracePath)
{
    if (tracePath.empty())
        return roots;
    std::error_code ec;
    fs::path folder = fs::absolute(fs::path(tracePath), ec);
    if (ec)
        return roots;
    if (!fs::is_directory(folder, ec))
        folder = folder.parent_path();
    const std::string f = folder.lexically_normal().string();
    if (std::find(roots.begin(), roots.end(), f) == roots.end())
        roots.push_back(f);
    return roots;
}

std::vector<std::string> SourceResolver::lines(const std::string &path)
{
    std::error_code ec;
    const auto size = fs::file_size(fs::path(path), ec);
    std::vector<std::string> out;
    if (ec || size > kMaxTextBytes)
        return out;
    std::ifstream in(path, std::ios::binary);
    for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        out.push_back(std::move(l));
    }
    return out;
}

std::vector<std::string> SourceResolver::candidates(std::string_view framePath) const
{
    std::vector<std::string> out;
    if (framePath.empty() || !SourceFrame::isFilePath(framePath))
        return out;
    if (framePath.front() != '/') {
        for (const std::string &root : m_roots)
            out.push_back(joined(root, framePath));
        return out;
    }
    out.emplace_back(framePath);
    // The trailing components of a foreign absolute path, longest first.
    std::vector<std::string_view> suffixes;
    for (size_t i = 0; i < framePath.size(); ++i)
        if (framePath[i] == '/' && i + 1 < framePath.size() && framePath[i + 1] != '/')
            suffixes.push_back(framePath.substr(i + 1));
    for (const std::string &root : m_roots)
        for (std::string_view s : suffixes)
            out.push_back(joined(root, s));
    return out;
}

std::optional<std::string> SourceResolver::resolve(std::string_view framePath) const
{
    const std::string key(framePath);
    if (const auto it = m_memo.find(key); it != m_memo.end())
        return it->second;
    std::optional<std::string> found;
    for (const std::string &c : candidates(framePath))
        if (isRegularFile(c)) {
            found = c;
            break;
        }
    m_memo.emplace(key, found);
    return found;
}

} // namespace lanescope
