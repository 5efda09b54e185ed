#pragma once
// Opens a path in a test's real main window as File > Open does (Session::open) and waits for the load
// to finish (a trace, a NEFF or a job overview): whether it loaded.
#include "mainwindow.h"
#include "session.h"

#include <QSignalSpy>
#include <QString>

namespace lanescope::test {

inline bool openInWindow(MainWindow &w, const QString &path, int timeoutMs = 60000)
{
    QSignalSpy finished(w.session(), &Session::loadFinished);
    w.session()->open(path);
    return finished.wait(timeoutMs) && finished.first().value(0).toBool();
}

} // namespace lanescope::test
