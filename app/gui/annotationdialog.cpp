#include "annotationdialog.h"

#include "overlays/annotationsoverlay.h"

#include <QColorDialog>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>

namespace lanescope {

namespace {

QIcon swatch(const QColor &c)
{
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setPen(c.darker(140));
    p.setBrush(c.isValid() ? c : AnnotationsOverlay::defaultColor());
    p.drawRoundedRect(QRectF(0.5, 0.5, 13, 13), 2, 2);
    return QIcon(pm);
}

} // namespace

AnnotationDialog::AnnotationDialog(const QString &title, const QString &where, QWidget *parent)
    : QDialog(parent), m_text(new QPlainTextEdit(this)), m_color(new QComboBox(this))
{
    setWindowTitle(title);
    auto *form = new QFormLayout(this);
    auto *on = new QLabel(where, this);
    on->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("On:"), on);
    m_text->setPlaceholderText(tr("What is worth knowing here"));
    m_text->setTabChangesFocus(true);
    m_text->setMinimumSize(360, 90);
    form->addRow(tr("&Text:"), m_text);
    m_color->addItem(swatch(QColor()), tr("Default (amber)"), QString());
    const std::pair<const char *, const char *> named[] = {{"Red", "#d64541"}, {"Orange", "#f08a24"},
                                                           {"Green", "#3fa34d"}, {"Blue", "#2d7dd2"},
                                                           {"Purple", "#8e5ccf"}, {"Grey", "#7f8c8d"}};
    for (const auto &[name, hex] : named)
        m_color->addItem(swatch(QColor(QLatin1String(hex))), tr(name), QString::fromLatin1(hex));
    m_color->addItem(tr("Other..."), QStringLiteral("custom"));
    connect(m_color, &QComboBox::activated, this, &AnnotationDialog::chooseCustom);
    form->addRow(tr("&Colour:"), m_color);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    m_text->setFocus();
}

QString AnnotationDialog::text() const
{
    return m_text->toPlainText().trimmed();
}

void AnnotationDialog::setText(const QString &text)
{
    m_text->setPlainText(text);
}

QString AnnotationDialog::color() const
{
    return m_color->currentData().toString();
}

void AnnotationDialog::setColor(const QString &color)
{
    const QColor c(color);
    if (color.isEmpty() || !c.isValid()) {
        m_color->setCurrentIndex(0);
        return;
    }
    const QString hex = c.name();
    int index = m_color->findData(hex);
    if (index < 0) {
        m_color->insertItem(m_color->count() - 1, swatch(c), hex, hex);
        index = m_color->count() - 2;
    }
    m_color->setCurrentIndex(index);
}

void AnnotationDialog::chooseCustom(int index)
{
    if (m_color->itemData(index).toString() != QLatin1String("custom"))
        return;
    const QColor c = QColorDialog::getColor(AnnotationsOverlay::defaultColor(), this, tr("Note Colour"));
    if (c.isValid())
        setColor(c.name());
    else
        m_color->setCurrentIndex(0);
}

} // namespace lanescope
