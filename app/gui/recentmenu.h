#pragma once
// File > Open Recent: the list kept by RecentFiles (QSettings), rebuilt each time the menu opens, with
// Alt+1..9/0 accelerators, the full path as tool tip and Clear Menu. A file that is gone is taken off
// the list with a message instead of an error from the loader.
#include <QMenu>

namespace lanescope {

class RecentMenu : public QMenu
{
    Q_OBJECT

public:
    explicit RecentMenu(const QString &title, QWidget *parent = nullptr);

    // Scripted runs (--screenshot) leave the user's list alone and say what they would have shown on
    // stderr instead of in a dialog.
    void setQuiet(bool quiet) { m_quiet = quiet; }
    void remember(const QString &path);
    // Rebuilds the entries (also done each time the menu opens).
    void refresh();

signals:
    void openRequested(const QString &path);
    void statusMessage(const QString &text, int timeoutMs);

private:
    void open(const QString &path);

    bool m_quiet = false;
};

} // namespace lanescope
