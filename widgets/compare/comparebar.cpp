#include "comparebar.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include <cmath>

namespace lanescope {

CompareBar::CompareBar(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    m_profiles = new QLabel(this);
    m_profiles->setTextFormat(Qt::RichText);
    m_mode = new QComboBox(this);
    m_mode->addItem(tr("Align at trace start"));
    m_mode->addItem(tr("Align at ProfilerStep #"));
    m_mode->addItem(tr("Align at marker"));
    m_mode->addItem(tr("Align at selected event"));
    m_mode->setToolTip(tr("Selected event: select an event in any profile; the same-numbered event of that name "
                          "in every other profile is aligned with it"));
    m_step = new QSpinBox(this);
    m_step->setRange(0, 1000000);
    m_marker = new QLineEdit(this);
    m_marker->setPlaceholderText(tr("slice or instant name"));
    m_marker->setMaximumWidth(220);
    m_nudgeProfile = new QComboBox(this);
    m_nudgeProfile->setToolTip(tr("Profile to shift by hand"));
    m_nudge = new QDoubleSpinBox(this);
    m_nudge->setRange(-1e9, 1e9);
    m_nudge->setDecimals(3);
    m_nudge->setSuffix(tr(" µs"));
    m_nudge->setKeyboardTracking(false);
    m_nudge->setToolTip(tr("Shift this profile by hand (µs)"));
    m_message = new QLabel(this);
    auto *close = new QToolButton(this);
    close->setText(tr("Leave compare"));
    close->setToolTip(tr("Show the first profile alone"));

    layout->addWidget(m_profiles);
    layout->addSpacing(12);
    layout->addWidget(m_mode);
    layout->addWidget(m_step);
    layout->addWidget(m_marker);
    layout->addSpacing(12);
    layout->addWidget(new QLabel(tr("Nudge"), this));
    layout->addWidget(m_nudgeProfile);
    layout->addWidget(m_nudge);
    layout->addWidget(m_message, 1);
    layout->addWidget(close);

    connect(m_mode, &QComboBox::activated, this, [this] {
        updateEnabled();
        if (mode() == AlignSelection)
            emit alignToSelectionRequested();
        else
            emit optionsChanged();
    });
    connect(m_step, &QSpinBox::editingFinished, this, [this] {
        if (mode() == AlignStep)
            emit optionsChanged();
    });
    connect(m_marker, &QLineEdit::returnPressed, this, [this] {
        if (mode() == AlignMarker)
            emit optionsChanged();
    });
    connect(m_nudgeProfile, &QComboBox::currentIndexChanged, this, [this](int i) {
        const QSignalBlocker block(m_nudge);
        m_nudge->setValue(i >= 0 && size_t(i) < m_nudgeUs.size() ? m_nudgeUs[size_t(i)] : 0.0);
    });
    connect(m_nudge, &QDoubleSpinBox::valueChanged, this, [this](double us) {
        const int i = m_nudgeProfile->currentIndex();
        if (i < 0 || size_t(i) >= m_nudgeUs.size())
            return;
        m_nudgeUs[size_t(i)] = us;
        emit optionsChanged();
    });
    connect(close, &QToolButton::clicked, this, &CompareBar::closeRequested);
    updateEnabled();
}

void CompareBar::setProfiles(const QStringList &labels, const QStringList &paths, const CompareOptions &options)
{
    QStringList parts;
    for (qsizetype i = 0; i < labels.size(); ++i)
        parts << QStringLiteral("<b>%1</b> = %2").arg(labels[i].toHtmlEscaped(),
                                                      QFileInfo(i < paths.size() ? paths[i] : QString()).fileName().toHtmlEscaped());
    m_profiles->setText(parts.join(QStringLiteral(" &nbsp; ")));
    m_profiles->setToolTip(paths.join(QLatin1Char('\n')));
    {
        const QSignalBlocker block(m_nudgeProfile);
        m_nudgeProfile->clear();
        m_nudgeProfile->addItems(labels);
    }
    m_nudgeUs.assign(size_t(labels.size()), 0.0);
    for (size_t i = 0; i < m_nudgeUs.size() && i < options.nudgeNs.size(); ++i)
        m_nudgeUs[i] = double(options.nudgeNs[i]) / 1e3;
    m_nudgeProfile->setCurrentIndex(labels.size() > 1 ? 1 : 0);
    {
        const QSignalBlocker block(m_nudge);
        m_nudge->setValue(m_nudgeUs.size() > 1 ? m_nudgeUs[1] : 0.0);
    }
    switch (options.anchor.kind) {
    case CompareAnchor::Kind::Start: m_mode->setCurrentIndex(AlignStart); break;
    case CompareAnchor::Kind::Step: m_mode->setCurrentIndex(AlignStep); m_step->setValue(int(options.anchor.step)); break;
    case CompareAnchor::Kind::Marker:
        m_mode->setCurrentIndex(AlignMarker);
        m_marker->setText(QString::fromStdString(options.anchor.marker));
        break;
    case CompareAnchor::Kind::Slices:
    case CompareAnchor::Kind::Times:
        m_mode->setCurrentIndex(AlignSelection);
        m_selectionAnchor = options.anchor;
        break;
    }
    updateEnabled();
}

CompareBar::Mode CompareBar::mode() const
{
    return Mode(m_mode->currentIndex());
}

void CompareBar::setMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
}

CompareOptions CompareBar::options() const
{
    CompareOptions o;
    switch (mode()) {
    case AlignStart: o.anchor.kind = CompareAnchor::Kind::Start; break;
    case AlignStep:
        o.anchor.kind = CompareAnchor::Kind::Step;
        o.anchor.step = m_step->value();
        break;
    case AlignMarker:
        o.anchor.kind = CompareAnchor::Kind::Marker;
        o.anchor.marker = m_marker->text().toStdString();
        break;
    case AlignSelection: o.anchor = m_selectionAnchor; break;
    }
    for (double us : m_nudgeUs)
        o.nudgeNs.push_back(int64_t(std::llround(us * 1e3)));
    return o;
}

void CompareBar::updateEnabled()
{
    m_step->setVisible(mode() == AlignStep);
    m_marker->setVisible(mode() == AlignMarker);
}

} // namespace lanescope
