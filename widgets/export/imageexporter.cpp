#include "imageexporter.h"

#include "charts/enginechartsview.h"
#include "overlays/annotationsoverlay.h"
#include "style/durationformat.h"
#include "tables/analysistablesview.h"
#include "timeline/timelineview.h"
#include "session/viewstate.h"

#include "analysis/timerange.h"
#include "model/trace.h"
#include "util/pngencoder.h"

#include <QApplication>
#include <QBuffer>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

constexpr int kMinWidth = 200;
constexpr int kMinHeight = 60;
constexpr int kMaxSide = 32000; // QImage and viewers give up somewhere above this

bool trackHasEvents(const Track &t)
{
    return t.sliceCount || t.instantCount || t.counterCount;
}

// A widget that was never shown gets its size only through pending resize events; QWidget::render
// sends them, but painting code that asks for the size earlier needs them now.
void renderWidget(QWidget *widget, QPainter &p)
{
    // A view that is not on screen draws no scroll bar: only the widget itself, not its children.
    const QWidget::RenderFlags flags =
        widget->isVisible() ? QWidget::RenderFlags(QWidget::DrawWindowBackground | QWidget::DrawChildren)
                            : QWidget::RenderFlags(QWidget::DrawWindowBackground);
    widget->render(&p, QPoint(0, 0), QRegion(), flags);
}

} // namespace

TimelineLayout::State ImageExporter::filterLanes(const Trace &trace, TimelineLayout::State state,
                                                 const QRegularExpression &regex, int *matched)
{
    int kept = 0;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        if (!trackHasEvents(trace.tracks()[t]) || state.hidden.count(t))
            continue;
        const std::string path = trace.trackPath(TrackId(t));
        if (regex.match(QString::fromUtf8(path.data(), qsizetype(path.size()))).hasMatch())
            ++kept;
        else
            state.hidden.insert(t);
    }
    if (matched)
        *matched = kept;
    return state;
}

TimelineLayout::State ImageExporter::keepOnly(const Trace &trace, TimelineLayout::State state,
                                              const std::set<uint32_t> &tracks, int *matched)
{
    int kept = 0;
    for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
        if (!trackHasEvents(trace.tracks()[t]) || state.hidden.count(t))
            continue;
        if (tracks.count(t))
            ++kept;
        else
            state.hidden.insert(t);
    }
    if (matched)
        *matched = kept;
    return state;
}

std::unique_ptr<TimelineView> ImageExporter::createTimeline(const TimelineRequest &request, bool caption,
                                                            QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::unique_ptr<TimelineView>();
    };
    if (!request.trace)
        return fail(QStringLiteral("no trace loaded"));
    const Trace &trace = *request.trace;
    TimelineLayout::State state = request.laneState;
    if (!request.laneRegex.isEmpty()) {
        const QRegularExpression regex(request.laneRegex);
        if (!regex.isValid())
            return fail(QStringLiteral("lane filter '%1': %2 at offset %3")
                            .arg(request.laneRegex, regex.errorString())
                            .arg(regex.patternErrorOffset()));
        int matched = 0;
        state = filterLanes(trace, state, regex, &matched);
        if (matched == 0)
            return fail(QStringLiteral("lane filter '%1' matches no lane (lanes are named \"group / track\", "
                                       "see lanescope-cli info)")
                            .arg(request.laneRegex));
    }
    if (!request.onlyTracks.empty()) {
        int matched = 0;
        state = keepOnly(trace, state, request.onlyTracks, &matched);
        if (matched == 0)
            return fail(QStringLiteral("none of the selected lanes has events"));
    }
    if (request.width < kMinWidth || request.width > kMaxSide)
        return fail(QStringLiteral("width %1 is outside %2..%3").arg(request.width).arg(kMinWidth).arg(kMaxSide));

    auto view = std::make_unique<TimelineView>();
    view->setAttribute(Qt::WA_DontShowOnScreen);
    view->setTrace(request.trace);
    view->setLaneState(state);
    view->setTheme(request.theme);
    view->setColorByCategory(request.colorByCategory);
    view->setColorByOperator(request.colorByOperator);
    if (!request.notes.empty())
        view->addOverlay(std::make_unique<AnnotationsOverlay>())->setNotes(request.notes);
    const int band = caption ? captionHeight(view.get()) : 0;
    int height = request.height;
    if (height <= 0) // all lanes: the ruler plus every row
        height = std::min(kMaxSide, view->timeArea().top() + view->layout().totalHeight() + band);
    if (height - band < kMinHeight || height > kMaxSide)
        return fail(QStringLiteral("height %1 is outside %2..%3").arg(height).arg(kMinHeight + band).arg(kMaxSide));
    view->resize(request.width, height - band);
    if (request.t1 > request.t0)
        view->setVisibleRange(request.t0, request.t1);
    else
        view->fitAll();
    return view;
}

// What the engines and the operator-table pictures share: a trace, a width in range, the view set up
// by `setup` (which returns why it cannot be drawn, or nothing), a height in range after the caption
// band, and the view shown (never on screen) so that child layouts and chart geometry settle.
namespace {

template <typename View, typename Setup>
std::unique_ptr<View> createPanel(const std::shared_ptr<const Trace> &trace, int width, int height, bool caption,
                                  QString *error, Setup setup)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::unique_ptr<View>();
    };
    if (!trace)
        return fail(QStringLiteral("no trace loaded"));
    if (width < kMinWidth || width > kMaxSide)
        return fail(QStringLiteral("width %1 is outside %2..%3").arg(width).arg(kMinWidth).arg(kMaxSide));
    auto view = std::make_unique<View>();
    view->setAttribute(Qt::WA_DontShowOnScreen);
    if (const QString why = setup(*view); !why.isEmpty())
        return fail(why);
    const int band = caption ? ImageExporter::captionHeight(view.get()) : 0;
    if (height <= 0)
        height = 900;
    if (height - band < 200 || height > kMaxSide)
        return fail(QStringLiteral("height %1 is outside %2..%3").arg(height).arg(200 + band).arg(kMaxSide));
    view->resize(width, height - band);
    view->show();
    QApplication::processEvents();
    return view;
}

} // namespace

std::unique_ptr<EngineChartsView> ImageExporter::createEngineCharts(const std::shared_ptr<const Trace> &trace,
                                                                    int64_t t0, int64_t t1, bool dark, int width,
                                                                    int height, bool caption, QString *error)
{
    auto view = createPanel<EngineChartsView>(trace, width, height, caption, error, [&](EngineChartsView &v) {
        v.setDark(dark);
        v.setTrace(trace);
        if (t1 > t0)
            v.setRange(t0, t1);
        return v.result().empty() ? QStringLiteral("no NeuronCore engines or DMA queues in this trace: the engines view "
                                                   "needs a Neuron profile (NTFF, neuron-profile JSON or a profile folder)")
                                  : QString();
    });
    if (view)
        QApplication::processEvents(); // the charts lay out in a second pass
    return view;
}

std::unique_ptr<AnalysisTablesView> ImageExporter::createAnalysisTables(const std::shared_ptr<const Trace> &trace,
                                                                        int64_t t0, int64_t t1, int width,
                                                                        int height, bool caption, QString *error)
{
    auto view = createPanel<AnalysisTablesView>(trace, width, height, caption, error, [&](AnalysisTablesView &v) {
        v.setTrace(trace);
        if (t1 > t0)
            v.setRange(t0, t1);
        return QString();
    });
    if (!view)
        return view;
    QElapsedTimer clock;
    clock.start();
    while (view->isComputing() && clock.elapsed() < 60000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    if (view->isComputing()) {
        if (error)
            *error = QStringLiteral("the operator tables took longer than a minute to compute");
        return {};
    }
    QApplication::processEvents();
    return view;
}

int ImageExporter::captionHeight(const QWidget *widget)
{
    return widget->fontMetrics().height() + 12;
}

void ImageExporter::paintCaption(QPainter &p, const QRect &band, const QString &caption, const QWidget *widget)
{
    QColor background(0xf3, 0xf4, 0xf6), text(0x1f, 0x29, 0x37), edge(0xd1, 0xd5, 0xdb);
    if (const auto *view = qobject_cast<const TimelineView *>(widget)) {
        background = view->colors().headerBackground;
        text = view->colors().text;
        edge = view->colors().separator;
    }
    p.fillRect(band, background);
    p.setPen(edge);
    p.drawLine(band.topLeft(), band.topRight());
    p.setPen(text);
    p.setFont(widget->font());
    const QRect textRect = band.adjusted(8, 0, -8, 0);
    p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
               widget->fontMetrics().elidedText(caption, Qt::ElideMiddle, textRect.width()));
}

QImage ImageExporter::renderImage(QWidget *widget, qreal dpr, const QString &caption)
{
    const QSize logical = widget->size();
    const int band = caption.isEmpty() ? 0 : captionHeight(widget);
    const QSize total(logical.width(), logical.height() + band);
    QImage image(QSize(int(std::lround(total.width() * dpr)), int(std::lround(total.height() * dpr))),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::TextAntialiasing);
    renderWidget(widget, p);
    if (band)
        paintCaption(p, QRect(0, logical.height(), total.width(), band), caption, widget);
    p.end();
    return image;
}

QByteArray ImageExporter::renderSvg(QWidget *widget, const QString &caption, const QString &title)
{
    const QSize logical = widget->size();
    const int band = caption.isEmpty() ? 0 : captionHeight(widget);
    const QSize total(logical.width(), logical.height() + band);
    QByteArray data;
    QBuffer buffer(&data);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(total);
    svg.setViewBox(QRect(QPoint(0, 0), total));
    svg.setTitle(title);
    svg.setDescription(caption.isEmpty() ? title : caption);
    QPainter p(&svg);
    renderWidget(widget, p);
    if (band)
        paintCaption(p, QRect(0, logical.height(), total.width(), band), caption, widget);
    p.end();
    // QSvgGenerator states the size in mm (from an assumed resolution) and viewers convert mm back
    // at their own: state it in pixels, as requested.
    const qsizetype svgStart = data.indexOf("<svg ");
    const qsizetype viewBox = data.indexOf("viewBox=", svgStart);
    if (svgStart >= 0 && viewBox > svgStart)
        data.replace(svgStart, viewBox - svgStart,
                     QStringLiteral("<svg width=\"%1\" height=\"%2\"\n ").arg(total.width()).arg(total.height()).toUtf8());
    return data;
}

ImageExporter::Format ImageExporter::formatForPath(const QString &path)
{
    return path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive) ? Format::Svg : Format::Png;
}

bool ImageExporter::save(QWidget *widget, const QString &path, Format format, qreal dpr, const QString &caption,
                         QString *error)
{
    if (format == Format::Svg) {
        const QByteArray svg = renderSvg(widget, caption, QStringLiteral("Lanescope"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(svg) != svg.size()) {
            if (error)
                *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
            return false;
        }
        return true;
    }
    return savePng(renderImage(widget, dpr, caption), path, error);
}

bool ImageExporter::savePng(const QImage &picture, const QString &path, QString *error)
{
    // The picture is opaque (drawn on white): written as RGB by the small encoder made for such
    // pictures (util/pngencoder.h), several times faster than Qt's writer on a large screenshot. A
    // window's own pixels (32-bit, 0xffRRGGBB) are read as they are.
    std::string png;
    if (picture.format() == QImage::Format_RGB32) {
        png = png::encodeRgb(picture.constBits(), picture.width(), picture.height(), size_t(picture.bytesPerLine()), png::Pixels::Rgb32);
    } else {
        const QImage image = picture.convertToFormat(QImage::Format_RGB888);
        png = png::encodeRgb(image.constBits(), image.width(), image.height(), size_t(image.bytesPerLine()));
    }
    QFile f(path);
    if (png.empty() || !f.open(QIODevice::WriteOnly) || f.write(png.data(), qint64(png.size())) != qint64(png.size())) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, png.empty() ? QStringLiteral("PNG encoding failed") : f.errorString());
        return false;
    }
    return true;
}

QString ImageExporter::captionText(const QString &file, const Trace &trace, int64_t t0, int64_t t1,
                                   const QDateTime &when)
{
    const QString name = QFileInfo(file).fileName().isEmpty() ? file : QFileInfo(file).fileName();
    return QStringLiteral("%1  ·  %2 – %3 (%4)  ·  %5")
        .arg(name, DurationFormat::formatPrecise(t0 - trace.startNs()), DurationFormat::formatPrecise(t1 - trace.startNs()),
             DurationFormat::format(t1 - t0), when.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
}

bool ImageExporter::parseRange(const QString &text, int64_t *fromNs, int64_t *toNs, QString *error)
{
    // The one range syntax (core/analysis/timerange.h); a unit-less number keeps its old meaning here,
    // ms after the trace start. Both ends are needed and both after the start: no trace to resolve against.
    std::string why;
    const std::optional<TimeRange> range = TimeRange::parse(text.toStdString(), TimeRange::BareNumber::MsAfterStart, &why);
    const std::string quoted = "'" + text.toStdString() + "': ";
    if (range && (!range->from || !range->to || range->from->absolute || range->to->absolute))
        why = quoted + "expected FROM:TO, both after the trace start (e.g. 10ms:12.5ms)";
    else if (range && range->to->ns <= range->from->ns)
        why = quoted + "TO must be after FROM";
    else if (range) {
        *fromNs = range->from->ns;
        *toNs = range->to->ns;
        return true;
    }
    if (error)
        *error = QStringLiteral("range ") + QString::fromStdString(why);
    return false;
}

} // namespace lanescope
