#pragma once
// The window's status bar over the Session: its messages, the open trace's counts (slices, tracks,
// warnings, duration), and while the Session is busy a progress bar and a Cancel button.
#include <QStatusBar>

class QLabel;
class QProgressBar;
class QPushButton;

namespace lanescope {

class Session;
class WarningsPanel;

class SessionStatusBar : public QStatusBar
{
    Q_OBJECT
public:
    SessionStatusBar(Session *session, const WarningsPanel *warnings, QWidget *parent);

    // Shows the progress bar for other background work of the window (e.g. an export).
    void showProgress(int permille);
    void hideProgress();
    QProgressBar *progressBar() const { return m_progress; }

private:
    void setBusy(bool busy);
    void updateCounts();

    Session *m_session;
    const WarningsPanel *m_warnings;
    QLabel *m_countsLabel;
    QProgressBar *m_progress;
    QPushButton *m_cancelButton;
};

} // namespace lanescope
