#include "sessionstatusbar.h"

#include "session.h"
#include "warningspanel.h"

#include "style/durationformat.h"

#include "model/trace.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace lanescope {

namespace {

QString thousands(uint64_t v)
{
    return QString::fromStdString(formatThousands(v));
}

} // namespace

SessionStatusBar::SessionStatusBar(Session *session, const WarningsPanel *warnings, QWidget *parent)
    : QStatusBar(parent), m_session(session), m_warnings(warnings), m_countsLabel(new QLabel(this)),
      m_progress(new QProgressBar(this)), m_cancelButton(new QPushButton(tr("Cancel"), this))
{
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(true);
    m_progress->setFormat(QStringLiteral("%p%"));
    m_cancelButton->setToolTip(tr("Stop loading (Esc)"));
    addPermanentWidget(m_countsLabel);
    addPermanentWidget(m_progress);
    addPermanentWidget(m_cancelButton);
    m_progress->hide();
    m_cancelButton->hide();
    connect(m_cancelButton, &QPushButton::clicked, session, &Session::cancel);
    connect(session, &Session::busyChanged, this, &SessionStatusBar::setBusy);
    connect(session, &Session::loadProgress, m_progress, &QProgressBar::setValue);
    connect(session, &Session::statusMessage, this, &QStatusBar::showMessage);
    connect(session, &Session::traceChanged, this, &SessionStatusBar::updateCounts);
    updateCounts();
}

void SessionStatusBar::setBusy(bool busy)
{
    m_progress->setVisible(busy);
    m_cancelButton->setVisible(busy);
}

void SessionStatusBar::showProgress(int permille)
{
    m_progress->setValue(permille);
    m_progress->setVisible(true);
}

void SessionStatusBar::hideProgress()
{
    m_progress->setVisible(false);
}

void SessionStatusBar::updateCounts()
{
    const std::shared_ptr<const Trace> &trace = m_session->trace();
    if (!trace) {
        m_countsLabel->setText(tr("No trace"));
        return;
    }
    uint64_t tracks = 0;
    for (const Track &t : trace->tracks())
        if (t.sliceCount || t.instantCount || t.counterCount)
            ++tracks;
    m_countsLabel->setText(tr("%1 slices  ·  %2 tracks  ·  %3 warnings  ·  %4")
                               .arg(thousands(trace->allSlices().size()), thousands(tracks), thousands(m_warnings->total()),
                                    DurationFormat::format(trace->endNs() - trace->startNs())));
}

} // namespace lanescope
