#include "capturebanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace lanescope {

CaptureBanner::CaptureBanner(QWidget *parent) : QFrame(parent), m_label(new QLabel(this)), m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("captureBanner"));
    setDark(false);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 3, 4, 3);
    m_label->setTextFormat(Qt::RichText);
    m_label->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long titles are cut, not widening the window
    layout->addWidget(m_label, 1);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss (the checks stay in the Summary)"));
    layout->addWidget(m_close);
    connect(m_label, &QLabel::linkActivated, this, &CaptureBanner::showRequested);
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        emit dismissed();
    });
    hide();
}

void CaptureBanner::showProblem(const QString &title, int count)
{
    const QString more = count > 1 ? tr(" (and %n more)", nullptr, count - 1) : QString();
    m_label->setText(tr("<b>Capture check:</b> %1%2 — the numbers below may mislead. <a href=\"summary\">Show in Summary</a>")
                         .arg(title.toHtmlEscaped(), more));
    m_label->setToolTip(title);
    show();
}

void CaptureBanner::setDark(bool dark)
{
    // Amber in both themes: a warning about the data.
    setStyleSheet(dark ? QStringLiteral("#captureBanner { background: #3d3208; border-bottom: 1px solid #8a6d1a; }"
                                        "#captureBanner QLabel, #captureBanner QToolButton { color: #f3df9a; }")
                       : QStringLiteral("#captureBanner { background: #fff4ce; border-bottom: 1px solid #d4a72c; }"
                                        "#captureBanner QLabel, #captureBanner QToolButton { color: #3b2f00; }"));
}

QString CaptureBanner::text() const
{
    return m_label->text();
}

} // namespace lanescope
