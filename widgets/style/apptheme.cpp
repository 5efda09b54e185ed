#include "apptheme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace lanescope {

namespace {

struct Saved
{
    bool known = false;
    QString styleName; // the style before the first switch to dark
    bool dark = false;
};

Saved &saved()
{
    static Saved s;
    return s;
}

} // namespace

QPalette AppTheme::darkPalette()
{
    // The timeline's dark colours (TimelinePalette::dark) one step lighter for chrome around it.
    const QColor window(0x26, 0x28, 0x2e), base(0x1b, 0x1d, 0x22), alternate(0x23, 0x26, 0x2d);
    const QColor text(0xe5, 0xe7, 0xeb), muted(0x8b, 0x92, 0x9e), button(0x32, 0x35, 0x3d);
    const QColor highlight(0x2f, 0x6f, 0xd6), link(0x7a, 0xb4, 0xff);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, QColor(0x32, 0x35, 0x3d));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, muted);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x45, 0x49, 0x52));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3e, 0x46));
    p.setColor(QPalette::Mid, QColor(0x2c, 0x2f, 0x36));
    p.setColor(QPalette::Dark, QColor(0x15, 0x17, 0x1b));
    p.setColor(QPalette::Shadow, QColor(0x0b, 0x0c, 0x0e));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, link);
    p.setColor(QPalette::LinkVisited, QColor(0xb4, 0x9c, 0xff));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x6f, 0x75, 0x80));
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Button, QColor(0x2a, 0x2d, 0x33));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x3a, 0x3e, 0x46));
    return p;
}

void AppTheme::apply(bool dark)
{
    Saved &s = saved();
    if (!s.known) {
        s.known = true;
        s.styleName = QApplication::style() ? QApplication::style()->name() : QString();
    }
    s.dark = dark;
    if (dark) {
        if (QApplication::style() && QApplication::style()->name().compare(QStringLiteral("fusion"), Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        return;
    }
    if (QApplication::style() && !s.styleName.isEmpty() && QApplication::style()->name() != s.styleName)
        if (QStyle *style = QStyleFactory::create(s.styleName))
            QApplication::setStyle(style);
    // Every widget hears of a new application palette: not when it is the one in use (a light start).
    const QPalette standard = QApplication::style()->standardPalette();
    if (QApplication::palette() != standard)
        QApplication::setPalette(standard);
}

bool AppTheme::isDark()
{
    return saved().dark;
}

} // namespace lanescope
