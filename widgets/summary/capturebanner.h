#pragma once
// The non-modal strip above the timeline that says the profile itself was captured wrong (issue 20:
// a capture-* finding): the first check's title, how many there are, a "Show in Summary" link and a
// close button. Shown once per load; closing it only hides it.
#include <QFrame>

class QLabel;
class QToolButton;

namespace lanescope {

class CaptureBanner : public QFrame
{
    Q_OBJECT
public:
    explicit CaptureBanner(QWidget *parent = nullptr);

    // `title`: the most severe check's title; `count`: how many checks fired.
    void showProblem(const QString &title, int count);
    QString text() const;
    // Amber on a light window, dark amber on a dark one (the warning stays a warning, not a glare).
    void setDark(bool dark);
    QLabel *label() const { return m_label; }
    QToolButton *closeButton() const { return m_close; }

signals:
    void showRequested(); // the link: show the checks in the Summary page
    void dismissed();

private:
    QLabel *m_label;
    QToolButton *m_close;
};

} // namespace lanescope
