#pragma once
// Runs SqliteExporter in the background (File > Export as SQLite): progress on a 0..1000 scale,
// cancel(), and one finished() with the outcome on the GUI thread.
#include "annotations/annotation.h"
#include "model/trace.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace lanescope {

class SqliteExportJob : public QObject
{
    Q_OBJECT
public:
    explicit SqliteExportJob(QObject *parent = nullptr);
    ~SqliteExportJob() override; // cancels and waits

    // False when an export is already running. `notes` fill the database's notes table.
    bool start(std::shared_ptr<const Trace> trace, const QString &outPath, std::vector<Annotation> notes = {});
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_running; }

signals:
    void progress(int permille);
    // ok: written; otherwise `message` says why (names the file).
    void finished(bool ok, const QString &outPath, const QString &message);

private:
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
    QFuture<void> m_worker;
};

} // namespace lanescope
