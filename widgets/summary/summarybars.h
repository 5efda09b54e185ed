#pragma once
// A small painted horizontal bar chart of the Summary page (engine active %, DMA bytes by queue
// kind, step times): a title, then one row per bar with its label on the left, the bar scaled to
// the largest value (or to `maximum` when set) and the value's text on the right. Painted with
// QPainter: a handful of bars needs no chart library, and it reads in light and dark.
#include <QColor>
#include <QString>
#include <QWidget>

#include <vector>

namespace lanescope {

class SummaryBars : public QWidget
{
    Q_OBJECT
public:
    struct Bar
    {
        QString label;
        double value = 0;
        QString text; // shown right of the bar
        bool highlight = false; // drawn in the accent colour (e.g. the slowest step)
    };

    explicit SummaryBars(const QString &title, QWidget *parent = nullptr);

    // maximum <= 0: scale to the largest value.
    void setBars(std::vector<Bar> bars, double maximum = 0);
    const std::vector<Bar> &bars() const { return m_bars; }
    void setDark(bool dark);
    QString title() const { return m_title; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int rowHeight() const;

    QString m_title;
    std::vector<Bar> m_bars;
    double m_maximum = 0;
    bool m_dark = false;
};

} // namespace lanescope
