#pragma once
// Exports the loaded trace in the background (File > Export as SQLite, File > Export as Parquet):
// SqliteExporter to one database file or ParquetExporter to a folder of one file per table, the same
// computations the CLI's export-sqlite / export-parquet run; progress on a 0..1000 scale, cancel(), and
// one finished() with the outcome on the GUI thread.
#include "annotations/annotation.h"
#include "model/trace.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace lanescope {

class ExportJob : public QObject
{
    Q_OBJECT
public:
    explicit ExportJob(QObject *parent = nullptr);
    ~ExportJob() override; // cancels and waits

    enum class Format { Sqlite, Parquet };

    // False when an export is already running. `outPath`: the database file (Sqlite) or the folder
    // (Parquet). `notes` fill the notes table.
    bool start(std::shared_ptr<const Trace> trace, const QString &outPath, std::vector<Annotation> notes = {},
               Format format = Format::Sqlite);
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
