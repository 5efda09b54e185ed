// lanescope-cli source PATH [--range FROM:TO] [--rank N] [--root DIR]... [--file FRAMEPATH] [--limit N] [--json]
// The Python source lines of a with_stack trace (core/analysis/sourcelines.h): per file, or with
// --file per line, the calls, CPU total and self, and device time launched; each file resolved on
// this machine (core/analysis/sourceresolver.h: absolute, or under the --root folders, then the
// trace's folder), and with
// --file the text of each line when the file is found. The tree is the merged call tree of the host
// threads (the numbers of `tree --merge-threads`).
#include "commands.h"
#include "tableargs.h"
#include "tableoutput.h"

#include "analysis/calltree.h"
#include "analysis/launchindex.h"
#include "analysis/sourceframe.h"
#include "analysis/sourcelines.h"
#include "analysis/sourceresolver.h"
#include "model/trace.h"
#include "util/durationtext.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

namespace lanescope::cli {

namespace {

struct SourceFlags
{
    std::vector<std::string> roots;
    std::string file;
    bool hasFile = false;
};

std::string takeFlags(const Args &args, SourceFlags &flags, Args &rest)
{
    for (size_t i = 0; i < args.size(); ++i) {
        std::string v;
        if (takeValue(args, i, "--root", v)) {
            if (v.empty())
                return "--root needs a folder";
            flags.roots.push_back(v);
        } else if (takeValue(args, i, "--file", v)) {
            if (v.empty())
                return "--file needs a frame path as the trace writes it (see `source PATH`)";
            flags.file = v;
            flags.hasFile = true;
        } else {
            rest.push_back(args[i]);
        }
    }
    return {};
}

QJsonArray strings(const std::vector<std::string> &v)
{
    QJsonArray a;
    for (const std::string &s : v)
        a.append(QString::fromStdString(s));
    return a;
}

std::string ns(int64_t v) { return DurationText::column(double(v)); }

// The numbers of `tree --merge-threads` (with --range and --rank).
CallTree::Result mergedTree(const Trace &trace, CallTree::Options options)
{
    options.mergeThreads = true;
    return CallTree::compute(trace, LaunchIndex::build(trace), options);
}

} // namespace

int cmdSource(const Args &args)
{
    SourceFlags flags;
    Args rest;
    TableArgs ta;
    if (!ta.parse("source", args, TableArgs::Accepts{.limit = true, .rank = true, .noCsv = "text or json"}, takeFlags, flags, rest))
        return kExitUnreadable;
    LoadResult loaded;
    CallTree::Options options;
    if (!ta.load(rest, loaded, options))
        return kExitUnreadable;
    const std::vector<SourceFile> files = SourceLines::compute(mergedTree(*loaded.trace, options));
    const SourceResolver resolver(SourceResolver::withTraceFolder(flags.roots, ta.path));
    const bool json = ta.format == TableArgs::Format::Json;

    if (!flags.hasFile) {
        if (json) {
            QJsonArray rows;
            for (size_t i = 0; i < ta.shown(files.size()); ++i) {
                const SourceFile &f = files[i];
                const auto found = resolver.resolve(f.path);
                rows.append(QJsonObject{{QStringLiteral("path"), QString::fromStdString(f.path)},
                                        {QStringLiteral("resolved"), found ? QJsonValue(QString::fromStdString(*found)) : QJsonValue()},
                                        {QStringLiteral("calls"), qint64(f.calls)},
                                        {QStringLiteral("total_ns"), qint64(f.total)},
                                        {QStringLiteral("self_ns"), qint64(f.self)},
                                        {QStringLiteral("device_ns"), qint64(f.device)},
                                        {QStringLiteral("lines"), qint64(f.lines.size())}});
            }
            printJson(QJsonObject{{QStringLiteral("files"), rows}, {QStringLiteral("file_count"), qint64(files.size())}});
            return kExitOk;
        }
        if (files.empty()) {
            std::printf("no Python frames (`path(line): function` slices): capture with with_stack=True\n");
            return kExitOk;
        }
        std::printf("%13s %13s %13s %6s  %s\n", "Total", "Self", "Device", "Lines", "File");
        for (size_t i = 0; i < ta.shown(files.size()); ++i) {
            const SourceFile &f = files[i];
            const auto found = resolver.resolve(f.path);
            std::printf("%13s %13s %13s %6zu  %s%s\n", ns(f.total).c_str(), ns(f.self).c_str(), ns(f.device).c_str(), f.lines.size(),
                        f.path.c_str(), found ? (*found == f.path ? "" : ("  -> " + *found).c_str()) : "  (not on this machine)");
        }
        if (ta.shown(files.size()) < files.size())
            std::printf("(%zu more files: --limit -1 lists all)\n", files.size() - ta.shown(files.size()));
        return kExitOk;
    }

    const SourceFile *file = SourceLines::find(files, flags.file);
    if (!file)
        return ta.usageError("--file '" + flags.file + "': no frame of the trace names this path (`source PATH` lists them)");
    const auto found = resolver.resolve(file->path);
    const std::vector<std::string> text = found ? SourceResolver::lines(*found) : std::vector<std::string>();
    auto lineText = [&](uint32_t line) { return line >= 1 && line <= text.size() ? text[line - 1] : std::string(); };
    if (json) {
        QJsonArray rows;
        for (const SourceLine &l : file->lines)
            rows.append(QJsonObject{{QStringLiteral("line"), qint64(l.line)},
                                    {QStringLiteral("calls"), qint64(l.calls)},
                                    {QStringLiteral("total_ns"), qint64(l.total)},
                                    {QStringLiteral("self_ns"), qint64(l.self)},
                                    {QStringLiteral("device_ns"), qint64(l.device)},
                                    {QStringLiteral("functions"), strings(l.functions)},
                                    {QStringLiteral("text"), found ? QJsonValue(QString::fromStdString(lineText(l.line))) : QJsonValue()}});
        printJson(QJsonObject{{QStringLiteral("path"), QString::fromStdString(file->path)},
                              {QStringLiteral("resolved"), found ? QJsonValue(QString::fromStdString(*found)) : QJsonValue()},
                              {QStringLiteral("tried"), strings(found ? std::vector<std::string>() : resolver.candidates(file->path))},
                              {QStringLiteral("lines"), rows}});
        return kExitOk;
    }
    if (found) {
        std::printf("%s\n", found->c_str());
    } else {
        std::printf("%s is not on this machine (the numbers are the trace's); tried:\n", file->path.c_str());
        for (const std::string &c : resolver.candidates(file->path))
            std::printf("  %s\n", c.c_str());
        if (flags.roots.empty() && SourceFrame::isFilePath(file->path))
            std::printf("  (add folders with --root DIR: the project checkout, the environment's site-packages)\n");
    }
    std::printf("%6s %8s %13s %13s %13s  %s\n", "Line", "Calls", "Total", "Self", "Device", found ? "Source" : "Function");
    for (const SourceLine &l : file->lines) {
        std::string fns;
        for (const std::string &f : l.functions)
            fns += (fns.empty() ? "" : ", ") + f;
        std::printf("%6u %8llu %13s %13s %13s  %s\n", l.line, (unsigned long long)l.calls, ns(l.total).c_str(), ns(l.self).c_str(),
                    ns(l.device).c_str(), found ? lineText(l.line).c_str() : fns.c_str());
    }
    return kExitOk;
}

} // namespace lanescope::cli
