#pragma once
// A QTableView that says why it is empty ("No framework operators in this range ...") instead of
// showing a blank grid.
#include <QTableView>

namespace lanescope {

class PlaceholderTableView : public QTableView
{
    Q_OBJECT

public:
    explicit PlaceholderTableView(QWidget *parent = nullptr) : QTableView(parent) {}

    // Shown centred while the model has no rows; empty shows nothing.
    void setPlaceholderText(const QString &text);
    QString placeholderText() const { return m_placeholder; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_placeholder;
};

} // namespace lanescope
