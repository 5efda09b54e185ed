#include "sqliteexportjob.h"

#include "store/sqliteexporter.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace lanescope {

SqliteExportJob::SqliteExportJob(QObject *parent) : QObject(parent) {}

SqliteExportJob::~SqliteExportJob()
{
    m_cancel = true;
    m_worker.waitForFinished();
}

bool SqliteExportJob::start(std::shared_ptr<const Trace> trace, const QString &outPath, std::vector<Annotation> notes)
{
    if (m_running || !trace)
        return false;
    m_running = true;
    m_cancel = false;
    const std::string out = outPath.toStdString();
    m_worker = QtConcurrent::run([this, trace = std::move(trace), out, outPath, notes = std::move(notes)] {
        QElapsedTimer sinceReport;
        sinceReport.start();
        LoadOptions options;
        options.cancel = &m_cancel;
        options.progress = [&](int permille) {
            if (permille < 1000 && sinceReport.elapsed() < 50)
                return;
            sinceReport.restart();
            QMetaObject::invokeMethod(this, [this, permille] { emit progress(permille); }, Qt::QueuedConnection);
        };
        std::string error;
        const bool ok = SqliteExporter::exportTo(*trace, out, options, &error, notes);
        const QString message = QString::fromStdString(error);
        QMetaObject::invokeMethod(
            this,
            [this, ok, outPath, message] {
                m_running = false;
                emit finished(ok, outPath, message);
            },
            Qt::QueuedConnection);
    });
    return true;
}

} // namespace lanescope
