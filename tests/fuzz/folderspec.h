#pragma once
// A folder tree written as text, so that one input can hold a whole profile folder: what the libFuzzer
// harnesses fuzz_profilefolder and fuzz_folderload mutate, and what tests/core/io/tst_fuzzregressions.cpp
// replays from tests/data/fuzz-regressions/fuzz_profilefolder/.
//
// The text describes a small folder tree:
//
//   @@ <relative path>\n<content up to the next "\n@@ ">   a regular file
//   @@ <relative path>/\n                                  a folder
//   @@ <relative path> -> <target>\n                       a symbolic link (target clamped to the tree)
//   @@ <relative path> |\n                                 a FIFO (must never be opened)
//
// Paths are sanitised ('/'-separated, no "." or "..", components of at most 64 bytes, at most 10
// levels, at most 48 entries), entries are made only in real folders (never through a link) and link
// targets are clamped, so nothing is ever written or followed outside the scratch folder.
// ProfileFolder::parseName is also run on the raw path text of each entry (bounded to 255 bytes per
// component, as a real file system is).
#include "io/folder/profilefolder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace lanescope::fuzz {

inline constexpr size_t kMaxEntries = 48;
inline constexpr size_t kMaxComponent = 64;
inline constexpr size_t kMaxLevels = 10;

// "a//b/./../c" -> {"a", "b", "c"} with every component non-empty, not "." / "..", no NUL, bounded.
inline std::vector<std::string> components(std::string_view path)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= path.size() && out.size() < kMaxLevels) {
        size_t slash = path.find('/', start);
        if (slash == std::string_view::npos)
            slash = path.size();
        std::string c(path.substr(start, std::min(slash - start, kMaxComponent)));
        for (char &ch : c)
            if (ch == '\0')
                ch = '_';
        if (!c.empty() && c != "." && c != "..")
            out.push_back(std::move(c));
        start = slash + 1;
    }
    return out;
}

inline std::string join(const std::vector<std::string> &parts, size_t n)
{
    std::string s;
    for (size_t i = 0; i < n && i < parts.size(); ++i)
        s += (i ? "/" : "") + parts[i];
    return s;
}

// The folder of `path` exists (each missing level is created and recorded in `created`; a file in the
// way ends the entry). Plain mkdir, not std::filesystem: the harness runs this for every input.
// An existing level must be a real folder, never a symbolic link: creating through a link would put the
// entry somewhere else than its path says, deeper or shallower, and a link made there, clamped for the
// depth of its path, could then point out of the tree (a fuzzer found "x/y -> ../", "x/y/p/q -> ../../",
// "x/y/p/q/file", which wrote file next to the scratch folder; tst_fuzzregressions::folderSpecStaysInside).
inline bool makeParents(const std::string &root, const std::vector<std::string> &parts, size_t levels,
                        std::vector<std::string> *created)
{
    std::string p = root;
    for (size_t i = 0; i < levels && i < parts.size(); ++i) {
        p += "/" + parts[i];
        if (::mkdir(p.c_str(), 0700) == 0) {
            if (created)
                created->push_back(p);
            continue;
        }
        struct stat st {};
        if (errno != EEXIST || ::lstat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            return false;
    }
    return true;
}

// A link target that cannot leave the tree: "../" at most as many times as the link is deep.
inline std::string clampedTarget(const std::vector<std::string> &link, std::string_view target)
{
    size_t ups = 0;
    for (size_t i = 0; i + 1 < target.size() && target.substr(i, 3) == "../" && ups + 1 < link.size(); i += 3)
        ++ups;
    std::string s;
    for (size_t i = 0; i < ups; ++i)
        s += "../";
    const std::string rest = join(components(target), kMaxLevels);
    return s + (rest.empty() ? "." : rest);
}

// Writes the tree `input` describes below `root` (which exists); every path made is appended to
// `created` in order (removing them in reverse order empties the tree again).
inline void materialise(const std::string &root, std::string_view input, std::vector<std::string> *created = nullptr)
{
    size_t entries = 0;
    size_t pos = input.substr(0, 3) == "@@ " ? 0 : input.find("\n@@ ");
    if (pos == std::string_view::npos)
        pos = input.size();
    else if (pos != 0)
        ++pos; // at the "@@ "
    while (pos < input.size() && entries++ < kMaxEntries) {
        const size_t lineEnd = std::min(input.find('\n', pos), input.size());
        const std::string_view header = input.substr(pos + 3, lineEnd - pos - 3);
        size_t next = input.find("\n@@ ", lineEnd);
        const std::string_view content =
            lineEnd >= input.size() ? std::string_view() : input.substr(lineEnd + 1, next == std::string_view::npos ? std::string_view::npos : next - lineEnd - 1);
        pos = next == std::string_view::npos ? input.size() : next + 1;

        // parseName sees what a file system can hold: components of at most 255 bytes.
        if (header.size() <= 4096) {
            bool ok = true;
            size_t run = 0;
            for (char ch : header) {
                run = ch == '/' ? 0 : run + 1;
                ok = ok && run <= 255 && ch != '\0';
            }
            if (ok)
                (void)ProfileFolder::parseName(header);
        }

        std::string_view path = header, target;
        char kind = 'f';
        if (const size_t arrow = header.find(" -> "); arrow != std::string_view::npos) {
            kind = 'l';
            path = header.substr(0, arrow);
            target = header.substr(arrow + 4);
        } else if (header.size() >= 2 && header.substr(header.size() - 2) == " |") {
            kind = 'p';
            path = header.substr(0, header.size() - 2);
        } else if (!header.empty() && header.back() == '/') {
            kind = 'd';
        }
        const std::vector<std::string> parts = components(path);
        if (parts.empty() || !makeParents(root, parts, parts.size() - 1, created))
            continue;
        const std::string abs = root + "/" + join(parts, parts.size());
        struct stat st {};
        if (::lstat(abs.c_str(), &st) == 0)
            continue; // first entry of a name wins
        bool made = false;
        switch (kind) {
        case 'd': makeParents(root, parts, parts.size(), created); break; // records what it makes
        case 'l': made = ::symlink(clampedTarget(parts, target).c_str(), abs.c_str()) == 0; break;
        case 'p': made = ::mkfifo(abs.c_str(), 0600) == 0; break;
        default:
            if (const int fd = ::open(abs.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600); fd >= 0) {
                made = true;
                for (size_t done = 0; done < content.size();) {
                    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
                    if (n <= 0)
                        break;
                    done += size_t(n);
                }
                ::close(fd);
            }
        }
        if (made && created)
            created->push_back(abs);
    }
}

// The scratch folder of a harness process: $LANESCOPE_FUZZ_SCRATCH (the run script points it at a RAM
// file system when there is one), else $TMPDIR or /tmp; one folder per process, removed at exit.
inline const std::string &scratchFolder()
{
    // Never destroyed, so the exit handler can still use it.
    static const std::string *root = [] {
        const char *base = std::getenv("LANESCOPE_FUZZ_SCRATCH");
        if (!base || !*base)
            base = std::getenv("TMPDIR");
        auto *r = new std::string(std::string(base && *base ? base : "/tmp") + "/lanescope-fuzz-folder-" +
                                  std::to_string(::getpid()));
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(*root, ec);
        });
        return r;
    }();
    return *root;
}

// The tree `input` describes, written into the (emptied) scratch folder for one run and removed again
// when the run ends: path by path in reverse order of creation, without a directory listing. All of it
// happens within the run, so libFuzzer sees as many frees as mallocs (otherwise it re-runs the input
// under LeakSanitizer, which took 15 % of the time). std::filesystem::remove_all (never follows links)
// cleans up when anything unexpected is left.
class ScratchTree
{
public:
    explicit ScratchTree(std::string_view input) : m_root(scratchFolder())
    {
        std::error_code ec;
        if (::rmdir(m_root.c_str()) != 0 && errno != ENOENT)
            std::filesystem::remove_all(m_root, ec);
        std::filesystem::create_directories(m_root, ec);
        materialise(m_root, input, &m_created);
    }
    ~ScratchTree()
    {
        for (auto it = m_created.rbegin(); it != m_created.rend(); ++it)
            if (::unlink(it->c_str()) != 0)
                ::rmdir(it->c_str());
    }
    ScratchTree(const ScratchTree &) = delete;
    ScratchTree &operator=(const ScratchTree &) = delete;

    const std::string &root() const { return m_root; }

private:
    const std::string &m_root;
    std::vector<std::string> m_created;
};

} // namespace lanescope::fuzz
