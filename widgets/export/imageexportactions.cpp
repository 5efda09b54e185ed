#include "imageexportactions.h"

#include "imageexporter.h"
#include "timeline/timelineview.h"

#include "model/trace.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QDateTime>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>

#include <tuple>

namespace lanescope {

namespace {

const auto kExportDirKey = QStringLiteral("export/lastDir");

} // namespace

ImageExportActions::ImageExportActions(QMainWindow *window, TimelineView *timeline)
    : QObject(window), m_window(window), m_timeline(timeline),
      m_exportAction(new QAction(tr("Export &Image..."), this)), m_copyAction(new QAction(tr("Copy &Image"), this))
{
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportAction->setToolTip(tr("Save the timeline, a panel or the window as PNG or SVG"));
    m_copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyAction->setToolTip(tr("Copy the picture last exported (by default the timeline) to the clipboard"));
    connect(m_exportAction, &QAction::triggered, this, &ImageExportActions::exportWithDialog);
    connect(m_copyAction, &QAction::triggered, this, &ImageExportActions::copyLast);
}

QList<QDockWidget *> ImageExportActions::visibleDocks() const
{
    QList<QDockWidget *> out;
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        if (dock->isVisible() && dock->widget() && dock->widget()->isVisible())
            out << dock;
    return out;
}

std::set<uint32_t> ImageExportActions::tracksOnScreen() const
{
    std::set<uint32_t> tracks;
    const QRect area = m_timeline->timeArea();
    for (int y = area.top(); y <= area.bottom(); y += 2)
        if (const TrackId t = m_timeline->trackAtY(y); t.isValid())
            tracks.insert(t.value);
    return tracks;
}

QWidget *ImageExportActions::widgetFor(const ImageExportDialog::Choice &choice, std::unique_ptr<QWidget> &owned,
                                       QString *error) const
{
    using Target = ImageExportDialog::Target;
    if (choice.target == Target::Window)
        return m_window;
    if (choice.target == Target::Dock) {
        const auto docks = visibleDocks();
        if (choice.dock < 0 || choice.dock >= docks.size()) {
            *error = tr("That panel is no longer shown.");
            return nullptr;
        }
        return docks[choice.dock]->widget();
    }
    ImageExporter::TimelineRequest request;
    request.trace = m_timeline->trace();
    std::tie(request.t0, request.t1) = m_timeline->visibleRange();
    request.laneState = m_timeline->laneState();
    request.theme = m_timeline->colors().theme;
    request.colorByCategory = m_timeline->colorByCategory();
    request.colorByOperator = m_timeline->colorByOperator();
    request.width = m_timeline->width();
    request.notes = m_notes;
    if (choice.target == Target::TimelineMatchingLanes)
        request.laneRegex = choice.laneRegex;
    if (choice.target == Target::TimelineLanesOnScreen) {
        request.onlyTracks = tracksOnScreen();
        if (request.onlyTracks.empty()) {
            *error = tr("No lane is on screen.");
            return nullptr;
        }
    }
    auto view = ImageExporter::createTimeline(request, choice.caption, error);
    if (!view)
        return nullptr;
    owned = std::move(view);
    return owned.get();
}

QString ImageExportActions::caption(const ImageExportDialog::Choice &choice) const
{
    if (!choice.caption)
        return {};
    const QDateTime now = QDateTime::currentDateTime();
    if (!m_timeline->trace())
        return QStringLiteral("Lanescope  ·  %1").arg(now.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    const auto [t0, t1] = m_timeline->visibleRange();
    return ImageExporter::captionText(m_sourcePath, *m_timeline->trace(), t0, t1, now);
}

QImage ImageExportActions::renderImage(const ImageExportDialog::Choice &choice, QString *error) const
{
    std::unique_ptr<QWidget> owned;
    QWidget *widget = widgetFor(choice, owned, error);
    if (!widget)
        return {};
    return ImageExporter::renderImage(widget, choice.scale(), caption(choice));
}

bool ImageExportActions::exportTo(const ImageExportDialog::Choice &choice, const QString &path, QString *error) const
{
    std::unique_ptr<QWidget> owned;
    QWidget *widget = widgetFor(choice, owned, error);
    if (!widget)
        return false;
    return ImageExporter::save(widget, path, choice.format(), choice.scale(), caption(choice), error);
}

bool ImageExportActions::copyToClipboard(const ImageExportDialog::Choice &choice, QString *error) const
{
    const QImage image = renderImage(choice, error);
    if (image.isNull())
        return false;
    QGuiApplication::clipboard()->setImage(image);
    return true;
}

void ImageExportActions::fail(const QString &error) const
{
    QMessageBox::warning(m_window, tr("Export Image"), error);
}

void ImageExportActions::exportWithDialog()
{
    QStringList titles;
    for (QDockWidget *dock : visibleDocks())
        titles << dock->windowTitle();
    ImageExportDialog dialog(titles, m_window);
    ImageExportDialog::Choice last = m_last;
    if (last.target == ImageExportDialog::Target::Dock)
        last.target = ImageExportDialog::Target::TimelineAllLanes; // the docks may have changed
    dialog.setChoice(last);
    const int result = dialog.exec();
    if (result == ImageExportDialog::Cancelled)
        return;
    const ImageExportDialog::Choice choice = dialog.choice();
    m_last = choice;
    QString error;
    if (result == ImageExportDialog::Copy) {
        if (!copyToClipboard(choice, &error))
            return fail(error);
        emit message(tr("Picture copied to the clipboard"));
        return;
    }
    QSettings settings;
    const bool svg = choice.format() == ImageExporter::Format::Svg;
    const QString base = QFileInfo(m_sourcePath).completeBaseName().isEmpty()
                             ? QStringLiteral("lanescope")
                             : QFileInfo(m_sourcePath).completeBaseName();
    const QString suggested = settings.value(kExportDirKey, QDir::homePath()).toString() + QLatin1Char('/') + base +
                              (svg ? QStringLiteral(".svg") : QStringLiteral(".png"));
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export Image"), suggested,
                                                svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const QString suffix = svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
    if (!exportTo(choice, path, &error))
        return fail(error);
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

void ImageExportActions::copyLast()
{
    ImageExportDialog::Choice choice = m_last;
    if (choice.format() == ImageExporter::Format::Svg)
        choice.output = ImageExportDialog::Output::PngScale1;
    QString error;
    if (!copyToClipboard(choice, &error))
        return fail(error);
    emit message(tr("Picture copied to the clipboard"));
}

} // namespace lanescope
