#pragma once
// File > Export Image: what to picture (the timeline's visible range with all lanes, the lanes on
// screen or the lanes matching a pattern; the whole window; one of the visible docks' charts or
// tables), the format (PNG at 1x or 2x, SVG) and whether to add a caption band. Save asks for a
// file name afterwards; Copy puts the picture on the clipboard.
#include "imageexporter.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QLabel;
class QPushButton;

namespace lanescope {

class ImageExportDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Target { TimelineAllLanes, TimelineLanesOnScreen, TimelineMatchingLanes, Window, Dock };
    enum class Output { PngScale1, PngScale2, Svg };

    struct Choice
    {
        Target target = Target::TimelineAllLanes;
        int dock = -1; // index into the dock titles given to the dialog (Target::Dock)
        QString laneRegex;
        Output output = Output::PngScale1;
        bool caption = true;

        ImageExporter::Format format() const { return output == Output::Svg ? ImageExporter::Format::Svg : ImageExporter::Format::Png; }
        qreal scale() const { return output == Output::PngScale2 ? 2.0 : 1.0; }
        bool isTimeline() const { return target != Target::Window && target != Target::Dock; }
    };

    // What the dialog's buttons mean.
    enum Result { Cancelled = 0, Save = 1, Copy = 2 };

    ImageExportDialog(const QStringList &dockTitles, QWidget *parent = nullptr);

    Choice choice() const;
    void setChoice(const Choice &choice);

    QComboBox *targetBox() const { return m_target; }
    QComboBox *outputBox() const { return m_output; }
    QLineEdit *laneRegexEdit() const { return m_regex; }
    QCheckBox *captionBox() const { return m_caption; }

private:
    void updateState();

    QComboBox *m_target = nullptr;
    QComboBox *m_output = nullptr;
    QLineEdit *m_regex = nullptr;
    QLabel *m_regexError = nullptr;
    QCheckBox *m_caption = nullptr;
    QPushButton *m_saveButton = nullptr;
    QPushButton *m_copyButton = nullptr;
};

} // namespace lanescope
