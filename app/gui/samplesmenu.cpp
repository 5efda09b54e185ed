#include "samplesmenu.h"

#include "session.h"

#include "io/synthetic/samplefolderwriter.h"

#include <QApplication>
#include <QTemporaryDir>

#include <exception>

namespace lanescope {

SamplesMenu::SamplesMenu(Session *session, QWidget *parent) : QMenu(tr("&Samples"), parent), m_session(session)
{
    addAction(tr("Open the RMSNorm Sample (synthetic)"), this, &SamplesMenu::openSample);
    addAction(tr("Compare RMSNorm: naive vs torch.rms_norm vs torch.compile"), this, [this] { compareVariants(true); });
    addAction(tr("Compare RMSNorm: naive vs torch.compile"), this, [this] { compareVariants(false); });
}

SamplesMenu::~SamplesMenu() = default;

QString SamplesMenu::sampleDir()
{
    if (!m_dir) {
        m_dir = std::make_unique<QTemporaryDir>();
        if (!m_dir->isValid()) {
            const QString error = m_dir->errorString();
            m_dir.reset();
            reportError(tr("No temporary folder: %1").arg(error));
            return {};
        }
    }
    return m_dir->path();
}

void SamplesMenu::reportError(const QString &error)
{
    m_session->reportError(tr("Could not write the sample"), tr("Could not write the sample"), error);
}

void SamplesMenu::openSample()
{
    const QString dir = sampleDir();
    if (dir.isEmpty())
        return;
    try {
        QApplication::setOverrideCursor(Qt::BusyCursor);
        const std::string folder = SampleFolderWriter::write(dir.toStdString());
        QApplication::restoreOverrideCursor();
        m_session->open(QString::fromStdString(folder));
    } catch (const std::exception &e) {
        QApplication::restoreOverrideCursor();
        reportError(QString::fromUtf8(e.what()));
    }
}

void SamplesMenu::compareVariants(bool threeWay)
{
    const QString dir = sampleDir();
    if (dir.isEmpty())
        return;
    try {
        QApplication::setOverrideCursor(Qt::BusyCursor);
        const std::vector<std::string> folders = SampleFolderWriter::writeComparison(dir.toStdString(), {});
        QApplication::restoreOverrideCursor();
        const std::vector<std::string> variants = SampleFolderWriter::variants();
        QStringList paths, labels;
        for (size_t i = 0; i < folders.size(); ++i) {
            if (!threeWay && i == 1)
                continue; // the pair: naive vs torch.compile
            paths << QString::fromStdString(folders[i]);
            labels << QString::fromStdString(variants[i]);
        }
        m_session->openComparison(paths, labels);
    } catch (const std::exception &e) {
        QApplication::restoreOverrideCursor();
        reportError(QString::fromUtf8(e.what()));
    }
}

} // namespace lanescope
