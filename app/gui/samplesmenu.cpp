#include "samplesmenu.h"

#include "mainwindow.h"

#include "io/samplefolderwriter.h"

#include <QApplication>
#include <QTemporaryDir>

#include <exception>

namespace lanescope {

SamplesMenu::SamplesMenu(MainWindow *window) : QMenu(tr("&Samples"), window), m_window(window)
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
            m_window->reportError(tr("Could not write the sample"), tr("No temporary folder: %1").arg(error));
            return {};
        }
    }
    return m_dir->path();
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
        m_window->openPath(QString::fromStdString(folder));
    } catch (const std::exception &e) {
        QApplication::restoreOverrideCursor();
        m_window->reportError(tr("Could not write the sample"), QString::fromUtf8(e.what()));
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
        m_window->openComparison(paths, labels);
    } catch (const std::exception &e) {
        QApplication::restoreOverrideCursor();
        m_window->reportError(tr("Could not write the sample"), QString::fromUtf8(e.what()));
    }
}

} // namespace lanescope
