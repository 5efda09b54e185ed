#pragma once
// A list of insights findings as cards (the Summary page's Capture and Findings sections, and each
// side of compare mode): severity badge, title, detail, action, recoverable time, an optional tag
// ("resolved", "new", "changed") and a "Show" button that asks for the finding's events and ranges
// in the timeline. Only presents: the findings come from core (Insights::run, FindingsDiff).
#include "analysis/insights/finding.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace lanescope {

class FindingsListView : public QWidget
{
    Q_OBJECT
public:
    explicit FindingsListView(const QString &heading, QWidget *parent = nullptr);

    // `tags` is empty or one (possibly empty) tag per finding.
    void setFindings(std::vector<Finding> findings, std::vector<QString> tags = {});
    const std::vector<Finding> &findings() const { return m_findings; }
    int count() const { return int(m_findings.size()); }
    void setHeading(const QString &heading);
    QString heading() const;
    // Shown instead of the cards when there are none.
    void setEmptyText(const QString &text);
    // Show buttons (off in compare mode: the events are in each side's own trace).
    void setShowEnabled(bool on);
    QPushButton *showButton(int index) const;
    QString cardText(int index) const; // the card's title, detail and action as shown (tests)
    void setDark(bool dark);

    static QColor severityColor(Severity s, bool dark);

signals:
    void showRequested(int index);

protected:
    // A wrapped rich-text label's height follows its width (heightForWidth alone leaves it clipped
    // inside the card's row layout in a scroll area).
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuild();

    QLabel *m_heading;
    QLabel *m_empty;
    QVBoxLayout *m_cards;
    std::vector<Finding> m_findings;
    std::vector<QString> m_tags;
    std::vector<QWidget *> m_cardWidgets;
    std::vector<QPushButton *> m_buttons;
    std::vector<QLabel *> m_bodies;
    bool m_showEnabled = true;
    bool m_dark = false;
};

} // namespace lanescope
