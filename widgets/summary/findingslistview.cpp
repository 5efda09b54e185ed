#include "findingslistview.h"

#include "style/durationformat.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace lanescope {

namespace {

QString tagColor(const QString &tag, bool dark)
{
    if (tag == QLatin1String("resolved"))
        return dark ? QStringLiteral("#5fd38d") : QStringLiteral("#1a7f37");
    if (tag == QLatin1String("new"))
        return dark ? QStringLiteral("#ff7b72") : QStringLiteral("#cf222e");
    return dark ? QStringLiteral("#e3b341") : QStringLiteral("#9a6700");
}

} // namespace

FindingsListView::FindingsListView(const QString &heading, QWidget *parent)
    : QWidget(parent), m_heading(new QLabel(heading, this)), m_empty(new QLabel(this)), m_cards(new QVBoxLayout)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    QFont f = m_heading->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_heading->setFont(f);
    layout->addWidget(m_heading);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);
    m_cards->setSpacing(6);
    layout->addLayout(m_cards);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum); // as tall as the wrapped cards need
}

void FindingsListView::setFindings(std::vector<Finding> findings, std::vector<QString> tags)
{
    m_findings = std::move(findings);
    m_tags = std::move(tags);
    m_tags.resize(m_findings.size());
    rebuild();
}

void FindingsListView::setHeading(const QString &heading)
{
    m_heading->setText(heading);
}

QString FindingsListView::heading() const
{
    return m_heading->text();
}

void FindingsListView::setEmptyText(const QString &text)
{
    m_empty->setText(text);
}

void FindingsListView::setShowEnabled(bool on)
{
    m_showEnabled = on;
    for (QPushButton *b : m_buttons)
        b->setVisible(on);
}

QPushButton *FindingsListView::showButton(int index) const
{
    return index >= 0 && size_t(index) < m_buttons.size() ? m_buttons[size_t(index)] : nullptr;
}

QString FindingsListView::cardText(int index) const
{
    return index >= 0 && size_t(index) < m_bodies.size() ? m_bodies[size_t(index)]->text() : QString();
}

void FindingsListView::setDark(bool dark)
{
    if (m_dark == dark)
        return;
    m_dark = dark;
    rebuild();
}

bool FindingsListView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize) {
        auto *label = static_cast<QLabel *>(watched);
        const int needed = label->heightForWidth(label->width());
        if (needed > 0 && needed != label->minimumHeight())
            label->setFixedHeight(needed); // exactly the wrapped text: no clipping, no gap
    }
    return QWidget::eventFilter(watched, event);
}

QColor FindingsListView::severityColor(Severity s, bool dark)
{
    switch (s) {
    case Severity::High:
        return dark ? QColor(0xe5534b) : QColor(0xc62828);
    case Severity::Medium:
        return dark ? QColor(0xd08a2a) : QColor(0xc56a00);
    case Severity::Low:
        break;
    }
    return dark ? QColor(0x6e7f95) : QColor(0x5b6b80);
}

void FindingsListView::rebuild()
{
    for (QWidget *w : m_cardWidgets)
        delete w;
    m_cardWidgets.clear();
    m_buttons.clear();
    m_bodies.clear();
    m_empty->setVisible(m_findings.empty() && !m_empty->text().isEmpty());
    const QString border = m_dark ? QStringLiteral("#444") : QStringLiteral("#d0d0d0");
    const QString muted = m_dark ? QStringLiteral("#b0b0b0") : QStringLiteral("#555");
    for (size_t i = 0; i < m_findings.size(); ++i) {
        const Finding &f = m_findings[i];
        auto *card = new QFrame(this);
        card->setObjectName(QStringLiteral("findingCard"));
        card->setStyleSheet(QStringLiteral("#findingCard { border: 1px solid %1; border-left: 4px solid %2; border-radius: 3px; }")
                                .arg(border, severityColor(f.severity, m_dark).name()));
        auto *column = new QVBoxLayout(card);
        column->setContentsMargins(8, 6, 8, 6);
        column->setSpacing(3);
        auto *row = new QHBoxLayout; // badge ... Show; the text below gets the card's whole width
        column->addLayout(row);
        auto *badge = new QLabel(QString::fromLatin1(Finding::severityName(f.severity)).toUpper(), card);
        badge->setAlignment(Qt::AlignCenter);
        badge->setFixedWidth(badge->fontMetrics().horizontalAdvance(QStringLiteral("MEDIUM")) + 12);
        badge->setStyleSheet(QStringLiteral("background: %1; color: white; border-radius: 3px; padding: 1px 2px; font-weight: bold;")
                                 .arg(severityColor(f.severity, m_dark).name()));
        row->addWidget(badge);
        QString html = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(f.title).toHtmlEscaped());
        if (!m_tags[i].isEmpty())
            html += QStringLiteral(" &nbsp;<b style=\"color:%1\">[%2]</b>").arg(tagColor(m_tags[i], m_dark), m_tags[i]);
        html += QStringLiteral("<br>%1").arg(QString::fromStdString(f.detail).toHtmlEscaped());
        if (!f.source.empty())
            html += QStringLiteral("<br>%1 <code>%2</code> (%3 % of it)")
                        .arg(tr("In"), QString::fromStdString(f.source).toHtmlEscaped())
                        .arg(100.0 * f.sourceShare, 0, 'f', 0);
        if (!f.action.empty())
            html += QStringLiteral("<br>&#8594; %1").arg(QString::fromStdString(f.action).toHtmlEscaped());
        QStringList facts;
        if (f.recoverableNs)
            facts << tr("recoverable ~%1").arg(DurationFormat::format(*f.recoverableNs));
        if (!f.events.empty())
            facts << tr("%n event(s)", nullptr, int(f.events.size()));
        if (!f.ranges.empty())
            facts << tr("%n range(s)", nullptr, int(f.ranges.size()));
        facts << QString::fromStdString(f.rule);
        html += QStringLiteral("<br><span style=\"color:%1\">%2</span>").arg(muted, facts.join(QStringLiteral(" · ")));
        auto *body = new QLabel(html, card);
        body->setTextFormat(Qt::RichText);
        body->setStyleSheet(QStringLiteral("color: %1").arg(m_dark ? QStringLiteral("#e0e0e0") : QStringLiteral("#202020"))); // the card's style sheet hides the palette
        body->setWordWrap(true);
        body->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        body->setTextInteractionFlags(Qt::TextSelectableByMouse);
        body->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        body->installEventFilter(this);
        auto *show = new QPushButton(tr("Show"), card);
        show->setToolTip(tr("Mark this finding's events and ranges in the timeline and zoom to the first ([ / ] step through them)"));
        show->setEnabled(!f.events.empty() || !f.ranges.empty());
        show->setVisible(m_showEnabled);
        connect(show, &QPushButton::clicked, this, [this, i] { emit showRequested(int(i)); });
        row->addStretch(1);
        row->addWidget(show);
        column->addWidget(body);
        m_cards->addWidget(card);
        m_cardWidgets.push_back(card);
        m_buttons.push_back(show);
        m_bodies.push_back(body);
    }
}

} // namespace lanescope
