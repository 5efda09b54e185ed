#pragma once
// Pictures for reviews: renders the timeline (a time range, all lanes or a filtered set, at a size
// and device pixel ratio) or any widget (the whole window, a dock's chart or table) to a PNG image
// or an SVG document, with an optional caption band at the bottom (file, time range, date).
// The GUI's File > Export Image, its Copy Image, `lanescope --screenshot` and
// `lanescope-cli screenshot` all render through this class.
#include "timeline/timelinelayout.h"
#include "timeline/timelinepalette.h"

#include "annotations/annotation.h"

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

#include <memory>
#include <set>
#include <vector>

class QDateTime;
class QPainter;
class QRegularExpression;
class QWidget;

namespace lanescope {

class AnalysisTablesView;
class EngineChartsView;
class Trace;
class TimelineView;

class ImageExporter
{
public:
    enum class Format { Png, Svg };

    // A timeline picture, independent of any window: the view is created offscreen.
    struct TimelineRequest
    {
        std::shared_ptr<const Trace> trace;
        int64_t t0 = 0, t1 = 0;             // absolute ns; t1 <= t0 shows the whole trace
        TimelineLayout::State laneState;     // the user's arrangement (hidden, pinned, moved lanes)
        QString laneRegex;                   // only tracks whose path "group / ... / track" matches
        std::set<uint32_t> onlyTracks;       // when not empty: only these tracks (TrackId values)
        TimelinePalette::Theme theme = TimelinePalette::Theme::Light;
        bool colorByCategory = false;
        bool colorByOperator = false;
        int width = 1600;                    // logical pixels
        int height = 0;                      // logical pixels including the caption; <= 0 fits all lanes
        std::vector<Annotation> notes;       // drawn over the lanes (AnnotationsOverlay) when not empty
    };

    // Builds the offscreen view of a request. Fails (nullptr and *error) on a bad regex, on a
    // regex or track set that leaves no lane, or on a size that is too small.
    static std::unique_ptr<TimelineView> createTimeline(const TimelineRequest &request, bool caption,
                                                        QString *error);

    // The Engines panel (EngineChartsView) of a Neuron trace for [t0, t1] (t1 <= t0: the whole
    // trace), laid out offscreen at width x height (the caption band included). Fails when the
    // trace has no NeuronCore engines or DMA queues.
    static std::unique_ptr<EngineChartsView> createEngineCharts(const std::shared_ptr<const Trace> &trace,
                                                                int64_t t0, int64_t t1, bool dark, int width,
                                                                int height, bool caption, QString *error);

    // The Analysis panel (AnalysisTablesView: operators, kernels or devices) for [t0, t1], computed
    // (waits for the background job, at most a minute) and laid out offscreen like the engines.
    static std::unique_ptr<AnalysisTablesView> createAnalysisTables(const std::shared_ptr<const Trace> &trace,
                                                                    int64_t t0, int64_t t1, int width, int height,
                                                                    bool caption, QString *error);

    // The lane arrangement with every track hidden that does not match (regex on trackPath);
    // *matched receives the number of tracks with events that stay.
    static TimelineLayout::State filterLanes(const Trace &trace, TimelineLayout::State state,
                                             const QRegularExpression &regex, int *matched = nullptr);
    static TimelineLayout::State keepOnly(const Trace &trace, TimelineLayout::State state,
                                          const std::set<uint32_t> &tracks, int *matched = nullptr);

    // Renders `widget` as it is (shown or not) plus the caption band when `caption` is not empty.
    // The image is (widget size + band) * dpr physical pixels, with devicePixelRatio dpr.
    static QImage renderImage(QWidget *widget, qreal dpr, const QString &caption);
    static QByteArray renderSvg(QWidget *widget, const QString &caption, const QString &title);
    // PNG or SVG by format; false and *error when the file cannot be written.
    static bool save(QWidget *widget, const QString &path, Format format, qreal dpr, const QString &caption,
                     QString *error);
    // `image` as an opaque PNG file (util/pngencoder.h); false and *error when it cannot be written.
    static bool savePng(const QImage &image, const QString &path, QString *error);
    // ".svg" means SVG, everything else PNG.
    static Format formatForPath(const QString &path);

    // "file · 12.000 ms – 14.500 ms (2.500 ms) · 2026-11-29 19:20" (times from the trace start).
    static QString captionText(const QString &file, const Trace &trace, int64_t t0, int64_t t1,
                               const QDateTime &when);
    // Height of the caption band for the widget's font.
    static int captionHeight(const QWidget *widget);

    // "FROM:TO" after the trace start in the one range syntax (core/analysis/timerange.h: units ns,
    // us, ms, s; a unit-less number is ms here, deprecated); both ends given, no Nabs (there is no
    // trace to resolve it against: use TimeRange directly). Returns false with *error when malformed or empty.
    static bool parseRange(const QString &text, int64_t *fromNs, int64_t *toNs, QString *error);

private:
    static void paintCaption(QPainter &p, const QRect &band, const QString &caption, const QWidget *widget);
};

} // namespace lanescope
