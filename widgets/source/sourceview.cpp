#include "sourceview.h"

#include "style/durationformat.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>

namespace lanescope {

namespace {

constexpr int kPad = 6;
const char *const kColumns[] = {QT_TRANSLATE_NOOP("SourceView", "Total"), QT_TRANSLATE_NOOP("SourceView", "Self"),
                                QT_TRANSLATE_NOOP("SourceView", "Device"), QT_TRANSLATE_NOOP("SourceView", "Line")};

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

} // namespace

class SourceView::Gutter : public QWidget
{
public:
    explicit Gutter(SourceView *view) : QWidget(view), m_view(view) {}

protected:
    void paintEvent(QPaintEvent *event) override { m_view->paintGutter(event); }
    bool event(QEvent *event) override
    {
        if (event->type() != QEvent::ToolTip)
            return QWidget::event(event);
        auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = m_view->tooltipOf(m_view->cursorForPosition(QPoint(0, help->pos().y())).blockNumber());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }

private:
    SourceView *m_view;
};

class SourceView::Header : public QWidget
{
public:
    explicit Header(SourceView *view) : QWidget(view), m_view(view) {}

protected:
    void paintEvent(QPaintEvent *event) override { m_view->paintHeader(event); }

private:
    SourceView *m_view;
};

SourceView::SourceView(QWidget *parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this)), m_header(new Header(this))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(mono);
    m_gutter->setFont(mono);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &SourceView::highlightCurrent);
    layoutMargins();
    showMessage(tr("Pick a frame in the Flame Graph, or a file above, to see its lines."));
}

int64_t SourceView::weightOf(const SourceLine &line) const
{
    switch (m_weight) {
    case Weight::Self:
        return line.self;
    case Weight::Device:
        return line.device;
    case Weight::Total:
        break;
    }
    return line.total;
}

int SourceView::headerHeight() const
{
    return fontMetrics().height() + 4;
}

int SourceView::gutterWidth() const
{
    const QFontMetrics fm(m_gutter->font());
    const int duration = fm.horizontalAdvance(QStringLiteral("000.000 ms")) + kPad;
    const int line = fm.horizontalAdvance(QStringLiteral("00000")) + kPad;
    return 3 * duration + line + kPad;
}

void SourceView::layoutMargins()
{
    setViewportMargins(gutterWidth(), headerHeight(), 0, 0);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top() + headerHeight(), gutterWidth(), cr.height() - headerHeight()));
    m_header->setGeometry(QRect(cr.left(), cr.top(), cr.width(), headerHeight()));
}

void SourceView::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    layoutMargins();
}

void SourceView::setSource(std::shared_ptr<const SourceFile> file, const QStringList &text)
{
    m_file = std::move(file);
    m_lineOfRow.clear();
    m_statsOfRow.clear();
    m_showsText = !text.isEmpty();
    QStringList rows;
    if (m_showsText) {
        rows = text;
        m_lineOfRow.resize(size_t(text.size()));
        m_statsOfRow.assign(size_t(text.size()), nullptr);
        for (int i = 0; i < text.size(); ++i)
            m_lineOfRow[size_t(i)] = uint32_t(i + 1);
        if (m_file)
            for (const SourceLine &l : m_file->lines)
                if (l.line >= 1 && l.line <= uint32_t(text.size()))
                    m_statsOfRow[l.line - 1] = &l;
    } else if (m_file) {
        for (const SourceLine &l : m_file->lines) {
            QStringList functions;
            for (const std::string &f : l.functions)
                functions << QString::fromStdString(f);
            rows << QStringLiteral("    ") + functions.join(QStringLiteral(", ")); // the functions the frames name
            m_lineOfRow.push_back(l.line);
            m_statsOfRow.push_back(&l);
        }
    }
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setPlainText(rows.join(QLatin1Char('\n')));
    setWeight(m_weight); // the maximum, the repaint
    highlightCurrent();
}

void SourceView::showMessage(const QString &message)
{
    m_file.reset();
    m_lineOfRow.clear();
    m_statsOfRow.clear();
    m_showsText = false;
    m_max = 0;
    setLineWrapMode(QPlainTextEdit::WidgetWidth); // a message wraps; code does not
    setPlainText(message);
    setExtraSelections({});
    m_gutter->update();
    m_header->update();
}

void SourceView::setWeight(Weight weight)
{
    m_weight = weight;
    m_max = 0;
    if (m_file)
        for (const SourceLine &l : m_file->lines)
            m_max = std::max(m_max, weightOf(l));
    m_gutter->update();
    m_header->update();
}

uint32_t SourceView::lineOfRow(int row) const
{
    return row >= 0 && size_t(row) < m_lineOfRow.size() ? m_lineOfRow[size_t(row)] : 0;
}

const SourceLine *SourceView::statsOfRow(int row) const
{
    return row >= 0 && size_t(row) < m_statsOfRow.size() ? m_statsOfRow[size_t(row)] : nullptr;
}

uint32_t SourceView::currentLine() const
{
    return lineOfRow(textCursor().blockNumber());
}

int SourceView::hottestRow() const
{
    int best = -1;
    int64_t bestWeight = 0;
    for (size_t i = 0; i < m_statsOfRow.size(); ++i)
        if (m_statsOfRow[i] && weightOf(*m_statsOfRow[i]) > bestWeight) {
            bestWeight = weightOf(*m_statsOfRow[i]);
            best = int(i);
        }
    return best;
}

bool SourceView::goToLine(uint32_t line)
{
    const auto at = std::lower_bound(m_lineOfRow.begin(), m_lineOfRow.end(), line); // rows are in line order
    if (at == m_lineOfRow.end() || (m_showsText && *at != line))
        return false;
    const QTextBlock block = document()->findBlockByNumber(int(at - m_lineOfRow.begin()));
    QTextCursor cursor(block);
    setTextCursor(cursor);
    centerCursor();
    return true;
}

void SourceView::highlightCurrent()
{
    if (m_lineOfRow.empty()) {
        setExtraSelections({});
        return;
    }
    QTextEdit::ExtraSelection current;
    current.format.setBackground(isDark(palette()) ? QColor(60, 64, 80) : QColor(232, 240, 255));
    current.format.setProperty(QTextFormat::FullWidthSelection, true);
    current.cursor = textCursor();
    current.cursor.clearSelection();
    setExtraSelections({current});
    m_gutter->update();
}

void SourceView::paintHeader(QPaintEvent *)
{
    QPainter p(m_header);
    const bool dark = isDark(palette());
    p.fillRect(m_header->rect(), dark ? QColor(45, 45, 50) : QColor(238, 238, 240));
    p.setFont(m_gutter->font());
    const QFontMetrics fm(m_gutter->font());
    const int duration = fm.horizontalAdvance(QStringLiteral("000.000 ms")) + kPad;
    int x = 0;
    for (int c = 0; c < 4; ++c) {
        const int w = c < 3 ? duration : fm.horizontalAdvance(QStringLiteral("00000")) + kPad;
        QFont f = m_gutter->font();
        f.setBold(c == int(m_weight));
        p.setFont(f);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(x, 0, w, m_header->height()), Qt::AlignRight | Qt::AlignVCenter, tr(kColumns[c]));
        x += w;
    }
    p.setFont(m_gutter->font());
    QString title = m_file ? QString::fromStdString(m_file->path) : QString();
    p.drawText(QRect(gutterWidth() + 4, 0, m_header->width() - gutterWidth() - 8, m_header->height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(title, Qt::ElideMiddle, m_header->width() - gutterWidth() - 8));
}

void SourceView::paintGutter(QPaintEvent *event)
{
    QPainter p(m_gutter);
    const bool dark = isDark(palette());
    p.fillRect(event->rect(), dark ? QColor(36, 36, 40) : QColor(246, 246, 248));
    const QFontMetrics fm(m_gutter->font());
    const int duration = fm.horizontalAdvance(QStringLiteral("000.000 ms")) + kPad;
    const int lineWidth = fm.horizontalAdvance(QStringLiteral("00000")) + kPad;
    const QColor heat = m_weight == Weight::Device ? (dark ? QColor(120, 60, 35) : QColor(255, 205, 170))
                                                   : (dark ? QColor(40, 70, 120) : QColor(190, 215, 255));
    const QColor muted = dark ? QColor(140, 140, 140) : QColor(130, 130, 130);
    const int current = textCursor().blockNumber();
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        const int row = block.blockNumber();
        if (block.isVisible() && top + height >= event->rect().top() && size_t(row) < m_lineOfRow.size()) {
            if (const SourceLine *s = statsOfRow(row)) {
                const int64_t w = weightOf(*s);
                if (m_max > 0 && w > 0) {
                    const int x = int(m_weight) * duration;
                    const int len = std::max(2, int(double(duration - 2) * double(w) / double(m_max)));
                    p.fillRect(QRect(x + 2, top + 1, len, height - 2), heat); // from the column's left, under the number
                }
                const int64_t values[3] = {s->total, s->self, s->device};
                p.setPen(palette().color(QPalette::Text));
                for (int c = 0; c < 3; ++c)
                    if (values[c] > 0)
                        p.drawText(QRect(c * duration, top, duration - 2, height), Qt::AlignRight | Qt::AlignVCenter,
                                   DurationFormat::format(values[c]));
            }
            p.setPen(row == current ? palette().color(QPalette::Text) : muted);
            p.drawText(QRect(3 * duration, top, lineWidth - 2, height), Qt::AlignRight | Qt::AlignVCenter,
                       QString::number(m_lineOfRow[size_t(row)]));
        }
        block = block.next();
        top += height;
    }
}

QString SourceView::tooltipOf(int row) const
{
    const SourceLine *s = statsOfRow(row);
    if (!s)
        return {};
    QStringList functions;
    for (const std::string &f : s->functions)
        functions << QString::fromStdString(f);
    return tr("Line %1 (%2)\n%n call(s) · total %3 · self %4 · device launched %5", nullptr, int(s->calls))
        .arg(s->line)
        .arg(functions.join(QStringLiteral(", ")), DurationFormat::format(s->total), DurationFormat::format(s->self),
             DurationFormat::format(s->device));
}

bool SourceView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = tooltipOf(cursorForPosition(help->pos()).blockNumber());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

void SourceView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        layoutMargins();
        highlightCurrent();
        m_header->update();
    }
}

void SourceView::mouseDoubleClickEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseDoubleClickEvent(event);
    if (const uint32_t line = currentLine())
        emit lineActivated(line);
}

void SourceView::keyPressEvent(QKeyEvent *event)
{
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && currentLine()) {
        emit lineActivated(currentLine());
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

} // namespace lanescope
