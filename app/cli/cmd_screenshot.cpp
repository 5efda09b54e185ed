// lanescope-cli screenshot PATH -o OUT.png|OUT.svg [--range FROM:TO] [--lanes REGEX] [--width W]
//   [--height H] [--scale 2] [--caption] [--dark] [--notes] [--view timeline]
// Renders the timeline offscreen, without a display: the only command that creates a QApplication
// (QT_QPA_PLATFORM defaults to offscreen), through the same ImageExporter as the GUI's File > Export.
#include "commands.h"

#include "charts/enginechartsview.h"
#include "export/imageexporter.h"
#include "style/apptheme.h"
#include "summary/summaryview.h"
#include "tables/analysistablesview.h"
#include "timeline/timelineview.h"

#include "analysis/insights/insights.h"
#include "analysis/launchindex.h"
#include "analysis/summaryregions.h"
#include "analysis/timerange.h"
#include "annotations/annotationstore.h"
#include "io/traceloader.h"
#include "model/trace.h"
#include "util/textutil.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QFontMetrics>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>

namespace lanescope::cli {

namespace {

constexpr const char *kUsage =
    "usage: lanescope-cli screenshot PATH -o OUT.png|OUT.svg [--range FROM:TO] [--lanes REGEX]\n"
    "                                [--width W] [--height H] [--scale 1|2] [--caption] [--dark] [--notes]\n"
    "                                [--view timeline|engines|ops|summary]\n"
    "  --range FROM:TO  time after the trace start with units ns, us, ms, s (10ms:12.5ms, 200us:350us,\n"
    "                   1.5s:, :2ms); Nabs is trace-clock ns (as `info` prints start_ns); default: the\n"
    "                   whole trace. Deprecated: a number without a unit is ms after the start (10:12.5)\n"
    "  --lanes REGEX    only lanes whose \"group / track\" path matches (as `info` lists them)\n"
    "  --width W        logical width in pixels (default 1600)\n"
    "  --height H       logical height including the caption (default: tall enough for every lane)\n"
    "  --scale S        device pixel ratio: the PNG is W*S x H*S pixels (default 1)\n"
    "  --caption        a band at the bottom with the file, the time range and the date\n"
    "  --dark           the dark theme (timeline, ops table, summary)\n"
    "  --notes          draw the trace's notes (PATH.lanescope-notes.json, `lanescope-cli notes`)\n"
    "  --view V         timeline (default), or engines: the Engines panel's charts of a Neuron profile\n"
    "                   for the range, ops: the Analysis panel's operator table, or summary: the\n"
    "                   Summary page (key metrics, charts, findings of `insights` for the range)\n"
    "                   (--lanes does not apply to these three; --height defaults to 900)\n";

bool parseInt(const std::string &text, int *out)
{
    int64_t v = 0;
    if (!text::parseInt(text, v) || v < 0 || v > 1000000)
        return false;
    *out = int(v);
    return true;
}

int usageError(const char *message)
{
    std::fprintf(stderr, "lanescope-cli screenshot: %s\n%s", message, kUsage);
    return kExitUnreadable;
}

QString captionFor(const std::string &path, const Trace &trace, int64_t t0, int64_t t1)
{
    return ImageExporter::captionText(QString::fromLocal8Bit(path.c_str()), trace, t0, t1,
                                      QDateTime::currentDateTime());
}

// Saves a panel the exporter made (with the caption of the range when asked); returns its height in
// the picture, or -1 after saying why it could not be saved.
int savePanel(QWidget *panel, const ImageExporter::TimelineRequest &request, int scale, bool caption,
              const std::string &path, const QString &outPath)
{
    const Trace &trace = *request.trace;
    const int64_t t0 = request.t1 > request.t0 ? request.t0 : trace.startNs();
    const int64_t t1 = request.t1 > request.t0 ? request.t1 : trace.endNs();
    const QString text = caption ? captionFor(path, trace, t0, t1) : QString();
    QString error;
    if (!ImageExporter::save(panel, outPath, ImageExporter::formatForPath(outPath), scale, text, &error)) {
        std::fprintf(stderr, "lanescope-cli: %s\n", qPrintable(error));
        return -1;
    }
    return (panel->height() + (caption ? ImageExporter::captionHeight(panel) : 0)) * scale;
}

// --view engines: the Engines panel's charts for the range.
int saveEngines(const ImageExporter::TimelineRequest &request, int scale, bool caption, const std::string &path,
                const QString &outPath)
{
    QString error;
    const auto charts = ImageExporter::createEngineCharts(request.trace, request.t0, request.t1,
                                                          request.theme == TimelinePalette::Theme::Dark, request.width,
                                                          request.height, caption, &error);
    if (!charts) {
        std::fprintf(stderr, "lanescope-cli screenshot: %s\n", qPrintable(error));
        return kExitUnreadable;
    }
    const int height = savePanel(charts.get(), request, scale, caption, path, outPath);
    if (height < 0)
        return kExitUnreadable;
    std::printf("%s: %zu engines, %zu DMA queues, %dx%d\n", qPrintable(outPath), charts->result().engines.size(),
                charts->result().dma.size(), charts->width() * scale, height);
    return kExitOk;
}

// --view ops: the Analysis panel's operator table for the range.
int saveOps(const ImageExporter::TimelineRequest &request, int scale, bool caption, const std::string &path,
            const QString &outPath)
{
    QString error;
    if (request.theme == TimelinePalette::Theme::Dark) // the GUI's dark window palette (View > Dark theme)
        AppTheme::apply(true);
    const auto tables = ImageExporter::createAnalysisTables(request.trace, request.t0, request.t1, request.width,
                                                            request.height, caption, &error);
    if (!tables) {
        std::fprintf(stderr, "lanescope-cli screenshot: %s\n", qPrintable(error));
        return kExitUnreadable;
    }
    const int height = savePanel(tables.get(), request, scale, caption, path, outPath);
    if (height < 0)
        return kExitUnreadable;
    std::printf("%s: operator table, %dx%d\n", qPrintable(outPath), tables->width() * scale, height);
    return kExitOk;
}

// --view summary: the Summary page with the insights of the range (the GUI's Summary dock).
int saveSummary(const ImageExporter::TimelineRequest &request, int scale, bool caption, const std::string &path,
                const QString &outPath)
{
    const Trace &trace = *request.trace;
    const LaunchIndex index = LaunchIndex::build(trace);
    Insights::Options options;
    options.hasRange = request.t1 > request.t0;
    options.t0 = request.t0;
    options.t1 = request.t1;
    const Insights::Result result = Insights::run(trace, index, options);
    const auto regions = SummaryRegions::list(trace, index);

    SummaryView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.setDark(request.theme == TimelinePalette::Theme::Dark);
    view.regionBox()->addItem(options.hasRange ? QStringLiteral("Range") : QStringLiteral("Whole trace"));
    view.setStatus(QStringLiteral("%1 findings").arg(result.findings.size()));
    view.setResult(result.metrics, result.findings, SummaryRegions::steps(regions, options.hasRange, options.t0, options.t1));
    const int band = caption ? ImageExporter::captionHeight(&view) : 0;
    const int height = request.height > 0 ? request.height : 900;
    if (request.width < 400 || height - band < 200)
        return usageError("--view summary needs at least 400 x 200 pixels");
    view.resize(request.width, height - band);
    view.show();
    QApplication::processEvents();
    const int saved = savePanel(&view, request, scale, caption, path, outPath);
    if (saved < 0)
        return kExitUnreadable;
    std::printf("%s: summary, %zu findings, %dx%d\n", qPrintable(outPath), result.findings.size(), view.width() * scale, saved);
    return kExitOk;
}

} // namespace

int cmdScreenshot(const Args &args)
{
    const std::vector<std::string> valued = {"-o", "--output", "--range", "--lanes", "--width", "--height",
                                             "--scale", "--view"};
    const auto paths = positional(args, valued);
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (std::find(valued.begin(), valued.end(), a) != valued.end())
            ++i; // its value may start with '-'
        else if (a.size() > 1 && a[0] == '-' && a != "--caption" && a != "--dark" && a != "--notes" && a.find('=') == std::string::npos)
            return usageError(("unknown option " + a).c_str());
    }
    if (paths.size() != 1)
        return usageError("expected one PATH");
    std::string out = flagValue(args, "-o", flagValue(args, "--output"));
    if (out.empty())
        return usageError("-o OUT.png is required");

    const std::string view = flagValue(args, "--view", "timeline");
    if (view != "timeline" && view != "engines" && view != "ops" && view != "summary") {
        std::fprintf(stderr, "lanescope-cli screenshot: unknown view '%s' (timeline, engines, ops, summary)\n", view.c_str());
        return kExitUnreadable;
    }
    if (view != "timeline" && !flagValue(args, "--lanes").empty())
        return usageError("--lanes applies to the timeline view only");

    ImageExporter::TimelineRequest request;
    if (!parseInt(flagValue(args, "--width", "1600"), &request.width))
        return usageError("--width expects a number of pixels");
    const std::string heightText = flagValue(args, "--height");
    if (!heightText.empty() && (!parseInt(heightText, &request.height) || request.height == 0))
        return usageError("--height expects a number of pixels");
    int scale = 1;
    if (!parseInt(flagValue(args, "--scale", "1"), &scale) || scale < 1 || scale > 4)
        return usageError("--scale expects 1, 2, 3 or 4");
    const bool caption = hasFlag(args, "--caption");
    if (hasFlag(args, "--dark"))
        request.theme = TimelinePalette::Theme::Dark;
    request.laneRegex = QString::fromLocal8Bit(flagValue(args, "--lanes").c_str());

    const std::string rangeText = flagValue(args, "--range");
    std::optional<TimeRange> range;
    std::string rangeError;
    if (!rangeText.empty()) {
        range = TimeRange::parse(rangeText, TimeRange::BareNumber::MsAfterStart, &rangeError);
        if (!range)
            return usageError(("--range " + rangeError).c_str());
        if (range->usedBareNumber)
            std::fprintf(stderr, "lanescope-cli screenshot: %s\n",
                         TimeRange::deprecationNote(TimeRange::BareNumber::MsAfterStart).c_str());
    }

    // The trace loads on a worker while this thread starts Qt and its fonts (fontconfig reads its
    // configuration: tens of ms), which a trace reopened from the cache would otherwise wait for after it.
    auto loading = std::async(std::launch::async, [&paths, &args] { return loadTrace(paths[0], args); });
    // Rendering needs a QApplication; without a display it draws offscreen.
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "lanescope-cli";
    char *argv[] = {name, nullptr};
    QApplication app(argc, argv);
    (void)QFontMetrics(QApplication::font()).height(); // the font database, beside the load
    const LoadResult r = loading.get();
    if (!r.ok()) {
        std::fprintf(stderr, "lanescope-cli: %s\n", r.error.c_str());
        return kExitUnreadable;
    }
    request.trace = r.trace;
    if (hasFlag(args, "--notes")) {
        AnnotationStore notes;
        if (!notes.open(paths[0])) {
            std::fprintf(stderr, "lanescope-cli: %s\n", notes.error().c_str());
            return kExitUnreadable;
        }
        notes.resolve(*r.trace);
        request.notes = notes.notes();
    }
    if (range && !range->resolve(r.trace->startNs(), r.trace->endNs(), false, &request.t0, &request.t1, &rangeError))
        return usageError(("--range " + rangeError).c_str());

    QString error;
    const QString outPath = QString::fromLocal8Bit(out.c_str());
    if (view == "engines")
        return saveEngines(request, scale, caption, paths[0], outPath);
    if (view == "ops")
        return saveOps(request, scale, caption, paths[0], outPath);
    if (view == "summary")
        return saveSummary(request, scale, caption, paths[0], outPath);
    const auto timeline = ImageExporter::createTimeline(request, caption, &error);
    if (!timeline)
        return usageError(qPrintable(error));
    const auto [t0, t1] = timeline->visibleRange();
    const QString captionText = caption ? captionFor(paths[0], *r.trace, t0, t1) : QString();
    if (!ImageExporter::save(timeline.get(), outPath, ImageExporter::formatForPath(outPath), scale, captionText,
                             &error)) {
        std::fprintf(stderr, "lanescope-cli: %s\n", qPrintable(error));
        return kExitUnreadable;
    }
    std::printf("%s: %d lanes, %s\n", qPrintable(QFileInfo(outPath).filePath()), timeline->laneCount(),
                qPrintable(QStringLiteral("%1x%2").arg(timeline->width() * scale)
                               .arg((timeline->height() + (caption ? ImageExporter::captionHeight(timeline.get()) : 0)) * scale)));
    return kExitOk;
}

} // namespace lanescope::cli
