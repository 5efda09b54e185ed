#pragma once
// The strip above the timeline in compare mode: which profiles are shown (label = file), how they
// are aligned (trace start, ProfilerStep #N, a marker name, or the selected event and its match in
// every other profile), a hand nudge per profile, and a button to leave compare mode.
#include "analysis/tracecomparison.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace lanescope {

class CompareBar : public QWidget
{
    Q_OBJECT
public:
    enum Mode { AlignStart, AlignStep, AlignMarker, AlignSelection };

    explicit CompareBar(QWidget *parent = nullptr);

    // Profiles as "A = file", the current options shown in the controls.
    void setProfiles(const QStringList &labels, const QStringList &paths, const CompareOptions &options);
    // The options the controls describe; Mode AlignSelection needs `selectionAnchor` (set by the window).
    CompareOptions options() const;
    void setSelectionAnchor(const CompareAnchor &anchor) { m_selectionAnchor = anchor; }
    Mode mode() const;
    void setMessage(const QString &text, bool error = false);

signals:
    void optionsChanged();      // the user changed alignment, step, marker or a nudge
    void alignToSelectionRequested(); // mode "selected event": the window computes the anchor
    void closeRequested();

private:
    void updateEnabled();

    QLabel *m_profiles = nullptr;
    QComboBox *m_mode = nullptr;
    QSpinBox *m_step = nullptr;
    QLineEdit *m_marker = nullptr;
    QComboBox *m_nudgeProfile = nullptr;
    QDoubleSpinBox *m_nudge = nullptr;
    QLabel *m_message = nullptr;
    std::vector<double> m_nudgeUs;
    CompareAnchor m_selectionAnchor;
};

} // namespace lanescope
