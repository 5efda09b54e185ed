#include "sourcelines.h"

#include "sourceframe.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace lanescope {

namespace {

struct LineKey
{
    uint32_t file = UINT32_MAX;
    uint32_t line = UINT32_MAX; // index into the file's lines
};

// Interns the frames of the tree's node names: file index, line index within it.
class Frames
{
public:
    std::vector<SourceFile> files;
    std::vector<std::map<uint32_t, uint32_t>> lineIndex; // per file: line number -> index

    LineKey of(const std::string &name)
    {
        const auto [it, added] = m_byName.try_emplace(name);
        if (!added)
            return it->second;
        const auto frame = SourceFrame::parse(name);
        if (!frame)
            return it->second;
        const auto [f, newFile] = m_byPath.try_emplace(std::string(frame->path), uint32_t(files.size()));
        if (newFile) {
            files.push_back(SourceFile{std::string(frame->path)});
            lineIndex.emplace_back();
        }
        SourceFile &file = files[f->second];
        const auto [l, newLine] = lineIndex[f->second].try_emplace(frame->line, uint32_t(file.lines.size()));
        if (newLine)
            file.lines.push_back(SourceLine{frame->line});
        std::vector<std::string> &fns = file.lines[l->second].functions;
        const std::string fn(frame->function);
        if (std::find(fns.begin(), fns.end(), fn) == fns.end())
            fns.push_back(fn);
        it->second = LineKey{f->second, l->second};
        return it->second;
    }

private:
    std::unordered_map<std::string, LineKey> m_byName;
    std::unordered_map<std::string, uint32_t> m_byPath;
};

} // namespace

std::vector<SourceFile> SourceLines::compute(const CallTree::Result &tree)
{
    Frames frames;
    if (tree.nodes.empty())
        return {};
    std::vector<LineKey> keys(tree.nodes.size());
    for (uint32_t i = 1; i < tree.nodes.size(); ++i)
        keys[i] = frames.of(tree.nodes[i].name);
    // How many nodes on the current stack hold each file / line (the outermost rule).
    std::vector<std::vector<uint32_t>> lineActive(frames.files.size());
    for (size_t f = 0; f < frames.files.size(); ++f)
        lineActive[f].assign(frames.files[f].lines.size(), 0);
    std::vector<uint32_t> fileActive(frames.files.size(), 0);

    // Depth-first, iteratively: (node, entered) pairs.
    std::vector<std::pair<uint32_t, bool>> stack{{0u, false}};
    while (!stack.empty()) {
        auto [id, entered] = stack.back();
        stack.pop_back();
        const LineKey k = keys[id];
        const bool frame = k.file != UINT32_MAX;
        if (entered) {
            if (frame) {
                --fileActive[k.file];
                --lineActive[k.file][k.line];
            }
            continue;
        }
        const CallTree::Node &n = tree.nodes[id];
        if (frame) {
            SourceFile &file = frames.files[k.file];
            SourceLine &line = file.lines[k.line];
            line.self += n.self;
            if (lineActive[k.file][k.line]++ == 0) {
                line.total += n.total;
                line.device += n.device;
                line.calls += n.calls;
            }
            if (fileActive[k.file]++ == 0) {
                file.total += n.total;
                file.device += n.device;
                file.calls += n.calls;
            }
        }
        stack.emplace_back(id, true);
        for (auto c = n.children.rbegin(); c != n.children.rend(); ++c)
            stack.emplace_back(*c, false);
    }

    std::vector<SourceFile> files = std::move(frames.files);
    for (SourceFile &f : files) {
        for (const SourceLine &l : f.lines)
            f.self += l.self;
        std::sort(f.lines.begin(), f.lines.end(), [](const SourceLine &a, const SourceLine &b) { return a.line < b.line; });
        for (SourceLine &l : f.lines)
            std::sort(l.functions.begin(), l.functions.end());
    }
    std::sort(files.begin(), files.end(), [](const SourceFile &a, const SourceFile &b) {
        if (a.device != b.device)
            return a.device > b.device;
        if (a.total != b.total)
            return a.total > b.total;
        return a.path < b.path;
    });
    return files;
}

const SourceFile *SourceLines::find(const std::vector<SourceFile> &files, std::string_view path)
{
    for (const SourceFile &f : files)
        if (f.path == path)
            return &f;
    return nullptr;
}

const SourceLine *SourceLines::findLine(const SourceFile &file, uint32_t line)
{
    const auto it = std::lower_bound(file.lines.begin(), file.lines.end(), line,
                                     [](const SourceLine &l, uint32_t v) { return l.line < v; });
    return it != file.lines.end() && it->line == line ? &*it : nullptr;
}

size_t SourceLines::firstToShow(const std::vector<SourceFile> &files)
{
    for (size_t i = 0; i < files.size(); ++i)
        if (SourceFrame::isUserPath(files[i].path))
            return i;
    for (size_t i = 0; i < files.size(); ++i)
        if (!SourceFrame::isFrameworkPath(files[i].path))
            return i;
    return 0;
}

} // namespace lanescope
