#pragma once
// The small dialog of Add Note / Edit Note: the note's text and an optional colour (the default
// amber, a few named colours, or any colour from the colour picker). Says what the note is on.
#include <QDialog>

class QComboBox;
class QPlainTextEdit;

namespace lanescope {

class AnnotationDialog : public QDialog
{
    Q_OBJECT
public:
    // `where`: what the note is attached to ("range 1.2 ms – 3.4 ms", "event aten::mm", ...).
    AnnotationDialog(const QString &title, const QString &where, QWidget *parent = nullptr);

    QString text() const;
    void setText(const QString &text);
    // "#rrggbb", or empty for the default colour.
    QString color() const;
    void setColor(const QString &color);

private:
    void chooseCustom(int index);

    QPlainTextEdit *m_text;
    QComboBox *m_color;
};

} // namespace lanescope
