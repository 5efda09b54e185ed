#pragma once
// The window's picture actions: File > Export Image... (Ctrl+Shift+E, asks with ImageExportDialog,
// then for a file name) and Edit > Copy Image (Ctrl+Shift+C, the last choice straight to the
// clipboard). Rendering is ImageExporter's; this class only decides what to render.
#include "imageexportdialog.h"

#include "annotations/annotation.h"

#include <QObject>

#include <memory>
#include <vector>

class QAction;
class QDockWidget;
class QMainWindow;

namespace lanescope {

class TimelineView;

class ImageExportActions : public QObject
{
    Q_OBJECT
public:
    ImageExportActions(QMainWindow *window, TimelineView *timeline);

    QAction *exportAction() const { return m_exportAction; }
    QAction *copyAction() const { return m_copyAction; }

    // The file shown (for the caption).
    void setSourcePath(const QString &path) { m_sourcePath = path; }
    // The notes drawn on exported timelines (empty: none, e.g. while View > Show Notes is off).
    void setNotes(std::vector<Annotation> notes) { m_notes = std::move(notes); }

    // The docks a picture can be taken of: shown and in front (not behind another tab).
    QList<QDockWidget *> visibleDocks() const;

    // Renders a choice (docks index into visibleDocks()). Null image and *error when it cannot.
    QImage renderImage(const ImageExportDialog::Choice &choice, QString *error) const;
    bool exportTo(const ImageExportDialog::Choice &choice, const QString &path, QString *error) const;
    bool copyToClipboard(const ImageExportDialog::Choice &choice, QString *error) const;

    void setLastChoice(const ImageExportDialog::Choice &choice) { m_last = choice; }
    const ImageExportDialog::Choice &lastChoice() const { return m_last; }

signals:
    // A line for the status bar after an export or a copy.
    void message(const QString &text);

private:
    void exportWithDialog();
    void copyLast();
    // The widget to render for a choice: a new offscreen timeline, or one of the window's.
    QWidget *widgetFor(const ImageExportDialog::Choice &choice, std::unique_ptr<QWidget> &owned, QString *error) const;
    QString caption(const ImageExportDialog::Choice &choice) const;
    std::set<uint32_t> tracksOnScreen() const;
    void fail(const QString &error) const;

    QMainWindow *m_window;
    TimelineView *m_timeline;
    QAction *m_exportAction;
    QAction *m_copyAction;
    QString m_sourcePath;
    std::vector<Annotation> m_notes;
    ImageExportDialog::Choice m_last;
};

} // namespace lanescope
