#include "profilefilename.h"

#include "util/textutil.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace lanescope {

namespace {

std::string_view baseName(std::string_view path) { return path.substr(path.rfind('/') + 1); }
std::string_view dirName(std::string_view path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

bool isHex(char c) { return text::isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
template <typename Pred>
bool allOf(std::string_view s, Pred p)
{
    return std::all_of(s.begin(), s.end(), p);
}

// Matches all of `name` against `shape`: literal text, "{x}" one or more hex digits, "{n}" one or more
// decimal digits, "{*}" one or more of anything (only as the first token). Digit runs are greedy; in
// every shape used here the character after a run is not a digit, so no backtracking is ever needed
// (the regular expressions this replaced allocated on every match: a third of a folder scan's time).
bool matchShape(std::string_view name, std::string_view shape, std::string_view *groups)
{
    size_t ni = 0, g = 0;
    for (size_t si = 0; si < shape.size();) {
        if (shape.substr(si, 3) == "{*}") {
            const std::string_view rest = shape.substr(si + 3);
            if (rest.find('{') != std::string_view::npos || name.size() - ni <= rest.size() ||
                !name.ends_with(rest))
                return false;
            groups[g++] = name.substr(ni, name.size() - ni - rest.size());
            return true;
        }
        if (shape.substr(si, 3) == "{x}" || shape.substr(si, 3) == "{n}") {
            const bool hex = shape[si + 1] == 'x';
            size_t e = ni;
            while (e < name.size() && (hex ? isHex(name[e]) : text::isDigit(name[e])))
                ++e;
            if (e == ni)
                return false;
            groups[g++] = name.substr(ni, e - ni);
            ni = e;
            si += 3;
            continue;
        }
        if (ni >= name.size() || name[ni] != shape[si])
            return false;
        ++ni;
        ++si;
    }
    return ni == name.size();
}

} // namespace

FolderNameInfo ProfileFileName::parse(std::string_view relativePath)
{
    FolderNameInfo n;
    const std::string_view dir = dirName(relativePath);
    std::string base(baseName(relativePath));
    for (const char *suffix : {".gz", ".zst", ".zstd", ".zip"})
        if (base.size() > std::strlen(suffix) && base.ends_with(suffix)) {
            base.resize(base.size() - std::strlen(suffix));
            break;
        }

    // "<instance-id>_pid_<pid>" folders (the deepest one wins). The digits run to the end of the
    // component, so only its last "_pid_" can start them.
    size_t start = 0;
    while (start <= dir.size() && !dir.empty()) {
        const size_t slash = dir.find('/', start);
        const std::string_view comp = dir.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        const size_t at = comp.rfind("_pid_");
        if (at != std::string_view::npos && at > 0) {
            const std::string_view digits = comp.substr(at + 5);
            if (!digits.empty() && digits.size() <= 18 && allOf(digits, text::isDigit)) {
                n.instanceId = std::string(comp.substr(0, at));
                n.pid = std::stoll(std::string(digits));
                n.processFolder = std::string(dir.substr(0, slash == std::string_view::npos ? dir.size() : slash));
            }
        }
        if (slash == std::string_view::npos)
            break;
        start = slash + 1;
    }

    struct Variant
    {
        const char *pattern; // as shown to users
        const char *shape;   // what matchShape() takes: {x} hex digits, {n} decimal digits, {*} anything
        const char *fields;  // one letter per group: h hash, i instance, c core, s session, r rank, e exec
    };
    static constexpr Variant variants[] = {
        {"neff_<H>.neff", "neff_{x}.neff", "h"},
        {"neff_<H>_vnc_<N>.neff", "neff_{x}_vnc_{n}.neff", "hc"},
        {"graph_<H>.neff", "graph_{x}.neff", "h"},
        {"<H>_instid_<I>_vnc_<N>.ntff", "{x}_instid_{n}_vnc_{n}.ntff", "hic"},
        {"<H>_vnc_<M>.ntff", "{x}_vnc_{n}.ntff", "hc"},
        {"profile_nc_<N>_session_<S>.ntff", "profile_nc_{n}_session_{n}.ntff", "cs"},
        {"profile_rank_<i>.ntff", "profile_rank_{n}.ntff", "r"},
        {"profile_exec_<N>.ntff", "profile_exec_{n}.ntff", "e"},
        {"neuron_framework_trace_rank_<N>.json", "neuron_framework_trace_rank_{n}.json", "r"},
        {"<name>.neff", "{*}.neff", ""},
        {"<name>.ntff", "{*}.ntff", ""},
    };
    for (const Variant &v : variants) {
        std::string_view groups[3];
        if (!matchShape(base, v.shape, groups))
            continue;
        n.pattern = v.pattern;
        for (size_t i = 0; v.fields[i]; ++i) {
            const std::string g(groups[i]);
            auto num = [&g] { return g.size() > 18 ? int64_t(-1) : std::stoll(g); };
            switch (v.fields[i]) {
            case 'h': n.hash = g; break;
            case 'i': n.instanceIndex = num(); break;
            case 'c': n.core = num(); break;
            case 's': n.session = num(); break;
            case 'r': n.rank = num(); break;
            case 'e': n.exec = num(); break;
            }
        }
        if (n.pattern == std::string_view("graph_<H>.neff") && baseName(dir) == "neffs")
            n.pattern = "neffs/graph_<H>.neff";
        break;
    }
    return n;
}

} // namespace lanescope
