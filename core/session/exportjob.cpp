#include "exportjob.h"

#include "store/parquetexporter.h"
#include "store/sqliteexporter.h"
#include "util/workerpool.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace lanescope {

ExportJob::ExportJob(QObject *parent) : QObject(parent) {}

ExportJob::~ExportJob()
{
    m_cancel = true;
    m_worker.waitForFinished();
}

bool ExportJob::start(std::shared_ptr<const Trace> trace, const QString &outPath, std::vector<Annotation> notes,
                      Format format)
{
    if (m_running || !trace)
        return false;
    m_running = true;
    m_cancel = false;
    const std::string out = outPath.toStdString();
    m_worker = QtConcurrent::run(workerPool(), [this, trace = std::move(trace), out, outPath, notes = std::move(notes), format] {
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
        const bool ok = format == Format::Parquet ? ParquetExporter::exportTo(*trace, out, options, &error, notes)
                                                  : SqliteExporter::exportTo(*trace, out, options, &error, notes);
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
